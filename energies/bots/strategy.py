"""The StrategyBot: one shared, rule-aware player whose priorities each persona sets.

It scores every legal action (the scores themselves: :mod:`energies.bots.scoring`) and takes
the best one, breaking ties with seeded draws; the personas of :mod:`energies.bots.personas`
change only a few hooks and weights.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..newenergies.actions import Action, Decline, OfferTrade, ProposeTrade
from ..newenergies.engine.offers import TRADED, OffersLeftOut
from ..newenergies.view import GameView
from .ledger import TurnLedger
from .scoring import BASE_CARD_VALUE, ActionScores

_OFFER_SCORE = 0.0  # StrategyBot._score_offer_trade
_UNDOES = -1e6  # the score of an action that would undo the seat's own move of this turn


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


class StrategyBot(ActionScores):
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
    # own turns to spare when racing the bag for rule 14.2 (qualifies_in_time). Measured by
    # benchmarks/scramble_margin.py (benchmarks/results/scramble_margin.md): FossilRush's win
    # rate among RandomBots rises and its unqualified seats fall with the margin, most from 0
    # to 2; 2 is a compromise, since a larger margin also makes it scramble earlier
    scramble_margin = 2

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed) if seed is not None else None
        self._ledger = TurnLedger()

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
        self.turn_ledger.record(state, choice)
        return choice

    decide.ignores_view_if_forced = True  # one option and no offers left out: play() passes None

    def _best(self, state, legal: Sequence[Action], tie: random.Random) -> Action:
        """The best-scoring action; ties go to the higher ``tie.random()`` drawn for each action.
        An action that would undo the seat's own move of this turn scores below everything
        (:meth:`_never_undo`).

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
        scores = self._never_undo(state, scored, self._scores(state, scored))
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

    def _never_undo(self, state, actions: Sequence[Action], scores: list[float]) -> list[float]:
        """``scores`` with every action that would undo the seat's own move of this turn
        (:class:`~energies.bots.ledger.TurnLedger`) put below anything else."""
        ledger = self.turn_ledger
        if not ledger.holds_moves(state):  # (most decisions: nothing to undo yet)
            return scores
        return [_UNDOES if ledger.undoes(state, a) else s for a, s in zip(actions, scores)]

    @property
    def turn_ledger(self) -> TurnLedger:
        """This bot's own moves of the current turn (see :mod:`energies.bots.ledger`)."""
        ledger = self.__dict__.get("_ledger")
        if ledger is None:  # a subclass whose __init__ did not call StrategyBot's
            ledger = self._ledger = TurnLedger()
        return ledger

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
        base = self.science_value if kind == "science" else BASE_CARD_VALUE.get(kind, 1.0)
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

    def endgame(self, state, rounds: int = 2, extra_gf: int = 0) -> bool:
        """The bag is running low: the empty-bag ending (rule 14.2) is about ``rounds`` rounds
        away, at the draw rate (rule 4.3) of the GF plus ``extra_gf`` (a persona weighing a
        fossil plant asks with ``extra_gf=1``: the plant itself may move the GF into a band
        that draws faster, and it must not build what it would then demolish)."""
        most = _most_discs(state.rules)  # no GF draws more per turn
        if len(state.bag) > rounds * state.n * most + 2:
            return False  # far from the end whatever the GF: no need to work it out
        gf = state.clamped_gf(sum(self.footprints(state)) + extra_gf)
        per_turn = state.rules.discs_to_draw(gf)
        return len(state.bag) <= rounds * state.n * per_turn + 2

    # -- rule 14.2: the race against the bag ---------------------------------------------------

    def own_turns_left(self, state, seat: int, extra_gf: int = 0) -> int:
        """The seat's own turns still to come after the current turn before the bag runs dry.

        Every turn draws the discs of the GF's band (rule 4.3; here the GF plus ``extra_gf``)
        and the turn whose draws find the bag empty ends the game (rules 6.1, 14.2); draws
        still due in the current event phase come first. Like
        :func:`energies.insight.bag_runs_out_within` this holds the GF steady: new green
        discs (rule 10.4) would add turns, a higher band take some away.
        """
        return self._memo_get(
            ("turns_left", seat, extra_gf), self._turns_left, state, seat, extra_gf
        )

    def _turns_left(self, state, seat: int, extra_gf: int) -> int:
        gf = state.clamped_gf(sum(self.footprints(state)) + extra_gf)
        per_turn = state.rules.discs_to_draw(gf)
        due = sum(1 for task in state.queue if task.kind == "draw")  # this turn's, still due
        bag = len(state.bag) - due
        if bag < 0:
            return 0  # the game ends in this event phase
        turns = bag // per_turn  # the coming turns whose draws all find a disc
        first = (seat - state.active) % state.n or state.n  # the seat's next turn among them
        return 0 if turns < first else (turns - first) // state.n + 1

    def fixes_to_qualify(self, state, seat: int, extra_fossil: int = 0) -> int:
        """Renewable plants to build or fossil plants to demolish before the seat has more
        renewable than fossil plants (rule 14.2; with rule 14.2a's reading, as many), after
        ``extra_fossil`` more fossil plants; 0 when it has."""
        wanted = 0 if state.rules.empty_bag_even_survives else 1
        return max(0, wanted - self.balance(state, seat) + extra_fossil)

    def qualifies_in_time(self, state, seat: int, extra_fossil: int = 0) -> bool:
        """Whether the seat can still have more renewable than fossil plants when the bag runs
        dry (rule 14.2) after ``extra_fossil`` more fossil plants: one fix (a renewable plant
        or a demolished fossil plant) in each of its turns after this one, with
        ``scramble_margin`` turns to spare. A persona that knows rule 14.2 scrambles when
        this fails for the plants it has, and never builds a fossil plant that would make it
        fail: it would only have to demolish that plant again."""
        need = self.fixes_to_qualify(state, seat, extra_fossil)
        if need == 0:
            return True
        return self.own_turns_left(state, seat, extra_fossil) >= need + self.scramble_margin
