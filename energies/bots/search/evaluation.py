"""The search player's evaluation: each seat's fitted chance of winning from a position.

A softmax over the seats and "nobody wins" of weighted :func:`features`, the weights fitted
on who won persona games (``benchmarks/fit_evaluation.py``); see :mod:`energies.bots.search`.
"""

from __future__ import annotations

import math

__all__ = ["FEATURES", "NOBODY_WINS", "WEIGHTS", "evaluate", "features", "win_chances"]

# ==============================================================================================
# Evaluation
# ==============================================================================================


def _bag_progress(state) -> float:
    """How far the bag has emptied: 0 with every brown disc in it, 1 when empty (rule 14.2)."""
    start = sum(count for _, count in state.rules.brown_discs) or 1
    return max(0.0, min(1.0, 1 - len(state.bag) / start))


#: Names of :func:`features`, in order (benchmarks/fit_evaluation.py fits a weight for each).
FEATURES = (
    "vp_share", "vp_share_late", "vp_near_win", "balance", "balance_late", "qualifies",
    "qualifies_late", "production", "cards", "science", "energy",
)  # fmt: skip

#: Weights of :func:`features` fitted by ``python benchmarks/fit_evaluation.py`` (a softmax
#: over the seats and "nobody wins" predicting the final winner from persona games): one set
#: where plants score no VP (the published rules) and one where they do (lesson 04).
WEIGHTS = {
    "published": (1.718, 0.983, 0.939, 0.404, 0.273, 0.891, 0.018, 0.426, 0.371, 1.008, 0.818),
    "plant_vp": (4.182, 0.627, 1.657, -0.492, 1.104, 0.712, -0.549, 0.015, 0.848, 0.228, 1.622),
}
NOBODY_WINS = {"published": -0.175, "plant_vp": -0.625}  # utility of "everyone loses" (rule 14.2)


def features(state, seat: int) -> tuple[float, ...]:
    """What predicts whether ``seat`` wins, read from a (sampled) state; see :data:`FEATURES`.

    ``t`` (late) is how far the bag has emptied: the nearer the empty-bag ending, the more the
    plant balance decides the winner (rule 14.2); VP are counted against the target (14.1).
    """
    p, board, rules = state.players[seat], state.board, state.rules
    t = _bag_progress(state)
    vp_share = state.victory_points(seat) / rules.victory_points
    balance = p.count_plants("renewable") - p.count_plants("fossil")
    qualifies = 1.0 if balance > 0 else 0.0  # rule 14.2: strictly more renewable than fossil
    production = sum(board.corner_pips(c) for c in p.towns) + 2 * sum(
        board.corner_pips(c) for c in p.cities
    )
    return (
        vp_share,
        vp_share * t,
        max(0.0, vp_share - 0.7),  # two or three VP from a win: one good turn ends it
        balance,
        balance * t,
        qualifies,
        qualifies * t,
        production / 10,
        min(p.cards, 10) / 10,
        p.hand.get("science", 0) / 5,
        p.energy / 10,
    )


def _rule_key(rules) -> str:
    return "plant_vp" if rules.plant_vp else "published"


def win_chances(state) -> list[float]:
    """Each seat's fitted chance of winning from ``state`` (the rest: everyone loses)."""
    key = _rule_key(state.rules)
    weights = WEIGHTS[key]
    utilities = [
        sum(w * f for w, f in zip(weights, features(state, s))) for s in range(len(state.players))
    ]
    top = max(max(utilities), NOBODY_WINS[key])
    exps = [math.exp(u - top) for u in utilities]
    total = sum(exps) + math.exp(NOBODY_WINS[key] - top)
    return [e / total for e in exps]


def evaluate(state, seat: int) -> float:
    """How good ``state`` is for ``seat``: its share of the win if the game is over (0 for a
    loss, everyone losing included), else its fitted chance of winning (:func:`win_chances`)."""
    outcome = state.outcome
    if outcome is not None:
        return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    return win_chances(state)[seat]
