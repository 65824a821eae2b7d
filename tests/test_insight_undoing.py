"""energies.insight.self_undoing: the self-undoing pairs of a game's log, on hand-made turns.

Each test plays one turn by hand in a sandbox position (rules 10 and 11: plants and
demolishing; 12.1 and 12.2: trades with players and the supply, asking the table) and
checks exactly which pairs the detector reports, with the turn, seat and log indices.
The persona tests (tests/test_bots.py) use it on hundreds of played games.
"""

from __future__ import annotations

import pytest

import energies as en
from energies import actions as A
from energies import sandbox
from energies.insight import SelfUndo, self_undoing
from energies.insight.undoing import UNDO_KINDS


def position(seat_cards: dict | None = None):
    """The active player, Ada, after rolling (not a 7) in turn 1, with a city and a fossil
    plant; Ben, Cy and Di (next in turn order) have a town each. ``seat_cards``: cards by
    turn order (0: Ada)."""
    start = en.new_game(players=4, seed=5).active_seat
    names = ["Ada", "Ben", "Cy", "Di"]
    names = names[-start:] + names[:-start] if start else names  # Ada is the start player
    g = en.new_game(players=4, seed=5, names=names)
    sandbox.clear_board(g)
    corners, used = [], set()
    for c in g.board.corners:
        numbered = [h for h in g.board.corner_hexes(c) if g.board.hexes[h].number]
        if len(numbered) == 3 and not ({c} | set(g.board.corner_neighbors(c))) & used:
            corners.append(c)
            used |= {c, *g.board.corner_neighbors(c)}
        if len(corners) == 4:
            break
    act = g.active_seat
    assert g.names[act] == "Ada"
    for seat, c in enumerate(corners):
        sandbox.place(g, (act + seat) % 4, "city" if seat == 0 else "town", c)
    town = corners[0]
    hexes = [h for h in g.board.corner_hexes(town) if g.board.hexes[h].number]
    sandbox.place_plant(g, act, "fossil", town, hexes[0])
    for seat, cards in (seat_cards or {}).items():
        sandbox.give(g, (act + seat) % 4, **cards)
    sandbox.fix_dice(g, 1, 1)
    g.apply(A.RollDice(act))
    while g.pending == "propose a trade to the active player or pass":
        g.apply(A.Decline(g.current_seat))
    return g, act, town, hexes


def found(g) -> list[tuple]:
    return [(u.kind, u.turn, u.seat) for u in self_undoing(g)]


def test_rule_11_demolish_then_build_a_fossil_plant_is_a_pair():
    g, act, town, hexes = position({0: {"energy": 1, "science": 1}})
    first = len(g.actions)
    g.apply(A.DemolishFossil(act, town, hexes[0]))
    g.apply(A.BuildPlant(act, "fossil", town, hexes[1]))
    g.apply(A.EndTurn(act))
    pairs = self_undoing(g)
    assert [(u.kind, u.turn, u.seat, u.first, u.second) for u in pairs] == [
        ("demolish_then_fossil", 1, act, first, first + 1)
    ]
    assert "demolishes the fossil plant" in pairs[0].text and "builds a fossil plant" in str(
        pairs[0]
    )


def test_rule_10_build_then_demolish_a_fossil_plant_is_a_pair():
    g, act, town, hexes = position({0: {"energy": 1, "science": 1}})
    g.apply(A.BuildPlant(act, "fossil", town, hexes[1]))
    g.apply(A.DemolishFossil(act, town, hexes[1]))
    assert found(g) == [("fossil_then_demolish", 1, act)]


def test_demolishing_in_one_turn_and_rebuilding_in_the_next_is_no_pair():
    g, act, town, hexes = position({0: {"energy": 1, "science": 1}})
    g.apply(A.DemolishFossil(act, town, hexes[0]))
    g.apply(A.EndTurn(act))
    while not (g.active_seat == act and g.state.phase == "action" and not g.state.queue):
        if g.state.queue:  # the others' decisions (events, proposals): any legal answer
            g.apply(g.legal_actions()[0])
        elif g.state.phase == "roll":
            sandbox.fix_dice(g, 1, 1)
            g.apply(A.RollDice(g.active_seat))
        else:
            g.apply(A.EndTurn(g.active_seat))
    g.apply(A.BuildPlant(act, "fossil", town, hexes[1]))
    assert found(g) == []


def test_rule_12_2_a_kind_traded_away_and_back_with_the_supply_is_a_pair():
    g, act, _town, _hexes = position({0: {"lumber": 4, "brick": 3}})
    g.apply(A.TradeWithSupply(act, "lumber", "brick"))  # 4 lumber -> 1 brick: 4 brick now
    g.apply(A.TradeWithSupply(act, "brick", "steel"))  # a chain, not a way back
    assert found(g) == []
    sandbox.give(g, act, brick=4)  # (a teacher's edit is no move of the seat)
    g.apply(A.TradeWithSupply(act, "brick", "lumber"))  # lumber back
    assert found(g) == [("trade_back", 1, act)]


def test_rule_12_1_an_accepted_offer_is_a_trade_for_the_answering_seat():
    """Ada gives Ben 1 lumber for his 1 brick; then Ada offers 1 brick for 1 fiber and Ben
    accepts: Ben gets back the brick kind he traded away."""
    g, act, _town, _hexes = position({0: {"lumber": 1}, 1: {"brick": 1, "fiber": 1}})
    ben = (act + 1) % 4
    g.apply(A.OfferTrade(act, ben, (("lumber", 1),), (("brick", 1),)))
    g.apply(A.RespondToTrade(ben, True))
    g.apply(A.OfferTrade(act, ben, (("brick", 1),), (("fiber", 1),)))  # Ada: a chain
    g.apply(A.RespondToTrade(ben, True))
    pairs = self_undoing(g)
    assert [(u.kind, u.seat, u.first, u.second) for u in pairs] == [
        ("trade_back", ben, len(g.actions) - 3, len(g.actions) - 1)
    ]
    assert pairs[0].text == (
        "Ben accepts the trade (gives 1 brick, gets 1 lumber), "
        "then Ben accepts the trade (gives 1 fiber, gets 1 brick)"
    )


def test_rule_12_1_an_accepted_offer_is_a_trade_for_the_offering_seat():
    g, act, _town, _hexes = position({0: {"lumber": 1, "brick": 3}, 1: {"brick": 1}})
    ben = (act + 1) % 4
    g.apply(A.OfferTrade(act, ben, (("lumber", 1),), (("brick", 1),)))
    g.apply(A.RespondToTrade(ben, True))
    g.apply(A.TradeWithSupply(act, "brick", "lumber"))  # 4 brick: Ada's lumber back
    pairs = self_undoing(g)
    assert [(u.kind, u.seat) for u in pairs] == [("trade_back", act)]
    assert pairs[0].text == (
        "Ada trades 1 lumber for 1 brick with Ben, then Ada trades brick for 1 lumber with "
        "the supply"
    )


def test_a_declined_offer_is_no_trade():
    g, act, _town, _hexes = position({0: {"lumber": 1, "brick": 4}, 1: {"brick": 1}})
    ben = (act + 1) % 4
    g.apply(A.OfferTrade(act, ben, (("lumber", 1),), (("brick", 1),)))
    g.apply(A.RespondToTrade(ben, False))
    g.apply(A.TradeWithSupply(act, "brick", "lumber"))
    assert found(g) == []


def test_rule_12_1_asking_the_table_and_refusing_every_answer_is_a_pair():
    g, act, _town, _hexes = position({1: {"brick": 1}, 2: {"steel": 1}, 0: {"lumber": 2}})
    g.apply(A.AskForProposals(act))
    asked = len(g.actions) - 1
    ben = (act + 1) % 4
    g.apply(A.ProposeTrade(ben, (("brick", 1),), (("lumber", 1),)))
    g.apply(A.RespondToTrade(act, False))
    refused = len(g.actions) - 1
    while g.state.queue:
        g.apply(A.Decline(g.current_seat))
    g.apply(A.EndTurn(act))
    assert [(u.kind, u.first, u.second) for u in self_undoing(g)] == [
        ("ask_then_refuse", asked, refused)
    ]


def test_an_ask_with_an_accepted_answer_or_no_answer_is_no_pair():
    g, act, _town, _hexes = position({1: {"brick": 1}, 0: {"lumber": 2}})
    ben = (act + 1) % 4
    g.apply(A.AskForProposals(act))
    while g.state.queue:  # nobody proposes
        g.apply(A.Decline(g.current_seat))
    g.apply(A.AskForProposals(act))
    g.apply(A.ProposeTrade(ben, (("brick", 1),), (("lumber", 1),)))
    g.apply(A.RespondToTrade(act, True))
    while g.state.queue:
        g.apply(A.Decline(g.current_seat))
    g.apply(A.EndTurn(act))
    assert found(g) == []


def test_random_bots_undo_themselves_and_every_pair_is_in_order():
    g = en.new_game(players=4, seed=4)
    en.play(g, [en.bots.RandomBot(seed=s) for s in range(4)])
    pairs = self_undoing(g)
    assert {u.kind for u in pairs} == set(UNDO_KINDS)  # this game has every kind
    assert all(isinstance(u, SelfUndo) and u.first < u.second for u in pairs)
    assert [str(u) for u in pairs] == [str(u) for u in self_undoing(g)]  # deterministic


@pytest.mark.parametrize("thing", [None, "game", en.games.new_game("shelfie", seed=1)])
def test_self_undoing_refuses_what_is_not_a_new_energies_game(thing):
    with pytest.raises(ValueError, match="game of New Energies"):
        self_undoing(thing)
