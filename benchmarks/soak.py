"""Soak test: thousands of seeded bot games, every invariant checked after EVERY action.

    python benchmarks/soak.py --games 10000 --jobs 2 --seed 0 [--markdown benchmarks/results/soak.md]
    python benchmarks/soak.py --seed 0 --game 4711        # replay one game of a run, verbosely

Every game ``i`` of a run seeded ``S`` is drawn from its own RNG,
``random.Random(f"energies-soak:{S}:{i}")``, so a game does not depend on which
worker plays it or in what order (``--jobs`` never changes the report):

* its game seed (63 bits), its player count (3 or 4) and its line-up: every
  seat independently one of the bot names of :data:`energies.bots.PERSONAS`
  (random, fossil, green, balanced, freerider), so persona and RandomBot seats mix;
* the start alternates quick / draft (rules 2.3, 3.3) from one game to the next
  and the layout alternates beginner / random (rule 2.2) every two games, so the
  four combinations appear equally often; a random layout draws spiral or
  shuffled numbers.

The bots are seeded exactly as :func:`energies.runner.batch.play_one` seeds them, so
``play_one(lineup, game_seed, rules)`` replays a soak game (the failure report
prints the recipe).

After every action (and before the first) the game is checked with
:func:`energies.newenergies.invariants.check_invariants` (conservation of cards, energy,
development cards and discs; energy <= cap; hazards <= tokens; LF/GF/VP; piece
limits; distance rule; a running game has a legal action for the seat that
decides). A finished game must have one of the four outcome kinds (rules
14.1-14.3), no seat to act and no legal action. An exception raised by the
engine or a bot counts as a violation too. The exit status is 1 if anything
was violated.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

import energies as en
from energies.newenergies.invariants import OUTCOME_KINDS, check_invariants
from energies.runner import bot_seed

#: Bot names a seat is drawn from (the personas and the RandomBot).
BOT_NAMES: tuple[str, ...] = tuple(sorted(en.bots.PERSONAS))
#: A game longer than this is reported as never ending (rule 14.3 must end it first).
MAX_ACTIONS = 100_000
#: Games with a violation whose details the report keeps.
KEEP_FAILURES = 5
#: Violation messages kept per failing game.
KEEP_MESSAGES = 6


# -- one game ---------------------------------------------------------------------------------


def game_config(seed: int, index: int) -> dict[str, Any]:
    """Everything that defines game ``index`` of a run seeded ``seed``."""
    rng = random.Random(f"energies-soak:{seed}:{index}")
    game_seed = rng.getrandbits(63)
    players = rng.choice((3, 4))
    lineup = tuple(rng.choice(BOT_NAMES) for _ in range(players))
    start = ("quick", "draft")[index % 2]
    layout = ("beginner", "random")[(index // 2) % 2]
    placement = rng.choice(("spiral", "shuffled")) if layout == "random" else "spiral"
    return {
        "index": index,
        "run_seed": seed,
        "game_seed": game_seed,
        "players": players,
        "lineup": lineup,
        "start": start,
        "layout": layout,
        "number_placement": placement,
    }


def config_rules(config: dict[str, Any]) -> en.RuleSet:
    return en.RuleSet.standard(config["players"]).replace(
        start=config["start"],
        layout=config["layout"],
        number_placement=config["number_placement"],
    )


def reproduce_recipe(config: dict[str, Any]) -> str:
    return (
        f"python benchmarks/soak.py --seed {config['run_seed']} --game {config['index']}  "
        f"# or energies.runner.batch.play_one({list(config['lineup'])}, {config['game_seed']}, "
        f"RuleSet.standard({config['players']}).replace(start={config['start']!r}, "
        f"layout={config['layout']!r}, number_placement={config['number_placement']!r}))"
    )


def _end_problems(game: en.Game, legal: list) -> list[str]:
    """A finished game: one of the four outcome kinds (rules 14.1-14.3), nobody to act."""
    out = []
    kind = getattr(game.outcome, "kind", None)
    if kind not in OUTCOME_KINDS:
        out.append(f"the game ended with the unknown outcome kind {kind!r}")
    if legal:
        out.append(f"the game is over but {len(legal)} legal action(s) are listed")
    if game.current_seat is not None:
        out.append(f"the game is over but seat {game.current_seat} is asked to act")
    return out


def play_checked(config: dict[str, Any]) -> dict[str, Any]:
    """Play one soak game, checking every invariant after every action.

    Stops at the first action after which anything is wrong (the state can no
    longer be trusted) and returns the game's facts with the violations found.
    """
    result: dict[str, Any] = {
        **config,
        "actions": 0,
        "turns": 0,
        "outcome": None,
        "winners": (),
        "violations": [],
        "after": None,
        "digest": None,
    }
    last: Any = None
    try:
        rules = config_rules(config)
        game = en.new_game(rules=rules, seed=config["game_seed"])
        seed = config["game_seed"]
        bots = [
            en.bots.make_bot(name, seed=bot_seed(seed, s))
            for s, name in enumerate(config["lineup"])
        ]
        rng = random.Random(f"{seed}:bots:0")  # as energies.runner.loop seeds the shared stream
        legal = game.legal_actions()
        problems = check_invariants(game.state, legal_actions=legal)
        while not problems and not game.is_over:
            if len(game.actions) >= MAX_ACTIONS:
                problems = [f"no end after {MAX_ACTIONS} actions (rule 14.3 should end the game)"]
                break
            last = bots[game.current_seat].decide(game, legal, rng)
            game.apply(last)
            legal = game.legal_actions()
            problems = check_invariants(game.state, legal_actions=legal)
            if game.is_over:
                problems += _end_problems(game, legal)
        result["actions"] = len(game.actions)
        result["turns"] = game.turn
        result["digest"] = game.digest()
        if game.outcome is not None:
            result["outcome"] = game.outcome.kind
            result["winners"] = tuple(game.outcome.winners)
        if problems:
            result["after"] = f"action {len(game.actions)} ({last}), turn {game.turn}"
    except Exception as exc:  # noqa: BLE001 - an engine or bot crash is a violation too
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        problems = [
            f"{type(exc).__name__}: {exc} (at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})"
        ]
        result["after"] = f"an exception after {result['actions']} checked actions (last {last})"
    result["violations"] = problems
    return result


def _run_chunk(seed: int, indices: list[int]) -> list[dict[str, Any]]:
    """Worker: play the games ``indices`` of the run seeded ``seed`` (module level: picklable)."""
    return [play_checked(game_config(seed, index)) for index in indices]


# -- a run ------------------------------------------------------------------------------------


def _chunks(games: int, jobs: int) -> list[list[int]]:
    size = max(1, min(50, math.ceil(games / (8 * jobs))))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def run_soak(games: int, jobs: int = 1, seed: int = 0, progress: bool = False) -> dict[str, Any]:
    """Play ``games`` soak games on ``jobs`` processes; return the report as a dict.

    Keys: games, actions, checks, violations (number of violation messages),
    failed_games, failures (the first few failing games: config, messages,
    where, and a reproduce recipe), outcomes, players, starts, layouts,
    seats, wins (per bot name), mean/max actions, turns, elapsed (s), jobs, seed.
    Everything except ``elapsed`` is the same whatever ``jobs`` is.
    """
    for name, value, low in (("games", games, 1), ("jobs", jobs, 1), ("seed", seed, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be a whole number >= {low}, not {value!r}")
    started = time.perf_counter()
    chunks = _chunks(games, jobs)
    results: list[dict[str, Any]] = []
    step = max(1, games // 10)
    shown = 0

    def note(done: int) -> None:
        nonlocal shown
        if progress and (done // step > shown // step or done == games):
            shown = done
            rate = done / max(time.perf_counter() - started, 1e-9)
            print(f"soak: {done}/{games} games, {rate:.1f} games/s", file=sys.stderr, flush=True)

    if jobs == 1:
        for chunk in chunks:
            results += _run_chunk(seed, chunk)
            note(len(results))
    else:
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_run_chunk, seed, chunk) for chunk in chunks]
            for future in cf.as_completed(futures):
                results += future.result()
                note(len(results))
    elapsed = time.perf_counter() - started
    results.sort(key=lambda r: r["index"])
    return _summarise(results, games, jobs, seed, elapsed)


def _summarise(results: list[dict], games: int, jobs: int, seed: int, elapsed: float) -> dict:
    failed = [r for r in results if r["violations"]]
    seats: Counter = Counter()
    wins: Counter = Counter()
    for r in results:
        for s, name in enumerate(r["lineup"]):
            seats[name] += 1
            wins[name] += s in r["winners"]
    actions = sum(r["actions"] for r in results)
    return {
        "games": len(results),
        "requested": games,
        "actions": actions,
        "checks": actions + len(results),  # one check before the first action of each game
        "violations": sum(len(r["violations"]) for r in failed),
        "failed_games": len(failed),
        "failures": [
            {
                "index": r["index"],
                "game_seed": r["game_seed"],
                "players": r["players"],
                "lineup": list(r["lineup"]),
                "start": r["start"],
                "layout": r["layout"],
                "number_placement": r["number_placement"],
                "after": r["after"],
                "messages": r["violations"][:KEEP_MESSAGES],
                "reproduce": reproduce_recipe(r),
            }
            for r in failed[:KEEP_FAILURES]
        ],
        "outcomes": dict(sorted(Counter(r["outcome"] for r in results).items(), key=str)),
        "players": dict(sorted(Counter(r["players"] for r in results).items())),
        "starts": dict(sorted(Counter(r["start"] for r in results).items())),
        "layouts": dict(
            sorted(Counter(f"{r['layout']}/{r['number_placement']}" for r in results).items())
        ),
        "seats": dict(sorted(seats.items())),
        "wins": dict(sorted(wins.items())),
        "mean_actions": round(actions / max(len(results), 1), 1),
        "max_actions": max((r["actions"] for r in results), default=0),
        "turns": sum(r["turns"] for r in results),
        "elapsed": round(elapsed, 2),
        "jobs": jobs,
        "seed": seed,
    }


# -- the report -------------------------------------------------------------------------------


def format_report(report: dict[str, Any]) -> str:
    """The report as Markdown."""
    r = report
    status = (
        "PASS: no violation" if r["violations"] == 0 else f"FAIL: {r['violations']} violation(s)"
    )
    rate = r["actions"] / r["elapsed"] if r["elapsed"] else 0.0
    speed = f"{r['games'] / max(r['elapsed'], 1e-9):.1f} games/s, {rate:.0f} checked actions/s"
    lines = [
        f"# Soak: {r['games']} games, seed {r['seed']}, jobs {r['jobs']} — {status}",
        "",
        "| what | value |",
        "| --- | --- |",
        f"| games | {r['games']} |",
        f"| actions (all checked) | {r['actions']} |",
        f"| invariant checks | {r['checks']} |",
        f"| violations | {r['violations']} |",
        f"| games with a violation | {r['failed_games']} |",
        f"| elapsed | {r['elapsed']:.1f} s ({speed}) |",
        f"| actions per game | mean {r['mean_actions']}, max {r['max_actions']} |",
        f"| turns | {r['turns']} (mean {r['turns'] / max(r['games'], 1):.1f}) |",
        f"| outcomes | {_counts(r['outcomes'])} |",
        f"| players | {_counts(r['players'])} |",
        f"| starts | {_counts(r['starts'])} |",
        f"| layouts | {_counts(r['layouts'])} |",
        "",
        "| bot | seats | wins | win rate |",
        "| --- | --- | --- | --- |",
    ]
    for name, count in r["seats"].items():
        won = r["wins"].get(name, 0)
        lines.append(f"| {name} | {count} | {won} | {won / count:.1%} |")
    if r["failures"]:
        lines += ["", f"## First {len(r['failures'])} failing game(s)", ""]
        for f in r["failures"]:
            lines.append(
                f"* game {f['index']} (seed {f['game_seed']}, {f['players']} players "
                f"{','.join(f['lineup'])}, {f['start']} start, {f['layout']}/"
                f"{f['number_placement']} layout), after {f['after']}:"
            )
            lines += [f"  * {m}" for m in f["messages"]]
            lines.append(f"  * reproduce: `{f['reproduce']}`")
    return "\n".join(lines) + "\n"


def _counts(counter: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in counter.items())


def _show_game(seed: int, index: int) -> int:
    config = game_config(seed, index)
    result = play_checked(config)
    for key in ("index", "game_seed", "players", "lineup", "start", "layout", "number_placement"):
        print(f"{key:>17}: {config[key]}")
    print(f"{'actions':>17}: {result['actions']}")
    print(f"{'outcome':>17}: {result['outcome']} winners {result['winners']}")
    for message in result["violations"]:
        print(f"  VIOLATION after {result['after']}: {message}")
    print(f"{'reproduce':>17}: {reproduce_recipe(config)}")
    return 1 if result["violations"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play (default 10000)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--game", type=int, help="replay only this game index of the run")
    parser.add_argument("--markdown", help="also write the report to this Markdown file")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if args.game is not None:
        return _show_game(args.seed, args.game)
    try:
        report = run_soak(args.games, args.jobs, args.seed, progress=not args.quiet)
    except ValueError as exc:
        parser.error(str(exc))
    text = format_report(report)
    print(text, end="")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text)
    return 1 if report["violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
