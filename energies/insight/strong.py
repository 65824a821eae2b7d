"""Does fossil pay when everyone plays well? The cached answer of the search players.

``benchmarks/search_strength.py --part question`` plays the fossil-only (``search-fossil``)
and renewable-only (``search-green``) search players (:mod:`energies.search`) against the
strongest personas and against unrestricted search players, for 3 and 4 players, under the
published rules and the lesson-04 variant (plants score 1 VP, the race is to 8 VP), and
writes the table into the package (``energies/data/search_question.csv``). Those games take
far too long for a lesson, so a notebook reads the cached table:

    from energies.insight import strong_players, plot_strong_players
    table = strong_players()            # a pandas DataFrame, one row per match-up
    fossil_verdicts(table)              # fossil only against renewable only, side by side
    plot_strong_players(table, players=4)
"""

from __future__ import annotations

from importlib import resources

__all__ = ["QUESTION_TABLE", "fossil_verdicts", "plot_strong_players", "strong_players"]

#: The cached table inside the package (written by benchmarks/search_strength.py).
QUESTION_TABLE = "search_question.csv"

_SUBJECTS = {"search-fossil": "fossil only", "search-green": "renewable only"}
_OPPONENTS = {"personas": "against personas", "search": "against search players"}


def strong_players():
    """The question table as a pandas DataFrame, one row per (players, rules, subject, against).

    Columns: ``players``; ``rules`` ("published" or "lesson-04"); ``subject`` (the search
    player in one seat: "search-fossil", "search-green" or, for reference, the unrestricted
    "search"); ``opponents`` ("personas": green, balanced[, freerider]; "search": unrestricted
    search players); ``games``; ``win_rate`` (the subject's wins per game, a shared win
    split) with its 95 % Wilson interval ``win_rate_low`` .. ``win_rate_high``;
    ``fair_share`` (1 / players); ``everyone_loses`` (share of games nobody won, rule 14.2);
    ``mean_final_gf``; the subject's mean ``subject_vp``, ``subject_renewable``,
    ``subject_fossil``; ``budget`` (rollouts per decision of the subject) and
    ``opponent_budget`` (of the search opponents).
    """
    import pandas as pd

    with resources.files("energies.data").joinpath(QUESTION_TABLE).open() as f:
        return pd.read_csv(f)


def _percent(row) -> str:
    return (
        f"{100 * row['win_rate']:.0f}% "
        f"({100 * row['win_rate_low']:.0f}–{100 * row['win_rate_high']:.0f}%)"
    )


def fossil_verdicts(frame=None):
    """Fossil only against renewable only, one row per (players, rules, opponents).

    Columns: ``players``, ``rules``, ``against``, ``games`` (per player), ``fossil only`` and
    ``renewable only`` (win rate with its 95 % interval), ``fair share``, ``everyone loses``
    (in the fossil player's games) and ``verdict``: "fossil pays" when the fossil player's
    whole interval lies above the renewable player's, "renewable pays" the other way round,
    "too close to call" when the intervals overlap.
    """
    import pandas as pd

    if frame is None:
        frame = strong_players()
    out = []
    keys = frame[["players", "rules", "opponents"]].drop_duplicates().itertuples(index=False)
    for players, rules, opponents in keys:
        match = frame[
            (frame["players"] == players)
            & (frame["rules"] == rules)
            & (frame["opponents"] == opponents)
        ].set_index("subject")
        if not {"search-fossil", "search-green"} <= set(match.index):
            continue
        fossil, green = match.loc["search-fossil"], match.loc["search-green"]
        if fossil["win_rate_low"] > green["win_rate_high"]:
            verdict = "fossil pays"
        elif green["win_rate_low"] > fossil["win_rate_high"]:
            verdict = "renewable pays"
        else:
            verdict = "too close to call"
        out.append(
            {
                "players": players,
                "rules": rules,
                "against": _OPPONENTS[opponents],
                "games": int(min(fossil["games"], green["games"])),
                "fossil only": _percent(fossil),
                "renewable only": _percent(green),
                "fair share": f"{100 / players:.0f}%",
                "everyone loses": f"{100 * fossil['everyone_loses']:.0f}%",
                "verdict": verdict,
            }
        )
    return pd.DataFrame(out)


def plot_strong_players(frame=None, ax=None, players: int = 4):
    """The restricted players' win rates with 95 % intervals, one group per rule set and
    opponents, for ``players`` players; a dotted line at the fair share. Returns the Axes."""
    if frame is None:
        frame = strong_players()
    measured = sorted(int(n) for n in frame["players"].unique())
    if players not in measured or isinstance(players, bool):
        # an empty chart titled "5 players" (or a division by zero for 0) would mislead
        raise ValueError(f"players must be one of the measured table sizes {measured}.")
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(6.5, 3.6), layout="constrained")
    rows = frame[(frame["players"] == players) & frame["subject"].isin(list(_SUBJECTS))]
    groups = list(dict.fromkeys(zip(rows["rules"], rows["opponents"])))
    width = 0.38
    from ..viz import persona_color

    for offset, (subject, label) in zip((-width / 2, width / 2), _SUBJECTS.items()):
        xs, rates, low, high = [], [], [], []
        for x, (rules, opponents) in enumerate(groups):
            match = rows[
                (rows["rules"] == rules)
                & (rows["opponents"] == opponents)
                & (rows["subject"] == subject)
            ]
            if match.empty:
                continue
            row = match.iloc[0]
            xs.append(x + offset)
            rates.append(row["win_rate"])
            low.append(row["win_rate"] - row["win_rate_low"])
            high.append(row["win_rate_high"] - row["win_rate"])
        ax.bar(
            xs, rates, width, yerr=[low, high], capsize=3, color=persona_color(subject), label=label
        )
    ax.axhline(
        1 / players, color="grey", linestyle=":", linewidth=1, label=f"fair share (1/{players})"
    )
    ax.set_xticks(
        range(len(groups)),
        [f"{rules} rules\n{_OPPONENTS[opp]}" for rules, opp in groups],
        fontsize=8,
    )
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter("{x:.0%}")
    ax.set_ylabel("win rate of the restricted player")
    ax.set_title(f"Fossil only or renewable only, {players} players, strong play", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return ax
