"""Fit the search player's evaluation: who wins, predicted from a position, in persona games.

    python benchmarks/fit_evaluation.py --games 1500

Plays seeded games of the personas (green, balanced, freerider, fossil in random seats;
3 and 4 players) under the published rules and under the lesson-04 variant (plants score
1 VP, the race is to 8 VP). At the start of every turn it records
:func:`energies.bots.search.evaluation.features` of every seat; the label is the final winner (or nobody:
everyone loses, rule 14.2). A conditional-logit model (a softmax over the seats and
"nobody", one weight per feature, small L2 penalty) is fitted by gradient descent with
numpy, one weight set per rule family. It prints the weights to paste into
``energies.bots.search.evaluation.WEIGHTS`` / ``NOBODY_WINS`` and the fit's log-loss and accuracy on the last
fifth of the games (held out), beside a model that knows nothing (every seat alike).
"""

from __future__ import annotations

import argparse
import random

import energies as en
from energies.bots.search.evaluation import FEATURES, features
from energies.runner import bot_seed, game_seeds

PERSONAS = ("green", "balanced", "freerider", "fossil")
RULES = {
    "published": lambda n: en.RuleSet.standard(n),
    "plant_vp": lambda n: en.RuleSet.standard(n).replace(plant_vp=1, victory_points=8),
}


class _Recorder:
    """A persona that notes every seat's features whenever a new turn starts."""

    scores_unlisted_offers = True  # the persona inside scores offers 0.0 (see bots.StrategyBot)

    def __init__(self, bot, game, rows: list) -> None:
        self.bot, self.game, self.rows = bot, game, rows

    def decide(self, view, legal, rng):
        state = self.game.state
        if not self.rows or self.rows[-1][0] != state.turn:
            n = len(state.players)
            self.rows.append((state.turn, [features(state, s) for s in range(n)]))
        return self.bot.decide(view, legal, rng)


def positions(family: str, games: int, seed: int) -> list[tuple[list, list[float]]]:
    """(features of every seat, win share of every seat) for each recorded turn start."""
    out = []
    pick = random.Random(seed)
    for i, game_seed in enumerate(game_seeds(games, seed)):
        n = 4 if i % 2 == 0 else 3
        game = en.new_game(rules=RULES[family](n), seed=game_seed, history=False)
        lineup = [pick.choice(PERSONAS) for _ in range(n)]
        rows: list = []  # every seat's recorder writes here: one row per turn
        bots = [
            _Recorder(en.bots.make_bot(name, seed=bot_seed(game_seed, s)), game, rows)
            for s, name in enumerate(lineup)
        ]
        outcome = en.play(game, bots)
        if outcome.kind == "unfinished":
            continue
        share = [1 / len(outcome.winners) if s in outcome.winners else 0.0 for s in range(n)]
        out.append([(feats, share) for _, feats in rows])
    return out


def fit(games: list, steps: int = 1500, l2: float = 1e-3):
    """Weights and the "nobody wins" utility maximising the softmax likelihood."""
    import numpy as np

    by_n: dict[int, tuple] = {}
    for game in games:
        for feats, share in game:
            xs, ys = by_n.setdefault(len(feats), ([], []))
            xs.append(feats)
            ys.append([*share, 1.0 - sum(share)])  # the last column: nobody wins
    data = [(np.array(xs), np.array(ys)) for xs, ys in by_n.values()]
    k = len(FEATURES)
    w, nobody = np.zeros(k), 0.0
    rate = 0.5
    for _ in range(steps):
        grad, grad_nobody, count = np.zeros(k), 0.0, 0
        for x, y in data:
            u = np.concatenate([x @ w, np.full((len(x), 1), nobody)], axis=1)
            u -= u.max(axis=1, keepdims=True)
            p = np.exp(u)
            p /= p.sum(axis=1, keepdims=True)
            diff = y - p  # d log-likelihood / d utility
            grad += np.einsum("ns,nsk->k", diff[:, :-1], x)
            grad_nobody += diff[:, -1].sum()
            count += len(x)
        w += rate * (grad / count - l2 * w)
        nobody += rate * grad_nobody / count
    return w, nobody


def score(games: list, w, nobody: float) -> tuple[float, float, float]:
    """Log-loss of the model, of a know-nothing model, and how often the top seat won."""
    import numpy as np

    loss = flat = hits = count = 0.0
    for game in games:
        for feats, share in game:
            u = np.array([*(np.array(feats) @ w), nobody])
            p = np.exp(u - u.max())
            p /= p.sum()
            y = np.array([*share, 1.0 - sum(share)])
            loss -= float((y * np.log(p + 1e-12)).sum())
            flat -= float((y[:-1] * np.log(1 / len(feats))).sum())
            hits += y[int(np.argmax(p))]
            count += 1
    return loss / count, flat / count, hits / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="games per rule family")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    weights, nobodies = {}, {}
    for family in RULES:
        games = positions(family, args.games, args.seed)
        cut = len(games) * 4 // 5
        w, nobody = fit(games[:cut])
        loss, flat, hits = score(games[cut:], w, nobody)
        print(
            f"{family}: {len(games)} games; held-out log-loss {loss:.3f} "
            f"(know-nothing {flat:.3f}), top seat won {100 * hits:.1f}% of positions"
        )
        weights[family] = tuple(round(float(v), 3) for v in w)
        nobodies[family] = round(float(nobody), 3)
    print("WEIGHTS = {")
    for family, w in weights.items():
        print(f'    "{family}": {w},')
    print("}")
    print(f"NOBODY_WINS = {nobodies}")


if __name__ == "__main__":
    main()
