"""ShelfieApp: play My Shelfie Dice in a notebook, with dice to click and an exact hint.

from energies.games.shelfie.widget import ShelfieApp
ShelfieApp(seats={0: "human", 1: "ev"})
"""

from __future__ import annotations

import ipywidgets as W

from ...widgets.companion import GameApp
from .actions import Keep, Reroll, face_name
from .draw import game_png
from .game import ShelfieGame, new_game
from .odds import RerollPlanner, planning_problem


class ShelfieApp(GameApp):
    """The play app plus one toggle per die (pressed = re-roll it), Keep, and a hint that
    shows the exact expected-value player's choice."""

    GAME = ShelfieGame

    def __init__(
        self, game=None, seats: dict[int, str] | None = None, seed: int = 0, save_dir=None
    ) -> None:
        self.dice_buttons = [W.ToggleButton(layout=W.Layout(width="72px")) for _ in range(8)]
        self.reroll_button = W.Button(description="Re-roll pressed dice")
        self.keep_button = W.Button(description="Keep the dice")
        self.hint_button = W.Button(description="Hint (exact)")
        super().__init__(game or new_game(players=2, seed=seed), seats, seed, save_dir)
        self.reroll_button.on_click(lambda _: self._guard.run("re-rolling", self._reroll))
        self.keep_button.on_click(lambda _: self._guard.run("keeping", self._keep))
        self.hint_button.on_click(lambda _: self._guard.run("thinking", self.hint))

    def png(self) -> bytes:
        return game_png(self.game, dpi=self.dpi)

    def extra_controls(self) -> list:
        return [
            W.HBox(self.dice_buttons),
            W.HBox([self.reroll_button, self.keep_button, self.hint_button]),
        ]

    def _reroll(self) -> None:
        faces = tuple(sorted(int(b.tooltip) for b in self.dice_buttons if b.value and b.tooltip))
        seat = self.game.current_seat
        self._apply(Reroll(seat, faces))

    def _keep(self) -> None:
        self._apply(Keep(self.game.current_seat))

    def hint(self) -> str:
        """The exact expected-value player's choice now, in words (also shown in the status)."""
        from .bots import ExpectedValueBot, _Evaluator, greedy_reroll

        state = self.game.state
        too_large = planning_problem(len(state.dice), state.rules.faces)
        if self.game.is_over or state.phase != "roll":
            text = "Hints are for re-roll decisions."
        elif too_large:  # the exact plan would freeze the app for many seconds
            faces = greedy_reroll(state, _Evaluator(state, state.active))
            text = (
                f"No exact hint with these rules ({too_large}). "
                f"The greedy player would {_choice_words(faces, state.rules)}."
            )
        else:
            evaluator = _Evaluator(state, state.active)
            planner = RerollPlanner(state.rules.faces, evaluator.best_value)
            faces, value = planner.choose(state.dice, state.rerolls_left)
            keep_value = planner.final(state.dice)
            what = _choice_words(faces, state.rules)
            text = f"{ExpectedValueBot.name}: {what} (expected shelf value {value:.1f}, keeping now {keep_value:.1f})."
        self._say(text, "info")
        return text

    def _refresh(self) -> None:
        super()._refresh()
        state = self.game.state
        rolling = (
            not self.game.is_over
            and state.phase == "roll"
            and self.game.current_seat not in self.bots
        )
        # the pressed dice stay pressed until the game moves (a hint or a refused click keeps them)
        moved = (len(self.game.actions), tuple(state.dice)) != getattr(self, "_shown", None)
        self._shown = (len(self.game.actions), tuple(state.dice))
        for i, button in enumerate(self.dice_buttons):
            shown = rolling and i < len(state.dice)
            button.layout.display = None if shown else "none"
            if shown:
                button.description = face_name(state.dice[i])
                button.tooltip = str(state.dice[i])
            else:
                button.tooltip = ""
            if moved or not shown:
                button.value = False
        self.reroll_button.disabled = self.keep_button.disabled = (
            self.hint_button.disabled
        ) = not rolling


def _choice_words(faces: tuple[int, ...], rules) -> str:
    """A re-roll choice in words, in the rules' colour names (a ninth face is no joker)."""
    if not faces:
        return "keep the dice"
    return "re-roll " + ", ".join(rules.colour_name(f) for f in faces)
