"""Import time of ``import energies`` in a fresh interpreter, and what the import pulls in.

    python benchmarks/import_time.py            # median of 10 fresh subprocesses
    python benchmarks/import_time.py --runs 20

Each run starts a new ``python`` process and times only ``import energies`` with
``time.perf_counter`` (the interpreter's own start-up is timed separately, as the median
of ``python -c pass``). The same process then checks that the heavy optional libraries
(pandas, matplotlib, ipywidgets) are NOT in ``sys.modules`` after the import: they must be
imported lazily, by the functions that need them, so a lesson that only plays games starts
fast (and works where they are missing). Exit status 1 if one of them is imported.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

FORBIDDEN = ("pandas", "matplotlib", "ipywidgets")
WATCH = ("networkx", "numpy", "scipy", "tqdm", "IPython", "dask", "concurrent.futures")

CHILD = """
import sys, time, json
t = time.perf_counter()
import energies
dt = time.perf_counter() - t
print(json.dumps({{
    "seconds": dt,
    "modules": len(sys.modules),
    "loaded": [m for m in {FORBIDDEN!r} + {WATCH!r} if m in sys.modules],
}}))
"""


def one_import() -> dict:
    code = CHILD.format(WATCH=WATCH, FORBIDDEN=FORBIDDEN)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bare_start() -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t


def top_import_costs(limit: int = 8) -> list[tuple[int, str]]:
    """The slowest top-level imports under ``-X importtime`` (cumulative microseconds)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import energies"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = {}
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self_us, cum_us, name = line[len("import time:") :].split("|", 2)
        name = name.strip()
        if "." not in name:  # package roots: energies, networkx, numpy, json, ...
            rows[name] = max(rows.get(name, 0), int(cum_us))
    rows = [(us, name) for name, us in rows.items()]
    return sorted(rows, reverse=True)[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument(
        "--out",
        default=str(Path(__file__).parent / "results" / "import_time.md"),
        help="markdown file to write ('' to only print)",
    )
    args = parser.parse_args()

    one_import()  # warm the file cache and the .pyc files
    results = [one_import() for _ in range(args.runs)]
    times = [r["seconds"] for r in results]
    bare = statistics.median(bare_start() for _ in range(args.runs))
    loaded = results[-1]["loaded"]
    bad = [m for m in FORBIDDEN if m in loaded]
    top = top_import_costs()

    lines = [
        "# `import energies` time (benchmarks/import_time.py)",
        "",
        f"Command: `python benchmarks/import_time.py {' '.join(sys.argv[1:])}`  ",
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs.",
        "",
        "| measure | value |",
        "|---|---:|",
        (
            f"| `import energies`, median of {args.runs} fresh processes | "
            f"{1000 * statistics.median(times):.1f} ms |"
        ),
        f"| min / max | {1000 * min(times):.1f} / {1000 * max(times):.1f} ms |",
        f"| bare interpreter start (`python -c pass`, median) | {1000 * bare:.1f} ms |",
        f"| modules in sys.modules after the import | {results[-1]['modules']} |",
        "",
        "Heavy libraries loaded by `import energies`: "
        + (", ".join(f"`{m}`" for m in loaded) or "none")
        + ".",
        "",
        "Slowest top-level imports (`python -X importtime`, cumulative): "
        + ", ".join(f"`{name}` {us / 1000:.1f} ms" for us, name in top)
        + ".",
        "",
        (
            f"**FAIL**: {', '.join(bad)} imported by `import energies` (must be lazy)."
            if bad
            else f"**PASS**: none of {', '.join(FORBIDDEN)} is in sys.modules after `import energies`."
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
