"""Widgets driven headlessly: PlayApp, FootprintExplorer and RulesPanel (design §4).

No browser: the tests set ``.value`` and call ``.click()`` on the real ipywidgets
objects (``Button.click()`` fires the on_click handlers as a browser click does).
Rule numbers name what a readout or a decision stands for.
"""

from __future__ import annotations

import datetime
import html
import re
import subprocess
import sys

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

import energies as en
from energies import sandbox as sb
from energies.actions import BuildCity, RollDice
from energies.bots import make_bot
from energies.invariants import check_invariants
from energies.widgets import FootprintExplorer, PlayApp, RulesPanel

NAMES = ["Ada", "Bob", "Cy", "Di"]
PNG = b"\x89PNG\r\n\x1a\n"


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def human_button(app: PlayApp):
    """What a simple human clicks: the first decision button, else Roll, else End turn."""
    if app.decision_buttons:
        return app.decision_buttons[0]
    return app.roll_button or app.end_turn_button


def advance(app: PlayApp) -> None:
    """One click of a simple human, or "Bots play until my turn" when a bot is to move."""
    if app.game.current_seat in app.humans:
        human_button(app).click()
    else:
        app.bots_button.click()


def settle(app: PlayApp, limit: int = 50) -> None:
    """Answer what the roll left pending — a 7's decisions, the other seats' trade proposals
    (rule 12.1) and the answers to them — until the active human's turn is free."""
    for _ in range(limit):
        if app.game.pending is None:
            return
        advance(app)
    raise AssertionError("the decisions after the roll never ran out")


def until_human_roll(app: PlayApp, limit: int = 200) -> None:
    """Advance until a human seat is in its roll phase with nothing pending."""
    for _ in range(limit):
        g = app.game
        if g.current_seat in app.humans and app.roll_button is not None:
            return
        advance(app)
    raise AssertionError("no human roll phase reached")


def lf_vp(app: PlayApp, seat: int) -> tuple[int, int]:
    """LF and VP of a seat as the readout table shows them."""
    row = re.search(rf'<tr data-seat="{seat}".*?</tr>', app.vp_lf_html.value, re.DOTALL).group(0)
    vp = int(re.search(r'class="vp"[^>]*><b>(-?\d+)</b>', row).group(1))
    lf = int(re.search(r'class="lf"[^>]*>(-?\d+)<', row).group(1))
    return lf, vp


@pytest.fixture
def app():
    return PlayApp(en.new_game(seed=3, names=NAMES))


# -- playing ---------------------------------------------------------------------------------


def test_whole_game_by_clicking_buttons_one_human_three_bots():
    """Seat 0 plays by clicking the first decision / Roll / End turn button; the bots answer."""
    g = en.new_game(seed=3, names=NAMES)
    # the chart is tested on its own below; here it is left out to keep the test quick
    app = PlayApp(
        g,
        seats={0: "human", 1: "FossilRush", 2: "green", 3: "random"},
        chart=False,
        board_size=4,
        board_dpi=60,
    )
    human_clicks = 0
    for i in range(3000):
        if g.is_over:
            break
        if g.current_seat == 0:
            shown = [b.action for b in app.action_buttons]
            assert shown and all(g.why_illegal(a) is None for a in shown)
            assert app.bots_button.disabled and app.step_button.disabled
            assert app.prompt_text.startswith("Ada, your move: ")
            human_button(app).click()
            human_clicks += 1
        else:
            assert not app.action_buttons and not app.bots_button.disabled
            app.bots_button.click()
        assert app.status_kind != "error", app.status_text
        if i % 25 == 0:
            assert check_invariants(g.state) == []
    assert g.is_over and human_clicks > 20
    assert check_invariants(g.state) == []
    assert app.prompt_text.startswith(f"Game over after turn {g.turn}")
    assert app.bots_button.disabled and app.step_button.disabled and not app.action_buttons
    assert any(a.seat == 0 for a in g.actions) and any(a.seat == 3 for a in g.actions)


def test_buttons_are_labelled_with_describe_and_grouped_by_kind(app):
    g = app.game
    until_human_roll(app)
    seat = g.current_seat
    assert [b.action for b in app.turn_buttons] == [RollDice(seat)]
    assert app.roll_button.description == g.describe(RollDice(seat))
    app.roll_button.click()
    while g.pending and g.current_seat in app.humans:  # a 7: decide first
        assert app.decision_box.layout.display != "none" and app.decision_buttons
        human_button(app).click()
    settle(app)
    assert g.current_seat == seat and g.pending is None
    sb.give(g, seat, brick=3, lumber=3, fiber=2, food=3, steel=3, science=4)
    app.refresh()
    legal = g.legal_actions()
    assert app.decision_box.layout.display == "none"
    assert app.end_turn_button is not None
    in_dropdowns = [a for _d, do_it in app.action_dropdowns for a in do_it.choices]
    shown = [b.action for b in app.action_buttons] + in_dropdowns
    assert sorted(map(repr, shown)) == sorted(map(repr, legal))  # every option, once
    for group, box in app.group_boxes.items():
        inside = [w for w in box.children for w in getattr(w, "children", ())]
        buttons = [w for w in inside if hasattr(w, "action")]
        assert all(b.action.group == group for b in buttons)
        for b in buttons:
            if b.action.kind != "offer_trade":
                assert b.description == g.describe(b.action)
    titles = dict(zip(app.group_boxes, app.action_tabs.titles))
    count = sum(1 for a in legal if a.group == "build")
    assert count > 0 and titles["build"] == f"Build ({count})"
    # 100+ one-for-one offers: a Dropdown with a "Do it" button, not hundreds of buttons
    offers = [a for a in legal if a.kind == "offer_trade"]
    assert len(offers) > 16 and len(app.action_buttons) < len(legal)
    dropdown, do_it = next((d, b) for d, b in app.action_dropdowns if b.choices == offers)
    dropdown.value = 3
    do_it.click()
    assert g.actions[-1] == offers[3]
    assert app.prompt_text.startswith(f"{NAMES[offers[3].partner]} (")  # the partner answers


def test_pending_decision_is_shown_first_and_highlighted_on_the_board(app):
    """Rule 9.3: after a 7 the roller moves the Inspector; the hexes are the buttons."""
    g = app.game
    until_human_roll(app)
    board_before = app.board_image.value
    sb.fix_dice(g, 3, 4)
    app.refresh()
    app.roll_button.click()
    while g.current_seat not in app.humans or g.pending != "move the Inspector":
        advance(app)
    assert app.decision_box.layout.display != "none"
    assert "move the Inspector" in app.decision_title.value
    assert {b.action.kind for b in app.decision_buttons} == {"move_inspector"}
    assert not app.turn_buttons and app.end_turn_button is None
    assert app.board_image.value != board_before  # the candidate hexes are highlighted
    assert app.prompt_text == f"{NAMES[g.current_seat]}, your move: move the Inspector"


def test_footprint_chart_redrawn_only_when_the_turn_changes(app):
    """Rule 4.2: GF is charted per turn; a click inside a turn does not redraw the chart."""
    g = app.game
    until_human_roll(app)
    chart, redraws = app.chart_image.value, app.chart_redraws
    assert bytes(chart).startswith(PNG)
    app.roll_button.click()
    assert app.chart_redraws == redraws and app.chart_image.value == chart
    turn = g.turn
    while g.turn == turn or g.current_seat not in app.humans:
        advance(app)
    assert app.chart_redraws > redraws and app.chart_image.value != chart


def test_rule_4_1_build_updates_the_vp_and_lf_readout(app):
    """A town adds 1 VP and 1 LF (rules 4.1, 13.8); the readout table follows at once."""
    g = app.game
    until_human_roll(app)
    seat = g.current_seat
    sb.fix_dice(g, 2, 1)  # no 7: straight to the action phase
    app.refresh()
    app.roll_button.click()
    settle(app)
    assert g.pending is None
    sb.give(g, seat, brick=3, lumber=3, fiber=1, food=1)
    app.refresh()
    for _ in range(3):  # roads out until a town spot is reached
        if app.buttons("build_town"):
            break
        app.buttons("build_road")[0].click()
    lf, vp = lf_vp(app, seat)
    assert (lf, vp) == (g.local_footprint(seat), g.victory_points(seat))
    town = app.buttons("build_town")[0]
    town.click()
    assert g.actions[-1] == town.action
    assert lf_vp(app, seat) == (lf + 1, vp + 1)
    assert f'<b class="gf">{g.global_footprint}</b>' in app.vp_lf_html.value


def test_illegal_action_shows_the_reason_and_changes_nothing(app):
    g = app.game
    until_human_roll(app)
    stale = app.roll_button
    stale.click()  # rolled: this button is now stale
    before = g.to_json()
    reason = g.why_illegal(stale.action)
    assert reason
    stale.click()
    assert app.status_kind == "error" and esc(reason) in app.status.value
    assert "Traceback" not in app.status.value and g.to_json() == before
    seat = g.current_seat
    not_mine = next(c for c in range(len(g.board.corner_positions)) if g.state.owner_of(c) != seat)
    bad = BuildCity(seat, not_mine)
    reason = g.why_illegal(bad)
    assert app.try_action(bad) is False
    assert esc(reason) in app.status.value and g.to_json() == before
    assert app.click(999) is False and "no action number 999" in app.status_text
    assert app.click("roll") is False and g.to_json() == before


def test_a_human_cannot_move_for_a_bot_seat():
    g = en.new_game(seed=3, names=NAMES)  # seat 1 (FossilRush) starts
    app = PlayApp(g)
    assert g.current_seat == 1
    before = g.to_json()
    assert app.try_action(RollDice(1)) is False
    assert "Bob is played by a bot (FossilRush)" in app.status_text
    assert g.to_json() == before and app.action_buttons == []


class Reentrant:
    """A bot that hammers every button while it is deciding (as rapid clicks would)."""

    def __init__(self, inner):
        self.inner, self.app, self.stale, self.calls = inner, None, None, 0

    def decide(self, game, legal, rng):
        self.calls += 1
        app = self.app
        for button in (app.bots_button, app.step_button, app.undo_button, app.save_button):
            button.click()
        if self.stale is not None:
            self.stale.click()
        app.click(0)
        return self.inner.decide(game, legal, rng)


def test_rapid_repeated_clicks_while_busy_do_not_corrupt_the_game(tmp_path):
    """Clicks arriving while the bots play are ignored: same game as without them."""
    seats = {0: "human", 1: "fossil", 2: "green", 3: "random"}
    hammer = Reentrant(make_bot("fossil"))
    apps = [
        PlayApp(en.new_game(seed=11, names=NAMES), seats=seats, chart=False),
        PlayApp(en.new_game(seed=11, names=NAMES), seats={**seats, 1: hammer}, chart=False),
    ]
    hammer.app = apps[1]
    apps[1].filename.value = str(tmp_path / "never.json")
    for app in apps:
        while app.game.turn < 9 and not app.game.is_over:
            if app.game.current_seat in app.humans:
                button = human_button(app)
                button.click()
                button.click()  # a double click: the second one is stale or legal again
                hammer.stale = button
            else:
                for _ in range(3):
                    app.bots_button.click()
            assert check_invariants(app.game.state) == []
    assert hammer.calls > 10 and apps[1].ignored_clicks >= 6 * hammer.calls
    assert apps[0].game.to_json() == apps[1].game.to_json()
    assert not (tmp_path / "never.json").exists()
    app = apps[1]
    until_human_roll(app)
    before = app.game.to_json()
    app._busy = "testing"
    app.roll_button.click()
    app.bots_button.click()
    assert app.game.to_json() == before and "Busy" in app.status_text
    app._busy = None
    app.roll_button.click()
    assert app.game.to_json() != before


def test_step_is_one_bot_decision(app):
    g = app.game
    assert g.current_seat not in app.humans
    n = len(g.actions)
    assert app.step() is True and len(g.actions) == n + 1
    assert app.status_text == f"Step: {g.describe(g.actions[-1])}."
    app.play_bots()
    assert g.current_seat in app.humans
    n = len(g.actions)
    app.step_button.click()
    assert len(g.actions) == n and "No bot to step: Ada must decide" in app.status_text


def test_undo_returns_to_the_humans_previous_decision():
    app = PlayApp(en.new_game(seed=3, names=NAMES), chart=False)
    g = app.game
    assert app.undo() == 0 and "Nothing to undo" in app.status_text
    positions = []
    while len(positions) < 6:
        if g.current_seat in app.humans:
            positions.append(g.to_json())
        advance(app)
    for before in reversed(positions):
        app.undo_button.click()
        assert g.to_json() == before  # bot moves after it are undone too
        assert g.current_seat in app.humans and app.prompt_text.startswith("Ada, your move")
        assert app.action_buttons and check_invariants(g.state) == []
    assert app.undo_button.disabled and app.undo() == 0


def test_save_then_load_round_trips_and_a_corrupt_file_is_explained(app, tmp_path):
    g = app.game
    for _ in range(6):
        advance(app)
    path = tmp_path / "game.json"
    app.filename.value = str(path)
    app.save_button.click()
    saved = path.read_text()
    assert saved == g.to_json() and "Saved" in app.status_text
    for _ in range(4):
        advance(app)
    assert app.game.to_json() != saved
    app.load_button.click()
    assert app.game.to_json() == saved and app.status_kind == "ok"
    assert app.prompt_text.startswith(f"{NAMES[app.game.current_seat]}")

    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(saved[:-40])
    with pytest.raises(en.SaveFileError) as info:
        en.load_file(corrupt)
    app.filename.value = str(corrupt)
    app.load_button.click()
    assert app.status_kind == "error" and esc(str(info.value)) in app.status.value
    assert app.game.to_json() == saved
    assert app.load(tmp_path / "missing.json") is False and "Cannot read" in app.status_text

    app.upload.value = (
        {
            "name": "bad.json",
            "type": "application/json",
            "size": 4,
            "content": memoryview(b"{bad"),
            "last_modified": datetime.datetime(2024, 1, 1),
        },
    )
    assert "not valid JSON" in app.status_text and app.game.to_json() == saved
    assert app.load_text(saved) is True and app.game.to_json() == saved


def test_rule_9_1_hot_seat_shows_whose_turn_by_name():
    """Two human seats: after a 7 each must discard half (rule 9.1), named in the prompt."""
    g = en.new_game(seed=3, names=NAMES)
    app = PlayApp(g, seats={0: "human", 1: "human", 2: "green", 3: "random"})
    until_human_roll(app)
    sb.give(g, 0, lumber=8)
    sb.give(g, 1, brick=8)
    sb.fix_dice(g, 3, 4)
    app.refresh()
    roller = g.current_seat
    assert app.prompt_text.startswith(f"{NAMES[roller]}, your move: roll the dice")
    app.roll_button.click()
    seen = []
    while g.pending == "discard cards":
        seat = g.current_seat
        if seat in app.humans:
            assert app.prompt_text == f"{NAMES[seat]}, your move: discard cards"
            assert f"{NAMES[seat]}, decide now: discard cards" in app.decision_title.value
            assert f"Hand of {NAMES[seat]}" in app.hand_html.value
            if seat not in seen:
                seen.append(seat)
            app.decision_buttons[0].click()
        else:
            app.step_button.click()
    assert sorted(seen) == [0, 1]


def test_bots_answer_at_once_and_step_delay():
    app = PlayApp(en.new_game(seed=3, names=NAMES), chart=False)
    g = app.game
    until_human_roll(app)
    app.auto_bots.value = True
    app.roll_button.click()
    while g.pending and g.current_seat in app.humans:
        human_button(app).click()
    turn = g.turn
    app.end_turn_button.click()
    # the bots answered without a click: the next human decision (or the end) is reached
    assert g.turn > turn and (g.is_over or g.current_seat in app.humans)
    assert "The bots made" in app.status_text

    slow = PlayApp(en.new_game(seed=3, names=NAMES), step_delay=0.001, chart=False)
    fast = PlayApp(en.new_game(seed=3, names=NAMES), chart=False)
    calls = []
    original = slow._refresh
    slow._refresh = lambda: calls.append(1) or original()
    moves = slow.play_bots()
    assert moves > 1 and len(calls) >= moves  # redrawn after every bot move
    fast.play_bots()
    assert slow.game.to_json() == fast.game.to_json()


def test_import_energies_does_not_import_the_widgets():
    code = (
        "import sys, energies; "
        "print('energies.widgets' in sys.modules, 'ipywidgets' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# -- FootprintExplorer -----------------------------------------------------------------------


@pytest.fixture(scope="module", params=["quick", "draft"])
def finished(request):
    g = en.new_game(seed=7, names=NAMES, start=request.param)
    en.play(g, [make_bot(b) for b in ("fossil", "green", "balanced", "random")])
    return g


def test_explorer_slider_shows_the_board_at_each_turns_end(finished):
    """The kept positions match the turn records (rule 4.1 LF, pieces) of game.history."""
    ex = FootprintExplorer(finished)
    assert ex.slider.min == 0 and ex.slider.max == finished.turn
    assert ex.state_at(finished.turn).digest() == finished.digest()
    for record in finished.history:
        state = ex.state_at(record["turn"]).state
        p = state.players[record["seat"]]
        got = (len(p.towns), len(p.cities), p.count_plants("fossil"), state.local_footprint(p.seat))
        want = (record["towns"], record["cities"], record["fossil"], record["lf"])
        assert got == want, record["turn"]
    last_board, last_chart = ex.board_image.value, ex.chart_image.value
    ex.slider.value = 3
    assert ex.turn == 3 and "<b>Turn 3</b>" in ex.info_html.value
    assert ex.board_image.value != last_board and ex.chart_image.value != last_chart
    early = ex.board_image.value
    ex.show(finished.turn)
    assert ex.board_image.value == last_board and ex.board_image.value != early


def test_explorer_follows_a_game_in_progress():
    g = en.new_game(seed=5)
    bots = [make_bot("random") for _ in range(4)]
    import random

    rng = random.Random(0)
    while g.turn < 4:
        g.apply(bots[g.current_seat].decide(g, g.legal_actions(), rng))
    ex = FootprintExplorer(g)
    assert ex.slider.max == g.turn == 4
    while g.turn < 7:
        g.apply(bots[g.current_seat].decide(g, g.legal_actions(), rng))
    ex.update()
    assert ex.slider.max == ex.slider.value == 7 and ex.state_at(7).digest() == g.digest()


# -- RulesPanel ------------------------------------------------------------------------------


def test_rules_panel_runs_a_small_simulation_with_the_changed_rules():
    """Rule 10 (renewable cost), 6.3 (event spaces) and 4.3 (disc bands) from the sliders."""
    panel = RulesPanel(games=4)
    panel.renewable_cost.value = 2
    panel.event_spaces.value = 2
    panel.band_shift.value = 1
    panel.middle_discs.value = 2
    assert "GF 0–6: 2 discs · GF 7–19: 2 discs" in panel.rules_html.value
    panel.run_button.click()
    assert panel.status_kind == "ok" and "Done: 4 games" in panel.status_text
    rules = panel.last_rules
    assert rules.renewable_cost == (("science", 2),)
    assert set(dict(rules.event_spaces).values()) == {2}
    assert rules.disc_bands_4p == ((0, 6, 2), (7, 19, 2), (20, 24, 2), (25, 28, 3))
    frame = panel.last_frame
    assert len(frame) == 4 and bytes(panel.chart_image.value).startswith(PNG)
    assert panel.runs[0]["everyone_loses"] == (frame["outcome"] == "everyone_loses").mean()
    first = panel.chart_image.value
    panel.renewable_cost.value = 5
    panel.run()
    assert len(panel.runs) == 2 and panel.chart_image.value != first


def test_playapp_shows_the_risk_meter_and_updates_it_every_turn():
    """Issue 'insight': the PlayApp shows the event-risk bars, redrawn when a turn passes."""
    game = en.new_game(players=4, seed=5)
    app = PlayApp(game, seats={0: "random", 1: "random", 2: "random", 3: "random"})
    first = bytes(app.risk_image.value)
    assert first.startswith(b"\x89PNG")
    turn = game.turn
    while game.turn == turn and not game.is_over:
        app.step()
    app.refresh()
    assert bytes(app.risk_image.value).startswith(b"\x89PNG")
    assert bytes(app.risk_image.value) != first
