"""A map of which rules make which game: the dilemma of a grid of rule knobs, classified
(energies/data/dilemma_map.csv and benchmarks/results/dilemma_map.md).

    python benchmarks/dilemma_map.py --games 200 --seed 1

Every point is a rule set made by energies.insight.policy_rules from a few knobs (VP target,
brown discs, event-row spaces, green discs per player, plant prices in science, disc bands)
and measured with energies.insight.dilemma: for k = 0..4 FossilRush seats and the rest
GreenInvestor, ``--games`` games per k, seats rotated, the same seeds at every point.

1. The race block, coarse: VP target 5, 6, 7, 8, 10 x brown discs 20, 30, 43 x event rows of
   2 or 3 spaces, every other knob published.
2. The policy block: one knob changed at a time around two centres, the published game and
   RuleSet.classroom(): fossil plants 2 science, renewable plants 2 or 4 science, the flat
   and the early disc bands, 5 green discs per player.
3. The refinement: between two neighbours of the race block whose verdicts differ, the
   point half-way (brown discs 25 or 35, VP 9), at most ``--refine`` points, nearest the
   classroom preset first.

Deterministic by seed; the table is the same for any ``--jobs``.
"""

from __future__ import annotations

import argparse
import csv
import io
import platform
import resource
import sys
import time
from pathlib import Path

import energies as en
from energies.insight.temptation import dilemma, dilemma_map, policy_rules
from energies.insight.temptation.policy import KNOBS, MAP_TABLE, PUBLISHED_KNOBS, knobs_of
from energies.kit.files import write_text

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DATA = ROOT / "energies" / "data"
PLAYERS = 4
COMMAND = "python benchmarks/dilemma_map.py --games 200 --seed 1"

RACE_VP = (5, 6, 7, 8, 10)
RACE_BROWN = (20, 30, 43)
RACE_ROWS = (2, 3)
#: The half-way points the refinement may add between two neighbours.
HALF_WAY_BROWN = {(20, 30): 25, (30, 43): 35}
HALF_WAY_VP = {(8, 10): 9}
POLICY_CHANGES = (
    ("fossil plants 2 science", {"fossil_science": 2}),
    ("renewable plants 2 science", {"renewable_science": 2}),
    ("renewable plants 4 science", {"renewable_science": 4}),
    ("published disc bands", {"disc_bands": "published"}),
    ("flat disc bands", {"disc_bands": "flat"}),
    ("early disc bands", {"disc_bands": "early"}),
    ("5 green discs per player", {"green_per_player": 5}),
)


def cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def race_label(knobs: dict) -> str:
    return (
        f"VP {knobs['victory_points']}, {knobs['brown_discs']} brown, rows of {knobs['row_spaces']}"
    )


class Map:
    """The points measured so far, each measured once (a centre shared by both blocks)."""

    def __init__(self, games: int, seed: int, jobs: int) -> None:
        self.games, self.seed, self.jobs = games, seed, jobs
        self.measured: dict[tuple, list[dict]] = {}
        self.rows: list[dict] = []
        self.verdicts: dict[tuple, str] = {}

    def point(self, label: str, block: str, centre: str, change: str, knobs: dict) -> str:
        key = tuple(knobs[k] for k in KNOBS)
        if key not in self.measured:
            start = cpu_seconds()
            result = dilemma(
                policy_rules(PLAYERS, **knobs),
                players=PLAYERS,
                games=self.games,
                seed=self.seed,
                jobs=self.jobs,
            )
            seconds = round(cpu_seconds() - start, 1)
            self.measured[key] = [
                {**row, "cpu_seconds": seconds} for row in result.table.to_dict("records")
            ]
            self.verdicts[key] = result.kind
            print(f"{label}: {result.verdict} ({seconds:.0f} s CPU)", flush=True)
        for row in self.measured[key]:
            self.rows.append(
                {
                    "point": label,
                    "block": block,
                    "centre": centre,
                    "change": change,
                    **{k: knobs[k] for k in KNOBS},
                    **row,
                }
            )
        return self.verdicts[key]


def race_knobs(vp: int, brown: int, rows: int) -> dict:
    return {**PUBLISHED_KNOBS, "victory_points": vp, "brown_discs": brown, "row_spaces": rows}


def refinement(verdicts: dict, limit: int, centre: dict) -> list[tuple[int, int, int]]:
    """Half-way points between race neighbours with different verdicts, nearest the centre."""
    wanted = set()
    for (vp, brown, rows), verdict in verdicts.items():
        for (a, b), half in HALF_WAY_BROWN.items():
            if brown == a and verdicts.get((vp, b, rows), verdict) != verdict:
                wanted.add((vp, half, rows))
        for (a, b), half in HALF_WAY_VP.items():
            if vp == a and verdicts.get((b, brown, rows), verdict) != verdict:
                wanted.add((half, brown, rows))

    def distance(p):
        return (
            abs(p[0] - centre["victory_points"]),
            abs(p[1] - centre["brown_discs"]) / 10,
            abs(p[2] - centre["row_spaces"]),
            p,
        )

    return sorted(wanted, key=distance)[:limit]


def run(games: int, seed: int, jobs: int, refine: int) -> None:
    the_map = Map(games, seed, jobs)
    race = {}
    for rows in RACE_ROWS:
        for brown in RACE_BROWN:
            for vp in RACE_VP:
                knobs = race_knobs(vp, brown, rows)
                race[(vp, brown, rows)] = the_map.point(race_label(knobs), "race", "", "", knobs)
    centres = {
        "published": dict(PUBLISHED_KNOBS),
        "classroom": knobs_of(en.RuleSet.classroom(PLAYERS)),
    }
    for centre, knobs in centres.items():
        the_map.point(f"{centre}", "policy", centre, "none (the centre)", knobs)
        for change, knob in POLICY_CHANGES:
            if all(knobs[name] == value for name, value in knob.items()):
                continue  # the centre's own rule (the classroom game's bands are early)
            the_map.point(f"{centre}: {change}", "policy", centre, change, {**knobs, **knob})
    added = refinement(race, refine, centres["classroom"])
    for vp, brown, rows in added:
        knobs = race_knobs(vp, brown, rows)
        the_map.point(race_label(knobs), "race", "", "", knobs)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(the_map.rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in the_map.rows:
        writer.writerow({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()})
    write_text(DATA / MAP_TABLE, out.getvalue())


# -- the report ---------------------------------------------------------------------------------


def cell(row) -> str:
    return (
        f"**{row['verdict']}**<br>F1 {100 * row['lone_fossil']:.0f} % "
        f"({100 * row['lone_fossil_low']:.0f}–{100 * row['lone_fossil_high']:.0f}), "
        f"EL {100 * row['all_fossil_everyone_loses']:.0f} % "
        f"({100 * row['all_fossil_everyone_loses_low']:.0f}–"
        f"{100 * row['all_fossil_everyone_loses_high']:.0f}), "
        f"{row['turns_all_green']:.0f}/{row['turns_lone_fossil']:.0f}/"
        f"{row['turns_all_fossil']:.0f} turns"
    )


def race_markdown(frame) -> list[str]:
    race = frame[frame["block"] == "race"]
    vps = sorted(race["victory_points"].unique())
    lengths = sorted({(int(b), int(r)) for b, r in zip(race["brown_discs"], race["row_spaces"])})
    lines = [
        "| bag and rows | " + " | ".join(f"VP {vp}" for vp in vps) + " |",
        "|---|" + "---|" * len(vps),
    ]
    for brown, rows in lengths:
        cells = []
        for vp in vps:
            match = race[
                (race["victory_points"] == vp)
                & (race["brown_discs"] == brown)
                & (race["row_spaces"] == rows)
            ]
            cells.append(cell(match.iloc[0]) if len(match) else "")
        lines.append(f"| {brown} brown, rows of {rows} | " + " | ".join(cells) + " |")
    return lines


def policy_markdown(frame) -> list[str]:
    policy = frame[frame["block"] == "policy"]
    centres = list(dict.fromkeys(policy["centre"]))
    changes = list(dict.fromkeys(policy["change"]))
    lines = ["| change | " + " | ".join(centres) + " |", "|---|" + "---|" * len(centres)]
    for change in changes:
        cells = []
        for centre in centres:
            match = policy[(policy["centre"] == centre) & (policy["change"] == change)]
            cells.append(cell(match.iloc[0]) if len(match) else "(the centre's own rule)")
        lines.append(f"| {change} | " + " | ".join(cells) + " |")
    return lines


def gains_markdown(frame) -> list[str]:
    lines = [
        "| point | verdict | D(1) D(2) D(3) D(4), points | winners all-green / all-fossil |",
        "|---|---|---|---|",
    ]
    for row in frame.to_dict("records"):
        lines.append(
            f"| {row['point']} | {row['verdict_text']} | {row['gains']} "
            f"| {row['winners_all_green']:.2f} / {row['winners_all_fossil']:.2f} |"
        )
    return lines


def cost_note() -> str:
    """CPU time and games of the whole map, and the points the refinement added."""
    import pandas as pd

    long = pd.read_csv(DATA / MAP_TABLE)
    knobs = long.drop_duplicates("point")
    measured = knobs.drop_duplicates(list(KNOBS))
    games = int(long.drop_duplicates(["point", "k"]).merge(measured[["point"]])["games"].sum())
    refined = knobs[
        (knobs["block"] == "race")
        & (
            ~knobs["victory_points"].isin(RACE_VP)
            | ~knobs["brown_discs"].isin(RACE_BROWN)
            | ~knobs["row_spaces"].isin(RACE_ROWS)
        )
    ]
    return (
        f"CPU time: {measured['cpu_seconds'].sum():.0f} s for {len(measured)} points "
        f"({games:,} games); the refinement added "
        + (", ".join(refined["point"]) or "nothing")
        + "."
    )


def render() -> None:
    frame = dilemma_map()
    classroom = knobs_of(en.RuleSet.classroom(PLAYERS))
    text = [
        "# Which rules make which game (benchmarks/dilemma_map.py)",
        "",
        (
            f"Command: `{COMMAND}` ({int(frame['games'].min())} games per table, 5 tables per "
            f"point, seed {map_seed()}; file `energies/data/{MAP_TABLE}`, drawn by "
            "`energies.insight.plot_dilemma_map()`)."
        ),
        "",
        (
            "Who plays: FossilRush (`fossil`) against GreenInvestor (`green`), k = 0..4 fossil "
            "seats, seats rotated, the same game seeds at every point. Each cell: the verdict "
            "(docs/insight.md §5: stated only when the 95 % intervals settle it), F1 = the lone "
            "fossil seat's win rate among three greens (95 % Wilson interval; the fair share is "
            "25 %), EL = the share of all-fossil games everybody loses (rule 14.2, 95 % Wilson "
            "interval), and the mean turns of the all-green / lone-fossil / all-fossil tables."
        ),
        "",
        f"Python {platform.python_version()}, energies {en.__version__}, {platform.machine()}. "
        + cost_note(),
        "",
        "## The race against the bag",
        "",
        (
            "VP target (rule 14.1) against the game's length: brown discs in the bag (rule 1; "
            "43 is the published 9/8/9/9/8, else the same number of each kind) and spaces per "
            "event row (rule 6.3). Every other rule published, the disc bands too. "
            f"RuleSet.classroom() is {race_label(classroom)} with {classroom['disc_bands']} "
            "disc bands (its point is the centre of the policy block below); the published "
            "game VP 10, 43 brown, rows of 3."
        ),
        "",
        *race_markdown(frame),
        "",
        "## One policy knob at a time",
        "",
        (
            "Around the published game and the classroom game: the price of a plant in science "
            "(rule 10), the disc bands (rule 4.3: flat = one disc at any footprint; early = the "
            "two top bands start 3 GF lower, as in the classroom game) and the green discs per "
            "player (rule 1)."
        ),
        "",
        *policy_markdown(frame),
        "",
        "## Every point: the switching gains",
        "",
        (
            "D(k) = a fossil seat's win rate at k fossil seats minus a green seat's at k − 1: "
            "what one player gains by switching to fossil while k − 1 others play fossil."
        ),
        "",
        *gains_markdown(frame),
        "",
    ]
    write_text(RESULTS / "dilemma_map.md", "\n".join(text))


def map_seed() -> int:
    import pandas as pd

    return int(pd.read_csv(DATA / MAP_TABLE, usecols=["seed"])["seed"].iloc[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per table (per k)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--refine", type=int, default=6, help="most half-way points added")
    parser.add_argument("--render-only", action="store_true", help="only re-render the page")
    args = parser.parse_args()
    if not args.render_only:
        run(args.games, args.seed, args.jobs, args.refine)
    render()
    print(f"wrote {RESULTS / 'dilemma_map.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
