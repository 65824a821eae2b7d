"""What every game's rules object shares: listing its house defaults, describing itself, and
the mixin the companion games' frozen rules dataclasses build on (variants, JSON, validation).

A rules file tags each rule [R] (published) or [H] (house default: the published value could
not be confirmed); every [H] value is a field of the game's rules object, and
:func:`house_defaults` lists them with their rule numbers so lessons can show which rules
are assumptions. New Energies' :class:`~energies.newenergies.rules.RuleSet` and the
companions' :class:`CompanionRules` both list and describe themselves through here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .fields import plain

__all__ = ["CompanionRules", "HouseDefault", "describe", "house_defaults", "rule_order"]


@dataclass(frozen=True)
class HouseDefault:
    """One house default: the field holding it, its value, the rule and why."""

    field: str | None  # None for a reading that has no sensible alternative value
    value: Any
    rule: str
    note: str

    def __str__(self) -> str:
        if self.field is None:
            return f"rule {self.rule}: {self.note}"
        return f"rule {self.rule}: {self.field} = {self.value!r} — {self.note}"


def rule_order(rule: str) -> tuple[tuple[int, str], ...]:
    """Sort key of a rule number: "8.5" < "8.5a" < "8.6" < "14.2" < "14.2a"."""
    return tuple((int(part.rstrip("abcdefghijklmnopqrstuvwxyz")), part) for part in rule.split("."))


def house_defaults(
    rules: Any,
    notes: Mapping[str, tuple[str, str]],
    readings: Sequence[tuple[str, str]] = (),
) -> tuple[HouseDefault, ...]:
    """The house defaults of ``rules`` in rule order: each field of ``notes`` (field ->
    (rule, why)) with its value, and each reading ((rule, why): no alternative value)."""
    fields = [HouseDefault(n, getattr(rules, n), r, note) for n, (r, note) in notes.items()]
    listed = [HouseDefault(None, None, r, note) for r, note in readings]
    return tuple(sorted(fields + listed, key=lambda h: rule_order(h.rule)))


def describe(
    rules: Any,
    notes: Mapping[str, tuple[str, str]],
    readings: Sequence[tuple[str, str]] = (),
) -> str:
    """Every field of ``rules`` with its value, house defaults marked with [H] and their rule,
    then the house readings that are not fields."""
    lines = []
    for f in dataclasses.fields(rules):
        mark = f"  [H, rule {notes[f.name][0]}]" if f.name in notes else ""
        lines.append(f"{f.name} = {getattr(rules, f.name)!r}{mark}")
    lines += [f"[H, rule {r}] {note}" for r, note in readings]
    return "\n".join(lines)


class CompanionRules:
    """Mixin for a frozen rules dataclass: variants, JSON, house defaults, validation.

    A subclass sets ``HOUSE`` (field -> (rule number, why)) and ``READINGS``
    ((rule number, reading) pairs with no alternative value), and implements
    ``problems()``.
    """

    HOUSE: ClassVar[dict[str, tuple[str, str]]] = {}
    READINGS: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __post_init__(self) -> None:
        problems = self.type_problems() or self.problems()
        if problems:
            raise ValueError(f"Unplayable {type(self).__name__}: " + "; ".join(problems) + ".")

    def type_problems(self) -> list[str]:
        """A field whose value is not of its default's kind, checked as a save file's would be.

        The games' own checks and their arithmetic assume it: a string item value crashed
        scoring, a list made the rules unhashable, "no" read as true.
        """
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(f.default, tuple) and not isinstance(value, tuple):
                return [f"rule field {f.name} must be a tuple"]
            try:
                _typed_like(f.default, plain(value), f.name)
            except ValueError as exc:
                return [str(exc)]
        return []

    def problems(self) -> list[str]:  # pragma: no cover - every subclass overrides it
        return []

    def replace(self, **changes: Any):
        """A copy with some fields changed (validated like a new rules object)."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise ValueError(f"{type(self).__name__} has no field {', '.join(unknown)}.")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict (tuples become lists)."""
        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Any):
        """Rebuild from :meth:`to_dict` output, with a clear error for bad input."""
        if not isinstance(data, dict):
            raise ValueError("the rules must be a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule field(s): {', '.join(unknown)}")
        defaults = cls()
        values = {name: _typed_like(getattr(defaults, name), v, name) for name, v in data.items()}
        return cls(**values)

    def house_defaults(self) -> tuple[HouseDefault, ...]:
        """The house defaults ([H] rules) with this rules object's values, in rule order."""
        return house_defaults(self, self.HOUSE, self.READINGS)

    def describe(self) -> str:
        """Every field with its value; house defaults marked with [H] and their rule."""
        return describe(self, self.HOUSE, self.READINGS)


def _typed_like(default: Any, value: Any, name: str) -> Any:
    """A JSON value turned back into the shape of the field's default, its type checked."""
    if isinstance(default, (bool, str)):
        if type(value) is not type(default):
            raise ValueError(
                f"rule field {name} must be {'true or false' if isinstance(default, bool) else 'text'}"
            )
        return value
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 10**6:
            raise ValueError(
                f"rule field {name} must be a whole number from -1,000,000 to 1,000,000"
            )
        return value
    if isinstance(default, tuple) and default:
        if not isinstance(value, list) or len(value) > 100:
            raise ValueError(f"rule field {name} must be a list")
        return tuple(_typed_like(default[0], v, name) for v in value)
    raise ValueError(f"rule field {name} has an unsupported value")
