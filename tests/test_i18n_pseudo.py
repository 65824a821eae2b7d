"""No English left hard-coded on the PlayApp page (issue 35): a pseudo-locale run.

The pseudo-locale ``en-XA`` (``energies.kit.i18n.pseudo``) says every message as accented
English in brackets, ``⟦Róll thé díçé⟧``. The app is drawn in it at several moments of a
game (a set-up decision, a turn with its controls, a discard, the pass screen of hot-seat,
the end); every text the page shows — the state ``playapp.js`` draws from (``view``, the
board's ``geometry`` and the page's own words ``ui``) — must be pseudo-translated: outside
the brackets only names, numbers and signs may stand. A text built in Python without the
catalogs, or a word ``playapp.js`` writes itself, would show as plain English.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import energies as en
from energies import sandbox
from energies.kit.i18n import pseudo

NAMES = ["You", "Fossil Fred", "Green Grace", "Balanced Bo"]
SEATS = {0: "human", 1: "FossilRush", 2: "GreenInvestor", 3: "Balanced"}
# keys whose values the page never shows as text (actions, kinds, colours, paths, numbers)
HIDDEN = {"a", "kind", "color", "give", "get", "kinds", "rate", "pieces", "terrain", "resource"}
HIDDEN_IN = {"file": {"folder", "default", "autosave"}}
# outside the brackets: names, bot labels, numbers, signs; never a word of English
ALLOWED = {
    word
    for name in NAMES + ["FossilRush", "GreenInvestor", "Balanced", "RandomBot", "json"]
    for word in name.split()
}
ALLOWED |= {"GF", "LF", "VP", "PlayApp"}  # inside the brackets anyway; kept for the sums
WORD = re.compile(r"[A-Za-z]{2,}")


def outside_brackets(text: str) -> str:
    """What a text says outside the pseudo-locale's brackets (nested ones too)."""
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    return text


def visible_texts(data, key: str = "", parent: str = ""):
    """Every text the page may show, with where it is."""
    if key == "cards" and parent == "hand":  # [kind, count, the kind's name]: the name shows
        yield from (("card", label) for _kind, _n, label in data)
        return
    if isinstance(data, dict):
        for k, v in data.items():
            if k in HIDDEN or k in HIDDEN_IN.get(key, ()):
                continue
            if key == "spots" or parent == "spots":  # spot keys ("c12") are ids
                yield from visible_texts(v, k if key != "spots" else "spot", key)
            else:
                yield from visible_texts(v, k, key)
    elif isinstance(data, (list, tuple)):
        for v in data:
            yield from visible_texts(v, key, parent)
    elif isinstance(data, str) and data:
        yield key, data


def english_left(app) -> list[tuple[str, str]]:
    page = {"view": app.page, "geometry": app.view.geometry}
    left = []
    for key, text in visible_texts(page):
        if key in ("name", "partner", "who", "title") and text in ALLOWED | set(NAMES):
            continue
        words = set(WORD.findall(outside_brackets(text))) - ALLOWED
        if words:
            left.append((key, text))
    return left


@pytest.fixture
def xa():
    return pseudo.install()


def _app(xa, seats=SEATS, **kw):
    game = en.new_game(players=4, seed=2034, names=NAMES, **kw)
    return game, en.widgets.PlayApp(game, seats=seats, lang=xa, chart=False)


def test_the_outside_check_finds_plain_english():
    assert outside_brackets("⟦Róll {⟦thé⟧} díçé⟧ for Ada") == "  for Ada"
    assert WORD.findall(outside_brackets("⟦Hand⟧: roll")) == ["roll"]


def test_a_turn_with_every_control_is_pseudo_translated(xa):
    game, app = _app(xa)
    sandbox.give(game, 0, brick=6, lumber=6, fiber=3, food=3, science=6, steel=3)
    app.refresh()
    assert english_left(app) == []  # before the roll: every control says why not
    app.click(next(a for a in app.legal_actions if a.kind == "roll_dice"))
    page = app.page
    assert page["build"] and page["supply"] and page["spots"]
    assert english_left(app) == []
    for tab in ("energy", "cards", "offers"):
        assert page[tab], tab
    app.click(next(a for a in app.legal_actions if a.kind == "build_road"))
    app.click(next(a for a in app.legal_actions if a.kind == "end_turn"))
    assert english_left(app) == []  # the bots' moves in the strip and the log
    assert any("⟦" in line for line in app.page["log"])


def test_a_set_up_decision_and_the_end_are_pseudo_translated(xa):
    rules = en.RuleSet.standard(4, start="draft").replace(turn_limit=3)  # a quick ending
    game, app = _app(xa, rules=rules)
    assert app.page["decision"] and english_left(app) == []
    app.play_bots()
    while not game.is_over:
        app.click(0)  # the human's first option, then the bots until the human again
        app.play_bots()
    assert app.page["over_panel"]["outcome"].startswith("⟦")
    assert english_left(app) == []


def test_hot_seat_pass_screen_is_pseudo_translated(xa):
    _game, app = _app(xa, seats={0: "human", 1: "human", 2: "random", 3: "random"})
    assert app.page["pass_to"] is not None
    assert english_left(app) == []


def test_every_word_playapp_js_writes_comes_from_python():
    """The page's ES module holds no English of its own: its visible words are the keys of
    ``view.ui`` (``T("key")``); a literal between tags or in ``textContent`` would be one."""
    js = (Path(en.widgets.play.__file__).parent / "static" / "playapp.js").read_text()
    code = re.sub(r"//[^\n]*", "", js)
    between_tags = re.findall(r"(?<=[\w\"'\]]>)([^<>`${}]*[A-Za-z]{3,}[^<>`${}]*)(?=</?\w)", code)
    assigned = re.findall(r"textContent = \"([^\"]*[A-Za-z]{3,}[^\"]*)\"", code)
    assert between_tags == [] and assigned == []


def test_the_shelfie_app_is_pseudo_translated(xa):
    """A companion app (My Shelfie Dice): its buttons, list of actions, status line, hint,
    dice and the picture's words all come through the catalogs."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from energies.games.shelfie import new_game
    from energies.games.shelfie.draw import draw_game
    from energies.games.shelfie.widget import ShelfieApp

    app = ShelfieApp(new_game(players=2, seed=3), seats={0: "human", 1: "ev"}, lang=xa)
    app.hint()
    texts = [
        *_companion_controls(app),
        ("reroll", app.reroll_button.description),
        ("keep", app.keep_button.description),
        ("hint", app.hint_button.description),
        *(("die", b.description) for b in app.dice_buttons if b.layout.display != "none"),
    ]
    app.play(app.game.legal_actions()[0])  # the human moves, the bot answers
    texts.append(("after a move", app.status_text))
    ax = draw_game(app.game, ax=Figure().add_subplot())
    texts += [("picture", t.get_text()) for t in ax.texts if t.get_text().strip()]
    allowed = ALLOWED | {"Seat", "ExpectedValue", "ev"}  # the bot's name in the hint
    left = [(k, t) for k, t in texts if set(WORD.findall(outside_brackets(t))) - allowed]
    assert left == []
    assert len(texts) > 15


def _companion_controls(app) -> list[tuple[str, str]]:
    """The texts of the controls every companion app shares (widgets.companion.GameApp)."""
    return [
        ("choice", app.choice.description),
        ("apply", app.apply_button.description),
        ("undo", app.undo_button.description),
        ("file", app.file_name.description),
        ("save", app.save_button.description),
        ("status", app.status_text),
        *(("option", label) for label, _ in app.choice.options),
    ]


def _noclear_texts(app) -> list[tuple[str, str]]:
    """Every text the Noclear app shows now: its controls, list of actions, status and
    economy lines, and the words drawn on its picture (the game's markets and seats)."""
    from matplotlib.figure import Figure

    from energies.games.noclear.draw import draw_game, plot_race

    texts = [
        *_companion_controls(app),
        ("economy", re.sub(r"<[^>]+>", "", app.economy.value)),
        *(("log", line) for line in app.game.log),
    ]
    ax = draw_game(app.game, ax=Figure().add_subplot())
    texts += [("picture", t.get_text()) for t in ax.texts if t.get_text().strip()]
    texts.append(("picture title", ax.get_title()))
    race = plot_race(app.game, ax=Figure().add_subplot(), what="switched_off")
    texts += [("race", race.get_xlabel()), ("race", race.get_ylabel())]
    return [(k, t) for k, t in texts if t]


def test_the_noclear_app_is_pseudo_translated(xa):
    """Noclear's own texts (issue 35): the machines' names and card texts, the list of actions
    with what each payment takes, the refusals, the log, the picture and the end all come
    through the catalogs; saves and ``str(action)`` stay English."""
    import matplotlib

    matplotlib.use("Agg")
    from energies.games import noclear
    from energies.games.noclear.widget import NoclearApp

    rules = noclear.NoclearRules(players=2, uranium_payment="machines", turn_limit=12)
    game = noclear.new_game(rules=rules, seed=5, names=["You", "Balanced Bo"])
    english = game.fork()
    app = NoclearApp(game, seats={0: "human", 1: "engineer"}, lang=xa)
    texts = _noclear_texts(app)
    refused = noclear.EndTurn(1)  # not this seat's turn: the engine's reason
    assert app.game.why_illegal(refused).startswith("⟦")
    app.play(refused)
    texts.append(("refusal", app.status_text))
    assert "⟦" in app.status_text
    while not app.game.is_over:  # the human buys what comes first, the Engineer answers
        app.play(app.game.legal_actions()[0])
        texts += _noclear_texts(app)
    assert app.game.outcome.reason and "⟦" in str(app.game.outcome.reason.said(xa))
    texts += _noclear_texts(app)
    left = [(k, t) for k, t in texts if set(WORD.findall(outside_brackets(t))) - ALLOWED]
    assert left == []
    assert len({k for k, _ in texts}) >= 12
    for action in app.game.actions:  # files and str(action) never depend on the language
        english.apply(action)
    assert [str(a) for a in app.game.actions] == [str(a) for a in english.actions]
    assert "⟦" not in app.game.to_json() and app.game.to_json() == english.to_json()
