"""The rules of My Shelfie Dice: listing, checking and applying actions; the turn machine.

Legal actions are listed straight from the state; ``why_illegal`` accepts
exactly what the listing holds and explains everything else in one sentence.
Chance (the dice) comes from the game's seeded stream; :func:`chance_outcomes`
lists a re-roll's results with their exact probabilities.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from ...kit.codec import check_action_type
from ...kit.contract import Outcome
from ...kit.i18n import N_, joined, msg, nmsg
from . import dice as D
from .actions import CODEC, Circle, CrossOut, Keep, Reroll, face_word, item_word
from .rules import ShelfieRules
from .state import AVAILABLE, CIRCLED, CROSSED, ShelfieState


def new_state(rules: ShelfieRules, seed: int) -> ShelfieState:
    """Empty shelves; the first player rolls (rule 2.1)."""
    empty = [
        [[AVAILABLE] * rules.columns for _ in range(rules.colours)] for _ in range(rules.players)
    ]
    state = ShelfieState(rules, seed, random.Random(f"shelfie:{seed}"), empty)
    _start_turn(state, rules.first_seat)
    return state


def current_seat(state: ShelfieState) -> int | None:
    return None if state.outcome is not None else state.active


# -- listing ------------------------------------------------------------------------------------


def legal_actions(state: ShelfieState) -> list:
    """Every legal action of the active player."""
    if state.outcome is not None:
        return []
    seat, rules = state.active, state.rules
    if state.phase == "roll":  # rule 2.1: keep, or re-roll any non-empty part of the dice
        subsets = D.sub_multisets(state.dice)[1:]  # [0] is the empty set
        return [Keep(seat)] + [Reroll(seat, faces) for faces in subsets]
    circles = [Circle(seat, items) for items in _placements(state)]
    if circles and rules.must_circle_if_able:  # rule 2.4 [H]
        return circles
    return circles + [CrossOut(seat, row) for row in state.rows_with_space(seat)]


def _placements(state: ShelfieState) -> list[tuple[tuple[int, int], ...]]:
    rules = state.rules
    return D.placements(
        state.dice,
        state.open_items(state.active),
        rules.colours,
        rules.max_circles,
        rules.joker_alone_when_all_jokers,
    )


def chance_outcomes(state: ShelfieState, action: Reroll) -> list[tuple[tuple[int, ...], Fraction]]:
    """The chance node behind a re-roll: each resulting set of dice and its exact probability."""
    reason = why_illegal(state, action)
    if reason is not None or not isinstance(action, Reroll):
        raise ValueError(reason or "Only a re-roll has chance outcomes.")
    return D.reroll_outcomes(state.dice, action.faces, state.rules.faces)


# -- checking -----------------------------------------------------------------------------------


def why_illegal(state: ShelfieState, action) -> str | None:
    """One sentence saying why ``action`` is not allowed now, or None if it is."""
    reason = check_action_type(action, CODEC, "My Shelfie Dice")
    if reason:
        return reason
    if state.outcome is not None:
        return msg(N_("The game is over."))
    if action.seat != state.active:
        return msg(
            N_("It is seat {active}'s turn, not seat {seat}'s."),
            active=state.active,
            seat=action.seat,
        )
    if action in legal_actions(state):
        return None
    return _explain(state, action)


def _explain(state: ShelfieState, action) -> str:
    """Why a well-typed action of the active seat is not in the listing."""
    rules = state.rules
    if isinstance(action, (Reroll, Keep)) and state.phase != "roll":
        return msg(N_("No re-rolls left: circle items or cross out a row now (rule 2.1)."))
    if isinstance(action, (Circle, CrossOut)) and state.phase != "place":
        return msg(
            N_("Roll first: keep the dice or re-roll some of them before circling (rule 2.1).")
        )
    if isinstance(action, Reroll):
        faces = action.faces
        if not isinstance(faces, tuple) or not faces:
            return msg(N_("Say which dice to re-roll (at least one)."))
        if any(not isinstance(f, int) or not 0 <= f < rules.faces for f in faces):
            return msg(N_("Dice faces are numbers 0 to {last}."), last=rules.faces - 1)
        missing = Counter(faces) - Counter(state.dice)
        if missing:
            face = min(missing)
            wanted, there = faces.count(face), state.dice.count(face)
            return nmsg(
                "You cannot re-roll {n} die showing {colour}: the table has {there} (dice: {dice}).",
                "You cannot re-roll {n} dice showing {colour}: the table has {there} (dice: {dice}).",
                wanted,
                colour=face_word(face, rules.colours),
                there=there or msg(N_("none")),
                dice=_dice_text(state.dice, rules),
            )
        # the dice are there, listed in another order: say the order the game uses
        ordered = tuple(sorted(faces))
        return msg(
            N_("List the dice to re-roll lowest face first: faces={faces} ({dice})."),
            faces=ordered,
            dice=_dice_text(ordered, rules),
        )
    if isinstance(action, CrossOut):
        if not isinstance(action.row, int) or not 0 <= action.row < rules.colours:
            return msg(N_("Rows are numbered 0 to {last}."), last=rules.colours - 1)
        if _placements(state) and rules.must_circle_if_able:
            return msg(
                N_(
                    "You can circle an item with these dice, so you may not cross out a row "
                    "(rule 2.4)."
                )
            )
        return msg(
            N_("The {colour} row has no available item left to cross out (rule 2.4)."),
            colour=face_word(action.row, rules.colours),
        )
    items = action.items
    shape_ok = isinstance(items, tuple) and all(
        isinstance(i, tuple) and len(i) == 2 and all(isinstance(x, int) for x in i) for i in items
    )
    if not shape_ok or not items:
        return msg(N_("Name the items to circle as (row, column) pairs, at least one."))
    if len(items) > rules.max_circles:
        return nmsg(
            "You may circle at most {n} item a turn (rule 2.2).",
            "You may circle at most {n} items a turn (rule 2.2).",
            rules.max_circles,
        )
    if len(set(items)) != len(items) or list(items) != sorted(items):
        return msg(N_("List each item once, in order (row, then column)."))
    open_items = set(state.open_items(state.active))
    for item in items:
        row, column = item
        if not (0 <= row < rules.colours and 0 <= column < rules.columns):
            return msg(N_("There is no item {item} on the shelf."), item=item)
        if item not in open_items:
            mark = state.shelves[state.active][row][column]
            why = {
                CIRCLED: N_("Item {item} is already circled (rule 2.2)."),
                CROSSED: N_("Item {item} is crossed out (rule 2.2)."),
            }.get(mark, N_("Item {item} must wait until the items left of it are done (rule 2.2)."))
            return msg(why, item=item_word(item, rules.colours))
    if D.all_jokers(state.dice, rules.colours) and rules.joker_alone_when_all_jokers:
        return msg(
            N_("With every die a joker you circle exactly one item of your choice (rule 2.3).")
        )
    return msg(
        N_(
            "The dice {dice} cannot make a separate combo for each of {items}: item k needs k "
            "dice of its colour, at most one of them a joker (rules 2.2-2.3)."
        ),
        dice=_dice_text(state.dice, rules),
        items=joined([item_word(i, rules.colours) for i in items], ", "),
    )


# -- applying -----------------------------------------------------------------------------------


def apply_legal(state: ShelfieState, action) -> None:
    """Apply an action the listing holds (unchecked: call why_illegal first)."""
    seat, rules = action.seat, state.rules
    state.log.append(action.sentence())
    if isinstance(action, Keep):
        state.phase = "place"
    elif isinstance(action, Reroll):
        kept = list((Counter(state.dice) - Counter(action.faces)).elements())
        fresh = [state.rng.randrange(rules.faces) for _ in action.faces]
        state.dice = tuple(sorted(kept + fresh))
        state.rerolls_left -= 1
        state.log.append(msg(N_("  dice: {dice}"), dice=_dice_text(state.dice, rules)))
        if state.rerolls_left == 0:
            state.phase = "place"
    elif isinstance(action, Circle):
        shelf = state.shelves[seat]
        for row, column in action.items:
            shelf[row][column] = CIRCLED
        for column in sorted({c for _, c in action.items}):
            if all(shelf[r][column] == CIRCLED for r in range(rules.colours)):
                _complete_column(state, seat, column)
        _end_turn(state)
    else:  # CrossOut, rule 2.4
        row = state.shelves[seat][action.row]
        for column, mark in enumerate(row):
            if mark == AVAILABLE:
                row[column] = CROSSED
        _end_turn(state)


def _complete_column(state: ShelfieState, seat: int, column: int) -> None:
    """Rule 2.5: every other player crosses out the items of that column not yet circled."""
    state.log.append(
        msg(
            N_("  seat {seat} completes column {column}: the others cross it out"),
            seat=seat,
            column=column + 1,
        )
    )
    for other, shelf in enumerate(state.shelves):
        if other != seat:
            for row in shelf:
                if row[column] == AVAILABLE:
                    row[column] = CROSSED


def _dice_text(dice: tuple[int, ...], rules: ShelfieRules) -> str:
    return joined([face_word(f, rules.colours) for f in dice], ", ")


def _start_turn(state: ShelfieState, seat: int) -> None:
    """Rule 2.1: the player rolls all the dice (a player with no available item skips)."""
    rules = state.rules
    while True:
        state.turn += 1
        state.active = seat
        if state.rows_with_space(seat):
            break
        state.log.append(
            msg(N_("seat {seat} has no available item left and skips the turn"), seat=seat)
        )
        seat = (seat + 1) % rules.players
        if state.ending and seat == rules.first_seat:
            _finish(state)
            return
    state.dice = tuple(sorted(state.rng.randrange(rules.faces) for _ in range(rules.dice)))
    state.rerolls_left = rules.rerolls
    state.phase = "roll" if rules.rerolls > 0 else "place"
    state.log.append(
        msg(
            N_("turn {turn}, seat {seat} rolls {dice}"),
            turn=state.turn,
            seat=seat,
            dice=_dice_text(state.dice, rules),
        )
    )


def _end_turn(state: ShelfieState) -> None:
    """Rule 3.1: once any shelf has enough full rows, finish the round, then score."""
    rules = state.rules
    if not state.ending:
        done = [s for s in range(rules.players) if state.full_rows(s) >= rules.rows_to_end]
        if done:
            state.ending = True
            state.log.append(
                nmsg(
                    "  seat {seat} has {n} full row: this is the last round",
                    "  seat {seat} has {n} full rows: this is the last round",
                    rules.rows_to_end,
                    seat=done[0],
                )
            )
    following = (state.active + 1) % rules.players
    if state.ending and following == rules.first_seat:
        _finish(state)
    else:
        _start_turn(state, following)


def _finish(state: ShelfieState) -> None:
    """Rule 3.3: highest total wins; ties share the victory."""
    scores = [state.score(s) for s in range(state.rules.players)]
    best = max(scores)
    winners = tuple(s for s, v in enumerate(scores) if v == best)
    names = joined([msg(N_("seat {seat}"), seat=s) for s in winners], msg(N_(" and ")))
    reason = nmsg(
        "{names} wins with {best} points (scores {scores}).",
        "{names} share the victory with {best} points (scores {scores}).",
        len(winners),
        names=names,
        best=best,
        scores=scores,
    )
    state.phase, state.dice, state.rerolls_left = "over", (), 0
    state.outcome = Outcome("points", winners, state.turn, reason)
    state.log.append(reason)
