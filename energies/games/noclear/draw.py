"""The picture of a game of Noclear: the markets, both radioactivity tokens and every seat.

One drawing function, :func:`draw_game` (``ax=None`` makes a figure; returns the Axes),
used by ``NoclearGame.draw``, ``_repr_png_``, the widget and the lesson. Colours
always come with text (energy numbers, symbol names, a ☢ on what a token marks). The kit's
palette (:mod:`energies.viz.style`) is imported when a picture is drawn, never with the game.
"""

from __future__ import annotations

from collections import Counter

from ...kit.text import chart_text
from .rules import SYMBOLS

ENERGY_COLORS = ("#0072B2", "#E69F00")  # blue, orange (Okabe-Ito)
SYMBOL_COLORS = {
    "wind": "#CFE6F2",
    "sun": "#FFF3B0",
    "water": "#BFD8F0",
    "coal": "#D9CFC7",
    "atom": "#E6D5EC",
}
TOKEN = "☢"


def _energy_text(amounts) -> str:
    return " + ".join(f"{n} {c}" for n, c in zip(amounts, ("blue", "orange")) if n) or "nothing"


def draw_game(game, ax=None):
    """Draw the machine market (top token), the symbols (bottom token), uranium and the seats."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(9, 2.6 + 0.75 * game.rules.players))
    from matplotlib.patches import FancyBboxPatch, Rectangle

    state, rules, cards = game.state, game.rules, game.cards
    top_y = rules.players * 1.0 + 1.2
    ax.text(0, top_y + 1.55, f"Market (deck {state.deck_size})", fontsize=9, fontweight="bold")
    for slot, machine_id in enumerate(state.market):
        x = slot * 1.75
        if machine_id is None:
            ax.add_patch(
                Rectangle((x, top_y), 1.6, 1.3, fill=False, linestyle=":", edgecolor="#999999")
            )
            continue
        m = cards.machines[machine_id]
        ax.add_patch(
            FancyBboxPatch(
                (x, top_y),
                1.6,
                1.3,
                boxstyle="round,pad=0.02",
                facecolor=SYMBOL_COLORS[m.symbol],
                edgecolor="black",
                lw=0.8,
            )
        )
        effect = {"surge": "surge", "move_token": "move ☢"}.get(m.effect, "")
        lines = [
            m.name,
            f"{m.symbol}  {effect}",
            f"cost {m.price.printed}",
            *([f"  paid in any split of {m.price.total}"] if m.price.mixed else []),  # rule 2.2
            f"makes {_energy_text(m.produce)}",
        ]
        ax.text(x + 0.08, top_y + 1.2, "\n".join(lines), fontsize=6.5, va="top")
        if slot == state.top:
            ax.text(
                x + 1.45,
                top_y + 1.15,
                TOKEN,
                fontsize=14,
                color="#C8102E",
                ha="center",
                va="center",
            )
    ux = rules.market_size * 1.75 + 0.3
    ax.text(ux, top_y + 1.55, f"Uranium ({len(state.uranium)} left)", fontsize=9, fontweight="bold")
    prices = {u.id: u.price for u in cards.uranium}
    for i, card in enumerate(state.visible_uranium()):
        ax.add_patch(
            FancyBboxPatch(
                (ux + i * 0.8, top_y + 0.2),
                0.65,
                0.9,
                boxstyle="round,pad=0.02",
                facecolor="#B8E0B0",
                edgecolor="black",
                lw=0.8,
            )
        )
        ax.text(
            ux + i * 0.8 + 0.33,
            top_y + 0.65,
            f"U\n{prices[card]}",
            ha="center",
            va="center",
            fontsize=8,
        )
    sy = top_y - 0.55
    ax.text(0, sy, "Symbols:", fontsize=8, va="center")
    for i, symbol in enumerate(SYMBOLS):
        marked = i == state.bottom
        label = f"{TOKEN} {symbol} (off)" if marked else symbol
        ax.text(
            1.3 + i * 1.6,
            sy,
            label,
            fontsize=8,
            va="center",
            color="#C8102E" if marked else "black",
            bbox={"facecolor": SYMBOL_COLORS[symbol], "edgecolor": "none", "pad": 2},
        )
    for seat in range(rules.players):
        _draw_seat(ax, game, seat, top_y - 1.35 - seat * 1.0)
    ax.set_xlim(-0.2, ux + 2.6)
    ax.set_ylim(top_y - 1.9 - rules.players * 1.0, top_y + 2.0)
    ax.axis("off")
    if state.outcome is not None:
        ax.set_title(state.outcome.reason, fontsize=9)
    return ax


def _draw_seat(ax, game, seat: int, y: float) -> None:
    from ...viz.style import HIGHLIGHT_COLOR, SEAT_COLORS

    state, cards = game.state, game.cards
    player = state.players[seat]
    active = state.outcome is None and seat == state.active
    winner = state.outcome is not None and seat in state.outcome.winners
    name = chart_text(game.names[seat]) + (" ★" if winner else "") + (" (to act)" if active else "")
    ax.text(
        0,
        y,
        name,
        fontsize=8.5,
        fontweight="bold",
        color=HIGHLIGHT_COLOR if active else SEAT_COLORS[seat % 4],
    )
    for i, (amount, colour) in enumerate(zip(player.energy, ENERGY_COLORS)):
        ax.barh(
            y - 0.32 - i * 0.22,
            amount / game.rules.energy_cap * 2.5,
            left=0,
            height=0.18,
            color=colour,
        )
        label = f"{amount} {('blue', 'orange')[i]}"
        ax.text(2.65, y - 0.32 - i * 0.22, label, fontsize=6.5, va="center")
    by_symbol = Counter(cards.machines[m].symbol for m in player.machines)
    upgraded = sum(player.machines.values())
    made = game.production(seat)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(by_symbol.items())) or "no machines"
    if game.rules.uranium_payment == "machines":  # rule 2.2 [H]: machines pay for uranium
        points = sum(cards.machines[m].points(up) for m, up in player.machines.items())
        summary += f"; worth {points} points"
    ax.text(3.6, y - 0.2, f"machines: {summary}  ({upgraded} upgraded)", fontsize=7.5, va="center")
    ax.text(
        3.6, y - 0.5, f"makes {made[0]} blue + {made[1]} orange a turn", fontsize=7.5, va="center"
    )
    ax.text(
        9.2, y - 0.35, f"uranium {len(player.uranium)}", fontsize=9, fontweight="bold", va="center"
    )


def game_png(game, dpi: int = 72) -> bytes:
    """The picture as PNG bytes, without pyplot (for ``_repr_png_`` and widgets)."""
    from matplotlib.figure import Figure

    from ...viz.style import figure_png

    fig = Figure(figsize=(9, 2.6 + 0.75 * game.rules.players), dpi=dpi)
    fig.subplots_adjust(0.01, 0.01, 0.99, 0.93)
    draw_game(game, ax=fig.add_subplot())
    return figure_png(fig)


def plot_race(game, ax=None, what: str = "uranium"):
    """One line per seat over the turns: ``what`` is "uranium", "made" (energy a turn),
    "switched_off" (production the bottom token stopped) or "machines". Returns the Axes."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 3))
    labels = {
        "uranium": "uranium cards",
        "made": "energy made that turn",
        "switched_off": "production switched off by ☢",
        "machines": "machines owned",
    }
    if what not in labels:
        raise ValueError(f"what must be one of {', '.join(labels)}, not {what!r}.")
    from ...viz.style import SEAT_COLORS

    for seat in range(game.rules.players):
        records = [r for r in game.state.history if r["seat"] == seat]
        ax.step(
            [r["turn"] for r in records],
            [r[what] for r in records],
            where="post",
            color=SEAT_COLORS[seat % 4],
            label=chart_text(game.names[seat]),
        )
    ax.set_xlabel("turn")
    ax.set_ylabel(labels[what])
    ax.legend(fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return ax
