"""Worst Longest Road search we can construct: a hill climb over road networks.

    python benchmarks/longest_road_worst.py --roads 24 --rounds 3000 --seed 1

Starting from random connected networks of ``--roads`` roads of one seat (opponents'
buildings optional), it keeps changes that make ``awards.longest_road`` take more CPU
time, and prints the slowest network found with its time (best of 5 repeats).
A report, not a test: docs/guarantees.md quotes its result.
"""

from __future__ import annotations

import argparse
import random
import time

import energies as en
from energies.newenergies.engine import awards


def cost(state, seat: int = 0, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        awards.longest_road(state, seat)
        best = min(best, time.process_time() - start)
    return best


def random_network(board, roads: int, rng: random.Random) -> set[int]:
    """A connected set of paths grown from a random path."""
    chosen = {rng.randrange(len(board.paths))}
    while len(chosen) < roads:
        corners = {c for p in chosen for c in board.paths[p]}
        frontier = sorted({q for c in corners for q in board.corner_paths_of[c]} - chosen)
        chosen.add(rng.choice(frontier))
    return chosen


def mutate(board, roads: set[int], rng: random.Random) -> set[int]:
    """Move one road elsewhere (the network may fall apart: that is allowed too)."""
    out = set(roads)
    out.remove(rng.choice(sorted(out)))
    corners = {c for p in out for c in board.paths[p]}
    frontier = sorted({q for c in corners for q in board.corner_paths_of[c]} - out)
    out.add(rng.choice(frontier or sorted(set(range(len(board.paths))) - out)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--roads", type=int, default=en.newenergies.rules.MAX_ROADS)
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    game = en.new_game(seed=args.seed, rules=en.RuleSet.standard(4, roads=args.roads))
    en.sandbox.clear_board(game)
    state = game.state
    roads = random_network(state.board, args.roads, rng)
    state.players[0].roads = roads
    worst = cost(state)
    for _ in range(args.rounds):
        trial = mutate(state.board, roads, rng)
        state.players[0].roads = trial
        spent = cost(state, repeats=2)
        if spent >= worst:
            state.players[0].roads = trial
            spent = cost(state)
            if spent >= worst:
                roads, worst = trial, spent
        state.players[0].roads = roads
    length = awards.longest_road(state, 0)
    print(f"{args.roads} roads, {args.rounds} rounds, seed {args.seed}: slowest network found")
    print(f"  roads {sorted(roads)}")
    print(f"  longest road {length}, search {worst * 1000:.2f} ms CPU (best of 5)")


if __name__ == "__main__":
    main()
