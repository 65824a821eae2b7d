"""PlayApp click latency: click-to-redraw time of human clicks and of "Bots play until my turn".

    python benchmarks/widget_click.py --clicks 30 --seed 3

A click is timed from ``button.click()`` until the handler returns, i.e. the action
applied, the board picture redrawn, the readouts, log and action buttons rebuilt (and
the footprint chart, when the turn changed). The human of seat 0 has plenty of cards
(teacher sandbox), so the clicks are a mix of rolls, builds, trades and decisions.
A report, not a test: the design target is < 200 ms per click.
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
    first = time.perf_counter() - start  # includes the one-off static board layer
    rng = random.Random(seed)
    human: list[float] = []
    parts: dict[str, list[float]] = {"board": [], "readouts": [], "actions": [], "chart": []}
    bots: list[float] = []
    builds_this_turn = 0
    while len(human) < clicks and not game.is_over:
        if game.current_seat not in app.humans:
            t = time.perf_counter()
            app.bots_button.click()
            bots.append(time.perf_counter() - t)
            builds_this_turn = 0
            continue
        if app.decision_buttons:
            button = rng.choice(app.decision_buttons)
        elif app.roll_button is not None:
            sandbox.give(game, 0, **{k: 2 for k in ("brick", "lumber", "fiber", "food", "science")})
            app.refresh()
            button = app.roll_button
        else:
            options = [b for b in app.action_buttons if b.action.group in ("build", "trade")]
            if options and builds_this_turn < 3:
                button = rng.choice(options)
                builds_this_turn += 1
            else:
                button = app.end_turn_button
        t = time.perf_counter()
        button.click()
        human.append(time.perf_counter() - t)
        for key, values in parts.items():
            values.append(app.timings.get(key, 0.0))
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
