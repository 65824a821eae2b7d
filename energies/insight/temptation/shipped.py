"""The dilemma tables that ship with the package, so a lesson cell only reads them.

``benchmarks/dilemma.py`` measures the named rule sets of :data:`NAMED_RULES` with
:func:`~energies.insight.temptation.measure.dilemma` and writes

* ``energies/data/dilemma.csv`` — the personas FossilRush ("fossil") and GreenInvestor
  ("green"), ``--bots personas``;
* ``energies/data/dilemma_search.csv`` — the search player's restricted variants
  ("search-fossil", "search-green"), ``--bots search``: the check of the persona verdicts.

    from energies.insight import shipped_dilemma
    result = shipped_dilemma("classroom")       # a DilemmaResult, no game played
    result.verdict, result.table
    result.plot()
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from .result import DilemmaResult

__all__ = ["BOT_SETS", "NAMED_RULES", "dilemma_tables", "named_rules", "shipped_dilemma"]

#: The rule sets the shipped tables measure, by the name their ``rules`` column holds.
NAMED_RULES = {
    "published": "RuleSet.standard(): the published game",
    "classroom": "RuleSet.classroom(): the short game for one lesson",
}
#: The shipped table of each set of bots.
BOT_SETS = {"personas": "dilemma.csv", "search": "dilemma_search.csv"}


def named_rules(name: str, players: int = 4):
    """The rule set a shipped table calls ``name`` ("published" or "classroom")."""
    from ...newenergies.rules import RuleSet

    if name not in NAMED_RULES:
        raise ValueError(f"rules must be one of {sorted(NAMED_RULES)}, not {name!r}.")
    return RuleSet.standard(players) if name == "published" else RuleSet.classroom(players)


def _bots_file(bots: Any) -> str:
    if bots not in BOT_SETS:
        raise ValueError(f"bots must be one of {sorted(BOT_SETS)}, not {bots!r}.")
    return BOT_SETS[bots]


def dilemma_tables(bots: str = "personas"):
    """Every shipped dilemma table of these ``bots`` ("personas" or "search") as one pandas
    DataFrame: a ``rules`` column naming the rule set, ``budget`` (the search player's rollouts
    per decision; 0 for personas), then :func:`~energies.insight.temptation.measure.dilemma_row`'s
    columns."""
    import pandas as pd

    with resources.files("energies.data").joinpath(_bots_file(bots)).open() as f:
        return pd.read_csv(f)


def shipped_dilemma(rules: str = "classroom", bots: str = "personas", players: int = 4):
    """The shipped dilemma of a named rule set as a :class:`DilemmaResult` (no game is played).

    ``rules``: "published" or "classroom"; ``bots``: "personas" (FossilRush against
    GreenInvestor) or "search" (the search player's fossil-only and renewable-only variants,
    fewer games: the check).
    """
    if rules not in NAMED_RULES:
        raise ValueError(f"rules must be one of {sorted(NAMED_RULES)}, not {rules!r}.")
    table = dilemma_tables(bots)
    part = table[(table["rules"] == rules) & (table["players"] == players)]
    if part.empty:
        measured = sorted(set(zip(table["rules"], table["players"])))
        raise ValueError(
            f"No shipped {bots} table for {rules!r} with {players} players; "
            f"the shipped ones are {measured}."
        )
    return DilemmaResult(part.reset_index(drop=True), name=rules)
