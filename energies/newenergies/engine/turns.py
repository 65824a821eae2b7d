"""The turn machine: the automatic steps between the players' decisions.

After every applied action :func:`advance` runs what needs no decision — event draws
(rule 6, :mod:`energies.events`), the start of the roll, the end of set-up, pending tasks
nobody can answer — until a seat must decide; it checks the 10-VP victory (rule 14.1)
whenever points may have changed. :func:`end_turn` records the turn's history and starts
the next seat's turn (rules 5.4, 14.3). Only :mod:`energies.engine` (and the teacher's
sandbox) call these; the rules of each action live in the effects and decisions modules.
"""

from __future__ import annotations

from ..state import GameState
from . import events
from .decisions import SETUP_TASKS, has_setup_choice, real_choices


def advance(state: GameState, scored: bool = True) -> None:
    """Run automatic steps until a decision is needed or the action phase is free.

    ``scored``: whether what just happened may have changed anyone's points.
    """
    if scored:
        _check_victory(state)
    while state.outcome is None and state.queue:
        task = state.queue[0]
        if task.kind == "draw":
            state.queue.pop(0)
            events.draw_disc(state)
            _check_victory(state)  # an event can change points
        elif task.kind == "begin_roll":
            state.queue.pop(0)
            state.phase = "roll"
        elif task.kind == "end_setup":
            state.queue.pop(0)
            _finish_setup(state)  # its first turn checks victory itself
        elif task.kind in SETUP_TASKS:  # listed only when asked: the quick start rarely asks
            if has_setup_choice(state, task):
                break
            state.queue.pop(0)  # no piece or no spot left
        else:
            options = real_choices(state, task)
            if options:
                state.cache.listed = tuple(options)  # what legal_actions will return next
                break
            state.queue.pop(0)  # nothing to choose (no card, no spot, no hazard left)
    ended = state.outcome is not None and state.keep_history
    if ended and (not state.history or state.history[-1]["turn"] != state.turn):
        record_turn(state)  # the final position of a game that ended mid-turn


def _check_victory(state: GameState) -> None:
    # rule 14.1: 10 VP on the player's own turn wins at once
    if state.phase in ("setup", "over"):
        return
    seat = state.active
    vp = state.victory_points(seat)
    if vp >= state.rules.victory_points:
        state.finish(
            "victory_points",
            (seat,),
            f"Seat {seat} reaches {vp} victory points on their turn and wins.",
        )


def _start_turn(state: GameState) -> None:
    state.turn += 1
    if state.turn > state.rules.turn_limit:  # rule 14.3
        state.turn -= 1
        state.finish("unfinished", (), f"The turn limit ({state.rules.turn_limit}) was reached.")
        return
    state.plants_built = state.demolished = state.dev_played_turn = state.offers_made = 0
    state.proposals_made.clear()
    state.table_asks = 0
    state.turn_actions = 0
    state.dice = None
    for p in state.players:
        p.dev_new.clear()  # rule 5.4: cards bought or received last turn become playable
    if state.building_hazards:  # (without hazards no turn is blocked: skip the set union)
        buildings = state.players[state.active].buildings()
        if buildings and buildings <= state.building_hazards:
            state.stats[state.active].blocked_turns += 1
    state.log.append(f"— Turn {state.turn}: seat {state.active} —")
    _check_victory(state)
    if state.outcome is None:
        events.begin_event_phase(state)


def record_turn(state: GameState) -> None:
    """Append one history record per seat (design §3), unless the game keeps no history."""
    if not state.keep_history:
        return
    lfs = list(map(state.local_footprint, range(state.n)))
    gf, hazards, bag = state.clamped_gf(sum(lfs)), state.building_hazards, len(state.bag)
    turn, active, history = state.turn, state.active, state.history
    for p, lf, st in zip(state.players, lfs, state.stats):
        hand, plants = p.hand, list(p.plants.values())
        fossil, cards, science = plants.count("fossil"), sum(hand.values()), hand["science"]
        history.append(
            {
                "turn": turn,
                "seat": p.seat,
                "active": active,
                "lf": lf,
                "gf": gf,
                "vp": state.victory_points(p.seat),
                "towns": len(p.towns),
                "cities": len(p.cities),
                "roads": len(p.roads),
                "fossil": fossil,
                "renewable": len(plants) - fossil,
                "energy": p.energy,
                "science": science,
                "resources": cards - science,
                "hand_size": cards,
                "hazards_on_buildings": len(hazards & (p.towns | p.cities)) if hazards else 0,
                "hazards_suffered": st.hazards_suffered,
                "production_lost": st.production_lost,
                "cards_discarded": st.cards_discarded,
                "cards_stolen": st.cards_stolen,
                "blocked_turns": st.blocked_turns,
                "hex_hazards_suffered": st.hex_hazards_suffered,
                "production_lost_hazard": st.production_lost_hazard,
                "cards_discarded_seven": st.cards_discarded_seven,
                "cards_discarded_brown": st.cards_discarded_brown,
                "bag": bag,
            }
        )


def end_turn(state: GameState) -> None:
    record_turn(state)
    state.active = (state.active + 1) % state.n
    _start_turn(state)


def _finish_setup(state: GameState) -> None:
    state.phase = "event"
    state.active = state.start_player
    record_turn(state)  # turn 0: the starting position, so charts begin at 3 per player
    _start_turn(state)
