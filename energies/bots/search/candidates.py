"""The search player's candidates and its rule for overruling its persona.

:func:`ranked` orders actions by a persona's score, :func:`kind_key` groups them so each
kind of action (each plant kind, each card, a supply trade that completes a build) gets its
best representative among the candidates, :class:`Restricted` keeps a fossil-only or
renewable-only persona to its kind, and :func:`significant_best` decides, from the same
sampled worlds for every candidate, whether one beats the persona's own choice clearly
enough to play it instead (see :mod:`energies.bots.search`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...newenergies.actions import Action, BuildPlant, PlayDevCard, TradeWithSupply
from ...newenergies.engine.checks import supply_rates

MIN_WORLDS = 3  # fewer sampled worlds than this never overrule the persona's choice


def ranked(persona, state, actions: list[Action]) -> list[Action]:
    """``actions`` best first by ``persona``'s score (ties: listing order)."""
    persona._memo = {}  # StrategyBot.decide sets this per decision; score() reads it
    needs = persona._needs(state, actions[0].seat)
    scored = [(persona.score(state, a, needs), -i, a) for i, a in enumerate(actions)]
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    persona._memo = None
    return [a for _, _, a in scored]


BUILDS = ("city", "town", "renewable", "fossil", "dev_card")


def affords(rules, hand: dict, item: str) -> bool:
    return all(hand.get(k, 0) >= n for k, n in rules.cost(item).items())


def kind_key(state, a: Action) -> tuple | None:
    """The group ``a`` stands for among the candidates: its kind, the plant kind, the card;
    a supply trade only if it completes a build the hand could not pay before; else None."""
    if isinstance(a, BuildPlant):
        return (a.kind, a.plant)
    if isinstance(a, PlayDevCard):
        return (a.kind, a.card)
    if isinstance(a, TradeWithSupply):
        p, rules = state.players[a.seat], state.rules
        if a.give == "energy" or a.get == "energy":
            return None  # energy pays for nothing a hand buys
        rate = supply_rates(state, a.seat)[a.give]
        after = dict(p.hand)
        after[a.give] -= rate
        after[a.get] = after.get(a.get, 0) + 1
        new = [i for i in BUILDS if affords(rules, after, i) and not affords(rules, p.hand, i)]
        return (a.kind,) if new else None
    if a.kind in ("end_turn", "offer_trade", "ask_for_proposals"):
        return None  # (asking the table: the persona never asks, nor does the search)
    return (a.kind,)


class Restricted:
    """A persona that never builds a plant of one kind (unless nothing else is legal)."""

    def __init__(self, persona, banned: str | None) -> None:
        self.persona, self.banned = persona, banned

    def decide(self, state, legal, rng):
        return self.persona.decide(state, allowed(legal, self.banned), rng)


def _t_quantile(z: float, df: int) -> float:
    """Student's t quantile for the normal quantile ``z`` and ``df`` degrees of freedom (the
    Cornish-Fisher expansion; within 1 % of the exact value from 3 degrees of freedom on)."""
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def significant_best(values: list[list[float | None]], confidence: float) -> int:
    """The candidate whose gain over candidate 0 (the persona's choice), world by world, is
    largest and significantly above zero; else 0.

    Significant: the mean gain is above ``confidence`` standard errors, ``confidence`` read as
    a normal quantile and widened to Student's t for the number of worlds (with 4 worlds a
    2-sigma gain is chance one time in 14; t asks for 3.2 sigma). The same sampled worlds
    serve every candidate (common random numbers), so the paired differences cancel most of
    the luck of the dice and the draws.
    """
    best, best_gain = 0, 0.0
    for i in range(1, len(values)):
        diffs = [v - v0 for v, v0 in zip(values[i], values[0]) if v is not None and v0 is not None]
        if len(diffs) < MIN_WORLDS:
            continue
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        error = (var / len(diffs)) ** 0.5
        if mean > best_gain and mean > _t_quantile(confidence, len(diffs) - 1) * error:
            best, best_gain = i, mean
    return best


def allowed(legal: Sequence[Action], banned: str | None) -> list[Action]:
    if banned is None:
        return list(legal)
    kept = [a for a in legal if not (isinstance(a, BuildPlant) and a.plant == banned)]
    return kept or list(legal)
