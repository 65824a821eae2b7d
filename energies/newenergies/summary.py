"""A finished New Energies game in numbers: its columns of a :func:`energies.simulate` row.

Registered as the game's ``simulate_columns`` hook (:class:`energies.kit.registry.GameSpec`);
the runner puts them after the line-up columns (``game, seed, players, lineup, bot_i``).
"""

from __future__ import annotations

from typing import Any

from .game import Game


def simulate_columns(game: Game) -> dict[str, Any]:
    """``outcome, winners, everyone_loses, turns, actions, final_gf`` and per seat ``vp_i,
    lf_i, fossil_i, renewable_i``."""
    state, outcome = game.state, game.outcome
    row: dict[str, Any] = {
        "outcome": outcome.kind,
        "winners": tuple(outcome.winners),
        "everyone_loses": outcome.kind == "everyone_loses",
        "turns": game.turn,
        "actions": len(game.actions),
        "final_gf": game.global_footprint,
    }
    for key, value in (
        ("vp", game.victory_points),
        ("lf", game.local_footprint),
        ("fossil", lambda s: state.players[s].count_plants("fossil")),
        ("renewable", lambda s: state.players[s].count_plants("renewable")),
    ):
        for seat in range(game.rules.players):
            row[f"{key}_{seat}"] = value(seat)
    return row
