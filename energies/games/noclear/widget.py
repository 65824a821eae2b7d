"""NoclearApp: play Noclear in a notebook against the Engineer (or hot-seat).

from energies.games.noclear.widget import NoclearApp
NoclearApp(seats={0: "human", 1: "engineer"})
"""

from __future__ import annotations

import html

import ipywidgets as W

from ...widgets.companion import GameApp
from .draw import game_png
from .engine import machine_points
from .game import NoclearGame, new_game


class NoclearApp(GameApp):
    """The play app plus a line with the active seat's energy and what it makes a turn."""

    GAME = NoclearGame

    def __init__(
        self, game=None, seats: dict[int, str] | None = None, seed: int = 0, save_dir=None
    ) -> None:
        self.economy = W.HTML()
        super().__init__(game or new_game(players=2, seed=seed), seats, seed, save_dir)

    def png(self) -> bytes:
        return game_png(self.game, dpi=self.dpi)

    def extra_controls(self) -> list:
        return [self.economy]

    def label(self, action) -> str:
        """The action and what its payment takes (rule 2.2: a split price, uranium, machines)."""
        note = self.game.payment_note(action)
        return f"{action} — {note}" if note else str(action)

    def _refresh(self) -> None:
        super()._refresh()
        game = self.game
        if game.is_over:
            self.economy.value = ""
            return
        seat = game.current_seat
        blue, orange = game.energy(seat)
        made = game.production(seat)
        state = game.state
        paying = ""
        if game.rules.uranium_payment == "machines":  # rule 2.2 [H]
            paying = f" Machines worth {machine_points(state, seat)} points toward uranium."
            if state.phase == "discard":
                paying = (
                    f" Paying for uranium card {state.paying_for}: {state.owed} points still "
                    "owed — discard machines (their price, plus upgrade cost once upgraded)."
                )
        self.economy.value = (
            f"<b>{html.escape(game.names[seat])}</b>: {blue} blue, {orange} orange energy; "
            f"makes {made[0]} blue + {made[1]} orange a turn; {game.uranium(seat)} uranium."
            + paying
        )
