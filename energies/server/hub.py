"""Who is connected, what each message does, and who is told what after a change.

The :class:`Hub` sits between the websockets (:mod:`energies.server.web`) and the class
(:class:`~energies.server.room.Room`). A connection is a student's page (first in the lobby
of its table, then seated with a seat token) or a teacher's console (after the teacher's
key). Each message is handled to its end before the next one, on the server's one event
loop: the class changes, the change is committed, the pages that changed are built and
queued, and then the sender gets its acknowledgement (``{"type": "ack", "ok": ...}``).

Each connection has its own outgoing queue, emptied by its own task, so a slow tablet never
holds up the others; a connection whose queue keeps growing is closed.

Each connection speaks one language (its page's: :mod:`energies.server.pages`): its seat's
page, its lobby, its refusals and the console are built in it. The class's texts are messages
(:mod:`energies.kit.i18n`) until a connection's page says them: a seat's status line is kept as
one and said anew for each language its open tabs speak.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..kit.i18n import N_, msg, render, resolve, say
from .console import console_state, qr_svg
from .limits import STUDENT_FIELDS, TEACHER_FIELDS, BadMessage, RateLimit, parse
from .pages import CONSOLE_WORDS, words_for
from .room import Refusal, Room, Table
from .seatpage import Screen, TableWords, chart_images, geometry, lobby, mark, seat_page

log = logging.getLogger("energies.server")

MAX_QUEUE = 400  # messages waiting for one connection before it is closed as too slow
CLASS_GAME_ONLY = {
    "reveal": N_("Nobody passes a laptop here: your page shows your own seat only."),
    "bots": N_("In a class game the bots play by themselves, at the teacher's pace."),
    "step": N_("In a class game the bots play by themselves, at the teacher's pace."),
    "undo": N_("A class game has no undo: every move counts, as at a real table."),
    "save": N_("The teacher's server saves every move of a class game; there is nothing to save."),
    "load": N_("A class game cannot load another game."),
    "upload": N_("A class game cannot load another game."),
    "option": N_("This option belongs to the notebook app, not to a class game."),
}


class Connection:
    """One open websocket: its queue of outgoing texts, its rate limit, where it sits."""

    def __init__(
        self, kind: str, table: Table | None = None, *, lang: str = "en", clock=time.monotonic
    ) -> None:
        self.kind = kind  # "student" or "teacher"
        self.table = table
        self.lang = resolve(lang)  # the language of this connection's page
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
            self.close(say(N_("This page reads its messages too slowly; reload it."), self.lang))
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self, why: str) -> None:
        if not self.closing:
            self.closing = why
            self.queue.put_nowait(None)


class Hub:
    """The class server's switchboard (see the module text). ``base_url`` is the address
    students type (the join links and QR codes name it); ``lang`` the class's language (the
    notebook's console speaks it; None: the kit's, see :func:`energies.get_language`)."""

    def __init__(
        self,
        room: Room,
        base_url: str,
        *,
        lang: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.room = room
        self.lang = lang
        self.base_url = base_url.rstrip("/")
        self.clock = clock
        self.seated: dict[tuple[int, int], set[Connection]] = {}
        self.watchers: dict[int, set[Connection]] = {}
        self.consoles: set[Connection] = set()
        self.screens: dict[tuple[int, int], Screen] = {}
        self.spoken: dict[tuple[int, str], TableWords] = {}  # (table, language) -> its wording
        self.decisions: dict[int, tuple[Any, int]] = {}  # table -> (its game's state, number)
        self.charts: dict[tuple[int, str], tuple[Any, dict[str, str]]] = {}  # (table, language)
        self._charts_drawing: set[tuple[int, str]] = set()
        self._dirty: set[int] = set()
        self._console_dirty = False
        self.console_listeners: list[Callable[[dict[str, Any]], None]] = []
        room.on_change = self._changed

    # -- connections ---------------------------------------------------------------------------

    def open_student(self, conn: Connection) -> None:
        table = conn.table
        self.watchers.setdefault(table.number, set()).add(conn)
        conn.post({"type": "lobby", "lobby": lobby(self.room, table, None, conn.lang)})

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
                conn.close(
                    say(
                        N_("Too many messages: this connection is closed. Reload the page."),
                        conn.lang,
                    )
                )
            else:
                conn.post(
                    {
                        "type": "error",
                        "reason": say(N_("Too many messages: slow down a little."), conn.lang),
                    }
                )
            return
        fields = STUDENT_FIELDS if conn.kind == "student" else TEACHER_FIELDS
        try:
            message = parse(text, fields)
        except BadMessage as exc:
            conn.post({"type": "error", "reason": str(render(exc.reason, conn.lang))})
            return
        handler = self._student if conn.kind == "student" else self._teacher
        ok, reason, result = True, None, None
        try:
            result = handler(conn, message)
        except Refusal as exc:
            ok, reason = False, exc.reason
        except Exception:  # a bug answers with a sentence, the server goes on
            log.exception("handling %s", message.get("type"))
            ok, reason = False, msg(N_("The server could not do that (an error was logged)."))
        if not ok and conn.seat is not None:  # the seat's status line, in each tab's language
            refused, seat = reason, conn.seat
            self.screens[(conn.table.number, seat)].tell(
                lambda words: words.speak(refused, addressee=seat), "error"
            )
            self._dirty.add(conn.table.number)
        if not ok:
            reason = self.said(conn, reason)
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
                        raise Refusal(
                            msg(N_("That seat token is not one of this table's: take a seat."))
                        )
                    return None
                self._seat(conn, seat)
                self.room.come_back(table, seat)
                return None
            if kind == "join":
                seat, token = self.room.join(table, message.get("name"), message.get("seat"))
                conn.post({"type": "token", "token": token, "seat": seat})
                self._seat(conn, seat)
                return None
            raise Refusal(msg(N_("Take a seat first: type your name and choose a free seat.")))
        seat = conn.seat
        screen = self.screens[(table.number, seat)]
        if kind in ("hello", "join"):
            raise Refusal(msg(N_("You already sit at seat {seat} of this table."), seat=seat + 1))
        if kind in CLASS_GAME_ONLY:
            raise Refusal(msg(CLASS_GAME_ONLY[kind]))
        if kind == "charts":
            screen.charts_open = bool(message.get("open"))
            self._dirty.add(table.number)
            return None
        if kind == "propose":
            if message.get("seat") != seat:
                raise Refusal(
                    msg(N_("You play seat {seat}: you propose for yourself only."), seat=seat + 1)
                )
            if message.get("cancel") is True:
                screen.tell(self.room.cancel_proposal(table, seat), "ok")
                return None
            screen.tell(
                self.room.propose(table, seat, message.get("give"), message.get("get")), "ok"
            )
            return None
        if kind == "act":
            return self._act(conn, screen, message)
        raise Refusal(msg(N_("Unknown message {kind}."), kind=repr(kind)))

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
            game = table.game
            label = action.sentence(None, game.board) if action is not None else msg(N_("that"))
            if click == screen.last_click:  # a double click would buy or trade again
                raise Refusal(
                    msg(
                        N_(
                            "You clicked “{label}” twice: it was done once. Click again to repeat it."
                        ),
                        label=label,
                    )
                )
            why = game.ENGINE.why_illegal(game.state, action) if action is not None else None
            if why is not None:
                raise Refusal(
                    msg(
                        N_("Your earlier click “{label}” came after the board changed: {why}"),
                        label=label,
                        why=why,
                    )
                )
            raise Refusal(
                msg(
                    N_(
                        "Your earlier click “{label}” came after the board changed: nothing was "
                        "done. Click again if you still want it."
                    ),
                    label=label,
                )
            )
        before = len(table.game.actions) if table.game is not None else 0
        move = self.room.act(table, seat, data)
        screen.last_click = click
        action = table.game.actions[before]
        screen.tell(lambda words: words.say(N_("{action}."), action=words.describe(action)), "ok")
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

    def words(self, table: Table, lang: str | None = None) -> TableWords:
        """The table's wording and spoken log in ``lang`` (default: the class's), kept while
        its game is the same."""
        lang = resolve(lang or self.lang)
        spoken = self.spoken.get((table.number, lang))
        if spoken is None or spoken.game is not table.game:
            spoken = self.spoken[table.number, lang] = TableWords(table.game, lang)
        return spoken

    def said(self, conn: Connection, reason: Any) -> str:
        """A refusal's reason as ``conn``'s page reads it: in its language, with the table's
        names for seats and places once the connection sits at a game."""
        table = conn.table
        if conn.seat is not None and table is not None and table.game is not None:
            return self.words(table, conn.lang).words.speak(reason, addressee=conn.seat)
        return str(render(reason, conn.lang))

    def _seat(self, conn: Connection, seat: int) -> None:
        table = conn.table
        self.watchers.get(table.number, set()).discard(conn)
        conn.seat = seat
        self.seated.setdefault((table.number, seat), set()).add(conn)
        screen = self.screens.setdefault((table.number, seat), Screen())
        if not screen.status[0]:
            screen.tell(
                msg(
                    N_("Welcome, {name}! You play seat {seat}."),
                    name=table.seats[seat].name,
                    seat=seat + 1,
                ),
                "ok",
            )
        self.room.set_online(table, seat, +1)

    # teachers ----------------------------------------------------------------------------------

    def _teacher(self, conn: Connection, message: dict[str, Any]) -> Any:
        kind = message["type"]
        if kind == "hello":
            key = message.get("key") or ""
            if not secrets.compare_digest(key.encode(), self.room.key.encode()):
                raise Refusal(msg(N_("That is not the teacher's key of this class.")))
            conn.teacher = True
            self.consoles.add(conn)
            conn.post({"type": "set", "changes": self.console_changes(codes=True, lang=conn.lang)})
            return None
        if not conn.teacher:
            raise Refusal(msg(N_("Give the teacher's key first.")))
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
            if room.agreement:
                text = N_(
                    "Round {round} has started: the same board and seats, with the written agreement."
                )
            else:
                text = N_(
                    "Round {round} has started: the same board and seats, without the written "
                    "agreement."
                )
            for screen in self.screens.values():
                screen.tell(msg(text, round=number), "ok")
            return number
        elif kind == "seat_to_bot":
            room.seat_to_bot(message.get("table"), message.get("seat"), message.get("bot"))
        elif kind == "free_seat":
            number, seat = message.get("table"), message.get("seat")
            room.free_seat(number, seat)
            for conn in list(self.seated.get((number, seat), ())):  # that page loses its seat
                conn.close(
                    say(
                        N_("The teacher freed this seat: reload the page to take a seat."),
                        conn.lang,
                    )
                )
        else:
            raise Refusal(msg(N_("Unknown command {kind}."), kind=repr(kind)))
        return None

    def console_changes(self, codes: bool = False, lang: str | None = None) -> dict[str, Any]:
        """The console's data in ``lang`` (default: the class's), and its words; ``codes``:
        with the tables' QR codes."""
        lang = resolve(lang or self.lang)
        changes: dict[str, Any] = {
            "console": console_state(
                self.room, self.base_url, lambda table: self.words(table, lang), lang
            ),
            "words": words_for(CONSOLE_WORDS, lang),
        }
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
                conn.post({"type": "lobby", "lobby": lobby(self.room, table, None, conn.lang)})
            for seat in range(len(table.seats)):
                conns = self.seated.get((number, seat))
                if conns:
                    self._push_seat(table, seat, conns)
        if self._console_dirty:
            self._console_dirty = False
            said: dict[str, dict[str, Any]] = {}  # one console state per language
            for conn in list(self.consoles):
                if conn.lang not in said:
                    said[conn.lang] = self.console_changes(lang=conn.lang)
                conn.post({"type": "set", "changes": said[conn.lang]})
            if self.console_listeners:
                console = self.console_changes()["console"]  # the class's language
                for listener in list(self.console_listeners):
                    listener(console)

    def _push_seat(self, table: Table, seat: int, conns: set[Connection]) -> None:
        """Each open tab of the seat gets its page, built once per language they speak."""
        by_language: dict[str, list[Connection]] = {}
        for conn in conns:
            by_language.setdefault(conn.lang, []).append(conn)
        for lang, group in sorted(by_language.items()):
            self._push_seat_in(table, seat, group, lang)

    def _push_seat_in(self, table: Table, seat: int, conns: list[Connection], lang: str) -> None:
        screen = self.screens[(table.number, seat)]
        info = lobby(self.room, table, seat, lang)
        if table.game is None:
            for conn in conns:
                conn.post({"type": "lobby", "lobby": info})
            return
        spoken = self.words(table, lang)
        try:
            page = seat_page(self.room, table, seat, screen, spoken, self.decision_no(table))
        except Exception:  # a page that cannot be built is logged, not fatal
            log.exception("building the page of table %s seat %s", table.number, seat)
            for conn in conns:
                reason = say(N_("The server could not draw your page."), lang)
                conn.post({"type": "error", "reason": reason})
            return
        key = (table.round, table.number)
        shape = None
        want_charts = screen.charts_open or table.game.is_over
        chart = self.charts.get((table.number, lang))
        for conn in conns:
            changes: dict[str, Any] = {}
            if conn.geometry_key != key:
                shape = shape or geometry(table, spoken.words)
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
            self._draw_charts(table, lang)

    # -- charts ------------------------------------------------------------------------------------

    def _send_charts(self, table: Table, lang: str) -> None:
        """The table's charts in ``lang``, now drawn, to every page of that language that shows
        them and lacks them."""
        chart = self.charts.get((table.number, lang))
        if chart is None or chart[0] != self._chart_key(table):
            return
        for seat in range(len(table.seats)):
            screen = self.screens.get((table.number, seat))
            if screen is None or not (screen.charts_open or table.game.is_over):
                continue
            for conn in self.seated.get((table.number, seat), ()):
                if conn.lang != lang:
                    continue
                if conn.chart_key != chart[0] and conn.geometry_key is not None:
                    conn.post({"type": "set", "changes": dict(chart[1])})
                    conn.chart_key = chart[0]

    @staticmethod
    def _chart_key(table: Table) -> tuple:
        game = table.game
        return (table.round, len(game.history), len(game.events), game.is_over)

    def _draw_charts(self, table: Table, lang: str) -> None:
        """Draw the table's footprint chart and risk meter in ``lang`` in a worker thread
        (matplotlib takes a tenth of a second), then send them to the pages that show them."""
        drawing = (table.number, lang)
        if drawing in self._charts_drawing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving the hub directly): draw now
            self.charts[drawing] = (self._chart_key(table), chart_images(table.game, lang))
            return
        self._charts_drawing.add(drawing)
        key, copy = self._chart_key(table), table.game.fork()

        async def draw() -> None:
            try:
                images = await asyncio.to_thread(chart_images, copy, lang)
                self.charts[drawing] = (key, images)
                self._send_charts(table, lang)
            except Exception:
                log.exception("drawing the charts of table %s", table.number)
            finally:
                self._charts_drawing.discard(drawing)

        loop.create_task(draw())
