"""The social dilemma as a table: k players of one persona, the rest of another.

For k = 0 .. players, ``payoff_matrix`` simulates tables with k seats of
``personas[0]`` and ``players - k`` of ``personas[1]`` (the seats rotate from
game to game, so no strategy keeps the start-player advantage) and reports
each strategy's win rate per seat, the everyone-loses rate and the mean final
GF. Every k uses the same game seeds (``simulate(seed=...)``), so the tables
differ only in who sits at them — common random numbers again.
"""

from __future__ import annotations

import math

__all__ = ["lineups_for", "payoff_matrix", "plot_payoff"]


def lineups_for(personas: tuple[str, str], k: int, players: int) -> list[tuple]:
    """The ``players`` seat rotations of k x personas[0] followed by (players-k) x personas[1]."""
    base = [personas[0]] * k + [personas[1]] * (players - k)
    return [tuple(base[r:] + base[:r]) for r in range(players)]


def _rates(frame, personas, k: int, players: int) -> dict:
    from ..viz import _winners  # tuples, also after a CSV round trip

    a, b = personas
    wins = {a: 0, b: 0}
    seats = {a: 0, b: 0}
    any_win = {a: 0, b: 0}
    for row in frame.to_dict("records"):
        won = set(_winners(row["winners"]))
        winners_of = set()
        for s in range(players):
            bot = row[f"bot_{s}"]
            seats[bot] += 1
            if s in won:
                wins[bot] += 1
                winners_of.add(bot)
        for bot in winners_of:
            any_win[bot] += 1
    games = len(frame)
    outcomes = frame["outcome"].value_counts(normalize=True)
    out = {
        "k": k,
        f"n_{a}": k,
        f"n_{b}": players - k,
        "games": games,
        f"win_rate_{a}": wins[a] / seats[a] if seats[a] else math.nan,
        f"win_rate_{b}": wins[b] / seats[b] if seats[b] else math.nan,
        f"p_{a}_wins": any_win[a] / games if k > 0 else math.nan,
        f"p_{b}_wins": any_win[b] / games if k < players else math.nan,
        "everyone_loses": float(frame["everyone_loses"].mean()),
        "mean_final_gf": float(frame["final_gf"].mean()),
        "mean_turns": float(frame["turns"].mean()),
    }
    for kind in ("victory_points", "empty_bag", "everyone_loses", "unfinished"):
        out[f"outcome_{kind}"] = float(outcomes.get(kind, 0.0))
    return out


def payoff_matrix(
    personas=("fossil", "green"),
    games: int = 200,
    players: int = 4,
    seed: int = 0,
    jobs: int = 1,
    rules=None,
    progress: bool = False,
):
    """One row per k = 0..players: k seats of personas[0], the rest personas[1].

    Columns: ``k``, ``n_<a>``, ``n_<b>``, ``games``, ``win_rate_<a>`` and
    ``win_rate_<b>`` (wins per seat played by that strategy; NaN when it has no
    seat), ``p_<a>_wins``/``p_<b>_wins`` (share of games some seat of that
    strategy won), ``everyone_loses`` (share of games everybody lost, rule
    14.2), ``mean_final_gf``, ``mean_turns`` and ``outcome_<kind>`` shares. A
    shared win counts for every winner. ``games`` games per k; ``seed``,
    ``jobs`` and ``rules`` go to :func:`energies.simulate`.
    """
    import pandas as pd

    from ..bots import make_bot
    from ..runner.batch import bot_name, simulate

    if not isinstance(personas, (list, tuple)) or len(personas) != 2:
        raise ValueError("personas must be two bot names, e.g. ('fossil', 'green').")
    names = tuple(bot_name(p) for p in personas)
    if names[0] == names[1]:
        raise ValueError(f"Compare two different personas, not {names[0]!r} twice.")
    for p in personas:
        make_bot(p)  # a clear ValueError for an unknown name
    if players not in (3, 4):
        raise ValueError(f"New Energies is played by 3 or 4 players, not {players!r}.")
    rows = []
    for k in range(players + 1):
        frame = simulate(
            games,
            [list(lu) for lu in lineups_for(tuple(personas), k, players)],
            rules=rules,
            seed=seed,
            jobs=jobs,
            progress=progress,
        )
        rows.append(_rates(frame, names, k, players))
    table = pd.DataFrame.from_records(rows)
    table.attrs["personas"] = names
    table.attrs["players"] = players
    return table


def plot_payoff(frame, ax=None):
    """Win rate per seat of each strategy and the everyone-loses rate against k; return the Axes.

    The social dilemma shows as a persona that wins more per seat while the
    table as a whole loses more often as more players choose it.
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(6.5, 3.8), layout="constrained")
    a, b = frame.attrs.get("personas") or tuple(
        c[len("win_rate_") :] for c in frame.columns if c.startswith("win_rate_")
    )
    players = frame.attrs.get("players", int(frame["k"].max()))
    from ..viz import persona_color

    lines = (
        (f"win_rate_{a}", "o-", persona_color(a), f"{a}: win rate per seat", "payoff-a"),
        (f"win_rate_{b}", "s-", persona_color(b), f"{b}: win rate per seat", "payoff-b"),
        ("everyone_loses", "x--", "black", "everyone loses", "payoff-lose"),
    )
    for column, style, color, label, gid in lines:
        ax.plot(frame["k"], frame[column], style, color=color, label=label, gid=gid)
    ax.axhline(1 / players, color="grey", linestyle=":", linewidth=1, label=f"chance (1/{players})")
    ax.set_xticks(list(frame["k"]), [f"{k} {a}\n{players - k} {b}" for k in frame["k"]], fontsize=8)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter("{x:.0%}")
    ax.set_xlabel(f"number of {a} players at the table")
    ax.set_ylabel("share")
    ax.set_title(f"{a} vs {b}: {int(frame['games'].iloc[0])} games per table", fontsize=10)
    ax.legend(fontsize=8, loc="best")
    return ax
