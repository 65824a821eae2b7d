"""WhatIfWidget: pick a turn and another decision, run both branches, see the chart.

    from energies.insight import WhatIfWidget
    WhatIfWidget(game)

Needs ipywidgets (imported with this module) and matplotlib (imported when a
chart is drawn, without pyplot). Every click can be made from Python too:
``w.select_turn(12)``, ``w.alt_dropdown.value = action``, ``w.run()`` (or
``w.run_button.click()``); a failure is shown in ``w.status`` as a sentence.
"""

from __future__ import annotations

import html
import io
import traceback

import ipywidgets as W

from .whatif import action_turns, alternatives, branch_point, what_if

__all__ = ["WhatIfWidget"]


class WhatIfWidget:
    """Dropdown of turns, dropdown of alternatives, a Run button and the what-if chart."""

    def __init__(self, game, *, bots=None, samples: int = 10, horizon: int = 8, seed: int = 0):
        self.game, self.bots, self.seed = game, bots, seed
        self.result = None
        self.last_error: str | None = None
        self._busy = False
        self.turns = action_turns(game)
        self.status = W.HTML()
        self.turn_dropdown = W.Dropdown(
            description="Turn", options=[], layout=W.Layout(width="320px")
        )
        self.alt_dropdown = W.Dropdown(
            description="Instead", options=[], layout=W.Layout(width="560px", max_width="100%")
        )
        self.samples = W.IntSlider(value=samples, min=1, max=100, description="Samples")
        self.horizon = W.IntSlider(value=horizon, min=1, max=40, description="Turns ahead")
        self.resample = W.Checkbox(
            value=False, description="new dice for every sample", indent=False
        )
        self.run_button = W.Button(description="Run", button_style="primary", icon="play")
        self.chart = W.Image(format="png", layout=W.Layout(width="640px", max_width="100%"))
        self.table = W.HTML()
        self.widget = W.VBox(
            [
                W.HBox([self.turn_dropdown, self.samples, self.horizon]),
                W.HBox([self.alt_dropdown, self.resample, self.run_button]),
                self.status,
                self.chart,
                self.table,
            ]
        )
        names = game.names
        options = []
        for t in self.turns:
            seat = _active_at(game, t)
            options.append((f"Turn {t} — {names[seat] if seat is not None else '?'}", t))
        self.turn_dropdown.options = options
        self.turn_dropdown.observe(self._on_turn, names="value")
        self.run_button.on_click(lambda _b: self.run())
        if self.turns:
            self.select_turn(self.turns[0])
        else:
            self._say("No turn of this game reached its action phase yet: play a turn first.")

    # -- actions (also callable from Python) ------------------------------------------------

    def select_turn(self, turn: int) -> None:
        """Show the alternatives at the start of ``turn``'s action phase."""
        if turn not in self.turns:  # the dropdown would raise TraitError "Invalid selection"
            choose = f"turns {self.turns[0]} to {self.turns[-1]}" if self.turns else "none yet"
            self._say(f"There is no turn {turn!r} to choose here ({choose}).", error=True)
            return
        if self.turn_dropdown.value != turn:
            self.turn_dropdown.value = turn  # the observer loads the alternatives
        else:
            self._load(turn)

    def run(self):
        """Run :func:`what_if` for the chosen turn and alternative; show chart and summary."""
        if self._busy:
            self._say("Still running: that click was ignored.")
            return None
        self._busy = True
        try:
            turn, alternative = self.turn_dropdown.value, self.alt_dropdown.value
            if turn is None or alternative is None:
                self._say("Choose a turn and an alternative first.")
                return None
            self._say("Playing both branches …")
            self.result = what_if(
                self.game,
                turn,
                alternative,
                horizon=self.horizon.value,
                samples=self.samples.value,
                bots=self.bots,
                seed=self.seed,
                resample_chance=self.resample.value,
            )
            self.chart.value = _png(self.result)
            self.table.value = self.result.summary().round(2).to_html()
            self._say(
                f"Done: {self.result.samples} paired samples, {self.horizon.value} turns ahead."
            )
            return self.result
        except Exception as exc:  # noqa: BLE001 - a click never shows a traceback
            self.last_error = traceback.format_exc()
            self._say(f"Cannot run this what-if: {exc}", error=True)
            return None
        finally:
            self._busy = False

    # -- internals ----------------------------------------------------------------------------

    def _on_turn(self, change) -> None:
        if change["new"] is not None:
            self._load(change["new"])

    def _load(self, turn: int) -> None:
        try:
            options = alternatives(self.game, turn)
        except ValueError as exc:
            self.alt_dropdown.options = []
            self._say(str(exc), error=True)
            return
        self.alt_dropdown.options = options
        if len(options) > 1:
            self.alt_dropdown.value = options[1][1]  # the first option that differs
        self._say(f"Turn {turn}: {len(options)} choices. Pick one and press Run.")

    def _say(self, text: str, error: bool = False) -> None:
        color = "#B00020" if error else "#333333"
        self.status.value = f'<div style="color:{color}">{html.escape(text, quote=False)}</div>'

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _active_at(game, turn: int):
    for record in game.history:
        if record["turn"] == turn:
            return record.get("active")
    try:
        return branch_point(game, turn)[0].active_seat
    except ValueError:
        return None


def _png(result) -> bytes:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9.0, 4.2), dpi=72, layout="constrained")
    result.plot(ax=fig.add_subplot())
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
