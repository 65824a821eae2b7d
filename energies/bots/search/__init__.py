"""A strong player: determinised Monte-Carlo search over short persona rollouts.

    import energies as en
    bot = en.bots.make_bot("search", seed=1)            # or "search-fossil", "search-green"
    rivals = [en.bots.make_bot(name, seed=2) for name in ("green", "balanced", "freerider")]
    en.play(en.new_game(4, seed=3), [bot, *rivals])

The method, for one decision of the seat ``me``:

1. **Trivial decisions at once.** A single legal action is returned; every decision that
   is not a free choice of its own turn's action phase (discards, victims, the Inspector,
   trade answers, set-up, rolling) is answered by the base persona (the ``plan``:
   GreenInvestor, or the Planner of :mod:`energies.bots.plan` with weights fitted on persona
   games; FossilRush for the fossil-only variant), which handles those well. With
   ``search_trades`` the rule 12.1 trades are searched too: whether to accept a rival's
   proposal, and whether to make the persona's proposal or pass (a trade helps two seats).
2. **Determinise** (:func:`determinize`). From what the seat may know — the information-set
   view ``game.view(seat)`` (:mod:`energies.newenergies.view`; given a Game it takes the view
   itself; given a bare GameState it reads only the same public facts) — build a private
   :class:`~energies.newenergies.state.GameState` that is one world consistent with that
   knowledge: the other seats' hands are dealt, within their
   card counts, from the cards that are not in this seat's hand (what is left is the
   supply); their development cards and the deck are dealt from the deck's composition
   minus this seat's cards and every card played; the green discs whose symbols are face
   down (in the bag and under the renewable slots) are dealt from the green discs not yet
   seen; dice, bag and card draws get fresh random streams seeded from the sample seed.
   Nothing hidden is read: the hidden parts of a position never reach the search.
3. **Candidates.** On the first sample the base persona's best ``width`` actions, the
   first choice of each other persona (GreenInvestor, Balanced, FossilRush: the restricted
   variants' rivals are restricted alike), the best action of each kind (each plant kind,
   each development card, a hazard removal, demolishing a fossil plant, a road, a town, a
   city, the warehouse), the best supply trade that completes a build the hand could not
   pay for, and ending the turn. One-for-one offers to other players are never candidates
   (personas do not model another player's answer). A single candidate is returned at once.
4. **Roll out.** Each candidate is applied in each of ``budget // candidates`` sampled
   worlds (the same worlds for every candidate: common random numbers), then every seat
   plays on with a persona — this seat with its base persona, the others with Balanced, the
   middle-of-the-road persona (with ``read_opponents``: the persona a rival's public plants
   look like, :meth:`SearchPlayer._other_persona`) — to the end of this seat's next turn
   (``depth`` rounds: the event draws, the others' builds and a 7 are in it, and the cards it
   kept get spent) or the game's end. With ``finish_rounds``, a rollout that starts when the
   bag will run dry within that many rounds plays the game out (rule 14.2 decides exactly).
5. **Evaluate** (:func:`evaluate`) the reached position for ``me``: a finished game scores
   its win share (0 for a loss, everyone losing included); otherwise the seat's fitted
   chance of winning (:func:`win_chances`): a softmax over the seats and "nobody wins" of
   weighted :func:`features` (VP against the target, the plant balance and whether it
   qualifies under rule 14.2, each also weighted by how far the bag has emptied, production,
   cards, science, energy). The weights are fitted on who actually won persona games
   (``benchmarks/fit_evaluation.py``), one set for the published rules and one for rule sets
   where plants score VP (lesson 04).
6. **Choose.** Candidate 0 is the persona's own choice. Another candidate replaces it only
   if its gain over candidate 0, world by world (paired: the same worlds, so most of the
   luck cancels), is positive by at least ``confidence`` standard errors; among those, the
   largest mean gain wins. Rollouts are noisy: without this test the search drifts among
   near-equal candidates and plays worse than its own persona (measured: a 25 % win rate
   against the benchmark table where GreenInvestor itself wins about half its seats).
7. **Never undo its own move.** Whichever way a decision is made (persona or search), an
   action that would take back the seat's own move of this turn (a fossil plant built or
   demolished, a card kind traded away or got) is never played: the search player keeps a
   :class:`~energies.bots.ledger.TurnLedger`, as the personas do.

Restricted variants (``plants="fossil"`` / ``plants="renewable"``) never build a plant of
the other kind, in the real game and in their own rollouts (only a forced free fossil plant
of the Production Increase event is built when the rules allow no refusal). A fossil-only
player can never qualify under rule 14.2: the fitted evaluation knows that (its plant
balance stays negative), so it counts on a VP win (rule 14.1).

Seeded and deterministic: every random number comes from the bot's seed (or, without one,
from the game's bot stream passed to ``decide``). ``budget`` is the number of rollouts per
searched decision (default :data:`DEFAULT_BUDGET`); it bounds the work, not the clock, so
the same seed gives the same game on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...kit.fields import show
from ...newenergies import engine
from ...newenergies.actions import (
    Action,
    AskForProposals,
    Decline,
    OfferTrade,
)
from ...newenergies.state import GameState
from ..ledger import TurnLedger
from ..personas import Balanced, FossilRush, FreeRider, GreenInvestor
from ..plan import plan_class
from .candidates import Restricted, allowed, kind_key, ranked, significant_best
from .evaluation import FEATURES, NOBODY_WINS, WEIGHTS, evaluate, features, win_chances
from .worlds import determinize, public_facts

__all__ = [
    "DEFAULT_BUDGET",
    "FEATURES",
    "NOBODY_WINS",
    "SEARCH_BOTS",
    "WEIGHTS",
    "SearchPlayer",
    "determinize",
    "evaluate",
    "features",
    "win_chances",
]

#: Rollouts per searched decision at the default setting (benchmarks/search_strength.py).
DEFAULT_BUDGET = 64
DEFAULT_WIDTH = 3  # candidates kept after the persona's pruning (ending the turn comes extra)
ROLLOUT_ACTION_CAP = 600  # a round of four turns has ~40 actions; the cap only guards loops

CONFIDENCE = 2.0  # standard errors a candidate must gain over the persona's choice
DEFAULT_DEPTH = 1  # rounds each rollout plays before it is evaluated
# The most a caller may ask for: a searched decision costs about budget x (depth +
# finish_rounds) rounds of persona play (budget 64: about 0.06 s), so these keep one decision
# within seconds on a classroom machine; ten times the defaults' reach is room for research.
MAX_BUDGET = 4_096
MAX_WIDTH = 32
MAX_DEPTH = 8
MAX_FINISH_ROUNDS = 8
FINISH_ROUNDS = 0  # the bag's end this near (in rounds): rollouts play the game out
DEFAULT_PLAN = "tuned"  # the persona its own seat plays (energies.plan.plan_class)

_OTHER_KIND = {"fossil": "renewable", "renewable": "fossil"}
_TRADE_TASKS = ("trade_response", "propose_trade")  # rule 12.1: answers and proposals


# ==============================================================================================
# The player
# ==============================================================================================


class SearchPlayer:
    """Determinised Monte-Carlo search with persona rollouts (see :mod:`energies.bots.search`).

    ``budget``: rollouts per searched decision; ``width``: the base persona's best actions
    kept as candidates; ``wide``: add the other personas' picks and the best action of each
    kind (False: the persona's ``width`` and ending the turn only); ``plants``: None,
    ``"fossil"`` or ``"renewable"`` (never builds the other kind); ``confidence``: how many
    standard errors (as a normal quantile) a candidate must gain over the persona's choice;
    ``depth``: rounds a rollout plays; ``finish_rounds``: play the game out when the bag's end
    is this many rounds away (0: never); ``read_opponents``: model rivals by their public
    plants; ``search_trades``: search the rule 12.1 answers and proposals; ``plan``: the base
    persona of its own seat, ``"green"`` (GreenInvestor), ``"tuned"`` (:mod:`energies.bots.plan`'s
    fitted Planner) or a dict of Planner weights. benchmarks/results/search_variants.md
    measures each knob against the default.
    """

    name = "SearchPlayer"
    # it never offers a one-for-one trade, so energies.play may leave those out of its list
    scores_unlisted_offers = True

    def __init__(
        self,
        seed: int | None = None,
        budget: int = DEFAULT_BUDGET,
        width: int = DEFAULT_WIDTH,
        plants: str | None = None,
        depth: int = DEFAULT_DEPTH,
        confidence: float = CONFIDENCE,
        wide: bool = True,
        finish_rounds: int = FINISH_ROUNDS,
        read_opponents: bool = False,
        search_trades: bool = False,
        plan: str | dict = DEFAULT_PLAN,
    ) -> None:
        if plants not in (None, "fossil", "renewable"):
            raise ValueError("plants must be None, 'fossil' or 'renewable'.")
        for name, value, low, high, unit in (
            ("budget", budget, 1, MAX_BUDGET, "rollouts"),
            ("width", width, 1, MAX_WIDTH, "candidates"),
            ("depth", depth, 1, MAX_DEPTH, "rounds"),
            ("finish_rounds", finish_rounds, 0, MAX_FINISH_ROUNDS, "rounds"),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(
                    f"{name} must be a whole number of {unit} from {low} to {high:,}, "
                    f"not {show(value)}."
                )
        if (
            not isinstance(confidence, (int, float))
            or isinstance(confidence, bool)
            or not (0 <= confidence < float("inf"))
        ):  # NaN compares false with everything: no candidate would ever be chosen
            raise ValueError(
                f"confidence must be a number of standard errors, not {show(confidence)}."
            )
        for name, flag in (
            ("wide", wide),
            ("read_opponents", read_opponents),
            ("search_trades", search_trades),
        ):
            if not isinstance(flag, bool):
                raise ValueError(f"{name} must be True or False, not {show(flag)}.")
        self.budget, self.width, self.plants, self.depth = budget, width, plants, depth
        self.confidence, self.wide = confidence, wide
        self.finish_rounds, self.read_opponents = finish_rounds, read_opponents
        self.search_trades = search_trades
        self.plan, self._plan = plan, plan_class(plan)
        self.name = next(k for k, v in SEARCH_BOTS.items() if v == plants)  # simulate's column
        self.banned = _OTHER_KIND.get(plants)
        self._rng = random.Random(seed) if seed is not None else None
        self.searched = 0  # decisions that ran rollouts (benchmarks report it)
        self._ledger = TurnLedger()  # its own moves this turn: never undone (ledger module)

    def __repr__(self) -> str:
        extra = f", plants={self.plants!r}" if self.plants else ""
        extra += f", plan={self.plan!r}" if self.plan != DEFAULT_PLAN else ""
        return f"SearchPlayer(budget={self.budget}{extra})"

    # the personas this player plays its own seat and models the others with
    def _own_class(self) -> type:
        return FossilRush if self.plants == "fossil" else self._plan

    def _own_persona(self):
        return Restricted(self._own_class()(), self.banned)

    def _advisers(self) -> list:
        """The other personas whose first choice is always a candidate (restricted alike)."""
        own = self._own_class()
        return [cls() for cls in (GreenInvestor, Balanced, FossilRush) if cls is not own]

    def _other_persona(self, state, seat: int):
        """The persona a rival is modelled with in the rollouts: Balanced, or (``read_opponents``)
        the persona its public plants look like: only fossil plants, a free-rider; only
        renewable ones (two or more), a green investor; else (none yet, or both kinds) Balanced."""
        if self.read_opponents:
            p = state.players[seat]
            renewable, fossil = p.count_plants("renewable"), p.count_plants("fossil")
            if fossil and not renewable:
                return FreeRider()
            if renewable >= 2 and not fossil:
                return GreenInvestor()
        return Balanced()

    def _rounds(self, state) -> int:
        """Rounds a rollout plays: ``depth``, or to the game's end when the bag will run dry
        within ``finish_rounds`` rounds at the current draw rate (rule 14.2: the plant
        balance then decides, and a fitted guess is no match for playing it out)."""
        if not self.finish_rounds:
            return self.depth
        per_round = state.n * state.rules.discs_to_draw(state.global_footprint)
        if len(state.bag) <= self.finish_rounds * per_round:
            return max(self.depth, self.finish_rounds + 2)  # the draw rate may slow down
        return self.depth

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = allowed(legal_actions, self.banned)
        if len(legal) == 1:
            return legal[0]
        if hasattr(game_view, "view"):  # given a whole Game (or a view): read only the view
            game_view = game_view.view(legal[0].seat)
        stream = random.Random((self._rng or rng).getrandbits(64))
        view = public_facts(game_view)
        # never undo its own move of this turn (a fossil plant, a trade, a Cleanup's move of
        # the Inspector): neither the persona nor a rollout's verdict may take it back
        ledger = self._ledger
        if ledger.holds_moves(view):
            legal = [a for a in legal if not ledger.undoes(view, a)] or legal
            if len(legal) == 1:
                return legal[0]
        choice = self._choose(game_view, view, legal, stream)
        ledger.record(view, choice)
        return choice

    def _choose(self, game_view, view, legal: list[Action], stream: random.Random) -> Action:
        pending = view.queue[0].kind if view.queue else None
        if self.search_trades and pending in _TRADE_TASKS and view.phase == "action":
            # rule 12.1: a trade helps two seats; whether it helps this one enough is searched
            return self._search(game_view, legal, stream)
        if view.queue or view.phase != "action":  # not a free choice of its own turn
            # answered by the persona on a sampled world: it reads nothing hidden either
            world = determinize(game_view, stream, legal[0].seat)
            return self._own_persona().decide(world, legal, stream)
        return self._search(game_view, legal, stream)

    def _candidates(self, state: GameState, legal: list[Action], me: int) -> list[Action]:
        """The persona's top ``width``, then (``wide``) the other personas' picks, the best
        action of each kind (each plant kind, each card, hazard removal, ...), the best supply
        trade that completes a build, and ending the turn; no duplicates, offers and asks of the
        table never (rule 12.1: a rollout's personas never ask, so its value is not searched)."""
        pool = [a for a in legal if not isinstance(a, (OfferTrade, AskForProposals))]
        order = ranked(self._own_persona().persona, state, pool)
        if state.queue and state.queue[0].kind == "propose_trade":
            # the persona's proposal or passing (each proposal searched would triple the cost)
            return list(dict.fromkeys([order[0], *(a for a in legal if isinstance(a, Decline))]))
        chosen = order[: self.width]
        if self.wide:
            for adviser in self._advisers():
                chosen.append(ranked(adviser, state, pool)[0])
            kinds: dict[tuple, Action] = {}
            for a in order:  # best first: the first action of a kind is its best
                key = kind_key(state, a)
                if key is not None:
                    kinds.setdefault(key, a)
            chosen += kinds.values()
        chosen += [a for a in legal if a.kind == "end_turn"]
        return list(dict.fromkeys(chosen))  # first occurrence kept: candidate 0 = persona's

    def _search(self, game_view, legal: list[Action], rng: random.Random) -> Action:
        me = legal[0].seat
        seeds = [rng.getrandbits(64) for _ in range(max(1, self.budget))]
        first = determinize(game_view, random.Random(seeds[0]), me)
        candidates = self._candidates(first, legal, me)
        if len(candidates) == 1:
            return candidates[0]
        self.searched += 1
        worlds = max(2, self.budget // len(candidates))
        values = [[] for _ in candidates]  # per world (None: the action is illegal there)
        for w in range(worlds):
            for i, action in enumerate(candidates):
                state = determinize(game_view, random.Random(seeds[w % len(seeds)]), me)
                values[i].append(self._rollout(state, action, me, seeds[w % len(seeds)]))
        return candidates[significant_best(values, self.confidence)]

    def _rollout(self, state: GameState, action: Action, me: int, seed: int) -> float | None:
        """Apply ``action``, play one round with personas, evaluate; None if it is illegal here."""
        if engine.why_illegal(state, action) is not None:
            return None  # this sampled world lacks what the real one has (e.g. a supply card)
        n = len(state.players)
        stop = state.turn + n * self._rounds(state) + 1  # through the end of its own next turn
        policies = [
            self._own_persona() if s == me else self._other_persona(state, s) for s in range(n)
        ]
        engine.apply(state, action)
        rng = random.Random(seed ^ 0x5EA4C4)
        for _ in range(ROLLOUT_ACTION_CAP * (stop - state.turn) // n):
            if state.outcome is not None or state.turn >= stop:
                break
            legal = engine.legal_actions(state, offers=False)  # personas never offer
            seat = engine.current_seat(state)
            if len(legal) == 1:
                choice = legal[0]
            elif state.queue and state.queue[0].kind == "propose_trade":
                # rule 12.1 proposals are rare, and scoring them was half a rollout's cost
                choice = next(a for a in legal if isinstance(a, Decline))
            else:
                choice = policies[seat].decide(state, legal, rng)
            engine.apply_listed(state, choice)
        return evaluate(state, me)


#: Short names of the search players for ``make_bot``: name -> the ``plants`` restriction.
SEARCH_BOTS: dict[str, str | None] = {
    "search": None,
    "search-fossil": "fossil",
    "search-green": "renewable",
    "strong": None,  # the PlayApp's opponent "Strong": PlayApp(game, seats={1: "strong", ...})
}
