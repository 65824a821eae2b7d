"""Widgets driven headlessly: PlayApp, FootprintExplorer and RulesPanel (design §4).

No browser: a PlayApp test sends the page's own messages (``app.message({...})``), clicks
board spots (``app.click_spot("c12")``) and reads what the page would draw (``app.page``);
FootprintExplorer and RulesPanel tests set ``.value`` and ``.click()`` real ipywidgets.
The browser itself is tested in tests/browser. Rule numbers name what a readout stands for.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")
pytest.importorskip("matplotlib")

from energies.actions import (
    BuildRoad,
    EndTurn,
    OfferTrade,
    ProposeTrade,
    RollDice,
    SandboxEdit,
    action_from_dict,
    action_to_dict,
    goods_text,
)

import energies as en
from energies import sandbox as sb
from energies.bots import make_bot
from energies.newenergies.engine.checks import supply_rates
from energies.newenergies.invariants import check_invariants
from energies.widgets import FootprintExplorer, PlayApp, RulesPanel
from energies.widgets.common import _footprint_figure, _risk_figure, risk_png

NAMES = ["Ada", "Bob", "Cy", "Di"]
PNG = b"\x89PNG"
ROOT = Path(__file__).resolve().parents[1]


def act(app: PlayApp, option: dict, stale: bool = False) -> bool:
    """Send a click on a control as the page does (with the number of the decision it was
    made on; ``stale``: made on the decision before)."""
    made_on = app.page["decision_no"] - 1 if stale else app.page["decision_no"]
    return app.message({"type": "act", "action": option["a"], "decision_no": made_on})


def every_option(page: dict) -> list[dict]:
    """Every enabled option the page shows: board spots, turn, decision and tab controls."""
    out = [o for s in page["spots"].values() for o in s.get("options", ())]
    out += [o for o in page.get("turn", []) if o["a"]]
    out += page["decision"]["options"] if page.get("decision") else []
    out += [o for r in page.get("supply", []) for o in r.get("options", [])]
    out += page.get("offers", {}).get("options", [])
    out += [o for key in ("energy", "cards") for o in page.get(key, []) if o["a"]]
    out += [page["ask"]] if page.get("ask") and page["ask"]["a"] else []  # rule 12.1
    return out


def decision_move(page: dict) -> dict:
    """A simple human's answer to a decision: the first option, but asked to propose a trade
    to the active player (rule 12.1) it passes."""
    options = page["decision"]["options"]
    if any(o["kind"] == "propose_trade" for o in options):
        return next(o for o in options if o["kind"] == "decline")
    return options[0]


def take_screen(app: PlayApp) -> dict:
    """Hot-seat: the player the pass screen names takes the laptop ("I am Ben"); the page."""
    if app.pass_to is not None:
        assert app.message({"type": "reveal"}) and app.pass_to is None
    return app.page


def next_move(app: PlayApp) -> dict:
    """A human's option that moves the game on: a decision, the roll, else the end of turn."""
    page = take_screen(app)
    if page["decision"]:
        return decision_move(page)
    return next(o for o in page["turn"] if o["a"])


def until_human_main_phase(app: PlayApp, limit: int = 300) -> None:
    """Play until a human seat has rolled and decides freely (no pending decision)."""
    g = app.game
    for _ in range(limit):
        if g.current_seat in app.humans and not g.pending and g.state.phase != "roll":
            return
        if g.current_seat in app.humans:
            act(app, next_move(app))
        else:
            app.message({"type": "bots"})
    raise AssertionError("no human main phase reached")


def until_human_roll(app: PlayApp, limit: int = 300) -> None:
    """Play until a human seat must roll (nothing pending)."""
    g = app.game
    for _ in range(limit):
        if g.current_seat in app.humans and not g.pending and g.state.phase == "roll":
            return
        if g.current_seat in app.humans:
            page = app.page
            if page["decision"]:
                act(app, decision_move(page))
            else:
                act(app, next(o for o in reversed(page["turn"]) if o["a"]))  # end the turn
        else:
            app.message({"type": "bots"})
    raise AssertionError("no human roll phase reached")


@pytest.fixture
def app(tmp_path):
    return PlayApp(en.new_game(seed=3, names=NAMES), chart=False, save_dir=tmp_path)


def human_and_three_bots(tmp_path, seed: int = 3, names=NAMES) -> tuple[en.Game, PlayApp]:
    """Seat 0 a human at the page; FossilRush, GreenInvestor and RandomBot in seats 1-3."""
    g = en.new_game(seed=seed, names=names)
    seats = {0: "human", 1: "FossilRush", 2: "green", 3: "random"}
    return g, PlayApp(g, seats=seats, chart=False, save_dir=tmp_path)


# -- playing ---------------------------------------------------------------------------------


def test_whole_game_by_clicking_one_human_three_bots(tmp_path):
    """Seat 0 plays through the page's messages (decision / roll / end turn); bots answer."""
    g, app = human_and_three_bots(tmp_path)
    clicks = offers = 0
    for i in range(3000):
        if g.is_over:
            break
        page = app.page
        if g.current_seat == 0:
            shown = every_option(page)
            assert shown and all(g.why_illegal(action_from_dict(o["a"])) is None for o in shown)
            assert not page["controls"]["bots"] and page["prompt"].startswith("Ada, your move: ")
            if page["decision"] and any(
                o["kind"] == "respond_to_trade" for o in page["decision"]["options"]
            ):  # an offer to Ada: the decision says what is offered
                assert re.search(
                    r"\((Bob|Cy|Di) (offers Ada|proposes) 1 \w+ for 1 \w+",
                    page["decision"]["title"],
                )
                offers += 1
            assert act(app, next_move(app))
            clicks += 1
            if not g.is_over and g.current_seat != 0:  # bots answered at once: a bot's own
                assert g.active_seat != 0 and not g.pending  # turn waits for "Bots play"
        else:
            assert not page["spots"] and page["controls"]["bots"]
            app.message({"type": "bots"})
        assert app.status_kind != "error", app.status_text
        if i % 25 == 0:
            assert check_invariants(g.state) == []
    assert g.is_over and clicks > 20 and check_invariants(g.state) == []
    assert offers > 0
    page = app.page
    assert page["prompt"].startswith(f"Game over after turn {g.turn}")
    assert not page["controls"]["bots"] and page["over_panel"]["outcome"]
    assert {r["name"] for r in page["over_panel"]["burden"]} == set(NAMES)  # who polluted/paid
    shares = en.insight.burden(g).set_index("seat")
    for seat, row in enumerate(page["over_panel"]["burden"]):  # pollution, not Catan luck
        for key, column in (("caused", "pollution_caused_share"), ("paid", "pollution_harm_share")):
            share = shares.loc[seat, column]
            assert row[key] == (0 if math.isnan(share) else round(100 * share))


def test_every_legal_action_is_shown_once_on_the_board_or_beside_it(app):
    g = app.game
    until_human_main_phase(app)
    sb.give(g, g.current_seat, brick=3, lumber=3, fiber=2, food=3, steel=3, science=4)
    app.refresh()
    shown = sorted(json.dumps(o["a"], sort_keys=True) for o in every_option(app.page))
    legal = sorted(json.dumps(action_to_dict(a), sort_keys=True) for a in g.legal_actions())
    assert shown == legal


def test_a_human_turn_by_clicking_the_board_road_town_plant(app):
    """A road on a glowing path, a town on a glowing corner, a plant through the chooser."""
    g = app.game
    until_human_main_phase(app)
    seat = g.current_seat
    sb.give(g, seat, brick=5, lumber=5, fiber=3, food=3, science=6)
    app.refresh()
    p = g.state.players[seat]
    # a road that opens a town spot: click paths until a corner glows for a town
    for _ in range(4):
        if any(
            o["kind"] == "build_town"
            for s in app.page["spots"].values()
            for o in s.get("options", [])
        ):
            break
        path = next(k for k, s in app.page["spots"].items() if k[0] == "p" and s.get("legal"))
        roads = len(p.roads)
        assert app.click_spot(path) and len(p.roads) == roads + 1
        assert int(path[1:]) in p.roads and path in app.page["changed"]
    corner = next(
        k
        for k, s in app.page["spots"].items()
        if s.get("legal") and s["options"][0]["kind"] == "build_town"
    )
    assert app.click_spot(corner) and int(corner[1:]) in p.towns
    hexes = [k for k, s in app.page["spots"].items() if k[0] == "h" and s.get("legal")]
    spot = app.page["spots"][hexes[0]]
    kinds = {o["a"]["plant"] for o in spot["options"]}  # per building next to the hex
    assert kinds == {"fossil", "renewable"} and "Click to choose" in spot["tip"]
    pick = next(i for i, o in enumerate(spot["options"]) if o["a"]["plant"] == "renewable")
    assert app.click_spot(hexes[0], pick)
    assert "renewable" in p.plants.values() and app.status_kind == "ok"
    assert "You are short" not in app.status_text


def test_spot_hover_says_the_engines_reason_and_illegal_clicks_change_nothing(app):
    g = app.game
    until_human_main_phase(app)
    seat = g.current_seat
    spots = app.page["spots"]
    assert set(spots) >= {f"c{c}" for c in range(54)} | {f"p{p}" for p in range(72)}
    free = next(
        c
        for c in range(54)
        if not spots[f"c{c}"].get("legal")
        and all(c not in q.towns | q.cities for q in g.state.players)
    )
    reason = g.why_illegal(en.actions.BuildTown(seat, free))
    assert reason and spots[f"c{free}"]["tip"] == app.words.speak(reason, addressee=seat)
    before = g.digest()
    assert not app.click_spot(f"c{free}")
    assert g.digest() == before and app.status_kind == "error"


def test_every_spots_tip_is_the_engines_reason_for_that_spot_in_many_positions():
    """The board's tips are worked out once when the moment forbids a kind of building on
    every spot (not your move, "First discard cards.", the game is over) and spoken through
    a kept wording: each tip is still the engine's why_illegal of that very spot, spoken."""
    from test_view import positions

    from energies.widgets.play.controls import Options
    from energies.widgets.play.words import Wording

    checked = set()
    for game in positions(seeds=range(2), players=(4,), every=13):
        words = Wording(game)
        for seat in range(4):
            legal = game.legal_actions() if game.current_seat == seat else []
            fresh = Options(game, seat, legal, Wording(game))
            fresh._spot_why = fresh.why  # every spot asked of the engine, every text spoken anew
            fresh.words.speak = fresh.words._speak
            assert Options(game, seat, legal, words).spots() == fresh.spots(), (game.turn, seat)
            task = game.state.queue[0].kind if game.state.queue else "free"
            checked.add("deciding " + task if game.current_seat == seat else "waiting")
    assert {"waiting", "deciding free", "deciding discard", "deciding propose_trade"} <= checked


def test_disabled_controls_say_why_and_show_their_price(app):
    g = app.game
    until_human_roll(app)
    page, seat = app.page, g.current_seat
    end = next(o for o in page["turn"] if o["kind"] == "end_turn")
    assert end["a"] is None and end["why"] == app.words.speak(g.why_illegal(EndTurn(seat)), seat)
    rows = {r["title"]: r for r in page["build"]}
    assert rows["Town"]["price"] == "1 brick + 1 lumber + 1 fiber + 1 food"
    # nothing can be built before the roll: said once, above the prices
    assert page["build_note"] == app.words.speak(g.why_illegal(BuildRoad(seat, 0)), seat)
    assert "roll" in page["build_note"].lower() and not any(r["why"] for r in rows.values())
    rates = supply_rates(g.state, seat)
    assert {r["give"]: r["rate"] for r in page["supply"]} == {k: f"{v}:1" for k, v in rates.items()}
    assert {r["rate"] for r in page["supply"]} >= {"4:1"}


def test_an_offer_to_a_bot_is_answered_at_once_next_to_the_offer(app):
    g = app.game
    until_human_main_phase(app)
    sb.give(g, g.current_seat, brick=2, lumber=2)
    app.refresh()
    offer = app.page["offers"]["options"][0]
    assert act(app, offer)
    last = g.actions[-1]
    assert last.kind == "respond_to_trade" and g.current_seat in app.humans
    verb = "accepted" if last.accept else "declined"
    assert app.page["offer_answer"].startswith(f"{offer['partner']} {verb} your offer")
    assert isinstance(action_from_dict(offer["a"]), OfferTrade)


def test_a_click_made_on_an_earlier_decision_is_explained_never_applied(app):
    """Every click carries the number of the decision it was made on (``decision_no``): a
    click made on an earlier decision is never applied to the new one (a queued click that
    was still legal used to be applied, so a quick second click acted on a decision the
    player had not seen); the status line says why, and the same click made on the redrawn
    page works."""
    g = app.game
    until_human_main_phase(app)
    sb.give(g, g.current_seat, brick=8)
    app.refresh()
    trades = next(r for r in app.page["supply"] if r["give"] == "brick")["options"]
    first, second = trades[0], trades[1]
    seen = app.page["decision_no"]
    assert act(app, first) and app.page["decision_no"] == seen + 1
    n = len(g.actions)
    # still legal, but made on the decision before the trade: not applied, explained
    assert not act(app, second, stale=True)
    assert len(g.actions) == n and app.status_kind == "warn"
    label = app.words.speak(g.describe(action_from_dict(second["a"])))
    assert app.status_text == (
        f"Your earlier click “{label}” came after the board changed: nothing was done. "
        "Click again if you still want it."
    )
    # a redraw that changes nothing keeps the decision: a click made before it still counts
    app.show_charts(True)
    assert app.page["decision_no"] == seen + 1
    assert act(app, second) and len(g.actions) == n + 1
    # illegal now: the engine's reason
    end = next(o for o in app.page["turn"] if o["kind"] == "end_turn")
    assert act(app, end)
    n = len(g.actions)
    assert g.current_seat not in app.humans  # a bot's turn: no trade is legal
    assert not act(app, second, stale=True)
    assert len(g.actions) == n and app.status_kind == "warn"
    assert "came after the board changed: " in app.status_text
    assert "nothing was done" not in app.status_text, app.status_text


def test_a_discard_on_a_7_says_how_many_cards_are_left(tmp_path):
    """Rule 7 discard: the orange box counts down the cards still to give (one per click);
    "discard cards" alone left a student clicking without knowing when it ends."""
    g = en.new_game(players=4, seed=47, names=NAMES)  # seed 47: seat 0 rolls a 7 at once
    sb.give(g, 0, brick=4, lumber=4)
    g.apply(RollDice(0))
    app = PlayApp(
        g, seats={0: "human", 1: "FossilRush", 2: "green", 3: "random"}, save_dir=tmp_path
    )
    assert app.page["decision"]["title"] == (
        "Ada, decide now: discard cards (6 more, one card per click)"
    )
    for left in range(5, 0, -1):
        assert act(app, app.page["decision"]["options"][0])
        if left > 1:
            assert app.page["decision"]["title"].endswith(f"({left} more, one card per click)")
    assert app.page["decision"]["title"].endswith("discard cards (1 more)")
    assert act(app, app.page["decision"]["options"][0])
    assert not (app.page["decision"] or {}).get("title", "").startswith("Ada, decide now: discard")


def test_a_human_cannot_move_for_a_bot_seat(app):
    g = app.game
    if g.current_seat in app.humans:
        until_human_main_phase(app)
        act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    bot = g.current_seat
    assert bot not in app.humans
    assert not app.click(RollDice(bot)) and "played by a bot" in app.status_text


def test_wording_you_and_place_names_are_the_boards(tmp_path):
    g, app = human_and_three_bots(tmp_path, seed=2034, names=["You", "Fred", "Grace", "Bo"])
    assert app.page["turn_line"].startswith(f"Turn {g.turn} · ")
    until_human_main_phase(app)
    assert "Your turn" in app.page["turn_line"] and "You's" not in app.page["turn_line"]
    assert "You roll the dice" in app.page["strip"]["lines"]
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    app.message({"type": "bots"})
    texts = app.page["log"] + [o["label"] for o in every_option(app.page)]
    texts += [s["tip"] for s in app.page["spots"].values()]
    assert not [t for t in texts if re.search(r"\b(corner|path|hex|seat) \d+\b", t)]
    assert not [t for t in texts if re.search(r"\bYou (rolls|builds|ends|has)\b", t)]
    hex_names = {app.words.hex(h.id) for h in g.board.hexes}
    road = next(line for line in app.page["log"] if "road on path" in line)
    assert any(name in road for name in hex_names)  # "Mountains 10 | Fields 12"


def test_what_just_happened_strip_after_the_bots(app):
    g = app.game
    until_human_main_phase(app)
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    assert app.message({"type": "bots"})
    strip = app.page["strip"]
    assert strip["lines"][0] == "Ada ends the turn" or strip["more"]
    assert any(
        re.match(r"(Bob|Cy|Di) rolled \d+", line) for line in strip["lines"] + app.page["log"]
    )
    assert app.page["prompt"].startswith("Ada, your move")
    assert g.current_seat == 0


def test_bots_until_my_turn_shows_progress_between_turns(app):
    g = app.game
    until_human_main_phase(app)
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    progress = []
    app.view.observe(lambda change: progress.append(change["new"]["progress"]), names="view")
    app.message({"type": "bots"})
    while g.pending and g.current_seat in app.humans:  # asked to propose a trade (rule 12.1)
        act(app, decision_move(app.page))
        app.message({"type": "bots"})
    shown = [p for p in progress if p]
    assert len(shown) >= 2 and all(p.startswith("Bots playing… turn ") for p in shown)
    assert progress[-1] == "" and g.current_seat == 0


def test_step_and_undo(app):
    g = app.game
    until_human_main_phase(app)
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    n = len(g.actions)
    assert app.message({"type": "step"}) and len(g.actions) == n + 1
    undone = app.undo()
    assert undone == 2 and g.current_seat == 0 and len(g.actions) == n - 1


def test_undo_speaks_to_a_seat_named_you(tmp_path):
    """Lesson 02 names the student's seat "You": undo said "back to You's decision"."""
    g = en.new_game(seed=3, names=["You", "Bob", "Cy", "Di"])
    app = PlayApp(g, chart=False, save_dir=tmp_path)
    until_human_roll(app)
    act(app, next(o for o in app.page["turn"] if o["kind"] == "roll_dice"))
    assert app.undo()
    assert "back to your decision (roll the dice" in app.status_text, app.status_text
    named = PlayApp(en.new_game(seed=3, names=NAMES), chart=False, save_dir=tmp_path)
    until_human_roll(named)
    act(named, next(o for o in named.page["turn"] if o["kind"] == "roll_dice"))
    assert named.undo() and "back to Ada's decision" in named.status_text


def test_a_bots_proposal_says_who_gives_what_to_the_student(tmp_path):
    """Rule 12.1: a bot's proposal to "You" (the active player) reads "Balanced Bo offers you
    1 steel for 1 science", as the log says "You offer Fossil Fred ..."; it said "Balanced Bo
    proposes 1 steel for 1 science to the active player"."""
    rules = en.RuleSet.classroom()
    names = ["You", "Fossil Fred", "Green Grace", "Balanced Bo"]
    g = en.new_game(players=4, seed=2034, rules=rules, names=names)  # as in lesson 02
    seats = {0: "human", 1: "FossilRush", 2: "GreenInvestor", 3: "Balanced"}
    app = PlayApp(g, seats=seats, chart=False, save_dir=tmp_path)
    for _ in range(400):
        page = app.page
        options = page["decision"]["options"] if page["decision"] else []
        if any(o["kind"] == "respond_to_trade" for o in options):
            break
        if g.current_seat in app.humans:
            act(app, next_move(app))
        else:
            app.message({"type": "bots"})
    offer = next(a for a in reversed(g.actions) if a.kind == "propose_trade")
    assert g.state.active == 0 and offer.seat != 0
    title = page["decision"]["title"]
    assert title.startswith("You, decide now: answer a trade offer (")
    assert title.endswith(f" offers you {goods_text(offer.give)} for {goods_text(offer.get)})")
    assert "active player" not in title


# -- files -------------------------------------------------------------------------------------


def test_save_stays_in_its_folder_is_atomic_and_loads_back(app, tmp_path):
    g = app.game
    until_human_main_phase(app)
    path = app.save()
    saved = g.digest()
    assert path and Path(path).parent == tmp_path and path.endswith(".json")
    assert en.load_file(path).digest() == g.digest()
    assert [p.name for p in tmp_path.iterdir()] == [Path(path).name]  # no temp file left
    for bad in ("../escape.json", str(tmp_path.parent / "x.json"), "/etc/passwd", "notes.txt"):
        assert app.save(bad) is None and app.status_kind == "error", bad
        assert not app.load(bad)
    assert not (tmp_path.parent / "escape.json").exists()
    (tmp_path / "bad.json").write_text("{not json")
    assert not app.load("bad.json") and app.status_kind == "error"
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    assert app.message({"type": "load", "name": Path(path).name})
    assert app.game.digest() == saved and app.page["prompt"].startswith("Ada, your move")
    assert app.message({"type": "upload", "name": "u.json", "text": Path(path).read_text()})


def test_a_save_name_typed_without_json_gets_it(app, tmp_path):
    """A student types "my game" in the File tab: it is saved as "my game.json" and loads back
    by the same words (it used to be refused: "a save file ends in .json"); another suffix is
    still refused, and Load with an empty box says so in the status line."""
    assert app.message({"type": "save", "name": "my game"})
    assert (tmp_path / "my game.json").exists() and "my game.json" in app.status_text
    assert app.message({"type": "load", "name": "my game"})
    assert not app.message({"type": "save", "name": "notes.txt"})
    assert "a save file ends in .json" in app.status_text
    assert not app.message({"type": "save", "name": "../escape"})
    assert not (tmp_path.parent / "escape.json").exists()
    assert not app.message({"type": "load", "name": ""})
    assert app.status_text == "Cannot load: type a file name first." and app.status_kind == "error"


def test_save_dir_defaults_to_the_notebooks_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = PlayApp(en.new_game(seed=1), chart=False)
    assert app.save_dir == tmp_path.resolve()
    assert app.page["file"]["folder"] == str(tmp_path.resolve())


# -- charts ------------------------------------------------------------------------------------


def test_charts_drawn_only_while_their_tab_is_open(tmp_path):
    app = PlayApp(en.new_game(seed=5, names=NAMES), save_dir=tmp_path)
    assert app.view.chart == "" and app.chart_redraws == 0
    app.message({"type": "charts", "open": True})
    assert app.view.chart.startswith("data:image/png") and app.view.risk
    redraws, risk = app.chart_redraws, app.view.risk
    app.refresh()
    assert app.chart_redraws == redraws  # nothing changed: no redraw
    game, turn = app.game, app.game.turn
    until_human_main_phase(app)
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    app.message({"type": "bots"})
    assert game.turn > turn and app.chart_redraws > redraws and app.view.risk != risk
    app.message({"type": "charts", "open": False})
    redraws = app.chart_redraws
    until_human_main_phase(app)
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    app.message({"type": "bots"})
    assert app.chart_redraws == redraws  # closed: turns pass without drawing


def test_turn_one_chart_has_no_tiny_axis_and_is_sharp():
    g = en.new_game(seed=5)
    fig, ax = _footprint_figure(g)
    for lo, hi in (ax.get_xlim(), ax.get_ylim()):
        assert hi - lo >= 2  # not -0.04 .. 0.04 when every footprint is still 0
    assert fig.dpi >= 100
    from energies.insight.risk import coming_phase

    _which, draws, turn = coming_phase(g.state)
    fig, ax = _risk_figure(g)
    title = ax.get_title()
    assert f"start of turn {turn}:" in title and f"{draws} disc" in title
    assert ax.title.get_fontsize() >= 10 and fig.dpi >= 100
    assert risk_png(g).startswith(PNG)


# -- delivery ----------------------------------------------------------------------------------


def test_import_energies_is_light_and_widgets_insight_are_lazy():
    code = (
        "import sys, energies as en\n"
        "assert 'ipywidgets' not in sys.modules and 'anywidget' not in sys.modules\n"
        "assert 'pandas' not in sys.modules\n"
        "assert en.widgets.PlayApp and en.insight.burden\n"
        "assert 'widgets' in dir(en)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_page_files_are_package_data():
    from energies.widgets.play.board import STATIC

    assert (STATIC / "playapp.js").exists() and (STATIC / "playapp.css").exists()
    text = (ROOT / "pyproject.toml").read_text()
    assert '"energies.widgets.play" = ["static/*.js", "static/*.css"]' in text
    assert '"voila' in text.split("notebooks = [")[1].split("]")[0]


def test_no_notebook_carries_a_saved_copy_of_the_apps_page_code():
    """JupyterLab restores a notebook's saved widget state, and anywidget shares one <style>
    per widget class: a PlayView saved with an older playapp.css restyled the live app with it
    (board sized by the window again, the side cut off beside the file browser). Lessons are
    committed without PlayView state (lesson 02 reads before running through a picture)."""
    notebooks = (ROOT / "notebooks").rglob("*.ipynb")
    for path in sorted(p for p in notebooks if ".ipynb_checkpoints" not in p.parts):
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        state = meta.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
        saved = [
            key
            for key, model in state.get("state", {}).items()
            if {"_esm", "_css"} & set(model.get("state", {}))
        ]
        assert not saved, f"{path.name} saves anywidget state {saved}: clear its widget state"


def test_rule_9_1_hot_seat_shows_whose_turn_by_name(tmp_path):
    g = en.new_game(seed=11, names=["Ana", "Ben", "Cleo", "Bot Dan"])
    app = PlayApp(
        g,
        seats={0: "human", 1: "human", 2: "human", 3: "FreeRider"},
        chart=False,
        save_dir=tmp_path,
    )
    seen, hidden = set(), set()
    for _ in range(200):
        if g.current_seat in app.humans:
            name = g.names[g.current_seat]
            assert app.page["prompt"].startswith(f"{name}, your move")
            if app.pass_to is not None:
                hidden.add(name)
            page = take_screen(app)
            assert page["hand"]["title"] == f"{name}'s hand"
            seen.add(name)
            act(app, next_move(app))
        else:
            app.message({"type": "bots"})
        if len(seen) == 3:
            break
    assert seen == {"Ana", "Ben", "Cleo"} and hidden == seen  # each first behind the pass screen


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


def test_rule_12_1_a_human_not_active_proposes_and_a_human_active_answers(tmp_path):
    """After a bot's roll, Ada (not active) may propose one card for one to the active
    player: the page shows pickers and Pass, the answer comes at once next to it. When Ada
    is active, a bot's proposal is a decision that says what is proposed."""
    g, app = human_and_three_bots(tmp_path)
    proposed = answered = 0
    for _ in range(3000):
        if g.is_over or (proposed and answered):
            break
        page = app.page
        if g.current_seat != 0:
            app.message({"type": "bots"})
            continue
        decision = page["decision"]
        if decision and decision["picker"]:
            assert g.state.active != 0 and "propose a trade" in decision["title"]
            assert [o["label"] for o in decision["options"]] == ["Pass (propose nothing)"]
            assert {o["partner"] for o in decision["picker"]} == {NAMES[g.state.active]}
            if not proposed:
                act(app, decision["picker"][0])
                proposed += 1
                assert re.match(
                    rf"{NAMES[g.state.active]} (accepted|declined) your offer: 1 \w+ "
                    r"for 1 \w+\.",
                    app.page["offer_answer"],
                ), app.page["offer_answer"]
            else:
                act(app, decision["options"][0])
            continue
        if (
            decision
            and g.state.active == 0
            and any(o["kind"] == "respond_to_trade" for o in decision["options"])
            and re.search(r"\((Bob|Cy|Di) offers Ada 1 \w+ for 1 \w+\)", decision["title"])
        ):
            answered += 1
        act(app, next_move(app))
        assert app.status_kind != "error", app.status_text
    assert proposed and answered


def _play_to_turn(app: PlayApp, turn: int, on_window=None) -> list[dict]:
    """Play (Ada's moves: next_move) until ``turn``; return Ada's proposal decisions seen.
    ``on_window(decision)`` may answer a proposal window itself (return True)."""
    g, windows = app.game, []
    for _ in range(3000):
        if g.is_over or g.turn >= turn:
            break
        if g.current_seat != 0:
            app.message({"type": "bots"})
            continue
        decision = app.page["decision"]
        if decision and decision["picker"]:
            windows.append({**decision, "turn": g.turn})
            if on_window and on_window(decision):
                continue
        act(app, next_move(app))
        assert app.status_kind != "error", app.status_text
    return windows


def test_rule_12_1_dont_ask_me_passes_through_the_engine(tmp_path):
    """With "Don't ask me on the bots' turns" Ada is never shown a proposal window: the app
    applies her Pass (a real Decline, in the log) in every bot turn; undo skips those passes."""
    g, app = human_and_three_bots(tmp_path)
    assert app.page["proposals"] == {"ask": True, "partner": "Bob", "next": False, "passes": 0}
    app.message({"type": "option", "name": "ask_on_bot_turns", "value": False})
    assert app.ask_on_bot_turns is False and app.page["proposals"]["ask"] is False
    statuses: list[str] = []
    app.view.observe(lambda change: statuses.append(change["new"]["status"]["text"]), "view")
    assert _play_to_turn(app, 12) == []
    assert any(re.search(r"Passed for you \d+ times? \(no trade proposal", t) for t in statuses)
    passes = [i for i, a in enumerate(g.actions) if a.seat == 0 and a.kind == "decline"]
    assert passes and app._auto_passes == set(passes) and app.auto_pass_count == len(passes)
    assert app.page["proposals"]["passes"] == len(passes)
    assert sum(app.words.speak(line) == "Ada declines" for line in g.log) >= len(passes)
    check_invariants(g.state)
    before = max(i for i, a in enumerate(g.actions) if a.seat == 0 and i not in passes)
    app.undo()  # back to Ada's own last choice, not to a pass the app made
    assert len(g.actions) == before and all(i < before for i in app._auto_passes)


def test_rule_12_1_asked_by_default_and_propose_next_time(tmp_path):
    """Default: Ada is asked in the bots' turns. With the option on, "Propose a trade to …"
    opens the very next window (Ada proposes there), and later windows pass again."""
    g, app = human_and_three_bots(tmp_path)
    asked = _play_to_turn(app, 6)
    assert asked and all("propose a trade" in d["title"] for d in asked)

    app.set_option("ask_on_bot_turns", False)
    app.propose_next_time()
    assert app.page["proposals"]["next"] is True
    proposed: list[int] = []

    def propose(decision: dict) -> bool:
        if proposed:
            return False  # a second ask in the same turn: pass (next_move)
        proposed.append(g.turn)
        act(app, decision["picker"][0])
        return True

    windows = _play_to_turn(app, 16, propose)
    assert proposed and {d["turn"] for d in windows} == {proposed[0]}  # that window only
    assert app.page["proposals"]["next"] is False
    assert any(a.kind == "propose_trade" and a.seat == 0 for a in g.actions)
    assert max(app._auto_passes) > min(  # after the window asked for, the app passes again
        i for i, a in enumerate(g.actions) if a.kind == "propose_trade" and a.seat == 0
    )


# -- rule 12.1: proposals at any time, asking the table -----------------------------------------


def _until_bot_free_decision(app: PlayApp) -> None:
    """Step until a bot is active and free to choose in its action phase (it waits for Step)."""
    g = app.game
    for _ in range(500):
        state = g.state
        if state.active not in app.humans and state.phase == "action" and not state.queue:
            return
        if g.current_seat in app.humans:
            act(app, next_move(app))
        else:
            app.step()
    raise AssertionError("no bot's free decision reached")


def _hold_food_for_brick(app: PlayApp) -> bool:
    """At a bot's free decision, Ada (given a food) proposes 1 food for 1 brick: held."""
    _until_bot_free_decision(app)
    sb.give(app.game, 0, food=1)
    app.refresh()
    return app.propose("food", "brick")


def test_rule_12_1_a_human_proposes_during_a_bots_action_phase(tmp_path):
    # rule 12.1: Ada, not active, proposes at any time of a bot's action phase; the app holds
    # the proposal and makes it before the bot's next move; her note says the bot's answer
    g, app = human_and_three_bots(tmp_path)
    assert _hold_food_for_brick(app) is True
    bot, actions = g.state.active, len(g.actions)
    assert g.current_seat == bot and not g.pending  # held, not made: the bot has not moved
    box = app.page["interject"]
    assert box["partner"] == NAMES[bot] and [s["seat"] for s in box["seats"]] == [0]
    assert "energy" in box["kinds"] and not app.page["human"]
    assert app.page["interject"]["seats"][0]["held"] == "1 food for 1 brick"
    assert "Held" in app.status_text and NAMES[bot] in app.status_text
    assert app.step()
    made = ProposeTrade(0, (("food", 1),), (("brick", 1),))
    assert g.actions[actions] == made and g.actions[actions + 1].kind == "respond_to_trade"
    note = app.page["interject"]["seats"][0]["note"]
    assert re.match(rf"{NAMES[bot]} (accepted|declined) your offer: 1 food for 1 brick\.", note)
    assert app.page["interject"]["seats"][0]["held"] == ""
    check_invariants(g.state)


def test_rule_12_1_a_held_proposal_no_longer_legal_says_why(tmp_path):
    # rule 12.1: at delivery the proposal is checked again: Ada gave her food away meanwhile
    g, app = human_and_three_bots(tmp_path)
    assert _hold_food_for_brick(app)
    sb.take(g, 0, food=1)
    actions = len(g.actions)
    app.step()
    assert all(a.kind != "propose_trade" for a in g.actions[actions:])
    note = app.page["interject"]["seats"][0]["note"]
    assert note.startswith("Your proposal to") and "could not be made" in note and "food" in note
    assert app.page["interject"]["seats"][0]["held"] == ""


def test_rule_12_1_forged_proposal_messages_change_nothing(tmp_path):
    # a page message may carry anything: each is refused with a sentence, the game unchanged
    g, app = human_and_three_bots(tmp_path)
    _until_bot_free_decision(app)
    bot = g.state.active
    before = (g.to_json(), dict(app._held))
    forged = [
        ({"seat": bot, "give": "food", "get": "brick"}, "played by a bot"),
        ({"seat": 9, "give": "food", "get": "brick"}, "no seat 9"),
        ({"seat": True, "give": "food", "get": "brick"}, "no seat True"),
        ({"seat": "0", "give": "food", "get": "brick"}, "no seat '0'"),
        ({"seat": 0, "give": "gold", "get": "brick"}, "not 'gold' for 'brick'"),
        ({"seat": 0, "give": ["food"], "get": {"x": 1}}, "propose one of"),
        ({"seat": 0, "give": "x" * 100_000, "get": "brick"}, "propose one of"),
        ({"seat": 0, "give": "food", "get": "food"}, "same kind"),
        ({"seat": 0, "give": "food", "get": "brick"}, "you have 0"),
    ]
    for content, words in forged:
        assert app.message({"type": "propose", **content}) is False
        assert app.status_kind == "error" and words.lower() in app.status_text.lower(), (
            content.get("give", "")[:20] if isinstance(content.get("give"), str) else content,
            app.status_text,
        )
        assert len(app.status_text) < 300
        assert (g.to_json(), dict(app._held)) == before


def test_rule_12_1_hot_seat_proposal_to_the_active_human_and_asking_the_table(tmp_path):
    # rule 12.1: Bob proposes while Ada's turn is on screen: the app makes it when Ada's page
    # is next shown, and she answers first; Ada may also ask the table ("Ask the table")
    g = en.new_game(seed=3, names=NAMES)
    app = PlayApp(
        g, seats={0: "human", 1: "human", 2: "FossilRush", 3: "random"}, chart=False,
        save_dir=tmp_path,
    )  # fmt: skip
    for _ in range(400):
        if (
            g.state.active == 0
            and g.current_seat == 0
            and g.state.phase == "action"
            and not g.pending
        ):
            break
        if g.current_seat in app.humans:
            act(app, next_move(app))
        else:
            app.message({"type": "bots"})
    assert g.state.active == 0 and not g.pending
    assert app.message({"type": "propose", "seat": 0, "give": "food", "get": "brick"}) is False
    assert "active player" in app.status_text  # Ada cannot propose to herself
    sb.give(g, 1, steel=1)
    sb.give(g, 0, brick=1)
    app.refresh()
    box = app.page["interject"]
    assert box["partner"] == "Ada" and [s["seat"] for s in box["seats"]] == [1]
    assert app.propose("steel", "brick", seat=1) is True
    assert g.actions[-1] == ProposeTrade(1, (("steel", 1),), (("brick", 1),))  # shown: made
    decision = app.page["decision"]
    assert decision and "Bob offers Ada 1 steel for 1 brick" in decision["title"]
    act(app, next(o for o in decision["options"] if o["a"]["accept"]))
    assert g.state.players[1].hand["brick"] >= 1
    assert "accepted your offer" in app.page["interject"]["seats"][0]["note"]
    ask = app.page["ask"]
    assert ask["a"] == {"kind": "ask_for_proposals", "seat": 0} and ask["label"] == "Ask the table"
    act(app, ask)
    assert app.status_kind != "error", app.status_text
    assert any(a.kind == "ask_for_proposals" for a in g.actions)
    asks = g.rules.table_asks_per_turn
    while g.state.table_asks < asks:
        if g.current_seat in app.humans and not g.pending:
            act(app, app.page["ask"])
        elif g.current_seat in app.humans:
            act(app, decision_move(app.page))
        else:
            app.message({"type": "bots"})
    while g.pending and g.current_seat in app.humans:
        act(app, decision_move(app.page))
    assert app.page["ask"]["a"] is None and "only 2 times" in app.page["ask"]["why"]
    check_invariants(g.state)


def test_rule_12_1_held_proposals_are_dropped_by_undo_and_at_the_end_of_the_turn(tmp_path):
    # a held proposal belongs to one position of one turn: undo forgets it, and a turn that
    # ends before the active player was free to answer drops it with a note
    g, app = human_and_three_bots(tmp_path)
    assert _hold_food_for_brick(app)
    app.undo()
    assert app._held == {}
    assert _hold_food_for_brick(app)
    g.apply(EndTurn(g.state.active))  # the bot's turn ends outside the app
    app.refresh()
    note = next(s["note"] for s in app.page["interject"]["seats"] if s["seat"] == 0)
    assert app._held == {} and note == "Your proposal was not made: that turn has ended."
    assert all(a.kind != "propose_trade" or a.seat != 0 for a in g.actions[-3:])


# -- hot-seat: one screen, several students (issue 33) --------------------------------------------


def three_students(tmp_path, seed: int = 3, **options) -> tuple[en.Game, PlayApp]:
    """Ada, Bob and Cy at one laptop, FossilRush in seat 3."""
    g = en.new_game(seed=seed, names=NAMES, rules=en.RuleSet.classroom())
    seats = {0: "human", 1: "human", 2: "human", 3: "FossilRush"}
    return g, PlayApp(g, seats=seats, chart=False, save_dir=tmp_path, **options)


def windows_between_students(app: PlayApp, turns: int) -> int:
    """Play ``turns`` turns (the students: next_move); count the times a student was asked to
    propose a trade to another student (rule 12.1)."""
    g, asked = app.game, 0
    while not g.is_over and g.turn <= turns:
        if g.current_seat not in app.humans:
            app.message({"type": "bots"})
            continue
        take_screen(app)
        task = g.state.pending
        if task is not None and task.kind == "propose_trade" and g.state.active in app.humans:
            asked += 1
            assert app.page["decision"]["picker"] is not None  # the window, as the page shows it
        assert act(app, next_move(app)), app.status_text
    return asked


def test_rule_12_1_hot_seat_students_are_not_asked_to_propose_to_each_other(tmp_path):
    # each window would hand the laptop over for a "pass": the app passes (real Declines in
    # the log), the option brings the windows back
    g, app = three_students(tmp_path)
    assert windows_between_students(app, 10) == 0
    assert app.human_passes > 0 and app.auto_pass_count == 0  # the bot-turn windows still ask
    passed = [g.actions[i] for i in sorted(app._auto_passes)]
    assert passed and all(a.kind == "decline" and a.seat in app.humans for a in passed)
    check_invariants(g.state)
    _g, app2 = three_students(tmp_path, propose_between_humans=True)
    assert windows_between_students(app2, 10) > 0 and app2.human_passes == 0


def test_rule_12_1_hot_seat_a_student_still_proposes_and_the_bots_still_answer(tmp_path):
    # the passes take nothing away: a student who is not active proposes to the active
    # student from the Trade tab, and an offer to the bot is answered at once
    g, app = three_students(tmp_path)
    for _ in range(300):
        if g.current_seat in app.humans and g.state.phase == "action" and not g.pending:
            break
        if g.current_seat in app.humans:
            act(app, next_move(app))
        else:
            app.message({"type": "bots"})
    active = g.state.active
    other = next(s for s in sorted(app.humans) if s != active)
    sb.give(g, other, steel=1)
    sb.give(g, active, food=1)
    app.refresh()
    assert app.propose("steel", "food", seat=other)
    assert g.actions[-1] == ProposeTrade(other, (("steel", 1),), (("food", 1),))
    assert g.current_seat == active and "offers" in app.page["decision"]["title"]


def test_the_pass_screen_hides_the_hand_until_the_next_student_takes_the_screen(tmp_path):
    g, app = three_students(tmp_path)
    seen = set()
    for _ in range(400):
        if g.is_over or len(seen) == 3:
            break
        if g.current_seat not in app.humans:
            app.message({"type": "bots"})
            continue
        seat, page = g.current_seat, app.page
        if app.pass_to is not None:
            assert app.pass_to == seat and page["pass_to"]["name"] == NAMES[seat]
            # nothing private: no hand, no glowing spot (it would tell the cards), no controls
            assert page["hand"] is None and page["spots"] == {} and page["decision"] is None
            assert page["turn"] == [] and page["interject"] is None and not page["human"]
            assert not page["controls"]["bots"] and not page["controls"]["step"]
            # a late click of the student before does not act for this one
            before = g.to_json()
            legal = action_to_dict(g.legal_actions()[0])
            assert not app.message({"type": "act", "action": legal, "rev": page["rev"]})
            assert app.click(0) is False
            assert (
                app.status_text
                == f"Pass the screen to {NAMES[seat]} first: {NAMES[seat]} clicks “I am {NAMES[seat]}”."
            )
            assert g.to_json() == before
            assert app.message({"type": "reveal"}) and app.pass_to is None
            seen.add(seat)
        page = app.page
        assert page["hand"]["seat"] == seat and page["pass_to"] is None
        assert not page["strip"]["hand_change"] or page["strip"]["hand_change"].startswith(
            NAMES[seat]
        )
        act(app, next_move(app))
    assert seen == {0, 1, 2}


def test_one_student_with_bots_never_sees_the_pass_screen(app):
    for _ in range(60):
        assert app.pass_to is None and app.page["pass_to"] is None
        if app.game.current_seat in app.humans:
            act(app, next_move(app))
        else:
            app.message({"type": "bots"})
    assert app.reveal() is False


def test_rule_14_2_the_status_line_scores_the_empty_bag_now_with_the_engines_rule(tmp_path):
    from energies.newenergies.engine.events import empty_bag_outcome

    g, app = three_students(tmp_path)
    assert app.page["bag_line"] == (
        "If the bag ran out now, everybody would lose: nobody has more renewable than fossil "
        "plants (rule 14.2)."
    )
    board = g.board
    corner = next(iter(g.state.players[1].towns))
    hexes = [h for h in board.corner_hexes_of[corner] if board.hexes[h].number is not None]
    sb.place_plant(g, 1, "renewable", corner, hexes[0])
    app.refresh()
    assert empty_bag_outcome(g.state)[:2] == ("empty_bag", (1,))
    assert app.page["bag_line"] == (
        "If the bag ran out now: Bob wins (renewable minus fossil plants: +1, rule 14.2)."
    )
    corner = next(iter(g.state.players[2].towns))
    hexes = [h for h in board.corner_hexes_of[corner] if board.hexes[h].number is not None]
    sb.place_plant(g, 2, "renewable", corner, hexes[0])
    app.refresh()
    assert app.page["bag_line"].startswith("If the bag ran out now: Bob and Cy share the win")


def test_rule_14_2_the_bag_line_names_the_winners_the_ending_then_names(tmp_path):
    # the line before the last move of an empty-bag game says who the ending makes the winner
    for seed in range(1, 50):  # the first seeded game of the full rules that the bag ends
        g = en.new_game(seed=seed, names=NAMES)
        en.play(g, [make_bot(b) for b in ("balanced", "green", "freerider", "fossil")])
        if g.outcome.kind == "empty_bag":
            break
    assert g.outcome.kind == "empty_bag"
    before = en.load_game(g.to_json())
    before.undo(1)
    app = PlayApp(before, chart=False, save_dir=tmp_path)
    winners = " and ".join(NAMES[s] for s in g.outcome.winners)
    assert app.page["bag_line"].startswith(f"If the bag ran out now: {winners} ")
    over = PlayApp(g, chart=False, save_dir=tmp_path)
    assert over.page["bag_line"] == ""  # the game is over: the outcome says it


def _own_plant_spots(g, seat: int) -> list[tuple[int, int]]:
    """(corner, hex) pairs where a plant of ``seat`` may stand: its buildings' producing hexes."""
    board, player = g.board, g.state.players[seat]
    return [
        (c, h)
        for c in sorted(player.towns | player.cities)
        for h in board.corner_hexes_of[c]
        if board.hexes[h].number is not None
    ]


def test_free_pieces_show_no_price(tmp_path):
    # rule 7.4: Production Increase's fossil plant is free; rule 13.5: so is a Cleanup's hazard
    g, app = human_and_three_bots(tmp_path)
    until_human_main_phase(app)
    ada = g.state.players[0]
    for corner, hx in _own_plant_spots(g, 0):  # Ada: the highest LF; her towns keep a spot
        edit = SandboxEdit(0, "place_plant", ("fossil", corner, hx))
        if corner in ada.cities and g.why_illegal(edit) is None:
            sb.place_plant(g, 0, "fossil", corner, hx)
    assert any(c not in {corner for corner, _h in ada.plants} for c in ada.towns)
    lf = [g.state.local_footprint(s) for s in range(4)]
    assert lf[0] == max(lf) > sorted(lf)[-2], lf
    sb.fill_row(g, "brown", "production_increase")
    sb.fix_disc(g, "brown", "production_increase")  # fires in the next event phase
    app.refresh()
    act(app, next(o for o in app.page["turn"] if o["kind"] == "end_turn"))
    assert g.state.pending.kind == "free_fossil" and g.current_seat == 0
    page = app.page
    plants = [o for s in page["spots"].values() for o in s.get("options", ())]
    assert plants and {o["price"] for o in plants} == {"free"}
    assert {s["tip"].rsplit(" — ", 1)[-1] for s in page["spots"].values() if s.get("legal")} == {
        "free"
    }

    g, app = human_and_three_bots(tmp_path)
    until_human_main_phase(app)
    town = min(g.state.players[0].towns | g.state.players[0].cities)
    sb.give_dev_card(g, 0, "cleanup")
    sb.add_hazard(g, building=town)
    app.refresh()
    act(app, next(o for o in app.page["cards"] if o["a"] and o["a"].get("card") == "cleanup"))
    assert g.state.pending.kind == "cleanup"
    removal = [o for o in app.page["decision"]["options"] if o["kind"] == "remove_hazard"]
    assert removal and {o["price"] for o in removal} == {"free"}
    # on the player's own turn, removing a hazard costs energy and a plant its price
    g, app = human_and_three_bots(tmp_path)
    until_human_main_phase(app)
    sb.give(g, 0, science=3)
    app.refresh()
    prices = {o["price"] for s in app.page["spots"].values() for o in s.get("options", ())}
    assert "1 science" in prices and "free" not in prices


def test_the_apps_chart_legend_stays_readable_in_a_narrow_column():
    # the legend was about 6 px in JupyterLab beside the file browser (issue 33): the app's
    # chart is narrower, its legend below the lines at 11 points
    from energies.widgets.common import APP_CHART_SIZE, APP_LEGEND_POINTS, CHART_DPI

    g = en.load_file(ROOT / "notebooks" / "class-example" / "round1" / "group-A.json")
    fig, ax = _footprint_figure(g, APP_CHART_SIZE, CHART_DPI, legend="below")
    legend = ax.get_legend()
    assert {t.get_fontsize() for t in legend.get_texts()} == {APP_LEGEND_POINTS}
    natural = APP_CHART_SIZE[0] * CHART_DPI
    assert APP_LEGEND_POINTS * CHART_DPI / 72 * 440 / natural >= 10  # px, shown 440 px wide
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    assert legend.get_window_extent(renderer).y1 < ax.get_window_extent(renderer).y0
    assert legend.get_window_extent(renderer).y0 >= 0  # inside the picture


def test_the_score_table_shows_each_bot_in_its_persona_colour_of_the_charts():
    # one colour per persona everywhere: the charts, the worksheets and the app's score table
    game = en.new_game(4, seed=3)
    app = en.widgets.PlayApp(game, seats={0: "human", 1: "fossil", 2: "green", 3: "balanced"})
    colours = {row["seat"]: row["who_color"] for row in app.page["scores"]}
    assert colours == {
        0: None,
        1: en.viz.persona_color("fossil"),
        2: en.viz.persona_color("green"),
        3: en.viz.persona_color("balanced"),
    }
    assert len(set(colours.values())) == 4
