"""Engine speed: games/s and applied actions/s for random-bot games (a report, not a test).

python benchmarks/engine_speed.py --games 200 --players 4
"""

from __future__ import annotations

import argparse
import collections
import time

import energies as en


def run(games: int, players: int, seed: int) -> dict:
    outcomes: collections.Counter = collections.Counter()
    actions = turns = 0
    start = time.perf_counter()
    for offset in range(games):
        game = en.new_game(players=players, seed=seed + offset)
        outcome = en.play(game, [en.bots.RandomBot() for _ in range(players)])
        outcomes[outcome.kind] += 1
        actions += len(game.actions)
        turns += game.turn
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "players": players,
        "seconds": round(seconds, 2),
        "games_per_s": round(games / seconds, 1),
        "actions_per_s": round(actions / seconds),
        "mean_actions": round(actions / games, 1),
        "mean_turns": round(turns / games, 1),
        "outcomes": dict(outcomes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for key, value in run(args.games, args.players, args.seed).items():
        print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
