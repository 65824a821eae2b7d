"""What if? Go back to a turn, decide differently, and compare both futures fairly.

The game is replayed from its seed and action log up to the first action the
active seat took in the action phase of ``turn`` (the *branch point*). From
there two branches are played forward by bots:

* **A** — the decision actually taken, then the bots;
* **B** — the ``alternative``, then the bots.

Sample ``i`` forks both branches from the same replayed position and gives
them bots with the same seeds, so they share the game's own dice, bag and
card streams (:attr:`GameState.rng`) and the bots' random choices wherever
the two futures still agree: *common random numbers*. The difference between
the branches then comes from the decision, not from luck (``docs/insight.md``).
With ``resample_chance=True`` every sample reseeds the game's dice, bag and
card streams (the same new seeds in A and B) to ask "what if, over many
possible futures".
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..bots import make_bot
from ..kit.fields import show
from ..newenergies.actions import Action, EndTurn, RollDice, SandboxEdit
from ..newenergies.engine.turns import record_turn
from ..newenergies.game import Game, new_game
from ..runner.loop import view_for

__all__ = [
    "WhatIfResult",
    "action_turns",
    "alternatives",
    "before_end_of",
    "branch_point",
    "greener_alternative",
    "what_if",
]

BRANCHES = ("A", "B")
CHANCE_STREAMS = ("dice", "bag", "cards")
ALTERNATIVE_KINDS = (
    "end_turn",
    "build_plant",
    "demolish_fossil",
    "build_city",
    "build_town",
    "build_road",
    "buy_dev_card",
    "play_dev_card",
    "remove_hazard",
    "build_warehouse",
    "trade_with_supply",
)
MAX_ACTIONS = 100_000


def _at_branch(state) -> bool:
    return state.outcome is None and state.phase == "action" and not state.queue


def branch_point(game: Game, turn: int) -> tuple[Game, Action | None]:
    """The game at the start of ``turn``'s action phase, and the action actually taken there.

    Replays ``game.actions`` into a fresh ``new_game(seed, rules, names)``; teacher
    (sandbox) edits before the first decision are kept. The action is None when
    the game has reached that point but the active seat has not acted yet.
    Raises ValueError when the turn never reached its action phase.
    """
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise ValueError(f"turn must be a whole number, not {turn!r}.")
    replay = new_game(seed=game.seed, rules=game.rules, names=game.names)
    for action in game.actions:
        state = replay.state
        if state.turn > turn:
            break
        if state.turn == turn and _at_branch(state) and not isinstance(action, SandboxEdit):
            return replay, action
        replay.apply(action)
    if replay.state.turn == turn and _at_branch(replay.state):
        return replay, None
    raise ValueError(
        f"Turn {turn} never reached its action phase in this game "
        f"(the game is at turn {game.turn}): choose another turn."
    )


def action_turns(game: Game) -> list[int]:
    """The turns whose action phase was reached (the turns :func:`what_if` can go back to)."""
    replay = new_game(seed=game.seed, rules=game.rules, names=game.names)
    turns = set()
    for action in game.actions:
        if _at_branch(replay.state):
            turns.add(replay.state.turn)
        replay.apply(action)
    if _at_branch(replay.state):
        turns.add(replay.state.turn)
    return sorted(turns)


def alternatives(game: Game, turn: int, *, branch=None) -> list[tuple[str, Action]]:
    """Sensible legal choices at the start of ``turn``'s action phase, as (label, action).

    Builds, demolitions, cards, hazard removals, the warehouse, trades with the
    supply and ending the turn (player-to-player offers are left out: they
    need an answer). The action actually taken comes first, marked "(what
    happened)". Ready for an ipywidgets Dropdown's ``options``.
    """
    bp, actual = branch if branch is not None else branch_point(game, turn)
    legal = [a for a in bp.legal_actions() if a.kind in ALTERNATIVE_KINDS]
    legal.sort(key=lambda a: ALTERNATIVE_KINDS.index(a.kind))
    out = []
    if actual is not None:
        out.append((f"{bp.describe(actual)} (what happened)", actual))
    out += [(bp.describe(a), a) for a in legal if a != actual]
    return out


def greener_alternative(game: Game, turn: int) -> tuple[Action, Action]:
    """What the active seat did first in ``turn``'s action phase, and a greener choice there.

    The greener choice is a renewable plant on the hex of the plant actually built, when the
    seat could pay for one (rule 10); otherwise ending the turn, which keeps the science.
    Returns ``(actual, alternative)``; raises ValueError when nothing was decided at that
    point (the game ended, or the turn never reached its action phase).
    """
    branch = branch_point(game, turn)
    options = alternatives(game, turn, branch=branch)
    actual = branch[1]
    if actual is None:
        raise ValueError(
            f"Nobody decided anything in turn {turn}'s action phase: choose another turn."
        )
    hex_built = getattr(actual, "hex", None)
    green = [
        a
        for _, a in options
        if a.kind == "build_plant" and a.plant == "renewable" and a.hex == hex_built
    ]
    end = [a for _, a in options if a.kind == "end_turn" and a != actual]
    if not (green or end):
        raise ValueError(f"In turn {turn} there was no greener choice than what happened.")
    return actual, (green or end)[0]


def before_end_of(game: Game, turn: int) -> Game:
    """The game replayed from its seed and actions up to the moment just before ``turn`` ends:
    everything of that turn is done, its End Turn not yet applied. The coming event phase is
    the one of turn ``turn + 1``, so ``event_risk`` of this position says what could fire next.
    Raises ValueError when the game never reached that moment."""
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise ValueError(f"turn must be a whole number from 1, not {turn!r}.")
    replay = new_game(seed=game.seed, rules=game.rules, names=game.names)
    for action in game.actions:
        if replay.state.turn == turn and isinstance(action, EndTurn):
            return replay
        replay.apply(action)
    raise ValueError(
        f"Turn {turn} never ended in this game (the game is at turn {game.turn}): "
        "choose an earlier turn."
    )


def _bot_specs(bots: Any, players: int) -> list[Any]:
    if bots is None:
        return ["random"] * players
    if isinstance(bots, str):
        parts = [p.strip() for p in bots.split(",")]
        return parts * players if len(parts) == 1 else parts
    specs = list(bots) if isinstance(bots, (list, tuple)) else [bots] * players
    if len(specs) != players:
        raise ValueError(f"Give {players} bots, one per seat (or one name for every seat).")
    for spec in specs:
        make_bot(spec)  # a clear ValueError for an unknown name or a non-bot
    return specs


def _fresh_bot(spec: Any, seed: int):
    if isinstance(spec, (str, type)):
        return make_bot(spec, seed=seed)
    try:
        return copy.deepcopy(spec)
    except (TypeError, AttributeError, copy.Error, RecursionError):
        return spec


def _seed(*parts) -> int:
    return random.Random("energies:whatif:" + ":".join(map(str, parts))).getrandbits(63)


def play_forward(game: Game, bots: Sequence, rng: random.Random, last_turn: int) -> list:
    """Let the bots play until ``last_turn`` ends (its record is written) or the game ends.

    Returns the production dice rolled, as (turn, die1, die2). The EndTurn of
    ``last_turn`` is not applied, so nothing of the next turn (its event phase)
    happens; the turn's record is written as EndTurn would write it.
    """
    dice = []
    for _ in range(MAX_ACTIONS):
        state = game.state
        if game.is_over:
            return dice
        seat = game.current_seat
        legal = game.legal_actions()
        action = bots[seat].decide(view_for(bots[seat], game, seat), legal, rng)
        if isinstance(action, EndTurn) and state.turn >= last_turn:
            record_turn(state)
            return dice
        game.apply(action)
        if isinstance(action, RollDice):
            dice.append((state.turn, *state.dice))
    raise RuntimeError(f"The bots did not finish {last_turn} turns within {MAX_ACTIONS} actions.")


#: Most paired samples one call plays: each plays both branches up to ``horizon`` turns
#: (about 0.03 s with random bots, 0.07 s with personas), so a call stays under half a minute.
MAX_SAMPLES = 200
#: Most turns ahead: the longest game the rules allow (``turn_limit`` is at most 2,000).
MAX_HORIZON = 2_000


def what_if(
    game: Game,
    turn: int,
    alternative: Action | Callable[[Game], Action],
    horizon: int = 10,
    samples: int = 20,
    bots: Any = None,
    seed: int = 0,
    resample_chance: bool = False,
):
    """Compare the decision taken at ``turn`` with ``alternative`` over ``horizon`` turns.

    ``alternative`` is an Action of the active seat, or a callable receiving the
    game at the branch point and returning one. ``bots``: None (a RandomBot in
    every seat), one persona name for every seat, or one spec per seat (names,
    bot classes or objects). ``samples`` pairs of branches are played; pair i
    shares bot seeds and the game's chance streams (common random numbers).
    ``seed`` seeds the bots; ``resample_chance`` also reseeds the dice, bag and
    card streams per sample (identically in both branches).

    Raises ValueError if the turn has no action phase or the alternative is
    illegal there (with the engine's reason).
    """
    for name, value, low, high in (
        ("horizon", horizon, 0, MAX_HORIZON),
        ("samples", samples, 1, MAX_SAMPLES),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(
                f"{name} must be a whole number from {low} to {high:,}, not {show(value)}."
            )
    bp, actual = branch_point(game, turn)
    seat = bp.active_seat
    if callable(alternative) and not isinstance(alternative, Action):
        alternative = alternative(bp.fork())
    if not isinstance(alternative, Action):
        raise ValueError(f"The alternative must be an action, not {alternative!r}.")
    reason = bp.why_illegal(alternative)
    if reason is not None:
        raise ValueError(
            f"“{bp.describe(alternative)}” is not possible at the start of turn {turn}'s "
            f"action phase: {reason}"
        )
    specs = _bot_specs(bots, game.rules.players)
    last_turn = turn + horizon
    baseline = [dict(r) for r in bp.history if r["turn"] == turn - 1]
    records, outcomes, dice = [], [], {b: [] for b in BRANCHES}
    for i in range(samples):
        start = bp.fork()
        if resample_chance:
            for stream in CHANCE_STREAMS:
                start.state.rng[stream] = random.Random(_seed(seed, i, stream))
        for branch, first in zip(BRANCHES, (actual, alternative)):
            g = start.fork()
            players = [_fresh_bot(spec, _seed(seed, i, "bot", s)) for s, spec in enumerate(specs)]
            rng = random.Random(_seed(seed, i, "ties"))
            rolled = []
            if isinstance(first, EndTurn) and turn >= last_turn:
                record_turn(g.state)  # horizon 0: the turn ends here
            else:
                if first is not None:
                    g.apply(first)
                rolled = play_forward(g, players, rng, last_turn)
            dice[branch].append(rolled)
            for r in baseline + [r for r in g.history if turn <= r["turn"] <= last_turn]:
                records.append({"branch": branch, "sample": i, **r})
            outcomes.append(_outcome_row(g, branch, i, seat))
    return WhatIfResult(game, bp, turn, seat, actual, alternative, horizon, records, outcomes, dice)


def _outcome_row(g: Game, branch: str, sample: int, seat: int) -> dict[str, Any]:
    state = g.state
    out = g.outcome
    p = state.players[seat]
    return {
        "branch": branch,
        "sample": sample,
        "outcome": out.kind if out else "running",
        "winners": tuple(out.winners) if out else (),
        "over": out is not None,
        "everyone_loses": bool(out and out.kind == "everyone_loses"),
        "seat_wins": bool(out and seat in out.winners),
        "last_turn": state.turn,
        "final_gf": state.global_footprint,
        "final_lf": state.local_footprint(seat),
        "final_vp": state.victory_points(seat),
        "balance": p.count_plants("renewable") - p.count_plants("fossil"),
    }


class WhatIfResult:
    """Both branches of :func:`what_if`: per-turn records, outcomes, dice, summary, plot.

    * ``history`` — one row per branch, sample, turn and seat (the history
      record columns: lf, gf, vp, fossil, renewable, ...), from the turn before
      the branch point to ``turn + horizon``; ``branches["A"]``/``["B"]`` split it.
    * ``outcomes`` — one row per branch and sample (outcome kind or "running",
      winners, the acting seat's final LF/VP/plant balance, final GF).
    * ``dice`` — per branch, per sample the production rolls (turn, d1, d2).
    """

    def __init__(self, game, bp, turn, seat, actual, alternative, horizon, records, outcomes, dice):
        import pandas as pd

        self.game, self.branch_game = game, bp
        self.turn, self.seat, self.horizon = turn, seat, horizon
        self.actual, self.alternative = actual, alternative
        self.history = pd.DataFrame.from_records(records)
        self.outcomes = pd.DataFrame.from_records(outcomes)
        self.branches = {b: self.history[self.history["branch"] == b] for b in BRANCHES}
        self.dice = dice
        self.samples = int(self.outcomes["sample"].nunique())
        self.labels = {
            "A": "actual: " + (bp.describe(actual) if actual is not None else "the bots decide"),
            "B": "what if: " + bp.describe(alternative),
        }

    def __repr__(self) -> str:
        return (
            f"<WhatIfResult turn {self.turn}, {self.samples} samples, horizon {self.horizon}: "
            f"A = {self.labels['A']}; B = {self.labels['B']}>"
        )

    def curves(self, column: str = "gf", seat: int | None = None):
        """Per branch a (turn x sample) table of ``column``; finished games carry their last value."""
        frame = self.history
        if seat is not None or column != "gf":
            frame = frame[frame["seat"] == (self.seat if seat is None else seat)]
        out = {}
        for b in BRANCHES:
            part = frame[frame["branch"] == b]
            table = part.pivot_table(index="turn", columns="sample", values=column, aggfunc="last")
            out[b] = table.sort_index().ffill()
        return out

    def summary(self):
        """Mean of each measure in A and B, the mean paired difference B − A and its standard error."""
        import pandas as pd

        name = self.game.names[self.seat]
        measures = {
            "final GF": "final_gf",
            f"final LF of {name}": "final_lf",
            f"final VP of {name}": "final_vp",
            f"renewable − fossil of {name}": "balance",
            f"{name} wins": "seat_wins",
            "everyone loses": "everyone_loses",
            "game over": "over",
        }
        a = self.outcomes[self.outcomes["branch"] == "A"].set_index("sample")
        b = self.outcomes[self.outcomes["branch"] == "B"].set_index("sample")
        rows = []
        for label, col in measures.items():
            xa, xb = a[col].astype(float), b[col].astype(float)
            diff = (xb - xa).dropna()
            se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.nan
            rows.append(
                {
                    "measure": label,
                    "A": xa.mean(),
                    "B": xb.mean(),
                    "B − A": diff.mean(),
                    "se(B − A)": se,
                }
            )
        table = pd.DataFrame.from_records(rows).set_index("measure")
        table.attrs["labels"] = dict(self.labels)
        return table

    def plot(self, ax=None):
        """GF (solid) and the acting seat's LF (dashed) per branch: mean and 10–90% band."""
        if ax is None:
            import matplotlib.pyplot as plt

            _fig, ax = plt.subplots(figsize=(8.0, 4.0), layout="constrained")
        colors = {"A": "#0072B2", "B": "#D55E00"}
        name = self.game.names[self.seat]
        for column, seat, style, alpha in (("gf", None, "-", 0.18), ("lf", self.seat, "--", 0.10)):
            for b, table in self.curves(column, seat).items():
                if table.empty:
                    continue
                turns = table.index.to_numpy()
                mean = table.mean(axis=1)
                low, high = table.quantile(0.1, axis=1), table.quantile(0.9, axis=1)
                what = "GF" if column == "gf" else f"LF of {name}"
                ax.plot(
                    turns,
                    mean,
                    style,
                    color=colors[b],
                    linewidth=2,
                    label=f"{what} — {self.labels[b]}",
                    gid=f"whatif-{column}-{b}",
                )
                ax.fill_between(turns, low, high, color=colors[b], alpha=alpha, linewidth=0)
        ax.axvline(self.turn - 0.5, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("turn")
        ax.set_ylabel("footprint")
        ax.set_title(
            f"What if at turn {self.turn}? {self.samples} paired samples (mean and 10–90% band)",
            fontsize=10,
        )
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(0.0, -0.14), ncol=2, frameon=False)
        return ax
