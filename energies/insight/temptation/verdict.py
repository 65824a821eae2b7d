"""Which game is it? The dilemma table classified, each verdict stated only when the data show it.

The criteria (also in ``docs/insight.md``, section 5). A table has one row per number k of
fossil-leaning seats, k = 0 .. n. ``F(k)`` is a fossil seat's win rate at a table with k
fossil seats, ``G(k)`` a green seat's (a shared win split among its winners).

* The **switching gain** ``D(k) = F(k) - G(k-1)``, k = 1 .. n: what one player gains by
  playing fossil instead of green while k - 1 of the others play fossil (the others are the
  same either way). Its sign is ``+`` when the 95 % interval of the difference (Newcombe's,
  from the two Wilson intervals) lies above zero, ``-`` below zero, ``?`` otherwise.
* The **collective comparison** ``G(0) - F(n)``: a seat of an all-green table against a
  seat of an all-fossil table, signed the same way.
* The **volunteers' gap** ``F(k) - G(k)`` at one table (0 < k < n): the fossil seats' win
  rate minus the green seats' in the same games, with the normal interval of the per-game
  paired difference (the two are measured on the same games, so Newcombe's interval for
  independent samples would be too narrow).

With every sign known, the game is

* a **social dilemma** when every ``D(k)`` is ``+`` (fossil pays whatever the others do)
  and the collective comparison is ``+`` (everyone does better at an all-green table);
* **chicken** when fossil pays only while few choose it: ``D(1)`` is ``+``, ``D(n)`` is
  ``-``, and the signs change once, from ``+`` to ``-``. Let k* be the last k with
  ``D(k) = +`` (the mix where nobody wants to switch). When the green seats of that mix
  win *less* than its fossil seats (the volunteers' gap at k* is ``+``), greens are
  volunteers who pay for keeping the table from the all-fossil outcome: a **volunteer's
  dilemma** (a kind of chicken);
* **no temptation** when every ``D(k)`` is ``-`` (green pays whatever the others do);
* **other** for every other pattern (fossil pays always but all-fossil tables do no worse;
  green pays while few choose it, ...).

Uncertainty: a ``?`` may be either sign. The verdict is stated only when every way of
reading the ``?`` signs gives the same verdict (chicken also when the readings differ only
in whether it is a volunteer's dilemma); otherwise it is "undecided at N games", and
:attr:`Verdict.possible` lists the verdicts still open. Each stated verdict rests on a few
95 % intervals that must *all* exclude zero, an intersection-union test: the chance of
stating a verdict that is false stays below 5 % without a correction for the number of
comparisons.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ..intervals import newcombe

__all__ = [
    "CHICKEN",
    "NO_TEMPTATION",
    "OTHER",
    "SOCIAL_DILEMMA",
    "UNDECIDED",
    "VERDICTS",
    "VOLUNTEERS_DILEMMA",
    "Comparison",
    "Verdict",
    "classify",
    "classify_signs",
    "signed_points",
]

SOCIAL_DILEMMA = "social dilemma"
CHICKEN = "chicken"
VOLUNTEERS_DILEMMA = "volunteer's dilemma"
NO_TEMPTATION = "no temptation"
OTHER = "other"
UNDECIDED = "undecided"
#: Every verdict, in the order the map's legend shows them.
VERDICTS = (SOCIAL_DILEMMA, VOLUNTEERS_DILEMMA, CHICKEN, NO_TEMPTATION, OTHER, UNDECIDED)

#: Columns a table needs to be classified (``dilemma()`` writes them all).
NEEDED = (
    "k",
    "games",
    "fossil_win_rate",
    "fossil_seats",
    "green_win_rate",
    "green_seats",
    "seat_gap",
    "seat_gap_low",
    "seat_gap_high",
)


@dataclass(frozen=True)
class Comparison:
    """One difference of win rates with its 95 % interval; ``sign`` is +1, -1 or 0 (unknown)."""

    name: str
    k: int
    value: float
    low: float
    high: float

    @property
    def sign(self) -> int:
        if self.low > 0:
            return 1
        if self.high < 0:
            return -1
        return 0

    def text(self) -> str:
        """'+21 points (95 % CI +13 to +29)'."""
        return (
            f"{signed_points(self.value)} points "
            f"(95 % CI {signed_points(self.low)} to {signed_points(self.high)})"
        )


@dataclass(frozen=True)
class Verdict:
    """A classified dilemma table.

    ``kind``: one of :data:`VERDICTS`; ``text``: the kind, or "undecided at N games";
    ``possible``: the verdicts the data leave open (one when decided); ``gains``: the
    switching gains D(1) .. D(n); ``collective``: G(0) - F(n); ``gaps``: the volunteers'
    gaps F(k) - G(k), k = 1 .. n-1; ``games``: the fewest games of a table.
    """

    kind: str
    text: str
    possible: tuple[str, ...]
    gains: tuple[Comparison, ...]
    collective: Comparison
    gaps: tuple[Comparison, ...]
    games: int

    def reason(self) -> str:
        """The evidence in a few sentences."""
        parts = ["Switching from green to fossil, with k - 1 others on fossil:"]
        parts += [f"k = {g.k}: {g.text()}" for g in self.gains]
        sentence = parts[0] + " " + "; ".join(parts[1:]) + "."
        collective = f" All-green seat minus all-fossil seat: {self.collective.text()}."
        if self.kind == UNDECIDED:
            still = " or ".join(self.possible)
            return f"{sentence}{collective} Still possible at {self.games} games: {still}."
        return sentence + collective


def signed_points(share: float) -> str:
    """A difference of shares in signed percentage points, '+3'; never '-0'."""
    if math.isnan(share) or math.isinf(share):
        return "?"
    points = round(100 * share)
    return f"{points:+d}" if points else "0"


def _sign_kind(gains: tuple[int, ...], collective: int, gaps: tuple[int, ...]) -> str:
    """The verdict when every sign is known (+1 or -1); ``gaps[k-1]`` is the sign at k."""
    if all(s > 0 for s in gains):
        return SOCIAL_DILEMMA if collective > 0 else OTHER
    if all(s < 0 for s in gains):
        return NO_TEMPTATION
    switch = gains.index(-1)  # gains[i] is D(i + 1): D(switch) is the last + before it
    if switch > 0 and all(s < 0 for s in gains[switch:]):
        return VOLUNTEERS_DILEMMA if gaps[switch - 1] > 0 else CHICKEN
    return OTHER


def classify_signs(
    gains: tuple[int, ...], collective: int, gaps: tuple[int, ...]
) -> tuple[str, tuple[str, ...]]:
    """The verdict from the signs (+1, -1, or 0 for unknown) and the verdicts still possible.

    ``gains``: D(1) .. D(n); ``collective``: G(0) - F(n); ``gaps``: F(k) - G(k), k = 1 .. n-1.
    Every unknown sign is read both ways; the verdict is stated when all readings agree
    (chicken also when they differ only in being a volunteer's dilemma), else
    :data:`UNDECIDED`.
    """
    signs = (*gains, collective, *gaps)
    unknown = [i for i, s in enumerate(signs) if s == 0]
    possible = set()
    for reading in itertools.product((1, -1), repeat=len(unknown)):
        filled = list(signs)
        for i, s in zip(unknown, reading):
            filled[i] = s
        n = len(gains)
        possible.add(_sign_kind(tuple(filled[:n]), filled[n], tuple(filled[n + 1 :])))
    ordered = tuple(v for v in VERDICTS if v in possible)
    if len(ordered) == 1:
        return ordered[0], ordered
    if set(ordered) <= {CHICKEN, VOLUNTEERS_DILEMMA}:
        return CHICKEN, ordered
    return UNDECIDED, ordered


def _row(table, k: int):
    rows = table[table["k"] == k]
    if len(rows) != 1:
        raise ValueError(f"The dilemma table needs exactly one row for k = {k}.")
    return rows.iloc[0]


def classify(table) -> Verdict:
    """Classify a dilemma table (one row per k = 0 .. n, as :func:`dilemma` makes it)."""
    missing = [c for c in NEEDED if c not in getattr(table, "columns", ())]
    if missing:
        raise ValueError(f"table must be a dilemma table; it lacks the columns {missing}.")
    n = int(table["k"].max())
    if n < 2 or sorted(table["k"]) != list(range(n + 1)):
        raise ValueError("table must hold one row for every k from 0 to the number of players.")
    rows = [_row(table, k) for k in range(n + 1)]

    def rate(row, side: str) -> tuple[float, int]:
        return float(row[f"{side}_win_rate"]), int(row[f"{side}_seats"])

    gains = tuple(
        Comparison(
            "switching gain", k, *_difference(rate(rows[k], "fossil"), rate(rows[k - 1], "green"))
        )
        for k in range(1, n + 1)
    )
    collective = Comparison(
        "all green minus all fossil",
        n,
        *_difference(rate(rows[0], "green"), rate(rows[n], "fossil")),
    )
    gaps = tuple(
        Comparison(
            "fossil minus green seat at one table",
            k,
            float(rows[k]["seat_gap"]),
            float(rows[k]["seat_gap_low"]),
            float(rows[k]["seat_gap_high"]),
        )
        for k in range(1, n)
    )
    kind, possible = classify_signs(
        tuple(g.sign for g in gains), collective.sign, tuple(g.sign for g in gaps)
    )
    games = int(table["games"].min())
    text = f"undecided at {games} games" if kind == UNDECIDED else kind
    return Verdict(kind, text, possible, gains, collective, gaps, games)


def _difference(first: tuple[float, int], second: tuple[float, int]) -> tuple[float, float, float]:
    (p1, n1), (p2, n2) = first, second
    if n1 == 0 or n2 == 0 or math.isnan(p1) or math.isnan(p2):
        return math.nan, -math.inf, math.inf
    low, high = newcombe(p1, n1, p2, n2)
    return p1 - p2, low, high
