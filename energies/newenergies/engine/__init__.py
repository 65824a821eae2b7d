"""The rules: legal_actions / why_illegal / apply — the only place the game's rules run.

``why_illegal`` runs one check per action kind (:mod:`energies.checks`), and
``apply`` calls it before it changes anything, so a rejected action leaves the
state exactly as it was. ``legal_actions`` lists the same actions straight from
the state (:mod:`energies.listing`, held to the checks by the tests); the state
keeps that listing until the next action is applied. Turn flow: event phase (rule 6,
:mod:`energies.events`), roll and production (rules 7–9), action phase
(rules 10–13). Decisions the engine waits for sit at the front of
``state.queue``; the seat named there must act next.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ...kit.contract import IllegalActionError
from ...kit.i18n import N_, msg
from ..actions import (
    Action,
    AskForProposals,
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    BuildWarehouse,
    BuyDevCard,
    ChooseHex,
    ChooseVictim,
    Decline,
    DemolishFossil,
    DiscardCard,
    EndTurn,
    MoveInspector,
    OfferTrade,
    PlaceHazard,
    PlayDevCard,
    ProposeTrade,
    RemoveHazard,
    RespondToTrade,
    RollDice,
    SandboxEdit,
    TakeCard,
    TradeWithSupply,
    field_problem,
)
from ..cache import EngineCache
from ..layouts import build_board
from ..rules import RuleSet
from ..rules.vocabulary import seat_name
from ..state import GameState, PlayerState, Stats, Task, full_supply, new_hand
from .answers import DECISION_EFFECTS
from .checks import (
    check_ask_for_proposals,
    check_buy_dev,
    check_city,
    check_demolish,
    check_interjected_proposal,
    check_offer,
    check_plant,
    check_play_dev,
    check_remove_hazard,
    check_road,
    check_supply_trade,
    check_town,
    check_warehouse,
    task_text,
)
from .decisions import (
    ANSWERS,
    check_decision,
    decision_options,
)
from .edits import apply_edit, check_edit
from .effects import (
    FREE_EFFECTS,
)
from .listing import free_actions, plant_spots_after
from .setup import quick_start
from .turns import advance, end_turn

# ==============================================================================================
# Set-up (rule 3)
# ==============================================================================================


def new_state(rules: RuleSet, seed: int, history: bool = True) -> GameState:
    """A game after set-up: pieces placed (quick start) or the draft waiting (rule 3).

    ``history=False``: keep no per-turn history records (``state.history`` stays empty).
    """
    board = build_board(
        rules.layout, seed, rules.number_placement, rules.harbor_kinds,
        (rules.generic_harbor_rate, rules.special_harbor_rate),
    )  # fmt: skip
    streams = ("setup", "dice", "bag", "cards")
    rng = {name: random.Random(f"{seed}:{name}") for name in streams}
    # rule 3.6: drawn first, so rule variants with other decks keep the same start player
    start_player = rng["setup"].randrange(rules.players) if rules.random_start_player else 0
    deck = [card for card, count in rules.dev_deck for _ in range(count)]
    rng["setup"].shuffle(deck)
    players = []
    for seat in range(rules.players):
        greens = [sym for sym, count in rules.green_discs_per_player for _ in range(count)]
        rng["setup"].shuffle(greens)  # rule 3.1: face down under the renewable slots
        players.append(PlayerState(seat, new_hand(), green_slots=greens))
    state = GameState(
        rules=rules,
        board=board,
        seed=seed,
        players=players,
        supply=full_supply(rules),
        energy_supply=rules.energy_tokens,
        dev_deck=deck,
        inspector=board.desert,  # rule 3.1
        bag=[("brown", sym) for sym, count in rules.brown_discs for _ in range(count)],
        event_board={row: [] for row, _ in rules.event_spaces},
        stats=[Stats() for _ in range(rules.players)],
    )
    state.rng = rng
    state.keep_history = history
    state.start_player = start_player
    # rule 3.3: towns in seat order, cities in reverse
    order = [(state.start_player + i) % rules.players for i in range(rules.players)]
    for seat in order:
        state.queue += [Task("setup_town", seat), Task("setup_road", seat)]
    for seat in reversed(order):
        state.queue += [Task("setup_city", seat), Task("setup_road", seat)]
    state.active = state.start_player
    if rules.start == "quick":  # rules 2.3, 3.4: see energies.quickstart
        quick_start(state, list(reversed(order)), legal_actions, apply_listed)
    return state


# ==============================================================================================
# The public trio
# ==============================================================================================


def current_seat(state: GameState) -> int | None:
    """The seat that must decide now, or None when the game is over."""
    if state.outcome is not None:
        return None
    return state.queue[0].seat if state.queue else state.active


def why_illegal(state: GameState, action: Action) -> str | None:
    """Why ``action`` may not be applied now, or None if it is legal."""
    if not isinstance(action, Action):
        return msg(N_("{action} is not an action."), action=repr(action))
    malformed = field_problem(action)
    if malformed:
        return msg(N_("This action is malformed: {problem}."), problem=malformed)
    if isinstance(action, SandboxEdit):
        return check_edit(state, action)
    if state.outcome is not None:
        return msg(N_("The game is over."))
    if isinstance(action, ProposeTrade) and not _asked_to_propose(state, action.seat):
        return check_interjected_proposal(state, action)  # rule 12.1 [H]: proposed unasked
    seat = current_seat(state)
    if isinstance(action, AskForProposals) and action.seat != state.active:
        return msg(
            N_(
                "Only the active player asks the table for trade proposals (rule 12.1); it is "
                "{player}'s turn."
            ),
            player=seat_name(state.active),
        )
    if action.seat != seat:
        if state.queue:
            return msg(
                N_("Not your move: {player} must {task}."),
                player=seat_name(seat),
                task=task_text(state.queue[0]),
            )
        return msg(N_("Not your move: it is {player}'s turn."), player=seat_name(seat))
    if state.queue:
        task = state.queue[0]
        if not isinstance(action, ANSWERS[task.kind]):
            return msg(N_("First {task}."), task=task_text(task))
        return check_decision(state, task, action)
    if state.turn_actions >= state.rules.turn_action_limit and type(action) not in TURN_ENDS:
        return msg(
            N_(
                "This turn has had {n} actions, the most one turn may have (turn_action_limit): "
                "end the turn."
            ),
            n=state.turn_actions,
        )
    return _check_free(state, action)


def _asked_to_propose(state: GameState, seat: int) -> bool:
    task = state.pending
    return task is not None and task.kind == "propose_trade" and task.seat == seat


_FREE_CHECKS: dict[type, Callable[[GameState, Action], str | None]] = {
    BuildRoad: lambda s, a: check_road(s, a, "paid"),
    BuildTown: check_town,
    BuildCity: check_city,
    BuildPlant: check_plant,
    BuyDevCard: check_buy_dev,
    TradeWithSupply: check_supply_trade,
    OfferTrade: check_offer,
    AskForProposals: check_ask_for_proposals,
    RemoveHazard: check_remove_hazard,
    DemolishFossil: check_demolish,
    BuildWarehouse: check_warehouse,
    PlayDevCard: check_play_dev,
    RollDice: lambda s, a: None,
    EndTurn: lambda s, a: None,
}


def _check_free(state: GameState, action: Action) -> str | None:
    check = _FREE_CHECKS.get(type(action))
    if check is None:
        return msg(
            N_("There is nothing to answer with {kind} now."), kind=action.kind.replace("_", " ")
        )
    if state.phase == "roll":
        if not isinstance(action, (RollDice, PlayDevCard)):
            return msg(N_("Roll the dice first (you may play a development card before rolling)."))
    elif isinstance(action, RollDice):
        return msg(N_("You already rolled this turn."))
    return check(state, action)


def legal_actions(state: GameState, offers: bool = True) -> list[Action]:
    """Every legal action of the seat that must decide now (empty when the game is over).

    Player trades are listed as one-for-one offers; ``apply`` also accepts any
    larger bundle that ``why_illegal`` approves. The state keeps the listing until the
    next action is applied, so asking twice costs nothing.

    ``offers=False``: the same list without the one-for-one offers (up to ~150 of them, always
    its tail), for a bot that scores them without seeing them
    (``trade_offers.OffersLeftOut`` says how many there are); nothing is kept.
    """
    if state.outcome is not None:
        return []
    cache = state.cache
    listed = cache.listed
    if not offers:  # the same list without its tail of one-for-one offers (rule 12.1)
        if state.queue:
            return list(listed if listed is not None else _options(state))
        if state.turn_actions >= state.rules.turn_action_limit:
            return [a for a in legal_actions(state) if type(a) in TURN_ENDS]
        if listed is not None:
            return [a for a in listed if type(a) is not OfferTrade]
        return free_actions(state, _seat_spots(state, cache), offers=False)
    if listed is None:
        spots = None if state.queue else _seat_spots(state, cache)
        listed = cache.listed = tuple(_options(state, spots))
    if state.turn_actions >= state.rules.turn_action_limit and not state.queue:
        return [a for a in listed if type(a) in TURN_ENDS]  # rules.turn_action_limit
    return list(listed)


# What is left once a turn has had rules.turn_action_limit actions (engine safety, rule 14.3):
# a degenerate rule set (a 1:1 supply rate) or a looping bot cannot stall a game.
TURN_ENDS = frozenset({EndTurn, RollDice})


def list_actions(state: GameState, spots: dict | None = None) -> list[Action]:
    """The legal actions of the running game listed afresh, ignoring what the state keeps.

    ``spots`` (``legal_actions`` passes the active seat's) keeps where the active player
    could build, cost aside, for later listings while the pieces it depends on stay.
    """
    return list(_options(state, spots))


def _options(state: GameState, spots: dict | None = None) -> Sequence[Action]:
    """list_actions's answer as the listing makes it: for a trade's answers and the
    proposals a tuple made once for all positions with those options
    (``decisions._answers``, ``trade_offers.proposal_options``), kept without a copy."""
    return decision_options(state, state.queue[0]) if state.queue else free_actions(state, spots)


def _seat_spots(state: GameState, cache: EngineCache) -> dict:
    """The active seat's kept building spots (``cache.spots``, the state's), made on first use."""
    spots = cache.spots
    if spots is None:
        spots = cache.spots = {}
    found = spots.get(state.active)
    if found is None:
        found = spots[state.active] = {}
    return found


def apply(state: GameState, action: Action) -> None:
    """Apply a legal action, or raise IllegalActionError and change nothing."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalActionError(reason, action)
    if isinstance(action, SandboxEdit):
        state.cache.forget()  # a teacher's edit may change anything
        apply_edit(state, action)
        return
    apply_listed(state, action)


def apply_listed(state: GameState, action: Action) -> None:
    """Apply an action that ``legal_actions(state)`` has just listed, without checking it again."""
    cache = state.cache  # (bound once: read and written below and around the effects)
    listed, before_offer, spots = cache.listed, cache.listed_before_offer, cache.spots
    cache.listed = cache.listed_before_offer = cache.spots = None  # the position changes
    stamp, cache.view_stamp = cache.view_stamp, None
    if stamp is not None and _quiet(state, action):
        cache.view_stamp = stamp  # nobody's cards or pieces change: views keep their copies
    state.log.append(action)  # turned into its sentence only when the log is read
    state.turn_actions += 1
    if state.queue:
        task = state.queue[0]
        DECISION_EFFECTS[task.kind](state, task, action)
    elif isinstance(action, EndTurn):
        end_turn(state)
    else:
        FREE_EFFECTS[type(action)](state, action)
    advance(state, scored=type(action) not in SCORE_STAYS)
    if state.outcome is not None:  # a finished game keeps none of the speed caches (memory)
        cache.forget()
    elif spots:
        cache.spots = spots if type(action) in SPOTS_STAY else keep_spots(spots, action, state)
    if type(action) is OfferTrade:
        cache.listed_before_offer = listed
    elif before_offer is not None and type(action) is RespondToTrade and not action.accept:
        _resume_after_refusal(state, before_offer)


# Actions whose effects move no road, building or plant of anyone: the active player's
# building spots stay as they were listed (the turn machine runs no event draws after them
# in the action phase).
PIECES_STAY = frozenset(
    {
        OfferTrade,
        ProposeTrade,
        AskForProposals,
        RespondToTrade,
        TradeWithSupply,
        BuyDevCard,
        BuildWarehouse,
        RemoveHazard,
        RollDice,
        DiscardCard,
        TakeCard,
        MoveInspector,
        ChooseVictim,
        PlaceHazard,
        ChooseHex,
        Decline,
    }
)


def keep_spots(spots: dict[int, dict], action: Action, state: GameState) -> dict[int, dict] | None:
    """What of every seat's kept building spots (``cache.spots``) still holds once
    ``action`` is applied to ``state``: all of it after an action that moves no piece (events
    move none either); after a plant, the builder's plant spots less those it took; after a
    demolition, the builder's plant spots dropped; after a road, the other seats' road spots
    less its path, the builder's road and town spots dropped; nothing after anything else
    (a town or city changes every seat's spots, and harbors)."""
    kind = type(action)
    if kind in SPOTS_STAY:
        return spots
    if kind is BuildPlant or kind is DemolishFossil:  # only the seat's own plant spots change
        seat_spots = spots.get(action.seat)
        for key in [key for key in seat_spots or () if type(key) is tuple]:  # (plant kinds)
            if kind is BuildPlant:
                seat_spots[key] = plant_spots_after(seat_spots[key], state, action)
            else:  # a freed spot: found afresh when next listed
                del seat_spots[key]
        return spots
    if kind is BuildRoad:  # the path is taken for everyone; the builder's road ends move
        path = action.path
        for seat, seat_spots in spots.items():
            if seat == action.seat:
                seat_spots.pop("road", None)
                seat_spots.pop("town", None)
            elif "road" in seat_spots:  # another seat's road spots: less the path taken
                seat_spots["road"] = [road for road in seat_spots["road"] if road.path != path]
        return spots
    return None


# (an end of turn's event draws move no piece either; a development card played moves none
# itself: the roads, plants or hazards it leads to are decisions of their own)
SPOTS_STAY = PIECES_STAY | {EndTurn, PlayDevCard}


# Answers in a trade window and the trades' openings (rule 12.1): they move no card, piece,
# disc or hazard, and the turn machine runs no step after them (the windows come last in a
# turn's queue; an ask only queues proposal windows, which at most pass unanswered).
QUIET = frozenset({OfferTrade, ProposeTrade, AskForProposals})


def _quiet(state: GameState, action: Action) -> bool:
    kind = type(action)
    if kind is RespondToTrade:
        return not action.accept
    if kind is Decline:
        return bool(state.queue) and state.queue[0].kind == "propose_trade"
    return kind in QUIET


# Points come from pieces, development cards and the two awards (rule 13.8): after these
# actions nobody's points can have changed, so there is no victory to look for.
SCORE_STAYS = PIECES_STAY - {BuyDevCard}


def _resume_after_refusal(state: GameState, before_offer: tuple[Action, ...]) -> None:
    # A refused offer changed nothing but the count of offers (rule 12.1), so the options
    # are those listed before it, less the offers once the count reaches its limit.
    if state.queue or state.outcome is not None:
        return
    if state.offers_made < state.rules.trade_offers_per_turn:
        state.cache.listed = before_offer
    else:
        state.cache.listed = tuple(a for a in before_offer if type(a) is not OfferTrade)
