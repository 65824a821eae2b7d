"""The lessons claim only what their data show, in a length a class can read (issues 33, 38).

* word budgets: lessons 03-05 at most 1,500 words of prose, no markdown cell of any lesson over
  200 words; every lesson states its time and its core path;
* the dilemma words ("social dilemma", "volunteer's dilemma", "chicken", "tragedy of the
  commons") appear in a lesson's prose only where a shipped verdict says so;
* every persona-based rate a lesson quotes holds on a second seed set: the test plays those
  games again (cheap persona games) with another seed; the search-based claims are checked
  on both shipped seed sets;
* the featured games say what their output shows (lessons 00 and 03);
* the teacher guide's expected answers quote numbers the lessons print.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

import energies as en
from energies import insight
from energies.insight import readout
from energies.insight.temptation import dilemma_row

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
BUDGETED = ("03", "04", "05")
LESSON_WORDS, CELL_WORDS = 1500, 200
FAIR_SHARE = 0.25
SECOND_SEED = 2  # the shipped persona tables and the map were measured with seed 1


def lesson(number: str) -> dict:
    return json.loads(next(NOTEBOOKS.glob(f"{number}-*.ipynb")).read_text(encoding="utf-8"))


def markdown_cells(nb: dict) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def prose_words(text: str) -> int:
    """Words a student reads: fenced code and HTML tags left out."""
    text = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    return len(re.sub(r"<[^>]+>", " ", text).split())


def outputs_text(nb: dict) -> str:
    parts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
            parts.append("".join(out.get("data", {}).get("text/html", "")))
    return "\n".join(parts)


# -- word budgets, time and core path ---------------------------------------------------------


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem[:2])
def test_no_markdown_cell_is_over_the_budget(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    long = [
        (prose_words(text), text[:50])
        for text in markdown_cells(nb)
        if prose_words(text) > CELL_WORDS
    ]
    assert not long, f"markdown cells over {CELL_WORDS} words: {long}"


@pytest.mark.parametrize("number", BUDGETED)
def test_lessons_03_to_05_fit_their_word_budget(number):
    words = sum(prose_words(text) for text in markdown_cells(lesson(number)))
    assert words <= LESSON_WORDS, f"lesson {number}: {words} words of prose"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem[:2])
def test_every_lesson_states_its_time_and_core_path(path):
    head = "\n".join(markdown_cells(json.loads(path.read_text(encoding="utf-8")))[:3])
    line = re.search(r"\*\*(?:Time and core path|Core path):\*\*([^\n]*)", head)
    assert line, "a '**Time and core path:**' line in the lesson's header"
    assert re.search(r"\d+ minutes", line.group(1)), line.group(0)


# -- the dilemma words follow the shipped verdicts --------------------------------------------

TERMS = {
    # term: (the verdict it names, whether an open reading of "a dilemma: ..." is enough)
    "social dilemma": ("social dilemma", True),
    "tragedy of the commons": ("social dilemma", False),  # docs/insight.md: that verdict only
    "volunteer's dilemma": ("volunteer's dilemma", True),
    "chicken": ("chicken", True),
}


@cache
def shipped_verdicts() -> tuple[frozenset[str], frozenset[str]]:
    """The verdicts the shipped tables state: the decided kinds, and the open readings of a
    table whose every open reading is a dilemma ("a dilemma: social dilemma or chicken,
    undecided at 200 games"); a plainly undecided table states none."""
    decided, open_readings = set(insight.dilemma_map()["verdict"]), set()
    for bots in ("personas", "search"):
        for rules in ("published", "classroom"):
            for seed_set in insight.shipped_seed_sets(rules, bots):
                details = insight.shipped_dilemma(rules, bots=bots, seed_set=seed_set).details
                decided.add(details.kind)
                if details.dilemma:
                    open_readings.update(details.possible)
    return frozenset(decided), frozenset(open_readings)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem[:2])
def test_the_dilemma_words_appear_only_where_a_shipped_verdict_says_so(path):
    prose = " ".join(markdown_cells(json.loads(path.read_text(encoding="utf-8"))))
    prose = prose.lower().replace("’", "'")
    decided, open_readings = shipped_verdicts()
    for term, (verdict, open_enough) in TERMS.items():
        if term in prose:
            stated = verdict in decided or (open_enough and verdict in open_readings)
            assert stated, f"{path.stem} says {term!r}, but no shipped table's verdict says so"


# -- the persona rates hold on a second seed set ------------------------------------------------


@cache
def second_seed_row(rules_name: str, k: int) -> dict:
    rules = {
        "published": en.RuleSet.standard(),
        "classroom": en.RuleSet.classroom(),
        "VP 5, 43 brown, rows of 2": insight.policy_rules(victory_points=5, row_spaces=2),
        "VP 10, 43 brown, rows of 2": insight.policy_rules(victory_points=10, row_spaces=2),
        "VP 5, 20 brown, rows of 2": insight.policy_rules(
            victory_points=5, brown_discs=20, row_spaces=2
        ),
    }[rules_name]
    return dilemma_row(rules, k, 200, ("fossil", "green"), seed=SECOND_SEED)


# (lesson, the words it prints or says, rules, k, the claim on the second seed set)
PERSONA_CLAIMS = [
    (
        "04",
        "8 % (6–11)",  # published: far below a fair share
        "published",
        1,
        lambda row: row["fossil_win_high"] < FAIR_SHARE,
    ),
    (
        "04",
        "34 % (29–39)",  # classroom: a lone FossilRush above a fair share
        "classroom",
        1,
        lambda row: row["fossil_win_low"] > FAIR_SHARE,
    ),
    (
        "04",
        "4 fossil: everyone loses in 0 % (0–1)",  # FossilRush scrambles in time
        "classroom",
        4,
        lambda row: row["everyone_loses_high"] < 0.05,
    ),
    (
        "05",
        "34 % (27–40)",  # raced to 5 VP, the published bag and bands, rows of 2
        "VP 5, 43 brown, rows of 2",
        1,
        lambda row: row["fossil_win_low"] > FAIR_SHARE,
    ),
    (
        "05",
        "2 % (1–6)",  # VP 10 with the published bag and rows of 2
        "VP 10, 43 brown, rows of 2",
        1,
        lambda row: row["fossil_win_high"] < FAIR_SHARE,
    ),
    (
        "05",
        "9 % (6–13)",  # a small bag, even raced to 5 VP
        "VP 5, 20 brown, rows of 2",
        1,
        lambda row: row["fossil_win_high"] < FAIR_SHARE,
    ),
]


@pytest.mark.parametrize(
    ("number", "quoted", "rules_name", "k", "holds"),
    PERSONA_CLAIMS,
    ids=[f"{c[0]}-{c[2]}-k{c[3]}" for c in PERSONA_CLAIMS],
)
def test_a_quoted_persona_rate_holds_on_a_second_seed_set(number, quoted, rules_name, k, holds):
    nb = lesson(number)
    assert quoted in " ".join(markdown_cells(nb)) + outputs_text(nb), "the lesson quotes it"
    row = second_seed_row(rules_name, k)
    assert row["games"] == 200 and row["seed"] == SECOND_SEED
    assert holds(row), f"{quoted} does not hold on seed set {SECOND_SEED}: {row}"


def test_the_quoted_map_rates_are_the_shipped_ones():
    race = readout.map_percentages("race")
    assert race.loc["VP 5, 43 brown, rows of 2", "lone fossil wins"] == "34 % (27–40)"
    assert race.loc["VP 10, 43 brown, rows of 2", "lone fossil wins"] == "2 % (1–6)"
    assert race.loc["VP 5, 20 brown, rows of 2", "lone fossil wins"] == "9 % (6–13)"
    # "no single knob moves the classroom game measurably": every interval overlaps the centre's
    policy = insight.dilemma_map()
    policy = policy[(policy["block"] == "policy") & (policy["centre"] == "classroom")]
    centre = policy[policy["change"] == "none (the centre)"].iloc[0]
    for _, row in policy.iterrows():
        assert row["lone_fossil_low"] <= centre["lone_fossil_high"]
        assert row["lone_fossil_high"] >= centre["lone_fossil_low"]
    published = insight.dilemma_map()
    published = published[(published["block"] == "policy") & (published["centre"] == "published")]
    assert set(published["verdict"]) == {"no temptation"}


# -- the featured games say what their output shows ----------------------------------------------


def play_featured(seed: int):
    game = en.new_game(players=4, seed=seed, names=["Ada", "Ben", "Chloé", "Dev"])
    bots = [en.bots.FossilRush(), en.bots.GreenInvestor(), en.bots.Balanced(), en.bots.FreeRider()]
    return game, en.play(game, bots)


def test_lesson_00s_game_ends_at_the_empty_bag_with_the_vp_leader_losing():
    game, outcome = play_featured(109)
    seats = {s["name"]: s for s in game.snapshot()["seats"]}
    leader = max(seats.values(), key=lambda s: s["vp"])
    assert outcome.kind == "empty_bag" and game.turn == 55
    assert leader["name"] == "Ada" and leader["vp"] == 9 and 0 not in outcome.winners
    assert (leader["renewable"], leader["fossil"]) == (6, 5)
    assert [game.names[s] for s in outcome.winners] == ["Ben"]
    assert (seats["Ben"]["vp"], seats["Ben"]["renewable"], seats["Ben"]["fossil"]) == (5, 5, 0)
    text = " ".join(markdown_cells(lesson("00")))
    assert "turn 55" in text and "Ada had the most points (9" in text and "(+5), so Ben won" in text


def test_lesson_03s_game_and_its_pollution_numbers():
    game, outcome = play_featured(345)
    assert outcome.kind == "victory_points" and outcome.winners == (3,) and game.turn == 53
    paid = insight.who_paid(game)
    caused = paid["pollution caused (%)"].to_dict()
    borne = paid["pollution harm borne (%)"].to_dict()
    text = " ".join(markdown_cells(lesson("03")))
    polluters = caused["Ada"] + caused["Dev"], borne["Ada"] + borne["Dev"]
    assert f"caused {polluters[0]} % of the pollution ({caused['Ada']} + {caused['Dev']})" in text
    assert f"bore {polluters[1]} % of its harm\n({borne['Ada']} + {borne['Dev']})" in text
    assert caused["Ben"] == 0 and f"still bore {borne['Ben']} %" in text
    assert f"Chloé caused {caused['Chloé']} % and bore {borne['Chloé']} %" in text
    assert "at turn 53" in text


# -- the teacher guide quotes the lessons' outputs ----------------------------------------------


def guide_answers() -> str:
    guide = (NOTEBOOKS / "TEACHER_GUIDE.md").read_text(encoding="utf-8")
    return guide.split("## Discussion questions (with expected answers)", 1)[1].split("\n## ", 1)[0]


def test_the_guides_expected_answers_quote_the_lessons_outputs():
    printed = "\n".join(outputs_text(lesson(n)) for n in ("00", "03", "04", "05", "07"))
    printed += "\n".join(" ".join(markdown_cells(lesson(n))) for n in ("03", "04", "05"))
    answers = guide_answers()
    quoted = re.findall(r"\d+ % \(\d+–\d+\)", answers)
    assert quoted, "the expected answers quote the lessons' rates with their intervals"
    missing = [q for q in quoted if q not in printed]
    assert not missing, f"the guide quotes rates no lesson prints: {missing}"
    shares = set(re.findall(r"\d+ %", answers))
    missing = sorted(share for share in shares if not re.search(rf"(?<!\d){share}", printed))
    assert not missing, f"the guide quotes shares no lesson prints or says: {missing}"


@pytest.mark.parametrize("seed_set", [1, 2])
def test_lesson_04s_persona_verdicts_hold_on_both_shipped_seed_sets(seed_set):
    # "in every row staying green pays" (published) and "switching to fossil pays for the
    # first two players who do it; for the third no gain is left that 400 games can see, and
    # the fourth loses by it", "the verdict names that pattern chicken" (classroom)
    published = insight.shipped_dilemma("published", seed_set=seed_set)
    assert published.kind == "no temptation"
    assert all(gain.sign < 0 for gain in published.details.gains)
    classroom = insight.shipped_dilemma("classroom", seed_set=seed_set)
    assert [gain.sign for gain in classroom.details.gains] == [1, 1, 0, -1]
    assert classroom.kind == "chicken"
    assert classroom.details.games >= 400


# -- the strong players' claims hold on both shipped seed sets -----------------------------------


@pytest.mark.parametrize("seed_set", [1, 2])
def test_lesson_04s_strong_player_claims_hold_on_both_shipped_seed_sets(seed_set):
    # "a lone fossil-only search player wins ... against a fair share of 25 %", "switching to
    # fossil pays for each of the first three players who do it", "four of them lose together
    # in ...", "a seat wins 18 % at the all-fossil table against 25 % at the all-green one",
    # "the verdict calls it a dilemma. Which kind is not settled at 200 games"
    strong = insight.shipped_dilemma("classroom", bots="search", seed_set=seed_set)
    assert strong.details.games >= 200
    table = strong.table.set_index("k")
    assert table.loc[1, "fossil_win_low"] > FAIR_SHARE
    assert table.loc[4, "everyone_loses_low"] > 0.10
    assert table.loc[4, "fossil_win_high"] < table.loc[0, "green_win_low"]
    assert [gain.sign for gain in strong.details.gains[:3]] == [1, 1, 1]
    assert strong.kind == "undecided" and strong.details.dilemma
    text = " ".join(markdown_cells(lesson("04")))
    shown = readout.dilemma_in_words(strong)
    lone = re.search(r"wins (\d+ % \(\d+–\d+\))", shown).group(1)
    everyone = re.search(r"everyone loses in (\d+ % \(\d+–\d+\))", shown).group(1)
    assert lone in text and everyone in text, "the lesson quotes this seed set's numbers"
