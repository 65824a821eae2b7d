"""NoclearApp: play Noclear in a notebook against the Engineer (or hot-seat).

from energies.games.noclear.widget import NoclearApp
NoclearApp(seats={0: "human", 1: "engineer"})
"""

from __future__ import annotations

import html

import ipywidgets as W

from ...kit.i18n import N_, nsay, render
from ...widgets.companion import GameApp
from .draw import game_png
from .engine import machine_points
from .game import NoclearGame, new_game
from .vocabulary import energy_amount


class NoclearApp(GameApp):
    """The play app plus a line with the active seat's energy and what it makes a turn."""

    GAME = NoclearGame

    def __init__(
        self,
        game=None,
        seats: dict[int, str] | None = None,
        seed: int = 0,
        save_dir=None,
        lang: str | None = None,
    ) -> None:
        self.economy = W.HTML()
        game = game or new_game(players=2, seed=seed)
        super().__init__(game, seats, seed, save_dir, lang)

    def png(self) -> bytes:
        return game_png(self.game, dpi=self.dpi)

    def extra_controls(self) -> list:
        return [self.economy]

    def label(self, action) -> str:
        """The action and what its payment takes (rule 2.2: a split price, uranium, machines)."""
        said = str(render(action.sentence(), self.lang))
        note = self.game.payment_note(action)
        if not note:
            return said
        return self._t(N_("{action} — {note}"), action=said, note=render(note, self.lang))

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
        lang = self.lang
        paying = ""
        if game.rules.uranium_payment == "machines":  # rule 2.2 [H]
            paying = " " + nsay(
                "Machines worth {n} point toward uranium.",
                "Machines worth {n} points toward uranium.",
                machine_points(state, seat),
                lang,
            )
            if state.phase == "discard":
                paying = " " + nsay(
                    "Paying for uranium card {card}: {n} point still owed — discard machines "
                    "(their price, plus upgrade cost once upgraded).",
                    "Paying for uranium card {card}: {n} points still owed — discard machines "
                    "(their price, plus upgrade cost once upgraded).",
                    state.owed,
                    lang,
                    card=state.paying_for,
                )
        line = self._t(
            N_(
                "{name}: {blue}, {orange} energy; makes {made_blue} + {made_orange} a turn; {n} uranium."
            ),
            name="\0",  # the name goes in as bold HTML below (never through the catalog)
            blue=energy_amount(blue, "blue"),
            orange=energy_amount(orange, "orange"),
            made_blue=energy_amount(made[0], "blue"),
            made_orange=energy_amount(made[1], "orange"),
            n=game.uranium(seat),
        )
        self.economy.value = html.escape(line + paying).replace(
            "\0", f"<b>{html.escape(game.names[seat])}</b>", 1
        )
