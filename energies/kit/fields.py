"""Checks for RuleSet fields: one small spec object per field, so a new field slots in.

Every spec turns a value into its canonical form (JSON lists become tuples) or
says in one sentence what is wrong with it, naming the field. The bounds are
what a published or classroom-experimental game can use; they also bound the
work any rule set can cause (discs, decks and boards are built only after every
field has passed), so a rule set read from a file can never hang a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class RuleError(ValueError):
    """A rule set that cannot be played; ``fields`` names every field at fault."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = tuple(problems)
        self.fields = tuple(dict.fromkeys(name for name, _ in self.problems))
        sentences = "; ".join(sentence for _, sentence in self.problems)
        super().__init__(f"This rule set cannot be played: {sentences}.")

    @property
    def field(self) -> str:
        """The first field at fault."""
        return self.fields[0]


def show(value: Any) -> str:
    """A short, always printable form of any value for an error message."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a huge int (repr limit) or an object whose repr fails
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Problem(Exception):
    """Raised inside a spec; the sentence already names the field."""


@dataclass(frozen=True)
class Count:
    """A whole number from ``low`` to ``high``."""

    low: int
    high: int

    def normalise(self, name: str, value: Any) -> int:
        if not _whole(value) or not self.low <= value <= self.high:
            raise Problem(
                f"{name} must be a whole number from {self.low} to {self.high}, not {show(value)}"
            )
        return value


@dataclass(frozen=True)
class Flag:
    """True or False."""

    def normalise(self, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise Problem(f"{name} must be True or False, not {show(value)}")
        return value


@dataclass(frozen=True)
class Choice:
    """One of a few words (or numbers)."""

    options: tuple[Any, ...]

    def normalise(self, name: str, value: Any) -> Any:
        if not any(type(value) is type(o) and value == o for o in self.options):
            words = " or ".join(repr(o) for o in self.options)
            raise Problem(f"{name} must be {words}, not {show(value)}")
        return value


@dataclass(frozen=True)
class Text:
    """Any short text (the fallback for a text field without its own spec)."""

    def normalise(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or len(value) > 40:
            raise Problem(f"{name} must be a short text, not {show(value)}")
        return value


def _sequence(name: str, value: Any, longest: int) -> tuple:
    if not isinstance(value, (list, tuple)):
        raise Problem(f"{name} must be a list, not {show(value)}")
    if len(value) > longest:
        raise Problem(f"{name} has {len(value)} entries, more than {longest}")
    return tuple(value)


@dataclass(frozen=True)
class Tally:
    """``(kind, count)`` pairs: known kinds, each at most once, bounded counts and total.

    ``every``: each kind must be listed (event rows).
    """

    kinds: tuple[str, ...]
    low: int
    high: int
    total: int
    every: bool = False

    def normalise(self, name: str, value: Any) -> tuple[tuple[str, int], ...]:
        pairs = []
        for item in _sequence(name, value, len(self.kinds)):
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise Problem(f"{name} must hold (kind, count) pairs, not {show(item)}")
            kind, count = item
            if not isinstance(kind, str) or kind not in self.kinds:
                raise Problem(
                    f"{name} names {show(kind)}, which is not one of {', '.join(self.kinds)}"
                )
            if any(kind == k for k, _ in pairs):
                raise Problem(f"{name} lists {kind} twice")
            Count(self.low, self.high).normalise(f"the {kind} count of {name}", count)
            pairs.append((kind, count))
        if self.every:
            missing = [k for k in self.kinds if all(k != p for p, _ in pairs)]
            if missing:
                raise Problem(f"{name} lacks {', '.join(missing)}")
        total = sum(n for _, n in pairs)
        if total > self.total:
            raise Problem(f"{name} adds up to {total}, more than {self.total}")
        return tuple(pairs)


@dataclass(frozen=True)
class Records:
    """A list of fixed-length records whose columns have their own specs."""

    columns: tuple[Any, ...]  # one spec per column
    longest: int
    shortest: int = 0

    def normalise(self, name: str, value: Any) -> tuple[tuple[Any, ...], ...]:
        records = _sequence(name, value, self.longest)
        if len(records) < self.shortest:
            raise Problem(f"{name} needs at least {self.shortest} entries")
        out = []
        for item in records:
            if not (isinstance(item, (list, tuple)) and len(item) == len(self.columns)):
                raise Problem(
                    f"every entry of {name} has {len(self.columns)} values, not {show(item)}"
                )
            out.append(
                tuple(c.normalise(f"an entry of {name}", v) for c, v in zip(self.columns, item))
            )
        return tuple(out)


def fallback(default: Any) -> Any:
    """A spec for a field that has no entry in the table, from its default's type."""
    if isinstance(default, bool):
        return Flag()
    if isinstance(default, int):
        return Count(-1000, 1000)
    if isinstance(default, str):
        return Text()
    return None


def check_fields(values: dict[str, Any], specs: dict[str, Any]) -> tuple[dict, list]:
    """Canonical values and the ``(field, sentence)`` problems of every field."""
    canonical, problems = {}, []
    for name, value in values.items():
        spec = specs.get(name)
        if spec is None:
            continue
        try:
            canonical[name] = spec.normalise(name, value)
        except Problem as exc:
            problems.append((name, str(exc)))
    return canonical, problems


def plain(value: Any) -> Any:
    """A field's value as JSON holds it: tuples (nested ones too) become lists (save files,
    rules' ``to_dict``); the specs above turn them back."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value
