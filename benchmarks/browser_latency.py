"""PlayApp click-to-update latency in a real browser: Voila + Chromium (Playwright).

    python benchmarks/browser_latency.py --clicks 20 --pages 3

Starts Voila on notebooks/02-play.ipynb (a free port on 127.0.0.1), opens it in headless
Chromium (/usr/bin/chromium, nothing downloaded) and clicks the button that moves the game
on: "Step" (one bot decision) while a bot decides, otherwise the human's roll, decision or
end of turn. A click is timed in the page, from the click event (a capture-phase listener) to
the page redrawn from the kernel's answer (a MutationObserver on its data-rev): the widget
message to the kernel, the handler (move applied, spots, controls, readouts), the synced
state back and the SVG board and controls drawn. Before each click the kernel is idle. Each page is a fresh Voila kernel.

The helpers are the browser tests' (tests/browser/browserkit.py). Writes
benchmarks/results/browser_latency.md. A report, not a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import browserkit as bk

RESULT = ROOT / "benchmarks" / "results" / "browser_latency.md"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))]


def run(clicks: int, pages: int) -> tuple[list[dict], dict]:
    from playwright.sync_api import sync_playwright

    samples: list[dict] = []
    info: dict = {}
    with tempfile.TemporaryDirectory(prefix="energies-latency-") as tmp:
        start = time.perf_counter()
        server = bk.start_voila(Path(tmp))
        info["voila_start_s"] = time.perf_counter() - start
        try:
            with sync_playwright() as driver:
                browser = bk.launch_chromium(driver)
                info["chromium"] = browser.version
                renders = []
                for number in range(pages):
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    context.add_init_script(bk.KERNEL_WATCH_JS)
                    page = context.new_page()
                    start = time.perf_counter()
                    page.goto(server.url, wait_until="domcontentloaded", timeout=bk.RENDER_TIMEOUT)
                    bk.wait_for_app(page)
                    renders.append(time.perf_counter() - start)
                    for sample in bk.measure_latency(page, clicks):
                        samples.append({**sample, "page": number})
                    context.close()
                info["render_s"] = renders
                browser.close()
        finally:
            server.stop()
    return samples, info


def _kind(label: str) -> str:
    if label == "Step":
        return "Step (one bot decision)"
    if label == bk.ROLL_LABEL:
        return "human: roll"
    if label == bk.END_LABEL:
        return "human: end turn"
    return "human: decision"


def _row(name: str, values: list[float]) -> str:
    return (
        f"| {name} | {len(values)} | {statistics.median(values):.0f} ms | "
        f"{_pct(values, 0.9):.0f} ms | {min(values):.0f} ms | {max(values):.0f} ms |"
    )


def report(samples: list[dict], info: dict, command: str) -> str:
    kinds: dict[str, list[dict]] = {}
    for s in samples:
        kinds.setdefault(_kind(s["label"]), []).append(s)
    groups = [("all clicks", samples)] + sorted(kinds.items())
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    header = [
        "| clicks | n | median | 90th percentile | min | max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    lines = [
        "# Click-to-update latency in the browser (benchmarks/browser_latency.py)",
        "",
        f"Command: `{command}`  ",
        (
            f"Voila {version('voila')}, JupyterLab {version('jupyterlab')}, ipywidgets "
            f"{version('ipywidgets')}, Playwright {version('playwright')}, Chromium "
            f"{info.get('chromium', '?')} (headless, /usr/bin/chromium); Python "
            f"{platform.python_version()}, {os.cpu_count()} CPUs, load average at the end {load} "
            "(other jobs were running).  "
        ),
        (
            f"Voila started in {info['voila_start_s']:.1f} s; page until the app was drawn "
            f"(notebook executed): {', '.join(f'{r:.1f} s' for r in info['render_s'])}."
        ),
        "",
        (
            "Timed in the page, from the click event (capture-phase listener). The kernel is idle "
            'before each click. Clicks: the button that moves the game on — "Step" while a bot '
            "decides, else the human's roll / decision / end of turn."
        ),
        "",
        "## Click to the updated page",
        "",
        (
            "Widget message to the kernel, the handler (move applied, board spots, controls, "
            "readouts), the synced view back and the SVG board and controls drawn."
        ),
        "",
        *header,
        *(_row(name, [s["ms"] for s in group]) for name, group in groups),
        "",
        '## Click to the kernel\'s "idle" (every update sent)',
        "",
        *header,
        *(_row(name, [s["idle_ms"] for s in group]) for name, group in groups),
        "",
        (
            f"**Median click-to-update: {statistics.median(s['ms'] for s in samples):.0f} ms** "
            f"(max {max(s['ms'] for s in samples):.0f} ms; to idle: {statistics.median(s['idle_ms'] for s in samples):.0f} ms). The design "
            "target: at most 150 ms in Chromium (issue 17); the kernel-side handler alone: "
            "benchmarks/widget_click.py."
        ),
        "",
        "Every click, to the updated page (ms): " + ", ".join(f"{s['ms']:.0f}" for s in samples),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20, help="clicks per page")
    parser.add_argument("--pages", type=int, default=1, help="fresh pages (Voila kernels)")
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args()
    why = bk.missing_browser()
    if why:
        sys.exit(f"{why}: {bk.INSTALL_HINT}")
    samples, info = run(args.clicks, args.pages)
    all_ms = [s["ms"] for s in samples]
    idle = statistics.median(s["idle_ms"] for s in samples)
    print(
        f"median click-to-update: {statistics.median(all_ms):.0f} ms, max {max(all_ms):.0f} ms "
        f"({len(all_ms)} clicks; "
        f"to kernel idle {idle:.0f} ms)"
    )
    command = f"python benchmarks/browser_latency.py --clicks {args.clicks} --pages {args.pages}"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(samples, info, command))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
