"""How a :class:`~energies.bots.strategy.StrategyBot` scores each kind of legal action.

:class:`ActionScores` holds one ``_score_<kind>(state, action, needs)`` method per action
kind (``StrategyBot.score`` looks them up by the action's ``kind``) and the facts they
share. It is a mixin: the numbers it weighs (``card_value``, ``plant_score``,
``demolish_score``, ``accept_margin``, ``hazard_care``) and the once-per-decision memo
(``_memo_get``) come from :class:`~energies.bots.strategy.StrategyBot`, whose personas
(:mod:`energies.bots.personas`) override them.
"""

from __future__ import annotations

import operator
from collections import Counter

from ..newenergies.board import PIPS
from ..newenergies.engine.checks import supply_rates
from ..newenergies.view import GameView


def _blocked_corners(state) -> set[int]:
    """Corners where no town may stand: a building on it or next to it (rule 3.2)."""
    neighbors, blocked = state.board.corner_neighbors, set()
    for c in state.corner_owners():
        blocked.add(c)
        blocked.update(neighbors(c))
    return blocked


# seat -> ((board, rules, seat, towns, cities, plants), StrategyBot.likely_value of it, the
# view's copy of the seat it came from): the base method reads only these, the same for every
# persona
_LIKELY: dict[int, tuple] = {}

# what a card is worth to a persona before its needs add to it
BASE_CARD_VALUE = {
    "lumber": 1.0,
    "brick": 1.0,
    "fiber": 0.9,
    "food": 1.1,
    "steel": 1.2,
    "science": 1.0,
}


class ActionScores:
    """The ``_score_<kind>`` methods of :class:`~energies.bots.strategy.StrategyBot` (a mixin)."""

    def _score_end_turn(self, state, a, needs):
        return 0.1

    def _score_roll_dice(self, state, a, needs):
        return 1.0

    def _score_build_city(self, state, a, needs):
        if state.phase == "setup":
            return state.board.corner_pips(a.corner)
        penalty = self._memo_get(("penalty", a.seat), self._footprint_penalty, state, a.seat)
        return 10 + state.board.corner_pips(a.corner) / 3 - penalty

    def _score_build_town(self, state, a, needs):
        if state.phase == "setup":
            return state.board.corner_pips(a.corner) + self._diversity(state, a.corner)
        penalty = self._memo_get(("penalty", a.seat), self._footprint_penalty, state, a.seat)
        return 8 + state.board.corner_pips(a.corner) / 3 - penalty

    def _footprint_penalty(self, state, seat: int) -> float:
        return 0.0

    def _score_build_road(self, state, a, needs):
        board = state.board
        blocked = self._memo_get("blocked", _blocked_corners, state)  # see _town_spot
        best = 0.0
        for c in board.path_corners(a.path):
            if c not in blocked:  # a town spot
                best = max(best, 3 + board.corner_pips(c) / 4)
            elif not blocked.issuperset(board.corner_neighbors(c)):  # one next to it
                best = max(best, 1.5)
        if state.queue or state.phase == "setup":  # free roads: always take the best
            return best + 1
        if self._memo_get(("town_first", a.seat), self._town_first, state, a.seat):
            return 0.0  # build the town first
        return best

    def _town_first(self, state, seat: int) -> bool:
        return self._has_town_spot(state, seat) or state.pieces_left(seat, "town") <= 0

    def _town_spot(self, state, c: int) -> bool:
        """A town could stand on corner ``c``: it and its neighbours are empty (rule 3.2)."""
        return c not in self._memo_get("blocked", _blocked_corners, state)

    def _has_town_spot(self, state, seat: int) -> bool:
        return self._memo_get(("has_town_spot", seat), self._find_town_spot, state, seat)

    def _find_town_spot(self, state, seat: int) -> bool:
        board, roads = state.board, state.players[seat].roads
        ends = {c for path in roads for c in board.path_corners(path)}
        return any(self._town_spot(state, c) for c in ends)

    def _diversity(self, state, corner: int) -> float:
        return len(state.board.corner_resources(corner)) / 2

    def _score_build_plant(self, state, a, needs):
        board = state.board
        pips = PIPS.get(board.hexes[a.hex].number, 0)
        worth = self._memo_get(
            ("plant_score", a.seat, a.plant), self.plant_score, state, a.seat, a.plant
        )
        if worth <= 0:
            return worth
        # energy comes only from producing hexes: prefer a busy, hazard-free hex
        return worth + pips / 5 - (1 if a.hex in state.hex_hazards else 0)

    def _score_decline(self, state, a, needs):
        return 0.0

    def _score_buy_dev_card(self, state, a, needs):
        # only from surplus: never spend cards a city or town is waiting for
        cost = state.rules.cost("dev_card")
        p = state.players[a.seat]
        wanted = self._build_cost_in_reach(state, a.seat)
        spare = all(p.hand[k] - n >= wanted.get(k, 0) for k, n in cost.items())
        return 2.5 if spare else 0.0

    def _build_cost_in_reach(self, state, seat: int) -> dict[str, int]:
        """Cards held back for the city (or town) the player is saving for."""
        p, rules = state.players[seat], state.rules
        if p.towns and state.pieces_left(seat, "city") > 0:
            return rules.cost("city")
        if self._has_town_spot(state, seat) and state.pieces_left(seat, "town") > 0:
            return rules.cost("town")
        return {}

    def _score_trade_with_supply(self, state, a, needs):
        if needs[a.get] <= 0:
            return 0.0
        # (taking back what this turn traded away: StrategyBot's turn ledger rules it out)
        p = state.players[a.seat]
        rate = self._memo_get(("rates", a.seat), supply_rates, state, a.seat)[a.give]
        if a.give == "energy":
            return 2.5 if p.energy >= rate + 1 or p.energy >= state.rules.energy_cap - 1 else 0.0
        held = p.hand[a.give]
        surplus = held - max(needs[a.give], 0) - (1 if a.give == "science" else 0)
        return 2.0 if surplus >= rate else 0.0

    def _score_offer_trade(self, state, a, needs):
        return 0.0  # personas trade with the supply; they still answer other players' offers

    def _score_ask_for_proposals(self, state, a, needs):
        # rule 12.1: personas never ask the table again (below ending the turn, 0.1): they
        # propose and answer from their own needs, and the window after the roll comes anyway
        return -1.0

    def _score_propose_trade(self, state, a, needs):
        """Rule 12.1: at most one proposal per turn, and only a trade that helps this player
        (it gets a card it needs for less than it is worth to it) and that the active player
        should accept, judged from public facts only (see :meth:`likely_value`)."""
        if state.queue[0].info.get("made", 0):
            return -1.0
        mine = self._trade_gain(a.get, a.give, needs)
        if mine < 1.0:
            return -1.0
        likely = self._likely(state, state.active)
        theirs = sum(likely[k] * n for k, n in a.give) - sum(likely[k] * n for k, n in a.get)
        return mine if theirs > self.accept_margin + 0.5 else -1.0  # a guess: be sure

    def _likely(self, state, seat: int) -> dict[str, float]:
        """:meth:`likely_value`, worked out again only when that seat's buildings or plants
        change (it reads nothing else of the position)."""
        if type(state) is not GameView or type(self).likely_value is not ActionScores.likely_value:
            return self._memo_get(("likely", seat), self.likely_value, state, seat)
        p = state.players[seat]
        found = _LIKELY.get(seat)
        if (  # the same (immutable) copy of the seat as last time: nothing to compare
            found is not None
            and found[2] is p
            and found[0][0] is state.board
            and found[0][1] is state.rules
        ):
            return found[1]
        key = (state.board, state.rules, seat, p.towns, p.cities, p.plants)  # frozen copies
        if found is not None and all(map(operator.is_, found[0][:3], key)) and found[0] == key:
            _LIKELY[seat] = (found[0], found[1], p)
            return found[1]
        value = self.likely_value(state, seat)
        _LIKELY[seat] = (key, value, p)
        return value

    def likely_value(self, state, seat: int) -> dict[str, float]:
        """What each card kind is likely worth to another seat, from public facts only (its
        hand is hidden): a kind its next builds use is worth more the less its buildings
        yield of it (pips around them; cities yield science, plants energy)."""
        board, p, rules = state.board, state.players[seat], state.rules
        yields = Counter()
        for c in p.buildings():
            for h in board.corner_hexes(c):
                pips = PIPS.get(board.hexes[h].number, 0)
                if board.hexes[h].resource:
                    yields[board.hexes[h].resource] += pips
                if c in p.cities:
                    yields["science"] += pips
        for _c, h in p.plants:
            yields["energy"] += PIPS.get(board.hexes[h].number, 0)
        wanted = set(rules.cost("renewable")) | set(rules.cost("fossil"))
        if p.towns and len(p.cities) < rules.cities:
            wanted |= set(rules.cost("city"))
        if len(p.towns) < rules.towns:
            wanted |= set(rules.cost("town"))
        out = {}
        for kind in (*BASE_CARD_VALUE, "energy"):
            short = 1.0 if yields[kind] == 0 else 0.5 if yields[kind] < 4 else 0.0
            base = BASE_CARD_VALUE.get(kind, 1.0)
            out[kind] = base + (1.5 * short if kind in wanted else 0.0)
        return out

    def _trade_gain(self, taken, given, needs: Counter) -> float:
        """Card value taken minus card value given, for a player with these needs."""
        gain = sum(self.card_value(k, needs) * n for k, n in taken)
        return gain - sum(self.card_value(k, needs) * n for k, n in given)

    def _score_respond_to_trade(self, state, a, needs):
        # offers from the active player and proposals to it (rule 12.1) alike
        task = state.queue[0]
        good = self._trade_gain(task.info["give"], task.info["get"], needs) > self.accept_margin
        return 1.0 if a.accept == good else 0.0

    def _score_remove_hazard(self, state, a, needs):
        mine = state.players[a.seat].buildings()
        board = state.board
        if a.place == "building":
            helps = a.index in mine
        else:
            helps = any(c in mine for c in board.hex_corners(a.index))
        if state.queue:  # Cleanup's free removal
            return 2.0 if helps else 0.5
        return self.hazard_care if helps else 0.0

    def _score_demolish_fossil(self, state, a, needs):
        return self._memo_get(("demolish", a.seat), self.demolish_score, state, a.seat)

    def demolish_score(self, state, seat: int) -> float:
        return 0.0

    def _score_build_warehouse(self, state, a, needs):
        p = state.players[a.seat]
        return 1.5 if p.cards >= 6 and p.energy >= 4 else 0.0

    def _score_play_dev_card(self, state, a, needs):
        p = state.players[a.seat]
        if a.card == "cleanup":
            mine = p.buildings()
            blocked = any(c in mine for c in state.board.hex_corners(state.inspector))
            return 5.0 if blocked else 2.0
        if a.card == "research_grant":
            return 4.0
        if a.card == "road_construction":
            return 2.5 if state.pieces_left(a.seat, "road") >= 2 else 0.0
        if a.card == "high_yield":
            return 4.0
        return 0.0

    def _score_discard_card(self, state, a, needs):
        return -self.card_value(a.card, needs) + state.players[a.seat].hand[a.card] / 10

    def _score_take_card(self, state, a, needs):
        return self.card_value(a.card, needs)

    def _score_choose_hex(self, state, a, needs):
        return self.card_value(state.board.hexes[a.hex].resource, needs)

    def _score_move_inspector(self, state, a, needs):
        # what the move gains over leaving the Inspector where it stands: on a 7 (rule 9.2)
        # that shifts every option alike; for Cleanup (rule 13.5) a move that makes things
        # worse loses to removing a hazard, so the persona never moves the Inspector off the
        # hex it likes best (a 7 later in the turn would only move it back)
        here = self._memo_get(("inspector_worth", a.seat), self._inspector_worth, state, a.seat)
        return self._inspector_worth(state, a.seat, a.hex) - here

    def _inspector_worth(self, state, seat: int, hex_id: int | None = None) -> float:
        """How much the Inspector on ``hex_id`` (default: where it stands) is worth to
        ``seat``: the production it blocks, the seat's own counted against it."""
        board = state.board
        hex_id = state.inspector if hex_id is None else hex_id
        pips = PIPS.get(board.hexes[hex_id].number, 0)
        worth = 0.0
        owners = self._memo_get("owners", state.corner_owners)
        for c in board.hex_corners(hex_id):
            owner = owners.get(c)
            if owner is None:
                continue
            weight = 2 if c in state.players[owner].cities else 1
            worth += weight * pips * (-3 if owner == seat else 1 + state.victory_points(owner) / 10)
        return worth

    def _score_choose_victim(self, state, a, needs):
        return state.victory_points(a.victim) + state.players[a.victim].cards / 5

    def _score_place_hazard(self, state, a, needs):
        # put the hazard where it costs least production
        return -state.board.corner_pips(a.corner) * (
            2 if a.corner in state.players[a.seat].cities else 1
        )
