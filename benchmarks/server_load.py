"""The class server under a class: 10 tables of 4 websocket clients play random moves to the end.

    nice -n 5 python benchmarks/server_load.py --tables 10 --think 0
    nice -n 5 python benchmarks/server_load.py --tables 10 --think 0.3 --append

Starts ``energies serve`` on loopback (its own process, a new class with the classroom preset,
seeds from ``--seed``) and runs ``--tables`` x 4 simulated students in this process
(``tests/server_students.py``): each joins by its table's code, then clicks a random option of
its own page as soon as it decides (after ``--think`` seconds: 0 is a stress test, every click
at once; a student takes seconds). Measured, per run:

* no move lost or applied twice: every acknowledged move is in the class file at its number,
  once, and the file holds nothing else;
* every finished game's digest equals its seed and acknowledged moves replayed offline, and the
  save file the console downloads;
* move-to-update latency: from a student's click to its own page showing the move, and to each
  other student's page showing it (one process: one clock);
* the server's memory (resident set, sampled every 0.2 s) with no table playing, while every
  table plays (each past move 50, none over: memory per table), and at its peak; its CPU time
  per move.

Writes benchmarks/results/server_load.md (``--append`` adds a run to it). A report, not a test:
``tests/test_server_class.py`` asserts the correctness part in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server_students import Student, start_server

import energies as en
from energies.classroom.database import ClassDatabase

RESULT = ROOT / "benchmarks" / "results" / "server_load.md"
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as handle:
        return int(handle.read().split()[1]) * PAGE / 2**20


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def steady_rss(pid: int, timeout: float = 30.0) -> float:
    """The resident memory once it stops growing (the server loads pandas and matplotlib in a
    worker thread at start): two samples half a second apart within 1 MiB."""
    last = rss_mib(pid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = rss_mib(pid)
        if abs(now - last) < 1.0:
            return now
        last = now
    return last


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def run(tables: int, think: float, seed: int, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="energies-load-") as tmp:
        path = Path(tmp) / "class.sqlite"
        server = start_server(
            path, "--tables", str(tables), "--seed", str(seed), "--bot-delay", "0"
        )
        pid = server.proc.pid
        try:
            idle_rss = steady_rss(pid)  # the libraries it loads at start are in, no table plays
            idle_cpu = cpu_seconds(pid)
            with ClassDatabase.open_for_reading(path) as db:
                codes = [t["code"] for t in db.tables()]
                key = db.setting("key")
            students = [
                Student(server.ws, code, f"S{seat}", seed=seed * 1000 + 10 * t + seat, think=think)
                for t, code in enumerate(codes)
                for seat in range(4)
            ]
            samples: list[float] = []
            in_play: list[float] = []  # while every table is past move 50 and none is over
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    rss = rss_mib(pid)
                    samples.append(rss)
                    progress = {}
                    for s in students:
                        seen = max(s.arrivals, default=0)
                        progress[s.code] = max(progress.get(s.code, 0), seen)
                    if (
                        len(progress) == tables
                        and min(progress.values()) >= 50
                        and not any(s.over for s in students)
                    ):
                        in_play.append(rss)
                    stop.wait(0.2)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            start = time.perf_counter()

            async def main():
                return await asyncio.gather(
                    *(s.play(timeout) for s in students), return_exceptions=True
                )

            results = asyncio.run(main())
            seconds = time.perf_counter() - start
            stop.set()
            sampler.join()
            busy_cpu = cpu_seconds(pid) - idle_cpu
            request = urllib.request.Request(
                f"{server.http}/console/games.zip", headers={"Authorization": f"Bearer {key}"}
            )
            with urllib.request.urlopen(request, timeout=120) as answer:
                archive = zipfile.ZipFile(io.BytesIO(answer.read()))
            downloaded = {
                int(name.split("table")[1][:2]): en.load_game(archive.read(name)).digest()
                for name in archive.namelist()
            }
        finally:
            server.stop()
        failures = [repr(r) for r in results if isinstance(r, BaseException)]
        checks = check(path, students, downloaded)
    own = [x for s in students for x in s.latencies]
    others = []
    for s in students:
        table = [o for o in students if o.code == s.code and o is not s]
        for number, clicked in s.sent.items():
            for other in table:
                seen = [t for moves, t in other.arrivals.items() if moves >= number]
                if seen:
                    others.append(min(seen) - clicked)
    moves = sum(len(s.moves) for s in students)
    return {
        "tables": tables,
        "think": think,
        "seed": seed,
        "seconds": seconds,
        "moves": moves,
        "refused": sum(len(s.refused) for s in students),
        "failures": failures,
        "over": sum(s.over for s in students),
        "students": len(students),
        "own": own,
        "others": others,
        "idle_rss": idle_rss,
        "peak_rss": max(samples) if samples else idle_rss,
        "play_rss": max(in_play) if in_play else float("nan"),
        "cpu": busy_cpu,
        "nice": os.nice(0),
        **checks,
    }


def check(path: Path, students: list[Student], downloaded: dict[int, str]) -> dict:
    """No move lost or doubled; each game's digest = its seed and moves replayed offline =
    the downloaded save file's."""
    lost = doubled = extra = 0
    digests_equal = 0
    outcomes: dict[str, int] = {}
    with ClassDatabase.open_for_reading(path) as db:
        numbers = {t["code"]: t["number"] for t in db.tables()}
        games = db.games()
        for record in games:
            acked: dict[int, dict] = {}
            for s in students:
                if numbers[s.code] != record.number:
                    continue
                for number, action in s.moves:
                    doubled += number in acked
                    acked[number] = action
            stored = {n: a for n, a, _d in db.moves(record.id)}
            lost += sum(1 for n, a in acked.items() if stored.get(n) != a)
            extra += sum(1 for n in stored if n not in acked)
            offline = en.new_game(
                rules=en.RuleSet.from_dict(record.rules), seed=record.seed, names=list(record.names)
            )
            codec = type(offline).CODEC
            for number in sorted(acked):
                offline.apply(codec.from_dict(acked[number]))
            same = offline.digest() == record.digest == downloaded.get(record.number)
            digests_equal += same
            kind = offline.outcome.kind if offline.outcome else "unfinished"
            outcomes[kind] = outcomes.get(kind, 0) + 1
    return {
        "games": len(games),
        "lost": lost,
        "doubled": doubled,
        "extra": extra,
        "digests_equal": digests_equal,
        "outcomes": outcomes,
    }


def report(run_: dict, command: str) -> str:
    r = run_
    own, others = r["own"], r["others"]
    per_table = (r["play_rss"] - r["idle_rss"]) / r["tables"]
    lines = [
        f"## {r['tables']} tables x 4 students, think {r['think']:g} s (seed {r['seed']})",
        "",
        f"Command: `{command}`  ",
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average at the end "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg())
        + f"; starlette {version('starlette')}, uvicorn {version('uvicorn')}, "
        f"websockets {version('websockets')}. The server and the {r['students']} clients share "
        f"the machine (and its load), both at niceness {r['nice']} (the server inherits it).",
        "",
        "| pass mark | result |",
        "|---|---|",
        (
            f"| games played to the end | {r['over'] // 4} of {r['tables']} "
            f"({', '.join(f'{n} {k}' for k, n in sorted(r['outcomes'].items()))}) |"
        ),
        (
            f"| moves acknowledged | {r['moves']:,} in {r['seconds']:.1f} s "
            f"({r['moves'] / r['seconds']:.0f} moves/s); {r['refused']} clicks refused |"
        ),
        (
            f"| moves lost / applied twice / in the file but never acknowledged | "
            f"{r['lost']} / {r['doubled']} / {r['extra']} |"
        ),
        (
            f"| digest = seed and moves replayed offline = downloaded save | "
            f"{r['digests_equal']} of {r['games']} games |"
        ),
        f"| client errors | {len(r['failures'])} |",
        "",
        "| move-to-update latency | n | median | 95th percentile | max |",
        "|---|---:|---:|---:|---:|",
        (
            f"| the mover's own page | {len(own):,} | {ms(statistics.median(own))} | "
            f"{ms(pct(own, 0.95))} | {ms(max(own))} |"
        ),
        (
            f"| every other page of the table | {len(others):,} | {ms(statistics.median(others))} | "
            f"{ms(pct(others, 0.95))} | {ms(max(others))} |"
        ),
        "",
        (
            f"Server memory (resident): {r['idle_rss']:.0f} MiB with no table playing (pandas "
            f"and matplotlib loaded at start), at most {r['play_rss']:.0f} MiB while all "
            f"{r['tables']} tables play (every one past move 50, none over): "
            f"**{per_table:.1f} MiB per table**; peak {r['peak_rss']:.0f} MiB once games end "
            "(the end of a game draws its charts). "
            f"Server CPU: {r['cpu']:.1f} s for {r['moves']:,} moves "
            f"({r['cpu'] / max(1, r['moves']) * 1000:.1f} ms per move, every page of the table built "
            "and sent)."
        ),
    ]
    if r["failures"]:
        lines += ["", "Client errors: " + "; ".join(r["failures"][:5])]
    return "\n".join(lines) + "\n"


HEADER = """# The class server under load (benchmarks/server_load.py)

Ten tables of four websocket clients each play the classroom preset to the end through
`energies serve` on loopback: each client clicks a random option of its own page when it
decides. The pass marks: no move lost or applied twice, every game's digest equal to its seed
and moves replayed offline; the latency and memory are recorded. The design aims at a 95th
percentile move-to-update latency of at most 100 ms on this 2-core machine.

"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--think", type=float, default=0.0, help="seconds before each click")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--append", action="store_true", help="add this run to the results file")
    args = parser.parse_args()
    command = "nice -n 5 python benchmarks/server_load.py " + " ".join(sys.argv[1:])
    result = run(args.tables, args.think, args.seed, args.timeout)
    text = report(result, command)
    print(text)
    if args.append and RESULT.exists():
        RESULT.write_text(RESULT.read_text() + "\n" + text)
    else:
        RESULT.write_text(HEADER + text)


if __name__ == "__main__":
    main()
