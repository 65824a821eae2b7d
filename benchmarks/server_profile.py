"""Where a move's time goes on the class server: timing spans inside the server under load.

    nice -n 5 python benchmarks/server_profile.py --tables 10 --think 0

Runs the load test of ``benchmarks/server_load.py`` (10 tables x 4 websocket students, the
classroom preset to the end) against ``energies serve`` started with timing spans around each
step of a move's path through the server: the whole message (``Hub.receive``), the move applied
and committed (``Hub._act``), the SQLite commit alone (``ClassDatabase.record_move``), every
page of the table built and queued (``Hub.flush``), one seat's page (``Hub._push_seat``), one
message turned into JSON (``Connection.post``), and how late the server's event loop wakes from
a 10 ms sleep (its lag: how long messages wait for the loop). It also records the server's and
the students' processor time. ``--profile FILE`` adds a cProfile of the server (slower).

Writes ``benchmarks/results/server_profile.md``. A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "server_profile.md"
SPANS = (  # (class path, method, what it times)
    ("energies.server.hub:Hub", "receive", "one message handled, pages queued, ack queued"),
    ("energies.server.hub:Hub", "_act", "the move checked, applied and committed"),
    ("energies.classroom.database:ClassDatabase", "record_move", "the SQLite commit"),
    ("energies.server.hub:Hub", "flush", "every changed page built and queued"),
    ("energies.server.hub:Hub", "_push_seat", "one seat's page built and queued"),
    ("energies.server.hub:Connection", "post", "one message turned into JSON"),
)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# -- inside the server process ------------------------------------------------------------------


def serve_with_spans(spans_file: str, profile_file: str | None, argv: list[str]) -> None:
    """``energies serve ARGV`` with the spans above; written to ``spans_file`` every 3 s."""
    import asyncio
    import cProfile
    import importlib
    import json

    spans: dict[str, list[float]] = {label: [] for *_, label in SPANS}
    spans["event loop lag"] = []
    profile = cProfile.Profile() if profile_file else None

    def timed(owner, name: str, label: str) -> None:
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spans[label].append(time.perf_counter() - start)

        setattr(owner, name, wrapper)

    for where, name, label in SPANS:
        module, _, cls = where.partition(":")
        timed(getattr(importlib.import_module(module), cls), name, label)

    def write() -> None:
        Path(spans_file).write_text(json.dumps(spans))
        if profile is not None:
            profile.dump_stats(profile_file)
            profile.enable()  # dump_stats stops it

    web = importlib.import_module("energies.server.web")
    clock = web.bot_clock

    async def lag() -> None:
        last_write = time.monotonic()
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            spans["event loop lag"].append(time.perf_counter() - start - 0.01)
            if time.monotonic() - last_write > 3:
                write()
                last_write = time.monotonic()

    async def bot_clock_with_lag(hub) -> None:
        asyncio.get_running_loop().create_task(lag())
        await clock(hub)

    web.bot_clock = bot_clock_with_lag
    from energies.cli import main

    if profile is not None:
        profile.enable()
    try:
        main(argv)
    finally:
        write()


# -- the load ----------------------------------------------------------------------------------


def run(tables: int, think: float, seed: int, profile: str | None) -> tuple[dict, dict]:
    import json
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import server_load
    import server_students

    spans_file = Path(tempfile.mkdtemp(prefix="energies-spans-")) / "spans.json"

    launcher = [sys.executable, __file__, "--serve", str(spans_file)]
    launcher += ["--profile", profile] if profile else []
    launcher += ["--"]

    def start_server(database: Path, *args: str, port: int | None = None):
        return server_students.start_server(database, *args, port=port, launcher=launcher)

    server_load.start_server = start_server
    before = resource.getrusage(resource.RUSAGE_SELF)
    result = server_load.run(tables, think, seed, 1800)
    after = resource.getrusage(resource.RUSAGE_SELF)
    result["client_cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result, json.loads(spans_file.read_text())


def report(result: dict, spans: dict, command: str) -> str:
    own = result["own"]
    moves = result["moves"]
    lines = [
        "# Where a move's time goes on the class server (benchmarks/server_profile.py)",
        "",
        f"Command: `{command}`  ",
        f"{os.cpu_count()} CPUs, load average at the end "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg())
        + f"; the server and the students at niceness {result['nice']}.",
        "",
        (
            f"{result['tables']} tables x 4 students, think {result['think']:g} s: {moves:,} "
            f"moves in {result['seconds']:.1f} s, {result['lost']} lost, {result['doubled']} "
            f"applied twice, {result['digests_equal']} of {result['games']} digests equal to the "
            f"offline replay. Move to the mover's own page: median "
            f"{statistics.median(own) * 1000:.0f} ms, 95th percentile "
            f"{pct(own, 0.95) * 1000:.0f} ms."
        ),
        "",
        (
            f"Processor time: the server {result['cpu']:.1f} s "
            f"({result['cpu'] / max(1, moves) * 1000:.1f} ms per move), the 40 students' "
            f"process {result['client_cpu']:.1f} s; the wall time the server spent handling "
            f"messages: {sum(spans[SPANS[0][2]]):.1f} s."
        ),
        "",
        "| span (wall time, server side) | n | median | 95th percentile | 99th | max | total |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, values in spans.items():
        if not values:
            continue
        lines.append(
            f"| {label} | {len(values):,} | {pct(values, 0.5) * 1000:.2f} ms | "
            f"{pct(values, 0.95) * 1000:.2f} ms | {pct(values, 0.99) * 1000:.2f} ms | "
            f"{max(values) * 1000:.0f} ms | {sum(values):.1f} s |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:  # the server process started by run()
        spans_file, rest = sys.argv[2], sys.argv[3:]
        profile = None
        if rest[:1] == ["--profile"]:
            profile, rest = rest[1], rest[2:]
        serve_with_spans(spans_file, profile, rest[1:])  # after the "--"
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--think", type=float, default=0.0, help="seconds before each click")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--profile", help="also write a cProfile of the server to this file")
    args = parser.parse_args()
    command = "nice -n 5 python benchmarks/server_profile.py " + " ".join(sys.argv[1:])
    result, spans = run(args.tables, args.think, args.seed, args.profile)
    text = report(result, spans, command)
    print(text)
    RESULT.write_text(text)


if __name__ == "__main__":
    main()
