"""PlayApp's bot moves: one step, bots until a human decides, and undo back to a human."""

from __future__ import annotations

import random
import time

from ...newenergies.actions import Action
from ...newenergies.engine import IllegalActionError


def bot_label(bot) -> str:
    """How the page names a bot seat: its name, or its class's."""
    return str(getattr(bot, "name", None) or type(bot).__name__)


class _BotTurns:
    """A mixin of :class:`~energies.widgets.PlayApp` (the game, the seats, ``humans``,
    ``_say``, ``_refresh`` and the automatic passes live there and in its other mixins)."""

    def _bot_move(self) -> Action:
        g = self.game
        self._deliver_held()  # rule 12.1: a human's proposal held for the active bot first
        seat = g.current_seat
        bot = self.bots[seat]
        legal = g.legal_actions()
        rng = random.Random(f"{g.seed}:playapp:{len(g.actions)}")
        action = bot.decide(g.view(seat), legal, rng)  # bots see what their seat may know
        try:
            g.apply(action)
        except IllegalActionError as exc:
            raise RuntimeError(
                f"the bot of {self._name(seat)} ({bot_label(bot)}) chose an illegal action: "
                f"{exc.reason}"
            ) from None
        return action

    def _run_bots(self, answers_only: bool = False) -> int:
        """Bot moves until a human decides or the game ends. ``answers_only``: only answers
        inside a human's turn and open decision rounds (offers, discards, event decisions);
        a bot's own turn waits for "Bots play until my turn". Between bot turns the page
        shows where the bots are (visible progress)."""
        g, moves = self.game, 0
        turn = g.turn
        while not g.is_over:
            if g.current_seat in self.humans:
                if self._auto_pass():  # rule 12.1: "don't ask me on the bots' turns"
                    continue
                break
            if answers_only and g.active_seat not in self.humans and not g.pending:
                break
            if moves >= self.max_bot_actions:
                raise RuntimeError(f"the bots stopped after {moves} moves (max_bot_actions)")
            self._bot_move()
            moves += 1
            if g.turn != turn and not answers_only:
                turn = g.turn
                self._refresh(
                    progress=f"Bots playing… turn {g.turn}: "
                    f"{self.words.possessive(g.active_seat)} turn ({moves} moves so far)"
                )
                if self.step_delay > 0:
                    time.sleep(self.step_delay)
        return moves

    def _play_bots(self) -> int:
        g = self.game
        if g.is_over:
            self._say("The game is over: " + self.words.speak(str(g.outcome)), "info")
            return 0
        if g.current_seat in self.humans:
            self._say(f"It is {self._name(g.current_seat)}'s move: " + self._task() + ".", "info")
            return 0
        start, passes = time.perf_counter(), self.auto_pass_count
        moves = self._run_bots()
        self.timings["bots"] = time.perf_counter() - start
        self._say(f"The bots made {moves} move(s).{self._passes_note(passes)} {self._hint()}", "ok")
        return moves

    def _step(self) -> bool:
        g = self.game
        if g.is_over:
            self._say("The game is over: " + self.words.speak(str(g.outcome)), "info")
            return False
        if g.current_seat in self.humans:
            self._say(f"No bot to step: {self._name(g.current_seat)} must decide.", "info")
            return False
        action, passes = self._bot_move(), self.auto_pass_count
        self._auto_pass()
        self._say(f"Step: {self.words.speak(g.describe(action))}.{self._passes_note(passes)}", "ok")
        return True

    def _undo(self) -> int:
        g = self.game
        if self.humans:
            last = self._last_human_choice(g.actions)
        else:
            last = len(g.actions) - 1 if g.actions else None
        if last is None:
            self._say("Nothing to undo: no human move yet.", "info")
            return 0
        steps = len(g.actions) - last
        g.undo(steps)
        self._files.took_back()  # the saved file may now be replaced by the shorter game
        self._forget_auto_passes(len(g.actions))
        self.offer_answer = ""  # the offer it answered may be undone
        self._generation += 1
        self._since = {"log": len(g.log)}
        seat = g.current_seat
        who = "nobody's" if seat is None else f"{self._name(seat)}'s"
        if seat is not None and self.words.is_you(seat):  # not "back to You's decision"
            who = "your"
        self._say(f"Undid {steps} action(s): back to {who} decision ({self._task()}).", "ok")
        return steps
