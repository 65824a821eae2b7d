"""The event risk meter: exact chances that event rows fire in the coming event phase.

What players can know (and all this module reads):

* the brown discs in the bag, per symbol (all brown discs start in the bag and
  every drawn one is seen);
* the *number* of green discs in the bag — not their symbols: green discs lie
  face down under the renewable slots (rule 3.1) and go into the bag face down
  (rule 10.4);
* every disc on the event board and every disc that left the game (rule 6.2);
* the teacher's fixed next discs (``sandbox.fix_disc``), which are drawn first.

A green disc in the bag is therefore one of the *unseen* greens: all greens of
all players (``RuleSet.green_discs_per_player`` x players) minus the greens seen
on the board or removed. Bag greens and the greens still under slots are
exchangeable from a player's point of view, so the bag's greens are a uniformly
random subset of the unseen greens and draws from it are draws without
replacement from the unseen composition. The probabilities are computed with
:class:`fractions.Fraction` by walking every ordered sequence of *categories*
(brown symbols, green symbols) the N draws can produce — at most 8**3 paths —
with exact sequential probabilities; identical intermediate positions are merged.
See ``docs/insight.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..newenergies.rules import GREEN_CLIMATE_ROW
from ..newenergies.state import GameState
from ..newenergies.view import GameView

__all__ = ["PublicBag", "bag_runs_out_within", "event_risk", "plot_event_risk", "public_bag"]

ROW_COLORS = {"brown": "#8C564B", "green": "#2CA02C", "both": "#7F7F3F"}


def _state(game_or_state):
    """The state of a game; a state or a seat's view (GameView) is read as it is."""
    state = getattr(game_or_state, "state", None)
    if isinstance(state, GameState):  # a New Energies game (another game has no event bag)
        return state
    if isinstance(game_or_state, (GameState, GameView)):
        return game_or_state
    raise ValueError(
        f"The risk meter needs a Game, a GameState or a seat's view, not {game_or_state!r}."
    )


@dataclass(frozen=True)
class PublicBag:
    """The bag as the players see it.

    ``brown``: brown discs in the bag per symbol; ``green``: how many green discs are
    in the bag; ``green_unseen``: the unseen greens per symbol (in the bag or still
    under renewable slots); ``under_slots``: how many greens are still under slots;
    ``forced``: discs a teacher fixed as the next draws (drawn first, in order).
    """

    brown: dict[str, int]
    green: int
    green_unseen: dict[str, int]
    under_slots: int
    forced: tuple[tuple[str, str], ...] = ()

    @property
    def size(self) -> int:
        return sum(self.brown.values()) + self.green


def public_bag(game) -> PublicBag:
    """The public view of the bag (never reads the symbols of the bag's green discs)."""
    state = _state(game)
    rules = state.rules
    brown: Counter = Counter()
    green = 0
    for color, symbol in state.bag:
        if color == "brown":
            brown[symbol] += 1
        else:
            green += 1  # a face-down green disc: only its colour is known
    unseen = Counter({sym: n * state.n for sym, n in rules.green_discs_per_player})
    seen = [d for discs in state.event_board.values() for d in discs] + list(state.removed_discs)
    for color, symbol in seen:
        if color == "green":
            unseen[symbol] -= 1
    # teacher-fixed draws (sandbox.fix_disc): the engine takes each one still in the bag
    if isinstance(state, GameView):
        forced = list(state.forced_discs)  # a view lists only those still in the bag
    else:
        forced = []
        available = Counter(state.bag)  # only to check which fixed discs are still there
        for disc in state.forced_discs:
            if available[tuple(disc)] > 0:
                available[tuple(disc)] -= 1
                forced.append(tuple(disc))
    under = sum(len(p.green_slots) for p in state.players)  # a count, like the empty slots
    return PublicBag(
        brown=dict(brown),
        green=green,
        green_unseen={sym: max(0, unseen[sym]) for sym, _ in rules.green_discs_per_player},
        under_slots=under,
        forced=tuple(forced),
    )


def coming_phase(game) -> tuple[str, int, int]:
    """(which, draws, turn) of the next event phase that will draw discs.

    ``which`` is "current" when the present turn's event phase still has draws
    queued (N was fixed when it began, rule 6.1), "next" for the next turn's
    phase (N = discs_to_draw(current GF), rule 4.3 — the GF may still change
    before then) and "over" for a finished game.
    """
    state = _state(game)
    if state.outcome is not None:
        return "over", 0, state.turn
    queued = sum(1 for task in state.queue if task.kind == "draw")
    if state.phase == "event" and queued:
        return "current", queued, state.turn
    return "next", state.rules.discs_to_draw(state.global_footprint), state.turn + 1


def _rows(rules) -> list[str]:
    return [
        row
        for row, _ in rules.event_spaces
        if not (row == GREEN_CLIMATE_ROW and rules.shared_climate_row)
    ]


def fire_distribution(
    rules,
    on_board: dict[str, int],
    bag: PublicBag,
    draws: int,
) -> dict[str, tuple[Fraction, Fraction]]:
    """Exact (P(row fires at least once), E[times it fires]) per row for ``draws`` draws.

    Rows fire when their count reaches ``rules.spaces(row)`` and then clear
    (rule 6.2), so a 1-space row fires once per disc of its symbol. Draws stop
    when the bag is empty (the game ends, rule 6.1).
    """
    rows = _rows(rules)
    index = {row: i for i, row in enumerate(rows)}
    spaces = tuple(rules.spaces(row) for row in rows)
    browns = sorted(bag.brown)
    greens = sorted(bag.green_unseen)
    brown_row = [index[rules.row_of("brown", s)] for s in browns]
    green_row = [index[rules.row_of("green", s)] for s in greens]

    def place(board: tuple, fired: tuple, r: int) -> tuple[tuple, tuple]:
        count = board[r] + 1
        if count >= spaces[r]:
            board = board[:r] + (0,) + board[r + 1 :]
            fired = fired[:r] + (fired[r] + 1,) + fired[r + 1 :]
        else:
            board = board[:r] + (count,) + board[r + 1 :]
        return board, fired

    start = (
        tuple(on_board.get(row, 0) for row in rows),
        tuple(bag.brown[s] for s in browns),
        bag.green,
        tuple(bag.green_unseen[s] for s in greens),
        (0,) * len(rows),
    )
    layer: dict[tuple, Fraction] = {start: Fraction(1)}
    forced = list(bag.forced)
    for _ in range(draws):
        nxt: dict[tuple, Fraction] = {}

        def add(key, p, nxt=nxt):
            nxt[key] = nxt.get(key, 0) + p

        disc = forced.pop(0) if forced else None
        for (board, bro, g, uns, fired), p in layer.items():
            total = sum(bro) + g
            if total == 0:  # a disc must be drawn from an empty bag: the game ends
                add((board, bro, g, uns, fired), p)
                continue
            if disc is not None:  # a teacher-fixed disc: certain
                color, symbol = disc
                if color == "brown":
                    i = browns.index(symbol)
                    b2, f2 = place(board, fired, brown_row[i])
                    add((b2, bro[:i] + (bro[i] - 1,) + bro[i + 1 :], g, uns, f2), p)
                else:
                    i = greens.index(symbol)
                    b2, f2 = place(board, fired, green_row[i])
                    add((b2, bro, g - 1, uns[:i] + (uns[i] - 1,) + uns[i + 1 :], f2), p)
                continue
            for i, n in enumerate(bro):
                if n:
                    b2, f2 = place(board, fired, brown_row[i])
                    add((b2, bro[:i] + (n - 1,) + bro[i + 1 :], g, uns, f2), p * Fraction(n, total))
            unseen_total = sum(uns)
            if g and unseen_total:
                pg = p * Fraction(g, total)
                for i, u in enumerate(uns):
                    if u:
                        b2, f2 = place(board, fired, green_row[i])
                        key = (b2, bro, g - 1, uns[:i] + (u - 1,) + uns[i + 1 :], f2)
                        add(key, pg * Fraction(u, unseen_total))
        layer = nxt
    result = {row: [Fraction(0), Fraction(0)] for row in rows}
    for (_b, _bro, _g, _u, fired), p in layer.items():
        for row, times in zip(rows, fired):
            if times:
                result[row][0] += p
                result[row][1] += p * times
    return {row: (a, e) for row, (a, e) in result.items()}


def _row_color(rules, row: str) -> str:
    brown = any(rules.row_of("brown", s) == row for s, _ in rules.brown_discs)
    green = any(rules.row_of("green", s) == row for s, _ in rules.green_discs_per_player)
    return "both" if brown and green else ("brown" if brown else "green")


def event_risk(game, k_turns: int = 5):
    """Exact chance that each event row fires in the coming event phase; a DataFrame.

    The coming phase is the current turn's if its draws are still queued, else
    the next turn's, whose N = ``rules.discs_to_draw(GF)`` uses the *current*
    GF (rule 4.3; building before the turn ends can still change it). Only
    public information is used (see the module docstring): brown discs by
    symbol, the number of green discs, and the unseen green composition.

    Columns: ``row``, ``color`` (brown/green/both), ``spaces``, ``on_board``,
    ``needed`` (discs still missing), ``p_fires`` (float, at least once),
    ``expected_fires`` (float; a 1-space row can fire more than once),
    ``p_exact`` (the exact Fraction as text, e.g. "7/39").

    ``frame.attrs`` holds ``phase`` ("current"/"next"/"over"), ``turn``,
    ``draws``, ``gf``, ``bag_size``, ``bag_brown``, ``bag_green``,
    ``green_unseen``, ``greens_under_slots``, ``p_game_ends`` (the phase needs
    a disc from an empty bag: 0.0 or 1.0) and ``p_bag_empty_within`` =
    :func:`bag_runs_out_within` ``(game, k_turns)``.
    """
    import pandas as pd

    state = _state(game)
    rules = state.rules
    which, draws, turn = coming_phase(state)
    bag = public_bag(state)
    on_board = {row: len(discs) for row, discs in state.event_board.items()}
    dist = fire_distribution(rules, on_board, bag, draws)
    records = []
    for row, (p_any, expected) in dist.items():
        records.append(
            {
                "row": row,
                "color": _row_color(rules, row),
                "spaces": rules.spaces(row),
                "on_board": on_board.get(row, 0),
                "needed": rules.spaces(row) - on_board.get(row, 0),
                "p_fires": float(p_any),
                "expected_fires": float(expected),
                "p_exact": str(p_any),
            }
        )
    frame = pd.DataFrame.from_records(records)
    frame.attrs.update(
        {
            "phase": which,
            "turn": turn,
            "draws": draws,
            "gf": state.global_footprint,
            "bag_size": bag.size,
            "bag_brown": dict(sorted(bag.brown.items())),
            "bag_green": bag.green,
            "green_unseen": dict(bag.green_unseen),
            "greens_under_slots": bag.under_slots,
            "p_game_ends": 1.0 if draws > bag.size else 0.0,
            "p_bag_empty_within": bag_runs_out_within(state, k_turns),
        }
    )
    return frame


def bag_runs_out_within(game, k: int = 5) -> dict[int, float]:
    """{t: P(the game ends on an empty bag within the next t event phases)} for t = 1..k.

    The number of discs drawn per phase is fixed by the GF (rule 4.3), and every
    drawn disc leaves the bag (rule 6.2), so at the current draw rate and with no
    new green discs this is deterministic: 1.0 once the discs to draw exceed the
    bag (a disc must be drawn from an empty bag, rule 6.1), else 0.0. The first
    phase is the coming one of :func:`event_risk`; later ones draw
    ``discs_to_draw(current GF)``. New renewable plants add discs and delay the
    end; a changed GF changes the rate.
    """
    state = _state(game)
    # rule 14.3: no game has more event phases than its turn limit, and a larger k would
    # only build a huge table of 1.0s (k=10**9 ran out of memory)
    limit = state.rules.turn_limit
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= limit:
        raise ValueError(
            f"k must be a whole number of turns from 1 to {limit} (the turn_limit), not {k!r}."
        )
    which, first, _turn = coming_phase(state)
    if which == "over":
        return {t: 0.0 for t in range(1, k + 1)}
    per_turn = state.rules.discs_to_draw(state.global_footprint)
    size, drawn, out = len(state.bag), 0, {}
    for t in range(1, k + 1):
        drawn += first if t == 1 else per_turn
        out[t] = 1.0 if drawn > size else 0.0
    return out


def plot_event_risk(game_or_frame, ax=None, lang=None):
    """Horizontal bars: the chance each event row fires in the coming phase; return the Axes.

    ``lang``: the language of the labels (default: the game's, else the kit-wide one)."""
    from ..kit.i18n import N_, render, resolve, say
    from ..newenergies.actions import pretty
    from ..viz.style import chart_fonts

    lang = resolve(lang if lang is not None else getattr(game_or_frame, "lang", None))
    chart_fonts(lang)

    frame = game_or_frame if hasattr(game_or_frame, "columns") else event_risk(game_or_frame)
    if "p_fires" not in frame.columns:
        raise ValueError("plot_event_risk needs a game or the frame of event_risk(game).")
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(6.0, 0.35 * len(frame) + 1.2), layout="constrained")
    labels = []
    for r in frame.itertuples():
        name = render(pretty(str(r.row).replace("_green", "")), lang)
        if str(r.row).endswith("_green"):
            name = say(N_("{event} (green)"), lang, event=name)
        labels.append(f"{name}  {r.on_board}/{r.spaces}")
    colors = [ROW_COLORS.get(c, "#7F7F7F") for c in frame.get("color", ["brown"] * len(frame))]
    y = list(range(len(frame)))
    ax.barh(y, frame["p_fires"], color=colors, gid="event-risk")
    for i, p in zip(y, frame["p_fires"]):
        ax.text(min(p + 0.02, 0.86), i, f"{p:.0%}", va="center", fontsize=9)
    ax.set_yticks(y, labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter("{x:.0%}")
    attrs = frame.attrs
    if attrs.get("phase") == "over":
        title = say(N_("The game is over: no more event phases"), lang)
    elif attrs:
        title = say(
            N_("Turn {turn}: {draws} disc(s) at GF {gf} — bag {bag} ({green} green)"),
            lang,
            turn=attrs.get("turn"),
            draws=attrs.get("draws"),
            gf=attrs.get("gf"),
            bag=attrs.get("bag_size"),
            green=attrs.get("bag_green"),
        )
    else:
        title = say(N_("Chance each event fires"), lang)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(say(N_("chance the row fires in the coming event phase"), lang), fontsize=9)
    chart_fonts(lang, ax)
    return ax
