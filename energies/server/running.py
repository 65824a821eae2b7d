"""Starting the class server: in the foreground (``energies serve``) or in a background thread
of the teacher's notebook (:func:`energies.server.serve`), with the join links printed.

The server listens on ``127.0.0.1`` (this machine only) unless the teacher names another
address (``--host 0.0.0.0``: every network of the machine, so the class's devices reach it).
The address students type (the join links, the QR codes) is ``public_url`` when given (a
name behind a proxy, a JupyterHub service's address), else this machine's address on the
local network.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from ..classroom.database import ClassDatabase
from ..kit.i18n import check_language
from .limits import MAX_FRAME_BYTES
from .room import Refusal, create_class

__all__ = ["ClassServer", "base_url_for", "open_or_create", "run_forever", "serve"]

DEFAULT_PORT = 8765
LOOPBACK = "127.0.0.1"


#: What the class server needs besides the kit: the ``[server]`` extra.
SERVER_PACKAGES = ("starlette", "uvicorn", "websockets", "segno", "anywidget", "matplotlib")


def missing_packages() -> list[str]:
    """The packages of the ``[server]`` extra that are not installed."""
    import importlib.util

    return [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]


def lan_address() -> str:
    """This machine's address on its local network (no packet is sent), or loopback."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only, nothing is sent
        return probe.getsockname()[0]
    return LOOPBACK


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    return False


def base_url_for(host: str, port: int, public_url: str | None = None, prefix: str = "") -> str:
    """The address students type: ``public_url``, else this machine's address and port (and
    the path ``prefix`` the server answers under)."""
    if public_url:
        return public_url.rstrip("/")
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    path = "/" + prefix.strip("/") if prefix.strip("/") else ""
    return f"http://{host}:{port}{path}"


def open_or_create(database: str | Path, **class_options: Any) -> None:
    """Create the class in ``database`` when the file holds none yet; when it does, the
    options must be left out (a class keeps its tables, rules and seats)."""
    with ClassDatabase(database) as db:
        if db.is_empty():
            create_class(db, **{k: v for k, v in class_options.items() if v is not None})
            return
        given = sorted(k for k, v in class_options.items() if v is not None)
        if given:
            raise Refusal(
                f"{database} already holds a class, which keeps its settings: leave out "
                f"{', '.join(given)}, or give a new file name for a new class."
            )


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (bound before the server starts, so port 0 names a real port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _uvicorn_server(app):
    import uvicorn

    config = uvicorn.Config(
        app,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,  # a compressed frame could unpack far beyond the limit
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=3,
    )
    return uvicorn.Server(config)


def announcement(database: str | Path, base_url: str, host: str) -> str:
    """What the teacher reads at start: the join links, the console link with the key."""
    with ClassDatabase.open_for_reading(database) as db:
        settings = db.settings()
        tables = db.tables()
    lines = [
        (
            f"energies class server: {settings['name']}, {len(tables)} tables, round "
            f"{settings['round']} ({Path(database).name})"
        ),
        f"Students open {base_url}/ and type their table's code (or scan the console's QR codes):",
    ]
    lines += [f"  table {t['number']:>2}: {t['code']}   {base_url}/t/{t['code']}" for t in tables]
    lines.append(
        f"Teacher's console (keep this link to yourself): {base_url}/console#key={settings['key']}"
    )
    if _is_loopback(host):
        lines.append(
            "Listening on this machine only: other devices cannot reach it. Start it with "
            "--host 0.0.0.0 to let the class's devices in."
        )
    return "\n".join(lines)


def run_forever(
    database: str | Path,
    *,
    host: str = LOOPBACK,
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    allow_origins: tuple[str, ...] = (),
    prefix: str = "",
    hub_login: Any = None,
    lang: str | None = None,
    out=None,
) -> None:
    """Serve the class in ``database`` in the foreground until Ctrl-C (``energies serve``);
    ``hub_login``: a :class:`~energies.server.hublogin.HubLogin` (only the hub's users);
    ``lang``: the class's language (None: each browser's own, else English)."""
    from .web import build_app

    sock = bind(host, port)
    port = sock.getsockname()[1]
    base_url = base_url_for(host, port, public_url, prefix)
    app = build_app(
        database,
        base_url=base_url,
        allowed_origins=allow_origins,
        prefix=prefix,
        hub_login=hub_login,
        lang=lang,
    )
    print(announcement(database, base_url, host), file=out or sys.stdout, flush=True)
    server = _uvicorn_server(app)
    asyncio.run(server.serve(sockets=[sock]))


class ClassServer:
    """A class server running in a background thread of this Python process (a notebook).

    ``url`` is the address students type, ``console_url`` the teacher's console (with the
    key), ``links`` the join link of each table. :meth:`console` is the console as a
    notebook widget, :meth:`collect` the class as one table, :meth:`stop` stops it. ``lang``:
    the class's language (its pages and the console; None: each browser's own, else English).
    """

    def __init__(
        self,
        database: str | Path,
        *,
        host: str = LOOPBACK,
        port: int = DEFAULT_PORT,
        public_url: str | None = None,
        allow_origins: tuple[str, ...] = (),
        prefix: str = "",
        hub_login: Any = None,
        lang: str | None = None,
    ) -> None:
        self.lang = None if lang is None else check_language(lang)
        missing = missing_packages()
        if missing:
            raise ImportError(
                f"The class server needs {', '.join(missing)}: pip install 'energies[server]'."
            )
        from .web import build_app

        self.database = Path(database)
        sock = bind(host, port)
        self.address = sock.getsockname()  # (host, port) it listens on
        self.host, self.port = host, self.address[1]
        self.url = base_url_for(host, self.port, public_url, prefix)
        self.hub = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None

        def ready(hub) -> None:
            self.hub = hub
            self.loop = asyncio.get_running_loop()
            self._ready.set()

        app = build_app(
            self.database,
            base_url=self.url,
            allowed_origins=allow_origins,
            ready=ready,
            prefix=prefix,
            hub_login=hub_login,
            lang=self.lang,
        )
        self._server = _uvicorn_server(app)

        def run() -> None:
            try:
                asyncio.run(self._server.serve(sockets=[sock]))
            except BaseException as exc:  # noqa: BLE001 - handed to the thread that waits
                self._failed = exc
            finally:
                sock.close()
                self._ready.set()

        self._thread = threading.Thread(target=run, name="energies-class-server", daemon=True)
        self._thread.start()
        self._ready.wait(60)
        if self._failed is not None or self.hub is None:
            raise RuntimeError(f"The class server did not start: {self._failed!r}")
        with ClassDatabase.open_for_reading(self.database) as db:
            settings, tables = db.settings(), db.tables()
        self.key: str = settings["key"]
        self.links = {t["number"]: f"{self.url}/t/{t['code']}" for t in tables}
        self.console_url = f"{self.url}/console#key={self.key}"

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def call(self, function, *args):
        """Run ``function(hub, *args)`` on the server's thread and return its result."""
        if not self.running:
            raise RuntimeError("The class server has stopped.")

        async def on_loop():
            result = function(self.hub, *args)
            self.hub.flush()
            return result

        return asyncio.run_coroutine_threadsafe(on_loop(), self.loop).result(30)

    def command(self, kind: str, **fields: Any) -> Any:
        """A teacher's command, as the console sends it: ``"pause"``, ``"resume"``,
        ``"start"``, ``"end_round"``, ``"next_round"`` (``agreement=True/False``),
        ``"seat_to_bot"`` (``table=``, ``seat=``)."""
        return self.call(lambda hub: hub.command(kind, fields))

    def pause(self) -> None:
        self.command("pause")

    def resume(self) -> None:
        self.command("resume")

    def end_round(self) -> int:
        return self.command("end_round")

    def next_round(self, agreement: bool, roles: bool = True) -> int:
        """Lesson 07's next round: the same seeds and seats, role cards dealt in seat order."""
        return self.command("next_round", agreement=agreement, roles=roles)

    def console(self):
        """The teacher's console as a notebook widget (live while the server runs)."""
        from .widget import ConsoleWidget

        return ConsoleWidget(self)

    def collect(self):
        """The class as one table (:func:`energies.classroom.collect` of its database)."""
        from ..classroom import collect

        return collect(self.database)

    def save_games(self, folder: str | Path) -> list[Path]:
        """Write every game of the class as a save file into ``folder``; return the paths."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        with ClassDatabase.open_for_reading(self.database) as db:
            for record in db.games():
                path = folder / f"round{record.round}-table{record.number:02d}.json"
                written.append(Path(db.replay(record).save(path)))
        return written

    def stop(self) -> None:
        """Stop the server (the class stays in its database; serve it again to go on)."""
        self._server.should_exit = True
        self._thread.join(15)

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<ClassServer {state} at {self.url} ({self.database.name})>"

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            f"<li>table {n}: <a href='{html.escape(link)}' target='_blank'>{html.escape(link)}</a></li>"
            for n, link in self.links.items()
        )
        return (
            f"<b>Class server</b> at {html.escape(self.url)} ({'running' if self.running else 'stopped'})"
            f"<ul>{rows}</ul>Teacher's console: <a href='{html.escape(self.console_url)}' "
            "target='_blank'>open it</a> (the link holds your key)"
        )


def serve(
    database: str | Path = "class.sqlite",
    *,
    host: str = LOOPBACK,
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    allow_origins: tuple[str, ...] = (),
    tables: int | None = None,
    players: int | None = None,
    bots: dict[int, str] | None = None,
    rules: Any = None,
    seed: int | None = None,
    bot_delay: float | None = None,
    fill_bot: str | None = None,
    name: str | None = None,
    lang: str | None = None,
    quiet: bool = False,
) -> ClassServer:
    """Start the class server in a background thread and print the join links (one line in a
    teacher's notebook: ``server = en.server.serve("class.sqlite", tables=6)``).

    A new file gets a new class (``tables``, ``players``, ``bots`` such as ``{3: "green"}``,
    ``rules``, ``seed``, ``bot_delay``, ``fill_bot``, ``name``: see
    :func:`energies.server.create_class`); an existing one is resumed as it was. ``lang``:
    the class's language, one of ``energies.LANGUAGES`` (a join link's ``?lang=xx`` still
    gives one student's page another; None: each browser's own language, else English).
    """
    if lang is not None:
        lang = check_language(lang)  # before a new class file is written
    open_or_create(
        database,
        tables=tables,
        players=players,
        bots=bots,
        rules=rules,
        seed=seed,
        bot_delay=bot_delay,
        fill_bot=fill_bot,
        name=name,
    )
    server = ClassServer(
        database,
        host=host,
        port=port,
        public_url=public_url,
        allow_origins=allow_origins,
        lang=lang,
    )
    if not quiet:
        print(announcement(database, server.url, host))
    return server
