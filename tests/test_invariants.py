"""Invariants over many seeded random-bot games, checked after every action (design §5.2).

* every bookkeeping invariant of :func:`energies.newenergies.invariants.check_invariants`
  (cards, energy, development cards and discs conserved; LF/GF/VP recomputed
  from the pieces; piece limits; hazards; the distance rule; a running game is
  never stuck) holds after EVERY action of 200 four-player and 100
  three-player RandomBot games, and every game ends with one of the four
  outcome kinds (rules 14.1-14.3); a few games per RuleSet variant, also with
  the strategy bots, get the same checks;
* a rejected action (wrong seat, wrong phase, unaffordable, nonsense or
  wrong-typed values) raises IllegalActionError and changes nothing:
  snapshot, save text, digest, log and the random streams stay identical
  (design §2);
* every listed legal action passes ``why_illegal``, and every action
  ``why_illegal`` approves is listed (one source of legality);
* the checker itself catches corrupted states, so it cannot be a no-op.

The big loop's wall time is printed (run with ``-s`` to see it).
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter

import pytest

import energies as en
from energies import actions as A
from energies.newenergies import engine
from energies.newenergies.invariants import OUTCOME_KINDS, check_invariants
from energies.newenergies.rules import CARD_KINDS, DEV_CARDS
from energies.newenergies.state import Task

BOT = en.bots.RandomBot()


def _bot_rng(seed: int) -> random.Random:
    return random.Random(f"{seed}:invariant-bots")


def _step(game: en.Game, rng: random.Random) -> A.Action:
    """One RandomBot decision, exactly as ``en.play`` makes it; returns the applied action."""
    legal = game.legal_actions()
    action = BOT.decide(game, legal, rng)
    game.apply(action)
    return action


def _play_checked(players: int, seed: int) -> tuple[en.Game, int]:
    """Play a RandomBot game to its end (as ``en.play`` would), checking every invariant
    after every action; the legal-action list each check needs is the one the bot picks from."""
    game = en.new_game(players=players, seed=seed)
    rng = _bot_rng(seed)
    legal = game.legal_actions()
    problems = check_invariants(game.state, legal_actions=legal)
    if problems:
        pytest.fail(f"{players}p seed {seed}, before the first action: {problems}")
    steps = 0
    while not game.is_over:
        action = BOT.decide(game, legal, rng)
        game.apply(action)
        steps += 1
        legal = game.legal_actions()
        problems = check_invariants(game.state, legal_actions=legal)
        if problems:
            pytest.fail(
                f"{players}p seed {seed}, after action {steps} ({action}), turn {game.turn}: "
                + "; ".join(problems)
            )
        if steps > 100_000:
            pytest.fail(f"{players}p seed {seed}: no end after {steps} actions (rule 14.3)")
    return game, steps


# -- (a) invariants after every action --------------------------------------------------------


@pytest.mark.parametrize(("players", "games"), [(4, 200), (3, 100)])
def test_rules_14_invariants_hold_after_every_action_of_random_games(players: int, games: int):
    """Conservation (§1), footprint (4.1, 4.2), VP (13.8), limits (§1, 10.2), hazards, discs
    (6.2), distance rule (10.1) and progress hold after every action; every game ends with
    one of the four outcome kinds (14.1 victory points, 14.2 empty bag / everyone loses,
    14.3 unfinished)."""
    started = time.perf_counter()
    kinds: Counter = Counter()
    total_actions = 0
    for seed in range(games):
        game, steps = _play_checked(players, seed)
        total_actions += steps
        outcome = game.outcome
        assert outcome.kind in OUTCOME_KINDS, (seed, outcome)
        assert game.current_seat is None and game.legal_actions() == []
        if outcome.kind in ("victory_points", "empty_bag"):
            assert outcome.winners, (seed, outcome)
        else:
            assert outcome.winners == (), (seed, outcome)
        kinds[outcome.kind] += 1
    elapsed = time.perf_counter() - started
    print(
        f"\n{games} {players}-player games, {total_actions} actions, "
        f"{elapsed:.1f} s, outcomes {dict(kinds)}"
    )
    assert sum(kinds.values()) == games


VARIANTS: dict[str, dict] = {
    "draft start (rule 3.3)": {"start": "draft"},
    "random layout, shuffled numbers (rule 2.2)": {
        "layout": "random",
        "number_placement": "shuffled",
    },
    "city drops its town plant (rule 10.5 variant)": {"city_keeps_town_plant": False},
    "clockwise shortage (rule 8.6 variant)": {"shortage_rule": "clockwise"},
    "energy not tradeable (rule 11.1 variant)": {"energy_tradeable": False},
    "separate green Climate Conference row (rule 6.4 variant)": {"shared_climate_row": False},
    "holder keeps a tied Longest Road (rule 13.6 variant)": {
        "longest_road_tie_on_break": "holder_keeps"
    },
    "no hazards when short (rule 7.2 variant)": {"pollution_hazard_order": "none"},
    "2 spaces per event row (rule 6.3 variant)": {
        "event_spaces": tuple((row, 2) for row, _ in en.RuleSet().event_spaces)
    },
    "6 VP to win (rule 14.1 variant)": {"victory_points": 6},
    "scarce cards, energy and hazards (§1 variant)": {
        "resource_cards": 4,
        "science_cards": 3,
        "energy_tokens": 4,
        "hazard_tokens": 3,
    },
    "fixed start player, 3 starting energy (rules 3.4, 3.6 variants)": {
        "random_start_player": False,
        "starting_energy": 3,
    },
}


@pytest.mark.parametrize("changes", VARIANTS.values(), ids=list(VARIANTS))
def test_invariants_hold_in_rule_variants_with_strategy_bots(changes):
    """The bookkeeping invariants hold after every action in RuleSet variants, played by
    RandomBots (3 players) and by the four strategy personas (4 players)."""
    for players, seed in ((3, 0), (4, 1)):
        rules = en.RuleSet.standard(players).replace(**changes)
        game = en.new_game(rules=rules, seed=seed)
        if players == 4:
            seats = [
                en.bots.FossilRush(),
                en.bots.GreenInvestor(),
                en.bots.Balanced(),
                en.bots.FreeRider(),
            ]
        else:
            seats = [BOT] * players
        rng = _bot_rng(seed)
        legal = game.legal_actions()
        assert check_invariants(game.state, legal_actions=legal) == []
        while not game.is_over:
            action = seats[game.current_seat].decide(game, legal, rng)
            game.apply(action)
            legal = game.legal_actions()
            problems = check_invariants(game.state, legal_actions=legal)
            assert not problems, f"{players}p seed {seed} after {action}: {problems}"
        assert game.outcome.kind in OUTCOME_KINDS


# -- (b) a rejected action changes nothing -----------------------------------------------------


def _quick_print(game: en.Game) -> tuple:
    """Every fact of the state (as digested), the log, the action log and the random streams."""
    s = game.state
    return (
        json.dumps(s.to_dict(), sort_keys=True),
        len(s.log),
        len(s.events),
        len(s.history),
        len(game.actions),
        tuple(sorted((name, r.getstate()) for name, r in s.rng.items())),
        tuple(tuple(p.green_slots) for p in s.players),
        tuple(s.dev_deck),
        tuple(s.bag),
    )


def _fingerprint(game: en.Game) -> tuple:
    """The byte-level views a user sees: snapshot() and the save text, plus the quick print."""
    return (json.dumps(game.snapshot(), sort_keys=True), game.to_json(), _quick_print(game))


def _illegal_candidates(game: en.Game, rng: random.Random) -> list[tuple[str, object]]:
    """Actions that must be rejected in the current position, tagged by category."""
    s, seat = game.state, game.current_seat
    n = game.rules.players
    p = s.players[seat]
    out: list[tuple[str, object]] = []
    other = (seat + 1 + rng.randrange(n - 1)) % n
    # wrong seat: a legal move of the seat to act, made by somebody else
    legal = game.legal_actions()
    out.append(("wrong seat", dataclasses.replace(rng.choice(legal), seat=other)))
    out.append(("wrong seat", A.EndTurn(other)))
    out.append(("wrong seat", A.RollDice(other)))
    # wrong phase
    if s.queue:
        out.append(("wrong phase", A.EndTurn(seat)))  # a decision is pending first
        out.append(("wrong phase", A.BuyDevCard(seat)))
    elif s.phase == "roll":
        out.append(("wrong phase", A.EndTurn(seat)))  # roll first (rule 5)
        out.append(("wrong phase", A.BuildRoad(seat, 0)))
        out.append(("wrong phase", A.RespondToTrade(seat, True)))
    else:
        out.append(("wrong phase", A.RollDice(seat)))  # already rolled
        out.append(("wrong phase", A.DiscardCard(seat, "brick")))  # nothing to discard for
        out.append(("wrong phase", A.Decline(seat)))
    # unaffordable builds in the free action phase
    if not s.queue and s.phase == "action":
        city = s.rules.cost("city")
        if p.towns and any(p.hand[k] < v for k, v in city.items()):
            out.append(("unaffordable", A.BuildCity(seat, min(p.towns))))
        if p.hand["science"] < 3 and s.plants_built == 0:
            for c in sorted(p.buildings()):
                for h in game.board.corner_hexes(c):
                    if game.board.hexes[h].number is not None:
                        out.append(("unaffordable", A.BuildPlant(seat, "renewable", c, h)))
                        break
                break
        dev = s.rules.cost("dev_card")
        if any(p.hand[k] < v for k, v in dev.items()):
            out.append(("unaffordable", A.BuyDevCard(seat)))
        if p.energy < s.rules.warehouse_energy and not p.warehouse:
            out.append(("unaffordable", A.BuildWarehouse(seat)))
    # nonsense values
    out += [
        ("nonsense", A.BuildRoad(seat, 999)),
        ("nonsense", A.BuildRoad(seat, -1)),
        ("nonsense", A.BuildTown(seat, 54)),
        ("nonsense", A.BuildCity(seat, 10**9)),
        ("nonsense", A.BuildPlant(seat, "nuclear", 0, 0)),
        ("nonsense", A.TradeWithSupply(seat, "gold", "brick")),
        ("nonsense", A.TradeWithSupply(seat, "brick", "gold")),
        ("nonsense", A.DiscardCard(seat, "gold")),
        ("nonsense", A.TakeCard(seat, "gold")),
        ("nonsense", A.PlayDevCard(seat, "gold")),
        ("nonsense", A.PlayDevCard(seat, "victory_point")),
        ("nonsense", A.MoveInspector(seat, 19)),
        ("nonsense", A.ChooseVictim(seat, 7)),
        ("nonsense", A.PlaceHazard(seat, 999)),
        ("nonsense", A.ChooseHex(seat, -3)),
        ("nonsense", A.RemoveHazard(seat, "sky", 0)),
        ("nonsense", A.OfferTrade(seat, seat, (("brick", 1),), (("food", 1),))),
        ("nonsense", A.OfferTrade(seat, other, (("gold", 1),), (("food", 1),))),
        ("nonsense", A.OfferTrade(seat, other, (("brick", -2),), (("food", 1),))),
        ("nonsense", A.RollDice(99)),
        ("nonsense", "roll the dice"),
        ("nonsense", A.SandboxEdit(-1, "teleport")),
        ("nonsense", A.SandboxEdit(seat, "give", ("gold", 1))),
        ("nonsense", A.SandboxEdit(seat, "give", ("brick", 10_000))),
        ("nonsense", A.SandboxEdit(seat, "dice", (0, 9))),
        ("nonsense", A.SandboxEdit(seat, "place", ("town",))),
    ]
    return out


def test_design_2_rejected_action_changes_nothing():
    """A rejected action raises IllegalActionError (a ValueError) whose reason equals
    why_illegal's, and leaves snapshot(), to_json(), the digest, the log and the random
    streams byte-identical (design §2: apply checks before it changes anything)."""
    tried: Counter = Counter()
    for seed in range(4):
        game = en.new_game(players=4 - seed % 2, seed=100 + seed)
        rng = random.Random(seed)
        bots = _bot_rng(100 + seed)
        while not game.is_over:
            if rng.random() < 0.1:
                before, quick = _fingerprint(game), _quick_print(game)
                for category, action in _illegal_candidates(game, rng):
                    reason = game.why_illegal(action)
                    assert reason, f"{category}: {action!r} was accepted by why_illegal"
                    with pytest.raises(en.IllegalActionError) as err:
                        game.apply(action)
                    assert isinstance(err.value, ValueError)
                    assert err.value.reason == reason
                    assert str(err.value) == reason
                    assert _quick_print(game) == quick, f"{category}: {action!r} changed the game"
                    tried[category] += 1
                # byte-identical snapshot() and to_json() after all those rejections
                assert _fingerprint(game) == before
            _step(game, bots)
    for category in ("wrong seat", "wrong phase", "unaffordable", "nonsense"):
        assert tried[category] >= 10, tried


def test_design_2_rejected_action_after_game_over_changes_nothing():
    """Once the game is over (rule 14), every action — even a formerly legal one — is refused."""
    game = en.new_game(players=3, seed=5)
    en.play(game, [BOT] * 3)
    before = _fingerprint(game)
    for action in (
        A.RollDice(0),
        A.EndTurn(game.active_seat),
        A.SandboxEdit(0, "give", ("brick", 1)),
    ):
        assert game.why_illegal(action)
        with pytest.raises(en.IllegalActionError):
            game.apply(action)
    assert _fingerprint(game) == before


def _action_phase_game() -> en.Game:
    """Seed 1, after the first roll and its decisions: the active seat acts freely."""
    game = en.new_game(seed=1)
    game.apply(A.RollDice(game.active_seat))
    rng = _bot_rng(1)
    while game.pending:
        _step(game, rng)
    return game


WRONG_TYPES = [
    # (action maker: seat -> action) — values of the wrong type, as a student might type them
    lambda s: A.BuildRoad(s, [3]),
    lambda s: A.BuildTown(s, [3]),
    lambda s: A.BuildCity(s, {"corner": 1}),
    lambda s: A.BuildPlant(s, ["fossil"], 1, 2),
    lambda s: A.BuildPlant(s, "fossil", [1], 2),
    lambda s: A.DemolishFossil(s, [1], 2),
    lambda s: A.RemoveHazard(s, "hex", [1]),
    lambda s: A.RemoveHazard(s, "building", {"a": 1}),
    lambda s: A.TradeWithSupply(s, ["brick"], "food"),
    lambda s: A.PlayDevCard(s, ["cleanup"]),
    lambda s: A.OfferTrade(s, (s + 1) % 4, "abc", "de"),
    lambda s: A.OfferTrade(s, [1], (("brick", 1),), (("food", 1),)),
    lambda s: A.RollDice([s]),
    lambda s: A.EndTurn(None),
    lambda s: A.SandboxEdit(-1, ["give"]),
    lambda s: A.SandboxEdit(s, "give", (["brick"], 1)),
    lambda s: A.SandboxEdit(s, "remove_hazard", ("hex", [1])),
]
WRONG_TYPE_IDS = [
    "road path list",
    "town corner list",
    "city corner dict",
    "plant kind list",
    "plant corner list",
    "demolish corner list",
    "hazard hex index list",
    "hazard building index dict",
    "trade give list",
    "dev card list",
    "offer goods text",
    "offer partner list",
    "roll seat list",
    "end turn seat None",
    "sandbox op list",
    "sandbox give kind list",
    "sandbox hazard index list",
]


@pytest.mark.parametrize("make", WRONG_TYPES, ids=WRONG_TYPE_IDS)
def test_design_2_wrong_typed_values_are_refused_not_crashed(make):
    """A value of the wrong type is nonsense too: why_illegal gives a reason and apply raises
    IllegalActionError (never a TypeError from deep inside the engine) and changes nothing."""
    game = _action_phase_game()
    action = make(game.current_seat)
    before = _fingerprint(game)
    reason = game.why_illegal(action)
    assert isinstance(reason, str) and reason
    with pytest.raises(en.IllegalActionError):
        game.apply(action)
    assert _fingerprint(game) == before


# -- (c) every listed action is legal ----------------------------------------------------------


@pytest.mark.parametrize("players", [4, 3])
def test_design_2_every_listed_action_passes_why_illegal(players: int):
    """legal_actions() and why_illegal() share one check: every listed action is legal and
    belongs to the seat that must decide; a sample of them really applies (on a fork)."""
    checked = applied = 0
    for seed in range(3):
        game = en.new_game(players=players, seed=300 + seed)
        rng = _bot_rng(300 + seed)
        sample = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            assert legal, "a running game must offer an action"
            assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
            for action in legal:
                assert action.seat == game.current_seat, action
                reason = game.why_illegal(action)
                assert reason is None, f"{action} is listed but why_illegal says: {reason}"
                checked += 1
            if sample.random() < 0.05:
                for action in sample.sample(legal, min(3, len(legal))):
                    fork = game.fork()
                    fork.apply(action)
                    assert check_invariants(fork.state) == []
                    applied += 1
            _step(game, rng)
    assert checked > 1000 and applied > 20


def _action_space(game: en.Game, s: int) -> list[A.Action]:
    """Every action with a single-card payload a seat could try, over the whole island."""
    b, n = game.board, game.rules.players
    kinds = CARD_KINDS + ("energy",)
    out: list[A.Action] = [A.RollDice(s), A.EndTurn(s), A.BuyDevCard(s), A.BuildWarehouse(s)]
    out += [A.Decline(s), A.RespondToTrade(s, True), A.RespondToTrade(s, False)]
    out.append(A.AskForProposals(s))  # rule 12.1
    out += [A.BuildRoad(s, p) for p in range(len(b.paths))]
    out += [A.BuildTown(s, c) for c in b.corners] + [A.BuildCity(s, c) for c in b.corners]
    for c in b.corners:
        for h in b.corner_hexes(c):
            out += [A.BuildPlant(s, "fossil", c, h), A.BuildPlant(s, "renewable", c, h)]
            out.append(A.DemolishFossil(s, c, h))
    out += [A.TradeWithSupply(s, give, get) for give in kinds for get in kinds]
    out += [
        A.OfferTrade(s, other, ((give, 1),), ((get, 1),))
        for other in range(n)
        for give in kinds
        for get in kinds
    ]
    out += [A.ProposeTrade(s, ((give, 1),), ((get, 1),)) for give in kinds for get in kinds]
    out += [A.RemoveHazard(s, "hex", h) for h in range(len(b.hexes))]
    out += [A.RemoveHazard(s, "building", c) for c in b.corners]
    out += [A.PlayDevCard(s, card) for card in DEV_CARDS]
    out += [A.DiscardCard(s, k) for k in kinds] + [A.TakeCard(s, k) for k in kinds]
    out += [A.MoveInspector(s, h) for h in range(len(b.hexes))]
    out += [A.ChooseVictim(s, v) for v in range(n)] + [A.PlaceHazard(s, c) for c in b.corners]
    out += [A.ChooseHex(s, h) for h in range(len(b.hexes))]
    return out


def test_design_2_legal_actions_lists_every_legal_action():
    """Conversely, every action why_illegal approves (over the whole island and every card
    kind, trades one-for-one) is listed by legal_actions — nothing legal is hidden from a bot
    or a widget. Sampled positions of quick-start and draft (rule 3.3) games."""
    positions = 0
    for seed, players, start in ((60, 4, "quick"), (61, 3, "quick"), (62, 4, "draft")):
        game = en.new_game(players=players, seed=seed, start=start)
        rng, sample = _bot_rng(seed), random.Random(seed)
        while not game.is_over:
            if sample.random() < 0.06:
                seat = game.current_seat
                approved = {a for a in _action_space(game, seat) if game.why_illegal(a) is None}
                missing = approved - set(game.legal_actions())
                assert not missing, f"legal but not listed: {sorted(map(str, missing))[:5]}"
                positions += 1
            _step(game, rng)
    assert positions > 30


_LISTING_VARIANTS = {
    "standard": {},
    # few pieces, so games run out of them; cheap energy actions and roomy towns
    "scarce pieces": {
        "towns": 3,
        "cities": 2,
        "roads": 6,
        "fossil_plants": 2,
        "renewable_plants": 2,
    },
    "roomy towns": {"town_plant_slots": 2, "plants_per_turn": 2, "hazard_removal_energy": 0},
    "no energy trades": {"energy_tradeable": False, "demolish_per_turn": 2, "warehouse_energy": 0},
}


@pytest.mark.parametrize("variant", sorted(_LISTING_VARIANTS))
def test_design_2_listing_equals_what_the_checks_approve(variant: str):
    """legal_actions() is built from one pass over the state (energies.newenergies.engine.listing and the
    decision listings), not by running every check. On positions of draft and quick-start
    games with random and persona bots — own turns and every kind of pending decision —
    it lists exactly the set why_illegal approves over the whole island (trades one-for-one),
    with no duplicates."""
    positions, decisions = 0, Counter()
    games = ((70, "random", "draft"), (71, "fossil", "quick"), (72, "green", "quick"))
    for seed, line_up, start in games + ((73, "balanced", "quick"),):
        rules = en.RuleSet.standard(4).replace(**_LISTING_VARIANTS[variant])
        game = en.new_game(seed=seed, rules=rules, start=start)
        bots = [en.bots.make_bot(line_up, seed=seed + s) for s in range(4)]
        rng, sample = _bot_rng(seed), random.Random(seed)
        while not game.is_over:
            if game.state.phase == "setup" or sample.random() < 0.25:
                seat, listed = game.current_seat, game.legal_actions()
                assert len(set(listed)) == len(listed), "an action is listed twice"
                approved = {a for a in _action_space(game, seat) if game.why_illegal(a) is None}
                assert set(listed) == approved, (
                    f"listed but illegal: {sorted(map(str, set(listed) - approved))[:5]}; "
                    f"legal but not listed: {sorted(map(str, approved - set(listed)))[:5]}"
                )
                positions += 1
                decisions[game.state.queue[0].kind if game.state.queue else "own turn"] += 1
            seat = game.current_seat
            game.apply(bots[seat].decide(game, game.legal_actions(), rng))
    assert positions > 200
    expected = {"own turn", "setup_town", "setup_road", "discard", "trade_response", "place_hazard"}
    expected.add("propose_trade")  # rule 12.1
    assert expected <= set(decisions), decisions


def test_design_2_rare_decisions_list_what_the_checks_approve():
    """The decisions random games reach least often (development cards, Production
    Increase, Cleanup) are listed exactly as why_illegal approves, at every occurrence.
    (High Yield's choice of hexes is held to its checks in test_rules_energies.py.)"""
    rare = {"free_road", "cleanup", "free_fossil", "choose_victim", "take_card"}
    seen: Counter = Counter()
    for seed in range(80, 200):
        game = en.new_game(players=4, seed=seed)
        rng = _bot_rng(seed)
        while not game.is_over:
            kind = game.state.queue[0].kind if game.state.queue else None
            if kind in rare:
                seat, listed = game.current_seat, game.legal_actions()
                approved = {a for a in _action_space(game, seat) if game.why_illegal(a) is None}
                assert set(listed) == approved and len(set(listed)) == len(listed), kind
                seen[kind] += 1
            _step(game, rng)
        if min(seen[k] for k in rare) >= 3:
            break
    assert min(seen[k] for k in rare) >= 3, seen


def test_design_2_a_refused_offer_returns_to_the_listing_before_it():
    """A refused offer changes nothing but the count of offers (rule 12.1), so the engine
    keeps the options listed before it — less the offers once the limit is reached — and
    they equal a fresh listing; an edit while the offer is open makes it list afresh."""
    game = _action_phase_game()
    limit = game.rules.trade_offers_per_turn
    for made in range(1, limit + 1):
        before = game.legal_actions()
        offer = next(a for a in before if isinstance(a, A.OfferTrade))
        game.apply(offer)
        game.apply(A.RespondToTrade(offer.partner, False))
        assert game.state.cache.listed is not None  # kept, not listed again
        after = game.legal_actions()
        assert after == engine.list_actions(game.state)
        if made < limit:
            assert after == before
        else:
            assert after == [a for a in before if not isinstance(a, A.OfferTrade)] != before

    game = _action_phase_game()
    seat = game.active_seat
    before = game.legal_actions()
    offer = next(a for a in before if isinstance(a, A.OfferTrade))
    game.apply(offer)
    game.apply(A.SandboxEdit(seat, "give", ("lumber", 5)))  # a teacher edits meanwhile
    game.apply(A.RespondToTrade(offer.partner, False))
    after = game.legal_actions()
    assert after == engine.list_actions(game.state) != before


def test_design_2_building_spots_are_kept_per_seat_until_their_pieces_move():
    """Every seat's building spots are found once and kept (GameState.cache.spots) through actions
    that move no piece and through other turns; a road drops the builder's road and town
    spots and takes its path from the others' road spots, a demolition the builder's plant spots, a town or city all of them,
    and a teacher's edit all of them; a plant leaves only the builder's plant spots changed
    (those it took go). The listing always equals a fresh one, and so does every kept entry
    (the invariant checker)."""
    kept_through, dropped_by, planted = set(), set(), 0
    for seed in range(10):
        game = en.new_game(players=4, seed=seed)
        rng = _bot_rng(seed)
        while not game.is_over:
            legal = game.legal_actions()
            before = {s: dict(found) for s, found in (game.state.cache.spots or {}).items()}
            action = BOT.decide(game, legal, rng)
            game.apply(action)
            after = game.state.cache.spots or {}
            for seat, found in before.items():
                for key in found:
                    kept = key in after.get(seat, {})
                    (kept_through if kept else dropped_by).add(type(action).__name__)
                    if type(action) is A.BuildRoad and key not in ("road", "town"):
                        assert kept or game.is_over, (action, seat, key)
                    if type(action) is A.BuildRoad and key == "road" and seat != action.seat:
                        assert kept or game.is_over, (action, seat, key)  # less the path taken
                        if kept:
                            assert [a.path for a in after[seat][key]] == [
                                a.path for a in found[key] if a.path != action.path
                            ]
                    if type(action) is A.BuildPlant and kept and isinstance(key, tuple):
                        assert action not in after[seat][key]  # the spot it took is gone
                        if seat == action.seat:
                            planted += 1
                        else:  # another seat's plant spots stay as found
                            assert after[seat][key] is found[key]
            if not game.is_over:
                assert game.legal_actions() == engine.list_actions(game.state), action
                assert check_invariants(game.state) == [], action
    assert {"TradeWithSupply", "RespondToTrade", "EndTurn", "RollDice"} <= kept_through
    assert {"BuildRoad", "DemolishFossil"} <= dropped_by
    assert not kept_through & {"BuildTown", "BuildCity"}
    assert "BuildPlant" in kept_through and planted

    game = _action_phase_game()
    game.legal_actions()
    assert game.state.cache.spots
    game.apply(A.SandboxEdit(game.active_seat, "give", ("lumber", 1)))
    assert game.state.cache.spots is None


def test_checker_catches_kept_spots_gone_stale(monkeypatch):
    """If the engine forgot to drop spots a piece changed, the checker says so."""
    monkeypatch.setattr(engine, "keep_spots", lambda spots, action, state: spots)  # never drop
    stale = _first_stale_spots()
    assert stale and "not those found afresh" in stale[0]


def _first_stale_spots() -> list[str]:
    """The checker's complaints about kept spots at the first action of a few random games
    that draws one (none if no action does)."""
    for seed in range(6):
        game = en.new_game(players=4, seed=seed)
        rng = _bot_rng(seed)
        while not game.is_over:
            game.apply(BOT.decide(game, game.legal_actions(), rng))
            stale = [v for v in check_invariants(game.state) if "spots" in v]
            if stale:
                return stale
    return []


def test_checker_catches_kept_plant_spots_not_updated(monkeypatch):
    """Were the builder's plant spots kept unchanged after a plant (listing.plant_spots_after
    doing nothing), the checker says so."""
    monkeypatch.setattr(engine, "plant_spots_after", lambda spots, state, built: spots)
    stale = _first_stale_spots()
    assert stale and "not those found afresh" in stale[0]


def test_checker_catches_kept_corner_owners_gone_stale(monkeypatch):
    """Were the corner owners kept past a new town (GameState.cache.owners), the checker says so;
    the engine drops them, so production pays the new town."""
    from energies.newenergies.engine import effects

    def build_town_keeping_owners(state, a, paid=True):
        owners = state.cache.owners
        real_build_town(state, a, paid)
        state.cache.owners = owners  # the engine forgetting to drop them

    real_build_town = effects.do_build_town
    game = _action_phase_game()
    state, seat = game.state, game.active_seat
    state.corner_owners()
    corner = _free_corners(state, 1)[0]
    monkeypatch.setattr(effects, "do_build_town", build_town_keeping_owners)
    effects.do_build_town(state, A.BuildTown(seat, corner), paid=False)
    assert "the corner owners the state keeps are not those of the pieces" in check_invariants(
        state, distance_rule=False
    )
    state.cache.owners = None
    real_build_town(state, A.BuildTown(seat, corner), paid=False)
    assert state.cache.owners is None and state.corner_owners()[corner] == seat


def test_checker_catches_kept_road_lengths_gone_stale():
    """Were the award's road lengths kept past a change of the roads the engine did not see,
    the checker says so (GameState.cache.road_lengths; the engine drops them with every new town
    or city and recounts the builder's after a road)."""
    game = en.new_game(players=4, seed=3)
    rng = _bot_rng(3)
    while game.state.cache.road_lengths is None or not any(game.state.cache.road_lengths.values()):
        _step(game, rng)  # until someone's network counts for the award
    state = game.state
    seat = next(s for s, n in state.cache.road_lengths.items() if n)
    kept = dict(state.cache.road_lengths)
    state.players[seat].roads.clear()  # as if roads were lost without the engine knowing
    assert state.cache.road_lengths == kept
    problems = check_invariants(state, distance_rule=False)
    assert "the road lengths the state keeps are not those of the roads (rule 13.6)" in problems


def test_every_per_state_speed_cache_sits_in_one_object():
    """GameState keeps its speed caches in one EngineCache (energies.newenergies.cache): left
    out of equality and repr, copied by a fork as the fork's own; forget("building") drops the
    corner owners and road lengths, forget() every cache, and an unknown change is an error."""
    game = _action_phase_game()
    state = game.state
    game.legal_actions()
    state.corner_owners()
    game.view(game.active_seat)
    cache = state.cache
    assert None not in (cache.listed, cache.spots, cache.view_stamp, cache.owners)
    names = {f.name for f in dataclasses.fields(state) if not f.compare or not f.repr}
    assert names == {"keep_history", "cache"} and "cache" not in repr(state)

    fork = game.fork()
    assert fork.state.cache is not cache and fork.state.cache.listed == cache.listed
    fork.state.cache.forget()
    assert cache.listed is not None and fork.legal_actions() == game.legal_actions()

    cache.forget("building")
    assert cache.owners is None and cache.road_lengths is None and cache.listed is not None
    cache.forget()
    assert all(getattr(cache, name) is None for name in cache.__slots__)
    with pytest.raises(ValueError, match="unknown change"):
        cache.forget("town")
    assert state.cache is cache and check_invariants(state) == []  # found again when asked


def test_checker_catches_a_wrong_answer_of_what_a_hand_buys():
    """The per-hand answers of listing.hand_buys are compared with the costs themselves."""
    from energies.newenergies.engine import listing

    game = _action_phase_game()
    assert check_invariants(game.state) == []
    kept = listing._BUYS[2]  # {card counts: answer}, the counts of every hand seen so far
    assert kept
    for counts, answer in kept.items():  # corrupt every kept answer
        kept[counts] = (not answer[0], *answer[1:])
    try:
        assert any("can pay for" in v for v in check_invariants(game.state))
    finally:
        kept.clear()
    assert check_invariants(game.state) == []


# -- (d) the checker detects corruption --------------------------------------------------------


def _free_corners(state, count: int) -> list[int]:
    """Corners far from every building (so only the mutation under test is a violation)."""
    taken = {c for p in state.players for c in p.buildings()}
    free = []
    for c in state.board.corners:
        near = {c, *state.board.corner_neighbors(c)}
        if not near & taken:
            free.append(c)
            taken.add(c)
        if len(free) == count:
            break
    return free


def _add_card(s):
    s.players[0].hand["brick"] += 1


def _supply_loses_science(s):
    s.supply["science"] -= 1


def _negative_hand(s):
    s.players[1].hand["food"] = -1
    s.supply["food"] += 1


def _sixth_town(s):
    p = s.players[0]
    extra = s.rules.towns + 1 - len(p.towns)
    p.towns.update(_free_corners(s, extra))


def _remove_bag_disc(s):
    s.bag.pop()


def _lose_green_slot(s):
    s.players[2].green_slots.pop()


def _energy_over_cap(s):
    s.players[0].energy = s.rules.energy_cap + 1
    s.energy_supply -= s.rules.energy_cap + 1


def _energy_vanishes(s):
    s.energy_supply -= 1


def _steal_dev_card(s):
    s.dev_deck.pop()


def _dev_card_kind_swapped(s):
    s.dev_deck[s.dev_deck.index("cleanup")] = "victory_point"


def _two_buildings_one_corner(s):
    s.players[1].towns.add(min(s.players[0].buildings()))


def _two_roads_one_path(s):
    s.players[1].roads.add(min(s.players[0].roads))


def _thirteenth_road(s):
    s.players[0].roads.update(range(s.rules.roads + 1))


def _town_next_to_town(s):
    c = min(s.players[0].towns)
    s.players[1].towns.add(s.board.corner_neighbors(c)[0])


def _plant_on_desert(s):
    s.rules = s.rules.replace(plants_on_desert=False)  # the desert is allowed by default
    desert = s.board.desert
    c = s.board.hex_corners(desert)[0]
    s.players[0].towns.add(c)
    s.players[0].plants[(c, desert)] = "renewable"


def _plant_without_building(s):
    c = _free_corners(s, 1)[0]
    h = next(h for h in s.board.corner_hexes(c) if s.board.hexes[h].number is not None)
    s.players[0].plants[(c, h)] = "fossil"


def _plant_on_far_hex(s):
    c = min(s.players[0].cities)
    far = next(h.id for h in s.board.hexes if c not in h.corners and h.number is not None)
    s.players[0].plants[(c, far)] = "fossil"


def _two_plants_on_town(s):
    p = s.players[0]
    c = min(p.towns)
    for h in s.board.corner_hexes(c):
        if s.board.hexes[h].number is not None:
            p.plants[(c, h)] = "fossil"


def _too_many_hazards(s):
    s.hex_hazards.update(range(s.rules.hazard_tokens + 1))


def _hazard_on_empty_corner(s):
    s.building_hazards.add(_free_corners(s, 1)[0])


def _full_event_row(s):
    disc = ("brown", "air_pollution")
    for _ in range(s.rules.spaces("air_pollution")):
        s.bag.remove(disc)
        s.event_board["air_pollution"].append(disc)


def _disc_on_wrong_row(s):
    disc = ("brown", "air_pollution")
    s.bag.remove(disc)
    s.event_board["rain_and_flooding"].append(disc)


def _phantom_longest_road(s):
    s.longest_road_holder = 0


def _too_many_plants_this_turn(s):
    s.plants_built = s.rules.plants_per_turn + 1


def _stuck_game(s):
    s.queue.insert(0, Task("nonsense", s.active))


def _bad_active_seat(s):
    s.active = 9


def _unclaimed_victory(s):
    s.longest_road_holder = s.active
    s.players[s.active].towns.update(c for c in range(54) if s.owner_of(c) is None)


def _stale_listing(s):
    # the listing the engine keeps, after a change that did not go through the engine
    engine.legal_actions(s)
    s.players[engine.current_seat(s)].hand["lumber"] += 5
    s.supply["lumber"] -= 5


MUTATIONS = [
    ("add a card to a hand (§1)", _add_card, "brick cards not conserved"),
    ("science leaves the game (§1)", _supply_loses_science, "science cards not conserved"),
    ("negative hand count", _negative_hand, "must be >= 0"),
    ("a 6th town (§1)", _sixth_town, "6 towns on the board, more than the 5"),
    ("remove a disc from the bag (rule 3.1)", _remove_bag_disc, "event discs not conserved"),
    (
        "a green disc under a slot vanishes (rule 10.4)",
        _lose_green_slot,
        "event discs not conserved",
    ),
    ("energy above the cap (rule 8.4)", _energy_over_cap, "outside 0..5 (rule 8.4)"),
    ("an energy token vanishes (§1)", _energy_vanishes, "energy not conserved"),
    ("a development card vanishes (§1)", _steal_dev_card, "development cards not conserved"),
    (
        "a Cleanup becomes a VP card (§1)",
        _dev_card_kind_swapped,
        "victory_point development cards not conserved",
    ),
    ("two buildings on a corner", _two_buildings_one_corner, "holds 2 buildings"),
    ("two roads on a path", _two_roads_one_path, "holds 2 roads"),
    ("a 13th road (§1)", _thirteenth_road, "more than the 12"),
    ("distance rule (rule 10.1)", _town_next_to_town, "distance rule"),
    ("plant on the desert (rule 10.2)", _plant_on_desert, "stands on the desert"),
    (
        "plant without its building (rule 10.2)",
        _plant_without_building,
        "does not belong to one of its owner's buildings",
    ),
    (
        "plant on a hex its building does not touch (rule 10.2)",
        _plant_on_far_hex,
        "does not touch the building",
    ),
    ("two plants on a town (rule 10.2)", _two_plants_on_town, "at most 1 (rule 10.2)"),
    ("more hazards than tokens (§1)", _too_many_hazards, "only 10 tokens exist"),
    ("building hazard without a building", _hazard_on_empty_corner, "which has no building"),
    ("a full event row that did not fire (rule 6.2)", _full_event_row, "a full row must fire"),
    ("a disc on the wrong row (rule 6.2)", _disc_on_wrong_row, "lies on the rain_and_flooding row"),
    (
        "Longest Road without a long road (rule 13.6)",
        _phantom_longest_road,
        "holds Longest Road with a road of only",
    ),
    ("two plants in one turn (rule 10.3)", _too_many_plants_this_turn, "plants built this turn"),
    ("a running game with no legal action", _stuck_game, "has no legal action"),
    ("the active seat is not at the table", _bad_active_seat, "is not a seat at the table"),
    ("a kept listing of another position", _stale_listing, "the state keeps"),
    ("10 VP on one's own turn and no winner (rule 14.1)", _unclaimed_victory, "the game goes on"),
]


@pytest.mark.parametrize(("what", "mutate", "expected"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_check_invariants_detects_corruption(what, mutate, expected):
    """The checker is not a no-op: each corruption is reported with a sentence naming it."""
    game = en.new_game(players=4, seed=11)
    rng = _bot_rng(11)
    for _ in range(25):
        _step(game, rng)
    assert check_invariants(game.state) == []
    mutate(game.state)
    problems = check_invariants(game.state)
    assert any(expected in p for p in problems), f"{what}: {problems}"


@pytest.mark.parametrize(
    ("method", "fake"),
    [("local_footprint", lambda self, seat: 99), ("victory_points", lambda self, seat: -5)],
)
def test_check_invariants_recomputes_lf_and_vp_itself(monkeypatch, method, fake):
    """LF (rule 4.1), GF (4.2) and VP (13.8) are recomputed from the pieces, so a wrong
    engine helper is caught instead of being compared with itself."""
    game = en.new_game(players=3, seed=2)
    monkeypatch.setattr(type(game.state), method, fake)
    if method == "local_footprint":  # GF sums the same per-player helper (state.footprint)
        monkeypatch.setattr(en.newenergies.state, "footprint", lambda rules, p: 99)
    problems = check_invariants(game.state)
    label = {"local_footprint": "LF is 99", "victory_points": "VP is -5"}[method]
    assert any(label in p for p in problems), problems
    if method == "local_footprint":
        assert any(p.startswith("GF is") for p in problems), problems


def test_check_invariants_recomputes_gf_itself(monkeypatch):
    """GF is the clamped sum of LF (rule 4.2), recomputed rather than read."""
    game = en.new_game(players=4, seed=2)
    monkeypatch.setattr(type(game.state), "global_footprint", property(lambda self: 28))
    problems = check_invariants(game.state)
    assert any("GF is 28 but the clamped sum of LF is 12" in p for p in problems), problems


def test_check_invariants_clean_at_start_and_after_sandbox_edits():
    """A fresh game (rules 3.1-3.5) and a sandbox-built position obey every invariant; sandbox
    placements may skip the distance rule on purpose, so that check can be switched off."""
    for players in (3, 4):
        for start in ("quick", "draft"):
            assert check_invariants(en.new_game(players=players, seed=1, start=start).state) == []
    game = en.new_game(seed=4)
    en.sandbox.clear_board(game)
    en.sandbox.place(game, 0, "town", 20)
    en.sandbox.place(game, 1, "town", game.board.corner_neighbors(20)[0])
    en.sandbox.give(game, 0, steel=3, energy=2)
    assert check_invariants(game.state, distance_rule=False) == []
    assert any("distance rule" in p for p in check_invariants(game.state))


def test_a_view_reusing_stale_public_copies_is_a_violation():
    """The views' kept copies (engine.QUIET) are checked against fresh ones: a card moved
    behind the engine's back while a view's copies are kept shows up as a violation."""
    game = en.new_game(players=4, seed=3)
    rng = random.Random(3)
    while not (game.state.queue and game.state.queue[0].kind == "propose_trade"):
        game.apply(rng.choice(game.legal_actions()))
    state = game.state
    game.view(game.current_seat)  # copies kept: the next trade-window answer keeps them
    game.apply(next(a for a in game.legal_actions() if a.kind == "decline"))
    assert check_invariants(state) == []
    giver = next(p for p in state.players if p.cards > 0)
    taker = state.players[(giver.seat + 1) % 4]
    kind = next(k for k, n in giver.hand.items() if n > 0)
    giver.hand[kind] -= 1  # the totals still add up: only the view copies are stale now
    taker.hand[kind] += 1
    assert any("kept copies differs" in p for p in check_invariants(state))


def test_a_set_up_task_is_skipped_exactly_when_it_lists_no_answer():
    """The turn machine asks ``decisions.has_setup_choice`` instead of listing set-up options
    (speed); it answers as ``real_choices`` would, also with no piece or no corner left."""
    from energies.newenergies.engine import decisions

    def agree(state) -> int:
        compared = 0
        corners = [c for p in state.players for c in (*p.towns, *p.cities)] or [0]
        for kind in sorted(decisions.SETUP_TASKS):
            for seat in range(state.n):
                for corner in corners:
                    task = Task(kind, seat, {"corner": corner})
                    listed = bool(decisions.real_choices(state, task))
                    assert decisions.has_setup_choice(state, task) is listed, (kind, seat)
                    compared += listed
        return compared

    game = en.new_game(players=4, seed=5, start="draft")
    answered = 0
    while game.state.phase == "setup":
        answered += agree(game.state)
        game.apply(game.legal_actions()[-1])
    state = game.state
    assert answered and agree(state)
    rules = state.rules
    crowded = state.players[0]
    crowded.towns.update(state.board.corners[: rules.towns])  # no town piece left
    crowded.roads.update(range(len(state.board.paths)))  # every path taken
    agree(state)
    assert not decisions.has_setup_choice(state, Task("setup_town", 0, {}))
    assert not decisions.has_setup_choice(state, Task("setup_road", 1, {"corner": 0}))
    assert decisions.has_setup_choice(state, Task("setup_town", 1, {}))
    state.players[1].towns.update(state.board.corners[:14])  # too many to skip the search
    agree(state)
    assert decisions.has_setup_choice(state, Task("setup_city", 2, {}))
    for p in state.players:
        p.towns.update(state.board.corners)  # no free corner anywhere
    agree(state)
    assert not decisions.has_setup_choice(state, Task("setup_city", 1, {"corner": 0}))
