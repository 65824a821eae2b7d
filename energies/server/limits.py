"""What the server lets in: websocket origins, message sizes and rates, well-formed messages.

Each check answers with a sentence (the reason a client reads) or None, and changes nothing:

* :func:`origin_problem` — a browser names the page that opened a websocket (``Origin``);
  only this server's own pages (same host and port) and the origins the teacher allowed
  may open one, so another web site open in a student's browser cannot act for them.
  A client that is no browser sends no ``Origin`` and is let in: it cannot borrow anyone's
  seat, since every seat needs its own token.
* :data:`MAX_MESSAGE_CHARS` — a message longer than this is refused unread;
  :data:`MAX_FRAME_BYTES` is the hard limit handed to the websocket server, which closes a
  connection that sends a larger frame before the application reads it.
* :class:`RateLimit` — a token bucket per connection: bursts of clicks pass, a flood is
  refused message by message, and a connection that goes on flooding is closed.
* :func:`parse` — a message is one JSON object with a known ``type`` and fields of the
  right types; anything else is refused with a reason.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from ..kit.i18n import N_, msg

__all__ = [
    "MAX_FRAME_BYTES",
    "MAX_MESSAGE_CHARS",
    "RateLimit",
    "origin_problem",
    "parse",
]

MAX_MESSAGE_CHARS = 8_192  # the largest message a page sends is a click (well under 1 KB)
MAX_FRAME_BYTES = 65_536  # the websocket server closes the connection above this
RATE_PER_SECOND = 12.0  # a student clicks at most a few times a second
RATE_BURST = 40.0
FLOOD_LIMIT = 200  # refused messages in a row before the connection is closed
MAX_CLICK_TOKEN = 64  # the page's click token ("<page>:<count>")


def origin_problem(origin: str | None, host: str | None, allowed: frozenset[str]) -> str | None:
    """Why a websocket whose page came from ``origin`` may not connect to ``host``, or None."""
    if origin is None:
        return None  # not a browser: a seat still needs its token
    origin = origin.strip().lower()
    if origin in allowed:
        return None
    parts = urlsplit(origin)
    if parts.scheme in ("http", "https") and host and parts.netloc == host.strip().lower():
        return None
    return f"Pages from {origin[:80]} may not connect to this class server."


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last: float | None = None
        self.refused_in_a_row = 0

    def allow(self, now: float) -> bool:
        """Take one token at time ``now`` (seconds); False when the bucket is empty."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    @property
    def flooding(self) -> bool:
        return self.refused_in_a_row >= FLOOD_LIMIT


class BadMessage(ValueError):
    """A message the server cannot use; its text (:attr:`reason`, a message each page says in
    its language) is the reason sent back."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: Each message type a client may send, and its fields with their types (``None``: any
#: JSON value, checked where it is used: an action, which the game's codec checks).
STUDENT_FIELDS: dict[str, dict[str, Any]] = {
    "hello": {"token": str},
    "join": {"name": str, "seat": int},
    # ``decision_no``: the decision the click was made on (the page's ``view["decision_no"]``)
    "act": {"action": None, "decision_no": int},
    "propose": {"seat": int, "give": str, "get": str, "cancel": bool},
    "charts": {"open": bool},
    # the PlayApp page's own buttons that a class game does not offer (answered with why)
    "bots": {"decision_no": int},
    "step": {"decision_no": int},
    "undo": {"decision_no": int},
    "reveal": {},
    "save": {"name": str},
    "load": {"name": str},
    "upload": {"name": str, "text": str},
    "option": {"name": str, "value": None},
}
TEACHER_FIELDS: dict[str, dict[str, Any]] = {
    "hello": {"key": str},
    "pause": {},
    "resume": {},
    "start": {},
    "end_round": {},
    "next_round": {"agreement": bool, "roles": bool},
    "seat_to_bot": {"table": int, "seat": int, "bot": str},
    "free_seat": {"table": int, "seat": int},
}
# whole sentences per type (a phrase glued into a sentence would not translate)
_MUST_BE = {
    str: N_("The field {field} of a {kind} message must be a text."),
    int: N_("The field {field} of a {kind} message must be a whole number."),
    bool: N_("The field {field} of a {kind} message must be true or false."),
}


def parse(text: Any, fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The message ``text`` as a dict, checked against ``fields`` (:class:`BadMessage` if not).

    ``id`` (a whole number) may come with any message: the acknowledgement carries it back;
    and ``click`` (a short text), the PlayApp page's token of a click, which the server sends
    back as ``answered`` once the click is handled (the page's "Working…" note ends then).
    """
    if not isinstance(text, str):
        raise BadMessage(msg(N_("Messages are JSON text, not binary data.")))
    if len(text) > MAX_MESSAGE_CHARS:
        raise BadMessage(
            msg(N_("A message has at most {most} characters."), most=f"{MAX_MESSAGE_CHARS:,}")
        )
    try:
        message = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadMessage(msg(N_("A message must be one JSON object."))) from None
    if not isinstance(message, dict):
        raise BadMessage(msg(N_("A message must be one JSON object.")))
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in fields:
        shown = kind if isinstance(kind, str) else type(kind).__name__
        raise BadMessage(msg(N_("Unknown message type {kind}."), kind=repr(shown[:40])))
    known = fields[kind]
    for name, value in message.items():
        if name in ("type", "id", "click"):
            continue
        if name not in known:
            raise BadMessage(
                msg(
                    N_("A {kind} message has no field {field}."),
                    kind=repr(kind),
                    field=repr(name[:40]),
                )
            )
        wanted = known[name]
        if wanted is not None and not _is(value, wanted):
            raise BadMessage(msg(_MUST_BE[wanted], field=repr(name), kind=repr(kind)))
    if "id" in message and not _is(message["id"], int):
        raise BadMessage(msg(N_("The field 'id' must be a whole number.")))
    click = message.get("click")
    if click is not None and not (isinstance(click, str) and len(click) <= MAX_CLICK_TOKEN):
        raise BadMessage(
            msg(
                N_("The field 'click' must be a text of at most {most} characters."),
                most=MAX_CLICK_TOKEN,
            )
        )
    return message


def _is(value: Any, kind: type) -> bool:
    if kind is int:  # true is no seat number; a huge number is no id either
        return type(value) is int and abs(value) < 2**53
    return type(value) is kind


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python reads them, JSON has none
