"""PlayApp's proposal windows (rule 12.1): "Don't ask me on the bots' turns" and its way back.

After a bot rolls, the engine asks every other seat whether it proposes a trade to the active
player. A human seat keeps that right (issue 14), but answering "pass" in every bot turn is
tiresome in class: with :attr:`ask_on_bot_turns` off the app passes for the human seats
through the engine (real Pass actions, in the log), except at the next window of a seat that
asked "Propose a trade to …" (:meth:`propose_next_time`).
"""

from __future__ import annotations

from typing import Any

from ...newenergies.actions import Action


class _Proposals:
    """A mixin of :class:`~energies.widgets.PlayApp` (the game, seats and guard live there)."""

    def _init_proposals(self, ask_on_bot_turns: bool) -> None:
        self.ask_on_bot_turns = bool(ask_on_bot_turns)
        # seat -> None (asked to propose at its next window) or the turn of that open window
        self._propose_next: dict[int, int | None] = {}
        self._auto_passes: set[int] = set()  # indices in game.actions the app passed for
        self.auto_pass_count = 0  # passes the app made since it was opened (for the status)

    def set_option(self, name: str, value: Any, seat: int | None = None) -> None:
        """Set a page option as the page does: ``"ask_on_bot_turns"`` (False: the app passes
        for the humans in the bots' proposal windows) or ``"propose_next"`` (True: ``seat``,
        default the human on screen, is asked at the next window all the same)."""
        self._guard.run("changing an option", self._set_option, name, value, seat)

    def propose_next_time(self, seat: int | None = None, on: bool = True) -> None:
        """Ask ``seat`` (default: the human on screen) at the next proposal window although
        :attr:`ask_on_bot_turns` is off; ``on=False`` cancels."""
        self.set_option("propose_next", on, seat)

    def _set_option(self, name: str, value: Any, seat: int | None) -> None:
        if name in ("ask_on_bot_turns", "propose_next") and not isinstance(value, bool):
            # bool("false") is True: a message without a clear yes or no changes nothing
            self._say(f"The option {name!r} is true or false, not {value!r}.", "error")
            return
        if name == "ask_on_bot_turns":
            self.ask_on_bot_turns = bool(value)
            self._propose_next.clear()
            self._say(
                "You will be asked to propose a trade in every bot turn (rule 12.1)."
                if self.ask_on_bot_turns
                else "From the next bot turn on, the app passes for you when the bots' "
                "turns offer a trade proposal; the Trade tab brings the question back.",
                "ok",
            )
        elif name == "propose_next":
            seat = self._viewer if seat is None else seat
            if seat not in self.humans:
                self._say(f"Seat {seat!r} is not a human seat.", "error")
                return
            partner = self._next_bot_name()
            if value:
                self._propose_next[seat] = None
                self._say(f"At {partner}'s next roll you may propose a trade (rule 12.1).", "ok")
            else:
                self._propose_next.pop(seat, None)
                self._say("Cancelled: the app passes for you again.", "ok")
        else:
            self._say(f"Unknown option {name!r}.", "error")

    def _proposal_seat(self) -> int | None:
        """The human seat the engine asks now to propose a trade to a bot, else None."""
        g = self.game
        task = g.state.pending
        if g.is_over or task is None or task.kind != "propose_trade":
            return None
        if g.current_seat in self.humans and g.active_seat not in self.humans:
            return g.current_seat
        return None

    def _auto_pass(self) -> int:
        """Pass for the human seats in the bots' proposal windows while they are not asked;
        return how many passes were applied."""
        g, passes = self.game, 0
        while not self.ask_on_bot_turns and (seat := self._proposal_seat()) is not None:
            wanted = self._propose_next.get(seat, -1)
            if wanted is None or wanted == g.turn:  # asked for this window: open the decision
                self._propose_next[seat] = g.turn
                break
            self._propose_next.pop(seat, None)  # a window of an earlier turn was used
            self._auto_passes.add(len(g.actions))
            g.apply(next(a for a in g.legal_actions() if a.kind == "decline"))
            passes += 1
        self.auto_pass_count += passes
        return passes

    def _passes_note(self, since: int) -> str:
        """ " Passed for you 2 time(s) …" when the app passed since the count was ``since``."""
        n = self.auto_pass_count - since
        return f" Passed for you {n} time(s) (no trade proposal, rule 12.1)." if n else ""

    def _last_human_choice(self, actions: list[Action]) -> int | None:
        """The index of the last action a human chose (the app's own passes do not count)."""
        return next(
            (
                i
                for i in range(len(actions) - 1, -1, -1)
                if actions[i].seat in self.humans and i not in self._auto_passes
            ),
            None,
        )

    def _forget_auto_passes(self, length: int = 0) -> None:
        """After an undo (or a load): forget the passes beyond the ``length`` actions kept."""
        self._auto_passes = {i for i in self._auto_passes if i < length}

    def _next_bot_name(self) -> str:
        """Whose roll opens the next proposal window: the active bot before its roll, else
        the next bot in turn order."""
        g = self.game
        n = g.rules.players
        first = 1 if g.state.phase == "action" else 0  # the window opens right after a roll
        seats = [(g.active_seat + k) % n for k in range(first, n + first)]
        bot = next((s for s in seats if s not in self.humans), None)
        return self._name(bot) if bot is not None else "a bot"

    def _proposal_view(self) -> dict[str, Any] | None:
        """What the page shows about the option: in the decision area and the Trade tab."""
        if not self.humans or len(self.humans) == self.game.rules.players:
            return None
        return {
            "ask": self.ask_on_bot_turns,
            "partner": self._next_bot_name(),
            "next": self._viewer in self._propose_next
            and self._propose_next[self._viewer] is None,  # asked for, its window not open yet
            "passes": len(self._auto_passes),
        }
