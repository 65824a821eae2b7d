"""Languages (issue 35): which language applies, and messages said in it.

The order of the contract (docs/translating.md), first match wins: an explicit ``lang=`` ->
``set_language`` -> ``ENERGIES_LANG`` -> the lesson folder -> English.
"""

from __future__ import annotations

import gettext
import pickle
import re

import pytest

import energies as en
from energies.kit import i18n
from energies.newenergies.actions import BuildCity, BuildTown


@pytest.fixture(autouse=True)
def _english_process(monkeypatch, tmp_path):
    """Each test starts with no kit-wide choice, no environment variable, a neutral folder."""
    monkeypatch.delenv(i18n.ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    i18n.set_language(None)
    yield
    i18n.set_language(None)


def test_the_facade_names_the_four_languages():
    assert en.LANGUAGES == ("en", "de", "zh-Hant", "be")
    assert en.set_language is i18n.set_language and en.get_language is i18n.get_language


def test_english_is_the_default():
    assert en.get_language() == "en"


def test_the_lesson_folder_applies_when_nothing_else_does(tmp_path, monkeypatch):
    for code in ("de", "zh-Hant", "be"):
        folder = tmp_path / "notebooks" / code
        folder.mkdir(parents=True)
        monkeypatch.chdir(folder)
        assert en.get_language() == code
    monkeypatch.chdir(tmp_path / "notebooks")
    assert en.get_language() == "en"


def test_the_environment_variable_beats_the_folder(tmp_path, monkeypatch):
    (tmp_path / "de").mkdir()
    monkeypatch.chdir(tmp_path / "de")
    monkeypatch.setenv("ENERGIES_LANG", "zh_hant")  # spelled loosely on purpose
    assert en.get_language() == "zh-Hant"


def test_set_language_beats_the_environment_and_none_goes_back(monkeypatch):
    monkeypatch.setenv("ENERGIES_LANG", "de")
    en.set_language("be")
    assert en.get_language() == "be"
    en.set_language(None)
    assert en.get_language() == "de"


def test_an_explicit_lang_beats_everything(monkeypatch):
    monkeypatch.setenv("ENERGIES_LANG", "de")
    en.set_language("be")
    assert i18n.resolve("zh-Hant") == "zh-Hant"
    assert i18n.resolve(None) == "be"


@pytest.mark.parametrize("bad", ["fr", "", "english", None, 3])
def test_unknown_codes_are_a_friendly_error_naming_the_four(bad):
    with pytest.raises(ValueError, match="'en', 'de', 'zh-Hant', 'be'"):
        en.set_language(bad) if bad is not None else i18n.check_language(bad)
    assert en.get_language() == "en"  # nothing changed


def test_a_bad_environment_variable_names_itself(monkeypatch):
    monkeypatch.setenv("ENERGIES_LANG", "klingon")
    with pytest.raises(ValueError, match="ENERGIES_LANG"):
        en.get_language()


def test_every_language_has_a_catalog_gettext_can_read():
    for code in en.LANGUAGES:
        assert isinstance(i18n.translation(code), gettext.NullTranslations)
    assert i18n.translation("de").info()["language"] == "de"


def test_plural_forms_follow_each_language():
    """be has three forms (1, 2-4, 5+), zh-Hant one, de and en two."""
    assert i18n.translation("be").plural(1) == 0
    assert i18n.translation("be").plural(3) == 1
    assert i18n.translation("be").plural(5) == 2
    assert i18n.translation("be").plural(21) == 0
    assert {i18n.translation("zh-Hant").plural(n) for n in (1, 2, 5)} == {0}
    assert [i18n.translation("de").plural(n) for n in (1, 2)] == [0, 1]


class _Shouting(gettext.NullTranslations):
    def gettext(self, message):
        return message.upper().replace("{N}", "{n}").replace("{WHAT}", "{what}")

    def ngettext(self, singular, plural, n):
        return self.gettext(singular if n == 1 else plural)


def test_a_message_is_english_now_and_said_later():
    i18n._extra.pop("en-XS", None)
    i18n.register_language("en-XS", _Shouting())
    try:
        inner = i18n.msg(i18n.capital_at_start("a road"))
        message = i18n.nmsg("{what} costs {n} brick", "{what} costs {n} bricks", 2, what=inner)
        assert message == "A road costs 2 bricks" and isinstance(message, str)
        assert i18n.render(message, "en-XS") == "A ROAD COSTS 2 BRICKS"
        assert i18n.render("plain text", "en-XS") == "plain text"
        en.set_language("en-XS")
        assert i18n.render(message) == "A ROAD COSTS 2 BRICKS"
        assert pickle.loads(pickle.dumps(message)) == "A road costs 2 bricks"
    finally:
        en.set_language(None)
        i18n._extra.pop("en-XS", None)


# -- a whole game in German -------------------------------------------------------------------

ENGLISH_WORDS = re.compile(
    r"\b(builds|rolls?|rolled|ends the turn|supply|the turn|plant|seat|discards|takes|"
    r"declines|Event|disc drawn|Game over|costs|you have|You)\b"
)


def _bot_game(lang):
    game = en.new_game(players=4, seed=11, lang=lang)
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    return game


def test_a_bot_game_speaks_german_and_saves_the_same_file():
    english, german = _bot_game(None), _bot_game("de")
    assert german.to_json() == english.to_json()  # the same bytes: no language in a file
    assert german.digest() == english.digest()
    assert [str(a) for a in german.actions] == [str(a) for a in english.actions]  # English
    log = german.log
    assert len(log) == len(english.log) > 100
    left = [line for line in log if ENGLISH_WORDS.search(line)]
    assert left == []
    assert any(line.startswith("— Zug ") for line in log)
    assert any("gewürfelt" in line for line in log)
    assert german.outcome.kind == english.outcome.kind


def _refused(game):
    """A few actions the position refuses, each for a different reason."""
    seat = game.current_seat
    other = (seat + 1) % game.rules.players
    return [
        BuildTown(other, 0),  # not their move
        BuildCity(seat, 0),  # the set-up asks for a town first
        BuildTown(seat, 999),  # no such corner
    ]


def test_illegal_actions_are_refused_in_german():
    english = en.new_game(players=4, seed=3, start="draft")
    german = en.new_game(players=4, seed=3, start="draft", lang="de")
    reasons = []
    for action in _refused(german):
        said, plain = german.why_illegal(action), english.why_illegal(action)
        assert said and plain and said != plain
        assert not ENGLISH_WORDS.search(said), said
        with pytest.raises(en.IllegalActionError) as refused:
            german.apply(action)
        assert refused.value.reason == said and str(refused.value) == said
        reasons.append(said)
    assert len(set(reasons)) == len(reasons)
    assert german.digest() == english.digest()  # nothing changed


def test_set_language_reaches_a_game_made_without_lang():
    game = en.new_game(players=4, seed=3, start="draft")
    action = BuildTown((game.current_seat + 1) % 4, 0)
    english = game.why_illegal(action)
    en.set_language("zh-Hant")
    assert game.why_illegal(action) != english and "座位" in game.why_illegal(action)
    game.lang = "be"  # the game's own language beats the kit-wide one
    assert "месца" in game.why_illegal(action).lower()
    with pytest.raises(ValueError, match="'en', 'de', 'zh-Hant', 'be'"):
        game.lang = "fr"
    assert game.lang == "be"


def test_str_of_an_action_stays_english_whatever_the_language():
    en.set_language("de")
    action = BuildTown(2, 5)
    assert str(action) == "Seat 2 builds a town on corner 5"
    assert action.describe() == "Platz 2 baut eine Siedlung auf Ecke 5"
    assert action.describe(lang="en") == str(action)


def test_the_charts_speak_the_game_s_language_and_have_the_glyphs():
    """A Chinese game's footprint chart: Chinese title, axes and legend, every glyph in a font
    (matplotlib warns "Glyph ... missing from font(s)" when none has it; fonts-noto-cjk)."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    from energies.widgets.common import footprint_png

    game = en.new_game(players=4, seed=5, lang="zh-Hant")
    en.play(game, [en.bots.RandomBot(seed=s) for s in range(4)])
    ax = en.viz.plot_footprint(game)
    texts = [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
    texts += [t.get_text() for t in ax.get_legend().get_texts()]
    assert "污染值" in ax.get_title() and ax.get_xlabel() == "回合"  # the source's 污染
    assert any("全球污染值" in t for t in texts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph is a warning: make it fail
        assert footprint_png(game)[:4] == b"\x89PNG"
    assert "Fußabdruck" in en.viz.plot_footprint(game, lang="de").get_title()  # lang= wins


def test_chinese_charts_find_a_font_installed_after_matplotlib_cached_its_list(monkeypatch):
    # a school machine that drew charts before fonts-noto-cjk was installed: matplotlib's
    # cached font list lacks the CJK fonts, and chart_fonts must still find them
    import matplotlib
    from matplotlib import font_manager

    from energies.viz.style import CJK_FONTS, chart_fonts

    manager = font_manager.fontManager
    monkeypatch.setattr(manager, "ttflist", [f for f in manager.ttflist if "CJK" not in f.name])
    monkeypatch.setitem(matplotlib.rcParams, "font.family", ["sans-serif"])
    chart_fonts("zh-Hant")
    assert any(name in matplotlib.rcParams["font.family"] for name in CJK_FONTS)


def test_the_teacher_sandbox_refuses_in_the_game_s_language():
    """A refused sandbox edit (issue 35) says why in the game's language and changes nothing;
    the English reasons stay what they were (capital, plural and piece words included)."""
    english = en.new_game(players=4, seed=3)
    german = en.new_game(players=4, seed=3, lang="de")
    edits = [
        lambda g: en.sandbox.give(g, 0, steel=300),
        lambda g: en.sandbox.take(g, 1, food=9),
        lambda g: en.sandbox.place(g, 0, "city", 999),
        lambda g: en.sandbox.remove(g, "city", 3),
        lambda g: en.sandbox.fix_dice(g, 0, 7),
        lambda g: en.sandbox.add_hazard(g, building=4),
    ]
    said = []
    for edit in edits:
        with pytest.raises(en.IllegalActionError) as plain:
            edit(english)
        with pytest.raises(en.IllegalActionError) as refused:
            edit(german)
        assert str(refused.value) != str(plain.value)
        assert not ENGLISH_WORDS.search(str(refused.value)), refused.value
        said.append(str(refused.value))
    assert len(set(said)) == len(said)
    assert german.digest() == english.digest()  # nothing changed
    with pytest.raises(en.IllegalActionError, match=r"^Seat 1 holds only 0 food\.$"):
        en.sandbox.take(english, 1, food=9)
    with pytest.raises(en.IllegalActionError, match=r"^There is no city there\.$"):
        en.sandbox.remove(english, "city", 3)


def test_a_noclear_game_speaks_german_and_saves_the_same_file():
    """Noclear's own texts (issue 35): its log, reasons and ending in the game's language; its
    save file, digest and ``str(action)`` the same as in English."""
    from energies.games import noclear

    def played(lang):
        game = noclear.new_game(players=3, seed=11, lang=lang)
        bots = [noclear.make_bot("engineer", seed=s) for s in range(3)]
        en.play(game, bots)
        return game

    english, german = played(None), played("de")
    assert german.to_json() == english.to_json() and german.digest() == english.digest()
    assert [str(a) for a in german.actions] == [str(a) for a in english.actions]
    assert len(german.log) == len(english.log) > 30
    assert [line for line in german.log if ENGLISH_WORDS.search(line)] == []
    assert german.log[1].startswith("Zug 1, Platz ")
    assert german.log[-1] == german.outcome.reason.said("de") != english.log[-1]
    fresh = noclear.new_game(players=3, seed=11, lang="de")
    other = (fresh.current_seat + 1) % 3
    refused = fresh.why_illegal(noclear.EndTurn(other))
    assert refused.startswith("Platz ") and not ENGLISH_WORDS.search(refused), refused


def test_a_refused_player_name_is_said_in_the_reader_s_language():
    # the kit's one name check (kit.text.name_problem) serves every game, app and the class
    # server's join page, so its reasons are messages too
    from energies.kit.text import name_problem

    blank, hidden = name_problem("   "), name_problem("\u200b\u2060")
    assert blank == "A player name cannot be only spaces."  # English as a str, as before
    assert blank.said("de") == "Ein Spielername darf nicht nur aus Leerzeichen bestehen."
    assert blank.said("zh-Hant") == "玩家名稱不能只有空格。"
    assert "\\u200b\\u2060" in hidden.said("be") and "нябачныя" in hidden.said("be")
    assert name_problem("x" * 81).said("de").startswith("Spielernamen müssen Texte mit 1 bis 80")
    assert name_problem("Ana") is None
