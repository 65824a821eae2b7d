"""RulesPanel: change a few rules, run a small simulation, compare outcomes."""

from __future__ import annotations

import time
from typing import Any

import ipywidgets as W

from ..newenergies.rules import RuleSet
from .common import _esc, _figure_png, _Guard, _StatusMixin


class RulesPanel(_StatusMixin):
    """Change a few rules, run a small simulation and compare how the games end.

    Sliders: the science cost of a renewable plant (rule 10), the spaces of every event
    row (rule 6.3), a shift of the disc-band edges and the discs drawn in the middle band
    (rule 4.3). "Run" plays ``games`` bot games with :func:`energies.simulate.simulate`
    and draws :func:`energies.viz.plot_outcomes` next to the everyone-loses rate of
    every run so far.
    """

    def __init__(
        self,
        bots=("fossil", "green", "balanced", "random"),
        games: int = 40,
        *,
        seed: int = 0,
        jobs: int = 1,
    ) -> None:
        self.bots = list(bots)
        if len(self.bots) not in (3, 4):
            raise ValueError("RulesPanel needs 3 or 4 bots, one per seat.")
        self.base = RuleSet.standard(len(self.bots))
        self.seed, self.jobs = seed, jobs
        self._busy: str | None = None
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self.runs: list[dict[str, Any]] = []
        self.last_frame = None
        self.last_rules: RuleSet | None = None
        bands = self.base.disc_bands
        self._middle = 1 if len(bands) > 2 else 0
        style = {"description_width": "230px"}
        wide = W.Layout(width="520px", max_width="100%")
        self.renewable_cost = W.IntSlider(
            value=dict(self.base.renewable_cost).get("science", 3),
            min=0,
            max=8,
            description="Renewable plant costs (science)",
            style=style,
            layout=wide,
        )
        self.event_spaces = W.IntSlider(
            value=self.base.event_spaces[0][1],
            min=1,
            max=6,
            description="Spaces per event row",
            style=style,
            layout=wide,
        )
        self.band_shift = W.IntSlider(
            value=0,
            min=-(bands[0][1] - bands[0][0]),
            max=bands[-1][1] - bands[-1][0],
            description="Shift the disc-band edges by",
            style=style,
            layout=wide,
        )
        self.middle_discs = W.IntSlider(
            value=bands[self._middle][2],
            min=0,
            max=4,
            description="Discs drawn in the middle band",
            style=style,
            layout=wide,
        )
        self.games = W.IntSlider(
            value=games,
            min=1,
            max=max(200, games),
            description="Games per run",
            style=style,
            layout=wide,
        )
        self.run_button = W.Button(description="Run", icon="play", button_style="primary")
        self.run_button.on_click(lambda _b: self.run())
        self.rules_html = W.HTML()
        self.status = W.HTML()
        self.chart_image = W.Image(format="png", layout=W.Layout(width="900px", max_width="100%"))
        for slider in (self.renewable_cost, self.event_spaces, self.band_shift, self.middle_discs):
            slider.observe(lambda _c: self._show_rules(), names="value")
        self.widget = W.VBox(
            [
                self.renewable_cost,
                self.event_spaces,
                self.band_shift,
                self.middle_discs,
                self.games,
                self.rules_html,
                W.HBox([self.run_button, self.status]),
                self.chart_image,
            ]
        )
        self._say(f"Lineup: {', '.join(map(str, self.bots))}. Press Run.")
        self._show_rules()

    def _bands(self) -> tuple[tuple[int, int, int], ...]:
        shift, bands = self.band_shift.value, self.base.disc_bands
        last = len(bands) - 1
        out = []
        for i, (low, high, discs) in enumerate(bands):
            low = low + shift if i > 0 else low
            high = high + shift if i < last else high
            out.append((low, high, self.middle_discs.value if i == self._middle else discs))
        return tuple(out)

    def current_rules(self) -> RuleSet:
        """The rule set the sliders describe."""
        field = "disc_bands_4p" if self.base.players == 4 else "disc_bands_3p"
        return self.base.replace(
            renewable_cost=(("science", self.renewable_cost.value),),
            event_spaces=tuple((row, self.event_spaces.value) for row, _ in RuleSet().event_spaces),
            **{field: self._bands()},
        )

    def _label(self) -> str:
        return (
            f"renewable {self.renewable_cost.value} · rows {self.event_spaces.value} · "
            f"bands {self.band_shift.value:+d} · middle {self.middle_discs.value}"
        )

    def _show_rules(self) -> None:
        try:
            bands = self.current_rules().disc_bands
        except ValueError as exc:
            self.rules_html.value = f'<span style="color:#B00020">{_esc(str(exc))}</span>'
            return
        text = " · ".join(f"GF {lo}–{hi}: {d} disc{'s' * (d != 1)}" for lo, hi, d in bands)
        self.rules_html.value = f"<small>Disc bands (rule 4.3): {_esc(text)}</small>"

    def _refresh(self) -> None:
        pass

    def run(self):
        """Run the simulation with the rules of the sliders; return the games' DataFrame."""
        return _Guard(self).run("running the simulation", self._run)

    def _run(self):
        from ..runner.batch import simulate

        rules = self.current_rules()
        games = self.games.value
        self._say(f"running… {games} games with {self._label()}", "warn")
        start = time.perf_counter()
        frame = simulate(
            games, self.bots, rules=rules, seed=self.seed, jobs=self.jobs, progress=False
        )
        seconds = time.perf_counter() - start
        rate = float((frame["outcome"] == "everyone_loses").mean())
        self.runs.append({"label": self._label(), "games": games, "everyone_loses": rate})
        self.last_frame, self.last_rules = frame, rules
        self.chart_image.value = self._chart(frame, rate)
        self._say(
            f"Done: {games} games in {seconds:.1f} s; everyone loses in {rate:.0%} of them.", "ok"
        )
        return frame

    def _chart(self, frame, rate: float) -> bytes:
        from matplotlib.figure import Figure

        from ..viz import OUTCOME_COLORS, plot_outcomes

        fig = Figure(
            figsize=(12.5, 3.2 + 0.5 * frame["lineup"].nunique()), dpi=72, layout="constrained"
        )
        ax, trend = fig.subplots(1, 2, width_ratios=(3, 2))
        plot_outcomes(frame, ax=ax)
        ax.axvline(rate, color="black", linestyle="--", linewidth=1.5, gid="everyone-loses-rate")
        rates = [r["everyone_loses"] for r in self.runs]
        trend.plot(
            range(1, len(rates) + 1),
            rates,
            marker="o",
            linewidth=2,
            color=OUTCOME_COLORS["everyone_loses"],
            gid="everyone-loses-runs",
        )
        trend.set_ylim(0, 1)
        trend.set_xlim(0.5, len(rates) + 0.5)
        trend.set_xticks(range(1, len(rates) + 1))
        trend.yaxis.set_major_formatter("{x:.0%}")
        # the last run's rules under the axis: a label beside its point ran over the y axis
        parts = self.runs[-1]["label"].split(" · ")  # two short lines fit the narrow axis
        last = "\n".join(" · ".join(half) for half in (parts[:2], parts[2:]) if half)
        trend.set_xlabel(f"run (the last one: {last})", fontsize=11)
        trend.set_ylabel("everyone loses", fontsize=12)
        trend.set_title(f"Everyone loses, per run (now {rate:.0%})", fontsize=13)
        return _figure_png(fig)
