"""Cached tables the lessons read (written by the benchmarks; see energies.insight.strong)."""
