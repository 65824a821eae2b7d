"""Charts over one game's history: plot_footprint, plot_resources, plot_plants.

``history`` is a Game, ``game.history_frame()`` or the records ``game.history``.
matplotlib and pandas are imported inside the functions.
"""

from __future__ import annotations

from ..kit.i18n import N_, nsay, render, resolve, say
from ..kit.text import chart_text
from ..newenergies.actions import pretty
from ..newenergies.rules.vocabulary import word
from .style import BAND_COLORS, PLANT_COLORS, chart_fonts, seat_color


def _history(history, lang=None):
    """(frame, names by seat, rules or None, events or None) from a Game, DataFrame or records."""
    import pandas as pd

    rules = events = None
    names: dict[int, str] = {}
    if hasattr(history, "state") and hasattr(history, "history"):  # a Game
        rules, events = history.rules, history.events
        names = dict(enumerate(history.names))
        frame = pd.DataFrame.from_records(list(history.history))
    elif isinstance(history, pd.DataFrame):
        frame = history
    elif isinstance(history, (list, tuple)) and all(isinstance(r, dict) for r in history):
        frame = pd.DataFrame.from_records(list(history))
    else:  # None, a number or a text used to fail inside pandas
        raise ValueError(
            "The history must be a Game, game.history_frame() or the records game.history, "
            f"not {type(history).__name__}."
        )
    if not frame.empty:
        missing = {"turn", "seat"} - set(frame.columns)
        if missing:
            raise ValueError(
                f"The history needs the columns turn and seat (missing {sorted(missing)})."
            )
        if "name" in frame.columns:
            for seat, name in frame.groupby("seat")["name"].first().items():
                names.setdefault(int(seat), str(name))
        for seat in frame["seat"].unique():
            names.setdefault(int(seat), say(N_("Seat {seat}"), lang, seat=int(seat)))
    names = {seat: chart_text(name) for seat, name in names.items()}  # "$" is not maths here
    return frame, names, rules, events


def _new_axes(ax, figsize):
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _empty(ax, what, lang=None):
    ax.text(
        0.5,
        0.5,
        say(N_("No turns recorded yet: nothing to plot for {what}."), lang, what=what),
        ha="center",
        va="center",
        transform=ax.transAxes,
    )
    return ax


def _per_seat(frame, column):
    """[(seat, turns, values)] sorted by seat and turn."""
    out = []
    for seat, rows in frame.sort_values("turn").groupby("seat"):
        out.append((int(seat), rows["turn"].to_numpy(), rows[column].to_numpy()))
    return out


def _outside_legend(ax, gap=8.0, **kw):
    """A legend right of the Axes, ``gap`` points away (room for a right-hand axis)."""
    from matplotlib.transforms import ScaledTranslation

    shift = ScaledTranslation(gap / 72, 0, ax.figure.dpi_scale_trans)
    return ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        bbox_transform=ax.transAxes + shift,
        borderaxespad=0,
        fontsize=10,
        **kw,
    )


def _labels(ax, xlabel, ylabel, title, pad=6.0):
    """Axis labels and title in sizes that stay readable on a projector."""
    ax.set_xlabel(xlabel, fontsize=12)
    ax.set_ylabel(ylabel, fontsize=12)
    ax.set_title(title, fontsize=13, pad=pad)
    ax.tick_params(labelsize=11)
    ax.margins(x=0.01)


def _language(history, lang):
    """The chart's language: ``lang``, else a Game's own, else the kit-wide one; the fonts
    that draw it are made ready."""
    lang = resolve(lang if lang is not None else getattr(history, "lang", None))
    chart_fonts(lang)
    return lang


def plot_footprint(history, ax=None, rules=None, events=None, lang=None):
    """Each seat's LF and the GF over the turns, on the disc-draw bands of rule 4.3; return the Axes.

    ``history`` is a Game, ``game.history_frame()`` or the records ``game.history``
    (columns turn, seat, lf, gf; name optional). The bands come from the Game's
    rules, else ``rules``, else ``RuleSet.standard`` for the number of seats. Events
    (``game.events`` or ``game.events_frame()``; a Game brings its own) are drawn as
    vertical markers half a turn before the turn record: they fire in the event phase
    at the start of a turn, and the records are taken at its end. ``lang``: the language of
    the title, axes and legend (default: the game's, else the kit-wide one).
    """
    from matplotlib.lines import Line2D

    lang = _language(history, lang)
    frame, names, game_rules, game_events = _history(history, lang)
    rules = game_rules or rules
    events = game_events if events is None else events
    ax = _new_axes(ax, (10, 5.5))
    if frame.empty:
        return _empty(ax, say(N_("the footprint"), lang), lang)
    if rules is None:
        from ..newenergies.rules import RuleSet

        rules = RuleSet.standard(3 if len(names) == 3 else 4)

    for seat, turns, lf in _per_seat(frame, "lf"):
        ax.plot(
            turns,
            lf,
            color=seat_color(seat),
            linewidth=2,
            label=say(N_("{name} LF"), lang, name=names[seat]),
            gid=f"lf-{seat}",
            zorder=3,
        )
    gf = frame.groupby("turn")["gf"].first().sort_index()
    ax.plot(
        gf.index.to_numpy(),
        gf.to_numpy(),
        color="black",
        linewidth=3.5,
        label=say(N_("GF (global footprint)"), lang),
        gid="gf",
        zorder=4,
    )

    top_seen = max(int(frame["gf"].max()), int(frame["lf"].max()))
    bottom = min(0, int(frame["lf"].min())) - 1
    top = rules.disc_bands[-1][1] + 0.5
    for i, (low, high, _d) in enumerate(rules.disc_bands):
        if low <= top_seen <= high:  # show the band reached and the next one up
            if i + 1 < len(rules.disc_bands):
                top = rules.disc_bands[i + 1][0] + 2.5
            break
    top = min(top, rules.gf_max + 0.5)
    ticks, tick_labels = [], []
    for i, (low, high, discs) in enumerate(rules.disc_bands):
        ax.axhspan(
            low - 0.5,
            high + 0.5,
            color=BAND_COLORS.get(discs, "#EEEEEE"),
            zorder=0,
            linewidth=0,
            gid=f"band-{i}",
        )
        if low - 0.5 < top:  # name the band on a right-hand axis, clear of the lines
            ticks.append((max(low - 0.5, bottom) + min(high + 0.5, top)) / 2)
            tick_labels.append(
                nsay(
                    "{n} disc\n(GF {low}–{high})",
                    "{n} discs\n(GF {low}–{high})",
                    discs,
                    lang,
                    low=low,
                    high=high,
                )
            )
    bands = ax.secondary_yaxis("right")
    bands.set_gid("disc-bands")
    bands.set_yticks(ticks, tick_labels)
    bands.tick_params(length=0, labelsize=10)
    ax.set_ylim(bottom, top)

    handles, _ = ax.get_legend_handles_labels()
    marks, lift = _event_marks(ax, events, lang)
    for label, color, marker in marks:
        handles.append(
            Line2D([], [], color=color, marker=marker, linestyle="none", markersize=8, label=label)
        )
    _labels(
        ax,
        say(N_("turn"), lang),
        say(N_("footprint (LF per seat, GF)"), lang),
        say(N_("Footprint over the game — shading: discs drawn per event phase (rule 4.3)"), lang),
        pad=6 + lift,
    )
    _outside_legend(ax, gap=80, handles=handles)
    chart_fonts(lang, ax)
    return ax


_EVENT_MARKERS = {
    "climate_conference": "o",
    "environmental_pollution": "v",
    "air_pollution": "^",
    "production_increase": "s",
    "rain_and_flooding": "D",
    "sustainable_production": "P",
    "government_funding": "*",
}


def _event_marks(ax, events, lang=None):
    """Draw events as vertical lines with a marker on top of the Axes (same-turn events stack).

    Returns ``(legend entries [(label, color, marker)], height of the marker stack in points)``.
    """
    from matplotlib.transforms import ScaledTranslation, blended_transform_factory

    if events is None:
        return [], 0
    rows = events.to_dict("records") if hasattr(events, "to_dict") else list(events)
    top = blended_transform_factory(ax.transData, ax.transAxes)
    seen, stack = {}, {}
    for i, ev in enumerate(rows):
        kind, green = str(ev["event"]), ev.get("color") == "green"
        color = PLANT_COLORS["renewable"] if green else PLANT_COLORS["fossil"]
        marker = _EVENT_MARKERS.get(kind, "o")
        x = float(ev["turn"]) - 0.5
        k = stack[x] = stack.get(x, -1) + 1
        ax.axvline(x, color=color, linewidth=1.2, alpha=0.45, zorder=1, gid=f"event-{i}")
        lift = ScaledTranslation(0, (7 + 11 * k) / 72, ax.figure.dpi_scale_trans)
        ax.plot(
            [x],
            [1.0],
            transform=top + lift,
            marker=marker,
            color=color,
            markersize=11 if marker == "*" else 8,
            markeredgecolor="white",
            markeredgewidth=0.6,
            linestyle="none",
            zorder=5,
            clip_on=False,
            gid=f"event-mark-{i}",
        )
        name = render(pretty(kind), lang)
        if green and kind == "climate_conference":
            label = say(N_("{event} (green disc)"), lang, event=name)
        else:
            label = str(name)
        seen.setdefault((kind, green), (label, color, marker))
    return list(seen.values()), 11 * (max(stack.values()) + 1) if stack else 0


def plot_resources(history, ax=None, column="hand_size", lang=None):
    """Cards in hand per seat over the turns, with the discard limit of rule 9.1; return the Axes.

    ``column`` is any per-seat history column: ``hand_size`` (resources + science, what a 7
    counts), ``resources``, ``science`` or ``energy``.
    """
    lang = _language(history, lang)
    frame, names, rules, _events = _history(history, lang)
    if not frame.empty and column not in frame.columns:
        raise ValueError(f"The history has no column {column!r} to plot.")
    ax = _new_axes(ax, (10, 4.5))
    if frame.empty:
        return _empty(ax, column, lang)
    for seat, turns, values in _per_seat(frame, column):
        ax.plot(
            turns,
            values,
            color=seat_color(seat),
            linewidth=2,
            label=names[seat],
            gid=f"{column}-{seat}",
        )
    if column == "hand_size":
        limit = rules.discard_threshold if rules is not None else 7
        ax.axhline(
            limit,
            color="#555555",
            linestyle=":",
            linewidth=1.5,
            gid="discard-limit",
            label=say(N_("more than {n}: discard half on a 7 (rule 9.1)"), lang, n=limit),
        )
    what = {
        "hand_size": N_("hand size"),
        "resources": N_("resources"),
        "science": N_("science"),
        "energy": N_("energy"),
    }.get(column)
    shown = say(what, lang) if what else column.replace("_", " ")
    if column == "hand_size":
        title = say(N_("Cards in hand (resources + science)"), lang)
    else:
        title = say(N_("{what} per seat"), lang, what=shown)
        title = title[:1].upper() + title[1:]
    _labels(ax, say(N_("turn"), lang), shown, title)
    _outside_legend(ax)
    chart_fonts(lang, ax)
    return ax


def plot_plants(history, ax=None, lang=None):
    """Renewable (solid) and fossil (dashed) plants per seat over the turns; return the Axes.

    The lines of different seats are nudged apart by a few hundredths of a plant so that
    seats with equal counts stay visible; read the counts off the whole-number ticks.
    """
    from matplotlib.lines import Line2D

    lang = _language(history, lang)
    frame, names, _rules, _events = _history(history, lang)
    ax = _new_axes(ax, (10, 4.5))
    if frame.empty:
        return _empty(ax, say(N_("the plants"), lang), lang)
    middle = (len(names) - 1) / 2
    for kind, style in (("renewable", "-"), ("fossil", "--")):
        for seat, turns, values in _per_seat(frame, kind):
            ax.plot(
                turns,
                values + 0.04 * (seat - middle),
                color=seat_color(seat),
                linestyle=style,
                linewidth=2.2,
                drawstyle="steps-post",
                gid=f"{kind}-{seat}",
            )
    handles = [
        Line2D([], [], color=seat_color(s), linewidth=3, label=names[s]) for s in sorted(names)
    ]
    handles += [
        Line2D(
            [], [], color="black", linestyle="-", linewidth=2, label=render(word("renewable"), lang)
        ),
        Line2D(
            [], [], color="black", linestyle="--", linewidth=2, label=render(word("fossil"), lang)
        ),
    ]
    _labels(
        ax,
        say(N_("turn"), lang),
        say(N_("plants on the board"), lang),
        say(N_("Power plants per seat: renewable (solid) vs fossil (dashed)"), lang),
    )
    ax.yaxis.get_major_locator().set_params(integer=True)
    _outside_legend(ax, handles=handles)
    chart_fonts(lang, ax)
    return ax
