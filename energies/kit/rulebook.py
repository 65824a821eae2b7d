"""The rules objects of the companion games: a mixin for their frozen rules dataclasses
(variants, JSON, house defaults, validation); :mod:`energies.games.base` offers it too."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from ..newenergies.rules.house import HouseDefault
from ..newenergies.rules import _plain


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
                _typed_like(f.default, _plain(value), f.name)
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
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

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
        fields = [HouseDefault(n, getattr(self, n), r, note) for n, (r, note) in self.HOUSE.items()]
        readings = [HouseDefault(None, None, r, note) for r, note in self.READINGS]
        return tuple(sorted(fields + readings, key=lambda h: [int(x) for x in h.rule.split(".")]))

    def describe(self) -> str:
        """Every field with its value; house defaults marked with [H] and their rule."""
        lines = []
        for f in dataclasses.fields(self):
            mark = f"  [H, rule {self.HOUSE[f.name][0]}]" if f.name in self.HOUSE else ""
            lines.append(f"{f.name} = {getattr(self, f.name)!r}{mark}")
        return "\n".join(lines)


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
