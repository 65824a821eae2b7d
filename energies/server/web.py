"""The class server on the web: pages, websockets, downloads (Starlette, served by uvicorn).

==============================  ===================================================================
``GET /``                       a page where a student types the table's code
``GET /t/<code>``               the student's page: the table's lobby, then the board (the
                                PlayApp's own page code over a websocket)
``GET /console``                the teacher's console (the teacher's key follows ``#key=``)
``GET /assets/<name>``          the pages' scripts and styles: a fixed list read at start-up
``GET /console/games.zip``      every game of the class as save files (teacher's key needed,
``GET /console/games.csv``      as ``Authorization: Bearer <key>``), or as one table
``GET /healthz``                ``{"ok": true}`` when the server runs
``WS /ws/table/<code>``         a student's connection (see :mod:`energies.server.hub`)
``WS /ws/console``              the console's connection
==============================  ===================================================================

Nothing the web sends is a path: every asset is read once at start-up from a fixed list,
and the downloads are built from the class database in memory. Every HTTP answer carries a
Content-Security-Policy that lets a page load only this server's scripts and connect only to
this server.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import secrets
import zipfile
from pathlib import Path
from typing import Any

from ..classroom.database import ClassDatabase
from ..kit.i18n import LANGUAGES, N_, say
from .hub import Connection, Hub
from .limits import origin_problem
from .pages import choose_language, page_html
from .room import Room

log = logging.getLogger("energies.server")

STATIC = Path(__file__).resolve().parent / "static"
MAX_CONNECTIONS = 600
MAX_PER_TABLE = 40
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        (
            b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            b"form-action 'none'"
        ),
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


def assets() -> dict[str, tuple[bytes, str]]:
    """Every file a page may load, by name: the PlayApp's page code (shared with the notebook
    app, read from its package) and the server's own pages, read once."""
    from ..widgets.play.board import STATIC as PLAYAPP

    files = {
        "playapp.js": PLAYAPP / "playapp.js",
        "playapp.css": PLAYAPP / "playapp.css",
        "transport.js": STATIC / "transport.js",
        "student.js": STATIC / "student.js",
        "console.js": STATIC / "console.js",
        "console-page.js": STATIC / "console-page.js",
        "class.css": STATIC / "class.css",
    }
    types = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
    return {name: (path.read_bytes(), types[path.suffix]) for name, path in files.items()}


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP answer."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class Prefix:
    """ASGI middleware: the server answers under ``prefix`` (a JupyterHub service's
    ``/services/<name>``, whose proxy passes the whole path on): the prefix becomes the
    request's ``root_path``, so the routes and the pages' relative links work below it;
    anything outside it is not this server's."""

    def __init__(self, app, prefix: str) -> None:
        self.app, self.prefix = app, "/" + prefix.strip("/")

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path != self.prefix and not path.startswith(self.prefix + "/"):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _answer(send, 404, b"Not this server's page.")
            return
        await self.app({**scope, "root_path": self.prefix}, receive, send)


class HubGate:
    """ASGI middleware: with ``--hub-login``, nobody but a JupyterHub user gets past it
    (:mod:`energies.server.hublogin`); ``/healthz`` and the hub's ``oauth_callback`` are open."""

    def __init__(self, app, login) -> None:
        self.app, self.login = app, login

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        root = scope.get("root_path", "")
        path = scope["path"]
        route = path[len(root) :] if root and path.startswith(root) else path
        cookies = _header(scope, b"cookie")
        if route == "/healthz":
            await self.app(scope, receive, send)
        elif route == "/oauth_callback" and scope["type"] == "http":
            await self._callback(scope, send, cookies)
        elif self.login.user(cookies) is not None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "Log in at the hub."})
        elif scope["method"] in ("GET", "HEAD"):
            query = scope.get("query_string", b"").decode("latin-1")
            target, cookie = self.login.start(path + (f"?{query}" if query else ""))
            await _answer(
                send,
                302,
                b"Logging in at the hub.",
                [(b"location", target), (b"set-cookie", cookie)],
            )
        else:
            await _answer(send, 403, b"Log in at the hub first.")

    async def _callback(self, scope, send, cookies) -> None:
        from urllib.parse import parse_qs

        from .hublogin import HubLoginError

        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        code, state = (query.get(k, [None])[0] for k in ("code", "state"))
        try:
            target, cookie = await asyncio.to_thread(self.login.finish, code, state, cookies)
        except HubLoginError as exc:
            await _answer(send, 403, str(exc).encode("utf-8"))
            return
        except Exception:  # the hub did not answer as a hub does
            log.exception("finishing a hub login")
            await _answer(send, 502, b"The hub did not answer the login: try again.")
            return
        if not target.startswith("/") or target.startswith("//"):  # only a page of this server
            target = scope.get("root_path", "") + "/"
        await _answer(send, 302, b"Logged in.", [(b"location", target), (b"set-cookie", cookie)])


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


async def _answer(send, status: int, body: bytes, headers=()) -> None:
    fields = [(b"content-type", b"text/plain; charset=utf-8"), *SECURITY_HEADERS]
    fields += [(k, v.encode("latin-1") if isinstance(v, str) else v) for k, v in headers]
    await send({"type": "http.response.start", "status": status, "headers": fields})
    await send({"type": "http.response.body", "body": body})


def build_app(
    database: str | Path,
    *,
    base_url: str,
    allowed_origins: tuple[str, ...] = (),
    ready: Any = None,
    prefix: str = "",
    hub_login: Any = None,
    lang: str | None = None,
):
    """The Starlette app of the class in ``database`` (opened when the server starts, on the
    server's own thread). ``base_url``: the address students type. ``ready(hub)`` is called
    once the class is open (the notebook's background server waits for it). ``prefix``: the
    path the server answers under, behind a proxy that passes it on (:class:`Prefix`).
    ``hub_login``: a :class:`~energies.server.hublogin.HubLogin`, when only a JupyterHub's
    users may come in. ``lang``: the class's language (None: each browser's own, else
    English; see :mod:`energies.server.pages`)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    allowed = frozenset(o.strip().rstrip("/").lower() for o in allowed_origins)
    files = assets()
    names = ("index.html", "student.html", "console.html", "no-table.html")
    # every page in every language, filled once: a request only chooses (a language made at
    # run time, a translator's preview, is filled at its first request)
    pages = {(name, code): page_html(name, code) for name in names for code in LANGUAGES}
    connections: set[Connection] = set()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        db = ClassDatabase(database)
        room = Room(db)
        hub = Hub(room, base_url, lang=lang)
        app.state.hub = hub
        app.state.database = Path(database)
        clock = asyncio.create_task(bot_clock(hub))
        warming = asyncio.create_task(asyncio.to_thread(warm_up))
        if ready is not None:
            ready(hub)
        try:
            yield
        finally:
            warming.cancel()
            clock.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await clock
            for conn in list(connections):
                conn.close("The class server stopped.")
            db.close()

    def language(request) -> str:
        """The language of a page or a connection (:func:`~.pages.choose_language`)."""
        return choose_language(
            request.query_params.get("lang"), lang, request.headers.get("accept-language")
        )

    def html(request: Request, name: str, status: int = 200) -> Response:
        code = language(request)
        if (name, code) not in pages:
            pages[name, code] = page_html(name, code)
        return HTMLResponse(
            pages[name, code],
            status_code=status,
            headers={"content-language": code, "vary": "Accept-Language"},
        )

    async def index(request: Request) -> Response:
        return html(request, "index.html")

    async def student(request: Request) -> Response:
        hub: Hub = request.app.state.hub
        if hub.room.table_by_code(request.path_params["code"]) is None:
            return html(request, "no-table.html", 404)
        return html(request, "student.html")

    async def console(request: Request) -> Response:
        return html(request, "console.html")

    async def asset(request: Request) -> Response:
        found = files.get(request.path_params["name"])
        if found is None:
            return Response("No such file.", status_code=404, media_type="text/plain")
        return Response(found[0], media_type=found[1])

    async def health(request: Request) -> Response:
        hub: Hub = request.app.state.hub
        return JSONResponse({"ok": True, "tables": len(hub.room.tables), "round": hub.room.round})

    def teacher(request: Request) -> bool:
        hub: Hub = request.app.state.hub
        given = request.headers.get("authorization", "")
        scheme, _, key = given.partition(" ")
        return scheme.lower() == "bearer" and secrets.compare_digest(
            key.strip().encode(), hub.room.key.encode()
        )

    async def download(request: Request) -> Response:
        if not teacher(request):
            return JSONResponse({"reason": "The teacher's key is needed."}, status_code=403)
        what = request.path_params["what"]
        path = request.app.state.database
        if what == "games.zip":
            body = await asyncio.to_thread(games_zip, path)
            media = "application/zip"
        elif what == "games.csv":
            body = await asyncio.to_thread(games_csv, path)
            media = "text/csv; charset=utf-8"
        else:
            return JSONResponse({"reason": "No such download."}, status_code=404)
        name = f"{path.stem}-{what}"
        return Response(
            body,
            media_type=media,
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    async def socket(ws: WebSocket, conn: Connection, opener) -> None:
        hub: Hub = ws.app.state.hub
        await ws.accept()
        connections.add(conn)
        sender = asyncio.create_task(pump(ws, conn))
        opener(conn)
        try:
            while not conn.closing:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                hub.receive(conn, message.get("text", message.get("bytes")))
        except Exception:  # a broken connection ends, the class goes on
            log.debug("a connection broke", exc_info=True)
        finally:
            connections.discard(conn)
            hub.close(conn)
            conn.close("")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5)

    def refused(ws: WebSocket) -> str | None:
        problem = origin_problem(ws.headers.get("origin"), ws.headers.get("host"), allowed)
        if problem:
            return problem
        if len(connections) >= MAX_CONNECTIONS:
            return say(N_("The class server has as many connections as it takes."), language(ws))
        return None

    async def student_socket(ws: WebSocket) -> None:
        hub: Hub = ws.app.state.hub
        table = hub.room.table_by_code(ws.path_params["code"])
        problem = refused(ws)
        if problem is None and table is None:
            problem = say(N_("No table of this class has that code."), language(ws))
        if problem is None and sum(c.table is table for c in connections) >= MAX_PER_TABLE:
            problem = say(N_("This table has as many connections as it takes."), language(ws))
        if problem:
            await ws.close(code=1008, reason=problem[:120])
            return
        await socket(ws, Connection("student", table, lang=language(ws)), hub.open_student)

    async def console_socket(ws: WebSocket) -> None:
        hub: Hub = ws.app.state.hub
        problem = refused(ws)
        if problem:
            await ws.close(code=1008, reason=problem[:120])
            return
        await socket(ws, Connection("teacher", lang=language(ws)), hub.open_teacher)

    routes = [
        Route("/", index),
        Route("/t/{code}", student),
        Route("/console", console),
        Route("/console/{what}", download),
        Route("/assets/{name}", asset),
        Route("/healthz", health),
        WebSocketRoute("/ws/table/{code}", student_socket),
        WebSocketRoute("/ws/console", console_socket),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    if hub_login is not None:
        app = HubGate(app, hub_login)
    if prefix.strip("/"):
        app = Prefix(app, prefix)
    return SecurityHeaders(app)


def warm_up() -> None:
    """Load what the first game to end needs, in a worker thread at start: pandas for its "who
    polluted, who paid" panel, matplotlib for its charts. Loaded on the server's own thread when
    that game ends, it held every table of the class for most of a second."""
    import pandas  # noqa: F401
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
    from matplotlib.figure import Figure  # noqa: F401

    from ..insight import burden  # noqa: F401
    from ..widgets import common  # noqa: F401


async def pump(ws, conn: Connection) -> None:
    """Send a connection's queued messages in order; close it when the hub says so."""
    while True:
        text = await conn.queue.get()
        if text is None:
            break
        await ws.send_text(text)
    if conn.closing:
        with contextlib.suppress(Exception):
            await ws.close(code=1008, reason=conn.closing[:120])


async def bot_clock(hub: Hub) -> None:
    """Bots move at the class's pace: each waits ``bot_delay`` seconds after its table's last
    change, so students can follow what a bot did."""
    room = hub.room
    while True:
        moved, wait = False, 0.05
        for table in list(room.tables.values()):
            due = room.seconds_until_bot(table)
            if due is None:
                continue
            if due > 0:
                wait = min(wait, due)
                continue
            try:
                room.bot_move(table)
                moved = True
            except Exception:  # a failing bot is logged; its table waits
                log.exception("the bot of table %s", table.number)
                table.changed_at = room.clock()
        hub.flush()
        await asyncio.sleep(0 if moved else wait)


def games_zip(database: Path) -> bytes:
    """Every game of the class as a save file, replayed and checked (round<r>-table<n>.json)."""
    buffer = io.BytesIO()
    with (
        ClassDatabase.open_for_reading(database) as db,
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
    ):
        for record in db.games():
            game = db.replay(record)
            archive.writestr(f"round{record.round}-table{record.number:02d}.json", game.to_json())
    return buffer.getvalue()


def games_csv(database: Path) -> bytes:
    """The class as one table: :func:`energies.classroom.collect` of the database, as CSV."""
    from ..classroom import collect

    frame = collect(database)
    return frame.to_csv(index=False).encode("utf-8")
