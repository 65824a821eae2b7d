"""Simulated students for the class server: websocket clients that join a table and play
random moves chosen from their own page, as a student's clicks would.

Used by ``tests/test_server_class.py`` (a class of 40 plays through the server in CI) and by
``benchmarks/server_load.py`` (the load test with its latencies). A student sees only its
page: the options it may click are the actions its page offers (board spots, the decision's
buttons, the controls beside the board); it clicks one at random, then waits for its page
to change. Every acknowledged move is recorded with its number, so the test can check the
database holds exactly those moves, each once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def page_options(view: dict) -> list[dict]:
    """Every action the page lets its seat click now (each a JSON action)."""
    found: list[dict] = []

    def take(option) -> None:
        if isinstance(option, dict) and option.get("a"):
            found.append(option["a"])

    for spot in (view.get("spots") or {}).values():
        for option in spot.get("options", ()):
            take(option)
    decision = view.get("decision") or {}
    for option in decision.get("options", ()) or ():
        take(option)
    for option in decision.get("picker") or ():
        take(option)
    for name in ("turn", "energy", "cards"):
        for option in view.get(name) or ():
            take(option)
    for row in view.get("supply") or ():
        for option in row.get("options") or ():
            take(option)
    for option in (view.get("offers") or {}).get("options", ()):
        take(option)
    take(view.get("ask"))
    unique = {json.dumps(a, sort_keys=True): a for a in found}
    return list(unique.values())


@dataclass
class Student:
    """One simulated student at one table (see the module text)."""

    base: str  # ws://host:port
    code: str
    name: str
    seed: int
    think: float = 0.0  # seconds before each click
    moves: list[tuple[int, dict]] = field(default_factory=list)  # (move number, action) acked
    latencies: list[float] = field(default_factory=list)  # own click -> own page updated (s)
    arrivals: dict[int, float] = field(default_factory=dict)  # table move count -> first seen
    refused: list[str] = field(default_factory=list)
    unanswered: list[dict] = field(default_factory=list)  # clicks sent when the line broke
    sent: dict[int, float] = field(default_factory=dict)  # move number -> when it was clicked
    seat: int | None = None
    token: str | None = None  # the seat token: a second play() comes back to the same seat
    over: bool = False
    outcome: str = ""

    async def play(self, timeout: float = 600.0) -> None:
        """Join (or come back with the token), then click until the game is over."""
        import websockets

        self._waiting_for: dict | None = None  # the click sent and not answered yet
        async with websockets.connect(
            f"{self.base}/ws/table/{self.code}", max_size=None, open_timeout=60, proxy=None
        ) as ws:
            if self.token:
                await ws.send(json.dumps({"type": "hello", "token": self.token, "id": 0}))
            else:
                await ws.send(json.dumps({"type": "join", "name": self.name, "id": 0}))
            try:
                await self._click_until_over(ws, time.monotonic() + timeout, timeout)
            finally:
                if self._waiting_for is not None:
                    self.unanswered.append(self._waiting_for)

    async def _click_until_over(self, ws, deadline: float, timeout: float) -> None:
        rng = random.Random(f"{self.seed}:{len(self.moves)}")
        moves_seen, sent_at, clicked_at = -1, None, 0.0
        view, acted_on = None, None  # the latest page, and the revision last clicked on
        next_id = 1
        while not (self.over and self._waiting_for is None):  # the last click's answer too
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name} at {self.code}: no end within {timeout} s")
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
            kind = message["type"]
            if kind == "token":
                self.seat, self.token = message["seat"], message["token"]
            elif kind == "ack":
                if message.get("of") in ("join", "hello") and not message["ok"]:
                    raise RuntimeError(f"{self.name} could not sit down: {message['reason']}")
                if message.get("of") == "act":
                    if message["ok"]:
                        self.moves.append((message["move"], self._waiting_for))
                        self.sent[message["move"]] = clicked_at
                    else:
                        self.refused.append(message["reason"])
                    self._waiting_for = None
            elif kind == "set" and "view" in message["changes"]:
                now = time.perf_counter()
                moves = message["moves"]
                self.arrivals.setdefault(moves, now)
                if sent_at is not None and moves > moves_seen:
                    self.latencies.append(now - sent_at)
                    sent_at = None
                moves_seen = max(moves_seen, moves)
                view = message["changes"]["view"]
                if view.get("over"):
                    self.over, self.outcome = True, view["prompt"]
            if self.over:
                continue
            # click once the last click is answered, on a page not clicked on yet
            if view is None or self._waiting_for is not None or view["rev"] == acted_on:
                continue
            options = page_options(view)
            if not options:
                continue
            if self.think:
                await asyncio.sleep(self.think)
            action = rng.choice(options)
            self._waiting_for, acted_on = action, view["rev"]
            sent_at = clicked_at = time.perf_counter()
            click = {
                "type": "act",
                "action": action,
                "decision_no": view["decision_no"],
                "id": next_id,
            }
            await ws.send(json.dumps(click))
            next_id += 1


def run_async(make_coroutine):
    """``asyncio.run(make_coroutine())`` in a thread of its own, its result or error returned
    here: a test before may have left an event loop running in this thread (a notebook's)."""
    import threading

    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(make_coroutine())
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="simulated-students")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# -- a real server process ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ServerProcess:
    """``energies serve`` in a process of its own (killed with the process group)."""

    proc: subprocess.Popen
    port: int
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no goodbye, no clean shutdown (what a power cut or a crash does)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()


def start_server(
    database: Path, *args: str, port: int | None = None, launcher: list[str] | None = None
) -> ServerProcess:
    """Start ``energies serve DATABASE ARGS`` on loopback and wait until it answers.

    ``launcher``: the command before ``serve`` (default ``python -m energies``; the profile
    benchmark runs the server under its own wrapper)."""
    port = port or free_port()
    log = database.with_suffix(".log")
    handle = open(log, "a")  # noqa: SIM115 - the process writes it until it ends
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            *(launcher or [sys.executable, "-m", "energies"]),
            "serve",
            str(database),
            "--port",
            str(port),
            *args,
        ],
        stdout=handle,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=env,
        cwd=REPO,
        start_new_session=True,
    )
    server = ServerProcess(proc, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped at start:\n{log.read_text()[-3000:]}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{server.http}/healthz", timeout=2) as answer,
        ):
            if answer.status == 200:
                return server
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the server did not answer within 60 s:\n{log.read_text()[-3000:]}")
