"""The lessons' scaffolding in the package: the shipped tables as percentages, and the two
what-if helpers of lesson 03 (a position just before a turn ends, a greener choice)."""

from __future__ import annotations

import math

import pytest

import energies as en
from energies import insight
from energies.insight import readout
from energies.newenergies.actions import EndTurn


def test_percent_shows_whole_percent_and_the_interval():
    assert readout.percent(0.3375, 0.2919, 0.3862) == "34 % (29–39)"
    assert readout.percent(0.25) == "25 %"
    assert readout.percent(math.nan, 0.1, 0.2) == "—"  # a table without fossil seats
    with pytest.raises(ValueError, match="both ends"):
        readout.percent(0.3, 0.2)


def test_the_dilemma_table_reads_the_shipped_rows():
    result = insight.shipped_dilemma("classroom")
    table = readout.dilemma_percentages(result)
    lone = result.table[result.table["k"] == 1].iloc[0]
    assert list(table.index) == ["0 of 4", "1 of 4", "2 of 4", "3 of 4", "4 of 4"]
    assert table.loc["1 of 4", "fossil seat wins"] == readout.percent(
        lone["fossil_win_rate"], lone["fossil_win_low"], lone["fossil_win_high"]
    )
    assert table.loc["0 of 4", "fossil seat wins"] == "—"
    assert table.loc["4 of 4", "green seat wins"] == "—"
    assert table.loc["1 of 4", "mean final GF"] == f"{lone['mean_final_gf']:.1f}"


def test_the_switch_table_follows_the_verdicts_signs():
    published = readout.switch_percentages(insight.shipped_dilemma("published"))
    assert published.index[0] == "0 fossil, 3 green"
    assert set(published["settled"]) == {"staying pays"}  # no temptation: every gain < 0
    classroom = insight.shipped_dilemma("classroom")
    signs = [g.sign for g in classroom.details.gains]
    words = {1: "switching pays", -1: "staying pays", 0: "not settled"}
    assert list(readout.switch_percentages(classroom)["settled"]) == [words[s] for s in signs]


def test_the_sentences_quote_the_verdict_and_the_intervals():
    result = insight.shipped_dilemma("published")
    text = readout.dilemma_in_words(result)
    assert text.splitlines()[0] == f"verdict: {result.verdict} (400 games per table)"
    lone = result.table[result.table["k"] == 1].iloc[0]
    quoted = readout.percent(
        lone["fossil_win_rate"], lone["fossil_win_low"], lone["fossil_win_high"]
    )
    assert f"a lone fossil among 3 green: wins {quoted}" in text
    with pytest.raises(ValueError, match="DilemmaResult"):
        readout.dilemma_in_words(result.table)


def test_the_map_reads_as_percentages():
    race = readout.map_percentages("race")
    assert "VP 5, 43 brown, rows of 2" in race.index  # the classroom race, published bands
    policy = readout.map_percentages("policy")
    assert "published: renewable plants 2 science" in policy.index
    assert set(policy["verdict"]) <= {"no temptation", "undecided at 200 games"}
    with pytest.raises(ValueError, match="block"):
        readout.map_percentages("prices")


def test_the_persona_summary_has_one_plan_per_persona():
    summary = readout.persona_summary()
    assert list(summary.index) == list(en.bots.PERSONAS)
    assert all(plan.endswith(".") and plan.count(". ") == 0 for plan in summary["its plan"])


def test_the_dilemma_chart_wears_the_persona_colours():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    ax = insight.shipped_dilemma("classroom", bots="search").plot()
    lines = {c.lines[0].get_gid(): c.lines[0] for c in ax.containers}
    assert (
        to_hex(lines["dilemma-fossil"].get_color()) == en.viz.persona_color("search-fossil").lower()
    )
    assert (
        to_hex(lines["dilemma-green"].get_color()) == en.viz.persona_color("search-green").lower()
    )
    plt.close(ax.figure)


@pytest.fixture(scope="module")
def seeded_game():
    game = en.new_game(players=4, seed=345, names=["Ada", "Ben", "Chloé", "Dev"])
    en.play(
        game,
        [en.bots.FossilRush(), en.bots.GreenInvestor(), en.bots.Balanced(), en.bots.FreeRider()],
    )
    return game


def test_before_end_of_stops_just_before_the_turn_ends(seeded_game):
    position = insight.before_end_of(seeded_game, 15)
    assert position.turn == 15 and position.state.outcome is None
    # the next action of the real game is that turn's End Turn
    assert isinstance(seeded_game.actions[len(position.actions)], EndTurn)
    history = seeded_game.history_frame()
    assert position.global_footprint == int(history[history["turn"] == 15]["gf"].iloc[0])
    with pytest.raises(ValueError, match="never ended"):
        insight.before_end_of(seeded_game, seeded_game.turn + 5)
    with pytest.raises(ValueError, match="whole number"):
        insight.before_end_of(seeded_game, "15")


def test_the_greener_alternative_is_green_or_ends_the_turn(seeded_game):
    actual, other = insight.greener_alternative(seeded_game, 2)
    assert actual.kind == "build_plant" and actual.plant == "fossil"
    assert other.kind in ("build_plant", "end_turn") and other != actual
    if other.kind == "build_plant":
        assert other.plant == "renewable" and other.hex == actual.hex
    branch, _ = insight.branch_point(seeded_game, 2)
    assert other in branch.legal_actions()


def test_rules_side_by_side_reads_each_rule_set():
    table = readout.rules_side_by_side(
        published=en.RuleSet.standard(), classroom=en.RuleSet.classroom()
    )
    assert list(table.columns) == ["published", "classroom"]
    assert table.loc["VP target (rule 14.1)"].tolist() == [10, 5]
    assert table.loc["spaces per event row (rule 6.3)"].tolist() == [3, 2]
    assert table.loc["brown discs in the bag (rule 1)", "published"] == 43
    with pytest.raises(ValueError, match="at least one"):
        readout.rules_side_by_side()
    with pytest.raises(ValueError, match="classroom must be a RuleSet"):
        readout.rules_side_by_side(classroom="short")
