"""The dilemma, measured: is fossil power tempting for one player and harmful for all?

    import energies as en
    from energies.insight import dilemma, shipped_dilemma, plot_dilemma_map

    result = dilemma(en.RuleSet.classroom(), games=200)   # plays 5 x 200 persona games
    result.table       # one row per number k of fossil-leaning seats
    result.verdict     # "social dilemma", "chicken", ... or "undecided at 200 games"
    result.plot()
    shipped_dilemma("classroom").verdict                  # the shipped table, no game played
    plot_dilemma_map()                                    # which rules make which game

The parts: :mod:`.measure` (the games and one table row per k), :mod:`.verdict` (the
criteria), :mod:`.result` (:class:`DilemmaResult`), :mod:`.shipped` (the tables in
``energies/data``) and :mod:`.policy` (the map of rule knobs). ``docs/insight.md`` section 5
explains the criteria and how uncertainty is handled.
"""

from __future__ import annotations

from .measure import dilemma, dilemma_row
from .policy import KNOBS, PUBLISHED_KNOBS, dilemma_map, plot_dilemma_map, policy_rules
from .result import DilemmaResult
from .shipped import NAMED_RULES, dilemma_tables, named_rules, shipped_dilemma
from .verdict import VERDICTS, Verdict, classify

__all__ = [
    "KNOBS",
    "NAMED_RULES",
    "PUBLISHED_KNOBS",
    "VERDICTS",
    "DilemmaResult",
    "Verdict",
    "classify",
    "dilemma",
    "dilemma_map",
    "dilemma_row",
    "dilemma_tables",
    "named_rules",
    "plot_dilemma_map",
    "policy_rules",
    "shipped_dilemma",
]
