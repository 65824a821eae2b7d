"""Bookkeeping invariants of a game of My Shelfie Dice (the tests check them after every action)."""

from __future__ import annotations

from .state import AVAILABLE, CIRCLED, CROSSED


def problems(game) -> list[str]:
    """Everything that is inconsistent in the game's state (empty when all is well)."""
    state, rules = game.state, game.rules
    out = []
    for seat, shelf in enumerate(state.shelves):
        if len(shelf) != rules.colours or any(len(row) != rules.columns for row in shelf):
            out.append(f"seat {seat}'s shelf has the wrong shape")
        if any(mark not in (AVAILABLE, CIRCLED, CROSSED) for row in shelf for mark in row):
            out.append(f"seat {seat}'s shelf holds an unknown mark")
        for column in range(rules.columns):
            if all(shelf[r][column] == CIRCLED for r in range(rules.colours)):
                for other, theirs in enumerate(state.shelves):
                    if other != seat and any(row[column] == AVAILABLE for row in theirs):
                        out.append(
                            f"seat {seat} completed column {column} but seat {other} may still circle there (rule 2.5)"
                        )
    if state.outcome is None:
        if state.phase not in ("roll", "place"):
            out.append(f"a running game is in phase {state.phase!r}")
        if len(state.dice) != rules.dice or any(not 0 <= f < rules.faces for f in state.dice):
            out.append(f"the dice {state.dice} are not {rules.dice} dice")
        if list(state.dice) != sorted(state.dice):
            out.append("the dice are not kept sorted")
        if not 0 <= state.rerolls_left <= rules.rerolls or (
            state.phase == "roll" and not state.rerolls_left
        ):
            out.append("re-rolls left out of range")
        if not state.rows_with_space(state.active):
            out.append("the active player has no available item")
        if not game.legal_actions():
            out.append("a running game lists no legal action")
        full = [s for s in range(rules.players) if state.full_rows(s) >= rules.rows_to_end]
        if full and not state.ending:
            out.append(
                "a shelf has enough full rows but the last round was not announced (rule 3.1)"
            )
    else:
        if not state.ending:
            out.append("the game ended without the end being triggered (rule 3.1)")
        if state.turn % rules.players:
            out.append(f"the game ended after {state.turn} turns: not a whole round (rule 3.1)")
        scores = [state.score(s) for s in range(rules.players)]
        winners = tuple(s for s, v in enumerate(scores) if v == max(scores))
        if tuple(state.outcome.winners) != winners:
            out.append(f"winners {state.outcome.winners} but scores {scores} (rule 3.3)")
    return out
