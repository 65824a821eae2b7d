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
    shipped_dilemma("classroom", "search", seed_set=2)   # the same tables on other games

A table may be shipped for more than one seed set (the ``seed`` column: game i of a table
is seeded from child i of ``numpy.random.SeedSequence(seed)``), so that a claim can be
checked on games it was not read from.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from .result import DilemmaResult

__all__ = [
    "BOT_SETS",
    "GAMES_FILE",
    "NAMED_RULES",
    "dilemma_tables",
    "named_rules",
    "shipped_dilemma",
    "shipped_seed_sets",
]

#: The rule sets the shipped tables measure, by the name their ``rules`` column holds.
NAMED_RULES = {
    "published": "RuleSet.standard(): the published game",
    "classroom": "RuleSet.classroom(): the short game for one lesson",
}
#: The shipped table of each set of bots.
BOT_SETS = {"personas": "dilemma.csv", "search": "dilemma_search.csv"}
#: The search tables' games, one line each (``rules``, ``seed_set``, ``k``, then
#: :func:`energies.simulate`'s ``game``, ``seed``, ``outcome``, ``winners`` as seats joined by
#: spaces, ``turns``, ``actions``, ``final_gf``, ``vp_<seat>``): the search players are too
#: slow to re-play a whole row in a test, so a test re-plays its first games against these.
GAMES_FILE = "dilemma_search_games.csv"


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
    columns (``seed`` names the seed set)."""
    import pandas as pd

    with resources.files("energies.data").joinpath(_bots_file(bots)).open() as f:
        return pd.read_csv(f)


def _measured(table, rules: str, players: int):
    if rules not in NAMED_RULES:
        raise ValueError(f"rules must be one of {sorted(NAMED_RULES)}, not {rules!r}.")
    return table[(table["rules"] == rules) & (table["players"] == players)]


def shipped_seed_sets(rules: str = "classroom", bots: str = "personas", players: int = 4):
    """The seed sets a shipped table of ``rules`` and ``bots`` was measured on, smallest first."""
    part = _measured(dilemma_tables(bots), rules, players)
    return sorted(int(seed) for seed in set(part["seed"]))


def shipped_dilemma(
    rules: str = "classroom", bots: str = "personas", players: int = 4, seed_set: int | None = None
):
    """The shipped dilemma of a named rule set as a :class:`DilemmaResult` (no game is played).

    ``rules``: "published" or "classroom"; ``bots``: "personas" (FossilRush against
    GreenInvestor) or "search" (the search player's fossil-only and renewable-only variants,
    the strong players); ``seed_set``: the seed the table's games were drawn from
    (:func:`shipped_seed_sets` lists them); None: the first (smallest) one.
    """
    table = dilemma_tables(bots)
    part = _measured(table, rules, players)
    if part.empty:
        measured = sorted(set(zip(table["rules"], table["players"])))
        raise ValueError(
            f"No shipped {bots} table for {rules!r} with {players} players; "
            f"the shipped ones are {measured}."
        )
    seeds = sorted(int(seed) for seed in set(part["seed"]))
    if seed_set is None:
        seed_set = seeds[0]
    if isinstance(seed_set, bool) or not isinstance(seed_set, int) or seed_set not in seeds:
        raise ValueError(
            f"seed_set must be one of the seed sets shipped for {bots} on {rules!r}, "
            f"{seeds}, not {seed_set!r}."
        )
    part = part[part["seed"] == seed_set]
    return DilemmaResult(part.reset_index(drop=True), name=rules)
