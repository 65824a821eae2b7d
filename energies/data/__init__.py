"""Cached tables the lessons read, written by the benchmarks: search_question.csv
(energies.insight.strong), dilemma.csv, dilemma_search.csv and dilemma_map.csv
(energies.insight.temptation)."""
