"""Hostile calls of the Python API a teacher or student makes directly (Game, play, charts):
a wrong argument gets a ValueError that says what is wanted, and changes nothing."""

from __future__ import annotations

import pytest

import energies as en

NOT_SEATS = [-1, 4, True, 1.0, "0", None]


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_scores_of_a_seat_that_is_not_at_the_table_are_refused(seat):
    # -1 used to answer for the last seat and 4 raised a bare IndexError
    game = en.new_game(seed=1)
    for ask in (game.victory_points, game.local_footprint, game.view):
        with pytest.raises(ValueError, match="seat must be a seat number from 0 to 3"):
            ask(seat)
    assert game.victory_points(3) == game.snapshot()["seats"][3]["vp"]


class _Answers:
    """A bot that always answers ``answer``, whatever it is offered."""

    name = "Answers"

    def __init__(self, answer):
        self.answer = answer

    def decide(self, view, legal, rng):
        return self.answer


@pytest.mark.parametrize(
    "bots, needle",
    [
        (None, "one bot per seat"),
        (5, "one bot per seat"),
        ("rrrr", "one bot per seat"),
        ([en.bots.RandomBot()] * 5, r"Seat\(s\) \[4\] are not at this table"),
        ({**dict.fromkeys(range(4), en.bots.RandomBot()), 9: en.bots.RandomBot()}, r"\[9\]"),
        ([en.bots.RandomBot(), "green", "random", "random"], r"make_bot\('green'\)"),
        ([None] * 4, "no decide"),
    ],
)
def test_play_refuses_a_line_up_that_is_not_one_bot_per_seat(bots, needle):
    game = en.new_game(seed=1)
    before = game.to_json()
    with pytest.raises(ValueError, match=needle):
        en.play(game, bots)
    assert game.to_json() == before


@pytest.mark.parametrize("max_actions", [0, -1, 2.5, "9", True])
def test_play_refuses_a_max_actions_that_is_not_a_count(max_actions):
    with pytest.raises(ValueError, match="max_actions"):
        en.play(en.new_game(seed=1), [en.bots.RandomBot()] * 4, max_actions=max_actions)


@pytest.mark.parametrize("answer", [None, "end_turn", en.actions.EndTurn(9)])
def test_an_illegal_answer_of_a_bot_names_the_bot_and_its_seat(answer):
    game = en.new_game(seed=1)
    before = game.to_json()
    with pytest.raises(en.IllegalActionError, match=r"The bot of seat 3 \(Answers\) chose"):
        en.play(game, [_Answers(answer)] * 4)
    assert game.to_json() == before


@pytest.fixture(scope="module")
def played():
    game = en.new_game(seed=2)
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    return game


@pytest.mark.parametrize("history", [None, 5, 2.5])
def test_history_charts_refuse_what_is_not_a_history(history):
    pytest.importorskip("matplotlib").use("Agg")
    for plot in (en.viz.plot_footprint, en.viz.plot_resources, en.viz.plot_plants):
        with pytest.raises(ValueError, match="must be a Game"):
            plot(history)


@pytest.mark.parametrize("column", ["nope", None])
def test_the_hand_chart_refuses_a_column_the_history_does_not_have(played, column):
    pytest.importorskip("matplotlib").use("Agg")
    with pytest.raises(ValueError, match="no column"):
        en.viz.plot_resources(played, column=column)
    assert en.viz.plot_resources(played, column="energy").get_lines()


@pytest.mark.parametrize("frame", [None, [], 5])
def test_the_outcome_chart_refuses_what_is_not_a_frame(frame):
    with pytest.raises(ValueError, match="DataFrame"):
        en.viz.plot_outcomes(frame)


def test_a_misspelt_field_in_rule_set_standard_is_a_rule_error_like_in_replace():
    # standard() raised TypeError "unexpected keyword argument"; replace() a RuleError
    for make in (en.RuleSet.standard, en.RuleSet.classroom, en.RuleSet().replace):
        with pytest.raises(en.RuleError, match="no rule field 'victory_point'"):
            make(victory_point=8)
    assert en.RuleSet.standard(3, victory_points=8) == en.RuleSet(players=3, victory_points=8)
