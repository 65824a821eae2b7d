"""Helpers shared by the widgets: HTML escaping, PNG drawing, the busy guard, the status line."""

from __future__ import annotations

import html
import io
import traceback

import ipywidgets as W

from ..newenergies.engine import IllegalActionError
from ..newenergies.game import Game, SaveFileError
from ..viz import plot_footprint


def _esc(text: str) -> str:
    """HTML-escape a text for element content (quotes stay readable: "seat 3's turn")."""
    return html.escape(str(text), quote=False)


def _figure_png(fig) -> bytes:
    """PNG bytes of a pyplot-free Figure: one Agg draw and a fast PNG encode (no savefig)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    image = Image.frombuffer(
        "RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1
    ).convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


CHART_SIZE = (7.6, 3.6)  # inches; at CHART_DPI a 760 pixel wide picture
CHART_DPI = 100  # sharp on a projector
_CHART_PX = int(CHART_SIZE[0] * CHART_DPI)
#: The PlayApp's chart: narrower and taller, its legend below the lines. The picture is shown
#: at most at its own width, and shrunk to the side column (about 440 px in JupyterLab beside
#: the file browser): its 11-point legend stays at 10 px or more there.
APP_CHART_SIZE = (6.2, 4.8)
APP_LEGEND_POINTS = 11


def _footprint_figure(game: Game, figsize=CHART_SIZE, dpi=CHART_DPI, legend: str = "right"):
    """A pyplot-free Figure with plot_footprint drawn in it, titled to fit a widget.

    ``legend="below"``: the legend in columns under the chart (the PlayApp's narrow column)."""
    from matplotlib.figure import Figure

    # fixed margins instead of a layout engine: a third of the drawing time saved per turn
    fig = Figure(figsize=figsize, dpi=dpi)
    if legend == "below":
        fig.subplots_adjust(left=0.11, right=0.78, bottom=0.42, top=0.86)
    else:
        fig.subplots_adjust(left=0.08, right=0.57, bottom=0.14, top=0.82)
    ax = fig.add_subplot()
    plot_footprint(game, ax=ax)
    # above the event markers that plot_footprint draws over the Axes, not on them
    ax.title.set_text("")
    fig.suptitle("LF per seat and GF (shading: discs drawn, rule 4.3)", fontsize=11, y=0.985)
    if legend == "below":
        old = ax.get_legend()
        labels = [text.get_text() for text in old.get_texts()]
        old.remove()
        ax.legend(
            old.legend_handles,
            labels,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.2),
            ncol=2,
            fontsize=APP_LEGEND_POINTS,
            frameon=False,
            columnspacing=1.2,
            handlelength=1.6,
        )
    _no_tiny_axes(ax)
    return fig, ax


def _no_tiny_axes(ax) -> None:
    """On turn 1 every footprint is 0 and matplotlib would show an axis from -0.04 to 0.04:
    keep at least two whole units on each axis, with whole-number ticks."""
    from matplotlib.ticker import MaxNLocator

    for get, set_, axis in (
        (ax.get_xlim, ax.set_xlim, ax.xaxis),
        (ax.get_ylim, ax.set_ylim, ax.yaxis),
    ):
        lo, hi = get()
        if hi - lo < 2:
            mid = round((lo + hi) / 2)
            set_(min(lo, mid - 1), max(hi, mid + 1))
        axis.set_major_locator(MaxNLocator(integer=True))


def footprint_png(
    game: Game,
    *,
    figsize=CHART_SIZE,
    dpi=CHART_DPI,
    turn: int | None = None,
    legend: str = "right",
) -> bytes:
    """The footprint chart (:func:`energies.viz.plot_footprint`) as PNG bytes, no pyplot.

    ``turn`` adds a vertical line at that turn; ``legend="below"`` puts the legend under the
    chart (see :func:`_footprint_figure`).
    """
    fig, ax = _footprint_figure(game, figsize, dpi, legend)
    if turn is not None:
        ax.axvline(turn, color="#E6007E", linewidth=2, linestyle="--", gid="turn-line", zorder=6)
    return _figure_png(fig)


def _risk_figure(game: Game, figsize=(5.0, 3.3), dpi=CHART_DPI):
    """A pyplot-free Figure with the risk meter, titled with the event phase it is about."""
    from matplotlib.figure import Figure

    from ..insight import plot_event_risk

    fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
    ax = plot_event_risk(game, ax=fig.add_subplot())
    # say which event phase: the coming one, at the start of the next turn (not "Turn 2"
    # alone while turn 1 runs, which read as a mistake)
    if game.is_over:
        title = "The game is over: no more event phases"
    else:
        from ..insight.risk import coming_phase

        _which, draws, turn = coming_phase(game.state)
        title = (
            f"Chance each event fires in the next event phase\n(start of turn {turn}: "
            f"{draws} disc{'s' * (draws != 1)} at GF {game.state.global_footprint})"
        )
    ax.set_title(title, fontsize=10)
    return fig, ax


def risk_png(game: Game, *, figsize=(5.0, 3.3), dpi=CHART_DPI) -> bytes:
    """The risk meter (:func:`energies.insight.plot_event_risk`) as PNG bytes, no pyplot.

    Exact chances that each event row fires in the coming event phase, from public
    information only (brown discs, the unseen green composition).
    """
    return _figure_png(_risk_figure(game, figsize, dpi)[0])


class _Guard:
    """The busy flag shared by a widget's handlers: one change of the game at a time."""

    def __init__(self, owner) -> None:
        self.owner = owner

    def run(self, what: str, fn, *args, **kwargs):
        owner = self.owner
        if owner._busy:
            owner.ignored_clicks += 1
            owner._say(f"Busy ({owner._busy}): that click was ignored.", "warn")
            return None
        owner._busy = what
        result = None
        try:
            result = fn(*args, **kwargs)
        except IllegalActionError as exc:
            owner._say(exc.reason, "error")
        except SaveFileError as exc:
            owner._say(str(exc), "error")
        except Exception as exc:  # noqa: BLE001 - a handler never shows a traceback
            owner.last_error = traceback.format_exc()
            owner._say(f"Something went wrong while {what}: {exc}", "error")
        finally:
            owner._busy = None
        try:
            owner._refresh()
        except Exception as exc:  # noqa: BLE001 - keep the picture, never raise into the frontend
            owner.last_error = traceback.format_exc()
            owner._say(f"Could not redraw: {exc}", "error")
        return result


_STATUS_COLORS = {"ok": "#1B5E20", "info": "#333333", "warn": "#8A5A00", "error": "#B00020"}


class _StatusMixin:
    status: W.HTML
    status_text: str = ""
    status_kind: str = "info"

    def _say(self, text: str, kind: str = "info") -> None:
        self.status_text, self.status_kind = text, kind
        color = _STATUS_COLORS.get(kind, "#333333")
        icon = {"error": "⚠ ", "warn": "⏳ "}.get(kind, "")
        self.status.value = (
            f'<div class="energies-status energies-{kind}" style="color:{color};min-height:1.4em">'
            f"{icon}{_esc(text)}</div>"
        )

    def _refresh(self) -> None:  # pragma: no cover - overridden
        pass

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def seats_problem(seats, players: int) -> str | None:
    """Why a seat map does not name exactly the seats 0 .. players - 1 of a table, or None
    (the apps would quietly ignore seat 9, and read True as seat 1)."""
    extra = [s for s in seats if not (type(s) is int and 0 <= s < players)]
    named = {s for s in seats if type(s) is int}
    missing = [s for s in range(players) if s not in named]
    if not extra and not missing:
        return None
    return (
        f"seats must name seats 0..{players - 1} exactly"
        + (f" (no seat {extra})" if extra else "")
        + (f" (missing {missing})" if missing else "")
        + "."
    )
