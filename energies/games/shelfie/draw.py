"""The picture of a game of My Shelfie Dice: every shelf, the marks, the scores and the dice.

One drawing function, :func:`draw_game` (``ax=None`` makes a figure; returns the Axes),
used by ``ShelfieGame.draw``, ``_repr_png_``, the widget and the lesson. Every colour
also has a text cue (row names, ``O`` circled, ``X`` crossed out). The kit's palette
(:mod:`energies.viz.style`) is imported when a picture is drawn, never with the game.
"""

from __future__ import annotations

from ...kit.i18n import N_, nsay, render, say
from ...kit.text import chart_text
from .actions import face_name, face_word
from .state import CIRCLED, CROSSED

# Paul Tol's "light" scheme: one per row colour; the joker is grey
ROW_COLORS = ("#FFAABB", "#77AADD", "#44BB99", "#EEDD88", "#E8E8E8", "#BBBBBB")
GAP = 1.6  # space between shelves, in item widths


def _colour(face: int) -> str:
    return ROW_COLORS[face] if face < len(ROW_COLORS) else "#CCCCCC"


def draw_game(game, ax=None, seats=None):
    """Draw the shelves of ``seats`` (default all) side by side, and the dice on the table."""
    if ax is None:
        import matplotlib.pyplot as plt

        rules = game.rules
        shown = len(seats) if seats is not None else rules.players
        _, ax = plt.subplots(figsize=(2.3 * shown + 0.6, 3.4))
    from matplotlib.patches import Circle, Rectangle

    from ...viz.style import HIGHLIGHT_COLOR, chart_fonts

    state, rules = game.state, game.rules
    seats = list(range(rules.players)) if seats is None else list(seats)
    width = rules.columns + GAP
    for n, seat in enumerate(seats):
        x0 = n * width
        shelf, parts = state.shelves[seat], state.score_parts(seat)
        active = state.outcome is None and seat == state.active
        winner = state.outcome is not None and seat in state.outcome.winners
        title = say(
            N_("{name}: {points} pts"),
            game.lang,
            name=chart_text(game.names[seat]),
            points=state.score(seat),
        ) + (" ★" if winner else "")
        ax.text(
            x0 + rules.columns / 2,
            rules.colours + 0.35,
            title,
            ha="center",
            va="bottom",
            fontsize=9,
            fontweight="bold" if active or winner else "normal",
            color=HIGHLIGHT_COLOR if active else "black",
        )
        for row in range(rules.colours):
            y = rules.colours - 1 - row
            for column in range(rules.columns):
                mark = shelf[row][column]
                ax.add_patch(
                    Rectangle(
                        (x0 + column, y),
                        0.94,
                        0.94,
                        facecolor=_colour(row),
                        edgecolor="#555555",
                        linewidth=0.6,
                        alpha=0.35 if mark == CROSSED else 1.0,
                    )
                )
                cx, cy = x0 + column + 0.47, y + 0.47
                if mark == CIRCLED:
                    ax.add_patch(Circle((cx, cy), 0.36, fill=False, linewidth=2, edgecolor="black"))
                if mark == CROSSED:
                    ax.plot([cx - 0.3, cx + 0.3], [cy - 0.3, cy + 0.3], color="#444444", lw=1.2)
                    ax.plot([cx - 0.3, cx + 0.3], [cy + 0.3, cy - 0.3], color="#444444", lw=1.2)
                ax.text(cx, cy, str(rules.value(row, column)), ha="center", va="center", fontsize=7)
            if parts["rows"][row]:
                ax.text(
                    x0 + rules.columns + 0.1,
                    y + 0.47,
                    str(parts["rows"][row]),
                    va="center",
                    fontsize=7,
                )
        for column, points in enumerate(parts["columns"]):
            if points:
                ax.text(x0 + column + 0.47, -0.3, str(points), ha="center", va="center", fontsize=7)
    for row in range(rules.colours):  # row names once, on the left
        ax.text(
            -0.15,
            rules.colours - 1 - row + 0.47,
            str(render(face_word(row), game.lang)),
            ha="right",
            va="center",
            fontsize=7,
        )
    _draw_dice(ax, game, Rectangle)
    ax.set_xlim(-1.3, len(seats) * width - GAP + 0.8)
    ax.set_ylim(-1.9, rules.colours + 1.0)
    ax.set_aspect("equal")
    ax.axis("off")
    chart_fonts(game.lang, ax)  # Chinese glyphs from a CJK font
    return ax


def _draw_dice(ax, game, Rectangle) -> None:
    state = game.state
    if state.outcome is not None:
        ax.text(0, -1.2, str(render(state.outcome.reason, game.lang)), fontsize=8, va="center")
        return
    seat = say(N_("seat {seat}:"), game.lang, seat=state.active)
    ax.text(0, -1.2, seat, fontsize=8, va="center")
    for i, face in enumerate(state.dice):
        x = 1.6 + i * 0.75
        ax.add_patch(
            Rectangle((x, -1.5), 0.6, 0.6, facecolor=_colour(face), edgecolor="black", lw=0.8)
        )
        label = "J" if face == game.rules.joker else face_name(face)[0].upper()
        ax.text(x + 0.3, -1.2, label, ha="center", va="center", fontsize=8, fontweight="bold")
    if state.phase == "roll":
        left = nsay("{n} re-roll left", "{n} re-rolls left", state.rerolls_left, game.lang)
    else:
        left = say(N_("circle or cross out"), game.lang)
    ax.text(1.6 + len(state.dice) * 0.75 + 0.2, -1.2, left, fontsize=8, va="center")


def game_png(game, dpi: int = 72) -> bytes:
    """The picture as PNG bytes, without pyplot (for ``_repr_png_`` and widgets)."""
    from matplotlib.figure import Figure

    from ...viz.style import figure_png

    fig = Figure(figsize=(2.3 * game.rules.players + 0.6, 3.4), dpi=dpi)
    fig.subplots_adjust(0, 0, 1, 1)
    draw_game(game, ax=fig.add_subplot())
    return figure_png(fig)
