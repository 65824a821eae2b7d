"""Fit the weights of energies.bots.plan.Planner: a coordinate search on who wins persona games.

    nice -n 5 python benchmarks/tune_plan.py tune --games 400 --passes 4
    nice -n 5 python benchmarks/tune_plan.py confirm --games 2000
    nice -n 5 python benchmarks/tune_plan.py confirm --games 200 --seed 0

``tune``: the Planner plays one seat (game i: seat i % 4) against the three strongest
personas (green, balanced, freerider; 4 players, published rules), the table of
benchmarks/search_strength.py. Each pass draws a fresh batch of games (seeds
``game_seeds(games, 1000 + pass)``: disjoint from the benchmarks' seeds 0, 1 and 7),
scores the current weights on it, then tries every weight one step up and one step down on
the same games (paired: the same dice, draws and rivals) and keeps a change that wins at least
``--margin`` more games per hundred; a weight whose steps both fail has its step halved. A
fresh batch each pass keeps the search from fitting one batch's luck.

``confirm``: the fitted weights (``benchmarks/results/tune_plan.json``) and GreenInvestor
in the same seat of fresh games (seed 2000), paired, with a 95 % interval of the gain;
``--seed 0`` plays the games of benchmarks/search_strength.py instead (the persona alone in
the search seat). Each seed keeps its own result.

Results are rewritten after every evaluation (``benchmarks/results/tune_plan.json`` and
``tune_plan.md``), so a stopped run keeps what it found.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

from rates import wilson  # benchmarks/rates.py, beside this script

import energies as en
from energies.bots.plan import GREEN_WEIGHTS, planner
from energies.kit.files import write_text
from energies.runner import bot_seed, game_seeds

RESULTS = Path(__file__).parent / "results"
SAVED = RESULTS / "tune_plan.json"
TABLE = ("green", "balanced", "freerider")
TUNE_SEED = 1000  # pass p plays game_seeds(games, TUNE_SEED + p)
CONFIRM_SEED = 2000

#: The first step of each weight (halved when neither direction helps).
STEPS = {
    "science_value": 0.5,
    "hazard_care": 1.5,
    "accept_margin": 0.3,
    "renewable": 2.0,
    "fossil": 0.0,  # moved only through fossil_lead (a fossil plant is never built otherwise)
    "fossil_lead": 1.0,
    "fossil_allowed": 2.0,
    "demolish": 2.0,
    "city": 2.0,
    "town": 2.0,
    "dev_card": 1.5,
    "road": 0.4,
    "race_rounds": 1.0,
    "race_boost": 3.0,
}
START = {**GREEN_WEIGHTS, "fossil_lead": 99.0}
LIMITS = {"fossil_lead": (1.0, 99.0), "race_rounds": (1.0, 6.0), "road": (0.0, 3.0)}


def shares(weights: dict | None, seeds: list[int]) -> list[float]:
    """The seat's win share in each game: the Planner with ``weights`` (None: GreenInvestor)."""
    out = []
    for i, seed in enumerate(seeds):
        seat = i % 4
        game = en.new_game(rules=en.RuleSet.standard(4), seed=seed, history=False)
        bots = [en.bots.make_bot(name, seed=bot_seed(seed, s + (s >= seat))) for s, name in
                enumerate(TABLE)]  # fmt: skip
        me = bot_seed(seed, seat)
        bots.insert(seat, en.bots.make_bot("green", seed=me) if weights is None else
                    planner(weights, seed=me))  # fmt: skip
        outcome = en.play(game, bots)
        out.append(1 / len(outcome.winners) if seat in outcome.winners else 0.0)
    return out


def _clip(name: str, value: float) -> float:
    low, high = LIMITS.get(name, (-math.inf, math.inf))
    if name == "fossil_lead" and value > 10:  # off: stepping down switches it on at 4
        value = 4.0
    return max(low, min(high, value))


def _save(saved: dict) -> None:
    write_text(SAVED, json.dumps(saved, indent=1))
    lines = [
        "# Tuning the search player's plan (benchmarks/tune_plan.py)",
        "",
        (
            "The Planner (energies/bots/plan.py) in one seat (rotating) against green, balanced, "
            "freerider, 4 players, published rules. Tuning games: seeds "
            f"`game_seeds(games, {TUNE_SEED} + pass)`; confirmation: seed {CONFIRM_SEED}; "
            "the benchmarks use seeds 0, 1 and 7."
        ),
        "",
    ]
    tune = saved.get("tune")
    if tune:
        lines += [
            f"Tuning command: `{tune['command']}`  ",
            (
                f"{len(tune['passes'])} of {tune.get('planned_passes', '?')} passes finished "
                f"(a stopped run keeps its passes), {tune['evaluations']} evaluations, "
                f"{tune['games_played']} games, {tune['cpu_s']:.0f} s CPU."
            ),
            "",
            "| pass | games | win rate of the weights at the pass's start | after the pass |",
            "|---:|---:|---:|---:|",
        ]
        for p in tune["passes"]:
            lines.append(
                f"| {p['pass']} | {p['games']} | {100 * p['start']:.1f}% | {100 * p['end']:.1f}% |"
            )
        lines += ["", "Accepted changes (pass, weight, value, win rate on the pass's games):", ""]
        lines += [f"- {c}" for c in tune["changes"]] or ["- none"]
        lines += ["", "Fitted weights: `" + json.dumps(tune["weights"]) + "`", ""]
    for seed, confirm in saved.get("confirms", {}).items():
        n = confirm["games"]
        which = "fresh games" if int(seed) == CONFIRM_SEED else f"games of seed {seed}"
        lines += [
            f"Confirmation command: `{confirm['command']}`  ",
            (
                f"{n} {which}: the fitted Planner wins {100 * confirm['rate']:.1f}% "
                f"({100 * confirm['low']:.1f}% – {100 * confirm['high']:.1f}%), GreenInvestor "
                f"in the same seat of the same games {100 * confirm['green']:.1f}% "
                f"({100 * confirm['green_low']:.1f}% – {100 * confirm['green_high']:.1f}%); "
                f"paired gain {100 * confirm['gain']:+.1f} points (95 % CI "
                f"{100 * (confirm['gain'] - confirm['error']):+.1f} to "
                f"{100 * (confirm['gain'] + confirm['error']):+.1f})."
            ),
            "",
        ]
    write_text(RESULTS / "tune_plan.md", "\n".join(lines))


def _load() -> dict:
    return json.loads(SAVED.read_text()) if SAVED.exists() else {}


def tune(games: int, passes: int, margin: float) -> None:
    saved = _load()
    weights, steps = dict(START), dict(STEPS)
    record = {
        "command": f"python benchmarks/tune_plan.py {' '.join(sys.argv[1:])}",
        "planned_passes": passes,
        "evaluations": 0,
        "games_played": 0,
        "cpu_s": 0.0,
        "passes": [],
        "changes": [],
        "weights": weights,
    }
    saved["tune"] = record
    start_cpu = time.process_time()

    def rate(w: dict, seeds: list[int]) -> float:
        result = statistics.mean(shares(w, seeds))
        record["evaluations"] += 1
        record["games_played"] += len(seeds)
        record["cpu_s"] = time.process_time() - start_cpu
        return result

    for p in range(passes):
        seeds = game_seeds(games, TUNE_SEED + p)
        current = start = rate(weights, seeds)
        print(f"pass {p}: start {current:.3f}", file=sys.stderr, flush=True)
        for name, step in steps.items():
            if step == 0.0:
                continue
            tried = []
            for value in (_clip(name, weights[name] + step), _clip(name, weights[name] - step)):
                if value == weights[name]:
                    continue
                tried.append((rate({**weights, name: value}, seeds), value))
            best = max(tried, default=None)
            if best and best[0] >= current + margin / 100:
                current, weights[name] = best[0], best[1]
                record["changes"].append(f"pass {p}: {name} = {best[1]:g} ({100 * best[0]:.1f}%)")
            else:
                steps[name] = step / 2
            print(f"  {name} {tried} -> {weights[name]:g} ({current:.3f})", file=sys.stderr,
                  flush=True)  # fmt: skip
            record["weights"] = weights
            _save(saved)
        record["passes"].append({"pass": p, "games": games, "start": start, "end": current})
        _save(saved)


def confirm(games: int, seed: int = CONFIRM_SEED) -> None:
    saved = _load()
    weights = saved["tune"]["weights"]
    seeds = game_seeds(games, seed)
    mine, green = shares(weights, seeds), shares(None, seeds)
    diffs = [a - b for a, b in zip(mine, green)]
    rate, base = statistics.mean(mine), statistics.mean(green)
    (low, high), (green_low, green_high) = wilson(rate, games), wilson(base, games)
    entry = saved.setdefault("confirms", {})[str(seed)] = {
        "command": f"python benchmarks/tune_plan.py {' '.join(sys.argv[1:])}",
        "games": games,
        "weights": weights,
        "rate": rate,
        "low": low,
        "high": high,
        "green": base,
        "green_low": green_low,
        "green_high": green_high,
        "gain": rate - base,
        "error": 1.96 * statistics.stdev(diffs) / math.sqrt(games),
    }
    _save(saved)
    print(json.dumps(entry), file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("tune", "confirm"))
    parser.add_argument("--games", type=int, default=400, help="games per evaluation")
    parser.add_argument("--passes", type=int, default=4)
    parser.add_argument("--seed", type=int, default=CONFIRM_SEED, help="confirm: game seeds")
    parser.add_argument("--margin", type=float, default=1.0, help="points a change must gain")
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    if args.part == "tune":
        tune(args.games, args.passes, args.margin)
    else:
        confirm(args.games, args.seed)


if __name__ == "__main__":
    main()
