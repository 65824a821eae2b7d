"""Pictures and play apps of the companion games."""

from __future__ import annotations

import random

import pytest

from energies.games import noclear, shelfie

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


def _midgame(module, seed=3, moves=40):
    game = module.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("module", [shelfie, noclear])
def test_draw_returns_the_axes_and_a_png(module):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = _midgame(module)
    fig, ax = plt.subplots()
    assert game.draw(ax=ax) is ax
    texts = " ".join(t.get_text() for t in ax.texts)
    assert game.names[0] in texts
    own = game.draw()
    assert own is not ax and own.figure is not fig
    plt.close("all")
    assert game._repr_png_().startswith(PNG)


def test_shelfie_picture_names_scores_and_dice():
    import matplotlib.pyplot as plt

    game = _midgame(shelfie)
    texts = [t.get_text() for t in game.draw().texts]
    plt.close("all")
    assert f"Seat 0: {game.score(0)} pts" in texts
    # "1 re-roll left", "2 re-rolls left" (plural forms through the catalogs)
    wanted = "left" if game.state.phase == "roll" else "circle or cross out"
    assert any(wanted in t for t in texts) and f"seat {game.current_seat}:" in texts


def test_noclear_picture_marks_both_tokens():
    import matplotlib.pyplot as plt

    game = _midgame(noclear)
    texts = [t.get_text() for t in game.draw().texts]
    plt.close("all")
    symbol = noclear.SYMBOLS[game.state.bottom]
    assert f"☢ {symbol} (off)" in texts and "☢" in texts


def test_shelfie_app_plays_rerolls_keeps_hints_and_undoes():
    from energies.games.shelfie.widget import ShelfieApp

    app = ShelfieApp(seats={0: "human", 1: "ev"}, seed=2)
    game = app.game
    shown = [b for b in app.dice_buttons if b.layout.display is None]
    assert [b.description for b in shown] == [
        shelfie.COLOURS[f] if f < 5 else "joker" for f in game.dice
    ]
    assert "ExpectedValueBot:" in app.hint()
    shown[0].value = True
    app.reroll_button.click()
    assert app.status_text.startswith("You: seat 0 re-rolls") and game.state.rerolls_left == 1
    app.keep_button.click()
    assert game.state.phase == "place" and app.choice.value == 0
    app.apply_button.click()
    assert game.current_seat == 0 and game.turn == 3  # the bot played its whole turn
    app.undo_button.click()
    assert game.turn == 1 and game.state.phase == "place"
    app.keep_button.click()  # not allowed now: the status says why, nothing changes
    assert app.status_kind == "error" and "No re-rolls left" in app.status_text


def test_noclear_app_lets_a_human_play_against_the_engineer_to_the_end():
    from energies.games.noclear.widget import NoclearApp

    app = NoclearApp(seats={0: "human", 1: "engineer"}, seed=4)
    game = app.game
    assert f"{game.names[0]}</b>: {game.energy(0)[0]} blue" in app.economy.value
    for _ in range(6):
        app.apply_button.click()  # the first listed action each time
        assert game.current_seat == 0 and app.status_kind != "error"
    assert len(game.actions) > 6  # the Engineer answered every time
    game.state.uranium = game.state.uranium[-1:]  # one uranium card left ...
    game.state.players[0].energy = [12, 12]
    app.play(noclear.BuyUranium(0, game.state.uranium[0], (12, 12)))  # ... and the human buys it
    assert game.is_over and app.status_text == str(game.outcome)
    assert app.choice.disabled and bytes(app.picture.value).startswith(PNG)


def test_noclear_app_shows_what_each_payment_takes():
    # rule 2.2: a split price, and under uranium_payment="machines" the machines' points
    from energies.games.noclear.widget import NoclearApp

    game = noclear.new_game(seed=1)
    state = game.state
    slot = 0 if state.top != 0 else 1
    state.market[slot] = 15  # the solar field: 4 blue + 4 orange, any split
    state.players[state.active].energy = [8, 1]
    app = NoclearApp(game, seats={0: "human", 1: "human"})
    buys = f"seat {state.active} buys the machine in slot {slot + 1} for "
    labels = [label for label, _ in app.choice.options]
    assert buys + "8 blue — Solar field; leaves 1 orange" in labels
    assert buys + "7 blue + 1 orange — Solar field; leaves 1 blue" in labels

    rules = noclear.NoclearRules(uranium_payment="machines")
    game = noclear.new_game(seed=1, rules=rules)
    seat = game.state.players[game.current_seat]
    seat.machines = {4: True, 1: False}  # 10 + 3 points (sandbox: not taken from the deck)
    app = NoclearApp(game, seats={0: "human", 1: "human"})
    assert "Machines worth 13 points toward uranium" in app.economy.value
    app.play(noclear.BuyUraniumWithMachines(seat.seat, 1))
    assert "8 points still owed" in app.economy.value
    labels = [label for label, _ in app.choice.options]
    assert "discards machine 1 to pay for uranium — Wind pump: 3 points, 5 still owed after" in (
        " ".join(labels)
    )
    assert any(label.endswith("10 points pay the 8 owed; 2 lost") for label in labels)


def test_noclear_race_history_and_its_chart():
    import matplotlib.pyplot as plt

    import energies as en

    game = noclear.new_game(seed=7)
    en.play(game, [noclear.make_bot("engineer", seed=s) for s in range(2)])
    frame = game.history_frame()
    assert len(frame) == game.turn and list(frame["turn"]) == list(range(1, game.turn + 1))
    assert (frame["switched_off"] >= 0).all() and frame["switched_off"].sum() > 0
    row = game.summary_row()
    assert row["switched_off_0"] + row["switched_off_1"] == frame["switched_off"].sum()
    ax = noclear.draw.plot_race(game, what="made")
    assert len(ax.lines) == 2 and ax.get_ylabel() == "energy made that turn"
    plt.close("all")
    with pytest.raises(ValueError, match="what must be one of"):
        noclear.draw.plot_race(game, what="fun")


def test_shelfie_app_keeps_the_pressed_dice_through_a_hint_and_a_refused_click():
    """A student presses dice, asks for a hint, then re-rolls: the hint must not un-press them
    (it did, and the re-roll then said 'Say which dice to re-roll')."""
    from energies.games.shelfie.widget import ShelfieApp

    app = ShelfieApp(seats={0: "human", 1: "ev"}, seed=2)
    game = app.game
    app.dice_buttons[0].value = True
    app.hint_button.click()
    assert app.dice_buttons[0].value, "the hint un-pressed the die"
    app.undo_button.click()  # refused: nothing of yours to undo yet
    assert app.status_kind == "warn" and app.dice_buttons[0].value
    app.reroll_button.click()
    assert game.state.rerolls_left == 1 and app.status_kind == "ok", app.status_text
    assert not any(b.value for b in app.dice_buttons), "new dice: nothing pressed"


@pytest.mark.parametrize("name", ["shelfie", "noclear"])
def test_game_app_picture_is_shown_at_its_own_size_and_sharp(name):
    """In the app's VBox the picture was stretched to the full width (a 374 px Shelfie PNG drawn
    1332 px wide: blurry, the dice pushed below a 768 px screen); it keeps its size now, drawn
    at a readable resolution, and only shrinks on a narrow screen."""
    import struct

    from energies.games.noclear.widget import NoclearApp
    from energies.games.shelfie.widget import ShelfieApp

    app = {"shelfie": ShelfieApp, "noclear": NoclearApp}[name](seed=1)
    layout = app.picture.layout
    assert (layout.align_self, layout.max_width, layout.height) == ("flex-start", "100%", "auto")
    width, height = struct.unpack(">II", bytes(app.picture.value)[16:24])
    assert 500 <= width <= 1000 and height <= 460, (width, height)


@pytest.mark.parametrize("lang", ["en", "de", "zh-Hant", "be"])
def test_noclear_card_texts_fit_their_cards_in_every_language(lang):
    """A machine's name and texts, said in the game's language (issue 35), stay on its card:
    a longer word wraps, a text too long for the card gets a smaller font."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    rules = noclear.NoclearRules(players=3, uranium_payment="machines")
    game = noclear.new_game(players=3, seed=4, rules=rules, lang=lang)
    fig = Figure(figsize=(9, 2.6 + 0.75 * 3), dpi=110)  # as the app shows it (game_png)
    fig.subplots_adjust(0.01, 0.01, 0.99, 0.93)
    FigureCanvasAgg(fig)
    ax = game.draw(ax=fig.add_subplot())
    renderer = fig.canvas.get_renderer()
    cards = [p.get_window_extent(renderer) for p in ax.patches if isinstance(p, FancyBboxPatch)]
    cards = cards[: rules.market_size]  # the market's machines (the uranium cards come after)
    checked = 0
    for text in ax.texts:
        box = text.get_window_extent(renderer)
        card = next((c for c in cards if c.x0 <= box.x0 <= c.x1 and c.y0 <= box.y1 <= c.y1), None)
        if card is None or text.get_text() == "☢":
            continue
        assert box.x1 <= card.x1 + 1 and box.y0 >= card.y0 - 1, (lang, text.get_text())
        checked += 1
    assert checked == rules.market_size
