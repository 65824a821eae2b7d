"""The fields of actions as plain JSON, and the shape check every action passes first.

:func:`action_to_dict` and :func:`checked_fields` (behind
:func:`energies.actions.action_from_dict`) carry actions through save files and the play
app's messages; :func:`field_problem` (``why_illegal``'s first step) refuses an action whose
fields have the wrong types or sizes, so a hand-made ``BuildRoad(0, [5])`` or a hostile file
gets a reason instead of a crash deep inside the engine. Both work on any action dataclass;
:mod:`energies.actions` imports them from here and offers them under its own name too.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ...kit.fields import show


def action_to_dict(action: Any) -> dict[str, Any]:
    """Plain JSON-able dict: ``{"kind": ..., "seat": ..., <fields>}``."""
    out: dict[str, Any] = {"kind": action.kind}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        out[f.name] = (
            [list(v) if isinstance(v, tuple) else v for v in value]
            if isinstance(value, tuple)
            else value
        )
    return out


_MAX_INT = 10**6


def _check_value(type_name: str, value: Any, where: str) -> Any:
    if type_name == "int":
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > _MAX_INT:
            raise ValueError(f"{where} must be a whole number")
        return value
    if type_name == "str":
        if not isinstance(value, str) or len(value) > 64:
            raise ValueError(f"{where} must be a short text")
        return value
    if type_name == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{where} must be true or false")
        return value
    if type_name == "Goods":
        if not isinstance(value, (list, tuple)) or len(value) > 16:
            raise ValueError(f"{where} must be a list of [kind, count] pairs")
        pairs = []
        for item in value:
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise ValueError(f"{where} must be a list of [kind, count] pairs")
            pairs.append((_check_value("str", item[0], where), _check_value("int", item[1], where)))
        return tuple(pairs)
    # sandbox arguments: a short list of numbers and words
    if not isinstance(value, (list, tuple)) or len(value) > 16:
        raise ValueError(f"{where} must be a short list")
    return tuple(_check_value("int" if isinstance(v, int) else "str", v, where) for v in value)


def _type_name(f: dataclasses.Field) -> str:
    if f.name == "args":
        return "args"
    return f.type if isinstance(f.type, str) else f.type.__name__


def field_problem(action: Any) -> str | None:
    """Why an action's fields have the wrong types or sizes (None when they are fine).

    Checked before any rule, so a hand-made action such as ``BuildRoad(0, [5])``
    is refused with a reason instead of crashing deep inside the engine.
    """
    for name, type_name in _field_types(type(action)):
        try:
            _check_value(type_name, getattr(action, name), f"{action.kind}.{name}")
        except ValueError as exc:
            return str(exc)
    return None


@functools.cache
def _field_types(cls: type) -> tuple[tuple[str, str], ...]:
    # looked up once per action class: field_problem runs on every apply
    return tuple((f.name, _type_name(f)) for f in dataclasses.fields(cls))


def checked_fields(cls: type, data: dict, kind: str) -> dict[str, Any]:
    """The fields of a ``kind`` action of class ``cls`` from ``data`` (its
    :func:`action_to_dict`), checked; ValueError names the first wrong one."""
    names = {f.name: f for f in dataclasses.fields(cls)}
    if len(data) > len(names) + 1:
        raise ValueError(f"a {kind} action has {len(data)} fields, more than it can have")
    extra = sorted(set(data) - set(names) - {"kind"})
    if extra:
        # shown shortened: a hostile file's field name may be megabytes long
        raise ValueError(f"a {kind} action has no field {', '.join(map(show, extra))}")
    values = {}
    for name, f in names.items():
        if name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise ValueError(f"a {kind} action needs a {name}")
        values[name] = _check_value(_type_name(f), data[name], f"{kind}.{name}")
    return values
