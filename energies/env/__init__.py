"""A PettingZoo AEC environment for New Energies, and a Gymnasium single-agent wrapper.

    from energies.env import env

    e = env(players=4, seed=1)                  # a PettingZoo AECEnv ("player_0" ... "player_3")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Install with ``pip install "energies[rl]"`` (pettingzoo, gymnasium, numpy). ``import
energies`` never imports this module.

Agents and turns
----------------
``player_s`` plays seat ``s``. The agent to act is whoever the engine waits for
(``game.current_seat``): the active player, or another seat answering a decision
(a discard on a 7, a trade offer, an event's choice). Observations are built from
``game.view(seat)`` only — what that seat may know — so no agent sees another's hand,
the deck, the bag's order or the dice to come.

Actions
-------
``Discrete(N)``, N = 953 with 4 players (903 with 3): blocks in this order, the
same for every board. ``k`` = 1..players-1 is a seat *relative* to the one deciding
(``(seat + k) % players``); corners 0-53, paths 0-71 and hexes 0-18 are the board's
ids; a plant site is one of the 114 (corner, hex) pairs of a hex and a corner of it,
sorted; card kinds are lumber, brick, fiber, food, steel, science (+ energy in trades).

=========================  =====================  ==========================================
kind                       size (4 players)       parameters, in index order
=========================  =====================  ==========================================
roll_dice                  1
end_turn                   1
build_road                 72                     path
build_town                 54                     corner
build_city                 54                     corner
build_plant                228                    kind (fossil, renewable) x plant site
buy_dev_card               1
trade_with_supply          42                     give (6 cards + energy) x get (6 cards)
offer_trade                147 (98 with 3)        partner k x give (7) x get (7); one card for
                                                  one card only (rule 12.1)
propose_trade              49                     give (7) x get (7), one for one, by a seat
                                                  that is not active to the active player
                                                  (rule 12.1)
respond_to_trade           2                      decline, accept
remove_hazard              73                     19 hexes, then 54 buildings (corner)
demolish_fossil            114                    plant site
build_warehouse            1
play_dev_card              5                      cleanup, victory_point, road_construction,
                                                  high_yield, research_grant
discard_card               6                      card kind
take_card                  6                      card kind
move_inspector             19                     hex
choose_victim              3 (2 with 3)           victim k
place_hazard               54                     corner
choose_hex                 19                     hex
decline                    1
ask_for_proposals          1                      the active player asks the others for trade
                                                  proposals again (rule 12.1)
=========================  =====================  ==========================================

``observation["action_mask"]`` (int8) marks the legal indices of the agent to act (all
zero for the others). Offers of several cards, which the engine accepts from hand-made
actions but never lists, have no index. ``codec.describe(i)`` names an index;
``env.unwrapped.legal_actions()`` gives the mask's index -> action.

Observations
------------
``{"observation": float32[M], "action_mask": int8[N]}``, M = 1,300. Seats are rotated so
the observing seat is slot 0 (slot 3 is empty with 3 players). Segments in order
(``encoder.layout`` has the offsets):

own_hand (6), own_dev_cards (5, incl. hidden VP cards), own_dev_new (5), then per seat
(4 each): cards (hand size), energy, dev_cards (development cards held), warehouse; counters
(6: deck size, energy supply, offers made, plants built, demolished, cards played this
turn), turn (turn / 10), seats (4 x 9: VP (public; the own seat's counts its hidden VP
cards), LF, towns, cities, roads, fossil, renewable, Longest Road, Environmentalist),
public (5: GF, bag size, green discs in the bag, discs the next event phase draws,
hazards left), phase (5, one-hot), dice (11, one-hot sum of the last roll), bag_brown (5,
per symbol), event_board (8 rows, discs on each), pending (14 decision kinds, "I decide",
active seat 4), trade (7 + 7: the offer being answered), trade_from (4: the seat that made
it, rule 12.1), towns (4 x 54), cities (4 x 54), roads (4 x 72), plants (2 x 114), hex_hazards (19), building_hazards (54), inspector (19),
terrain (19 x 5 resources), pips (19, pips / 5). The observation is kept up to date between
steps (:mod:`energies.tracking`) and always equals the encoding of ``game.view(seat)``.

Rewards, endings
----------------
Zero until the game ends; then, by default (``reward="win_loss"``), +1 for every winner
and -1 for every other seat; when **everyone loses** (the bag ran dry with nobody
greener than fossil, rule 14.2) every seat gets -1. ``reward="footprint"`` subtracts
``footprint_weight * LF / total LF`` from each seat's result, so polluters pay even
among losers; any callable ``reward(game, seat) -> float`` works too. A finished game
*terminates* every agent; the turn limit (``max_turns``, default the rule set's
``turn_limit``, rule 14.3) *truncates* them with reward 0.
"""

from __future__ import annotations

from pettingzoo import AECEnv

from .aec import OBSERVATION_HIGH, board_rgb, footprint_reward, raw_env, win_loss_reward
from .checked import CheckedEnv
from .single import SingleAgentEnv

__all__ = [
    "OBSERVATION_HIGH", "CheckedEnv", "SingleAgentEnv", "board_rgb", "env", "footprint_reward",
    "raw_env", "win_loss_reward",
]  # fmt: skip


def env(**kwargs) -> AECEnv:
    """The environment with the usual checks: :class:`CheckedEnv` around :class:`raw_env`.

    The checks are those of PettingZoo's ``OrderEnforcingWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper(illegal_reward=-1)``, done
    in one layer: ``reset()`` comes first, an action must lie in the action space, and an
    illegal action (outside the mask) ends the game for all agents with -1 for the agent
    that made it.
    """
    return CheckedEnv(raw_env(**kwargs))
