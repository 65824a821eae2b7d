"""Rule tests for the New Energies parts of the rules file (shared/rules/new-energies.md).

Covers §4 (footprints and disc bands), §6 (event phase), §7 (the seven events),
§8.3–8.5 (energy and hazards in production), §10.2–10.5 (power plants), §11
(energy actions), §13.2 High Yield, §13.5 Cleanup, §14.2 (empty bag) and the
per-turn history / event records (design §3).

Every position is built with the teacher sandbox on an emptied island
(``sandbox.clear_board``). Conventions used throughout:

* the active seat rolls a fixed 2 (dice 1+1), which only hits hex 1 (pasture 2);
  no test building stands on hex 1, so that roll is "quiet";
* a turn change draws ``RuleSet.discs_to_draw(GF)`` discs (rule 4.3); the
  helper :func:`end_turn` fixes the discs a test wants and pads the rest with
  brown discs that go to rows that do not fill, so no unwanted event fires.
"""

from __future__ import annotations

import pytest
from energies.actions import (
    BuildCity,
    BuildPlant,
    BuildWarehouse,
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
    RemoveHazard,
    RespondToTrade,
    RollDice,
    TakeCard,
    TradeWithSupply,
)

import energies as en
from energies import sandbox as sb
from energies.newenergies.rules import BROWN_EVENTS, CARD_KINDS, ROWS

BOARD = en.build_board()  # the beginner island every test plays on
QUIET = (1, 1)  # a rolled 2: hex 1 only
HEX1 = set(BOARD.hex_corners(1))
# Corners touching three numbered land hexes (never the desert, never hex 1): room for 3 plants.
RICH = [
    c
    for c in range(len(BOARD.corners))
    if len(BOARD.corner_hexes(c)) == 3
    and all(BOARD.hexes[h].number for h in BOARD.corner_hexes(c))
    and c not in HEX1
]
# Other corners for plain towns and cities.
POOL = [c for c in range(len(BOARD.corners)) if c not in HEX1 and c not in RICH]


# ==============================================================================================
# Helpers
# ==============================================================================================


def new(players: int = 4, seed: int = 1, rules: en.RuleSet | None = None) -> en.Game:
    """A game in turn 1's roll phase with an empty island and empty hands; seat 0 starts
    (rule 3.6's random start player is switched off so the tests can name seats)."""
    rules = (rules or en.RuleSet.standard(players)).replace(random_start_player=False)
    g = en.new_game(seed=seed, rules=rules)
    sb.clear_board(g)
    return g


def roll(g: en.Game, d1: int = QUIET[0], d2: int = QUIET[1]) -> None:
    """The active seat rolls fixed dice (only if it still has to roll)."""
    if g.state.phase == "roll" and g.pending is None:
        sb.fix_dice(g, d1, d2)
        g.apply(RollDice(g.active_seat))
        pass_proposals(g)


def pass_proposals(g: en.Game) -> None:
    """Every seat asked to propose a trade to the active player (rule 12.1) passes."""
    while g.pending == "propose a trade to the active player or pass":
        g.apply(Decline(g.current_seat))


def in_play(g: en.Game) -> int:
    """Discs drawn so far: on the event board plus removed from the game."""
    s = g.state
    return sum(len(v) for v in s.event_board.values()) + len(s.removed_discs)


def _pads(g: en.Game, n: int, avoid: set[str]) -> list[tuple[str, str]]:
    s, r = g.state, g.rules
    out: list[tuple[str, str]] = []
    for sym in BROWN_EVENTS:
        if len(out) == n:
            break
        row = r.row_of("brown", sym)
        if row in avoid:
            continue
        if len(s.event_board[row]) + 1 < r.spaces(row) and ("brown", sym) in s.bag:
            out.append(("brown", sym))
    assert len(out) == n, "test set-up: no harmless disc left to pad the draw"
    return out


def end_turn(g: en.Game, *discs: tuple[str, str], dice: tuple[int, int] = QUIET) -> None:
    """Roll (if needed) and end the turn; the next event phase draws ``discs`` first, then
    harmless padding discs up to N = discs_to_draw(GF) (rule 4.3)."""
    roll(g, *dice)
    n = g.rules.discs_to_draw(g.global_footprint)
    rows = {g.rules.row_of(*d) for d in discs}
    for d in list(discs) + _pads(g, max(0, n - len(discs)), rows):
        sb.fix_disc(g, *d)
    g.apply(EndTurn(g.active_seat))


def arm(g: en.Game, color: str, symbol: str) -> None:
    """Fill the disc's row up to one space short of full (rule 6.2), without firing."""
    s, r = g.state, g.rules
    row = r.row_of(color, symbol)
    while len(s.event_board[row]) < r.spaces(row) - 1:
        sb.fill_row(g, color, symbol)


def fire(g: en.Game, color: str, symbol: str, dice: tuple[int, int] = QUIET) -> None:
    """Make the next turn change fire this event with its first draw."""
    arm(g, color, symbol)
    end_turn(g, (color, symbol), dice=dice)


def release_greens(g: en.Game, symbol: str, count: int) -> None:
    """Build renewable plants (sandbox) until ``count`` green ``symbol`` discs are in the bag
    (rule 10.4), then empty the island again. The bag keeps the released discs."""
    s = g.state
    for seat in range(s.n):
        if s.bag.count(("green", symbol)) >= count:
            break
        cities = RICH[:3]
        for c in cities:
            sb.place(g, seat, "city", c)
        for c in cities:
            for h in BOARD.corner_hexes(c):
                if s.bag.count(("green", symbol)) < count:
                    sb.place_plant(g, seat, "renewable", c, h)
        sb.clear_board(g)
    assert s.bag.count(("green", symbol)) >= count


def free_corner(g: en.Game, rich: bool = False) -> int:
    pool = RICH + POOL if rich else POOL + RICH
    return next(c for c in pool if g.state.owner_of(c) is None)


def town(g: en.Game, seat: int, corner: int | None = None, rich: bool = False) -> int:
    corner = free_corner(g, rich) if corner is None else corner
    sb.place(g, seat, "town", corner)
    return corner


def city(g: en.Game, seat: int, corner: int | None = None, rich: bool = True) -> int:
    corner = free_corner(g, rich) if corner is None else corner
    sb.place(g, seat, "city", corner)
    return corner


def plants_on(g: en.Game, seat: int, corner: int, kinds: list[str]) -> list[int]:
    """Sandbox plants of ``kinds`` on the hexes around ``corner`` (in hex order)."""
    hexes = BOARD.corner_hexes(corner)
    for kind, h in zip(kinds, hexes):
        sb.place_plant(g, seat, kind, corner, h)
    return list(hexes[: len(kinds)])


def build_lfs(g: en.Game, lfs: list[int]) -> dict[int, list[int]]:
    """Give each seat pieces worth exactly this LF (rule 4.1): cities (2) and a town (1);
    LF -1 is a city with 3 renewable plants. Returns each seat's building corners."""
    out: dict[int, list[int]] = {}
    for seat, lf in enumerate(lfs):
        corners = []
        if lf == -1:
            c = city(g, seat)
            plants_on(g, seat, c, ["renewable"] * 3)
            corners.append(c)
        else:
            assert 0 <= lf <= 9, "keep every seat below 10 VP"
            for _ in range(lf // 2):
                corners.append(city(g, seat))
            if lf % 2:
                corners.append(town(g, seat))
        out[seat] = corners
        assert g.local_footprint(seat) == lf
    return out


def lfs_for(gf: int, players: int) -> list[int]:
    """Seat LFs adding up to ``gf`` (at most 9 each)."""
    lfs, left = [], gf
    for _ in range(players):
        lfs.append(min(9, left))
        left -= lfs[-1]
    assert left == 0
    return lfs


def hand(g: en.Game, seat: int) -> dict[str, int]:
    return dict(g.state.players[seat].hand)


def decide_all(g: en.Game, choose) -> list[int]:
    """Answer pending decisions with ``choose(seat, legal)``; returns the deciding seats in order."""
    order = []
    while g.pending is not None:
        seat = g.current_seat
        order.append(seat)
        g.apply(choose(seat, g.legal_actions()))
    return order


# ==============================================================================================
# §4 Footprint
# ==============================================================================================


@pytest.mark.parametrize(
    "towns, cities, fossil, renewable, expected",
    [
        (1, 0, 0, 0, 1),
        (0, 1, 0, 0, 2),
        (2, 1, 0, 0, 4),
        (1, 1, 1, 0, 4),
        (1, 1, 0, 1, 2),
        (0, 1, 3, 0, 5),
        (1, 1, 2, 2, 3),
        (0, 1, 0, 3, -1),  # LF may go below 0
        (0, 2, 0, 6, -2),
        (1, 0, 0, 1, 0),
    ],
)
def test_rule_4_1_local_footprint_from_pieces(towns, cities, fossil, renewable, expected):
    """Rule 4.1: LF = towns + 2 cities + fossil - renewable, counting pieces; roads count 0."""
    g = new()
    seat = 2
    slots = []
    for _ in range(cities):
        c = city(g, seat)
        slots += [(c, h) for h in BOARD.corner_hexes(c)]
    for _ in range(towns):
        c = town(g, seat, rich=True)
        slots.append((c, BOARD.corner_hexes(c)[0]))
    kinds = ["fossil"] * fossil + ["renewable"] * renewable
    for kind, (c, h) in zip(kinds, slots, strict=False):
        sb.place_plant(g, seat, kind, c, h)
    assert g.local_footprint(seat) == expected
    # roads count 0
    corner = next(iter(g.state.players[seat].buildings()))
    sb.place(g, seat, "road", BOARD.corner_paths(corner)[0])
    assert g.local_footprint(seat) == expected
    assert g.snapshot()["seats"][seat]["lf"] == expected
    assert all(g.local_footprint(s) == 0 for s in range(4) if s != seat)


def test_rule_4_1_town_to_city_upgrade_adds_one():
    """Rule 4.1: a town -> city upgrade is +1 LF."""
    g = new()
    s0 = g.active_seat
    c = town(g, s0, rich=True)
    roll(g)
    sb.give(g, s0, steel=3, food=2)
    before = g.local_footprint(s0)
    g.apply(BuildCity(s0, c))
    assert g.local_footprint(s0) == before + 1


@pytest.mark.parametrize(
    "players, lfs, expected",
    [
        (4, [1, 2, 3, 0], 6),
        (4, [-1, 2, 0, 0], 1),
        (4, [-1, -1, -1, -1], 0),  # negative sum clamps to 0
        (4, [-1, -1, 1, 0], 0),
        (4, [7, 7, 7, 7], 28),
        (4, [9, 9, 9, 9], 28),  # clamped to 7 per player
        (4, [9, 9, 9, 2], 28),
        (4, [9, 9, 9, 0], 27),
        (3, [7, 7, 7], 21),
        (3, [9, 9, 9], 21),
        (3, [7, 7, 6], 20),
        (3, [-1, 0, 0], 0),
    ],
)
def test_rule_4_2_global_footprint_is_clamped_sum(players, lfs, expected):
    """Rule 4.2: GF = sum of all LF clamped to 0 .. 7 * players."""
    g = new(players)
    build_lfs(g, lfs)
    assert g.rules.gf_max == 7 * players
    assert g.global_footprint == expected


BANDS = [
    # (players, GF, discs) at every band edge of rule 4.3
    (4, 0, 2), (4, 5, 2), (4, 6, 1), (4, 18, 1), (4, 19, 2), (4, 23, 2), (4, 24, 3), (4, 28, 3),
    (3, 0, 2), (3, 4, 2), (3, 5, 1), (3, 13, 1), (3, 14, 2), (3, 17, 2), (3, 18, 3), (3, 21, 3),
]  # fmt: skip


@pytest.mark.parametrize("players, gf, discs", BANDS)
def test_rule_4_3_discs_to_draw_band_edges(players, gf, discs):
    """Rule 4.3: discs drawn by GF (4 players: 0-5:2, 6-18:1, 19-23:2, 24-28:3; 3 players:
    0-4:2, 5-13:1, 14-17:2, 18-21:3)."""
    assert en.RuleSet.standard(players).discs_to_draw(gf) == discs


@pytest.mark.parametrize("players, gf, discs", BANDS + [(4, 0, 2), (3, 0, 2)])
def test_rule_4_3_event_phase_draws_that_many(players, gf, discs):
    """Rules 4.3/6.1: the event phase at the start of a turn draws exactly N discs."""
    g = new(players)
    if gf == 0:
        build_lfs(g, [-1] * (players - 1) + [0])  # a negative sum: GF clamps to 0
    else:
        build_lfs(g, lfs_for(gf, players))
    assert g.global_footprint == gf
    assert g.snapshot()["discs_next_event_phase"] == discs
    roll(g)
    before, bag = in_play(g), len(g.state.bag)
    # fix harmless discs for every possible draw so no event interrupts the phase
    for d in _pads(g, 3, set()):
        sb.fix_disc(g, *d)
    g.apply(EndTurn(g.active_seat))
    assert in_play(g) - before == discs
    assert bag - len(g.state.bag) == discs
    assert g.state.phase == "roll"


# ==============================================================================================
# §6 Event phase
# ==============================================================================================


def test_rule_6_1_n_fixed_at_start_of_phase():
    """Rule 6.1: N is fixed at the start of the phase. GF 18 (1 disc); the first disc fires
    Production Increase, a free fossil plant lifts GF to 19 (2-disc band): still only 1 draw."""
    g = new()
    corners = build_lfs(g, [7, 5, 4, 2])
    assert g.rules.discs_to_draw(g.global_footprint) == 1
    arm(g, "brown", "production_increase")
    roll(g)
    before = in_play(g)
    sb.fix_disc(g, "brown", "production_increase")
    for d in _pads(g, 2, {"production_increase"}):
        sb.fix_disc(g, *d)  # what a second draw would take
    g.apply(EndTurn(g.active_seat))
    assert g.current_seat == 0  # the highest LF
    c = corners[0][0]
    g.apply(BuildPlant(0, "fossil", c, BOARD.corner_hexes(c)[0]))
    assert g.global_footprint == 19
    assert g.pending is None and g.state.phase == "roll"
    assert in_play(g) - before == 1


def _one_disc_rules(discs: int = 1) -> en.RuleSet:
    # a tiny bag: `discs` brown Rain and Flooding discs and no green discs
    return en.RuleSet.standard(4).replace(
        brown_discs=(("rain_and_flooding", discs),), green_discs_per_player=()
    )


def test_rule_6_1_empty_bag_at_first_draw_ends_game():
    """Rules 6.1/14.2: a bag that is empty when a disc must be drawn ends the game at once."""
    g = en.new_game(rules=en.RuleSet.standard(4).replace(brown_discs=(), green_discs_per_player=()))
    assert g.is_over
    assert g.outcome.kind == "everyone_loses" and g.outcome.winners == ()


def test_rule_6_1_empty_bag_ends_game_on_next_draw():
    """Rule 6.1: the turn-1 draw takes the only disc; the next event phase ends the game."""
    g = new(rules=_one_disc_rules(1))
    assert g.state.bag == [] and not g.is_over
    roll(g)
    turn = g.turn
    g.apply(EndTurn(g.active_seat))
    assert g.is_over
    assert g.outcome.turn == turn + 1
    assert g.current_seat is None and g.legal_actions() == []


def test_rule_6_1_empty_bag_midway_through_the_draws():
    """Rule 6.1: with N = 2 and one disc left, the first draw takes it and the second ends it."""
    g = new(rules=_one_disc_rules(2))
    assert len(g.state.bag) == 1
    assert g.rules.discs_to_draw(g.global_footprint) == 2  # empty island: GF 0
    before = in_play(g)
    roll(g)
    g.apply(EndTurn(g.active_seat))
    assert g.is_over
    assert in_play(g) == before + 1 and g.state.bag == []


def test_rule_6_2_disc_goes_on_its_row_and_stays():
    """Rule 6.2: a drawn disc lies on its symbol's row; a row that is not full keeps its discs
    across turns."""
    g = new()
    row = g.state.event_board["rain_and_flooding"]
    start, bag = len(row), g.state.bag.count(("brown", "rain_and_flooding"))
    end_turn(g, ("brown", "rain_and_flooding"))
    assert len(g.state.event_board["rain_and_flooding"]) == start + 1
    assert g.state.bag.count(("brown", "rain_and_flooding")) == bag - 1
    end_turn(g)  # padding discs only, to other rows
    end_turn(g)
    assert g.state.event_board["rain_and_flooding"] == [("brown", "rain_and_flooding")] * (
        start + 1
    )
    assert not any(e["event"] == "rain_and_flooding" for e in g.events)


def test_rule_6_2_full_row_fires_and_its_discs_leave_the_game():
    """Rule 6.2: the disc that fills a row fires the event at once; the row's discs leave the
    game (removed_discs) and do not return to the bag."""
    g = new()
    disc = ("brown", "rain_and_flooding")
    total = g.state.bag.count(disc) + g.state.event_board["rain_and_flooding"].count(disc)
    removed = len(g.state.removed_discs)
    fire(g, *disc)
    assert g.events[-1]["event"] == "rain_and_flooding"
    assert g.events[-1]["turn"] == g.turn
    assert g.state.event_board["rain_and_flooding"] == []
    assert g.state.removed_discs[removed:] == [disc] * 3
    assert g.state.bag.count(disc) == total - 3


def test_rule_6_2_event_fires_before_the_next_draw():
    """Rule 6.2: with N = 2, the first disc fires its event before the second is drawn."""
    g = new()
    build_lfs(g, [2, 1, 1, 1])  # GF 5: 2 discs; seat 0 highest LF
    c0 = g.state.players[0].cities
    arm(g, "brown", "air_pollution")
    roll(g)
    before = in_play(g)
    sb.fix_disc(g, "brown", "air_pollution")
    sb.fix_disc(g, "brown", "rain_and_flooding")
    g.apply(EndTurn(g.active_seat))
    # waiting for the Air Pollution decision: the second disc is not drawn yet
    assert g.current_seat == 0 and "hazard" in g.pending
    assert in_play(g) == before + 1
    g.apply(PlaceHazard(0, next(iter(c0))))
    assert in_play(g) == before + 2


@pytest.mark.parametrize("spaces", [1, 2, 3, 4])
def test_rule_6_3_spaces_per_row_from_ruleset(spaces):
    """Rule 6.3: a row fires when it holds RuleSet.spaces(row) discs."""
    rows = tuple((row, spaces if row == "rain_and_flooding" else 3) for row in ROWS)
    g = new(rules=en.RuleSet.standard(4).replace(event_spaces=rows))
    assert g.rules.spaces("rain_and_flooding") == spaces
    fired = sum(e["event"] == "rain_and_flooding" for e in g.events)
    arm(g, "brown", "rain_and_flooding")
    assert len(g.state.event_board["rain_and_flooding"]) == spaces - 1
    assert sum(e["event"] == "rain_and_flooding" for e in g.events) == fired
    removed = len(g.state.removed_discs)
    end_turn(g, ("brown", "rain_and_flooding"))
    assert sum(e["event"] == "rain_and_flooding" for e in g.events) == fired + 1
    assert g.state.removed_discs[removed:].count(("brown", "rain_and_flooding")) == spaces


def test_rule_6_3_default_three_spaces_every_row():
    """Rule 6.3 [H]: 3 spaces for every symbol by default."""
    rules = en.RuleSet.standard(4)
    assert all(rules.spaces(row) == 3 for row in ROWS)


def test_rule_6_4_brown_and_green_climate_conference_share_a_row():
    """Rule 6.4: two brown Climate Conference discs and a green one fill the shared row."""
    g = new()
    release_greens(g, "climate_conference", 1)
    sb.fill_row(g, "brown", "climate_conference")
    sb.fill_row(g, "brown", "climate_conference")
    assert g.rules.row_of("green", "climate_conference") == g.rules.row_of(
        "brown", "climate_conference"
    )
    end_turn(g, ("green", "climate_conference"))
    assert g.events[-1]["event"] == "climate_conference"
    assert g.events[-1]["color"] == "green"
    assert g.state.event_board["climate_conference"] == []
    assert ("green", "climate_conference") in g.state.removed_discs


def test_rule_6_4_variant_separate_green_row():
    """Rule 6.4 is a RuleSet field: with shared_climate_row=False the green disc has its own row."""
    g = new(rules=en.RuleSet.standard(4).replace(shared_climate_row=False))
    release_greens(g, "climate_conference", 1)
    sb.fill_row(g, "brown", "climate_conference")
    sb.fill_row(g, "brown", "climate_conference")
    fired = len(g.events)
    end_turn(g, ("green", "climate_conference"))
    assert len(g.events) == fired
    assert len(g.state.event_board["climate_conference"]) == 2


@pytest.mark.parametrize(
    "players, lfs, expected",
    [
        (4, [3, 1, 3, 2], [2, 0]),  # clockwise from the active seat 1
        (4, [1, 3, 3, 3], [1, 2, 3]),
        (4, [3, 3, 1, 1], [1, 0]),
        (4, [3, 2, 2, 3], [3, 0]),
        (4, [3, 3, 3, 3], []),  # all tie: nothing
        (4, [1, 1, 1, 1], []),
        (3, [3, 1, 3], [2, 0]),
        (3, [2, 2, 2], []),
    ],
)
def test_rule_6_5_ties_clockwise_from_active(players, lfs, expected):
    """Rule 6.5 (with Air Pollution, rule 7.3): every player tied for the highest LF is
    affected, acting clockwise from the active player; if all tie, nothing happens."""
    g = new(players, seed=2 if players == 3 else 1)
    assert g.active_seat == 0  # so the event fires in seat 1's turn
    build_lfs(g, lfs)
    fire(g, "brown", "air_pollution")
    assert g.active_seat == 1
    assert g.events[-1]["hit"] == expected
    order = decide_all(g, lambda seat, legal: legal[0])
    assert order == expected
    assert len(g.state.building_hazards) == len(expected)


@pytest.mark.parametrize(
    "lfs, low, high",
    [
        ([1, 2, 2, 3], [0], [3]),
        ([1, 3, 1, 3], [2, 0], [1, 3]),  # active seat 1: lowest 2 then 0; highest 1 then 3
        ([2, 2, 2, 2], [], []),
    ],
)
def test_rule_6_5_climate_conference_ties(lfs, low, high):
    """Rule 6.5 with Climate Conference: tied lowest all take, tied highest all discard,
    each clockwise from the active player."""
    g = new()
    build_lfs(g, lfs)
    for s in range(4):
        sb.give(g, s, lumber=1)
    fire(g, "brown", "climate_conference")
    assert g.events[-1]["hit"] == low + high
    order = decide_all(g, lambda seat, legal: legal[0])
    assert order == low + high


# ==============================================================================================
# §7 Events
# ==============================================================================================


def test_rule_7_1_climate_conference_take_and_discard():
    """Rule 7.1: lowest LF take 1 resource or science card of their choice (TakeCard); highest
    LF discard 1 card of their choice (DiscardCard)."""
    g = new()
    build_lfs(g, [1, 2, 2, 3])
    sb.give(g, 3, steel=1, science=1)
    supply = dict(g.state.supply)
    fire(g, "brown", "climate_conference")
    assert g.current_seat == 0
    assert set(g.legal_actions()) == {TakeCard(0, k) for k in CARD_KINDS}
    g.apply(TakeCard(0, "science"))
    assert hand(g, 0)["science"] == 1
    assert g.current_seat == 3
    assert set(g.legal_actions()) == {DiscardCard(3, "steel"), DiscardCard(3, "science")}
    g.apply(DiscardCard(3, "steel"))
    assert hand(g, 3)["steel"] == 0 and hand(g, 3)["science"] == 1
    assert g.pending is None and g.state.phase == "roll"
    assert g.state.supply["steel"] == supply["steel"] + 1
    assert g.state.supply["science"] == supply["science"] - 1
    for s in (1, 2):
        assert sum(hand(g, s).values()) == 0


def test_rule_7_1_all_takes_come_first_then_all_discards_each_clockwise():
    """Rule 7.1 [H]: with seat 2 active, the lowest LF (seats 0 and 3) take clockwise from
    seat 2 — seat 3, then seat 0 — and only then the highest (seats 1 and 2) discard,
    clockwise from seat 2: seat 2, then seat 1."""
    g = new()
    build_lfs(g, [1, 3, 3, 1])
    for s in (1, 2):
        sb.give(g, s, steel=1)
    end_turn(g)
    assert g.active_seat == 1
    fire(g, "brown", "climate_conference")  # the turn passes to seat 2 and the event fires
    assert g.active_seat == 2
    order = []
    while g.pending is not None:
        seat, action = g.current_seat, g.legal_actions()[0]
        order.append((seat, type(action).__name__))
        g.apply(action)
    assert order == [(3, "TakeCard"), (0, "TakeCard"), (2, "DiscardCard"), (1, "DiscardCard")]


def test_rule_7_1_empty_hand_discards_nothing():
    """Rule 7.1 [H]: a highest-LF player with no cards is skipped."""
    g = new()
    build_lfs(g, [1, 2, 2, 3])
    fire(g, "brown", "climate_conference")
    g.apply(TakeCard(0, "brick"))
    assert g.pending is None and g.state.phase == "roll"
    assert sum(hand(g, 3).values()) == 0


def test_rule_7_1_card_the_supply_lacks_cannot_be_chosen():
    """Rule 7.1 [H]: a card the supply lacks cannot be taken."""
    g = new()
    build_lfs(g, [1, 2, 2, 3])
    sb.give(g, 2, steel=g.state.supply["steel"])
    fire(g, "brown", "climate_conference")
    assert g.current_seat == 0
    assert TakeCard(0, "steel") not in g.legal_actions()
    with pytest.raises(en.IllegalActionError):
        g.apply(TakeCard(0, "steel"))


@pytest.mark.parametrize(
    "rolls, inspector, already, expected_new",
    [
        ([(4, 4)], None, [], [11, 12]),
        ([(3, 4), (4, 4)], None, [], [11, 12]),  # a 7 is rolled again
        ([(3, 4), (6, 1), (2, 6)], None, [], [11, 12]),  # two 7s
        ([(4, 4)], 11, [], [12]),  # not on the Inspector's hex
        ([(4, 4)], None, [12], [11]),  # not on a hex that already has one
        ([(6, 6)], None, [], [3]),
        ([(1, 2)], 13, [10], []),
    ],
)
def test_rule_7_2_environmental_pollution(rolls, inspector, already, expected_new):
    """Rule 7.2: the active player rolls (reroll 7); every land hex with that number gets a
    hazard except the Inspector's hex and a hex that already has one."""
    g = new()
    build_lfs(g, [1, 1, 1, 1])
    if inspector is not None:
        sb.move_inspector(g, inspector)
    for h in already:
        sb.add_hazard(g, hex=h)
    arm(g, "brown", "environmental_pollution")
    roll(g)
    for d in rolls:
        sb.fix_dice(g, *d)
    supply = g.state.hazard_supply
    end_turn(g, ("brown", "environmental_pollution"))
    assert g.events[-1]["event"] == "environmental_pollution"
    assert g.state.forced_dice == []  # every fixed roll was used: the 7s were rolled again
    assert g.state.hex_hazards == set(already) | set(expected_new)
    assert g.state.hazard_supply == supply - len(expected_new)
    assert g.state.building_hazards == set()


@pytest.mark.parametrize("order, expected", [("board", {11}), ("none", set())])
def test_rule_7_2_hazard_supply_runs_out(order, expected):
    """Rule 7.2 [H]: when the hazard supply runs out, placement stops in board order
    (variant 'none': no hazard when there are not enough)."""
    g = new(rules=en.RuleSet.standard(4).replace(pollution_hazard_order=order))
    build_lfs(g, [1, 1, 1, 1])
    others = [h for h in range(19) if h not in (1, 9, 11, 12)]  # hex 1: the quiet roll clears it
    for h in others[: g.rules.hazard_tokens - 1]:
        sb.add_hazard(g, hex=h)
    assert g.state.hazard_supply == 1
    arm(g, "brown", "environmental_pollution")
    roll(g)
    sb.fix_dice(g, 4, 4)
    end_turn(g, ("brown", "environmental_pollution"))
    assert g.state.hex_hazards & {11, 12} == expected
    assert g.state.hazard_supply >= 0


def test_rule_7_3_air_pollution_city_first():
    """Rule 7.3: the highest LF puts a hazard on one of their own cities, not a town."""
    g = new()
    build_lfs(g, [1, 2, 1, 1])  # seat 1 (a city) is the only highest... add a town and a 2nd city
    c1 = next(iter(g.state.players[1].cities))
    c2 = city(g, 1)
    t = town(g, 1)
    fire(g, "brown", "air_pollution")
    assert g.current_seat == 1
    assert set(g.legal_actions()) == {PlaceHazard(1, c1), PlaceHazard(1, c2)}
    with pytest.raises(en.IllegalActionError):
        g.apply(PlaceHazard(1, t))
    g.apply(PlaceHazard(1, c2))
    assert g.state.building_hazards == {c2}
    assert g.pending is None


def test_rule_7_3_air_pollution_town_if_no_city():
    """Rule 7.3: with no city the hazard goes on a town."""
    g = new()
    build_lfs(g, [1, 1, 1, 0])
    t1, t2 = next(iter(g.state.players[2].towns)), town(g, 2)
    fire(g, "brown", "air_pollution")
    assert g.current_seat == 2
    assert set(g.legal_actions()) == {PlaceHazard(2, t1), PlaceHazard(2, t2)}
    g.apply(PlaceHazard(2, t1))
    assert g.state.building_hazards == {t1}


def test_rule_7_3_air_pollution_one_hazard_per_building():
    """Rule 7.3 [H]: a building holds at most one hazard; a city already holding one is not
    eligible, so the town is used; with no eligible building the player is skipped."""
    g = new()
    build_lfs(g, [1, 1, 3, 1])  # seat 2: a city and a town
    c = next(iter(g.state.players[2].cities))
    t = next(iter(g.state.players[2].towns))
    sb.add_hazard(g, building=c)
    fire(g, "brown", "air_pollution")
    assert g.legal_actions() == [PlaceHazard(2, t)]
    g.apply(PlaceHazard(2, t))
    assert g.state.building_hazards == {c, t}
    # now every building of seat 2 has a hazard: the next Air Pollution skips it
    fire(g, "brown", "air_pollution")
    assert g.events[-1]["event"] == "air_pollution" and g.events[-1]["hit"] == [2]
    assert g.pending is None
    assert g.state.building_hazards == {c, t}


def _production_increase_position():
    g = new()
    build_lfs(g, [1, 3, 1, 2])  # seat 1 (active after the turn change) has the highest LF
    c = next(iter(g.state.players[1].cities))
    h = BOARD.corner_hexes(c)[0]
    sb.add_hazard(g, hex=h)
    fire(g, "brown", "production_increase")
    return g, c, h


def test_rule_7_4_production_increase_free_fossil_and_resource():
    """Rule 7.4: the highest LF may build a free fossil plant and takes 1 resource of its hex,
    even when the hex has a hazard."""
    g, c, h = _production_increase_position()
    assert g.current_seat == 1
    legal = g.legal_actions()
    assert Decline(1) in legal
    assert BuildPlant(1, "fossil", c, h) in legal
    assert not any(isinstance(a, BuildPlant) and a.plant == "renewable" for a in legal)
    assert hand(g, 1)["science"] == 0
    g.apply(BuildPlant(1, "fossil", c, h))
    assert g.state.players[1].plants == {(c, h): "fossil"}
    resource = BOARD.hexes[h].resource
    assert hand(g, 1)[resource] == 1
    assert sum(hand(g, 1).values()) == 1  # free: nothing paid
    assert g.local_footprint(1) == 4


def test_rule_7_4_a_free_fossil_plant_on_the_desert_gives_no_card():
    """Rules 7.4, 10.2: the free fossil plant may stand on the desert; that hex has no
    resource, so no card follows."""
    g = new()
    build_lfs(g, [1, 3, 1, 2])
    sb.place(g, 1, "town", DESERT_CORNER)
    fire(g, "brown", "production_increase")
    spot = BuildPlant(1, "fossil", DESERT_CORNER, g.board.desert)
    assert spot in g.legal_actions()
    cards = sum(hand(g, 1).values())
    g.apply(spot)
    assert sum(hand(g, 1).values()) == cards
    assert g.state.players[1].plants[(DESERT_CORNER, g.board.desert)] == "fossil"


def test_rule_7_4_free_fossil_does_not_count_toward_plant_limit():
    """Rules 7.4/10.3: the event plant does not use up the one plant per turn."""
    g, c, h = _production_increase_position()
    g.apply(BuildPlant(1, "fossil", c, h))
    roll(g)
    assert g.state.phase == "action" and g.active_seat == 1
    sb.give(g, 1, science=1)
    h2 = BOARD.corner_hexes(c)[1]
    assert g.why_illegal(BuildPlant(1, "fossil", c, h2)) is None
    g.apply(BuildPlant(1, "fossil", c, h2))
    assert g.state.players[1].count_plants("fossil") == 2


def test_rule_7_4_decline_allowed():
    """Rule 7.4 [H]: declining the free plant changes nothing."""
    g, _c, _h = _production_increase_position()
    g.apply(Decline(1))
    assert g.state.players[1].plants == {}
    assert sum(hand(g, 1).values()) == 0
    assert g.pending is None


def test_rule_7_4_no_legal_spot_nothing():
    """Rule 7.4: no legal spot (every slot full) -> no plant is possible."""
    g = new()
    build_lfs(g, [1, 1, 1, 0])
    t = next(iter(g.state.players[2].towns))
    sb.remove(g, "town", t)
    t = town(g, 2, rich=True)
    plants_on(g, 2, t, ["renewable"])  # LF 0: add a second town with a plant -> LF 0
    t2 = town(g, 2, rich=True)
    plants_on(g, 2, t2, ["fossil"])  # LF 2: both towns full
    assert g.local_footprint(2) == 2
    fire(g, "brown", "production_increase")
    assert g.events[-1]["hit"] == [2]
    if g.pending is not None:
        assert g.legal_actions() == [Decline(2)]
        g.apply(Decline(2))
    assert g.state.players[2].count_plants("fossil") == 1
    assert sum(hand(g, 2).values()) == 0


def test_rule_7_4_no_fossil_plant_left_nothing():
    """Rule 7.4: a player with no fossil plant left gets no free plant."""
    g = new()
    build_lfs(g, [1, 1, 1, 1])
    a, b = city(g, 2), city(g, 2)
    plants_on(g, 2, a, ["fossil"] * 3)
    plants_on(g, 2, b, ["fossil"] * 3)  # all 6 fossil plants on the board; LF 11
    assert g.state.pieces_left(2, "fossil") == 0
    fire(g, "brown", "production_increase")
    assert g.events[-1]["hit"] == [2]
    if g.pending is not None:
        assert g.legal_actions() == [Decline(2)]
        g.apply(Decline(2))
    assert g.state.players[2].count_plants("fossil") == 6
    assert sum(hand(g, 2).values()) == 0


def test_rule_7_5_rain_and_flooding_every_player_clockwise():
    """Rule 7.5: every player, clockwise from the active player, puts a hazard on one of their
    own towns or cities (their choice); a player with no building is skipped."""
    g = new()
    build_lfs(g, [3, 3, 0, 3])  # seat 2 has no building
    fire(g, "brown", "rain_and_flooding")
    assert g.active_seat == 1
    order = []
    while g.pending is not None:
        seat = g.current_seat
        order.append(seat)
        p = g.state.players[seat]
        assert set(g.legal_actions()) == {PlaceHazard(seat, c) for c in p.buildings()}
        other = next(iter(g.state.players[(seat + 1) % 4].buildings() or {0}))
        assert g.why_illegal(PlaceHazard(seat, other)) is not None
        g.apply(PlaceHazard(seat, next(iter(p.towns))))  # a town: the player's choice
    assert order == [1, 3, 0]
    assert g.state.building_hazards == {next(iter(g.state.players[s].towns)) for s in (0, 1, 3)}


@pytest.mark.parametrize(
    "renewables, expected",
    [
        ({0: 1, 2: 2}, [2]),
        ({0: 2, 2: 2}, [2, 0]),  # tie: clockwise from the active seat 1
        ({}, []),  # nobody has one: nothing
        ({0: 1, 1: 1, 2: 1, 3: 1}, []),  # all tie: nothing (rule 6.5)
    ],
)
def test_rule_7_6_sustainable_production(renewables, expected):
    """Rule 7.6: the player(s) with the most renewable plants take a card of their choice."""
    g = new()
    release_greens(g, "sustainable_production", 3)
    for seat in range(4):
        c = city(g, seat)
        plants_on(g, seat, c, ["renewable"] * renewables.get(seat, 0))
    fire(g, "green", "sustainable_production")
    assert g.events[-1]["event"] == "sustainable_production"
    assert g.events[-1]["hit"] == expected
    order = []
    while g.pending is not None:
        order.append(g.current_seat)
        assert set(g.legal_actions()) == {TakeCard(g.current_seat, k) for k in CARD_KINDS}
        g.apply(TakeCard(g.current_seat, "food"))
    assert order == expected
    assert [s for s in range(4) if hand(g, s)["food"] == 1] == sorted(expected)


def test_rule_7_7_government_funding_top_card_not_playable_this_turn():
    """Rules 7.7/5.4: the lowest LF draws the top development card; it counts as received this
    turn and cannot be played until the player's next turn."""
    rules = en.RuleSet.standard(4).replace(dev_deck=(("cleanup", 14),))
    g = new(rules=rules)
    nxt = (g.active_seat + 1) % 4  # active after the turn change
    release_greens(g, "government_funding", 3)
    lfs = [2, 3, 2, 2]
    lfs[nxt] = 1  # the next active seat is the lowest
    build_lfs(g, lfs)
    deck = list(g.state.dev_deck)
    fire(g, "green", "government_funding")
    assert g.active_seat == nxt
    assert g.events[-1]["hit"] == [nxt]
    assert g.state.players[nxt].dev_cards == [deck[-1]]
    assert g.state.dev_deck == deck[:-1]
    assert g.why_illegal(PlayDevCard(nxt, "cleanup")) is not None  # before rolling
    roll(g)
    assert g.why_illegal(PlayDevCard(nxt, "cleanup")) is not None  # after rolling
    for _ in range(4):
        end_turn(g)
    assert g.active_seat == nxt
    assert g.why_illegal(PlayDevCard(nxt, "cleanup")) is None


def test_rule_7_7_government_funding_ties_and_standard_deck():
    """Rule 7.7: each tied lowest player draws the then-top card, clockwise from the active."""
    g = new()
    release_greens(g, "government_funding", 3)
    build_lfs(g, [1, 2, 3, 1])
    deck = list(g.state.dev_deck)
    fire(g, "green", "government_funding")
    assert g.events[-1]["hit"] == [3, 0]
    assert g.state.players[3].dev_cards == [deck[-1]]
    assert g.state.players[0].dev_cards == [deck[-2]]
    assert g.state.players[1].dev_cards == [] and g.state.players[2].dev_cards == []


@pytest.mark.parametrize("lfs", [[2, 2, 2, 2], [1, 3, 3, 3]])
def test_rule_7_7_government_funding_all_tie_or_empty_deck(lfs):
    """Rules 7.7/6.5: all tie -> nothing; an empty deck -> nothing."""
    empty = lfs != [2, 2, 2, 2]
    rules = en.RuleSet.standard(4).replace(dev_deck=()) if empty else None
    g = new(rules=rules)
    release_greens(g, "government_funding", 3)
    build_lfs(g, lfs)
    deck = list(g.state.dev_deck)
    fire(g, "green", "government_funding")
    assert g.events[-1]["event"] == "government_funding"
    assert all(p.dev_cards == [] for p in g.state.players)
    assert g.state.dev_deck == deck


# ==============================================================================================
# §8.3 - 8.5 Production: energy and hazards
# ==============================================================================================

# Corner 12 touches hex 0 (steel 10), hex 3 (food 12) and hex 4 (brick 6); corner 22 touches
# hex 3, hex 7 (food 9) and hex 8 (lumber 11). Hex 3 is the only 12 on the island.
C12, C22, C11 = 12, 22, 11  # corner 11 touches hex 3 only


@pytest.mark.parametrize(
    "building, plant, plant_hex, expected",
    [
        ("city", "renewable", 3, {"food": 1, "science": 1, "energy": 1}),
        ("city", "fossil", 3, {"food": 1, "science": 1, "energy": 1}),
        ("town", "renewable", 3, {"food": 1, "science": 0, "energy": 1}),
        ("town", "fossil", 3, {"food": 1, "science": 0, "energy": 1}),
        ("city", "renewable", 0, {"food": 1, "science": 1, "energy": 0}),  # plant hex not rolled
        ("city", None, None, {"food": 1, "science": 1, "energy": 0}),
    ],
)
def test_rule_8_3_plant_on_rolled_hex_gives_energy(building, plant, plant_hex, expected):
    """Rules 8.2/8.3: a city on the rolled hex gets the resource and 1 science; a plant of its
    building on that hex gives 1 energy."""
    g = new()
    s0 = g.active_seat
    sb.place(g, s0, building, C12)
    if plant:
        sb.place_plant(g, s0, plant, C12, plant_hex)
    supply = g.state.energy_supply
    roll(g, 6, 6)
    h = hand(g, s0)
    assert h["food"] == expected["food"]
    assert h["science"] == expected["science"]
    assert g.state.players[s0].energy == expected["energy"]
    assert g.state.energy_supply == supply - expected["energy"]


@pytest.mark.parametrize(
    "start, plants, expected",
    [(0, 2, 2), (3, 1, 4), (4, 2, 5), (5, 1, 5), (5, 2, 5)],
)
def test_rule_8_4_energy_cap(start, plants, expected):
    """Rule 8.4: a player never holds more than 5 energy; the excess is lost (stays in supply)."""
    g = new()
    s0 = g.active_seat
    sb.place(g, s0, "city", C12)
    sb.place(g, s0, "town", C22)
    sb.place_plant(g, s0, "renewable", C12, 3)
    if plants == 2:
        sb.place_plant(g, s0, "fossil", C22, 3)
    if start:
        sb.give(g, s0, energy=start)
    total = g.state.energy_supply + sum(p.energy for p in g.state.players)
    roll(g, 6, 6)
    assert g.state.players[s0].energy == expected
    assert g.rules.energy_cap == 5
    assert g.state.energy_supply + sum(p.energy for p in g.state.players) == total


def test_rule_8_1_inspector_hex_gives_no_energy():
    """Rules 8.1/8.3: a plant on the Inspector's hex gives nothing."""
    g = new()
    s0 = g.active_seat
    sb.place(g, s0, "city", C12)
    sb.place_plant(g, s0, "renewable", C12, 3)
    sb.move_inspector(g, 3)
    roll(g, 6, 6)
    assert sum(hand(g, s0).values()) == 0
    assert g.state.players[s0].energy == 0


def test_rule_8_5_hex_hazard_blocks_hex_and_is_removed():
    """Rules 8.1/8.5: a hex hazard blocks the hex (buildings and plants) and goes after the roll."""
    g = new()
    s0 = g.active_seat
    sb.place(g, s0, "city", C12)
    sb.place_plant(g, s0, "renewable", C12, 3)
    sb.add_hazard(g, hex=3)
    roll(g, 6, 6)
    assert sum(hand(g, s0).values()) == 0
    assert g.state.players[s0].energy == 0
    assert 3 not in g.state.hex_hazards


def test_rule_8_5_building_hazard_blocks_then_removed():
    """Rule 8.5: a building hazard blocks the building this roll and is removed because an
    adjacent hex without Inspector or hazard was rolled; other buildings still produce."""
    g = new()
    s0, s1 = g.active_seat, (g.active_seat + 1) % 4
    sb.place(g, s0, "city", C12)
    sb.place_plant(g, s0, "renewable", C12, 3)
    sb.place(g, s1, "town", C22)
    sb.add_hazard(g, building=C12)
    roll(g, 6, 6)
    assert sum(hand(g, s0).values()) == 0 and g.state.players[s0].energy == 0
    assert hand(g, s1)["food"] == 1
    assert C12 not in g.state.building_hazards


def test_rule_8_5_building_hazard_next_to_inspector_only_stays():
    """Rule 8.5: a building hazard whose only rolled neighbour hex holds the Inspector stays."""
    g = new()
    s0 = g.active_seat
    sb.place(g, s0, "town", C11)  # touches hex 3 only
    sb.add_hazard(g, building=C11)
    sb.move_inspector(g, 3)
    roll(g, 6, 6)
    assert C11 in g.state.building_hazards
    assert sum(hand(g, s0).values()) == 0


@pytest.mark.parametrize("piece, corner", [("town", C11), ("city", C11), ("city", C12)])
def test_rule_8_5_rolled_hazard_hex_also_clears_the_building_hazards_on_its_corners(piece, corner):
    """Rule 8.5: a rolled hex holding a hex hazard loses that hazard and every building hazard
    on its corners; nothing is produced there (C11 touches hex 3 only, C12 hexes 0, 3, 4)."""
    g = new()
    s0, s1 = g.active_seat, (g.active_seat + 1) % 4
    sb.place(g, s0, piece, corner)
    sb.place_plant(g, s0, "renewable", corner, 3)
    sb.place(g, s1, "town", C22)  # also on hex 3, without a building hazard
    sb.add_hazard(g, building=corner)
    sb.add_hazard(g, hex=3)
    roll(g, 6, 6)
    assert 3 not in g.state.hex_hazards
    assert corner not in g.state.building_hazards
    assert sum(hand(g, s0).values()) == 0 and g.state.players[s0].energy == 0
    assert sum(hand(g, s1).values()) == 0


def test_rule_8_5_building_hazards_away_from_the_rolled_hexes_stay():
    """Rule 8.5: only hazards on the rolled hexes and their corners go; others stay."""
    g = new()
    s0 = g.active_seat
    far = next(c for c in POOL if 3 not in BOARD.corner_hexes(c) and 0 not in BOARD.corner_hexes(c))
    sb.place(g, s0, "town", far)
    sb.add_hazard(g, building=far)
    sb.add_hazard(g, hex=3)
    sb.add_hazard(g, hex=0)
    roll(g, 6, 6)
    assert g.state.hex_hazards == {0}
    assert g.state.building_hazards == {far}


def test_rule_8_5a_a_building_hazard_silences_that_buildings_plants_only():
    """Rule 8.5a: a building with a hazard gets nothing and its plants give no energy; another
    building's plant on the same producing hex still gives energy."""
    g = new()
    s0, s1 = g.active_seat, (g.active_seat + 1) % 4
    sb.place(g, s0, "city", C12)
    sb.place_plant(g, s0, "fossil", C12, 3)
    sb.place(g, s1, "city", C22)
    sb.place_plant(g, s1, "fossil", C22, 3)
    sb.add_hazard(g, building=C12)
    roll(g, 6, 6)
    assert g.state.players[s0].energy == 0 and sum(hand(g, s0).values()) == 0
    assert g.state.players[s1].energy == 1
    assert hand(g, s1)["food"] == 1 and hand(g, s1)["science"] == 1


def _expected_after_roll(state, total: int):
    """Rules 8.1-8.5 and 8.5a restated independently of the engine: the hazards left after a
    roll of ``total`` and, per seat, (resource cards, science, energy) earned."""
    board = state.board
    if total == 7:
        return set(state.hex_hazards), set(state.building_hazards), None
    rolled = [h for h in range(len(board.hexes)) if board.hexes[h].number == total]
    clearing = [h for h in rolled if h != state.inspector]
    hexes_left = set(state.hex_hazards) - set(clearing)
    buildings_left = {
        c for c in state.building_hazards if not set(board.corner_hexes(c)) & set(clearing)
    }
    earned = {}
    for p in state.players:
        cards = science = energy = 0
        for c in p.towns | p.cities:
            if c in state.building_hazards:
                continue  # rules 8.2, 8.5a: the building and its plants get nothing
            for h in board.corner_hexes(c):
                if h not in clearing or h in state.hex_hazards:
                    continue  # rule 8.1: not rolled, the Inspector or a hex hazard
                cards += 1
                science += c in p.cities
                energy += (c, h) in p.plants
        earned[p.seat] = (cards, science, energy)
    return hexes_left, buildings_left, earned


@pytest.mark.parametrize("seed", range(12))
def test_rule_8_5_property_hazards_and_production_on_random_positions(seed):
    """Rules 8.1, 8.2, 8.3, 8.5, 8.5a on positions nobody wrote by hand: random bots play a
    seeded random-board game; before many rolls, hazards are sprinkled on random hexes and
    buildings and the dice fixed to a random total. What each seat earns and which hazards stay
    must follow the rules restated in ``_expected_after_roll``."""
    import random

    rng = random.Random(seed)
    rules = en.RuleSet.standard(rng.choice((3, 4)), layout="random")
    g = en.new_game(seed=seed, rules=rules)
    bot = en.bots.RandomBot()
    checked = 0
    while not g.is_over and g.turn <= 40:
        s = g.state
        if s.phase == "roll" and g.pending is None and rng.random() < 0.7:
            for _ in range(rng.randint(0, 3)):
                h = rng.randrange(len(g.board.hexes))
                if h not in s.hex_hazards and s.hazard_supply > 1:
                    sb.add_hazard(g, hex=h)
            for c in sorted(s.corner_owners()):
                if c not in s.building_hazards and s.hazard_supply > 0 and rng.random() < 0.3:
                    sb.add_hazard(g, building=c)
            total = rng.choice([t for t in range(2, 13)])
            d1 = max(1, total - 6)
            sb.fix_dice(g, d1, total - d1)
            hexes_left, buildings_left, earned = _expected_after_roll(s, total)
            plenty = min(s.supply.values()) >= 12 and s.energy_supply >= 12
            before = [(p.cards, p.hand["science"], p.energy) for p in s.players]
            g.apply(RollDice(g.active_seat))
            assert s.hex_hazards == hexes_left
            assert s.building_hazards == buildings_left
            if earned is not None and plenty:
                for p, (cards, science, energy) in zip(s.players, before):
                    want_cards, want_science, want_energy = earned[p.seat]
                    assert p.cards - cards == want_cards + want_science
                    assert p.hand["science"] - science == want_science
                    cap = g.rules.energy_cap
                    assert p.energy - energy == min(want_energy, cap - energy)
            checked += 1
            continue
        g.apply(bot.decide(g, g.legal_actions(), rng))
    assert checked >= 5


def test_rule_8_5_no_hazard_removed_on_a_seven():
    """Rule 8.5: on a 7 no hazard is removed."""
    g = new()
    s0 = g.active_seat
    sb.place(g, s0, "city", C12)
    sb.add_hazard(g, building=C12)
    sb.add_hazard(g, hex=3)
    sb.add_hazard(g, hex=10)
    roll(g, 3, 4)
    assert g.state.hex_hazards == {3, 10}
    assert g.state.building_hazards == {C12}


# ==============================================================================================
# §10.2 - 10.5 Power plants
# ==============================================================================================


def _action_phase(players: int = 4):
    g = new(players)
    roll(g)
    assert g.state.phase == "action"
    return g, g.active_seat


@pytest.mark.parametrize(
    "corner, hex_id, legal",
    [
        (C12, 3, True),  # own city, adjacent numbered hex
        (C12, 0, True),
        (C12, 5, False),  # not adjacent to the building
        (18, 9, True),  # the desert (rule 10.2 [H]: no source excludes it)
        (18, 4, True),
        (C22, 3, False),  # an opponent's building
        (40, 13, False),  # no building there
        (C12, 19, False),  # no such hex (sea)
    ],
)
def test_rule_10_2_plant_location(corner, hex_id, legal):
    """Rule 10.2: a plant stands on a land hex (the desert too) next to an own building."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    sb.place(g, s0, "city", 18)
    sb.place(g, (s0 + 1) % 4, "city", C22)
    sb.give(g, s0, science=1)
    assert (g.why_illegal(BuildPlant(s0, "fossil", corner, hex_id)) is None) == legal


DESERT_CORNER = 18  # touches hexes 4 (brick 6), 5 and 9, the desert


def _desert_city(rules: en.RuleSet | None = None):
    g = new(rules=rules)
    roll(g)
    s0 = g.active_seat
    sb.place(g, s0, "city", DESERT_CORNER)
    return g, s0


def test_rule_10_2_a_renewable_plant_on_the_desert_costs_3_science_and_lowers_lf():
    """Rule 10.2 [H]: the desert takes a plant by default; a renewable there costs its 3
    science like any other (rule 10) and lowers LF by 1 (rule 4.1)."""
    g, s0 = _desert_city()
    desert = g.board.desert
    spot = BuildPlant(s0, "renewable", DESERT_CORNER, desert)
    sb.give(g, s0, science=2)
    assert "science" in g.why_illegal(spot)
    sb.give(g, s0, science=1)
    assert spot in g.legal_actions()
    lf = g.local_footprint(s0)
    g.apply(spot)
    assert hand(g, s0)["science"] == 0 and g.local_footprint(s0) == lf - 1


def test_rule_10_2_the_switch_keeps_plants_off_the_desert():
    """Rule 10.2 [H]: ``plants_on_desert=False`` forbids the desert with a reason, for the
    paid plant, the sandbox and the listing alike."""
    g, s0 = _desert_city(en.RuleSet.standard(4, plants_on_desert=False))
    desert = g.board.desert
    sb.give(g, s0, science=3)
    reason = g.why_illegal(BuildPlant(s0, "renewable", DESERT_CORNER, desert))
    assert reason and "desert" in reason
    assert not any(isinstance(a, BuildPlant) and a.hex == desert for a in g.legal_actions())
    with pytest.raises(en.IllegalActionError, match="desert"):
        sb.place_plant(g, s0, "fossil", DESERT_CORNER, desert)


def test_rule_10_2_a_plant_on_the_desert_never_produces():
    """Rules 8.1, 8.3: the desert has no number, so its plant never gives energy; High Yield
    (rule 13.2) cannot choose it (no card to give) and is not playable with it alone."""
    g, s0 = _desert_city()
    desert = g.board.desert
    sb.place_plant(g, s0, "renewable", DESERT_CORNER, desert)
    for total in range(2, 13):
        if total != 7:
            assert desert not in BOARD.hexes_with_number(total)
    sb.give_dev_card(g, s0, "high_yield")
    assert g.why_illegal(PlayDevCard(s0, "high_yield")) is not None
    sb.place_plant(g, s0, "renewable", DESERT_CORNER, 4)
    g.apply(PlayDevCard(s0, "high_yield"))
    assert {k: v for k, v in hand(g, s0).items() if v} == {"brick": 1}


def test_rule_10_2_town_holds_one_plant():
    """Rule 10.2: a town carries at most 1 plant."""
    g, s0 = _action_phase()
    sb.place(g, s0, "town", C12)
    sb.place_plant(g, s0, "fossil", C12, 0)
    sb.give(g, s0, science=3)
    assert g.why_illegal(BuildPlant(s0, "fossil", C12, 3)) is not None
    assert g.why_illegal(BuildPlant(s0, "renewable", C12, 4)) is not None


def test_rule_10_2_city_holds_three_one_per_hex():
    """Rule 10.2: a city carries at most 3 plants, one per adjacent hex."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    sb.place_plant(g, s0, "fossil", C12, 0)
    sb.place_plant(g, s0, "renewable", C12, 3)
    sb.give(g, s0, science=3)
    assert g.why_illegal(BuildPlant(s0, "fossil", C12, 0)) is not None  # same hex again
    assert g.why_illegal(BuildPlant(s0, "renewable", C12, 3)) is not None
    g.apply(BuildPlant(s0, "fossil", C12, 4))
    assert len(g.state.players[s0].plants) == 3
    # the sandbox obeys the same slots
    with pytest.raises(en.IllegalActionError):
        sb.place_plant(g, s0, "fossil", C12, 0)


@pytest.mark.parametrize("same_owner", [True, False])
def test_rule_10_2_plants_of_different_buildings_share_a_hex(same_owner):
    """Rule 10.2: plants of different buildings may share a hex."""
    g, s0 = _action_phase()
    other = s0 if same_owner else (s0 + 1) % 4
    sb.place(g, s0, "city", C12)
    sb.place(g, other, "town", C22)
    sb.place_plant(g, other, "fossil", C22, 3)
    sb.give(g, s0, science=1)
    g.apply(BuildPlant(s0, "fossil", C12, 3))
    assert g.state.players[s0].plants[(C12, 3)] == "fossil"
    assert g.state.players[other].plants[(C22, 3)] == "fossil"


def test_rule_10_3_one_plant_per_turn():
    """Rule 10.3: at most one plant built per turn; the next own turn allows another."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    for s in range(4):
        if s != s0:
            sb.place(g, s, "town", POOL[s])  # keeps GF in the 1-disc band
    sb.give(g, s0, science=5)
    g.apply(BuildPlant(s0, "fossil", C12, 0))
    reason = g.why_illegal(BuildPlant(s0, "fossil", C12, 3))
    assert reason is not None
    assert g.why_illegal(BuildPlant(s0, "renewable", C12, 4)) is not None
    for _ in range(4):
        end_turn(g)
    roll(g)
    assert g.active_seat == s0
    assert g.why_illegal(BuildPlant(s0, "fossil", C12, 3)) is None


@pytest.mark.parametrize(
    "kind, science, legal",
    [("fossil", 1, True), ("fossil", 0, False), ("renewable", 3, True), ("renewable", 2, False)],
)
def test_rule_10_plant_costs(kind, science, legal):
    """Rule 10 table: a fossil plant costs 1 science, a renewable 3 science."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    if science:
        sb.give(g, s0, science=science)
    supply = g.state.supply["science"]
    a = BuildPlant(s0, kind, C12, 3)
    assert (g.why_illegal(a) is None) == legal
    if legal:
        g.apply(a)
        cost = {"fossil": 1, "renewable": 3}[kind]
        assert hand(g, s0)["science"] == science - cost
        assert g.state.supply["science"] == supply + cost
        assert g.rules.cost(kind) == {"science": cost}
    else:
        with pytest.raises(en.IllegalActionError):
            g.apply(a)


@pytest.mark.parametrize("kind, limit", [("fossil", 6), ("renewable", 9)])
def test_rule_1_plant_supply_limits(kind, limit):
    """§1/10.1: each player owns 6 fossil and 9 renewable plants."""
    g, s0 = _action_phase()
    assert g.rules.piece_limit(kind) == limit
    corners = []
    while len(corners) * 3 < limit:
        corners.append(city(g, s0))
    spots = [(c, h) for c in corners for h in BOARD.corner_hexes(c)][:limit]
    for c, h in spots:
        sb.place_plant(g, s0, kind, c, h)
    spare = city(g, s0)
    sb.give(g, s0, science=3)
    h = BOARD.corner_hexes(spare)[0]
    assert g.why_illegal(BuildPlant(s0, kind, spare, h)) is not None
    other = "renewable" if kind == "fossil" else "fossil"
    assert g.why_illegal(BuildPlant(s0, other, spare, h)) is None


def test_rule_10_4_renewable_moves_green_disc_into_bag():
    """Rule 10.4: building a renewable plant moves the next green disc from the player's slots
    into the bag; a fossil plant does not."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    p = g.state.players[s0]
    slots = list(p.green_slots)
    assert len(slots) == 9
    bag = list(g.state.bag)
    sb.give(g, s0, science=4)
    g.apply(BuildPlant(s0, "renewable", C12, 3))
    assert p.green_slots == slots[1:]
    assert len(g.state.bag) == len(bag) + 1
    assert g.state.bag.count(("green", slots[0])) == bag.count(("green", slots[0])) + 1
    # a fossil plant (sandbox, other hex) moves nothing
    sb.place_plant(g, s0, "fossil", C12, 0)
    assert len(g.state.bag) == len(bag) + 1 and p.green_slots == slots[1:]


def test_rule_10_5_upgrade_keeps_plant_and_plants_score_no_vp():
    """Rule 10.5 [H]: upgrading a town keeps its plant (now the city's); plants score no VP."""
    g, s0 = _action_phase()
    sb.place(g, s0, "town", C12)
    vp = g.victory_points(s0)
    sb.place_plant(g, s0, "renewable", C12, 3)
    assert g.victory_points(s0) == vp
    sb.give(g, s0, steel=3, food=2, science=1)
    g.apply(BuildCity(s0, C12))
    p = g.state.players[s0]
    assert C12 in p.cities and p.plants == {(C12, 3): "renewable"}
    assert g.victory_points(s0) == vp + 1  # city 2 VP, the plant 0
    # the city now has 2 free slots
    g.apply(BuildPlant(s0, "fossil", C12, 0))
    assert len(p.plants) == 2
    assert g.victory_points(s0) == vp + 1


# ==============================================================================================
# §11 Energy actions
# ==============================================================================================


@pytest.mark.parametrize("place", ["hex", "own_building", "other_building"])
def test_rule_11_remove_any_hazard_for_one_energy(place):
    """Rule 11: 1 energy removes any one hazard from the board."""
    g, s0 = _action_phase()
    s1 = (s0 + 1) % 4
    sb.place(g, s0, "city", C12)
    sb.place(g, s1, "city", C22)
    where, index = {
        "hex": ("hex", 5),
        "own_building": ("building", C12),
        "other_building": ("building", C22),
    }[place]
    sb.add_hazard(g, **({"hex": index} if where == "hex" else {"building": index}))
    assert g.why_illegal(RemoveHazard(s0, where, index)) is not None  # no energy
    sb.give(g, s0, energy=2)
    supply = g.state.energy_supply
    assert RemoveHazard(s0, where, index) in g.legal_actions()
    g.apply(RemoveHazard(s0, where, index))
    assert index not in (g.state.hex_hazards if where == "hex" else g.state.building_hazards)
    assert g.state.players[s0].energy == 1
    assert g.state.energy_supply == supply + 1


def test_rule_11_demolish_fossil_once_per_turn():
    """Rule 11: 1 energy demolishes one own fossil plant (back to supply, LF -1), once per turn;
    renewable plants cannot be demolished."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    sb.place_plant(g, s0, "fossil", C12, 0)
    sb.place_plant(g, s0, "fossil", C12, 3)
    sb.place_plant(g, s0, "renewable", C12, 4)
    assert g.why_illegal(DemolishFossil(s0, C12, 0)) is not None  # no energy
    sb.give(g, s0, energy=3)
    lf, left = g.local_footprint(s0), g.state.pieces_left(s0, "fossil")
    assert g.why_illegal(DemolishFossil(s0, C12, 4)) is not None  # renewable
    g.apply(DemolishFossil(s0, C12, 0))
    assert g.local_footprint(s0) == lf - 1
    assert g.state.pieces_left(s0, "fossil") == left + 1
    assert g.state.players[s0].energy == 2
    assert (C12, 0) not in g.state.players[s0].plants
    assert g.why_illegal(DemolishFossil(s0, C12, 3)) is not None  # once per turn


def test_rule_11_cannot_demolish_opponents_plant():
    """Rule 11: only one's own fossil plants can be demolished."""
    g, s0 = _action_phase()
    s1 = (s0 + 1) % 4
    sb.place(g, s1, "city", C12)
    sb.place_plant(g, s1, "fossil", C12, 0)
    sb.give(g, s0, energy=1)
    assert g.why_illegal(DemolishFossil(s0, C12, 0)) is not None


def test_rule_11_warehouse_two_energy_once_per_game():
    """Rule 11: the warehouse costs 2 energy and is built once per game."""
    g, s0 = _action_phase()
    assert g.why_illegal(BuildWarehouse(s0)) is not None
    sb.give(g, s0, energy=5)
    g.apply(BuildWarehouse(s0))
    assert g.state.players[s0].warehouse and g.state.players[s0].energy == 3
    assert g.why_illegal(BuildWarehouse(s0)) is not None


@pytest.mark.parametrize(
    "warehouse, cards, discard",
    [(False, 7, 0), (False, 8, 4), (True, 8, 0), (True, 10, 0), (True, 11, 5), (True, 13, 6)],
)
def test_rule_9_1_warehouse_raises_threshold_to_ten(warehouse, cards, discard):
    """Rules 9.1/11: with a warehouse the 7-threshold is 10 instead of 7."""
    g = new()
    s0 = g.active_seat
    sb.give(g, s0, lumber=cards)
    if warehouse:
        roll(g)
        sb.give(g, s0, energy=2)
        g.apply(BuildWarehouse(s0))
        for _ in range(4):
            end_turn(g)
    assert g.active_seat == s0
    roll(g, 3, 4)
    tasks = [t for t in g.state.queue if t.kind == "discard" and t.seat == s0]
    assert (tasks[0].info["count"] if tasks else 0) == discard


@pytest.mark.parametrize("card", ["steel", "science", "lumber"])
def test_rule_11_two_energy_for_a_card_of_choice(card):
    """Rules 11/12.2: 2 energy -> 1 resource or science card of choice from the supply."""
    g, s0 = _action_phase()
    sb.give(g, s0, energy=1)
    assert g.why_illegal(TradeWithSupply(s0, "energy", card)) is not None
    sb.give(g, s0, energy=2)
    g.apply(TradeWithSupply(s0, "energy", card))
    assert g.state.players[s0].energy == 1
    assert hand(g, s0)[card] == 1


def test_rule_11_1_energy_never_stolen_on_a_seven():
    """Rule 11.1: the steal after a 7 takes a resource or science card, never energy."""
    g = new()
    s0, s1 = g.active_seat, (g.active_seat + 1) % 4
    sb.place(g, s1, "town", C11)  # on hex 3
    sb.give(g, s1, energy=4, food=1)
    roll(g, 3, 4)
    g.apply(MoveInspector(s0, 3))
    assert g.state.players[s1].energy == 4
    assert hand(g, s1)["food"] == 0 and hand(g, s0)["food"] == 1
    assert g.state.players[s0].energy == 0


def test_rule_11_1_energy_only_victim_cannot_be_robbed():
    """Rule 11.1: a player holding only energy loses nothing to a steal."""
    g = new()
    s0, s1 = g.active_seat, (g.active_seat + 1) % 4
    sb.place(g, s1, "town", C11)
    sb.give(g, s1, energy=4)
    roll(g, 3, 4)
    g.apply(MoveInspector(s0, 3))
    assert g.state.players[s1].energy == 4
    assert g.state.players[s0].energy == 0
    assert g.pending is None


def test_rule_11_1_energy_never_discarded():
    """Rules 11.1/9.1: energy does not count toward the 7 limit and cannot be discarded."""
    g = new()
    s0 = g.active_seat
    sb.give(g, s0, lumber=8, energy=5)
    roll(g, 3, 4)
    task = g.state.queue[0]
    assert task.kind == "discard" and task.seat == s0 and task.info["count"] == 4
    assert g.why_illegal(DiscardCard(s0, "energy")) is not None
    for _ in range(4):
        g.apply(DiscardCard(s0, "lumber"))
    assert g.state.players[s0].energy == 5
    assert hand(g, s0)["lumber"] == 4
    assert "move" in g.pending


@pytest.mark.parametrize("direction", ["give", "get"])
def test_rule_11_1_energy_tradeable_between_players(direction):
    """Rules 11.1/12.1 [H]: energy may be traded between players."""
    g, s0 = _action_phase()
    s1 = (s0 + 1) % 4
    sb.give(g, s0, energy=3, brick=1)
    sb.give(g, s1, energy=2, steel=1)
    if direction == "give":
        offer = OfferTrade(s0, s1, (("energy", 2),), (("steel", 1),))
        after = {s0: 1, s1: 4}
    else:
        offer = OfferTrade(s0, s1, (("brick", 1),), (("energy", 2),))
        after = {s0: 5, s1: 0}
    g.apply(offer)
    assert g.current_seat == s1
    g.apply(RespondToTrade(s1, True))
    assert {s: g.state.players[s].energy for s in (s0, s1)} == after


# ==============================================================================================
# §13.2 High Yield, §13.5 Cleanup
# ==============================================================================================


@pytest.mark.parametrize(
    "layout, expected",
    [
        # (corner, hex, kind) plants -> resources gained
        ([(C12, 0, "renewable"), (C12, 3, "renewable")], {"steel": 1, "food": 1}),
        ([(C12, 3, "renewable"), (C22, 3, "renewable")], {"food": 1}),  # one hex counts once
        ([(C12, 0, "renewable"), (C12, 4, "fossil")], {"steel": 1}),  # fossil hexes do not count
        (
            [(C12, 0, "renewable"), (C12, 3, "renewable"), (C22, 8, "renewable")],
            {"steel": 1, "food": 1, "lumber": 1},
        ),
    ],
)
def test_rule_13_2_high_yield_up_to_three_hexes(layout, expected):
    """Rule 13.2: 1 resource from each of up to 3 different hexes with own renewable plants."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    sb.place(g, s0, "city", C22)
    for c, h, kind in layout:
        sb.place_plant(g, s0, kind, c, h)
    sb.give_dev_card(g, s0, "high_yield")
    g.apply(PlayDevCard(s0, "high_yield"))
    assert g.pending is None
    assert {k: v for k, v in hand(g, s0).items() if v} == expected


def test_rule_13_2_high_yield_more_than_three_hexes_choose():
    """Rule 13.2: with more than 3 renewable hexes the player chooses 3 different ones."""
    g, s0 = _action_phase()
    sb.place(g, s0, "city", C12)
    sb.place(g, s0, "city", C22)
    for c, h in [(C12, 0), (C12, 3), (C12, 4), (C22, 7)]:
        sb.place_plant(g, s0, "renewable", c, h)
    sb.place_plant(g, s0, "fossil", C22, 8)
    sb.give_dev_card(g, s0, "high_yield")
    g.apply(PlayDevCard(s0, "high_yield"))
    assert g.current_seat == s0
    assert set(g.legal_actions()) == {ChooseHex(s0, h) for h in (0, 3, 4, 7)}
    assert g.why_illegal(ChooseHex(s0, 8)) is not None  # fossil only
    g.apply(ChooseHex(s0, 0))
    assert g.why_illegal(ChooseHex(s0, 0)) is not None  # already chosen
    g.apply(ChooseHex(s0, 4))
    g.apply(ChooseHex(s0, 7))
    assert g.pending is None
    assert {k: v for k, v in hand(g, s0).items() if v} == {"steel": 1, "brick": 1, "food": 1}


def _cleanup_position(lfs):
    g = new()
    s0 = g.active_seat
    assert s0 == 0
    build_lfs(g, lfs)
    for s in range(1, 4):
        sb.give(g, s, fiber=2)
    roll(g)
    sb.give_dev_card(g, s0, "cleanup")
    g.apply(PlayDevCard(s0, "cleanup"))
    return g


def test_rule_13_5_cleanup_move_inspector_then_steal_from_higher_lf():
    """Rule 13.5: move the Inspector (no 9.2 steal), then steal from the only higher-LF player,
    wherever that player's buildings are; played Cleanups stay face up."""
    g = _cleanup_position([2, 3, 2, 1])
    assert g.current_seat == 0
    far = 18  # no building of seat 1 touches hex 18
    assert not any(18 in BOARD.corner_hexes(c) for c in g.state.players[1].buildings())
    g.apply(MoveInspector(0, far))
    assert g.state.inspector == far
    assert sum(hand(g, 0).values()) == 1
    assert hand(g, 1)["fiber"] == 1 and hand(g, 2)["fiber"] == 2 and hand(g, 3)["fiber"] == 2
    p = g.state.players[0]
    assert p.dev_played == {"cleanup": 1} and "cleanup" not in p.dev_cards


def test_rule_13_5_cleanup_remove_hazard_free():
    """Rule 13.5: or remove 1 hazard (no energy needed), then steal."""
    g = new()
    build_lfs(g, [2, 3, 2, 1])
    sb.add_hazard(g, hex=5)
    sb.give(g, 1, fiber=1)
    roll(g)
    sb.give_dev_card(g, 0, "cleanup")
    g.apply(PlayDevCard(0, "cleanup"))
    assert RemoveHazard(0, "hex", 5) in g.legal_actions()
    g.apply(RemoveHazard(0, "hex", 5))
    assert 5 not in g.state.hex_hazards
    assert g.state.players[0].energy == 0
    assert hand(g, 0)["fiber"] == 1 and hand(g, 1)["fiber"] == 0


def test_rule_13_5_cleanup_nobody_higher_no_steal():
    """Rule 13.5: nobody with a higher LF -> no steal (equal LF is not higher)."""
    g = _cleanup_position([3, 3, 2, 1])
    g.apply(MoveInspector(0, 18))
    assert g.pending is None
    assert sum(hand(g, 0).values()) == 0
    assert all(hand(g, s)["fiber"] == 2 for s in (1, 2, 3))


def test_rule_13_5_cleanup_choose_among_higher():
    """Rule 13.5: several higher-LF players: the player chooses; a lower one is not allowed."""
    g = _cleanup_position([2, 3, 1, 4])
    g.apply(MoveInspector(0, 18))
    assert g.current_seat == 0
    assert set(g.legal_actions()) == {ChooseVictim(0, 1), ChooseVictim(0, 3)}
    assert g.why_illegal(ChooseVictim(0, 2)) is not None
    g.apply(ChooseVictim(0, 3))
    assert hand(g, 3)["fiber"] == 1 and hand(g, 1)["fiber"] == 2


def test_rule_13_5_cleanup_inspector_moves_like_9_2():
    """Rule 13.5: the Inspector moves as in rule 9.2: to another hex without a hazard."""
    g = new()
    sb.add_hazard(g, hex=5)
    roll(g)
    sb.give_dev_card(g, 0, "cleanup")
    g.apply(PlayDevCard(0, "cleanup"))
    assert g.why_illegal(MoveInspector(0, g.state.inspector)) is not None
    assert g.why_illegal(MoveInspector(0, 5)) is not None


# ==============================================================================================
# §14.2 Empty bag
# ==============================================================================================


@pytest.mark.parametrize(
    "plants, extra_towns, kind, winners, eliminated",
    [
        # plants: seat -> (renewable, fossil)
        ({0: (2, 0), 1: (1, 0), 3: (0, 1)}, {}, "empty_bag", (0,), (3,)),
        ({0: (3, 0), 1: (4, 2)}, {1: 3}, "empty_bag", (0,), ()),  # balance first, not VP
        ({0: (3, 1), 1: (2, 0), 2: (1, 0)}, {1: 1}, "empty_bag", (1,), ()),  # tie -> VP
        ({0: (3, 1), 1: (2, 0), 2: (1, 0)}, {}, "empty_bag", (0, 1), ()),  # tie on VP -> shared
        ({0: (1, 1), 2: (2, 2)}, {}, "everyone_loses", (), ()),  # equal is not enough
        ({0: (0, 1), 1: (1, 2)}, {}, "everyone_loses", (), (0, 1)),
        ({}, {}, "everyone_loses", (), ()),
        ({0: (1, 0), 1: (1, 0), 2: (1, 0), 3: (2, 3)}, {2: 1}, "empty_bag", (2,), (3,)),
    ],
)
def test_rule_14_2_empty_bag_ending(plants, extra_towns, kind, winners, eliminated):
    """Rule 14.2: at the empty bag, more fossil than renewable -> eliminated; strictly more
    renewable than fossil needed; highest (renewable - fossil) wins; ties by VP, then shared;
    nobody qualifies -> everybody loses (no winners)."""
    g = new(rules=_one_disc_rules(1))
    assert g.state.bag == []
    for seat in range(4):
        corners = [city(g, seat), city(g, seat)]
        r, f = plants.get(seat, (0, 0))
        spots = [(c, h) for c in corners for h in BOARD.corner_hexes(c)]
        for kind_, (c, h) in zip(["renewable"] * r + ["fossil"] * f, spots, strict=False):
            sb.place_plant(g, seat, kind_, c, h)
        for _ in range(extra_towns.get(seat, 0)):
            town(g, seat)
        assert g.victory_points(seat) < 10
    roll(g)
    g.apply(EndTurn(g.active_seat))
    assert g.is_over
    assert g.outcome.kind == kind
    assert g.outcome.winners == winners
    assert tuple(sorted(g.outcome.eliminated)) == eliminated


def _empty_bag_game(plants, extra_towns, even_survives: bool) -> en.Game:
    """Play to the empty bag with ``plants`` (seat -> (renewable, fossil)) on the board."""
    g = new(rules=_one_disc_rules(1).replace(empty_bag_even_survives=even_survives))
    for seat in range(4):
        corners = [city(g, seat), city(g, seat)]
        r, f = plants.get(seat, (0, 0))
        spots = [(c, h) for c in corners for h in BOARD.corner_hexes(c)]
        for kind_, (c, h) in zip(["renewable"] * r + ["fossil"] * f, spots, strict=False):
            sb.place_plant(g, seat, kind_, c, h)
        for _ in range(extra_towns.get(seat, 0)):
            town(g, seat)
        assert g.victory_points(seat) < 10
    roll(g)
    g.apply(EndTurn(g.active_seat))
    assert g.is_over
    return g


@pytest.mark.parametrize(
    "plants, extra_towns, kind, winners, eliminated",
    [
        ({0: (1, 1), 2: (2, 2)}, {2: 1}, "empty_bag", (2,), ()),  # even balances compete (VP)
        ({0: (1, 1), 2: (2, 2)}, {}, "empty_bag", (0, 1, 2, 3), ()),  # all at 0, VP tie: shared
        ({0: (0, 1), 1: (1, 2)}, {}, "empty_bag", (2, 3), (0, 1)),  # none of each may win
        ({0: (0, 1), 1: (0, 1), 2: (1, 2), 3: (0, 3)}, {}, "everyone_loses", (), (0, 1, 2, 3)),
        ({0: (2, 0), 1: (1, 0), 3: (0, 1)}, {}, "empty_bag", (0,), (3,)),  # as in rule 14.2
    ],
)
def test_rule_14_2a_chinese_reading_only_fossil_heavy_players_are_out(
    plants, extra_towns, kind, winners, eliminated
):
    """Rule 14.2a (``empty_bag_even_survives=True``): only more fossil than renewable plants
    eliminates; the rest compete on (renewable - fossil), so 1 and 1, or none, can win;
    everybody loses only when all are eliminated."""
    g = _empty_bag_game(plants, extra_towns, even_survives=True)
    assert (g.outcome.kind, g.outcome.winners) == (kind, winners)
    assert tuple(sorted(g.outcome.eliminated)) == eliminated


def _empty_bag_oracle(plants, vps, even_survives: bool):
    """Rules 14.2 and 14.2a restated: (kind, winners, eliminated)."""
    counts = {seat: plants.get(seat, (0, 0)) for seat in range(4)}
    eliminated = tuple(s for s, (r, f) in counts.items() if f > r)
    if even_survives:
        contenders = {s: r - f for s, (r, f) in counts.items() if f <= r}
    else:
        contenders = {s: r - f for s, (r, f) in counts.items() if r > f}
    if not contenders:
        return "everyone_loses", (), eliminated
    best = max(contenders.values())
    tied = [s for s, b in contenders.items() if b == best]
    top_vp = max(vps[s] for s in tied)
    return "empty_bag", tuple(s for s in tied if vps[s] == top_vp), eliminated


@pytest.mark.parametrize("even_survives", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_rule_14_2_and_14_2a_property_on_random_plant_counts(seed, even_survives):
    """Rules 14.2 / 14.2a both ways on random plant counts and VP: the outcome matches the
    rules restated in ``_empty_bag_oracle``."""
    import random

    rng = random.Random(seed * 2 + even_survives)
    plants = {s: (rng.randint(0, 3), rng.randint(0, 3)) for s in range(4) if rng.random() < 0.85}
    extra = {s: rng.randint(0, 1) for s in range(4)}
    g = _empty_bag_game(plants, extra, even_survives)
    vps = [g.victory_points(s) for s in range(4)]
    kind, winners, eliminated = _empty_bag_oracle(plants, vps, even_survives)
    assert (g.outcome.kind, g.outcome.winners) == (kind, winners)
    assert tuple(sorted(g.outcome.eliminated)) == eliminated


# ==============================================================================================
# History and event records (design §3)
# ==============================================================================================

HISTORY_KEYS = {
    "turn", "seat", "lf", "gf", "vp", "towns", "cities", "fossil", "renewable", "energy",
    "science", "hand_size", "hazards_on_buildings",
}  # fmt: skip


def test_history_one_record_per_seat_per_turn():
    """Design §3: g.history has one record per seat per turn with footprint, pieces and cards."""
    g = new()
    build_lfs(g, [2, 3, 1, 2])
    c1 = next(iter(g.state.players[1].cities))
    sb.place_plant(g, 1, "fossil", c1, BOARD.corner_hexes(c1)[0])
    c0 = next(iter(g.state.players[0].cities))
    sb.place_plant(g, 0, "renewable", c0, BOARD.corner_hexes(c0)[0])
    sb.give(g, 0, energy=2, science=3, brick=1)
    sb.add_hazard(g, building=c1)
    roll(g)
    s = g.state
    expected = [
        {
            "turn": g.turn,
            "seat": seat,
            "lf": g.local_footprint(seat),
            "gf": g.global_footprint,
            "vp": g.victory_points(seat),
            "towns": len(p.towns),
            "cities": len(p.cities),
            "fossil": p.count_plants("fossil"),
            "renewable": p.count_plants("renewable"),
            "energy": p.energy,
            "science": p.hand["science"],
            "hand_size": p.cards,
            "hazards_on_buildings": len(p.buildings() & s.building_hazards),
        }
        for seat, p in enumerate(s.players)
    ]
    end_turn(g)
    end_turn(g)
    turns = [r["turn"] for r in g.history]
    for t in range(g.turn):
        assert sorted(r["seat"] for r in g.history if r["turn"] == t) == [0, 1, 2, 3]
    assert turns == sorted(turns)
    assert all(HISTORY_KEYS <= set(r) for r in g.history)
    turn1 = [r for r in g.history if r["turn"] == 1]
    assert [{k: r[k] for k in HISTORY_KEYS} for r in turn1] == expected
    assert expected[0]["energy"] == 2 and expected[1]["hazards_on_buildings"] == 1
    assert expected[0]["renewable"] == 1 and expected[1]["fossil"] == 1

    frame = g.history_frame()
    assert len(frame) == len(g.history)
    assert HISTORY_KEYS <= set(frame.columns)
    assert list(frame[frame["turn"] == 1]["lf"]) == [e["lf"] for e in expected]


def test_events_record_each_fired_event():
    """Design §3: g.events records each fired event with turn, event, hit and effect;
    g.events_frame() is a DataFrame of them."""
    g = new()
    build_lfs(g, [1, 2, 1, 1])
    n = len(g.events)
    fire(g, "brown", "air_pollution")
    decide_all(g, lambda seat, legal: legal[0])
    fire(g, "brown", "rain_and_flooding")
    decide_all(g, lambda seat, legal: legal[0])
    new_events = g.events[n:]
    assert [e["event"] for e in new_events] == ["air_pollution", "rain_and_flooding"]
    assert [e["turn"] for e in new_events] == [2, 3]
    assert new_events[0]["hit"] == [1]
    assert new_events[1]["hit"] == [2, 3, 0, 1]
    assert all(isinstance(e["effect"], str) and e["effect"] for e in new_events)
    frame = g.events_frame()
    assert len(frame) == len(g.events)
    assert {"turn", "event", "hit", "effect"} <= set(frame.columns)
    assert list(frame["event"])[-2:] == ["air_pollution", "rain_and_flooding"]


# ==============================================================================================
# Who pays for pollution: what each seat lost, by cause (energies.insight.burden reads it)
# ==============================================================================================


def lost(g: en.Game, seat: int, *keys: str) -> tuple[int, ...]:
    return tuple(getattr(g.state.stats[seat], k) for k in keys)


def test_rule_8_1_production_a_hazard_keeps_is_counted_apart_from_the_inspectors():
    """Rules 8.1, 8.2, 8.5: hex 3 (the only 12) blocked by a hex hazard, then by the Inspector,
    then a building hazard next to it. Seat 0's city at corner 12 loses its food and science
    (2 cards), seat 1's town at corner 22 its food (1). production_lost counts every card kept;
    production_lost_hazard only those a hazard kept."""
    g = new()
    sb.place(g, 0, "city", C12)
    sb.place(g, 1, "town", C22)
    sb.add_hazard(g, hex=3)
    roll(g, 6, 6)  # the hex hazard blocks both, then goes (rule 8.5)
    assert [lost(g, s, "production_lost", "production_lost_hazard") for s in (0, 1)] == [
        (2, 2),
        (1, 1),
    ]
    end_turn(g)
    sb.move_inspector(g, 3)
    roll(g, 6, 6)  # the Inspector: ordinary Catan, no hazard
    assert [lost(g, s, "production_lost", "production_lost_hazard") for s in (0, 1)] == [
        (4, 2),
        (2, 1),
    ]
    end_turn(g)
    sb.move_inspector(g, 0)  # (hex 0 is not rolled)
    sb.add_hazard(g, building=C22)
    roll(g, 6, 6)  # only seat 1's town is blocked, by its building hazard
    assert [lost(g, s, "production_lost", "production_lost_hazard") for s in (0, 1)] == [
        (4, 2),
        (3, 2),
    ]
    end_turn(g)
    record = {r["seat"]: r for r in g.history if r["turn"] == 3}
    assert (record[1]["production_lost"], record[1]["production_lost_hazard"]) == (3, 2)


def test_rule_7_2_each_seat_counts_the_pollution_hazards_on_its_buildings_hexes():
    """Rule 7.2: Environmental Pollution rolls 12: hex 3 gets a hazard. Seat 0 (city at corner
    12) and seat 1 (towns at corners 22 and 11, both on hex 3) suffer it once each; seat 2,
    elsewhere, not at all."""
    g = new()
    sb.place(g, 0, "city", C12)
    sb.place(g, 1, "town", C22)
    sb.place(g, 1, "town", C11)
    town(g, 2)
    arm(g, "brown", "environmental_pollution")
    roll(g)
    sb.fix_dice(g, 6, 6)
    end_turn(g, ("brown", "environmental_pollution"))
    assert g.events[-1]["event"] == "environmental_pollution" and 3 in g.state.hex_hazards
    assert [lost(g, s, "hex_hazards_suffered") for s in range(4)] == [(1,), (1,), (0,), (0,)]
    assert sorted(g.events[-1]["hit"]) == [0, 1]


def test_rule_7_1_and_9_1_discards_to_a_brown_event_and_on_a_seven_are_counted_apart():
    """A brown Climate Conference (rule 7.1) takes a card from the highest LF: a pollution
    loss; the same event fired by a green disc (rule 6.4, the shared row) and the discards on a
    7 (rule 9.1) are not pollution. cards_discarded counts them all."""
    g = new()
    release_greens(g, "climate_conference", 1)
    build_lfs(g, [1, 2, 2, 3])
    sb.give(g, 3, steel=2)
    fire(g, "brown", "climate_conference")
    g.apply(TakeCard(0, "brick"))
    g.apply(DiscardCard(3, "steel"))
    assert lost(g, 3, "cards_discarded", "cards_discarded_brown", "cards_discarded_seven") == (
        1,
        1,
        0,
    )
    sb.fill_row(g, "brown", "climate_conference")
    sb.fill_row(g, "brown", "climate_conference")
    end_turn(g, ("green", "climate_conference"))
    assert g.events[-1]["color"] == "green"
    g.apply(TakeCard(0, "brick"))
    g.apply(DiscardCard(3, "steel"))
    assert lost(g, 3, "cards_discarded", "cards_discarded_brown", "cards_discarded_seven") == (
        2,
        1,
        0,
    )
    sb.give(g, 3, lumber=8)
    roll(g, 3, 4)  # a 7: seat 3 holds 8 cards and discards 4 (rule 9.1)
    while g.pending == "discard cards":
        g.apply(g.legal_actions()[0])
    assert lost(g, 3, "cards_discarded", "cards_discarded_brown", "cards_discarded_seven") == (
        6,
        1,
        4,
    )
