"""Players: the one-method Player protocol and the bot personas.

A bot is any object with ``decide(game_view, legal_actions, rng) -> action``:
it gets what its seat may know (``game.view(seat)``, a read-only
:class:`energies.view.GameView`: own hand, public board, only the number of the
others' cards), the list of legal actions of the seat it plays, and a seeded
``random.Random`` to break ties with.

    class Cautious:
        def decide(self, game, legal, rng):
            builds = [a for a in legal if a.kind == "build_plant" and a.plant == "renewable"]
            return builds[0] if builds else rng.choice(legal)
"""

from __future__ import annotations

import functools
import operator
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from .actions import Action, Decline, OfferTrade, ProposeTrade
from .board import PIPS
from .checks import supply_rates
from .search import SEARCH_BOTS, SearchPlayer
from .trade_offers import TRADED, OffersLeftOut
from .view import GameView


class Player(Protocol):
    """Anything that can choose one of the legal actions."""

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every strategy should beat.

    One exception keeps random games from filling up with trade talk: asked whether it wants
    to propose a trade to the active player (rule 12.1), it proposes a random listed trade
    only one time in ``propose_chance`` and otherwise passes.
    """

    name = "RandomBot"
    propose_chance = 0.25

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        options = legal_actions if isinstance(legal_actions, (list, tuple)) else list(legal_actions)
        rng = self._rng or rng
        if type(options[0]) is ProposeTrade:  # a proposal window: proposals, then "pass"
            if rng.random() >= self.propose_chance:
                return options[-1]
            return rng.choice(options[:-1])
        return rng.choice(options)

    decide.ignores_view = True  # play() passes None instead of copying a view it never reads

    def __repr__(self) -> str:
        return "RandomBot()"


# ==============================================================================================
# Personas: one shared, rule-aware player whose priorities each persona sets
# ==============================================================================================

_OFFER_SCORE = 0.0  # StrategyBot._score_offer_trade


def _tie_break(scores: list[float], top: float, skipped: int, tie: random.Random) -> int:
    """The index of the best score, ties going to the higher ``tie.random()``; one draw is
    taken for every score in order and then ``skipped`` more (see StrategyBot._best)."""
    fast = type(tie) is random.Random  # a subclass may draw differently: draw one by one
    if scores.count(top) == 1:  # no tie: the draws only move the stream on
        if fast:
            tie.getrandbits(64 * (len(scores) + skipped))  # the words of that many random()
        else:
            for _ in range(len(scores) + skipped):
                tie.random()
        return scores.index(top)
    best, best_draw = 0, -1.0
    for i, score in enumerate(scores):
        draw = tie.random()
        if score == top and draw > best_draw:  # the first of equal draws wins, as max() does
            best, best_draw = i, draw
    for _ in range(skipped):
        tie.random()
    return best


def _footprints(state) -> tuple[int, ...]:
    if type(state) is GameView:
        return state._lf  # the view worked them out already
    return tuple(map(state.local_footprint, range(state.n)))


_MOST_DISCS: list = [None, 0]  # [a rule set, its _most_discs]


def _most_discs(rules) -> int:
    """The most discs any GF band draws in one event phase (rule 4.3)."""
    if _MOST_DISCS[0] is not rules:  # (hashing a rule set costs more than this)
        _MOST_DISCS[:] = [rules, max(band[2] for band in rules.disc_bands)]
    return _MOST_DISCS[1]


def _plant_balance(state, seat: int) -> int:
    p = state.players[seat]
    return p.count_plants("renewable") - p.count_plants("fossil")


def _blocked_corners(state) -> set[int]:
    """Corners where no town may stand: a building on it or next to it (rule 3.2)."""
    neighbors, blocked = state.board.corner_neighbors, set()
    for c in state.corner_owners():
        blocked.add(c)
        blocked.update(neighbors(c))
    return blocked


class _Scorers(dict):
    """Action kind -> a bot class's ``_score_<kind>`` function, looked up on first use."""

    def __init__(self, cls: type) -> None:
        super().__init__()
        self.cls = cls

    def __missing__(self, kind: str) -> Callable:
        self[kind] = found = getattr(self.cls, f"_score_{kind}", _scores_nothing)
        return found


@functools.cache
def _scorers(cls: type) -> _Scorers:
    return _Scorers(cls)


def _scores_nothing(bot, state, a, needs) -> float:
    return 0.0  # a kind the bot has no scorer for


_WANTED: dict[tuple, tuple] = {}  # (id of a rule set, city, town, wish) -> (rules, wanted)


def _most_wanted(rules, city: bool, town: bool, wish) -> tuple[tuple[str, int], ...]:
    """The most of each kind that one of the next builds costs: a city, a town, the plant the
    persona wishes for (kinds in the order these costs name them first)."""
    key = (id(rules), city, town, wish)
    found = _WANTED.get(key)
    if found is not None and found[0] is rules:
        return found[1]
    wanted = [rules.cost(item) for item, on in (("city", city), ("town", town)) if on]
    if wish in ("renewable", "fossil"):
        wanted.append(rules.cost(wish))
    most: dict[str, int] = {}
    for cost in wanted:
        for kind, n in cost.items():
            most[kind] = max(most.get(kind, 0), n)
    if len(_WANTED) > 256:
        _WANTED.clear()
    _WANTED[key] = (rules, tuple(most.items()))
    return _WANTED[key][1]


# seat -> ((board, rules, seat, towns, cities, plants), StrategyBot.likely_value of it, the
# view's copy of the seat it came from): the base method reads only these, the same for every
# persona
_LIKELY: dict[int, tuple] = {}

_BASE_VALUE = {"lumber": 1.0, "brick": 1.0, "fiber": 0.9, "food": 1.1, "steel": 1.2, "science": 1.0}


class StrategyBot:
    """A rule-aware player: scores every legal action and takes the best one.

    It builds, trades with the supply, uses energy, plays cards and answers
    every decision the engine asks for. Personas change only the priorities
    in :meth:`plant_score` and a few weights, so the differences between them
    are exactly the sustainability choices a lesson wants to compare.
    """

    name = "StrategyBot"
    science_value = 1.0  # how much the persona values a science card
    accept_margin = 0.3  # a trade is accepted when it gains more than this in card value
    hazard_care = 2.5  # how much removing a hazard near its own buildings is worth

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # -- the protocol --------------------------------------------------------------------------

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = legal_actions if isinstance(legal_actions, (list, tuple)) else list(legal_actions)
        if len(legal) == 1 and not self._offers_left_out(legal):
            return legal[0]
        if type(game_view) is GameView and game_view[0] == legal[0].seat:  # the seat's view
            state = game_view
        else:  # fair play: given a whole Game, read only what this seat may know
            state = game_view.view(legal[0].seat) if hasattr(game_view, "view") else game_view
        tie = self._rng or rng
        self._memo = {}  # facts of this position, worked out once per decision (see _memo_get)
        try:
            choice = self._best(state, legal, tie)
        finally:
            self._memo = None
        if choice.kind == "trade_with_supply":
            self._remember_trade(state, choice)
        return choice

    decide.ignores_view_if_forced = True  # one option and no offers left out: play() passes None

    def _best(self, state, legal: Sequence[Action], tie: random.Random) -> Action:
        """The best-scoring action; ties go to the higher ``tie.random()`` drawn for each action.

        Every listed action gets one tie-break draw, in list order, but a draw matters only
        when two actions share the best score. So the scores are worked out first and only
        the tied actions' draws are taken; the others are skipped in bulk (one
        ``getrandbits(64 * k)`` uses the same words of the Mersenne Twister as ``k`` calls of
        ``random()``), and the random stream, and every seeded game, stays exactly as if
        each action had drawn.

        Speed: an own-turn listing ends with ~150 one-for-one offers, which every persona
        scores 0.0 while ending the turn scores 0.1, so an offer can never be chosen. When
        the offers are that tail and the persona keeps the 0.0 score, they are not scored
        (nor listed, see :meth:`scores_unlisted_offers`); their draws are skipped likewise.
        """
        n = len(legal)
        offers = unlisted = 0
        if self.scores_unlisted_offers:
            kinds = list(map(type, legal))
            offers = kinds.count(OfferTrade)
            if offers and kinds.index(OfferTrade) != n - offers:
                offers = 0  # not the tail of the listing (a reordered list): score them all
            elif not offers and isinstance(legal, OffersLeftOut):
                unlisted = legal.count
        scored = legal[: n - offers] if offers else legal
        scores = self._scores(state, scored)
        tail = offers + unlisted  # unscored offers after the scored actions, each 0.0
        top = max(scores) if scores else _OFFER_SCORE
        if tail and top <= _OFFER_SCORE:  # an offer could win the tie-break: draw for them
            tail_actions = legal[n - offers :] if offers else legal.offers()
            scores = [*scores, *[_OFFER_SCORE] * len(tail_actions)]
            scored, tail = [*scored, *tail_actions], 0
        return scored[_tie_break(scores, top, tail, tie)]

    def _scores(self, state, actions: Sequence[Action]) -> list[float]:
        """The score of every action, in order (:meth:`score`, quicker where it can be)."""
        seat = actions[0].seat
        cls = type(self)
        if cls.score is not StrategyBot.score:  # a persona with its own score(): ask it
            needs, score = self._needs(state, seat), self.score
            return [score(state, a, needs) for a in actions]
        scorers = _scorers(cls)
        if type(actions[0]) is ProposeTrade and cls._proposal_scores_apply():
            return self._proposal_scores(state, actions, scorers)
        needs = self._needs(state, seat)
        return [scorers[a.kind](self, state, a, needs) for a in actions]

    @classmethod
    @functools.cache
    def _proposal_scores_apply(cls) -> bool:
        """Whether :meth:`_proposal_scores` gives this class's scores (nothing overridden)."""
        return all(
            getattr(cls, name) is getattr(StrategyBot, name)
            for name in ("_score_propose_trade", "_trade_gain", "_score_decline")
        )

    def _proposal_scores(self, state, actions: Sequence[Action], scorers) -> list[float]:
        """:meth:`_score_propose_trade` of a whole proposal window, with each card kind's
        value worked out once instead of once per proposal (the same numbers), and the
        active seat's likely values only once a proposal gains 1.0 (most windows have none)."""
        if state.queue[0].info.get("made", 0):  # only one proposal per turn is worth it
            passes = [type(a) is Decline for a in actions if type(a) is not ProposeTrade]
            if all(passes):  # the window as listed: proposals, then the pass (scored 0.0)
                return [-1.0 if type(a) is ProposeTrade else 0.0 for a in actions]
        needs = self._needs(state, actions[0].seat)
        value = {kind: self.card_value(kind, needs) for kind in TRADED}
        likely = None
        margin = self.accept_margin + 0.5
        scores: list[float] = []
        append = scores.append
        for a in actions:
            if type(a) is not ProposeTrade:  # the pass
                append(scorers[a.kind](self, state, a, needs))
                continue
            try:  # one card of one kind each way, as listed
                ((give, gives),), ((get, gets),) = a.give, a.get
            except ValueError:
                gives = gets = 0
            if gives != 1 or gets != 1:
                append(self._score_propose_trade(state, a, needs))
                continue
            mine = value[get] - value[give]
            if mine < 1.0:
                append(-1.0)
                continue
            if likely is None:
                likely = self._likely(state, state.active)
            append(mine if likely[give] - likely[get] > margin else -1.0)
        return scores

    @staticmethod
    def _offers_left_out(legal: Sequence[Action]) -> int:
        """How many one-for-one offers play() left out of ``legal`` (0 if none)."""
        return legal.count if isinstance(legal, OffersLeftOut) else 0

    @property
    def scores_unlisted_offers(self) -> bool:
        """Whether :func:`energies.play` may leave the one-for-one offers out of the list it
        gives this bot: true while the bot scores every offer 0.0 (see :meth:`_best`)."""
        return type(self)._score_offer_trade is StrategyBot._score_offer_trade

    _memo: dict | None = None  # set by decide() for the time of one decision

    def _memo_get(self, key, compute, *args):
        """``compute(*args)``, worked out once per decision (the state does not change)."""
        memo = self._memo
        if memo is None:
            return compute(*args)
        found = memo.get(key, memo)  # (the memo itself: not worked out yet)
        if found is memo:
            found = memo[key] = compute(*args)
        return found

    # -- no trading in circles (a 1:1 rate would otherwise loop within one turn) --------------

    def _turn_trades(self, state) -> tuple[set, set]:
        """Kinds given and got in supply trades this turn (empty sets in a new turn)."""
        key = (state.turn, state.active)  # a new view every decision: not the object's id
        if getattr(self, "_trades_key", None) != key:
            self._trades_key, self._trades = key, (set(), set())
        return self._trades

    def _remember_trade(self, state, a: Action) -> None:
        gave, got = self._turn_trades(state)
        gave.add(a.give)
        got.add(a.get)

    # -- what the player is short of for its next builds ----------------------------------------

    def _needs(self, state, seat: int) -> Counter:
        """How many cards of each kind the player lacks for its next builds (a city, a town
        and the plant it wishes for; 0 for a kind one of them uses that it holds enough of)."""
        p, rules = state.players[seat], state.rules
        wish = self.plant_wish(state, seat)  # a pure function of the state: asked once
        city = bool(p.towns) and len(p.cities) < rules.cities  # a town to upgrade, a city left
        most = _most_wanted(rules, city, len(p.towns) < rules.towns, wish)
        hand, needs = p.hand, Counter.__new__(Counter)  # a Counter: other kinds read as 0
        dict.update(needs, [(kind, n - hand[kind] if n > hand[kind] else 0) for kind, n in most])
        return needs

    def card_value(self, kind: str, needs: Counter) -> float:
        base = self.science_value if kind == "science" else _BASE_VALUE.get(kind, 1.0)
        return base + (1.5 if needs[kind] > 0 else 0.0)

    # -- persona hooks -------------------------------------------------------------------------

    def plant_wish(self, state, seat: int) -> str | None:
        """Which plant the persona wants to build next (None: none)."""
        return None

    def plant_score(self, state, seat: int, plant: str) -> float:
        """Worth of building a plant of this kind now (<= 0: don't)."""
        return 0.0

    # -- scoring -------------------------------------------------------------------------------

    def score(self, state, a: Action, needs: Counter) -> float:
        return _scorers(type(self))[a.kind](self, state, a, needs)

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
        gave, got = self._turn_trades(state)
        if a.get in gave or a.give in got:
            return 0.0  # never take back what this turn traded away: no endless 1:1 loops
        p = state.players[a.seat]
        rate = self._memo_get(("rates", a.seat), supply_rates, state, a.seat)[a.give]
        if a.give == "energy":
            return 2.5 if p.energy >= rate + 1 or p.energy >= state.rules.energy_cap - 1 else 0.0
        held = p.hand[a.give]
        surplus = held - max(needs[a.give], 0) - (1 if a.give == "science" else 0)
        return 2.0 if surplus >= rate else 0.0

    def _score_offer_trade(self, state, a, needs):
        return 0.0  # personas trade with the supply; they still answer other players' offers

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
        if type(state) is not GameView or type(self).likely_value is not StrategyBot.likely_value:
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
        for kind in (*_BASE_VALUE, "energy"):
            short = 1.0 if yields[kind] == 0 else 0.5 if yields[kind] < 4 else 0.0
            base = _BASE_VALUE.get(kind, 1.0)
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
        board, seat = state.board, a.seat
        pips = PIPS.get(board.hexes[a.hex].number, 0)
        worth = 0.0
        owners = self._memo_get("owners", state.corner_owners)
        for c in board.hex_corners(a.hex):
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

    # -- shared facts for the personas ---------------------------------------------------------

    # (worked out once per decision: the personas ask for them for many of the listed actions)

    def footprints(self, state) -> tuple[int, ...]:
        """Every seat's local footprint, LF (rule 4.1)."""
        return self._memo_get("lf", _footprints, state)

    def global_footprint(self, state) -> int:
        """GF, the clamped sum of LF (rule 4.2)."""
        return state.clamped_gf(sum(self.footprints(state)))

    def balance(self, state, seat: int) -> int:
        """Renewable minus fossil plants of the seat."""
        return self._memo_get(("balance", seat), _plant_balance, state, seat)

    def table_average_lf(self, state) -> float:
        return sum(self.footprints(state)) / state.n

    def endgame(self, state, rounds: int = 2) -> bool:
        """The bag is running low: the empty-bag ending (rule 14.2) is about ``rounds`` rounds away."""
        most = _most_discs(state.rules)  # no GF draws more per turn
        if len(state.bag) > rounds * state.n * most + 2:
            return False  # far from the end whatever the GF: no need to work it out
        per_turn = state.rules.discs_to_draw(self.global_footprint(state))
        return len(state.bag) <= rounds * state.n * per_turn + 2


class FossilRush(StrategyBot):
    """Grows fast on cheap fossil plants and ignores the footprint until the bag is nearly empty.

    Then, knowing rule 14.2, it scrambles (demolish, build renewable) to end with more
    renewable than fossil plants.
    """

    name = "FossilRush"
    science_value = 0.8
    hazard_care = 1.5
    scramble_rounds = 3  # it knows rule 14.2: more renewable than fossil plants, or no win at all

    def _scrambling(self, state, seat) -> bool:
        return self.endgame(state, self.scramble_rounds) and self.balance(state, seat) <= 0

    def plant_wish(self, state, seat):
        return "renewable" if self._scrambling(state, seat) else "fossil"

    def plant_score(self, state, seat, plant):
        if self._scrambling(state, seat):
            return 8.0 if plant == "renewable" else -3.0
        return 6.0 if plant == "fossil" else 0.0

    def demolish_score(self, state, seat):
        return 5.0 if self._scrambling(state, seat) else 0.0


class GreenInvestor(StrategyBot):
    """Saves science for renewable plants and spends energy removing hazards."""

    name = "GreenInvestor"
    science_value = 2.0
    hazard_care = 4.0

    def plant_wish(self, state, seat):
        return "renewable"

    def plant_score(self, state, seat, plant):
        return 9.0 if plant == "renewable" else -5.0

    def demolish_score(self, state, seat):
        return 4.0


class Balanced(StrategyBot):
    """Chases victory points but keeps its footprint at or below the table average."""

    name = "Balanced"
    science_value = 1.4
    hazard_care = 3.0

    def _over_average(self, state, seat, extra: int = 1) -> bool:
        return self.footprints(state)[seat] + extra > self.table_average_lf(state)

    def plant_wish(self, state, seat):
        if self.balance(state, seat) <= 0 or self._over_average(state, seat):
            return "renewable"
        return "fossil"

    def plant_score(self, state, seat, plant):
        if plant == "renewable":
            return (
                8.0
                if (self.balance(state, seat) <= 1 or self._over_average(state, seat, 0))
                else 5.0
            )
        if self._over_average(state, seat) or self.balance(state, seat) <= 1 or self.endgame(state):
            return -2.0
        return 5.0

    def _footprint_penalty(self, state, seat):
        return 3.0 if self._over_average(state, seat) else 0.0

    def demolish_score(self, state, seat):
        return 3.5 if self._over_average(state, seat, 0) or self.endgame(state) else 0.0


class FreeRider(StrategyBot):
    """Lets the others go green and builds fossil plants while the global footprint is low."""

    name = "FreeRider"
    science_value = 1.1
    hazard_care = 2.0

    def _gf_low(self, state) -> bool:
        # "low" = the single-disc band or below: pollution still looks cheap
        single = [band for band in state.rules.disc_bands if band[2] == 1]
        high = single[0][1] if single else state.rules.gf_max // 2
        return self.global_footprint(state) <= high - 3

    def plant_wish(self, state, seat):
        if self.endgame(state) and self.balance(state, seat) <= 0:
            return "renewable"  # free-riding ends when the bag is about to run dry
        return "fossil" if self._gf_low(state) else None

    def plant_score(self, state, seat, plant):
        if plant == "renewable":
            return 8.0 if self.endgame(state) and self.balance(state, seat) <= 0 else 0.0
        return 6.0 if self._gf_low(state) and not self.endgame(state) else -1.0

    def demolish_score(self, state, seat):
        return 4.0 if self.endgame(state) and self.balance(state, seat) <= 0 else 0.0


# Short names used by simulate() and the command line (the search players, make_bot("search"),
# are kept apart in search.SEARCH_BOTS: a tournament over PERSONAS stays quick).
PERSONAS: dict[str, type] = {
    "random": RandomBot,
    "fossil": FossilRush,
    "green": GreenInvestor,
    "balanced": Balanced,
    "freerider": FreeRider,
}


def make_bot(spec, seed: int | None = None):
    """A bot from a short name ("random", "fossil", ...), a class, or a ready bot object."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        aliases = {cls.__name__.lower(): name for name, cls in PERSONAS.items()}
        key = aliases.get(key, key)
        if key in SEARCH_BOTS:  # the search player and its restricted variants
            return SearchPlayer(seed=seed, plants=SEARCH_BOTS[key])
        if key not in PERSONAS:
            names = ", ".join(sorted([*PERSONAS, *SEARCH_BOTS]))
            raise ValueError(f"Unknown bot {spec!r}; choose from {names}.")
        return PERSONAS[key](seed=seed)
    return bot_from_class_or_object(spec, seed)


def bot_from_class_or_object(spec, seed: int | None = None):
    """A bot from a bot class (seeded when it takes a seed) or a ready bot object; any other
    value gets a ValueError naming what a bot may be. Every game of the kit uses this."""
    if isinstance(spec, type):
        try:
            return spec(seed=seed)
        except TypeError:  # a student's class often has no seed parameter
            return spec()
    if hasattr(spec, "decide"):
        return spec
    raise ValueError(f"{spec!r} is not a bot: give a name, a bot class or an object with decide().")
