"""Noclear, rule by rule (numbers are those of shared/rules/noclear.md).

Positions are set up by writing markets, machines or energy into the state, as a
teacher's sandbox would; everything after that goes through the game's contract.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import energies as en
from energies import games, kit
from energies.games import noclear
from energies.games.noclear import (
    BuyMachine,
    BuyUranium,
    BuyUraniumWithMachines,
    DiscardMachine,
    EndTurn,
    MoveToken,
    NoclearRules,
    StoreEnergy,
    Upgrade,
)
from energies.games.noclear.invariants import problems

DECK = noclear.load_deck()
WIND_PUMP, KITE, WIND_FARM, HYBRID, WIND_HUB = 1, 3, 4, 5, 8  # ids in decks/default.json
SOLAR_LAMP, SOLAR_FIELD, COAL_STOVE = 9, 15, 25  # the solar field costs 4 blue + 4 orange


def pass_turn(game, colour=0):
    """The current seat stores energy and skips the upgrade."""
    seat = game.current_seat
    game.apply(StoreEnergy(seat, colour))
    if game.current_seat == seat and not game.is_over:
        game.apply(EndTurn(seat))


def fresh(players=2, seed=1, **rules):
    game = noclear.new_game(seed=seed, rules=NoclearRules(players=players, **rules))
    return game, game.state.players[game.current_seat]


def test_1_the_default_deck_is_40_machines_and_10_uranium_in_two_colours():
    assert len(DECK.machines) == 40 and len(DECK.uranium) == 10
    assert {m.symbol for m in DECK.machines.values()} == set(noclear.SYMBOLS)
    made = [m.produce for m in DECK.machines.values()]
    assert any(b and not o for b, o in made) and any(o and not b for b, o in made)
    assert any(b and o for b, o in made)  # mixed producers
    assert all(sum(m.upgrade_produce) > sum(m.produce) for m in DECK.machines.values())
    assert {m.effect for m in DECK.machines.values()} == {None, "surge", "move_token"}
    assert [u.price for u in DECK.uranium] == sorted(u.price for u in DECK.uranium)
    assert len(DECK.design_notes) >= 5 and "Ours" in DECK.design_notes[0]


def test_1_5_markets_and_both_tokens_are_set_up_from_the_seed():
    game, _ = fresh()
    state = game.state
    assert len(state.market) == 5 and None not in state.market and state.deck_size == 35
    assert state.visible_uranium() == [1, 2, 3]
    starts = {noclear.new_game(seed=s).state.start for s in range(20)}
    tops = {noclear.new_game(seed=s).state.top for s in range(20)}
    assert starts == {0, 1} and len(tops) > 1  # rule 2.5 and rule 1.5: random from the seed


def test_2_1_collect_energy_except_from_the_marked_symbol():
    game, _ = fresh()
    state = game.state
    seat = state.players[state.active]
    seat.machines = {WIND_PUMP: False, SOLAR_LAMP: True, COAL_STOVE: False}
    state.bottom = noclear.SYMBOLS.index("sun")
    assert game.production(state.active) == (1, 1)  # the upgraded solar lamp is switched off
    state.bottom = noclear.SYMBOLS.index("water")
    assert game.production(state.active) == (3, 1)
    seat.energy = [11, 0]
    pass_turn(game, 1)  # end the turn ...
    while game.current_seat != seat.seat:  # ... and let the other seat store energy
        pass_turn(game)
    assert seat.energy == [12, 2]  # 11 + 3 capped at 12 (rule 2.2 [H]); 1 stored + 1 made


def test_2_2_buy_one_machine_with_a_mixed_price_and_refill_the_market():
    game, seat = fresh()
    state = game.state
    slot = 0 if state.top != 0 else 1
    state.market[slot] = HYBRID  # 3 orange + 3 any
    seat.energy = [4, 5]
    pays = {a.pay for a in game.legal_actions() if isinstance(a, BuyMachine) and a.slot == slot}
    assert pays == {(1, 5), (2, 4), (3, 3)}  # the 3 'any' split freely; 6 orange is too many
    top_card = state.deck[0]
    game.apply(BuyMachine(seat.seat, slot, (2, 4)))
    assert seat.energy == [2, 1] and HYBRID in seat.machines and seat.first_machine == HYBRID
    assert state.market[slot] == top_card and state.deck_size == 34
    assert game.current_seat != seat.seat  # one purchase a turn; no upgrade affordable


def _offer(game, machine: int) -> int:
    """Put ``machine`` in a market slot the top token does not mark; return the slot."""
    slot = 0 if game.state.top != 0 else 1
    game.state.market[slot] = machine
    return slot


def _pays(game, slot: int) -> set:
    return {a.pay for a in game.legal_actions() if isinstance(a, BuyMachine) and a.slot == slot}


@pytest.mark.parametrize("holding", [(8, 0), (0, 8), (5, 3), (2, 6)])
def test_2_2_a_mixed_price_may_be_paid_in_one_colour_or_any_split(holding):
    # rule 2.2: "a price of 4 blue + 4 orange may be paid with 8 blue, 8 orange or any split"
    game, seat = fresh()
    slot = _offer(game, SOLAR_FIELD)
    seat.energy = list(holding)
    assert _pays(game, slot) == {holding}
    assert game.why_illegal(BuyMachine(seat.seat, slot, holding)) is None
    game.apply(BuyMachine(seat.seat, slot, holding))
    assert seat.energy == [0, 0] and SOLAR_FIELD in seat.machines


def test_2_2_mixed_holdings_split_freely_over_a_mixed_price():
    game, seat = fresh()  # rule 2.2
    slot = _offer(game, SOLAR_FIELD)
    seat.energy = [6, 5]
    assert _pays(game, slot) == {(3, 5), (4, 4), (5, 3), (6, 2)}
    assert "leaves 1 blue + 2 orange" in game.payment_note(BuyMachine(seat.seat, slot, (5, 3)))
    game.apply(BuyMachine(seat.seat, slot, (5, 3)))  # the action carries the split
    assert seat.energy == [1, 2]


def test_2_2_too_little_for_a_mixed_price_is_refused_naming_the_price():
    game, seat = fresh()  # rule 2.2
    slot = _offer(game, SOLAR_FIELD)
    seat.energy = [5, 2]
    assert _pays(game, slot) == set()
    for pay in ((5, 2), (8, 0), (4, 4)):
        reason = game.why_illegal(BuyMachine(seat.seat, slot, pay))
        assert reason.startswith("Solar field costs 4 blue + 4 orange, payable in any split of 8")
        assert "you hold 5 blue + 2 orange: too little" in reason, reason
    seat.energy = [9, 2]  # enough, but the split offered is not the price
    reason = game.why_illegal(BuyMachine(seat.seat, slot, (4, 2)))
    assert "any split of 8" in reason and "4 blue + 2 orange does not pay it" in reason


def test_2_2_a_price_of_one_colour_keeps_its_colour():
    game, seat = fresh()  # rule 2.2: only a mixed price ("half of each colour") is free
    slot = _offer(game, WIND_PUMP)  # 3 blue
    seat.energy = [0, 8]
    assert _pays(game, slot) == set()
    reason = game.why_illegal(BuyMachine(seat.seat, slot, (0, 3)))
    assert reason == "Wind pump costs 3 blue; you hold 8 orange: too little of the colour it names."
    assert str(DECK.machines[SOLAR_FIELD].price) == "4 blue + 4 orange (any split)"
    assert DECK.machines[WIND_FARM].price.payments((12, 12))[0] == (3, 3)  # 3 blue + 3 any


def test_2_2_the_engineer_pays_a_split_price_from_the_colour_it_holds_most():
    game, seat = fresh()  # rule 2.2: the split is the player's choice
    slot = _offer(game, SOLAR_FIELD)
    seat.energy = [10, 4]
    bot = noclear.make_bot("engineer", seed=0)
    buys = [a for a in game.legal_actions() if isinstance(a, BuyMachine) and a.slot == slot]
    best = max(buys, key=lambda a: bot.score(game.view(seat.seat), a))
    assert best.pay == (7, 1)  # 3 blue + 3 orange left


def machines_game(**rules):
    """A game where uranium is paid with machines (rule 2.2 [H] reading b)."""
    return fresh(uranium_payment="machines", **rules)


def test_2_2_machines_reading_lists_a_uranium_purchase_only_when_machines_cover_it():
    game, seat = machines_game()
    seat.energy = [12, 12]  # energy does not buy uranium under this reading
    seat.machines = {WIND_PUMP: False, SOLAR_LAMP: False}  # 3 + 3 points; card 1 costs 8
    legal = game.legal_actions()
    assert not any(isinstance(a, (BuyUranium, BuyUraniumWithMachines)) for a in legal)
    reason = game.why_illegal(BuyUraniumWithMachines(seat.seat, 1))
    assert reason.startswith("Uranium card 1 costs 8 points; your machines are worth 6")
    reason = game.why_illegal(BuyUranium(seat.seat, 1, (12, 12)))
    assert "paid by discarding machines" in reason and "uranium_payment='machines'" in reason
    seat.machines[WIND_FARM] = True  # price 6 + upgrade cost 4: 10 points
    assert DECK.machines[WIND_FARM].points(True) == 10
    assert BuyUraniumWithMachines(seat.seat, 1) in game.legal_actions()
    other, _ = fresh()  # and the energy readings refuse the machine payment
    assert "paid with energy" in other.why_illegal(BuyUraniumWithMachines(other.current_seat, 1))


def _own(game, seat, machines: dict) -> None:
    """Give ``seat`` the machines, taken from the deck or the market (the market refilled)."""
    state = game.state
    for machine in machines:
        if machine in state.deck:
            state.deck.remove(machine)
        if machine in state.market:
            state.market[state.market.index(machine)] = state.deck.pop(0)
    state.deck_size = len(state.deck)
    seat.machines, seat.first_machine = dict(machines), next(iter(machines))


def test_2_2_machines_reading_discards_machines_until_covered_and_the_excess_is_lost():
    game, seat = machines_game()
    seat.energy = [2, 1]
    _own(game, seat, {WIND_PUMP: False, SOLAR_LAMP: False, WIND_FARM: True})
    assert problems(game) == []
    game.apply(BuyUraniumWithMachines(seat.seat, 1))  # 8 points
    state = game.state
    assert state.phase == "discard" and state.owed == 8 and state.paying_for == 1
    assert seat.uranium == [] and 1 in state.visible_uranium()  # not paid yet
    assert {a.machine for a in game.legal_actions()} == {WIND_PUMP, SOLAR_LAMP, WIND_FARM}
    assert "8 points still owed" in game.why_illegal(StoreEnergy(seat.seat, 0))
    assert "only discard a machine you own" in game.why_illegal(DiscardMachine(seat.seat, 40))
    note = game.payment_note(DiscardMachine(seat.seat, WIND_PUMP))
    assert note == "Wind pump: 3 points, 5 still owed after"
    game.apply(DiscardMachine(seat.seat, WIND_PUMP))
    assert state.owed == 5 and game.current_seat == seat.seat and WIND_PUMP not in seat.machines
    assert "10 points pay the 5 owed; 5 lost" in game.payment_note(
        DiscardMachine(seat.seat, WIND_FARM)
    )
    game.apply(DiscardMachine(seat.seat, WIND_FARM))
    # the machines leave the player and the game; 5 points are lost; the energy stays
    assert seat.machines == {SOLAR_LAMP: False} and state.discarded == [WIND_PUMP, WIND_FARM]
    assert seat.uranium == [1] and seat.energy == [2, 1] and state.owed == 0
    assert "uranium card 1 paid (5 lost)" in game.log[-1]
    assert game.production(seat.seat) == (1, 0) and problems(game) == []
    assert state.phase in ("buy", "upgrade") and state.paying_for is None
    assert game.snapshot()["discarded"] == [WIND_PUMP, WIND_FARM]


def test_2_2_machines_reading_the_last_uranium_ends_the_game_once_paid():
    game, seat = machines_game()
    game.state.uranium = [10]  # 17 points
    seat.machines = {WIND_HUB: True}  # 10 + 6 = 16 points: not enough
    assert BuyUraniumWithMachines(seat.seat, 10) not in game.legal_actions()
    seat.machines[WIND_PUMP] = False
    game.apply(BuyUraniumWithMachines(seat.seat, 10))
    game.apply(DiscardMachine(seat.seat, WIND_HUB))
    assert not game.is_over and game.state.owed == 1
    game.apply(DiscardMachine(seat.seat, WIND_PUMP))
    assert game.is_over and game.outcome.kind == "uranium" and seat.uranium == [10]


def test_2_2_house_defaults_list_the_uranium_readings_and_2_3_either_token():
    rules = NoclearRules()
    listed = {(h.rule, h.field): h for h in rules.house_defaults()}
    payment = listed[("2.2", "uranium_payment")]
    assert payment.value == "all"  # reading (a), what every earlier game was played with
    assert all(word in payment.note for word in ("'all'", "'machines'", "'exact'", "upgrade"))
    readings = [h.note for h in rules.house_defaults() if h.field is None and h.rule == "2.3"]
    assert any("either radioactivity token" in note for note in readings)
    assert "either radioactivity token" in rules.describe()
    with pytest.raises(ValueError, match="'all', 'exact' or 'machines'"):
        NoclearRules(uranium_payment="points")


@pytest.mark.parametrize("reading", ["all", "exact", "machines"])
def test_2_2_save_load_and_replay_under_each_uranium_reading(reading):
    rules = NoclearRules(players=3, uranium_payment=reading)
    game = noclear.new_game(seed=5, rules=rules)
    en.play(
        game, [noclear.make_bot(b, seed=s) for s, b in enumerate(["engineer", "random"] * 2)][:3]
    )
    kinds = {a.kind for a in game.actions}
    paid_with_machines = {"buy_uranium_with_machines", "discard_machine"}
    assert (
        (kinds >= paid_with_machines) if reading == "machines" else not kinds & paid_with_machines
    )
    text = game.to_json()
    again = noclear.load_game(text)
    assert again.digest() == game.digest() and again.to_json() == text
    assert again.outcome == game.outcome and again.rules.uranium_payment == reading
    assert ("discarded" in game.snapshot()) == (reading == "machines")
    edited = json.loads(text)  # the reading is covered by the digest
    edited["rules"]["uranium_payment"] = "exact" if reading != "exact" else "all"
    with pytest.raises(kit.SaveFileError):
        noclear.load_game(json.dumps(edited))


@pytest.mark.parametrize("reading", ["all", "machines"])
def test_2_2_bots_finish_many_seeded_games_under_both_uranium_readings(reading):
    won, ends = {"engineer": 0, "random": 0}, set()
    for seed in range(150):
        players = 2 + seed % 3
        lineup = (["engineer", "random"] * 2)[:players] if seed % 2 else ["engineer"] * players
        rules = NoclearRules(players=players, uranium_payment=reading)
        game = noclear.new_game(seed=seed, rules=rules)
        en.play(game, [noclear.make_bot(b, seed=seed + s) for s, b in enumerate(lineup)])
        assert game.is_over and problems(game) == [], (seed, problems(game))
        ends.add(game.outcome.kind)
        for winner in game.outcome.winners:
            won[lineup[winner]] += 1
    assert ends == {"uranium"}  # the race ends by uranium, never by the turn limit
    assert won["engineer"] > 5 * won["random"]


RULES = NoclearRules  # this module is a game module for api_test under reading (b)


def new_game(players=None, seed=0, rules=None, **options):
    rules = rules or NoclearRules(players=players or 2, uranium_payment="machines")
    return noclear.NoclearGame(rules, seed, **options)


def load_game(text, trust_rules=False):
    return noclear.load_game(text, trust_rules)


def test_2_2_the_machines_reading_passes_the_kits_conformance_check():
    spec = dataclasses.replace(games.get("noclear"), name="noclear-machines", module=__name__)
    kit.api_test(spec, seeds=[3, 8], bot_actions=120)


def test_1_5_the_machine_under_the_top_token_cannot_be_bought():
    game, seat = fresh()
    state = game.state
    seat.energy = [12, 12]
    assert not any(isinstance(a, BuyMachine) and a.slot == state.top for a in game.legal_actions())
    price = DECK.machines[state.market[state.top]].price
    pay = price.payments((12, 12))[0]
    reason = game.why_illegal(BuyMachine(seat.seat, state.top, pay))
    assert (
        reason == "The top radioactivity token marks that machine: it cannot be bought (rule 1.5)."
    )


def test_2_2_buying_nothing_stores_one_energy():
    game, seat = fresh()
    before = list(seat.energy)
    game.apply(StoreEnergy(seat.seat, 0))
    assert seat.energy == [before[0] + 1, before[1]]


def test_2_2_buying_stays_a_choice_when_buying_nothing_stores_no_energy():
    # With store_energy=0 the option to buy nothing used to vanish whenever something was
    # affordable, so a player had to buy.
    game, seat = fresh(store_energy=0)
    legal = game.legal_actions()
    assert any(isinstance(a, BuyMachine) for a in legal)
    assert StoreEnergy(seat.seat, 0) in legal
    before = list(seat.energy)
    game.apply(StoreEnergy(seat.seat, 1))
    assert seat.energy == before


def test_2_2_uranium_discards_all_energy_or_exactly_the_price():
    game, seat = fresh()
    seat.energy = [6, 5]
    assert game.legal_actions().count(BuyUranium(seat.seat, 1, (6, 5))) == 1  # price 8
    assert "discards all the energy" in game.why_illegal(BuyUranium(seat.seat, 1, (4, 4)))
    assert "costs 9 energy" not in game.why_illegal(BuyUranium(seat.seat, 4, (6, 5)))
    game.apply(BuyUranium(seat.seat, 1, (6, 5)))
    assert (
        seat.energy == [0, 0] and seat.uranium == [1] and game.state.visible_uranium() == [2, 3, 4]
    )
    exact, seat = fresh(uranium_payment="exact")
    seat.energy = [6, 5]
    pays = {a.pay for a in exact.legal_actions() if isinstance(a, BuyUranium) and a.card == 1}
    assert pays == {(3, 5), (4, 4), (5, 3), (6, 2)}


def test_2_3_surge_makes_every_machine_of_the_symbol_produce_ignoring_the_token():
    game, seat = fresh()
    state = game.state
    other = state.players[1 - seat.seat]
    seat.machines, other.machines = {WIND_FARM: False}, {WIND_PUMP: True}
    state.bottom = noclear.SYMBOLS.index("wind")
    slot = 0 if state.top != 0 else 1
    state.market[slot] = KITE  # surge: wind
    seat.energy, other.energy = [3, 0], [0, 0]
    game.apply(BuyMachine(seat.seat, slot, (3, 0)))
    assert seat.energy == [2 + 1, 0]  # the wind farm and the kite it just bought
    assert other.energy == [2, 0]  # the other player's upgraded wind pump too


def test_2_3_move_token_is_a_decision_right_after_buying():
    game, seat = fresh()
    state = game.state
    slot = 0 if state.top != 0 else 1
    state.market[slot] = WIND_HUB
    seat.energy = [5, 5]
    game.apply(BuyMachine(seat.seat, slot, (5, 5)))
    assert state.phase == "effect" and game.current_seat == seat.seat
    legal = game.legal_actions()
    assert all(isinstance(a, MoveToken) for a in legal)
    assert MoveToken(seat.seat, "bottom", state.bottom) not in legal
    target = (state.bottom + 1) % 5
    game.apply(MoveToken(seat.seat, "bottom", target))
    assert state.bottom == target
    assert "first" in game.why_illegal(MoveToken(game.current_seat, "top", 0))


def test_2_4_one_upgrade_a_turn_flips_the_machine():
    game, seat = fresh()
    seat.machines = {WIND_PUMP: False, SOLAR_LAMP: False}
    seat.energy = [6, 6]
    game.apply(StoreEnergy(seat.seat, 0))
    assert game.state.phase == "upgrade"
    assert Upgrade(seat.seat, WIND_PUMP, (3, 0)) in game.legal_actions()
    game.apply(Upgrade(seat.seat, WIND_PUMP, (3, 0)))
    assert seat.machines[WIND_PUMP] is True
    assert game.current_seat != seat.seat  # the one upgrade of the turn is used
    assert game.production(seat.seat) == (3, 0)


def test_2_4_upgrading_is_optional():
    game, seat = fresh()
    seat.machines = {WIND_PUMP: False}
    seat.energy = [6, 6]
    game.apply(StoreEnergy(seat.seat, 0))
    game.apply(EndTurn(seat.seat))
    assert seat.machines[WIND_PUMP] is False and game.current_seat != seat.seat


def _last_uranium(game, seat):
    game.state.uranium = [10]
    seat.energy = [12, 12]
    game.apply(BuyUranium(seat.seat, 10, (12, 12)))


def test_3_1_the_game_ends_at_once_when_the_last_uranium_is_bought():
    game, seat = fresh()
    other = game.state.players[1 - seat.seat]
    other.uranium = [1, 2, 3, 4, 5]
    seat.uranium = [6, 7, 8, 9]
    _last_uranium(game, seat)
    assert game.is_over and game.outcome.kind == "uranium" and game.outcome.winners == (other.seat,)


def test_3_1_ties_go_to_the_most_energy_left_or_are_shared():
    for tiebreak, winners in (("energy", "other"), ("shared", "both")):
        game, seat = fresh(tiebreak=tiebreak, end="round")
        other = game.state.players[1 - seat.seat]
        seat.uranium, other.uranium = [1, 2, 3, 4], [5, 6, 7, 8, 9]
        other.energy = [4, 0]
        _last_uranium(game, seat)  # 5 each; the buyer has no energy left
        assert game.state.ending  # end="round": the round is completed first
        while not game.is_over:
            pass_turn(game)
        expected = (other.seat,) if winners == "other" else (0, 1)
        assert tuple(sorted(game.outcome.winners)) == tuple(sorted(expected))


def test_rules_and_deck_problems_are_refused():
    with pytest.raises(ValueError, match="players must be 2 to 4"):
        NoclearRules(players=5)
    with pytest.raises(ValueError, match="no Noclear deck named"):
        NoclearRules(deck="missing")
    with pytest.raises(ValueError, match="more than a full energy board"):
        NoclearRules(energy_cap=5)
    with pytest.raises(en.IllegalActionError, match="Not now: first buy one thing"):
        game, seat = fresh()
        game.apply(EndTurn(seat.seat))


def test_3_1_turn_limits_stay_within_a_save_file_and_uranium_within_the_boards():
    # A limit of a million turns used to be accepted: a game where nobody can buy anything
    # then ran on past what a save file may hold. And a uranium card dearer than two full
    # energy boards was refused only when buying it discards all energy, though it can never
    # be paid either way (rule 2.2).
    with pytest.raises(ValueError, match="turn_limit must be 1 to 5000"):
        NoclearRules(turn_limit=5001)
    with pytest.raises(ValueError, match="more than a full energy board"):
        NoclearRules(energy_cap=5, uranium_payment="exact")
    stuck = NoclearRules(start_energy=(0, 0), catch_up_energy=(0, 0), store_energy=0)
    game = noclear.new_game(seed=1, rules=stuck.replace(turn_limit=5000))
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.outcome.kind == "turn_limit" and len(game.actions) == 5000
    assert noclear.load_game(game.to_json()).digest() == game.digest()


def test_every_machine_name_of_the_deck_goes_to_the_catalogs():
    """A student reads the machines' names in their language (issue 35): each name of the
    deck file is marked for the catalogs, and a German game says it in German."""
    from energies.games.noclear.cards import MACHINE_NAMES
    from energies.kit.i18n import render

    deck = noclear.load_deck()
    assert {m.name for m in deck.machines.values()} == set(MACHINE_NAMES)
    machine = deck.machines[min(deck.machines)]
    assert render(machine.title, "de") != machine.name
    assert str(machine) == f"{machine.name} ({machine.symbol})"  # English in files and logs
