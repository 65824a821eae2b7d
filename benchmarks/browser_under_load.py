"""The browser suite next to CPU-bound processes: does it pass on a loaded machine?

    nice -n 5 python benchmarks/browser_under_load.py --runs 5 --load 2

Starts ``--load`` busy loops (``python -c "while True: pass"``, at this script's own nice
level, so they compete with the suite on equal terms), runs the real-browser suite
(``python -m pytest -q -p no:cacheprovider tests/browser``: JupyterLab and Voila in Chromium)
``--runs`` times one after the other, stops the loops by their process ids and writes
benchmarks/results/browser_under_load.md: each run's result, pytest's summary line and
duration, and the load average. The suite tests this checkout: its folder leads PYTHONPATH, so
the servers' kernels import this ``energies`` even where another checkout is installed.

Issue 37 (part 8): a fresh clone's test run on two loaded cores failed two browser tests (a
double click on a discard, and the status after "Propose a trade to …"). The tests now wait on
the page's own state (clicks sent and answered, tests/browser/browserkit.py) and the app ties
every click to the decision it was made on. The exit status is 1 when a run failed.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "browser_under_load.md"
SUITE = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/browser"]
BUSY_LOOP = [sys.executable, "-c", "while True: pass"]


def start_load(count: int) -> list[subprocess.Popen]:
    """``count`` busy loops (each keeps one core busy)."""
    return [subprocess.Popen(BUSY_LOOP, stdin=subprocess.DEVNULL) for _ in range(count)]


def stop_load(loops: list[subprocess.Popen]) -> None:
    for loop in loops:
        loop.kill()  # by its own process id, nothing else
    for loop in loops:
        loop.wait()


def loop_cpu_seconds(loops: list[subprocess.Popen]) -> list[float]:
    """CPU time each busy loop has used (Linux /proc; empty elsewhere): the load was real."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    out = []
    for loop in loops:
        try:
            fields = Path(f"/proc/{loop.pid}/stat").read_text().rsplit(")", 1)[-1].split()
        except OSError:
            return []
        out.append((int(fields[11]) + int(fields[12])) / tick)  # utime + stime
    return out


def suite_env() -> dict[str, str]:
    """The environment of a run: this checkout first on PYTHONPATH (inherited by the servers
    and their kernels)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
    return env


def run_suite() -> dict:
    start = time.perf_counter()
    proc = subprocess.run(
        SUITE, cwd=ROOT, env=suite_env(), capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    summary = next(
        (line for line in reversed(lines) if re.search(r"\d+ (passed|failed|error)", line)),
        lines[-1] if lines else "(no output)",
    )
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    return {
        "code": proc.returncode,
        "seconds": seconds,
        "summary": summary.strip("= "),
        "failed": failed,
        "tail": proc.stdout[-4000:] + proc.stderr[-2000:],
    }


def report(results: list[dict], args, cpu: list[float], loads: list[tuple]) -> str:
    passed = sum(r["code"] == 0 for r in results)
    verdict = (
        f"PASS: {passed} of {len(results)} runs in a row passed"
        if passed == len(results)
        else f"FAIL: {passed} of {len(results)} runs passed"
    )
    nice = os.nice(0) if hasattr(os, "nice") else 0
    lines = [
        "# The browser suite next to CPU-bound processes (benchmarks/browser_under_load.py)",
        "",
        (
            f"Command: `nice -n {nice} python benchmarks/browser_under_load.py "
            f"--runs {args.runs} --load {args.load}`  "
        ),
        (
            f"Each run: `{' '.join(['python', *SUITE[1:]])}`, next to {args.load} busy loop(s) "
            f'(`python -c "while True: pass"`, nice {nice} like the suite).  '
        ),
        (
            f"Python {platform.python_version()}, {os.cpu_count()} CPUs; "
            f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC.  "
        ),
        "CPU time of the busy loops over the whole run: "
        + (", ".join(f"{s:.0f} s" for s in cpu) if cpu else "not measured")
        + ". Other work on the machine (other sessions' tests) ran too: see the load averages.",
        "",
        f"**{verdict}.**",
        "",
        "| run | result | pytest | duration | load average after (1, 5, 15 min) |",
        "|---:|---|---|---:|---|",
    ]
    for number, (r, load) in enumerate(zip(results, loads, strict=True), 1):
        lines.append(
            f"| {number} | {'pass' if r['code'] == 0 else 'FAIL'} | {r['summary']} | "
            f"{r['seconds']:.0f} s | {', '.join(f'{x:.1f}' for x in load)} |"
        )
    failures = [(n, r) for n, r in enumerate(results, 1) if r["code"] != 0]
    for number, r in failures:
        lines += ["", f"## Run {number} failed", "", *r["failed"], "", "```", r["tail"], "```"]
    seconds = [r["seconds"] for r in results]
    lines += [
        "",
        (
            f"Durations: {', '.join(f'{s:.0f} s' for s in seconds)} "
            f"(min {min(seconds):.0f} s, max {max(seconds):.0f} s)."
        ),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of the browser suite")
    parser.add_argument("--load", type=int, default=2, help="busy loops next to it")
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args()
    if args.runs < 1 or args.load < 0:
        parser.error("--runs must be 1 or more and --load 0 or more")
    results, loads = [], []
    # a SIGTERM stops the runs like Ctrl-C: the suite and the busy loops are stopped too
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    loops = start_load(args.load)
    try:
        for number in range(1, args.runs + 1):
            result = run_suite()
            results.append(result)
            loads.append(os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0))
            print(
                f"run {number}: {'pass' if result['code'] == 0 else 'FAIL'} "
                f"{result['summary']} ({result['seconds']:.0f} s)",
                flush=True,
            )
        cpu = loop_cpu_seconds(loops)
    finally:
        stop_load(loops)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(results, args, cpu, loads))
    print(f"wrote {args.out}")
    sys.exit(0 if all(r["code"] == 0 for r in results) else 1)


if __name__ == "__main__":
    main()
