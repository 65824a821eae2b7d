"""Who is connected, what each message does, and who is told what after a change.

The :class:`Hub` sits between the websockets (:mod:`energies.server.web`) and the class
(:class:`~energies.server.room.Room`). A connection is a student's page (first in the lobby
of its table, then seated with a seat token) or a teacher's console (after the teacher's
key). Each message is handled to its end before the next one, on the server's one event
loop: the class changes, the change is committed, the pages that changed are built and
queued, and then the sender gets its acknowledgement (``{"type": "ack", "ok": ...}``).

Each connection has its own outgoing queue, emptied by its own task, so a slow tablet never
holds up the others; a connection whose queue keeps growing is closed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from .console import console_state, qr_svg
from .limits import STUDENT_FIELDS, TEACHER_FIELDS, BadMessage, RateLimit, parse
from .room import Refusal, Room, Table
from .seatpage import Screen, TableWords, chart_images, geometry, lobby, mark, seat_page

log = logging.getLogger("energies.server")

MAX_QUEUE = 400  # messages waiting for one connection before it is closed as too slow
CLASS_GAME_ONLY = {
    "reveal": "Nobody passes a laptop here: your page shows your own seat only.",
    "bots": "In a class game the bots play by themselves, at the teacher's pace.",
    "step": "In a class game the bots play by themselves, at the teacher's pace.",
    "undo": "A class game has no undo: every move counts, as at a real table.",
    "save": "The teacher's server saves every move of a class game; there is nothing to save.",
    "load": "A class game cannot load another game.",
    "upload": "A class game cannot load another game.",
    "option": "This option belongs to the notebook app, not to a class game.",
}


class Connection:
    """One open websocket: its queue of outgoing texts, its rate limit, where it sits."""

    def __init__(self, kind: str, table: Table | None = None, *, clock=time.monotonic) -> None:
        self.kind = kind  # "student" or "teacher"
        self.table = table
        self.seat: int | None = None
        self.teacher = False  # a console that gave the teacher's key
        self.limit = RateLimit()
        self.clock = clock
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.geometry_key: Any = None
        self.chart_key: Any = None
        self.closing: str | None = None  # why the server closes it

    def post(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close("This page reads its messages too slowly; reload it.")
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self, why: str) -> None:
        if not self.closing:
            self.closing = why
            self.queue.put_nowait(None)


class Hub:
    """The class server's switchboard (see the module text). ``base_url`` is the address
    students type (the join links and QR codes name it)."""

    def __init__(self, room: Room, base_url: str, *, clock: Callable[[], float] = time.monotonic):
        self.room = room
        self.base_url = base_url.rstrip("/")
        self.clock = clock
        self.seated: dict[tuple[int, int], set[Connection]] = {}
        self.watchers: dict[int, set[Connection]] = {}
        self.consoles: set[Connection] = set()
        self.screens: dict[tuple[int, int], Screen] = {}
        self.spoken: dict[int, TableWords] = {}  # each table's wording and spoken log
        self.decisions: dict[int, tuple[Any, int]] = {}  # table -> (its game's state, number)
        self.charts: dict[int, tuple[Any, dict[str, str]]] = {}
        self._charts_drawing: set[int] = set()
        self._dirty: set[int] = set()
        self._console_dirty = False
        self.console_listeners: list[Callable[[dict[str, Any]], None]] = []
        room.on_change = self._changed

    # -- connections ---------------------------------------------------------------------------

    def open_student(self, conn: Connection) -> None:
        table = conn.table
        self.watchers.setdefault(table.number, set()).add(conn)
        conn.post({"type": "lobby", "lobby": lobby(self.room, table, None)})

    def open_teacher(self, conn: Connection) -> None:
        conn.post({"type": "hello", "need": "key"})

    def close(self, conn: Connection) -> None:
        if conn.table is not None:
            self.watchers.get(conn.table.number, set()).discard(conn)
            if conn.seat is not None:
                key = (conn.table.number, conn.seat)
                self.seated.get(key, set()).discard(conn)
                self.room.set_online(conn.table, conn.seat, -1)
        self.consoles.discard(conn)
        self.flush()

    # -- messages --------------------------------------------------------------------------------

    def receive(self, conn: Connection, text: Any) -> None:
        """One message from a page, handled to its end (see the module text)."""
        if not conn.limit.allow(self.clock()):
            if conn.limit.flooding:
                conn.close("Too many messages: this connection is closed. Reload the page.")
            else:
                conn.post({"type": "error", "reason": "Too many messages: slow down a little."})
            return
        fields = STUDENT_FIELDS if conn.kind == "student" else TEACHER_FIELDS
        try:
            message = parse(text, fields)
        except BadMessage as exc:
            conn.post({"type": "error", "reason": str(exc)})
            return
        handler = self._student if conn.kind == "student" else self._teacher
        ok, reason, result = True, None, None
        try:
            result = handler(conn, message)
        except Refusal as exc:
            ok, reason = False, exc.reason
            if conn.seat is not None and conn.table.game is not None:  # the table's own names
                reason = self.words(conn.table).words.speak(reason, addressee=conn.seat)
        except Exception:  # a bug answers with a sentence, the server goes on
            log.exception("handling %s", message.get("type"))
            ok, reason = False, "The server could not do that (an error was logged)."
        if not ok and conn.seat is not None:
            self.screens[(conn.table.number, conn.seat)].tell(reason, "error")
            self._dirty.add(conn.table.number)
        self.flush()
        if isinstance(message.get("click"), str):  # the page's click is answered: its redraw came
            conn.post({"type": "set", "changes": {"answered": message["click"]}})
        ack = {"type": "ack", "ok": ok, "reason": reason, "of": message["type"]}
        if "id" in message:
            ack["id"] = message["id"]
        if isinstance(result, int):
            ack["move"] = result
        conn.post(ack)

    # students ----------------------------------------------------------------------------------

    def _student(self, conn: Connection, message: dict[str, Any]) -> Any:
        kind = message["type"]
        table = conn.table
        if conn.seat is None:
            if kind == "hello":
                token = message.get("token")
                seat = table.seat_of_token(token) if token else None
                if seat is None:
                    if token:
                        raise Refusal("That seat token is not one of this table's: take a seat.")
                    return None
                self._seat(conn, seat)
                self.room.come_back(table, seat)
                return None
            if kind == "join":
                seat, token = self.room.join(table, message.get("name"), message.get("seat"))
                conn.post({"type": "token", "token": token, "seat": seat})
                self._seat(conn, seat)
                return None
            raise Refusal("Take a seat first: type your name and choose a free seat.")
        seat = conn.seat
        screen = self.screens[(table.number, seat)]
        if kind in ("hello", "join"):
            raise Refusal(f"You already sit at seat {seat + 1} of this table.")
        if kind in CLASS_GAME_ONLY:
            raise Refusal(CLASS_GAME_ONLY[kind])
        if kind == "charts":
            screen.charts_open = bool(message.get("open"))
            self._dirty.add(table.number)
            return None
        if kind == "propose":
            if message.get("seat") != seat:
                raise Refusal(f"You play seat {seat + 1}: you propose for yourself only.")
            if message.get("cancel") is True:
                screen.tell(self.room.cancel_proposal(table, seat), "ok")
                return None
            screen.tell(
                self.room.propose(table, seat, message.get("give"), message.get("get")), "ok"
            )
            return None
        if kind == "act":
            return self._act(conn, screen, message)
        raise Refusal(f"Unknown message {kind!r}.")

    def _act(self, conn: Connection, screen: Screen, message: dict[str, Any]) -> int:
        """A click on the page. It carries the decision it was made on (``decision_no``) and is
        done only on that decision, as in the PlayApp: the second click of a double click, or
        a quick click on a picture the table has since left, is explained, never applied to
        the new decision."""
        table, seat = conn.table, conn.seat
        data = message.get("action")
        made_on = message.get("decision_no")
        click = (json.dumps(data, sort_keys=True), made_on)
        if made_on is not None and table.game is not None and made_on != self.decision_no(table):
            try:
                action = type(table.game).CODEC.from_dict(data)
            except (TypeError, ValueError):
                action = None
            words = self.words(table).words
            label = (
                words.speak(table.game.describe(action), addressee=seat)
                if action is not None
                else "that"
            )
            if click == screen.last_click:  # a double click would buy or trade again
                raise Refusal(
                    f"You clicked “{label}” twice: it was done once. Click again to repeat it."
                )
            why = table.game.why_illegal(action) if action is not None else None
            if why is not None:
                raise Refusal(
                    f"Your earlier click “{label}” came after the board changed: "
                    + words.speak(why, addressee=seat)
                )
            raise Refusal(
                f"Your earlier click “{label}” came after the board changed: nothing was done. "
                "Click again if you still want it."
            )
        before = len(table.game.actions) if table.game is not None else 0
        move = self.room.act(table, seat, data)
        screen.last_click = click
        game = table.game
        action = game.actions[before]
        screen.tell(
            self.words(table).words.speak(game.describe(action), addressee=seat) + ".", "ok"
        )
        mark(screen, table, seat)
        return move

    def decision_no(self, table: Table) -> int:
        """The number of the decision the table's pages show: it changes whenever the table's
        game does (a move, a new round), never on a redraw that changes nothing."""
        game = table.game
        key = (table.round, id(game), len(game.actions) if game is not None else -1)
        last = self.decisions.get(table.number)
        if last is None:
            last = self.decisions[table.number] = (key, 1)
        elif last[0] != key:
            last = self.decisions[table.number] = (key, last[1] + 1)
        return last[1]

    def words(self, table: Table) -> TableWords:
        """The table's wording and spoken log, kept while its game is the same."""
        spoken = self.spoken.get(table.number)
        if spoken is None or spoken.game is not table.game:
            spoken = self.spoken[table.number] = TableWords(table.game)
        return spoken

    def _seat(self, conn: Connection, seat: int) -> None:
        table = conn.table
        self.watchers.get(table.number, set()).discard(conn)
        conn.seat = seat
        self.seated.setdefault((table.number, seat), set()).add(conn)
        screen = self.screens.setdefault((table.number, seat), Screen())
        if not screen.status[0]:
            screen.tell(f"Welcome, {table.seats[seat].name}! You play seat {seat + 1}.", "ok")
        self.room.set_online(table, seat, +1)

    # teachers ----------------------------------------------------------------------------------

    def _teacher(self, conn: Connection, message: dict[str, Any]) -> Any:
        kind = message["type"]
        if kind == "hello":
            key = message.get("key") or ""
            if not secrets.compare_digest(key.encode(), self.room.key.encode()):
                raise Refusal("That is not the teacher's key of this class.")
            conn.teacher = True
            self.consoles.add(conn)
            conn.post({"type": "set", "changes": self.console_changes(codes=True)})
            return None
        if not conn.teacher:
            raise Refusal("Give the teacher's key first.")
        return self.command(kind, message)

    def command(self, kind: str, message: dict[str, Any]) -> Any:
        """A teacher's command (from the console page or the notebook widget)."""
        room = self.room
        if kind == "pause":
            room.pause()
        elif kind == "resume":
            room.resume()
        elif kind == "start":
            return len(room.start_waiting_tables())
        elif kind == "end_round":
            return len(room.end_round())
        elif kind == "next_round":
            number = room.next_round(message.get("agreement"), message.get("roles", True))
            with_or_without = "with" if room.agreement else "without"
            for screen in self.screens.values():
                screen.tell(
                    f"Round {number} has started: the same board and seats, {with_or_without} "
                    "the written agreement.",
                    "ok",
                )
            return number
        elif kind == "seat_to_bot":
            room.seat_to_bot(message.get("table"), message.get("seat"), message.get("bot"))
        elif kind == "free_seat":
            number, seat = message.get("table"), message.get("seat")
            room.free_seat(number, seat)
            for conn in list(self.seated.get((number, seat), ())):  # that page loses its seat
                conn.close("The teacher freed this seat: reload the page to take a seat.")
        else:
            raise Refusal(f"Unknown command {kind!r}.")
        return None

    def console_changes(self, codes: bool = False) -> dict[str, Any]:
        changes: dict[str, Any] = {"console": console_state(self.room, self.base_url, self.words)}
        if codes:
            changes["qr"] = {
                str(t.number): qr_svg(f"{self.base_url}/t/{t.code}")
                for t in self.room.tables.values()
            }
        return changes

    # -- telling everybody -----------------------------------------------------------------------

    def _changed(self, table: Table | None) -> None:
        if table is None:
            self._dirty.update(self.room.tables)
        else:
            self._dirty.add(table.number)
        self._console_dirty = True

    def flush(self) -> None:
        """Build and queue what changed: each seat's page, the lobbies, the consoles."""
        dirty, self._dirty = self._dirty, set()
        for number in sorted(dirty):
            table = self.room.tables[number]
            for conn in list(self.watchers.get(number, ())):
                conn.post({"type": "lobby", "lobby": lobby(self.room, table, None)})
            for seat in range(len(table.seats)):
                conns = self.seated.get((number, seat))
                if conns:
                    self._push_seat(table, seat, conns)
        if self._console_dirty:
            self._console_dirty = False
            changes = None
            if self.consoles or self.console_listeners:
                changes = self.console_changes()
            for conn in list(self.consoles):
                conn.post({"type": "set", "changes": changes})
            for listener in list(self.console_listeners):
                listener(changes["console"])

    def _push_seat(self, table: Table, seat: int, conns: set[Connection]) -> None:
        screen = self.screens[(table.number, seat)]
        info = lobby(self.room, table, seat)
        if table.game is None:
            for conn in conns:
                conn.post({"type": "lobby", "lobby": info})
            return
        try:
            page = seat_page(
                self.room, table, seat, screen, self.words(table), self.decision_no(table)
            )
        except Exception:  # a page that cannot be built is logged, not fatal
            log.exception("building the page of table %s seat %s", table.number, seat)
            for conn in conns:
                conn.post({"type": "error", "reason": "The server could not draw your page."})
            return
        key = (table.round, table.number)
        shape = None
        want_charts = screen.charts_open or table.game.is_over
        chart = self.charts.get(table.number)
        for conn in conns:
            changes: dict[str, Any] = {}
            if conn.geometry_key != key:
                shape = shape or geometry(table)
                changes["geometry"] = shape
                conn.geometry_key = key
                conn.chart_key = None
            changes["view"] = page
            fresh = chart is not None and chart[0] == self._chart_key(table)
            if want_charts and fresh and conn.chart_key != chart[0]:
                changes.update(chart[1])
                conn.chart_key = chart[0]
            conn.post(
                {"type": "set", "changes": changes, "lobby": info, "moves": len(table.game.actions)}
            )
        if want_charts and (chart is None or chart[0] != self._chart_key(table)):
            self._draw_charts(table)

    # -- charts ------------------------------------------------------------------------------------

    def _send_charts(self, table: Table) -> None:
        """The table's charts, now drawn, to every page that shows them and lacks them."""
        chart = self.charts.get(table.number)
        if chart is None or chart[0] != self._chart_key(table):
            return
        for seat in range(len(table.seats)):
            screen = self.screens.get((table.number, seat))
            if screen is None or not (screen.charts_open or table.game.is_over):
                continue
            for conn in self.seated.get((table.number, seat), ()):
                if conn.chart_key != chart[0] and conn.geometry_key is not None:
                    conn.post({"type": "set", "changes": dict(chart[1])})
                    conn.chart_key = chart[0]

    @staticmethod
    def _chart_key(table: Table) -> tuple:
        game = table.game
        return (table.round, len(game.history), len(game.events), game.is_over)

    def _draw_charts(self, table: Table) -> None:
        """Draw the table's footprint chart and risk meter in a worker thread (matplotlib
        takes a tenth of a second), then send them to the pages that show them."""
        if table.number in self._charts_drawing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving the hub directly): draw now
            self.charts[table.number] = (self._chart_key(table), chart_images(table.game))
            return
        self._charts_drawing.add(table.number)
        key, copy = self._chart_key(table), table.game.fork()

        async def draw() -> None:
            try:
                images = await asyncio.to_thread(chart_images, copy)
                self.charts[table.number] = (key, images)
                self._send_charts(table)
            except Exception:
                log.exception("drawing the charts of table %s", table.number)
            finally:
                self._charts_drawing.discard(table.number)

        loop.create_task(draw())
