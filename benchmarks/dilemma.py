"""The dilemma of the published and the classroom rules, measured and classified (the tables the
package ships, and benchmarks/results/dilemma.md).

    python benchmarks/dilemma.py --bots personas --games 400 --seed 1
    python benchmarks/dilemma.py --bots search --rules classroom --games 100 --seed 1 --budget 24
    python benchmarks/dilemma.py --bots search --rules published --games 40 --seed 1 --budget 24

``--bots personas``: for each named rule set (energies.insight.temptation.NAMED_RULES, or
those given with ``--rules``) and k = 0..4, ``--games`` games with k FossilRush ("fossil")
seats and the rest GreenInvestor ("green"), seats rotated, the same game seeds for every k
(energies.insight.dilemma); writes energies/data/dilemma.csv. ``--bots search``: the same
with the search player's restricted variants, SearchPlayer(plants="fossil") and
SearchPlayer(plants="renewable") at ``--budget`` rollouts per decision (about a hundred
times slower: fewer games, the check of the persona verdicts); writes
energies/data/dilemma_search.csv. A run replaces the tables of the rule sets it measured and
keeps the others, so each table has one command: the page lists it beside the table. Each
run re-renders benchmarks/results/dilemma.md from both files: the tables, the verdicts,
whether the search check agrees, and the classroom preset against the aims of issue 38
(part 4).

CPU time of the three commands above: about 1, 8.5 and 10 minutes (the third, the published
game's search check, is the optional one: its persona verdict is far from undecided).

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

import energies as en
from energies.bots.search import SearchPlayer
from energies.insight.temptation import (
    NAMED_RULES,
    DilemmaResult,
    dilemma,
    dilemma_tables,
    named_rules,
)
from energies.insight.temptation.shipped import BOT_SETS
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


def measure(bots: str, names: list[str], games: int, seed: int, budget: int, jobs: int) -> None:
    path = DATA / BOT_SETS[bots]
    kept = []
    if path.exists():  # the tables of the other rule sets stay as they were measured
        kept = [row for row in dilemma_tables(bots).to_dict("records") if row["rules"] not in names]
    rows = []
    for name in names:
        start = cpu_seconds()
        result = dilemma(
            named_rules(name, PLAYERS),
            players=PLAYERS,
            games=games,
            strategies=strategies(bots, budget),
            seed=seed,
            jobs=jobs,
        )
        seconds = cpu_seconds() - start
        print(f"{bots} {name}: {result.verdict} ({seconds:.0f} s CPU)", flush=True)
        for row in result.table.to_dict("records"):
            rows.append(
                {
                    "rules": name,
                    "budget": budget if bots == "search" else 0,
                    **row,
                    "cpu_seconds": round(seconds, 1),
                }
            )
    order = list(NAMED_RULES)
    rows = sorted(kept + rows, key=lambda row: (order.index(row["rules"]), row["k"]))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()})
    write_text(path, out.getvalue())


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
        f"### {name} ({NAMED_RULES[name]})",
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


def section(bots: str) -> tuple[list[str], dict[str, DilemmaResult]]:
    title = {"personas": "Personas", "search": "The check: search players"}[bots]
    path = DATA / BOT_SETS[bots]
    lines = [f"## {title}", ""]
    if not path.exists():
        return [*lines, f"Not measured yet: `{SCRIPT} --bots {bots}`.", ""], {}
    table = dilemma_tables(bots)
    lines += [
        f"Who plays: {WHO[bots]}. File `energies/data/{BOT_SETS[bots]}`.",
        "",
    ]
    results = {}
    for name in NAMED_RULES:
        part = table[table["rules"] == name].reset_index(drop=True)
        if part.empty:
            continue
        results[name] = DilemmaResult(part, name=name)
        lines += result_markdown(bots, name, results[name])
    return lines, results


def agreement(personas: dict, search: dict) -> list[str]:
    lines = [
        "## Do the persona verdicts hold for stronger players?",
        "",
        "| rules | personas | search players | agree? |",
        "|---|---|---|---|",
    ]
    for name in NAMED_RULES:
        if name not in personas or name not in search:
            continue
        a, b = personas[name], search[name]
        if b.kind == "undecided":
            still = " or ".join(b.details.possible)
            word = "yes" if a.kind in b.details.possible else "no"
            agree = f"not contradicted ({still} still open)" if word == "yes" else "no"
        elif a.kind == "undecided":
            agree = "yes" if b.kind in a.details.possible else "no"
        else:
            family = {"chicken", "volunteer's dilemma"}
            agree = "yes" if a.kind == b.kind or {a.kind, b.kind} <= family else "no"
        lines.append(f"| {name} | {a.verdict} | {b.verdict} | {agree} |")
    return [*lines, ""]


DILEMMAS = ("social dilemma", "volunteer's dilemma", "chicken")


def yes(flag: bool) -> str:
    return "yes" if flag else "no"


def criteria(personas: dict) -> list[str]:
    """Issue 38, part 4: does the classroom preset tempt?"""
    if "classroom" not in personas:
        return []
    result = personas["classroom"]
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
    lone_text = pct(lone["fossil_win_rate"], lone["fossil_win_low"], lone["fossil_win_high"])
    lost = pct(
        fossil["everyone_loses"], fossil["everyone_loses_low"], fossil["everyone_loses_high"]
    )
    winners = (
        f"{fossil['expected_winners']:.2f} against {green['expected_winners']:.2f} "
        f"(difference {gap:.2f}, 95 % CI {gap - half:.2f} to {gap + half:.2f})"
    )
    turns = [float(t) for t in table["mean_turns"]]
    short = 20 <= min(turns) and max(turns) <= 32
    return [
        "## The classroom preset against issue 38's criteria",
        "",
        "| criterion | measured | met? |",
        "|---|---|---|",
        f"| measured as a dilemma | {result.verdict} | {yes(result.kind in DILEMMAS)} |",
        (
            f"| a lone fossil player among greens wins more than 1/{n} (95 % interval above) "
            f"| {lone_text} | {yes(lone['fossil_win_low'] > 1 / n)} |"
        ),
        (
            f"| an all-fossil table: everyone loses in a clear share (interval above 10 %) "
            f"| {lost} | {yes(fossil['everyone_loses_low'] > 0.1)} |"
        ),
        (f"| ... with fewer winners than an all-green table | {winners} | {yes(gap - half > 0)} |"),
        (
            f"| about 25 turns (every table's mean within 20 to 32) "
            f"| {min(turns):.1f} to {max(turns):.1f} over k = 0..{n} | {yes(short)} |"
        ),
        "",
    ]


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
        *criteria(personas),
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
