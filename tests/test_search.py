"""The search player: seeded, blind to hidden information, better than the personas in their seat."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import energies as en
from energies.bots.plan import GREEN_WEIGHTS, planner
from energies.bots.search import SearchPlayer, determinize
from energies.bots.search.candidates import ranked
from energies.newenergies.rules import CARD_KINDS
from energies.runner import bot_seed

LOW_BUDGET = 8  # rollouts per decision: enough to exercise the search, quick in a test


def _view(game, seat: int):
    """What a bot receives for ``seat``: the information-set view where the kit has one."""
    return game.view(seat) if hasattr(game, "view") else game


def _searched_position(seed: int = 11):
    """A game paused in a seat's action phase (turn > 8) where the search has a real choice."""
    game = en.new_game(4, seed=seed, history=False)
    personas = [en.bots.make_bot(name, seed=s) for s, name in enumerate(["green", "balanced"] * 2)]
    rng = random.Random(seed)
    while True:
        state = game.state
        seat = game.current_seat
        legal = game.legal_actions()
        if state.turn > 8 and state.phase == "action" and not state.queue:
            probe = SearchPlayer(seed=1, budget=LOW_BUDGET)
            probe.decide(_view(game, seat), legal, random.Random(0))
            if probe.searched:
                return game, seat
        game.apply(personas[seat].decide(_view(game, seat), legal, rng))


def _hide_differently(game, me: int, seed: int):
    """A copy of ``game`` that differs from it only in what seat ``me`` cannot see."""
    other = game.fork()
    state, rng = other.state, random.Random(seed)
    totals = Counter(state.supply)
    for p in state.players:
        totals.update(p.hand)
    for p in state.players:  # the others' hands: other cards, the same number of them
        if p.seat == me:
            continue
        pool = sorted((totals - Counter(state.players[me].hand)).elements())
        for q in state.players:
            if q.seat not in (me, p.seat):
                pool = sorted((Counter(pool) - Counter(q.hand)).elements())
        new = Counter(rng.sample(pool, p.cards))
        p.hand = {k: new.get(k, 0) for k in CARD_KINDS}
    held = Counter()
    for p in state.players:
        held.update(p.hand)
    state.supply = {k: totals[k] - held[k] for k in CARD_KINDS}
    for p in state.players:  # their development cards swap with the deck's
        if p.seat != me and p.dev_cards and state.dev_deck:
            p.dev_cards[0], state.dev_deck[0] = state.dev_deck[0], p.dev_cards[0]
    rng.shuffle(state.dev_deck)
    greens = [d[1] for d in state.bag if d[0] == "green"]  # face-down symbols move around
    for p in state.players:
        greens += p.green_slots
    rng.shuffle(greens)
    for p in state.players:
        p.green_slots = [greens.pop() for _ in p.green_slots]
    state.bag = [d if d[0] == "brown" else ("green", greens.pop()) for d in state.bag]
    rng.shuffle(state.bag)
    state.rng = {k: random.Random(f"other:{seed}:{k}") for k in state.rng}
    state.cache.forget()
    return other


# a plan with every Planner branch switched on (the race, the fossil allowance, new weights)
BUSY_PLAN = {"science_value": 2.5, "race_boost": 3.0, "race_rounds": 3, "fossil_lead": 2.0}


@pytest.mark.parametrize("plan", ["green", "tuned", BUSY_PLAN])
def test_same_seed_same_game(plan):
    def play(seed):
        game = en.new_game(4, seed=seed, history=False)
        search = SearchPlayer(seed=5, budget=LOW_BUDGET, plan=plan)
        bots = [search, "green", "balanced", "freerider"]
        bots = [en.bots.make_bot(b, seed=bot_seed(seed, s)) for s, b in enumerate(bots)]
        en.play(game, bots)
        return game.digest(), [str(a) for a in game.actions], bots[0].searched

    first, again = play(3), play(3)
    assert first == again
    assert first[2] > 5  # the search really ran


def test_make_bot_names_the_search_players():
    assert en.bots.make_bot("search").plants is None
    assert en.bots.make_bot("search-fossil").plants == "fossil"
    assert en.bots.make_bot("Search-Green").plants == "renewable"
    assert isinstance(en.bots.make_bot("strong"), SearchPlayer)  # the PlayApp's "Strong"
    with pytest.raises(ValueError, match="search"):
        en.bots.make_bot("serach")
    with pytest.raises(ValueError, match="budget"):
        SearchPlayer(budget=0)
    with pytest.raises(ValueError, match="depth"):
        SearchPlayer(depth=0)


@pytest.mark.parametrize("plan", ["tuned", "green", BUSY_PLAN])
def test_hidden_information_changes_nothing(plan):
    game, me = _searched_position()
    for variant_seed in (1, 2, 3):
        other = _hide_differently(game, me, variant_seed)
        # the hidden parts really differ...
        assert other.digest() != game.digest()
        assert other.state.players[me].hand == game.state.players[me].hand
        # ...but the sampled world and the decision are the same for the same sample seed
        worlds = [determinize(_view(g, me), random.Random(4), me) for g in (game, other)]
        assert worlds[0].to_dict() == worlds[1].to_dict()
        decisions = []
        for g in (game, other):
            bot = SearchPlayer(seed=9, budget=LOW_BUDGET, plan=plan)
            decisions.append(bot.decide(_view(g, me), g.legal_actions(), random.Random(0)))
            assert bot.searched == 1
        assert decisions[0] == decisions[1]


def test_determinize_keeps_what_the_seat_knows():
    game, me = _searched_position()
    world = determinize(_view(game, me), random.Random(0), me)
    real = game.state
    assert world.players[me].hand == real.players[me].hand
    assert sorted(world.players[me].dev_cards) == sorted(real.players[me].dev_cards)
    for s in range(4):
        assert world.players[s].cards == real.players[s].cards
        assert len(world.players[s].dev_cards) == len(real.players[s].dev_cards)
        assert world.victory_points(s) - world.players[s].dev_cards.count("victory_point") == (
            real.victory_points(s) - real.players[s].dev_cards.count("victory_point")
        )
    assert len(world.dev_deck) == len(real.dev_deck)
    assert sorted(d for d in world.bag if d[0] == "brown") == sorted(
        d for d in real.bag if d[0] == "brown"
    )
    assert len(world.bag) == len(real.bag)
    for kind in CARD_KINDS:  # every card is somewhere: hands plus supply keep the totals
        held = sum(p.hand[kind] for p in world.players) + world.supply[kind]
        assert held == sum(p.hand[kind] for p in real.players) + real.supply[kind]

    # the same options: offers too, since rule 12.1 judges them from public facts
    assert en.newenergies.engine.legal_actions(world) == game.legal_actions()


def test_determinize_keeps_the_turns_trade_counters():
    """A sampled world allows as many more offers and proposals this turn as the real game."""
    game = en.new_game(4, seed=5, history=False)
    personas = [en.bots.make_bot(name, seed=s) for s, name in enumerate(["balanced"] * 4)]
    rng = random.Random(5)
    while not (game.state.proposals_made and game.state.phase == "action" and not game.state.queue):
        seat = game.current_seat
        game.apply(personas[seat].decide(_view(game, seat), game.legal_actions(), rng))
    me = game.state.active
    world = determinize(_view(game, me), random.Random(0), me)
    assert world.proposals_made == game.state.proposals_made
    assert world.offers_made == game.state.offers_made
    assert en.newenergies.engine.legal_actions(world) == game.legal_actions()


MATCH_BUDGET = 32  # rollouts per decision in the match: 4 worlds for 8 candidates
MATCH_SEEDS = range(100, 116)
TABLE = ("green", "balanced", "freerider")  # the benchmark's table (the strongest personas)


def _match_wins(player: str, budget: int = MATCH_BUDGET) -> float:
    """Wins of ``player`` in the seeded match: game i seats it at i % 4 among the table."""
    wins = 0.0
    for index, seed in enumerate(MATCH_SEEDS):
        lineup = list(TABLE)
        lineup.insert(index % 4, player)
        game = en.new_game(4, seed=seed, history=False)
        bots = [en.bots.make_bot(b, seed=bot_seed(seed, s)) for s, b in enumerate(lineup)]
        if player == "search":
            bots[index % 4].budget = budget
        outcome = en.play(game, bots)
        if index % 4 in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins


@pytest.fixture(scope="module")
def search_match_wins() -> float:
    return _match_wins("search")


# "Beats": in the same seeded games, in the same seat, against the same table, the search
# player wins more games than the persona does. The margins of 16 games are small (against
# GreenInvestor 7 wins to 5); the measured gain over it, with its interval, is the 200-game
# paired benchmark's (benchmarks/results/search_strength.md).
@pytest.mark.parametrize("persona", ["random", "fossil", "freerider", "balanced", "green"])
def test_beats_the_persona_in_its_seat_in_a_small_match(persona, search_match_wins):
    assert search_match_wins > _match_wins(persona)


def _plant_position(rules, seed: int = 4):
    """A game paused in a seat's free action phase where it may build either plant kind."""
    game = en.new_game(rules=rules, seed=seed, history=False)
    bots = [en.bots.make_bot(b, seed=s) for s, b in enumerate(["fossil", "green"] * 2)]
    rng = random.Random(seed)
    while game.current_seat is not None:
        state, seat, legal = game.state, game.current_seat, game.legal_actions()
        kinds = {a.plant for a in legal if a.kind == "build_plant"}
        if state.phase == "action" and not state.queue and kinds == {"fossil", "renewable"}:
            return game, seat
        game.apply(bots[seat].decide(_view(game, seat), legal, rng))
    raise AssertionError("no position with both plant kinds buildable")


@pytest.mark.parametrize("rules", ["published", "lesson-04"])
def test_each_plant_kind_the_player_may_build_is_a_candidate(rules):
    ruleset = en.RuleSet.standard(4)
    if rules == "lesson-04":
        ruleset = ruleset.replace(plant_vp=1, victory_points=8)
    game, seat = _plant_position(ruleset)
    world = determinize(_view(game, seat), random.Random(0), seat)
    for name, allowed in (
        ("search", {"fossil", "renewable"}),
        ("search-fossil", {"fossil"}),
        ("search-green", {"renewable"}),
    ):
        bot = en.bots.make_bot(name, seed=1)
        legal = [a for a in game.legal_actions() if a.kind != "offer_trade"]
        legal = [a for a in legal if a.kind != "build_plant" or a.plant in allowed]
        candidates = bot._candidates(world, legal, seat)
        assert {a.plant for a in candidates if a.kind == "build_plant"} == allowed
        assert any(a.kind == "end_turn" for a in candidates)
        assert len(set(candidates)) == len(candidates)


def test_rivals_are_modelled_by_the_persona_their_public_plants_look_like():
    from energies.bots import Balanced, FreeRider, GreenInvestor

    game, me = _searched_position()
    world = determinize(_view(game, me), random.Random(1), me)
    rival = (me + 1) % 4
    reader, blind = SearchPlayer(read_opponents=True), SearchPlayer()
    for plants, persona in (
        ({}, Balanced),
        ({0: "fossil"}, FreeRider),
        ({0: "renewable"}, Balanced),  # one plant says little
        ({0: "renewable", 1: "renewable"}, GreenInvestor),
        ({0: "renewable", 1: "renewable", 2: "fossil"}, Balanced),
    ):
        world.players[rival].plants = dict(plants)  # only the kinds count here
        assert type(reader._other_persona(world, rival)) is persona
        assert type(blind._other_persona(world, rival)) is Balanced


def test_rollouts_play_the_game_out_when_the_bag_is_nearly_empty():
    game, me = _searched_position()
    world = determinize(_view(game, me), random.Random(1), me)
    player = SearchPlayer(finish_rounds=2)
    assert player._rounds(world) == player.depth  # a full bag: one round and the evaluation
    world.bag = world.bag[:2]
    assert player._rounds(world) > 2  # past the bag's end: rule 14.2 decides, not the fit
    assert SearchPlayer()._rounds(world) == 1  # finish_rounds=0: never
    with pytest.raises(ValueError, match="finish_rounds"):
        SearchPlayer(finish_rounds=-1)


def _trade_position(kind: str, seed: int = 3):
    """A game paused where a seat must answer a rule 12.1 proposal (or would make one)."""
    game = en.new_game(4, seed=seed, history=False)
    personas = [en.bots.make_bot(b, seed=s) for s, b in enumerate(["green", "balanced"] * 2)]
    rng = random.Random(seed)
    while game.current_seat is not None:
        state, seat, legal = game.state, game.current_seat, game.legal_actions()
        if state.queue and state.queue[0].kind == kind and len(legal) > 1:
            probe = en.bots.GreenInvestor().decide(_view(game, seat), legal, random.Random(0))
            if probe.kind != "decline":  # the search player's persona would propose
                return game, seat
        game.apply(personas[seat].decide(_view(game, seat), legal, rng))
    raise AssertionError(f"no {kind} decision")


@pytest.mark.parametrize("kind", ["trade_response", "propose_trade"])
def test_trade_decisions_are_searched_only_when_asked(kind):
    game, seat = _trade_position(kind)
    legal = game.legal_actions()
    searching = SearchPlayer(seed=2, budget=LOW_BUDGET, search_trades=True)
    choice = searching.decide(_view(game, seat), legal, random.Random(0))
    assert choice in legal
    assert searching.searched == 1  # accept or decline; the persona's proposal or passing
    plain = SearchPlayer(seed=2, budget=LOW_BUDGET)
    assert plain.decide(_view(game, seat), legal, random.Random(0)) in legal
    assert plain.searched == 0  # the persona answers


def test_the_plan_reads_only_the_view():
    game, me = _searched_position()
    busy = planner(BUSY_PLAN)
    for variant_seed in (1, 2, 3):
        other = _hide_differently(game, me, variant_seed)
        legal = game.legal_actions()
        assert other.legal_actions() == legal
        choices = [busy.decide(_view(g, me), legal, random.Random(0)) for g in (game, other)]
        assert choices[0] == choices[1]
        rankings = [ranked(busy, _view(g, me), legal) for g in (game, other)]
        assert rankings[0] == rankings[1]  # every action ranked alike, not just the first


def test_the_plan_with_greens_weights_plays_as_green_investor():
    def play(bot):
        game = en.new_game(4, seed=21, history=False)
        rivals = [en.bots.make_bot(name, seed=s) for s, name in enumerate(TABLE)]
        en.play(game, [bot, *rivals])
        return game.digest()

    assert play(planner(dict(GREEN_WEIGHTS), seed=3)) == play(en.bots.GreenInvestor(seed=3))
    assert play(planner(BUSY_PLAN, seed=3)) != play(en.bots.GreenInvestor(seed=3))


def test_the_plan_races_for_the_empty_bag_only_near_its_end():
    game, me = _searched_position()
    world = determinize(_view(game, me), random.Random(1), me)
    racer = planner({"race_boost": 3.0, "race_rounds": 2})
    calm = racer.plant_score(world, me, "renewable")
    assert calm == racer.weights["renewable"]  # a full bag: no race yet
    world.bag = world.bag[:2]
    rival = (me + 1) % 4
    world.players[rival].plants = {0: "renewable", 1: "renewable", 2: "renewable"}  # ahead
    assert racer.plant_score(world, me, "renewable") == calm + 3.0
    assert racer.demolish_score(world, me) == racer.weights["demolish"] + 3.0


def test_the_plan_never_demolishes_a_fossil_plant_its_allowance_let_it_build():
    """Issue 38: with a fossil allowance (its plant balance leads every rival's by
    fossil_lead), the plan builds a fossil plant and then keeps it: it demolishes fossil
    plants only once the lead falls below what the allowance built them on."""
    game, me = _searched_position()
    world = determinize(_view(game, me), random.Random(1), me)
    plan = planner({"fossil_lead": 1.0})
    for p in world.players:
        p.plants = {}
    world.players[me].plants = {0: "renewable", 1: "renewable"}  # a lead of 2
    assert plan.plant_score(world, me, "fossil") == plan.weights["fossil_allowed"]
    world.players[me].plants[2] = "fossil"  # built: a lead of 1, still the allowance's
    assert plan.demolish_score(world, me) == 0.0
    assert plan.plant_score(world, me, "fossil") == plan.weights["fossil_allowed"]
    world.players[me].plants[3] = "fossil"  # a lead of 0: kept, but no third one
    assert plan.demolish_score(world, me) == 0.0
    assert plan.plant_score(world, me, "fossil") == plan.weights["fossil"]
    world.players[(me + 1) % 4].plants = {0: "renewable", 1: "renewable"}  # a rival catches up
    assert plan.demolish_score(world, me) == plan.weights["demolish"]


@pytest.mark.parametrize(
    "plan, message",
    [
        ("blue", "plan must be"),
        (["tuned"], "plan must be"),
        ({"renewables": 9}, "Unknown plan weight 'renewables'"),
        ({"renewable": "high"}, "must be a number"),
        ({"renewable": float("nan")}, "must be a number"),
        ({"renewable": True}, "must be a number"),
    ],
)
def test_bad_plans_are_refused_with_a_reason(plan, message):
    with pytest.raises(ValueError, match=message):
        SearchPlayer(plan=plan)
