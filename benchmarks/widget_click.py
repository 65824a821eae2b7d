"""PlayApp click latency: click-to-redraw time of human clicks and of "Bots play until my turn".

    python benchmarks/widget_click.py --clicks 30 --seed 3

A click is timed from the page's message (``app.message``) until the handler returns, i.e.
the action applied and the page's view rebuilt (board spots with their reasons, controls,
readouts; the footprint chart too when the chart tab is open and the turn changed). The human of seat 0 has plenty of cards
(teacher sandbox), so the clicks are a mix of rolls, builds, trades and decisions.
A report, not a test: the design target is < 200 ms per click (the browser adds its part:
benchmarks/browser_latency.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import energies as en
from energies import sandbox
from energies.widgets import PlayApp


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:7.1f} ms"


def run(clicks: int, seed: int, chart: bool) -> dict:
    game = en.new_game(seed=seed, names=["Ada", "Bob", "Cy", "Di"])
    start = time.perf_counter()
    app = PlayApp(game, chart=chart)
    if chart:
        app.show_charts()  # the chart tab open: charts redrawn when a turn passes
    first = time.perf_counter() - start
    rng = random.Random(seed)
    human: list[float] = []
    parts: dict[str, list[float]] = {"spots": [], "view": [], "chart": []}
    bots: list[float] = []
    builds_this_turn = 0

    def press(option: dict) -> None:
        t = time.perf_counter()
        app.message({"type": "act", "action": option["a"], "decision_no": app.page["decision_no"]})
        human.append(time.perf_counter() - t)
        for key, values in parts.items():
            values.append(app.timings.get(key, 0.0))

    while len(human) < clicks and not game.is_over:
        page = app.page
        if game.current_seat not in app.humans:
            t = time.perf_counter()
            app.message({"type": "bots"})
            bots.append(time.perf_counter() - t)
            builds_this_turn = 0
        elif page["decision"]:
            press(rng.choice(page["decision"]["options"]))
        elif game.state.phase == "roll":
            sandbox.give(game, 0, **{k: 2 for k in ("brick", "lumber", "fiber", "food", "science")})
            app.refresh()
            press(next(o for o in app.page["turn"] if o["kind"] == "roll_dice"))
        else:
            board = [o for s in page["spots"].values() for o in s.get("options", ())]
            trades = [o for r in page["supply"] for o in r.get("options", [])]
            if (board or trades) and builds_this_turn < 3:
                press(rng.choice(board or trades))
                builds_this_turn += 1
            else:
                press(next(o for o in page["turn"] if o["kind"] == "end_turn"))
    return {"first": first, "human": human, "parts": parts, "bots": bots}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--no-chart", action="store_true", help="PlayApp(chart=False)")
    args = parser.parse_args()
    result = run(args.clicks, args.seed, not args.no_chart)
    human, bots = result["human"], result["bots"]
    print(f"PlayApp start (first board picture, chart): {_ms(result['first'])}")
    print(f"human clicks: {len(human)}")
    print(f"  median click-to-redraw: {_ms(statistics.median(human))}")
    print(f"  90th percentile:        {_ms(sorted(human)[int(0.9 * (len(human) - 1))])}")
    print(f"  slowest:                {_ms(max(human))}")
    for key, values in result["parts"].items():
        print(f"    median {key:<9} {_ms(statistics.median(values))}")
    if bots:
        print(f"'Bots play until my turn' ({len(bots)} clicks, incl. redraw and chart):")
        print(f"  median: {_ms(statistics.median(bots))}   slowest: {_ms(max(bots))}")


if __name__ == "__main__":
    main()
