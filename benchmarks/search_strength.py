"""The search player's strength, and the lesson's question: does fossil pay against good play?

    python benchmarks/search_strength.py --part strength --games 200 --jobs 1
    python benchmarks/search_strength.py --part question --games 24 --jobs 1 --against personas

``strength``: the search player (``make_bot("search")``, default budget) against the three
strongest personas (benchmarks/results/personas.md: green, balanced, freerider), 4 players,
published rules, game i puts the search player in seat i % 4 (the others keep their order).
Win rate = the search seat's wins, a shared win split; 95 % Wilson interval over games.
Decision time = CPU time (``time.process_time``) of each call of the search player's
``decide``, over every decision and over the searched ones (single legal actions and forced
answers are decisions too: that is what a player waits for).

``question``: the fossil-only (``search-fossil``) and renewable-only (``search-green``)
variants, and the unrestricted player for reference, each in one seat against the strongest
personas (green, balanced[, freerider]) or against search players; 3 and 4 players; the
published rules and the lesson-04 variant (plants score 1 VP, the race is to 8 VP). Game g
of every row is played before game g + 1 of any row, so a stopped run still covers every
row. Per row: the subject's win rate per seat, the share of games where everyone loses
(rule 14.2), the mean final GF, the subject's mean VP and plants.

Results are rewritten after every finished game (whole files, atomically): a run stopped at
any time leaves tables of the games that finished. A question run keeps the finished games
of the rows it does not play (``--against search`` after ``--against personas`` adds up). ``benchmarks/results/search_question.csv``
is the cached table a lesson loads; ``search_strength.md`` shows both parts and, last, the
hand-written ``search_strength_notes.md`` (each part
keeps its raw numbers in ``search_<part>.json`` so the other part can render them).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from rates import wilson  # benchmarks/rates.py, beside this script

import energies as en
from energies.bots.search import DEFAULT_BUDGET
from energies.kit.files import write_text  # atomic, a unique temporary name per write
from energies.runner import bot_seed, game_seeds

RESULTS = Path(__file__).parent / "results"
PACKAGE_TABLE = Path(__file__).parent.parent / "energies" / "data" / "search_question.csv"
STRONGEST = ("green", "balanced", "freerider")  # benchmarks/results/personas.md, win rate
RULES = {
    "published": lambda n: en.RuleSet.standard(n),
    "lesson-04": lambda n: en.RuleSet.standard(n).replace(plant_vp=1, victory_points=8),
}
QUESTION_FIELDS = [
    "players", "rules", "subject", "opponents", "games", "win_rate", "fair_share",
    "win_rate_low", "win_rate_high", "everyone_loses", "mean_final_gf", "subject_vp",
    "subject_renewable", "subject_fossil", "budget", "opponent_budget",
]  # fmt: skip


class Timed:
    """A bot whose every decide() call is timed in CPU seconds."""

    def __init__(self, bot) -> None:
        self.bot, self.times, self.searched_times = bot, [], []
        self.name = bot.name

    def decide(self, view, legal, rng):
        before, t0 = getattr(self.bot, "searched", 0), time.process_time()
        action = self.bot.decide(view, legal, rng)
        elapsed = time.process_time() - t0
        self.times.append(elapsed)
        if getattr(self.bot, "searched", 0) > before:
            self.searched_times.append(elapsed)
        return action


def play_game(
    seed: int, lineup: list[str], rules, budget: int, subject: int, opponent_budget: int = 0
) -> dict:
    """One game; the numbers of seat ``subject`` and the table. The subject searches with
    ``budget`` rollouts per decision, other search seats with ``opponent_budget`` (or the same)."""
    game = en.new_game(rules=rules, seed=seed, history=False)
    bots = []
    for seat, name in enumerate(lineup):
        bot = en.bots.make_bot(name, seed=bot_seed(seed, seat))
        if name.startswith("search"):
            bot.budget = budget if seat == subject else opponent_budget or budget
        bots.append(Timed(bot) if seat == subject else bot)
    outcome = en.play(game, bots)
    p = game.state.players[subject]
    timed = bots[subject]
    return {
        "seed": seed,
        "lineup": lineup,
        "subject": subject,
        "share": (1 / len(outcome.winners)) if subject in outcome.winners else 0.0,
        "outcome": outcome.kind,
        "final_gf": game.global_footprint,
        "turns": game.turn,
        "vp": game.victory_points(subject),
        "renewable": p.count_plants("renewable"),
        "fossil": p.count_plants("fossil"),
        "times_ms": [round(1000 * t, 2) for t in timed.times],
        "searched_ms": [round(1000 * t, 2) for t in timed.searched_times],
    }


# -- the two parts --------------------------------------------------------------------------


def strength_tasks(games: int, seed: int, budget: int) -> list[tuple]:
    tasks = []
    for i, game_seed in enumerate(game_seeds(games, seed)):
        lineup = list(STRONGEST)
        lineup.insert(i % 4, "search")
        tasks.append((game_seed, lineup, RULES["published"](4), budget, i % 4))
    return tasks


def question_rows(
    against: tuple[str, ...] = ("personas", "search"), reference: bool = True
) -> list[tuple]:
    """(players, rules, subject, opponents) of every row of the question table."""
    rows = []
    for opponents in against:
        subjects = ("search-fossil", "search-green")
        if opponents == "personas" and reference:
            subjects += ("search",)  # the unrestricted player, for reference
        for players in (4, 3):
            for rules in RULES:
                rows += [(players, rules, subject, opponents) for subject in subjects]
    return rows


def question_tasks(
    games: int,
    seed: int,
    budget: int,
    against: tuple[str, ...],
    opponent_budget: int = 0,
    reference: bool = False,
) -> list[tuple]:
    rows = question_rows(against, reference)
    seeds = game_seeds(games, seed)
    tasks = []
    for i, game_seed in enumerate(seeds):  # game i of every row before game i + 1
        for players, rules, subject, opponents in rows:
            others = list(STRONGEST[: players - 1]) if opponents == "personas" else None
            lineup = others or ["search"] * (players - 1)
            lineup.insert(i % players, subject)
            task = (game_seed, lineup, RULES[rules](players), budget, i % players, opponent_budget)
            tasks.append(((players, rules, subject, opponents), task))
    return tasks


def question_table(records: list[dict]) -> list[dict]:
    table = []
    for key in question_rows():
        games = [r for r in records if tuple(r["row"]) == key]
        if not games:
            continue
        n = len(games)
        rate = sum(g["share"] for g in games) / n
        low, high = wilson(rate, n)
        table.append(
            {
                "players": key[0],
                "rules": key[1],
                "subject": key[2],
                "opponents": key[3],
                "games": n,
                "win_rate": round(rate, 4),
                "fair_share": round(1 / key[0], 4),
                "win_rate_low": round(low, 4),  # 95 % Wilson interval
                "win_rate_high": round(high, 4),
                "everyone_loses": round(
                    sum(g["outcome"] == "everyone_loses" for g in games) / n, 4
                ),
                "mean_final_gf": round(sum(g["final_gf"] for g in games) / n, 2),
                "subject_vp": round(sum(g["vp"] for g in games) / n, 2),
                "subject_renewable": round(sum(g["renewable"] for g in games) / n, 2),
                "subject_fossil": round(sum(g["fossil"] for g in games) / n, 2),
                "budget": games[0]["budget"],
                "opponent_budget": games[0]["opponent_budget"] if key[3] == "search" else 0,
            }
        )
    return table


# -- the report ------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def strength_markdown(data: dict | None) -> list[str]:
    if not data or not data["records"]:
        return ["(no strength games finished yet)"]
    records = data["records"]
    n = len(records)
    rate = sum(r["share"] for r in records) / n
    low, high = wilson(rate, n)
    times = [t for r in records for t in r["times_ms"]]
    searched = [t for r in records for t in r["searched_ms"]]
    kinds = {
        k: sum(r["outcome"] == k for r in records) / n
        for k in ("victory_points", "empty_bag", "everyone_loses")
    }
    green = sum(r["green_share"] for r in records) / n
    green_low, green_high = wilson(green, n)
    gains = [r["share"] - r["green_share"] for r in records]  # paired: the same game
    gain_error = 1.96 * statistics.stdev(gains) / math.sqrt(n) if n > 1 else 1.0
    lines = [
        f"Command: `{data['command']}`  ",
        (
            f"{n} of {data['planned']} planned games finished; budget {data['budget']} rollouts "
            f"per searched decision; {data['machine']}."
        ),
        "",
        (
            "| games | search win rate | 95 % CI | fair share | mean VP | mean renewable | mean fossil "
            "| by VP / empty bag / everyone loses | mean final GF |"
        ),
        "|---:|---:|---|---:|---:|---:|---:|---|---:|",
        (
            f"| {n} | {_pct(rate)} | {_pct(low)} – {_pct(high)} | 25.0% "
            f"| {statistics.mean(r['vp'] for r in records):.2f} "
            f"| {statistics.mean(r['renewable'] for r in records):.2f} "
            f"| {statistics.mean(r['fossil'] for r in records):.2f} "
            f"| {' / '.join(_pct(v) for v in kinds.values())} "
            f"| {statistics.mean(r['final_gf'] for r in records):.2f} |"
        ),
        "",
        (
            f"Baseline: the same {n} games with GreenInvestor (the persona the search player's "
            "plan, energies/bots/plan.py, was tuned from) in the search seat: win rate "
            f"{_pct(green)} ({_pct(green_low)} – {_pct(green_high)}). Paired gain of the search player over GreenInvestor, game "
            f"by game: {100 * (rate - green):+.1f} points (95 % CI "
            f"{100 * (rate - green - gain_error):+.1f} to {100 * (rate - green + gain_error):+.1f})."
        ),
        "",
        (
            "Decision time (CPU, ms): "
            f"all {len(times)} decisions median {statistics.median(times):.1f}, "
            f"90th percentile {sorted(times)[int(0.9 * (len(times) - 1))]:.1f}, max {max(times):.1f}; "
            f"the {len(searched)} searched decisions median "
            f"{statistics.median(searched) if searched else 0:.1f}, "
            f"90th percentile {sorted(searched)[int(0.9 * (len(searched) - 1))] if searched else 0:.1f}."
        ),
    ]
    return lines


def question_markdown(data: dict | None) -> list[str]:
    if not data or not data["records"]:
        return ["(no question games finished yet)"]
    table = question_table(data["records"])
    stale = f"energies {en.__version__}," not in data["machine"]
    lines = [
        f"Command: `{data['command']}`  ",
        *(
            [
                f"Measured by an earlier release ({data['machine'].split(',')[0]}); not re-run since.  "
            ]
            if stale
            else []
        ),
        (
            f"{len(data['records'])} of {data['planned']} planned games finished "
            f"(at most {data['games']} per row); {data['machine']}. "
            "Win rate = the subject's wins per game (a shared win split); fair share = 1 / players."
        ),
        "",
        (
            f"Budgets (rollouts per searched decision; the default is {DEFAULT_BUDGET}): the "
            f"subject {data['budget']}, the search opponents "
            f"{data['records'][-1].get('opponent_budget', data['budget'])} (smaller than the "
            "default so that every row gets its games on a shared CPU)."
        ),
        "",
        (
            "| players | rules | subject | against | games | subject win rate | 95 % CI | fair share "
            "| everyone loses | mean final GF | subject VP | renewable | fossil |"
        ),
        "|---:|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in table:
        lines.append(
            f"| {row['players']} | {row['rules']} | {row['subject']} | {row['opponents']} "
            f"| {row['games']} | {_pct(row['win_rate'])} "
            f"| {_pct(row['win_rate_low'])} – {_pct(row['win_rate_high'])} | {_pct(row['fair_share'])} "
            f"| {_pct(row['everyone_loses'])} | {row['mean_final_gf']:.2f} "
            f"| {row['subject_vp']:.2f} | {row['subject_renewable']:.2f} "
            f"| {row['subject_fossil']:.2f} |"
        )
    return lines


def render() -> None:
    """search_strength.md from whatever both parts have finished."""
    parts = {}
    for part in ("strength", "question"):
        path = RESULTS / f"search_{part}.json"
        parts[part] = json.loads(path.read_text()) if path.exists() else None
    text = [
        "# The search player (benchmarks/search_strength.py)",
        "",
        (
            "Method: energies/bots/search.py (determinised Monte-Carlo search over the personas' "
            "and each kind's best actions, one-round persona rollouts, an evaluation fitted on "
            "who won persona games: benchmarks/fit_evaluation.py). "
            "Opponents: the three strongest personas of "
            "benchmarks/results/personas.md (green, balanced, freerider)."
        ),
        "",
        "## Strength: search against green, balanced, freerider (4 players, published rules)",
        "",
        *strength_markdown(parts["strength"]),
        "",
        "## The question: fossil-only and renewable-only search players",
        "",
        *question_markdown(parts["question"]),
        "",
    ]
    notes = RESULTS / "search_strength_notes.md"  # hand-written: earlier runs, levers tried
    if notes.exists():
        text += ["", notes.read_text().rstrip(), ""]
    write_text(RESULTS / "search_strength.md", "\n".join(text))


def save(part: str, data: dict) -> None:
    write_text(RESULTS / f"search_{part}.json", json.dumps(data))
    if part == "question":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=QUESTION_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(question_table(data["records"]))
        write_text(RESULTS / "search_question.csv", out.getvalue())
        write_text(PACKAGE_TABLE, out.getvalue())  # what energies.insight.strong_players reads
    render()


def _run(task):
    return play_game(*task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("strength", "question"), default="strength")
    parser.add_argument("--games", type=int, default=200, help="games (per row for 'question')")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="rollouts per decision")
    parser.add_argument(
        "--opponent-budget",
        type=int,
        default=0,
        help="question: rollouts per decision of the search opponents (default: --budget)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--against",
        nargs="+",
        choices=("personas", "search"),
        default=["personas", "search"],
        help="question: the opponents of the restricted players",
    )
    parser.add_argument(
        "--reference",
        action="store_true",
        help="question: also rows of the unrestricted player against the personas",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="question: forget the games of earlier runs"
    )
    parser.add_argument(
        "--render-only", action="store_true", help="rewrite the tables from the saved games"
    )
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    if args.render_only:
        save("question", json.loads((RESULTS / "search_question.json").read_text()))
        return
    if args.part == "strength":
        keyed = [(None, t) for t in strength_tasks(args.games, args.seed, args.budget)]
    else:
        keyed = question_tasks(
            args.games,
            args.seed + 1,
            args.budget,
            tuple(args.against),
            args.opponent_budget,
            args.reference,
        )
    data = {
        "command": f"python benchmarks/search_strength.py {' '.join(sys.argv[1:])}",
        "machine": (
            f"energies {en.__version__}, Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs shared with other jobs, {platform.machine()}"
        ),
        "planned": len(keyed),
        "games": args.games,
        "budget": args.budget,
        "records": [],
    }
    old = RESULTS / "search_question.json"
    if args.part == "question" and old.exists() and not args.fresh:  # runs add up
        mine = {row for row, _ in keyed}
        before = json.loads(old.read_text())
        kept = [r for r in before["records"] if tuple(r["row"]) not in mine]
        data["records"], data["planned"] = kept, len(keyed) + len(kept)
        data["command"] = f"{before['command']}` then `{data['command']}"
    tasks = [t for _, t in keyed]
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(args.jobs)
        results = pool.map(_run, tasks)
    else:
        results = map(_run, tasks)
    start = time.perf_counter()
    for (row, task), record in zip(keyed, results):
        record["budget"] = args.budget
        record["opponent_budget"] = args.opponent_budget or args.budget
        if args.part == "strength":  # the same game with GreenInvestor in the search seat
            seed, lineup, rules, budget, subject = task
            swapped = ["green" if s == subject else b for s, b in enumerate(lineup)]
            record["green_share"] = play_game(seed, swapped, rules, budget, subject)["share"]
        if row is not None:
            record["row"] = list(row)
            del record["times_ms"], record["searched_ms"]  # timed in the strength part
        data["records"].append(record)
        save(args.part, data)
        print(
            f"{len(data['records'])}/{len(keyed)} {time.perf_counter() - start:.0f}s "
            f"{row or ''} share {record['share']:.2f} {record['outcome']}",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    main()
