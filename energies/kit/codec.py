"""The action codec: a game's frozen action dataclasses as JSON dicts and back, shapes checked.

Save files hold actions by kind (``{"kind": "keep", "seat": 0}``), never by module path, so
a file outlives a reorganised package. :class:`Codec` is what the shell needs of any codec;
:class:`ActionCodec` is the one the companion games use. :func:`check_action_type` is the
first step of a game's ``why_illegal``: an object that is not one of the game's actions, or
whose numbers only equal whole numbers, gets a sentence instead of a crash deep in the engine.
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import Any, Protocol

from .fields import plain

__all__ = ["ActionCodec", "Codec", "check_action_type"]


class Codec(Protocol):
    """Turns a game's actions into JSON-able dicts and back (ValueError for a bad dict)."""

    def to_dict(self, action: Any) -> dict[str, Any]: ...
    def from_dict(self, data: Any) -> Any: ...


class ActionCodec:
    """Turns a game's frozen action dataclasses into JSON dicts and back, checking shapes."""

    def __init__(self, *classes: type) -> None:
        self.classes = {cls.kind: cls for cls in classes}

    def to_dict(self, action) -> dict[str, Any]:
        return {
            "kind": action.kind,
            **{k: plain(v) for k, v in dataclasses.asdict(action).items()},
        }

    def from_dict(self, data: Any):
        if not isinstance(data, dict) or data.get("kind") not in self.classes:
            raise ValueError(f"unknown action {str(data)[:60]!r}")
        cls = self.classes[data["kind"]]
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k != "kind"}
        if set(values) != set(fields):
            raise ValueError(f"a {data['kind']} action needs exactly {', '.join(fields)}")
        return cls(**{k: _frozen(v) for k, v in values.items()})


def _frozen(value: Any, depth: int = 0) -> Any:
    """JSON lists back to (nested) tuples; anything deeper than a few levels is refused."""
    if depth > 4:
        raise ValueError("an action is nested too deeply")
    if isinstance(value, list):
        return tuple(_frozen(v, depth + 1) for v in value)
    if isinstance(value, (int, str, type(None))):
        return value
    raise ValueError(f"an action field holds {type(value).__name__}")


def check_action_type(action: Any, codec: ActionCodec, game: str) -> str | None:
    """A reason when ``action`` is not one of the game's action objects, else None."""
    if not isinstance(action, tuple(codec.classes.values())):
        return f"That is not a {game} action: choose one from legal_actions()."
    for field in dataclasses.fields(action):
        loose = _inexact_number(getattr(action, field.name))
        if loose is not None:
            # True, 1.0 and numpy.int64(1) compare equal to 1, so such an action would match
            # a listed one; applying it indexes lists with a float or writes a save file that
            # JSON cannot hold or cannot read back.
            return (
                f"The {field.name} of an action holds whole numbers (int), "
                f"not {type(loose).__name__} {loose!r}."
            )
    return None


def _inexact_number(value: Any, depth: int = 0) -> Any:
    """The first number in an action field that is not a plain int (a bool, float, NumPy int)."""
    if isinstance(value, tuple) and depth < 3:
        for item in value:
            loose = _inexact_number(item, depth + 1)
            if loose is not None:
                return loose
        return None
    if isinstance(value, numbers.Number) and type(value) is not int:
        return value
    return None
