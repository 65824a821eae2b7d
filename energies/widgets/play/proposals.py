"""PlayApp's trade proposals to the active player (rule 12.1): the windows, the option
"Don't ask me on the bots' turns" and its way back, and proposals made at any time.

After a bot rolls, the engine asks every other seat whether it proposes a trade to the active
player. A human seat keeps that right (issue 14), but answering "pass" in every bot turn is
tiresome in class: with :attr:`ask_on_bot_turns` off the app passes for the human seats
through the engine (real Pass actions, in the log), except at the next window of a seat that
asked "Ask me at …'s next roll" (:meth:`propose_next_time`).

In hot-seat the humans share one screen and talk across the table: a human is never asked to
propose to another human (each window would mean handing the laptop over; 61 of 158 human
decisions of a scripted three-human game were such windows). The app passes for them through
the engine, unless :attr:`propose_between_humans` is on; they still propose at any time.

Between the windows a human who is not active may propose at any time of the action phase
(:meth:`propose`, the page's "Propose a trade to …"): the app holds the proposal and makes it
at the active player's next free decision — before a bot's next move, or when the active
human's turn is next shown — and the proposer's note says what became of it.
"""

from __future__ import annotations

from typing import Any

from ...kit.fields import show
from ...newenergies.actions import Action, ProposeTrade, goods_text
from ...newenergies.engine.checks import check_proposal, proposer_problem
from ...newenergies.rules import CARD_KINDS


class _Proposals:
    """A mixin of :class:`~energies.widgets.PlayApp` (the game, seats and guard live there)."""

    def _init_proposals(self, ask_on_bot_turns: bool, propose_between_humans: bool) -> None:
        self.ask_on_bot_turns = bool(ask_on_bot_turns)
        self.propose_between_humans = bool(propose_between_humans)
        self.human_passes = 0  # passes the app made for a human asked to propose to a human
        # seat -> None (asked to propose at its next window) or the turn of that open window
        self._propose_next: dict[int, int | None] = {}
        self._auto_passes: set[int] = set()  # indices in game.actions the app passed for
        self.auto_pass_count = 0  # passes the app made since it was opened (for the status)
        # rule 12.1, proposals at any time: seat -> (the proposal, the turn it is for), held
        # until the active player's next free decision; then seat -> what became of it
        self._held: dict[int, tuple[ProposeTrade, int]] = {}
        self._made: dict[int, tuple[ProposeTrade, int]] = {}  # made: (proposal, partner)
        self._proposal_notes: dict[int, str] = {}  # not made: why, in words

    def set_option(self, name: str, value: Any, seat: int | None = None) -> None:
        """Set a page option as the page does: ``"ask_on_bot_turns"`` (False: the app passes
        for the humans in the bots' proposal windows) or ``"propose_next"`` (True: ``seat``,
        default the human on screen, is asked at the next window all the same)."""
        self._guard.run("changing an option", self._set_option, name, value, seat)

    def propose(self, give: str, get: str, seat: int | None = None) -> bool:
        """Propose one ``give`` for one ``get`` to the active player as ``seat`` (default: the
        human on screen) at any time of the action phase (rule 12.1): the app holds it and
        makes it at the active player's next free decision. Return True when it is held."""
        content = {"type": "propose", "seat": self._viewer if seat is None else seat}
        return self.message({**content, "give": give, "get": get})

    def cancel_proposal(self, seat: int | None = None) -> bool:
        """Withdraw the proposal ``seat`` (default: the human on screen) holds."""
        content = {"type": "propose", "seat": self._viewer if seat is None else seat}
        return self.message({**content, "cancel": True})

    def _hold_proposal(self, content: dict) -> bool:
        """The page's "Propose a trade to …" (or its Cancel): check every value the message
        brings, then hold the proposal; a bad message is refused and changes nothing."""
        g, seat = self.game, content.get("seat")
        problem = self._human_seat_problem(seat) or self._passing_problem()
        if problem is None and g.is_over:
            problem = "The game is over: " + self.words.speak(str(g.outcome))
        if problem is None and content.get("cancel") is True:
            held = self._held.pop(seat, None)
            self._say("Proposal withdrawn." if held else "You hold no proposal.", "ok")
            return held is not None
        kinds = CARD_KINDS + (("energy",) if g.rules.energy_tradeable else ())
        give, get = content.get("give"), content.get("get")
        if problem is None and not all(isinstance(k, str) and k in kinds for k in (give, get)):
            problem = (
                f"Propose one of {', '.join(kinds)} for another of them, "
                f"not {show(give)} for {show(get)}."
            )
        if problem is not None:
            self._say(problem, "error")
            return False
        proposal = ProposeTrade(seat, ((give, 1),), ((get, 1),))
        why = proposer_problem(g.state, seat) or check_proposal(g.state, proposal)
        if why:
            self._say(self.words.speak(why, addressee=seat), "error")
            return False
        self._held[seat] = (proposal, g.turn)
        self._made.pop(seat, None)
        self._proposal_notes.pop(seat, None)
        partner = self._name(g.state.active)
        self._say(
            f"Held: your proposal of {goods_text(proposal.give)} for {goods_text(proposal.get)} "
            f"goes to {partner} at {partner}'s next free decision (rule 12.1).",
            "ok",
        )
        return True

    def _deliver_held(self) -> ProposeTrade | None:
        """Make one held proposal whose moment has come (rule 12.1: the active player's free
        decision of the action phase) and return it; a proposal for a turn that has ended,
        or that is no longer legal, is dropped and its note says why."""
        g = self.game
        state = g.state
        self._drop_ended()
        for seat, (proposal, _turn) in list(self._held.items()):
            partner = self._name(state.active)
            if state.queue or state.phase != "action":
                continue  # the active player is not free to answer yet: it waits
            del self._held[seat]
            why = g.why_illegal(proposal)
            if why:
                self._proposal_notes[seat] = (
                    f"Your proposal to {partner} ({goods_text(proposal.give)} for "
                    f"{goods_text(proposal.get)}) could not be made: "
                    + self.words.speak(why, addressee=seat)
                )
                continue
            g.apply(proposal)
            self._made[seat] = (proposal, state.active)
            return proposal  # one at a time: the active player answers it first
        return None

    def _drop_ended(self) -> None:
        """Drop the held proposals of a turn that has ended (or a game that is over)."""
        g = self.game
        for seat, (_proposal, turn) in list(self._held.items()):
            if g.is_over or g.turn != turn:
                del self._held[seat]
                self._proposal_notes[seat] = "Your proposal was not made: that turn has ended."

    def _deliver_to_human(self) -> None:
        """When the page is drawn: the proposals held for an active human are made (its turn
        is next shown), those of an ended turn dropped."""
        if self._held and self.game.state.active in self.humans:
            self._deliver_held()
        elif self._held:
            self._drop_ended()

    def _interject_view(self) -> dict[str, Any] | None:
        """The page's "Propose a trade to …" for every human seat that is not active."""
        g = self.game
        if g.is_over or g.rules.trade_offers_per_turn <= 0:
            return None
        active = g.state.active
        seats = [s for s in sorted(self.humans) if s != active]
        if not seats:
            return None
        kinds = CARD_KINDS + (("energy",) if g.rules.energy_tradeable else ())
        return {
            "partner": self._name(active),
            "kinds": list(kinds),
            "seats": [
                {
                    "seat": s,
                    "name": self._name(s),
                    "held": self._held_text(s),
                    "note": self._note(s),
                }
                for s in seats
            ],
        }

    def _held_text(self, seat: int) -> str:
        held = self._held.get(seat)
        return f"{goods_text(held[0].give)} for {goods_text(held[0].get)}" if held else ""

    def _note(self, seat: int) -> str:
        """What became of the seat's last proposal made from the page."""
        made = self._made.get(seat)
        if made is not None:
            return self._answer_to(*made)
        return self._proposal_notes.get(seat, "")

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
        """The human seat the engine asks now to propose a trade to the active player, else
        None."""
        g = self.game
        task = g.state.pending
        if g.is_over or task is None or task.kind != "propose_trade":
            return None
        return g.current_seat if g.current_seat in self.humans else None

    def _passes_for(self, seat: int) -> bool:
        """Whether the app passes for ``seat`` in the proposal window open now."""
        g = self.game
        if g.active_seat in self.humans:  # hot-seat: the humans talk across the table
            return not self.propose_between_humans
        if self.ask_on_bot_turns:
            return False
        wanted = self._propose_next.get(seat, -1)
        if wanted is None or wanted == g.turn:  # asked for this window: open the decision
            self._propose_next[seat] = g.turn
            return False
        self._propose_next.pop(seat, None)  # a window of an earlier turn was used
        return True

    def _auto_pass(self) -> int:
        """Pass for the human seats in the proposal windows they are not asked in (a bot's
        turn with the option off, a human's turn in hot-seat); return how many passes were
        applied (:attr:`auto_pass_count` counts those of the bots' turns: the status line
        says them)."""
        g, passes = self.game, 0
        while (seat := self._proposal_seat()) is not None and self._passes_for(seat):
            between_humans = g.active_seat in self.humans
            self._auto_passes.add(len(g.actions))
            g.apply(next(a for a in g.legal_actions() if a.kind == "decline"))
            passes += 1
            if between_humans:
                self.human_passes += 1
            else:
                self.auto_pass_count += 1
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
        """After an undo (or a load): forget the passes beyond the ``length`` actions kept,
        and the proposals held or made from the page (their position is gone)."""
        self._auto_passes = {i for i in self._auto_passes if i < length}
        self._held.clear()
        self._made.clear()
        self._proposal_notes.clear()

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
