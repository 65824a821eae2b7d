"""Persona tournament: win rates, VP, outcomes and footprint per line-up (a report, not a test).

    python benchmarks/personas.py --games 1000 --jobs 2
    python benchmarks/personas.py --games 1000 --jobs 2 --budget-minutes 15   # may fall back to 500

Line-ups (4 players): persona X + 3 RandomBot for X in fossil/green/balanced/freerider;
4x fossil, 4x green, 4x balanced, 4x freerider; fossil,green,balanced,freerider. Every line-up
is passed to ``en.simulate`` as its 4 seat rotations, so game i uses rotation i % 4 and seat
position does not bias the comparison.

Win rate = wins per seat played; a shared win (empty-bag tie, rule 14.2) is split among the
winners. "everyone_loses" games count as a loss for every seat, so the per-seat rates of a
line-up add up to (1 - share of everyone_loses - share of unfinished) / 4.

Before the run the script times a few games and estimates the total; with
``--budget-minutes`` it falls back to ``--fallback-games`` per line-up when the estimate is
over budget, and says so in the report.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

import energies as en

PERSONAS = ("fossil", "green", "balanced", "freerider")
OUTCOMES = ("victory_points", "empty_bag", "everyone_loses", "unfinished")
CLASS_NAMES = {name: cls.__name__ for name, cls in en.bots.PERSONAS.items()}


def lineups() -> list[tuple[str, list[str]]]:
    out = [(f"{x} + 3 random", [x, "random", "random", "random"]) for x in PERSONAS]
    out += [(f"4x {x}", [x] * 4) for x in PERSONAS]
    out.append(("fossil, green, balanced, freerider", list(PERSONAS)))
    return out


def rotations(lineup: list[str]) -> list[list[str]]:
    return [lineup[i:] + lineup[:i] for i in range(len(lineup))]


# -- statistics ---------------------------------------------------------------------------------


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The 95 % interval of a mean: mean +- 1.96 standard errors (each value one sample)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def summarise(frame) -> dict:
    """Line-up level numbers and per-bot-name numbers from a simulate() frame.

    A bot's win rate has a 95 % interval over games: each game gives one sample, the bot's
    mean win share per seat in it (its seats in one game are not independent)."""
    n = int(frame["players"].iloc[0])
    games = len(frame)
    per_bot: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    per_game: dict[str, list[float]] = defaultdict(list)
    for row in frame.itertuples(index=False):
        row = row._asdict()
        winners = row["winners"]
        shares: dict[str, list[float]] = defaultdict(list)
        for seat in range(n):
            name = row[f"bot_{seat}"]
            stats = per_bot[name]
            stats["seats"] += 1
            won = (1 / len(winners)) if seat in winners else 0.0
            shares[name].append(won)
            stats["wins"] += won
            stats["vp"] += row[f"vp_{seat}"]
            stats["lf"] += row[f"lf_{seat}"]
            stats["fossil"] += row[f"fossil_{seat}"]
            stats["renewable"] += row[f"renewable_{seat}"]
            stats["vp_wins"] += (
                (1 / len(winners)) if seat in winners and row["outcome"] == "victory_points" else 0
            )
        for name, won in shares.items():
            per_game[name].append(sum(won) / len(won))
    bots = {}
    for name, s in per_bot.items():
        seats = s["seats"]
        bots[name] = {
            "seats": int(seats),
            "win_rate": s["wins"] / seats,
            "win_interval": mean_interval(per_game[name]),
            "vp_win_rate": s["vp_wins"] / seats,
            "mean_vp": s["vp"] / seats,
            "mean_lf": s["lf"] / seats,
            "mean_fossil": s["fossil"] / seats,
            "mean_renewable": s["renewable"] / seats,
        }
    shares = frame["outcome"].value_counts(normalize=True)
    return {
        "games": games,
        "mean_turns": float(frame["turns"].mean()),
        "mean_actions": float(frame["actions"].mean()),
        "mean_final_gf": float(frame["final_gf"].mean()),
        "shares": {k: float(shares.get(k, 0.0)) for k in OUTCOMES},
        "bots": bots,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def bot_label(name: str) -> str:
    return f"{name} ({CLASS_NAMES[name]})" if name in CLASS_NAMES else name


def lineup_markdown(title: str, s: dict) -> str:
    lines = [f"### {title}", ""]
    lines.append(
        "| games | mean turns | mean actions | victory_points | empty_bag | everyone_loses "
        "| unfinished | mean final GF |"
    )
    lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|")
    sh = s["shares"]
    lines.append(
        f"| {s['games']} | {s['mean_turns']:.1f} | {s['mean_actions']:.0f} | "
        + " | ".join(_pct(sh[k]) for k in OUTCOMES)
        + f" | {s['mean_final_gf']:.2f} |"
    )
    lines += [
        "",
        (
            "| bot | seats played | win rate per seat | 95 % CI | (by 10 VP) | mean VP | mean LF "
            "| mean fossil | mean renewable |"
        ),
        "|---|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for name in sorted(s["bots"], key=lambda k: (k == "random", k)):
        b = s["bots"][name]
        low, high = b["win_interval"]
        lines.append(
            f"| {bot_label(name)} | {b['seats']} | {_pct(b['win_rate'])} | "
            f"{_pct(low)} – {_pct(high)} | "
            f"{_pct(b['vp_win_rate'])} | {b['mean_vp']:.2f} | {b['mean_lf']:.2f} | "
            f"{b['mean_fossil']:.2f} | {b['mean_renewable']:.2f} |"
        )
    return "\n".join(lines)


def overview_markdown(results: list[tuple[str, dict]]) -> str:
    lines = [
        (
            "| line-up | games | win rate per seat (by bot) | mean VP (by bot) | mean turns "
            "| VP / empty bag / everyone loses / unfinished | mean final GF |"
        ),
        "|---|---:|---|---|---:|---|---:|",
    ]
    for title, s in results:
        order = sorted(s["bots"], key=lambda k: (k == "random", k))
        rates = ", ".join(f"{k} {_pct(s['bots'][k]['win_rate'])}" for k in order)
        vps = ", ".join(f"{k} {s['bots'][k]['mean_vp']:.2f}" for k in order)
        sh = " / ".join(_pct(s["shares"][k]) for k in OUTCOMES)
        lines.append(
            f"| {title} | {s['games']} | {rates} | {vps} | {s['mean_turns']:.1f} | {sh} "
            f"| {s['mean_final_gf']:.2f} |"
        )
    return "\n".join(lines)


def vp_by_bot_markdown(results: list[tuple[str, dict]]) -> str:
    """Mean VP and win rate per bot name over all line-ups it played in."""
    total: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for _, s in results:
        for name, b in s["bots"].items():
            t = total[name]
            t["seats"] += b["seats"]
            t["vp"] += b["mean_vp"] * b["seats"]
            t["wins"] += b["win_rate"] * b["seats"]
    lines = [
        "| bot | seats played (all line-ups) | mean VP | win rate per seat |",
        "|---|---:|---:|---:|",
    ]
    for name in sorted(total, key=lambda k: (k == "random", k)):
        t = total[name]
        lines.append(
            f"| {bot_label(name)} | {int(t['seats'])} | {t['vp'] / t['seats']:.2f} | "
            f"{_pct(t['wins'] / t['seats'])} |"
        )
    return "\n".join(lines)


# -- running ------------------------------------------------------------------------------------


def estimate_seconds(jobs: int, sample: int, seed: int) -> tuple[float, float]:
    """Seconds per game for one job, measured on ``sample`` games of every line-up."""
    start = time.perf_counter()
    count = 0
    for _, lineup in lineups():
        en.simulate(sample, rotations(lineup), seed=seed + 10_000, jobs=1, progress=False)
        count += sample
    per_game = (time.perf_counter() - start) / count
    return per_game, per_game / (jobs * 0.9)  # a pool of N workers is a little under N x


def run(games: int, jobs: int, seed: int) -> tuple[list[tuple[str, dict]], float]:
    results = []
    start = time.perf_counter()
    for title, lineup in lineups():
        t0 = time.perf_counter()
        frame = en.simulate(games, rotations(lineup), seed=seed, jobs=jobs, progress=False)
        s = summarise(frame)
        s["seconds"] = time.perf_counter() - t0
        results.append((title, s))
        print(f"  {title}: {games} games in {s['seconds']:.1f} s", file=sys.stderr, flush=True)
    return results, time.perf_counter() - start


def report(results, seconds: float, games: int, jobs: int, seed: int, note: str) -> str:
    total_games = sum(s["games"] for _, s in results)
    head = [
        "# Persona tournament (benchmarks/personas.py)",
        "",
        f"Command: `python benchmarks/personas.py {' '.join(sys.argv[1:])}`  ",
        (
            f"{games} games per line-up (4 seat rotations, game i uses rotation i % 4), seed {seed}, "
            f"jobs {jobs}; {total_games} games in {seconds:.0f} s "
            f"({total_games / seconds:.1f} games/s).  "
        ),
        (
            f"energies {en.__version__}, Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, {platform.machine()}."
        ),
    ]
    if note:
        head += ["", f"**Note:** {note}"]
    head += [
        "",
        (
            "Win rate = wins per seat played, a shared win split among the winners; "
            '"(by 10 VP)" counts only wins by victory points (rule 14.1). A game where everyone '
            "loses (rule 14.2) is a loss for every seat, so with 4 seats an even line-up scores "
            "(1 - everyone_loses - unfinished) / 4 per seat. RandomBot's row is the per-seat "
            "baseline of the same games. 95 % CI: mean ± 1.96 standard errors of the bot's "
            "per-game win share (every game one sample)."
        ),
        "",
        "## Overview",
        "",
        overview_markdown(results),
        "",
        "## Mean VP and win rate per bot name (all line-ups)",
        "",
        vp_by_bot_markdown(results),
        "",
        "## Per line-up",
        "",
    ]
    body = "\n\n".join(lineup_markdown(title, s) for title, s in results)
    return "\n".join(head) + "\n" + body + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per line-up")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--budget-minutes",
        type=float,
        default=0,
        help="estimate first; if the run would take longer, use --fallback-games (0: no limit)",
    )
    parser.add_argument("--fallback-games", type=int, default=500)
    parser.add_argument("--sample", type=int, default=4, help="games per line-up to estimate")
    parser.add_argument(
        "--out",
        default=str(Path(__file__).parent / "results" / "personas.md"),
        help="markdown file to write ('' to only print)",
    )
    args = parser.parse_args()

    games, note = args.games, ""
    per_game, per_game_pool = estimate_seconds(args.jobs, args.sample, args.seed)
    n_lineups = len(lineups())
    estimate = per_game_pool * games * n_lineups
    print(
        f"estimate: {1 / per_game:.1f} games/s per job -> {games} x {n_lineups} line-ups "
        f"with {args.jobs} jobs ~ {estimate / 60:.1f} min",
        file=sys.stderr,
        flush=True,
    )
    if args.budget_minutes and estimate > args.budget_minutes * 60 and games > args.fallback_games:
        note = (
            f"the estimate for {games} games per line-up was {estimate / 60:.1f} min "
            f"(over the {args.budget_minutes:g} min budget), so {args.fallback_games} games "
            "per line-up were played."
        )
        games = args.fallback_games
        print(note, file=sys.stderr)

    results, seconds = run(games, args.jobs, args.seed)
    text = report(results, seconds, games, args.jobs, args.seed, note)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
