"""FootprintExplorer: slide through the turns of a game, board and footprint chart."""

from __future__ import annotations

import traceback

import ipywidgets as W

from ..newenergies.actions import EndTurn, pretty
from ..newenergies.game import Game, new_game
from ..newenergies.state import GameState
from ..viz import board_png
from .common import _CHART_PX, _esc, _figure_png, _footprint_figure, _StatusMixin


class FootprintExplorer(_StatusMixin):
    """Slide through the turns of a game: the board at each turn's end and the footprint chart.

    The game is replayed once from its seed and action log; the position at the end of
    every turn is kept (``explorer.states[turn]``), so moving the slider only redraws.
    For a game still in progress, :meth:`update` replays the new turns.
    """

    def __init__(self, game: Game, *, board_size: float = 5.5, board_dpi: int = 80) -> None:
        if not isinstance(getattr(game, "state", None), GameState):  # footprints: New Energies
            raise TypeError("FootprintExplorer needs a Game.")
        self.game = game
        self.board_size = (float(board_size), float(board_size))
        self.board_dpi = board_dpi
        self._busy: str | None = None
        self.ignored_clicks = 0
        self.last_error: str | None = None
        self.status = W.HTML()
        self.slider = W.IntSlider(
            description="Turn",
            continuous_update=False,
            layout=W.Layout(width="560px", max_width="100%"),
        )
        self.info_html = W.HTML()
        px = int(self.board_size[0] * board_dpi)
        self.board_image = W.Image(format="png", layout=W.Layout(width=f"{px}px", max_width="100%"))
        self.chart_image = W.Image(
            format="png", layout=W.Layout(width=f"{_CHART_PX}px", max_width="100%")
        )
        self.widget = W.VBox(
            [
                self.slider,
                self.status,
                self.info_html,
                W.HBox([self.board_image, self.chart_image], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.update()
        self.slider.observe(self._on_turn, names="value")

    def update(self) -> None:
        """Replay the game (again) and show its last turn."""
        self.states = self._replay(self.game)
        self._chart = None
        self._chart_cache: dict[int, bytes] = {}
        turns = sorted(self.states)
        self._busy = "updating"  # the slider's observer waits: one drawing below
        try:
            self.slider.min = 0
            self.slider.max = turns[-1]
            self.slider.min = turns[0]
            self.slider.value = turns[-1]
        finally:
            self._busy = None
        self._show(turns[-1])

    @staticmethod
    def _replay(game: Game) -> dict[int, Game]:
        """The position at the end of every turn: a fork before each EndTurn, plus the end.

        Turn 0 is the set-up (the start position of a quick start, the last set-up placement
        of a draft start).
        """
        replay = new_game(seed=game.seed, rules=game.rules, names=game.names)
        states: dict[int, Game] = {}
        turns = {record["turn"] for record in game.history}
        if replay.turn - 1 in turns:  # quick start: the set-up position is turn 0
            states[replay.turn - 1] = replay.fork()
        for action in game.actions:
            if isinstance(action, EndTurn):
                states[replay.turn] = replay.fork()
                replay.apply(action)
            elif replay.state.phase == "setup":  # draft start: the set-up is turn 0
                turn = replay.turn
                replay.apply(action)
                states[turn] = replay.fork()
            else:
                replay.apply(action)
        states[replay.turn] = replay
        return states

    def state_at(self, turn: int) -> Game:
        """The game as it stood at the end of ``turn`` (the nearest earlier turn kept)."""
        turns = sorted(self.states)
        kept = [t for t in turns if t <= turn] or turns[:1]
        return self.states[kept[-1]]

    def show(self, turn: int) -> None:
        """Move the slider to ``turn``."""
        self.slider.value = turn

    def _on_turn(self, change) -> None:
        if self._busy == "updating":
            return
        if self._busy:
            self.ignored_clicks += 1
            return
        self._busy = "drawing"
        try:
            self._show(change["new"])
        except Exception as exc:  # noqa: BLE001 - shown in the status line
            self.last_error = traceback.format_exc()
            self._say(f"Cannot show turn {change['new']}: {exc}", "error")
        finally:
            self._busy = None

    def _chart_png(self, turn: int) -> bytes:
        if turn not in self._chart_cache:
            if self._chart is None:
                fig, ax = _footprint_figure(self.game)
                line = ax.axvline(
                    turn, color="#E6007E", linewidth=2, linestyle="--", gid="turn-line", zorder=6
                )
                self._chart = (fig, line)
            fig, line = self._chart
            line.set_xdata([turn, turn])
            self._chart_cache[turn] = _figure_png(fig)
        return self._chart_cache[turn]

    def _show(self, turn: int) -> None:
        game = self.state_at(turn)
        self.board_image.value = board_png(game, figsize=self.board_size, dpi=self.board_dpi)
        self.chart_image.value = self._chart_png(turn)
        self.info_html.value = self._info(turn, game)
        self.turn = turn

    def _info(self, turn: int, game: Game) -> str:
        names = self.game.names
        rows = [r for r in self.game.history if r["turn"] == turn]
        parts = []
        if rows:
            gf = rows[0]["gf"]
            lf = ", ".join(f"{_esc(names[r['seat']])} LF {r['lf']} / {r['vp']} VP" for r in rows)
            parts.append(f"<b>Turn {turn}</b> · GF <b>{gf}</b> · {lf}")
        else:
            parts.append(f"<b>Turn {turn}</b> · GF <b>{game.global_footprint}</b>")
        fired = [e for e in self.game.events if e["turn"] == turn]
        if fired:
            parts.append(
                "Events: "
                + "; ".join(
                    _esc(f"{pretty(str(e['event']))} ({e.get('color', '')}): {e.get('effect', '')}")
                    for e in fired
                )
            )
        if game.is_over:
            parts.append(_esc(str(game.outcome)))
        return "<br>".join(parts)
