"""The teacher's console: every table of the class at a glance, as data a page draws.

:func:`console_state` is what the console page (``static/console.js``) and the notebook
widget (:class:`energies.server.ConsoleWidget`) draw: the class (round, written agreement,
paused), and per table its join code and link, status, turn, GF, the bag, each seat's
student or bot with LF, plants, cards and the public score, the last events and the
outcome. Only public facts: the console is made to be shown on a projector. Its texts are
in the console's language (``lang``); its words are sent beside it
(:data:`energies.server.pages.CONSOLE_WORDS`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..kit.i18n import N_, render
from ..viz import seat_color
from .room import Room, Table

EVENT_LINES = 3


@functools.lru_cache(maxsize=256)
def qr_svg(link: str) -> str:
    """The join link as a QR code (an SVG element) for phones and tablets (segno)."""
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, nl=False
    )
    return buffer.getvalue().decode("ascii")


def join_link(base_url: str, table: Table) -> str:
    return f"{base_url.rstrip('/')}/t/{table.code}"


def console_state(
    room: Room, base_url: str, words: Callable[[Table], Any], lang: str | None = None
) -> dict[str, Any]:
    """The whole class as the console draws it (see the module text); ``words(table)`` gives
    a table's :class:`~energies.server.seatpage.TableWords` in ``lang`` (its names, its
    spoken log)."""
    return {
        "class": room.name,
        "round": room.round,
        "agreement": room.agreement,
        "roles": room.roles,
        "paused": room.paused,
        "bot_delay": room.bot_delay,
        "join": base_url.rstrip("/") + "/",
        "tables": [table_state(room, t, base_url, words, lang) for t in room.tables.values()],
    }


def table_state(
    room: Room, table: Table, base_url: str, words, lang: str | None = None
) -> dict[str, Any]:
    game = table.game
    state: dict[str, Any] = {
        "number": table.number,
        "code": table.code,
        "link": join_link(base_url, table),
        "status": table.status,
        "round": table.round or room.round,
        "seed": table.seed,
        "seats": [],
        "moves": 0,
    }
    if game is None:
        state["seats"] = [
            {
                "seat": s.seat,
                "name": s.name or "",
                "who": str(render(s.who(), lang)),
                "online": bool(s.online),
                "student": s.student,
                "color": seat_color(s.seat),
            }
            for s in table.seats
        ]
        return state
    spoken = words(table)
    # an event's line opens with "Event: " in the console's language
    event = spoken.words.say(N_("Event: {event} — {effect}")).split("{event}")[0]
    # any seat's view shows the others' public score; the first seat's own is asked of the second
    views = [game.view(0), game.view(1 % len(table.seats))]
    rules = game.rules
    over = game.is_over
    state.update(
        {
            "moves": len(game.actions),
            "turn": game.turn,
            "active": game.active_seat,
            "deciding": game.current_seat,
            "gf": game.global_footprint,
            "gf_max": rules.gf_max,
            "discs": 0 if over else rules.discs_to_draw(game.global_footprint),
            "bag": len(views[0].bag),
            "events": [line for line in spoken.log() if line.startswith(event)][-EVENT_LINES:],
            "outcome": spoken.words.speak(game.outcome.reason) if over else "",
            "outcome_kind": game.outcome.kind if over else "",
            "winners": [game.names[s] for s in game.outcome.winners] if over else [],
        }
    )
    for entry in table.seats:
        seat = entry.seat
        view = views[1] if seat == 0 else views[0]
        p = view.players[seat]
        state["seats"].append(
            {
                "seat": seat,
                "name": game.names[seat],
                "who": str(render(entry.who(), lang)),
                "online": bool(entry.online),
                "student": entry.student,
                "color": seat_color(seat),
                "lf": view.local_footprint(seat),
                "fossil": p.count_plants("fossil"),
                "renewable": p.count_plants("renewable"),
                "vp": view.victory_points(seat),
                "cards": p.cards,
                "energy": p.energy,
            }
        )
    return state
