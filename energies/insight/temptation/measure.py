"""Measuring the dilemma: the same games with 0, 1, .., n fossil-leaning seats at the table.

For each k, :func:`dilemma_row` plays ``games`` seeded games with k seats of
``strategies[0]`` (the fossil-leaning strategy) and n - k of ``strategies[1]`` (the green
one). Game i seats line-up rotation i % n, so every seat position is played equally often by
each strategy and the start player's luck averages out; every k uses the same game seeds
(``simulate(seed=...)``), so the tables differ only in who sits at them.
"""

from __future__ import annotations

import math
from typing import Any

from ..intervals import mean_interval, wilson
from ..payoff import lineups_for

__all__ = ["OUTCOME_KINDS", "check_strategies", "dilemma", "dilemma_row", "rules_for"]

OUTCOME_KINDS = ("victory_points", "empty_bag", "everyone_loses", "unfinished")


def rules_for(rules: Any, players: Any):
    """The rule set a measurement plays: ``rules`` (a RuleSet for ``players``) or, for None,
    the published rules for ``players``. A clear ValueError for anything else."""
    from ...newenergies.rules import RuleSet

    if players not in (3, 4) or isinstance(players, bool):
        raise ValueError(f"players must be 3 or 4 (New Energies' table sizes), not {players!r}.")
    if rules is None:
        return RuleSet.standard(players)
    if not isinstance(rules, RuleSet):
        raise ValueError(
            f"rules must be a RuleSet, e.g. en.RuleSet.classroom(), not {type(rules).__name__}."
        )
    if rules.players != players:
        raise ValueError(
            f"rules are for {rules.players} players but players is {players}: "
            f"pass players={rules.players}."
        )
    return rules


def check_strategies(strategies: Any) -> tuple[str, str]:
    """The bot names of the two strategies (fossil-leaning first); a ValueError names the
    problem when they are not two different, known bots."""
    from ...bots import make_bot
    from ...runner import bot_name

    if not isinstance(strategies, (list, tuple)) or len(strategies) != 2:
        raise ValueError(
            "strategies must be two bots, the fossil-leaning one first, e.g. ('fossil', 'green')."
        )
    for spec in strategies:
        make_bot(spec)  # a clear ValueError for an unknown name
    names = (bot_name(strategies[0]), bot_name(strategies[1]))
    if names[0] == names[1]:
        raise ValueError(f"strategies must be two different bots, not {names[0]!r} twice.")
    return names


def _roles(k: int, players: int) -> list[tuple[bool, ...]]:
    """Per line-up rotation (as :func:`lineups_for` orders them): is each seat fossil?"""
    return lineups_for((True, False), k, players)


def dilemma_row(
    rules: Any,
    k: int,
    games: int = 200,
    strategies: Any = ("fossil", "green"),
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
) -> dict[str, Any]:
    """One row of the dilemma table: ``games`` games with k fossil-leaning seats.

    Columns: ``k``, ``players``, ``games``, ``seed``, ``fossil_bot`` and ``green_bot`` (the two
    strategies' names), ``fossil_seats`` and ``green_seats`` (seats played);
    ``fossil_win_rate`` and ``green_win_rate`` (wins per seat played, a shared win split among
    its winners; NaN without such a seat) with 95 % Wilson intervals ``*_low`` .. ``*_high``;
    ``seat_gap`` (the fossil seats' win rate minus the green seats' at this table, 0 < k < n)
    with the normal interval of the per-game paired difference; ``everyone_loses`` (rule 14.2)
    with its Wilson interval over games; ``expected_winners`` (mean number of winning seats,
    a shared win counting each winner) with its normal interval; the ``outcome_<kind>``
    shares, ``mean_turns`` and ``mean_final_gf``.
    """
    from ...runner import simulate

    rules = rules_for(rules, getattr(rules, "players", 4))
    players = rules.players
    if k not in range(players + 1) or isinstance(k, bool):
        raise ValueError(f"k must be a number of seats from 0 to {players}, not {k!r}.")
    fossil_bot, green_bot = check_strategies(strategies)
    lineups = [list(lineup) for lineup in lineups_for(tuple(strategies), k, players)]
    frame = simulate(games, lineups, rules=rules, seed=seed, jobs=jobs, progress=progress)
    roles = _roles(k, players)
    fossil_wins = green_wins = 0.0
    gaps, winners = [], []
    for index, row in enumerate(frame.to_dict("records")):
        won = tuple(row["winners"])
        fossil_share = green_share = 0.0
        for seat in won:
            if roles[index % len(roles)][seat]:
                fossil_share += 1 / len(won)
            else:
                green_share += 1 / len(won)
        fossil_wins += fossil_share
        green_wins += green_share
        winners.append(len(won))
        if 0 < k < players:  # per seat, so a table of 1 fossil and 3 greens compares fairly
            gaps.append(fossil_share / k - green_share / (players - k))
    fossil_seats, green_seats = k * games, (players - k) * games
    out: dict[str, Any] = {
        "k": k,
        "players": players,
        "games": games,
        "seed": seed,
        "fossil_bot": fossil_bot,
        "green_bot": green_bot,
        "fossil_seats": fossil_seats,
        "green_seats": green_seats,
    }
    for side, wins, seats in (
        ("fossil", fossil_wins, fossil_seats),
        ("green", green_wins, green_seats),
    ):
        rate = wins / seats if seats else math.nan
        low, high = wilson(rate, seats) if seats else (math.nan, math.nan)
        out.update({f"{side}_win_rate": rate, f"{side}_win_low": low, f"{side}_win_high": high})
    out["seat_gap"], out["seat_gap_low"], out["seat_gap_high"] = (
        mean_interval(gaps) if gaps else (math.nan, math.nan, math.nan)
    )
    lost = float(frame["everyone_loses"].mean())
    out["everyone_loses"] = lost
    out["everyone_loses_low"], out["everyone_loses_high"] = wilson(lost, games)
    out["expected_winners"], out["expected_winners_low"], out["expected_winners_high"] = (
        mean_interval(winners)
    )
    shares = frame["outcome"].value_counts(normalize=True)
    for kind in OUTCOME_KINDS:
        out[f"outcome_{kind}"] = float(shares.get(kind, 0.0))
    out["mean_turns"] = float(frame["turns"].mean())
    out["mean_final_gf"] = float(frame["final_gf"].mean())
    return out


def dilemma(
    rules: Any = None,
    players: int = 4,
    games: int = 200,
    strategies: Any = ("fossil", "green"),
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
):
    """Measure and classify the dilemma of a rule set; return a :class:`DilemmaResult`.

    For each k = 0 .. players, ``games`` seeded games with k seats of ``strategies[0]`` (the
    fossil-leaning strategy) and the rest ``strategies[1]`` (:func:`dilemma_row`); then the
    table is classified (:func:`~energies.insight.temptation.verdict.classify`): social
    dilemma, volunteer's dilemma, chicken, no temptation, other, or "undecided at N games".

    ``rules``: a :class:`~energies.RuleSet` for ``players`` players (None: the published
    rules). ``strategies``: two bot names, classes or objects — the personas ``("fossil",
    "green")`` by default, or the search player's restricted variants ``("search-fossil",
    "search-green")``, about a hundred times slower. ``seed``, ``jobs`` and ``progress`` go
    to :func:`energies.simulate` (the rows are the same for any ``jobs``).
    """
    from .result import DilemmaResult

    rules = rules_for(rules, players)
    check_strategies(strategies)
    rows = [
        dilemma_row(rules, k, games, strategies, seed=seed, jobs=jobs, progress=progress)
        for k in range(players + 1)
    ]
    import pandas as pd

    return DilemmaResult(pd.DataFrame.from_records(rows), rules=rules)
