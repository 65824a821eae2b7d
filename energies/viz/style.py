"""Palettes, piece shapes and helpers shared by the board picture, the charts and the
companion games' pictures.

Colours are chosen for the common colour-vision deficiencies and every colour also has a
text or shape cue. Nothing here imports matplotlib at import time.
"""

from __future__ import annotations

from ..kit.text import chart_text

# Okabe-Ito colours (safe for the common colour-vision deficiencies); green and brown are
# left to the plants and yellow to the hazards, so a seat colour never means a piece kind.
SEAT_COLORS = ("#0072B2", "#D55E00", "#CC79A7", "#E69F00")  # blue, vermillion, purple, orange
# Paul Tol's "light" scheme, lightness-separated; every hex also carries its name in text.
TERRAIN_COLORS = {
    "forest": "#44BB99",
    "hills": "#EE8866",
    "pasture": "#BBCC33",
    "fields": "#EEDD88",
    "mountains": "#9AA6B2",
    "desert": "#E4DCCB",
}
TERRAIN_LABELS = {t: t.capitalize() for t in TERRAIN_COLORS}
RESOURCE_TERRAIN = {
    "lumber": "forest",
    "brick": "hills",
    "fiber": "pasture",
    "food": "fields",
    "steel": "mountains",
}
PLANT_COLORS = {"fossil": "#6B4226", "renewable": "#009E73"}
HAZARD_COLOR = "#F0E442"
RED_NUMBER = "#C8102E"  # 6 and 8 (the likeliest rolls), also bold with 5 dots
HIGHLIGHT_COLOR = "#E6007E"
SEA_COLOR = "#CFE6F2"
# How a game ended: dark colours of Paul Tol's "muted" scheme, none of them a persona's colour
# (an outcome chart and a win-rate chart of the personas often share one figure).
OUTCOME_COLORS = {
    "victory_points": "#332288",  # indigo
    "empty_bag": "#117733",  # green
    "everyone_loses": "#882255",  # wine
    "unfinished": "#DDDDDD",  # pale grey, black text
}
OUTCOME_LABELS = {
    "victory_points": "victory points",
    "empty_bag": "empty bag",
    "everyone_loses": "everyone loses",
    "unfinished": "unfinished",
}
BAND_COLORS = {1: "#DDF0E1", 2: "#FBE6C4", 3: "#F6C9C3"}
# One colour per persona in every chart, the app and the printed pages (Okabe-Ito again). The
# fossil-minded personas are warm, the green-minded cool, so a chart reads at a glance; the
# search player's variants are a lighter twin of the strategy they keep to. A seat colour
# (above) marks whose pieces these are; a persona colour marks which strategy played them.
PERSONA_COLORS = {
    "fossil": "#D55E00",  # vermillion: FossilRush
    "freerider": "#CC79A7",  # reddish purple: FreeRider
    "balanced": "#0072B2",  # blue: Balanced
    "green": "#009E73",  # bluish green: GreenInvestor
    "random": "#999999",  # grey: RandomBot, the yardstick
    "search": "#000000",  # black: the search player
    "search-fossil": "#E69F00",  # orange: the search player building fossil plants only
    "search-green": "#56B4E9",  # sky blue: the search player building renewable plants only
}
PERSONA_LABELS = {
    "fossil": "FossilRush",
    "freerider": "FreeRider",
    "balanced": "Balanced",
    "green": "GreenInvestor",
    "random": "RandomBot",
    "search": "search player",
    "search-fossil": "search player, fossil only",
    "search-green": "search player, renewable only",
}
# One colour per group of a class (energies.classroom's charts): Okabe-Ito, plus black and
# grey; each line also carries its group's name in the legend.
GROUP_COLORS = (
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#000000",
    "#999999",
)
# Bots the palette does not know (a student's own) get one of these, always the same for the
# same name (Paul Tol's colours, distinct from the personas' and the outcomes' above).
OTHER_BOT_COLORS = ("#44AA99", "#999933", "#AA4499", "#88CCEE", "#DDCC77", "#661100")
_PERSONA_ALIASES = {
    "fossilrush": "fossil",
    "greeninvestor": "green",
    "randombot": "random",
    "searchplayer": "search",
}

# Board extent (board units): island hexes reach |x| 4.33 and |y| 4; harbors sit outside.
_XLIM = (-5.9, 5.9)
_YLIM = (-5.75, 5.45)  # room above for the title, below for the legend
_PLANT_FROM_CORNER = (0.28, 0.4)  # from a building towards the hex centre: (top/bottom, sides)

# Piece outlines, centred on (0, 0), in board units.
_TOWN = ((-0.15, -0.12), (0.15, -0.12), (0.15, 0.05), (0.0, 0.18), (-0.15, 0.05))
_CITY = (
    (-0.25, -0.15),
    (0.25, -0.15),
    (0.25, 0.06),
    (0.03, 0.06),
    (0.03, 0.15),
    (-0.11, 0.27),
    (-0.25, 0.15),
)
_FOSSIL = (
    (-0.14, -0.11),
    (0.14, -0.11),
    (0.14, 0.09),
    (0.05, 0.02),
    (0.05, 0.09),
    (-0.04, 0.02),
    (-0.06, 0.02),
    (-0.06, 0.2),
    (-0.14, 0.2),
)  # factory: roof, chimney
_TRIANGLE = ((-0.5, -0.289), (0.5, -0.289), (0.0, 0.577))  # unit side, centred


def _shift(shape, x, y, scale=1.0):
    return [(x + scale * dx, y + scale * dy) for dx, dy in shape]


def seat_color(seat: int) -> str:
    """The colour of a seat (the palette repeats after 4 seats)."""
    return SEAT_COLORS[int(seat) % len(SEAT_COLORS)]


def persona_key(name: str) -> str:
    """The palette's key of a bot name: ``"fossil"``, ``"FossilRush"`` and ``"fossilrush"``
    are one persona; a name the palette does not know is returned stripped and lower-cased."""
    if not isinstance(name, str):
        raise ValueError(f"A persona is named by a string, not {type(name).__name__}.")
    key = name.strip().lower()
    return _PERSONA_ALIASES.get(key, key)


def persona_color(name: str) -> str:
    """The colour of a persona (or of any bot, by name) in every chart of the kit.

    The personas and the search player's variants have fixed Okabe-Ito colours
    (:data:`PERSONA_COLORS`); the class name works as well as the short name. Any other
    bot name gets a colour of :data:`OTHER_BOT_COLORS` chosen from the name's CRC-32, so
    a student's bot keeps its colour from chart to chart and from run to run.
    """
    import zlib

    key = persona_key(name)
    if key in PERSONA_COLORS:
        return PERSONA_COLORS[key]
    return OTHER_BOT_COLORS[zlib.crc32(key.encode("utf-8")) % len(OTHER_BOT_COLORS)]


def figure_png(fig) -> bytes:
    """PNG bytes of a pyplot-free matplotlib Figure (the companion games' pictures)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def _state_and_names(game_or_state):
    state = getattr(game_or_state, "state", game_or_state)
    if not hasattr(state, "players") or not hasattr(state, "board"):
        raise TypeError("draw_board needs a Game or a GameState.")
    names = getattr(game_or_state, "names", None) or [
        f"Seat {s}" for s in range(len(state.players))
    ]
    return state, [chart_text(str(name)) for name in names]  # "$" is not maths here


def _points_per_unit(ax) -> float:
    """Points per board unit once the Axes keeps an equal aspect (the smaller of x and y)."""
    fig = ax.figure
    w, h = fig.get_size_inches()
    pos = ax.get_position()
    return min(
        pos.width * w * 72 / (_XLIM[1] - _XLIM[0]), pos.height * h * 72 / (_YLIM[1] - _YLIM[0])
    )
