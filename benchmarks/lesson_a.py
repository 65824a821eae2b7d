"""Lesson A's group cell played by scripted students: the clicks a group makes, and the turns
it reaches in the teacher guide's playing time.

    python benchmarks/lesson_a.py --groups 10            # the table, on stdout
    python benchmarks/lesson_a.py --groups 10 --write    # also benchmarks/results/lesson_a.md
                                                         # and the block in the teacher guide

Each group runs lesson 02's group cell as it stands (``en.widgets.group_app(group, NAMES)``:
the short classroom game, seed 100 + group, three students and a bot) and plays it to the end
through the page's own messages: a student takes the screen when the pass screen asks
("I am Ben"), then clicks what a persona bot would choose (Ana plays like Balanced, Ben like
GreenInvestor, Cleo like FreeRider), found among the page's buttons and glowing spots. Counted:
every click that applies a move (a *decision*), the proposal windows among them (rule 12.1),
every hand-over of the laptop, every press of "Bots play until my turn". The same games are
also played with the app as it was before lesson A's changes (every human asked in every
proposal window, bots waiting for their button) for comparison.

Time is a model, not a stopwatch (nobody can time a class with a script): each decision takes
``--decision`` seconds, each hand-over ``--handover`` seconds, each other click ``--click``
seconds, and the app's own answer is the browser trial's median of 46 ms per click
(benchmarks/results/browser_latency.md). The default of 10 s per decision and its sources
are in the report. The guide quotes the report; tests/test_lesson_a.py replays group 1 and
checks the guide's numbers, so a change of the rules or the app that moves them fails there
until this script is run again with ``--write``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import energies as en
from energies.bots import make_bot
from energies.newenergies.actions import action_to_dict

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "notebooks" / "TEACHER_GUIDE.md"
RESULT = REPO / "benchmarks" / "results" / "lesson_a.md"
BEGIN, END = "<!-- lesson-a-timings: begin -->", "<!-- lesson-a-timings: end -->"

#: lesson 02's group cell: three students at one laptop, the bot takes the fourth seat
NAMES = ("Ana", "Ben", "Cleo")
#: how each scripted student decides (a persona bot's choice, clicked on the page)
STUDENTS = ("Balanced", "GreenInvestor", "FreeRider")
#: the teacher guide's lesson A: the groups play from minute PLAY_START for PLAY_MINUTES
PLAY_START, PLAY_MINUTES = 10, 28
#: groups 1 .. GROUPS (seeds 101 ..): the guide quotes their median and range
GROUPS = 10
#: seconds: a decision, a hand-over of the laptop, a click that needs no thought
DECISION_S, HANDOVER_S, CLICK_S = 10.0, 5.0, 3.0
APP_S = 0.046  # the page's answer to a click: the browser trial's median (46 ms)
PACES = (5.0, 10.0, 15.0)  # seconds per decision the report compares

#: PlayApp options of the app as it was before lesson A (for the comparison)
BEFORE = {"ask_on_bot_turns": True, "propose_between_humans": True, "auto_bots": False}


@dataclass
class Count:
    """One group's game, click by click: (what, game turn after it) in order."""

    group: int
    clicks: list[tuple[str, int]] = field(default_factory=list)
    turns: int = 0
    outcome: str = ""
    off_page: int = 0  # scripted choices the page did not show (clicked from Python)
    student_turns: set[int] = field(default_factory=set)  # turns a student was active in

    def n(self, *kinds: str) -> int:
        return sum(1 for kind, _turn in self.clicks if kind in kinds)

    @property
    def decisions(self) -> int:
        return self.n("decision", "proposal")

    def seconds(self, decision: float, handover: float, click: float) -> list[tuple[float, int]]:
        """Cumulative seconds after each click, with the turn the game is in then."""
        cost = {"decision": decision, "proposal": decision, "handover": handover, "bots": click}
        total, out = 0.0, []
        for kind, turn in self.clicks:
            total += cost[kind] + APP_S
            out.append((total, turn))
        return out

    def minutes(self, decision: float, handover: float, click: float) -> float:
        timeline = self.seconds(decision, handover, click)
        return timeline[-1][0] / 60 if timeline else 0.0

    def turn_at(self, minutes: float, decision: float, handover: float, click: float) -> int:
        """The turn the game is in after ``minutes`` of play (the last turn: it has ended)."""
        reached = 1
        for seconds, turn in self.seconds(decision, handover, click):
            if seconds > minutes * 60:
                return reached
            reached = turn
        return self.turns


def page_options(page: dict) -> list[dict]:
    """Every option the page offers now: glowing spots, buttons, pickers."""
    out = [o for spot in page.get("spots", {}).values() for o in spot.get("options", ())]
    out += [o for o in page.get("turn", []) if o.get("a")]
    decision = page.get("decision") or {}
    out += decision.get("options", []) + (decision.get("picker") or [])
    out += [o for row in page.get("supply", []) for o in row.get("options", [])]
    out += page.get("offers", {}).get("options", [])
    out += [o for key in ("energy", "cards") for o in page.get(key, []) if o.get("a")]
    if page.get("ask") and page["ask"].get("a"):
        out.append(page["ask"])
    return out


def play_group(group: int, folder: Path, **options) -> Count:
    """Lesson 02's group cell for ``group``, played to the end by scripted students."""
    os.environ["ENERGIES_CLASS_FOLDER"] = str(folder)
    app = en.widgets.group_app(group, list(NAMES), chart=False, **options)
    game = app.game
    students = {s: make_bot(p) for s, p in enumerate(STUDENTS)}
    count = Count(group)
    for _ in range(20_000):
        if game.is_over:
            break
        seat = game.current_seat
        if seat not in app.humans:
            app.message({"type": "bots"})
            count.clicks.append(("bots", game.turn))
            continue
        if app.pass_to is not None:
            app.message({"type": "reveal"})
            count.clicks.append(("handover", game.turn))
            continue
        task = game.state.pending
        kind = "proposal" if task is not None and task.kind == "propose_trade" else "decision"
        rng = random.Random(f"{game.seed}:student:{len(game.actions)}")
        action = students[seat].decide(game.view(seat), game.legal_actions(), rng)
        wanted = action_to_dict(action)
        page = app.page
        if any(o["a"] == wanted for o in page_options(page)):
            applied = app.message({"type": "act", "action": wanted, "rev": page["rev"]})
        else:
            count.off_page += 1
            applied = app.click(action)
        if not applied:
            raise RuntimeError(f"group {group}: the page refused {action}: {app.status_text}")
        if game.state.active in app.humans:
            count.student_turns.add(game.turn)
        count.clicks.append((kind, game.turn))
    count.turns, count.outcome = game.turn, game.outcome.kind if game.outcome else "unfinished"
    return count


def play_all(groups: int, **options) -> list[Count]:
    with tempfile.TemporaryDirectory() as folder:
        return [play_group(g, Path(folder), **options) for g in range(1, groups + 1)]


def _spread(values) -> str:
    values = sorted(values)
    median = statistics.median(values)
    return f"{median:.0f} ({values[0]:.0f}–{values[-1]:.0f})"


def report(now: list[Count], before: list[Count], command: str) -> str:
    """The results page (markdown)."""
    first = now[0]
    rows = []
    for label, counts in (
        ("lesson 02's group cell", now),
        (
            "as before: every student asked in every proposal window, the bot waits for its button",
            before,
        ),
    ):
        rows.append(
            f"| {label} | {_spread(c.decisions for c in counts)} "
            f"| {_spread(c.n('proposal') for c in counts)} "
            f"| {_spread(c.n('handover') for c in counts)} "
            f"| {_spread(c.n('bots') for c in counts)} "
            f"| {_spread(c.turns for c in counts)} "
            f"| {_spread(c.minutes(DECISION_S, HANDOVER_S, CLICK_S) for c in counts)} |"
        )
    paces = []
    for pace in PACES:
        minutes = [c.minutes(pace, HANDOVER_S, CLICK_S) for c in now]
        reached = [c.turn_at(PLAY_MINUTES, pace, HANDOVER_S, CLICK_S) for c in now]
        ended = sum(m <= PLAY_MINUTES for m in minutes)
        paces.append(
            f"| {pace:.0f} s | {_spread(minutes)} | {_spread(reached)} of {_spread(c.turns for c in now)} "
            f"| {ended} of {len(now)} |"
        )
    outcomes = ", ".join(
        f"{kind} {sum(c.outcome == kind for c in now)}" for kind in sorted({c.outcome for c in now})
    )
    off_page = sum(c.off_page for c in now)
    return "\n".join(
        [
            "# Lesson A: a group's game, counted (benchmarks/lesson_a.py)",
            "",
            f"Command: `{command}`  ",
            (
                f"energies {en.__version__}; the group cell `en.widgets.group_app(group, "
                f"{list(NAMES)})`: rules `RuleSet.classroom()`, seeds 101–{100 + len(now)}, "
                f"students scripted as {', '.join(STUDENTS)}, the fourth seat FossilRush (Fossil Fred)."
            ),
            "",
            (
                "Every click of a game played to its end through the page's messages (median and "
                "range over the groups). A *decision* applies a move; *proposal windows* are the "
                "decisions that only ask a student to propose a trade or pass (rule 12.1); a "
                "*hand-over* is the pass screen's “I am …” click; *bots* counts presses of "
                "“Bots play until my turn”. Minutes at "
                f"{DECISION_S:.0f} s a decision, {HANDOVER_S:.0f} s a hand-over, {CLICK_S:.0f} s a "
                "bots press."
            ),
            "",
            "| app | decisions | proposal windows | hand-overs | bots presses | turns | minutes |",
            "|---|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            (
                f"Outcomes of the group cell's games: {outcomes}. Choices the page did not offer "
                f"(clicked from Python instead): {off_page}."
            ),
            "",
            f"## Turns reached in the guide's {PLAY_MINUTES} minutes of play",
            "",
            (
                "| seconds per decision | minutes to the end of the game | turn reached after "
                f"{PLAY_MINUTES} min (of the game's turns) | games ended within {PLAY_MINUTES} min |"
            ),
            "|---:|---:|---:|---:|",
            *paces,
            "",
            "## The assumption: seconds per decision",
            "",
            (
                "The app answers a click in 46 ms (median of 60 clicks in Chromium, "
                "benchmarks/results/browser_latency.md); the students' thinking is the time. "
                "Two published paces bracket it:"
            ),
            "",
            (
                "- an expert's routine click, by the Keystroke-Level Model (Card, Moran and Newell, "
                "*Communications of the ACM* 23(7), 1980): mentally prepare 1.35 s + point 1.1 s + "
                "press 0.2 s = 2.65 s, a floor nobody thinking about a trade reaches;"
            ),
            (
                "- experienced players at a table: a three-player game of Catan takes about 45 "
                'minutes for about 60 turns (catanforthree.com, "The concept of time in The Settlers '
                'of Catan"), 45 s a turn, with the cards and pieces handled by hand.'
            ),
            "",
            (
                f"In group 1's game a student's own turn took {_per_turn(first):.1f} decisions "
                f"on average, so 45 s a turn is about {45 / _per_turn(first):.0f} s a decision. The "
                f"guide assumes {DECISION_S:.0f} s (students new to the game think longer; the app "
                f"counts, pays and places for them), {HANDOVER_S:.0f} s to pass the laptop and "
                f"click “I am …”, and {CLICK_S:.0f} s for a click that needs no thought "
                "(about the Keystroke-Level Model's)."
            ),
            "",
        ]
    )


def _per_turn(count: Count) -> float:
    """Decisions per student turn: the decisions over the turns a student was active in."""
    return count.decisions / max(1, len(count.student_turns))


def _within(now: list[Count], pace: float) -> str:
    """How far the groups get in the guide's playing time at ``pace`` seconds a decision."""
    minutes = [c.minutes(pace, HANDOVER_S, CLICK_S) for c in now]
    ended = sum(m <= PLAY_MINUTES for m in minutes)
    text = f"{_spread(minutes)} minutes"
    if ended == len(now):
        return text + f": every game reaches its ending within the {PLAY_MINUTES} minutes of play"
    reached = [c.turn_at(PLAY_MINUTES, pace, HANDOVER_S, CLICK_S) for c in now]
    return (
        text + f": after the {PLAY_MINUTES} minutes of play a group is at turn "
        f"{_spread(reached)} and {ended} of {len(now)} games have ended"
    )


def guide_block(now: list[Count]) -> str:
    """The teacher guide's paragraph on timing (between the markers), from the counted games."""
    first, slow = now[0], PACES[-1]
    text = (
        f"**How long a group's game takes** (counted, not guessed: "
        f"`python benchmarks/lesson_a.py --groups {len(now)}`, "
        "[benchmarks/results/lesson_a.md](../benchmarks/results/lesson_a.md)). The group cell, "
        f"played to its end by three scripted students and the bot in groups 1–{len(now)}: the "
        f"short game ends after {_spread(c.turns for c in now)} turns (median and range), with "
        f"{_spread(c.decisions for c in now)} clicks that decide something, "
        f"{_spread(c.n('handover') for c in now)} hand-overs of the laptop and no proposal "
        "windows between the students. At "
        f"{DECISION_S:.0f} seconds a decision and {HANDOVER_S:.0f} seconds a hand-over (the "
        f"results page says where that pace comes from) that is {_within(now, DECISION_S)}. "
        f"Group 1's game (seed 101) ends at turn {first.turns} after {first.decisions} "
        f"decisions, {first.minutes(DECISION_S, HANDOVER_S, CLICK_S):.0f} minutes at that pace. "
        f"A slower table, {slow:.0f} seconds a decision, needs {_within(now, slow)}; the line "
        "*If the bag ran out now* tells such a group where it stands when time is up."
    )
    return f"{BEGIN}\n{text}\n{END}"


def write_guide(block: str) -> None:
    text = GUIDE.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    GUIDE.write_text(text[:start] + block + text[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=GROUPS)
    parser.add_argument("--write", action="store_true", help="write the report and the guide")
    args = parser.parse_args()
    now = play_all(args.groups)
    before = play_all(args.groups, **BEFORE)
    command = "python benchmarks/lesson_a.py --groups " + str(args.groups)
    text = report(now, before, command)
    print(text)
    if args.write:
        RESULT.write_text(text, encoding="utf-8")
        write_guide(guide_block(now))
        print(f"wrote {RESULT.relative_to(REPO)} and the block in {GUIDE.relative_to(REPO)}")


if __name__ == "__main__":
    sys.exit(main())
