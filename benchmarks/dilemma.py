"""The dilemma of the published and the classroom rules, measured and classified (the tables the
package ships, and benchmarks/results/dilemma.md).

    python benchmarks/dilemma.py --bots personas --games 400 --seed 1
    python benchmarks/dilemma.py --bots personas --games 400 --seed 2
    python benchmarks/dilemma.py --bots search --rules classroom --games 200 --seed 1 --budget 24
    python benchmarks/dilemma.py --bots search --rules classroom --games 200 --seed 2 --budget 24
    python benchmarks/dilemma.py --bots search --rules published --games 40 --seed 1 --budget 24

``--bots personas``: for each named rule set (energies.insight.temptation.NAMED_RULES, or
those given with ``--rules``) and k = 0..4, ``--games`` games with k FossilRush ("fossil")
seats and the rest GreenInvestor ("green"), seats rotated, the same game seeds for every k
(energies.insight.dilemma); writes energies/data/dilemma.csv. ``--bots search``: the same
with the search player's restricted variants, SearchPlayer(plants="fossil") and
SearchPlayer(plants="renewable") at ``--budget`` rollouts per decision (the strong players
the classroom verdict needs; about a hundred times slower, so fewer games); writes
energies/data/dilemma_search.csv, and every game of it to energies/data/dilemma_search_games.csv
(a test re-plays the first games of a row). A run replaces the tables of the rule sets and
the seed it measured and keeps the others, so each table has one command: the page lists it
beside the table. Each run re-renders benchmarks/results/dilemma.md from both files: the
tables, the verdicts, whether the two sets of bots agree, and the classroom preset against
the criteria of issue 38 (part 4) on every seed set.

CPU time of the commands above: about 1.7 minutes each for the personas, 17 minutes each for
the classroom search tables (1021 s for seed 1) and 10 minutes for the published game's search
check (the optional one: its persona verdict is far from undecided). Each seed set is its own
table: a run replaces only the rule sets and the seed it measured.

Deterministic by seed: game i of every table is seeded from child i of
numpy.random.SeedSequence(seed), bots from the game seed and their seat.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import platform
import resource
import sys
import time
from pathlib import Path

import pandas as pd

import energies as en
from energies.bots.search import SearchPlayer
from energies.insight.temptation import (
    NAMED_RULES,
    DilemmaResult,
    dilemma_tables,
    named_rules,
    shipped_dilemma,
    shipped_seed_sets,
)
from energies.insight.temptation.measure import (
    check_strategies,
    dilemma_games,
    row_of_games,
)
from energies.insight.temptation.shipped import BOT_SETS, GAMES_FILE
from energies.kit.files import write_text

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DATA = ROOT / "energies" / "data"
PLAYERS = 4
SCRIPT = "python benchmarks/dilemma.py"
WHO = {
    "personas": (
        "FossilRush (`fossil`) against GreenInvestor (`green`), the personas of "
        "`energies/bots/personas.py`: each plays one plan openly (cheap fossil plants and a "
        "late scramble to rule 14.2; renewable plants and hazard removal), fast enough for "
        "hundreds of games per table"
    ),
    "search": (
        "the search player's restricted variants, `SearchPlayer(plants='fossil')` "
        "(`search-fossil`: FossilRush's plan, never a renewable plant) and "
        "`SearchPlayer(plants='renewable')` (`search-green`: never a fossil plant), at every "
        "seat: stronger play, about a hundred times slower, so fewer games: the check"
    ),
}


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the workers of --jobs)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def strategies(bots: str, budget: int):
    if bots == "personas":
        return ("fossil", "green")
    return (
        SearchPlayer(budget=budget, plants="fossil"),
        SearchPlayer(budget=budget, plants="renewable"),
    )


def command(bots: str, rules: str, games: int, seed: int, budget: int) -> str:
    """The command that measures one table (the same games as any run that measured it)."""
    extra = f" --budget {budget}" if bots == "search" else ""
    return f"{SCRIPT} --bots {bots} --rules {rules} --games {games} --seed {seed}{extra}"


GAME_COLUMNS = ("game", "seed", "outcome", "winners", "turns", "actions", "final_gf") + tuple(
    f"vp_{seat}" for seat in range(PLAYERS)
)


def write_csv(path: Path, rows: list[dict]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()})
    write_text(path, out.getvalue())


def game_records(name: str, k: int, seed: int, frame) -> list[dict]:
    """The search tables' games, one line each (winners as seats joined by spaces), so a test
    can re-play the first games of a row and compare them exactly."""
    records = []
    for game in frame.to_dict("records"):
        record = {"rules": name, "seed_set": seed, "k": k}
        record.update({column: game[column] for column in GAME_COLUMNS})
        record["winners"] = " ".join(str(seat) for seat in game["winners"])
        records.append(record)
    return records


def measure(bots: str, names: list[str], games: int, seed: int, budget: int, jobs: int) -> None:
    path = DATA / BOT_SETS[bots]
    kept = []
    if path.exists():  # the tables of the other rule sets and seed sets stay as measured
        kept = [
            row
            for row in dilemma_tables(bots).to_dict("records")
            if row["rules"] not in names or row["seed"] != seed
        ]
    games_path = DATA / GAMES_FILE
    kept_games = []
    if bots == "search" and games_path.exists():
        kept_games = [
            row
            for row in csv.DictReader(games_path.read_text().splitlines())
            if row["rules"] not in names or int(row["seed_set"]) != seed
        ]
    rows, played = [], []
    fossil, green = strategies(bots, budget)
    fossil_name, green_name = check_strategies((fossil, green))
    for name in names:
        start = cpu_seconds()
        table = []
        for k in range(PLAYERS + 1):
            frame = dilemma_games(
                named_rules(name, PLAYERS), k, games, (fossil, green), seed=seed, jobs=jobs
            )
            table.append(row_of_games(frame, k, fossil_name, green_name, seed=seed))
            played += game_records(name, k, seed, frame)
        seconds = cpu_seconds() - start
        result = DilemmaResult(pd.DataFrame.from_records(table), name=name)
        print(f"{bots} {name}: {result.verdict} ({seconds:.0f} s CPU)", flush=True)
        for row in table:
            rows.append(
                {
                    "rules": name,
                    "budget": budget if bots == "search" else 0,
                    **row,
                    "cpu_seconds": round(seconds, 1),
                }
            )
    order = list(NAMED_RULES)
    rows = sorted(kept + rows, key=lambda row: (order.index(row["rules"]), row["seed"], row["k"]))
    write_csv(path, rows)
    if bots == "search":
        every = kept_games + played
        every.sort(
            key=lambda r: (order.index(r["rules"]), int(r["seed_set"]), int(r["k"]), int(r["game"]))
        )
        write_csv(games_path, every)


# -- the report ---------------------------------------------------------------------------------


def pct(rate: float, low: float, high: float) -> str:
    if math.isnan(rate):
        return "—"
    return f"{100 * rate:.0f} % ({100 * low:.0f}–{100 * high:.0f})"


def table_markdown(result: DilemmaResult) -> list[str]:
    table = result.table.sort_values("k")
    fossil, green = table["fossil_bot"].iloc[0], table["green_bot"].iloc[0]
    lines = [
        (
            f"| k {fossil} | {fossil} seat wins | {green} seat wins | everyone loses "
            "| expected winners | mean turns | ended by VP (14.1) | mean final GF |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in table.to_dict("records"):
        lines.append(
            f"| {row['k']} | {pct(row['fossil_win_rate'], row['fossil_win_low'], row['fossil_win_high'])} "
            f"| {pct(row['green_win_rate'], row['green_win_low'], row['green_win_high'])} "
            f"| {pct(row['everyone_loses'], row['everyone_loses_low'], row['everyone_loses_high'])} "
            f"| {row['expected_winners']:.2f} ({row['expected_winners_low']:.2f}–"
            f"{row['expected_winners_high']:.2f}) | {row['mean_turns']:.1f} "
            f"| {100 * row['outcome_victory_points']:.0f} % | {row['mean_final_gf']:.1f} |"
        )
    return lines


def result_markdown(bots: str, name: str, result: DilemmaResult) -> list[str]:
    table = result.table
    games, seed = int(table["games"].iloc[0]), int(table["seed"].iloc[0])
    budget = int(table["budget"].iloc[0])
    cpu = float(table["cpu_seconds"].iloc[0])
    setting = f", {budget} rollouts per decision" if bots == "search" else ""
    return [
        f"### {name}, seed set {seed} ({NAMED_RULES[name]})",
        "",
        (
            f"Command: `{command(bots, name, games, seed, budget)}` ({games} games per table, "
            f"seed {seed}{setting}; CPU time {cpu:.0f} s)."
        ),
        "",
        f"**Verdict: {result.verdict}.** {result.reason}",
        "",
        *table_markdown(result),
        "",
    ]


Measured = dict[str, dict[int, DilemmaResult]]  # rules name -> seed set -> table


def section(bots: str) -> tuple[list[str], Measured]:
    title = {"personas": "Personas", "search": "The check: search players"}[bots]
    path = DATA / BOT_SETS[bots]
    lines = [f"## {title}", ""]
    if not path.exists():
        return [*lines, f"Not measured yet: `{SCRIPT} --bots {bots}`.", ""], {}
    lines += [
        f"Who plays: {WHO[bots]}. File `energies/data/{BOT_SETS[bots]}`.",
        "",
    ]
    results: Measured = {}
    for name in NAMED_RULES:
        for seed in shipped_seed_sets(name, bots, PLAYERS):
            result = shipped_dilemma(name, bots, PLAYERS, seed_set=seed)
            results.setdefault(name, {})[seed] = result
            lines += result_markdown(bots, name, result)
    return lines, results


CHICKENS = {"chicken", "volunteer's dilemma"}


def _family(verdicts) -> set[str]:
    return {"chicken" if v in CHICKENS else v for v in verdicts}


def agree(personas: DilemmaResult, search: DilemmaResult) -> str:
    """Whether two verdicts agree: the same kind (the chicken family counts as one), or, when
    either is undecided, whether some verdict is still open for both."""
    a, b = personas.details, search.details
    if a.kind != "undecided" and b.kind != "undecided":
        return "yes" if _family([a.kind]) == _family([b.kind]) else "no"
    shared = [v for v in b.possible if _family([v]) & _family(a.possible)]
    if not shared:
        return "no"
    return f"not contradicted ({' or '.join(shared)} open for both)"


def agreement(personas: Measured, search: Measured) -> list[str]:
    lines = [
        "## Do the persona verdicts hold for stronger players?",
        "",
        "| rules | seed set | personas | search players | agree? |",
        "|---|---:|---|---|---|",
    ]
    for name in NAMED_RULES:
        if name not in personas or name not in search:
            continue
        for seed, strong in search[name].items():
            fast = personas[name].get(seed) or next(iter(personas[name].values()))
            persona_seed = int(fast.table["seed"].iloc[0])
            label = f"{seed}" if persona_seed == seed else f"{seed} (personas: {persona_seed})"
            lines.append(
                f"| {name} | {label} | {fast.verdict} | {strong.verdict} | {agree(fast, strong)} |"
            )
    return [*lines, ""]


def yes(flag: bool) -> str:
    return "yes" if flag else "no"


def winners(row) -> str:
    return (
        f"{row['expected_winners']:.2f} ({row['expected_winners_low']:.2f}–"
        f"{row['expected_winners_high']:.2f})"
    )


def classroom_checks(result: DilemmaResult) -> dict[str, tuple[str, bool]]:
    """The criteria for the classroom preset (issue 38, part 4): what was measured, and met?"""
    table = result.table.sort_values("k")
    n = int(table["players"].iloc[0])
    lone = table[table["k"] == 1].iloc[0]
    green, fossil = table[table["k"] == 0].iloc[0], table[table["k"] == n].iloc[0]
    se = [
        (r["expected_winners_high"] - r["expected_winners_low"]) / (2 * 1.96)
        for r in (green, fossil)
    ]
    gap = green["expected_winners"] - fossil["expected_winners"]
    half = 1.96 * math.hypot(*se)
    turns = [float(t) for t in table["mean_turns"]]
    return {
        "measured as a dilemma": (result.verdict, result.details.dilemma),
        f"a lone fossil player among greens wins more than 1/{n} (95 % interval above)": (
            pct(lone["fossil_win_rate"], lone["fossil_win_low"], lone["fossil_win_high"]),
            lone["fossil_win_low"] > 1 / n,
        ),
        "an all-fossil table: everyone loses in a clear share (interval above 10 %)": (
            pct(
                fossil["everyone_loses"],
                fossil["everyone_loses_low"],
                fossil["everyone_loses_high"],
            ),
            fossil["everyone_loses_low"] > 0.1,
        ),
        "... with fewer winners than an all-green table (all-fossil against all-green)": (
            (
                f"{winners(fossil)} against {winners(green)}; difference {gap:.2f} "
                f"(95 % CI {gap - half:.2f} to {gap + half:.2f})"
            ),
            gap - half > 0,
        ),
        "about 25 turns (every table's mean within 20 to 32)": (
            f"{min(turns):.1f} to {max(turns):.1f} over k = 0..{n}",
            20 <= min(turns) and max(turns) <= 32,
        ),
    }


def criteria(personas: Measured, search: Measured) -> list[str]:
    """The classroom preset against the criteria of issue 38, part 4: the search players on
    every seed set (the players the verdict needs), then the personas (the fast check)."""
    measured = {
        f"{label}, seed set {seed}": classroom_checks(result)
        for label, results in (("search players", search), ("personas", personas))
        for seed, result in results.get("classroom", {}).items()
    }
    if not measured:
        return []
    ended = [
        f"{100 * float(row['outcome_victory_points']):.0f} % on seed set {seed}"
        for seed, result in search.get("classroom", {}).items()
        for row in result.table[result.table["k"] == PLAYERS].to_dict("records")
    ]
    race = (
        (
            " The search-fossil players never switch; an all-fossil table of them ends by "
            f"{named_rules('classroom', PLAYERS).victory_points} VP (rule 14.1) before the bag "
            f"runs out in {', '.join(ended)} of its games, and only a game that reaches the "
            "empty bag can end with everyone losing."
        )
        if ended
        else ""
    )
    lines = [
        "## The classroom preset against issue 38's criteria",
        "",
        (
            "Each cell: what was measured, then whether the criterion is met. The search "
            "players decide (the dilemma needs strong players); the personas are the fast "
            "check beside them. FossilRush scrambles for renewable plants before the bag runs "
            "out (rule 14.2, `scramble_margin`), so an all-FossilRush table almost never loses "
            "together: the collective loss comes only when the fossil players do not switch "
            "in time." + race
        ),
        "",
        f"| criterion | {' | '.join(measured)} |",
        "|---|" + "---|" * len(measured),
    ]
    for aim in next(iter(measured.values())):
        cells = " | ".join(
            f"{checks[aim][0]}: **{yes(checks[aim][1])}**" for checks in measured.values()
        )
        lines.append(f"| {aim} | {cells} |")
    return [*lines, ""]


def render() -> None:
    personas_lines, personas = section("personas")
    search_lines, search = section("search")
    text = [
        "# The dilemma, measured (benchmarks/dilemma.py)",
        "",
        (
            "One command per table, given beside it (each run re-renders this page from both "
            "files and keeps the tables it did not measure)."
        ),
        "",
        (
            "k seats play the fossil-leaning strategy, the rest the green one; the seats rotate "
            "(game i seats rotation i % 4) and every k plays the same game seeds. Win rates are "
            "wins per seat played, a shared win split among its winners, with 95 % Wilson "
            "intervals; everyone loses: rule 14.2, Wilson over games; expected winners: the "
            "mean number of winning seats with its normal interval. The verdicts follow the "
            "criteria of docs/insight.md §5 (`energies.insight.temptation.verdict`): a switching "
            "gain D(k) = F(k) − G(k−1) counts as positive or negative only when its 95 % "
            "interval (Newcombe's, from the two Wilson intervals) excludes zero, and a verdict "
            "is stated only when every reading of the undecided signs gives it."
        ),
        "",
        f"Python {platform.python_version()}, energies {en.__version__}, {platform.machine()}.",
        "",
        *personas_lines,
        *search_lines,
        *agreement(personas, search),
        *criteria(personas, search),
    ]
    write_text(RESULTS / "dilemma.md", "\n".join(text).rstrip() + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", choices=sorted(BOT_SETS), required=True)
    parser.add_argument("--rules", nargs="+", choices=list(NAMED_RULES), default=list(NAMED_RULES))
    parser.add_argument("--games", type=int, default=400, help="games per table (per k)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=24, help="search: rollouts per decision")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--render-only", action="store_true", help="only re-render the page")
    args = parser.parse_args()
    if not args.render_only:
        measure(args.bots, args.rules, args.games, args.seed, args.budget, args.jobs)
    render()
    print(f"wrote {RESULTS / 'dilemma.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
