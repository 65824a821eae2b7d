"""Helpers shared by the widgets: HTML escaping, PNG drawing, the busy guard, the status line."""

from __future__ import annotations

import html
import io
import traceback

import ipywidgets as W

from ..engine import IllegalActionError
from ..game import Game, SaveFileError
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


CHART_SIZE = (9.0, 3.8)  # inches; at CHART_DPI a 576 pixel wide picture
CHART_DPI = 64
_CHART_PX = int(CHART_SIZE[0] * CHART_DPI)


def _footprint_figure(game: Game, figsize=CHART_SIZE, dpi=CHART_DPI):
    """A pyplot-free Figure with plot_footprint drawn in it, titled to fit a widget."""
    from matplotlib.figure import Figure

    # fixed margins instead of a layout engine: a third of the drawing time saved per turn
    fig = Figure(figsize=figsize, dpi=dpi)
    fig.subplots_adjust(left=0.075, right=0.615, bottom=0.13, top=0.8)
    ax = fig.add_subplot()
    plot_footprint(game, ax=ax)
    ax.title.set_text("LF per seat and GF — shading: discs drawn per event phase (rule 4.3)")
    ax.title.set_fontsize(11)
    return fig, ax


def footprint_png(
    game: Game, *, figsize=CHART_SIZE, dpi=CHART_DPI, turn: int | None = None
) -> bytes:
    """The footprint chart (:func:`energies.viz.plot_footprint`) as PNG bytes, no pyplot.

    ``turn`` adds a vertical line at that turn.
    """
    fig, ax = _footprint_figure(game, figsize, dpi)
    if turn is not None:
        ax.axvline(turn, color="#E6007E", linewidth=2, linestyle="--", gid="turn-line", zorder=6)
    return _figure_png(fig)


def risk_png(game: Game, *, figsize=(4.6, 3.2), dpi=CHART_DPI) -> bytes:
    """The risk meter (:func:`energies.insight.plot_event_risk`) as PNG bytes, no pyplot.

    Exact chances that each event row fires in the coming event phase, from public
    information only (brown discs, the unseen green composition).
    """
    from matplotlib.figure import Figure

    from ..insight import plot_event_risk

    fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
    ax = plot_event_risk(game, ax=fig.add_subplot())
    ax.title.set_fontsize(8)
    return _figure_png(fig)


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
