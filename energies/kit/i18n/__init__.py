"""Languages: which one applies, and every text a student reads said in it.

Standard-library :mod:`gettext` at run time; the catalogs live beside this file
(``locale/<lang>/LC_MESSAGES/energies.po`` and the compiled ``.mo``, shipped as package data,
so an installed package and the JupyterLite kernel read the same files). Babel manages them
(``python tools/catalogs.py``; see ``docs/translating.md``).

Which language applies, first match wins:

1. an explicit ``lang=`` (a game, an app, a chart);
2. the kit-wide choice, :func:`set_language`;
3. the environment variable ``ENERGIES_LANG``;
4. the lesson folder: the kernel's working directory is named after a language
   (``notebooks/de``), so a translated lesson keeps code cells identical to the English one;
5. English.

Messages are whole sentences with named placeholders. Code that makes a text for the screen
calls :func:`say` / :func:`nsay`. The engine cannot know who reads its sentence, and its checks
run where speed matters, so it makes a :class:`Message`: an English string (every existing
reader keeps working) that remembers its template and values, said in another language only
when someone reads it (:func:`render`).
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "DOMAIN",
    "ENVIRONMENT_VARIABLE",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "Deferred",
    "Joined",
    "Message",
    "N_plural",
    "capital_at_start",
    "check_language",
    "get_language",
    "joined",
    "msg",
    "nmsg",
    "nsay",
    "register_language",
    "render",
    "resolve",
    "say",
    "set_language",
    "translation",
]

#: The teaching languages, English first (the default).
LANGUAGES: tuple[str, ...] = ("en", "de", "zh-Hant", "be")
DOMAIN = "energies"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")
ENVIRONMENT_VARIABLE = "ENERGIES_LANG"

# The kit-wide choice (set_language) and languages made at run time (a pseudo-locale for
# tests, a translator's preview): one process-wide setting is what the contract asks for.
_chosen: list[str | None] = [None]
_extra: dict[str, _gettext.NullTranslations] = {}


def _known() -> tuple[str, ...]:
    return LANGUAGES + tuple(_extra)


def check_language(code: object, argument: str = "lang") -> str:
    """The language ``code`` names, spelled as in :data:`LANGUAGES` ("zh_hant" -> "zh-Hant");
    a friendly ValueError naming ``argument`` and the languages otherwise."""
    if isinstance(code, str):
        wanted = code.strip().replace("_", "-").lower()
        for known in _known():
            if known.lower() == wanted:
                return known
    shown = repr(code) if not isinstance(code, str) or len(code) < 40 else repr(code[:40] + "...")
    raise ValueError(
        f"{argument} must be one of {', '.join(repr(c) for c in LANGUAGES)}, not {shown}."
    )


def set_language(code: str | None) -> None:
    """Choose the kit-wide language (``None`` goes back to the environment, folder, English)."""
    _chosen[0] = None if code is None else check_language(code, "set_language's code")


def get_language() -> str:
    """The language that applies where no ``lang=`` is given (see the module's order)."""
    return resolve(None)


def resolve(lang: str | None = None) -> str:
    """The language that applies: ``lang`` if given, else the kit-wide choice, the
    environment variable, the lesson folder, English."""
    if lang is not None:
        return check_language(lang)
    if _chosen[0] is not None:
        return _chosen[0]
    from_environment = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if from_environment:
        return check_language(from_environment, f"the environment variable {ENVIRONMENT_VARIABLE}")
    try:
        folder = Path.cwd().name
    except OSError:  # the working directory was removed under us
        return "en"
    for code in LANGUAGES:
        if folder == code:
            return code
    return "en"


def register_language(code: str, translations: _gettext.NullTranslations) -> None:
    """Make one more language available at run time (a pseudo-locale in the tests, a
    translator's preview); it is never one of the teaching :data:`LANGUAGES`."""
    if not isinstance(code, str) or not code or code.lower() in (c.lower() for c in LANGUAGES):
        raise ValueError(f"code must be a new language code, not {code!r}.")
    if not isinstance(translations, _gettext.NullTranslations):
        raise ValueError("translations must be a gettext.NullTranslations (or a subclass).")
    _extra[code] = translations


def _folder(code: str) -> str:
    return code.replace("-", "_")  # gettext's directory names: zh-Hant -> zh_Hant


@functools.cache
def _catalog(code: str) -> _gettext.NullTranslations:
    if code == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[_folder(code)])


def translation(lang: str | None = None) -> _gettext.NullTranslations:
    """The gettext catalog of the language that applies (English: the messages themselves)."""
    code = resolve(lang)
    return _extra[code] if code in _extra else _catalog(code)


def N_(message: str) -> str:
    """Mark a message for the catalogs without translating it here (it is said later)."""
    return message


#: ``replace(message)``: a text that stands for a sub-message (a seat's name for "seat 2"), or
#: None to say the message itself. Apps use it to name seats and places their own way.
Replace = Callable[["Message"], "str | None"]


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for the catalogs; said later by :func:`nmsg`/:func:`nsay`."""
    return singular, plural


def _fill(text: str, params: Mapping[str, Any], lang: str | None, replace: Replace | None) -> str:
    if not params:
        return text
    filled = text.format_map({k: render(v, lang, replace) for k, v in params.items()})
    return _capital(text, params, filled)


# Templates of sub-messages that take a capital where a sentence starts with them.
_CAPITALISED: set[str] = set()


def capital_at_start(template: str) -> str:
    """Mark ``template`` ("seat {seat}") as a phrase that takes a capital where a sentence opens
    with it ("{player} rolls" -> "Seat 2 rolls"); return it."""
    _CAPITALISED.add(template)
    return template


def _capital(template: str, params: Mapping[str, Any], filled: str) -> str:
    """A sentence that opens with a phrase marked by :func:`capital_at_start` opens with a
    capital; a name given as plain text, and any other phrase, keep their own spelling."""
    if template.startswith("{") and filled[:1].islower():
        key = template[1 : template.find("}")].partition(":")[0].partition("!")[0]
        value = params.get(key)
        if isinstance(value, Message) and value.template in _CAPITALISED:
            return filled[0].upper() + filled[1:]
    return filled


def say(message: str, lang: str | None = None, /, **params: Any) -> str:
    """``message`` in the language that applies, its ``{placeholders}`` filled from ``params``
    (a :class:`Message` among them is said in the same language)."""
    return _fill(translation(lang).gettext(message), params, lang, None)


def nsay(singular: str, plural: str, n: int, lang: str | None = None, /, **params: Any) -> str:
    """The plural form of the message that fits ``n`` in the language that applies; ``n`` is
    also a placeholder (``{n}``) unless ``params`` names it otherwise."""
    params.setdefault("n", n)
    return _fill(translation(lang).ngettext(singular, plural, n), params, lang, None)


class Message(str):
    """An English sentence that remembers its template and values (see the module).

    It is a ``str`` equal to the English text, so reading it as before needs nothing new;
    :func:`render` says it in another language. Make one with :func:`msg` or :func:`nmsg`.
    """

    template: str | None = None  # None: a Message made as a plain string is said as it is
    plural: str | None = None
    count: int | None = None
    params: Mapping[str, Any] = {}

    def __reduce__(self):  # pickles (dask, multiprocessing) as the plain English text
        return (str, (str(self),))

    def said(self, lang: str | None = None, replace: Replace | None = None) -> str:
        """This message in the language that applies (``replace``: see :data:`Replace`)."""
        if replace is not None:
            instead = replace(self)
            if instead is not None:
                return instead
        if self.template is None:
            return str(self)
        catalog = translation(lang)
        if self.plural is None:
            text = catalog.gettext(self.template)
        else:
            text = catalog.ngettext(self.template, self.plural, self.count)
        return _fill(text, self.params, lang, replace)


class Joined(Message):
    """Texts joined by a separator that needs no translation (" / " between hex names,
    " + " in a bundle of cards); each part is said in the reader's language."""

    parts: tuple = ()
    separator: str = ""

    def said(self, lang: str | None = None, replace: Replace | None = None) -> str:
        instead = replace(self) if replace is not None else None
        if instead is not None:
            return instead
        separator = str(render(self.separator, lang))  # " and " is said too
        return separator.join(str(render(p, lang, replace)) for p in self.parts)


def joined(parts, separator: str) -> Joined:
    """:class:`Joined`: ``parts`` (texts or messages) with ``separator`` between them."""
    parts = tuple(parts)
    made = str.__new__(Joined, separator.join(parts))
    made.parts, made.separator = parts, separator
    return made


def msg(template: str, /, **params: Any) -> Message:
    """A sentence said in English now and in any language later (:class:`Message`)."""
    if not params:  # a sentence without values is one message, made once
        made = _PLAIN.get(template)
        if made is None:
            made = _PLAIN[template] = _made(template, template, None, None, params)
        return made
    english = _capital(template, params, template.format_map(params))
    return _made(english, template, None, None, params)


# msg(template) without values, by template: the engine's checks say these while it lists
# the legal moves (a development card not playable yet); a message never changes.
_PLAIN: dict[str, Message] = {}


def nmsg(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """:func:`msg` with a plural form chosen by ``n`` (also the ``{n}`` placeholder)."""
    params.setdefault("n", n)
    template = singular if n == 1 else plural
    return _made(
        _capital(template, params, template.format_map(params)), singular, plural, n, params
    )


def _made(english: str, template: str, plural, count, params) -> Message:
    made = str.__new__(Message, english)
    made.template, made.plural, made.count, made.params = template, plural, count, params
    return made


class Deferred(tuple):
    """A sentence made only when it is read: ``Deferred((build, *args))`` holds a function and
    its values, and ``build(*args)`` gives the :class:`Message`.

    The engine's log takes one per roll, disc and turn; building the sentence there would
    cost more than the move itself, and most games are never read (a bot run). A tuple:
    making one costs no more than the f-string it replaces."""

    __slots__ = ()

    def sentence(self) -> Message:
        return self[0](*self[1:])

    def __str__(self) -> str:
        return str(self.sentence())

    def __repr__(self) -> str:
        return f"Deferred({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deferred):
            return str(self) == str(other)
        return str(self) == other if isinstance(other, str) else NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(str(self))

    def __copy__(self) -> Deferred:
        return self  # never changes: a forked game's log may share it

    def __deepcopy__(self, memo: dict) -> Deferred:
        return self

    def __reduce__(self):  # pickles (dask, multiprocessing) as the plain English text
        return (str, (str(self),))


def render(text: Any, lang: str | None = None, replace: Replace | None = None) -> Any:
    """``text`` said in the language that applies when it is a :class:`Message` (or a
    :class:`Deferred` one); any other value as it is."""
    if isinstance(text, Deferred):
        text = text.sentence()
    return text.said(lang, replace) if isinstance(text, Message) else text
