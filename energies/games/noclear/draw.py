"""The picture of a game of Noclear: the markets, both radioactivity tokens and every seat.

One drawing function, :func:`draw_game` (``ax=None`` makes a figure; returns the Axes),
used by ``NoclearGame.draw``, ``_repr_png_``, the widget and the lesson. Colours
always come with text (energy numbers, symbol names, a ☢ on what a token marks), said in
the game's language (``game.lang``). The kit's palette (:mod:`energies.viz.style`) is
imported when a picture is drawn, never with the game.
"""

from __future__ import annotations

from collections import Counter

from ...kit.i18n import N_, nsay, render, say
from ...kit.text import chart_text
from .rules import SYMBOLS
from .vocabulary import energy_amount, energy_words, symbol_word

ENERGY_COLORS = ("#0072B2", "#E69F00")  # blue, orange (Okabe-Ito)
SYMBOL_COLORS = {
    "wind": "#CFE6F2",
    "sun": "#FFF3B0",
    "water": "#BFD8F0",
    "coal": "#D9CFC7",
    "atom": "#E6D5EC",
}
TOKEN = "☢"


def _said(text, lang) -> str:
    return str(render(text, lang))


def draw_game(game, ax=None):
    """Draw the machine market (top token), the symbols (bottom token), uranium and the seats."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(9, 2.6 + 0.75 * game.rules.players))
    from matplotlib.patches import FancyBboxPatch, Rectangle

    state, rules, cards, lang = game.state, game.rules, game.cards, game.lang
    top_y = rules.players * 1.0 + 1.2
    ax.text(
        0,
        top_y + 1.55,
        say(N_("Market (deck {n})"), lang, n=state.deck_size),
        fontsize=9,
        fontweight="bold",
    )
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
        lines = [
            _said(m.title, lang),
            _card_symbol_line(m, lang),
            say(N_("cost {price}"), lang, price=m.price.printed),
            # rule 2.2: a price naming both colours is paid in any split
            *(
                [say(N_("  paid in any split of {n}"), lang, n=m.price.total)]
                if m.price.mixed
                else []
            ),
            say(N_("makes {energy}"), lang, energy=energy_words(m.produce)),
        ]
        text, size = _card_text(lines)
        ax.text(x + 0.08, top_y + 1.2, text, fontsize=size, va="top")
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
    ax.text(
        ux,
        top_y + 1.55,
        say(N_("Uranium ({n} left)"), lang, n=len(state.uranium)),
        fontsize=9,
        fontweight="bold",
    )
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
    ax.text(0, sy, say(N_("Symbols:"), lang), fontsize=8, va="center")
    for i, symbol in enumerate(SYMBOLS):
        marked = i == state.bottom
        word = _said(symbol_word(symbol), lang)
        label = (
            say(N_("{token} {symbol} (off)"), lang, token=TOKEN, symbol=word) if marked else word
        )
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
        ax.set_title(_said(state.outcome.reason, lang), fontsize=9)
    from ...viz.style import chart_fonts

    chart_fonts(lang, ax)  # Chinese glyphs from a CJK font
    return ax


# a card is 1.6 wide and 1.3 high: at 6.5 pt about 25 Latin letters a line and 6 lines fit
CARD_LETTERS, CARD_LINES, CARD_SIZE = 25, 6, 6.5


def _letters(text: str) -> float:
    """How wide ``text`` is in small Latin letters: capitals and Cyrillic letters are wider,
    Chinese ones about twice."""
    return sum(_width(c) for c in text)


def _width(c: str) -> float:
    if ord(c) >= 0x2E80:
        return 1.9
    if 0x400 <= ord(c) < 0x530 or c.isupper():
        return 1.4
    return 1.0


def _wrapped(line: str) -> list[str]:
    """``line`` broken at spaces into pieces no wider than a card (a leading indent kept)."""
    indent = line[: len(line) - len(line.lstrip(" "))]
    out, current = [], indent
    for word in line.split():
        joined = f"{current} {word}" if current.strip() else current + word
        if current.strip() and _letters(joined) > CARD_LETTERS:
            out.append(current)
            current = word
        else:
            current = joined
    return [*out, current]


def _card_text(lines: list[str]) -> tuple[str, float]:
    """A card's lines wrapped to its width (a longer word in another language wraps instead of
    spilling onto the next card) and the font size that fits them on it."""
    wrapped = [part for line in lines for part in _wrapped(line)]
    widest = max(_letters(line) for line in wrapped)
    size = CARD_SIZE * min(1.0, CARD_LINES / len(wrapped), CARD_LETTERS / widest)
    return "\n".join(wrapped), round(size, 2)


def _card_symbol_line(machine, lang) -> str:
    """A card's symbol and its immediate effect (rule 2.3): "wind  surge", "sun  move ☢"."""
    symbol = _said(symbol_word(machine.symbol), lang)
    if machine.effect == "surge":
        return say(N_("{symbol}  surge"), lang, symbol=symbol)
    if machine.effect == "move_token":
        return say(N_("{symbol}  move ☢"), lang, symbol=symbol)
    return symbol


def _draw_seat(ax, game, seat: int, y: float) -> None:
    from ...viz.style import HIGHLIGHT_COLOR, SEAT_COLORS

    state, cards, lang = game.state, game.cards, game.lang
    player = state.players[seat]
    active = state.outcome is None and seat == state.active
    winner = state.outcome is not None and seat in state.outcome.winners
    name = chart_text(game.names[seat]) + (" ★" if winner else "")
    if active:
        name = say(N_("{name} (to act)"), lang, name=name)
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
        label = _said(energy_amount(amount, ("blue", "orange")[i]), lang)
        ax.text(2.65, y - 0.32 - i * 0.22, label, fontsize=6, va="center")
    by_symbol = Counter(cards.machines[m].symbol for m in player.machines)
    upgraded = sum(player.machines.values())
    made = game.production(seat)
    summary = ", ".join(
        say(N_("{n} {symbol}"), lang, n=n, symbol=symbol_word(s))
        for s, n in sorted(by_symbol.items())
    )
    if not summary:
        summary = say(N_("no machines"), lang)
    if game.rules.uranium_payment == "machines":  # rule 2.2 [H]: machines pay for uranium
        points = sum(cards.machines[m].points(up) for m, up in player.machines.items())
        summary = nsay(
            "{machines}; worth {n} point",
            "{machines}; worth {n} points",
            points,
            lang,
            machines=summary,
        )
    machines_line = say(
        N_("machines: {summary}  ({n} upgraded)"), lang, summary=summary, n=upgraded
    )
    ax.text(4.0, y - 0.2, machines_line, fontsize=7.5, va="center")
    makes = say(
        N_("makes {blue} + {orange} a turn"),
        lang,
        blue=energy_amount(made[0], "blue"),
        orange=energy_amount(made[1], "orange"),
    )
    ax.text(4.0, y - 0.5, makes, fontsize=7.5, va="center")
    uranium = say(N_("uranium {n}"), lang, n=len(player.uranium))
    ax.text(9.4, y - 0.35, uranium, fontsize=9, fontweight="bold", va="center")


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
        "uranium": N_("uranium cards"),
        "made": N_("energy made that turn"),
        "switched_off": N_("production switched off by ☢"),
        "machines": N_("machines owned"),
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
    ax.set_xlabel(say(N_("turn"), game.lang))
    ax.set_ylabel(say(labels[what], game.lang))
    ax.legend(fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    from ...viz.style import chart_fonts

    chart_fonts(game.lang, ax)  # Chinese glyphs from a CJK font
    return ax
