"""Insight tools (energies.insight): event risk meter, what-if branches, burden, payoff matrix.

Rules cited: 4.3 (discs per event phase), 6.1 (N fixed, empty bag ends the game), 6.2
(rows fire when full and their discs leave), 6.4 (shared Climate Conference row), 3.1/10.4
(green discs face down under slots, moved into the bag by renewable plants), 14.2.
"""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction

import pandas as pd
import pytest
from energies.actions import (
    BuildCity,
    BuildPlant,
    Decline,
    DiscardCard,
    EndTurn,
    MoveInspector,
    RollDice,
)

import energies as en
from energies import sandbox
from energies.insight import (
    alternatives,
    bag_runs_out_within,
    branch_point,
    burden,
    event_risk,
    payoff_matrix,
    plot_burden,
    plot_event_risk,
    plot_payoff,
    public_bag,
    what_if,
)
from energies.insight.burden import concentration_index
from energies.insight.payoff import lineups_for
from energies.insight.whatif import action_turns
from energies.newenergies.rules import GREEN_CLIMATE_ROW, ROWS
from energies.runner import play_one, simulate

SMALL_BROWN = (
    ("climate_conference", 2),
    ("environmental_pollution", 1),
    ("air_pollution", 1),
    ("production_increase", 1),
    ("rain_and_flooding", 1),
)
ONE_BROWN = (("climate_conference", 1),) + tuple((s, 0) for s, _ in SMALL_BROWN[1:])
SMALL_GREEN = (("climate_conference", 1), ("sustainable_production", 1), ("government_funding", 1))


# ==============================================================================================
# helpers
# ==============================================================================================


def settle(g) -> None:
    """Answer pending decisions with the first legal option until the active seat acts freely."""
    for _ in range(500):
        if g.is_over or not g.state.queue:
            return
        g.apply(g.legal_actions()[0])
    raise AssertionError("decisions did not settle")


def three_hex_corners(g, count):
    """Corners touching three numbered land hexes, spread over the board."""
    b = g.board
    corners = [
        c
        for c in range(len(b.corners))
        if len([h for h in b.corner_hexes(c) if b.hexes[h].number]) == 3
    ]
    step = max(1, len(corners) // count)
    return corners[::step][:count]


def small_game(draws, players=3, spaces=3, shared=True, release=(), fills=(), seed=5, **rules_kw):
    """A game with a tiny bag, an empty island and GF 0, waiting in the roll phase.

    ``release``: per seat, how many renewable plants it gets (each moves one green disc from
    under its slots into the bag, rule 10.4). ``fills``: (color, symbol) discs put on their rows.
    The disc bands give ``draws`` discs at GF 0 and none above (so the turn-1 phase draws none).
    """
    space_map = spaces if isinstance(spaces, dict) else {}
    event_spaces = tuple(
        (row, space_map.get(row, spaces if isinstance(spaces, int) else 3)) for row in ROWS
    )
    bands = ((0, 0, draws), (1, 28, 0))
    rules = en.RuleSet.standard(
        players,
        brown_discs=rules_kw.pop("brown", SMALL_BROWN),
        green_discs_per_player=rules_kw.pop("green", SMALL_GREEN),
        event_spaces=event_spaces,
        shared_climate_row=shared,
        disc_bands_3p=bands,
        disc_bands_4p=bands,
        **rules_kw,
    )
    g = en.new_game(seed=seed, rules=rules)
    settle(g)
    sandbox.clear_board(g)
    corners = three_hex_corners(g, players)
    for seat, plants in enumerate(release):
        if plants == 0:
            continue
        corner = corners[seat]
        sandbox.place(g, seat, "city" if plants > 1 else "town", corner)
        hexes = [h for h in g.board.corner_hexes(corner) if g.board.hexes[h].number]
        for h in hexes[:plants]:
            sandbox.place_plant(g, seat, "renewable", corner, h)
    for color, symbol in fills:
        sandbox.fill_row(g, color, symbol)
    assert g.state.phase == "roll" and g.global_footprint == 0
    return g


def release_greens(g, per_seat):
    """Each seat builds up to ``per_seat`` renewable plants on free slots (rule 10.4)."""
    for seat in range(g.rules.players):
        built = 0
        for corner in sorted(g.state.players[seat].buildings()):
            for h in g.board.corner_hexes(corner):
                edit = en.actions.SandboxEdit(seat, "place_plant", ("renewable", corner, h))
                if built < per_seat and g.why_illegal(edit) is None:
                    g.apply(edit)
                    built += 1


def fill_if_room(g, color, symbol):
    """Put a disc on its row unless that would fill it (sandbox.fill_row refuses that)."""
    row = g.rules.row_of(color, symbol)
    if (color, symbol) in g.state.bag and len(g.state.event_board[row]) + 1 < g.rules.spaces(row):
        sandbox.fill_row(g, color, symbol)


def unseen_greens(state):
    """Labelled unseen green discs: every green of the rules minus those on the board/removed."""
    pool = Counter({s: n * state.n for s, n in state.rules.green_discs_per_player})
    for color, symbol in [d for ds in state.event_board.values() for d in ds] + state.removed_discs:
        if color == "green":
            pool[symbol] -= 1
    return [("green", s, i) for s, n in sorted(pool.items()) for i in range(n)]


def fire_rows(rules, board_counts, discs):
    """Independent little simulator of rule 6.2: {row: times fired} for a draw sequence."""
    counts = dict(board_counts)
    fired = Counter()
    for color, symbol in discs:
        row = rules.row_of(color, symbol)
        counts[row] = counts.get(row, 0) + 1
        if counts[row] >= rules.spaces(row):
            fired[row] += 1
            counts[row] = 0
    return fired


def brute_force(g, draws):
    """Exact P(fires) and E[fires] by enumerating every hidden green assignment and ordering.

    The bag's greens are a uniform random subset of the labelled unseen greens (only their
    number is public); every ordered draw of ``draws`` labelled discs is equally likely.
    """
    state = g.state
    browns = [("brown", s, i) for i, (c, s) in enumerate(state.bag) if c == "brown"]
    n_green = sum(1 for c, _ in state.bag if c == "green")
    pool = unseen_greens(state)
    board = {row: len(ds) for row, ds in state.event_board.items()}
    hits, times, total = Counter(), Counter(), 0
    for chosen in itertools.combinations(pool, n_green):
        bag = browns + list(chosen)
        n = min(draws, len(bag))
        for seq in itertools.permutations(bag, n):
            fired = fire_rows(state.rules, board, [(c, s) for c, s, _ in seq])
            for row, k in fired.items():
                hits[row] += 1
                times[row] += k
            total += 1
    return {row: (Fraction(hits[row], total), Fraction(times[row], total)) for row in board}


# ==============================================================================================
# 1. event risk
# ==============================================================================================

BRUTE_CASES = {
    # name: (draws, small_game kwargs)
    "brown_only_prefilled": (2, {"spaces": 2, "fills": [("brown", "climate_conference")]}),
    "hidden_greens_n3": (3, {"release": (1, 2, 0), "spaces": 2}),
    "one_space_rows_fire_twice": (3, {"release": (1, 1, 0), "spaces": 1}),
    "separate_green_climate_row": (2, {"release": (3, 0, 1), "spaces": 2, "shared": False}),
    "seen_green_on_board": (3, {"release": (3, 3, 0), "fills": [("brown", "air_pollution")]}),
    "draws_exceed_bag": (3, {"brown": ONE_BROWN, "release": (1, 0, 0), "spaces": 2}),
}


@pytest.mark.parametrize("case", sorted(BRUTE_CASES))
def test_rule_6_2_event_risk_equals_brute_force_enumeration(case):
    draws, kw = BRUTE_CASES[case]
    g = small_game(draws, **kw)
    if case == "seen_green_on_board":  # a green drawn earlier sits on its row: it is seen
        symbol = next(s for c, s in g.state.bag if c == "green" and s != "climate_conference")
        sandbox.fill_row(g, "green", symbol)
    frame = event_risk(g)
    assert frame.attrs["draws"] == draws and frame.attrs["phase"] == "next"
    exact = brute_force(g, draws)
    got = {r.row: (Fraction(r.p_exact), r.expected_fires) for r in frame.itertuples()}
    rows = set(exact) - ({GREEN_CLIMATE_ROW} if g.rules.shared_climate_row else set())
    assert set(got) == rows
    for row in rows:
        assert got[row][0] == exact[row][0], row
        assert got[row][1] == pytest.approx(float(exact[row][1]), abs=1e-12), row
    assert frame["p_fires"].tolist() == [float(Fraction(p)) for p in frame["p_exact"]]
    assert any(frame["p_fires"] > 0)


def test_rule_6_2_one_space_row_can_fire_more_than_once():
    g = small_game(3, release=(1, 1, 0), spaces=1)
    frame = event_risk(g).set_index("row")
    cc = frame.loc["climate_conference"]  # 2 brown + possibly green discs share the row (6.4)
    assert cc.expected_fires > cc.p_fires > 0


def test_rule_6_1_draws_beyond_an_empty_bag_end_the_game():
    g = small_game(3, brown=ONE_BROWN, release=(1, 0, 0))
    assert len(g.state.bag) == 2
    frame = event_risk(g, k_turns=3)
    assert frame.attrs["p_game_ends"] == 1.0
    assert frame.attrs["p_bag_empty_within"] == {1: 1.0, 2: 1.0, 3: 1.0}


@pytest.mark.parametrize(
    "draws, release, k, expected",
    [
        # bag = 6 brown + released greens; empty after floor(size/draws) phases, ends at the next
        (1, (0, 0, 0), 8, {t: float(t > 6) for t in range(1, 9)}),
        (2, (0, 0, 0), 4, {1: 0.0, 2: 0.0, 3: 0.0, 4: 1.0}),
        (2, (1, 0, 0), 4, {1: 0.0, 2: 0.0, 3: 0.0, 4: 1.0}),
        (3, (1, 1, 0), 3, {1: 0.0, 2: 0.0, 3: 1.0}),
        (3, (1, 0, 1), 3, {1: 0.0, 2: 0.0, 3: 1.0}),
    ],
)
def test_rule_14_2_bag_runs_out_within_k_turns(draws, release, k, expected):
    g = small_game(draws, release=release)
    assert bag_runs_out_within(g, k) == expected
    assert event_risk(g, k_turns=k).attrs["p_bag_empty_within"] == expected


def test_bag_runs_out_within_rejects_bad_k():
    g = small_game(1)
    with pytest.raises(ValueError):
        bag_runs_out_within(g, 0)


def test_rule_14_3_k_beyond_the_turn_limit_is_refused_at_once():
    g = small_game(1, turn_limit=30)
    assert len(bag_runs_out_within(g, 30)) == 30
    for k in (31, 10**9):  # 10**9 used to build a table of a billion entries
        with pytest.raises(ValueError, match="turn_limit"):
            bag_runs_out_within(g, k)
        with pytest.raises(ValueError, match="turn_limit"):
            event_risk(g, k_turns=k)


@pytest.mark.parametrize("thing", [None, 5, "game", pd.DataFrame()])
def test_the_risk_meter_refuses_what_is_not_a_game(thing):
    with pytest.raises(ValueError, match="Game|event_risk"):
        plot_event_risk(thing)
    if not isinstance(thing, pd.DataFrame):
        for tool in (public_bag, event_risk, bag_runs_out_within):
            with pytest.raises(ValueError, match="needs a Game"):
                tool(thing)


def engine_fires(g, prefix):
    """Run the real event phase with the discs of ``prefix`` forced; {row: times fired}."""
    h = g.fork()
    for color, symbol in prefix:
        sandbox.fix_disc(h, color, symbol)
    sandbox.fix_dice(h, 2, 3)
    turn = h.turn
    h.apply(RollDice(h.active_seat))
    settle(h)
    h.apply(EndTurn(h.active_seat))
    for _ in range(500):  # answer the events' decisions; the remaining draws follow them
        if h.is_over or h.state.phase != "event":
            break
        h.apply(h.legal_actions()[0])
    fired = Counter(
        h.rules.row_of(e["color"], e["event"]) for e in h.events if e["turn"] == turn + 1
    )
    return fired


def test_rule_6_2_meter_agrees_with_the_engine_for_every_draw_sequence():
    """All greens released (nothing hidden but the order): the exact numbers equal the
    engine's own event phase run on every possible sequence of drawn discs, weighted by
    its probability of being drawn."""
    brown = tuple((symbol, 2) for symbol, _ in SMALL_BROWN)
    fills = [("brown", s) for s, _ in brown if s != "production_increase"]
    g = small_game(2, release=(3, 3, 3), spaces=2, brown=brown, fills=fills)
    bag = Counter(g.state.bag)
    size = sum(bag.values())
    p_fire, e_fire = Counter(), Counter()
    for first in bag:
        for second in bag:
            left = bag - Counter([first])
            if left[second] == 0:
                continue
            p = Fraction(bag[first], size) * Fraction(left[second], size - 1)
            fired = engine_fires(g, [first, second])
            assert fired == fire_rows(
                g.rules, {r: len(d) for r, d in g.state.event_board.items()}, [first, second]
            )
            for row, k in fired.items():
                p_fire[row] += p
                e_fire[row] += p * k
    assert len(p_fire) >= 5  # most rows can fire: the comparison is not vacuous
    frame = event_risk(g).set_index("row")
    for row in frame.index:
        assert Fraction(frame.loc[row, "p_exact"]) == p_fire[row], row
        assert frame.loc[row, "expected_fires"] == pytest.approx(float(e_fire[row]))


def test_rule_6_2_event_risk_agrees_with_monte_carlo_on_the_real_bag():
    """100,000 simulated event phases on a standard-size bag (hidden greens drawn from the
    unseen composition, random order) agree with the exact numbers within 4 standard errors."""
    rules = en.RuleSet.standard(4, disc_bands_4p=((0, 28, 3),))
    g = en.new_game(seed=11, rules=rules)
    settle(g)
    release_greens(g, 1)  # each seat builds a renewable plant: 4 greens go into the bag
    for color, symbol in (
        ("brown", "air_pollution"),
        ("brown", "air_pollution"),
        ("brown", "rain_and_flooding"),
    ):
        fill_if_room(g, color, symbol)
    frame = event_risk(g)
    draws = frame.attrs["draws"]
    assert draws == 3 and frame.attrs["bag_green"] >= 4
    state = g.state
    browns = [d for d in state.bag if d[0] == "brown"]
    n_green = frame.attrs["bag_green"]
    pool = [(c, s) for c, s, _ in unseen_greens(state)]
    board = {row: len(ds) for row, ds in state.event_board.items()}
    rng = random.Random(2024)
    trials = 100_000
    hits = Counter()
    size = len(browns) + n_green
    for _ in range(trials):
        # a random ordering of the bag: positions >= len(browns) are the hidden greens, whose
        # symbols are a uniform sample without replacement of the unseen greens
        positions = rng.sample(range(size), draws)
        hidden = iter(rng.sample(pool, sum(1 for i in positions if i >= len(browns))))
        discs = [browns[i] if i < len(browns) else next(hidden) for i in positions]
        for row in fire_rows(state.rules, board, discs):
            hits[row] += 1
    for r in frame.itertuples():
        p, est = r.p_fires, hits[r.row] / trials
        if p in (0.0, 1.0):
            assert est == p, r.row
        else:
            assert abs(est - p) <= 4 * math.sqrt(p * (1 - p) / trials), (r.row, p, est)


def test_event_risk_never_reads_hidden_green_symbols():
    """Permuting the bag, or swapping a bag green's hidden symbol with one still under a
    renewable slot, changes nothing the players can see — so the meter must not change."""
    g = small_game(3, release=(2, 1, 0), spaces=2)
    before = event_risk(g)
    state = g.state
    pairs = [
        (i, p, j)
        for i, d in enumerate(state.bag)
        if d[0] == "green"
        for p in state.players
        for j, sym in enumerate(p.green_slots)
        if sym != d[1]
    ]
    assert pairs, "some hidden bag green differs from some slot green"
    i, owner, j = pairs[0]
    state.bag[i], owner.green_slots[j] = ("green", owner.green_slots[j]), state.bag[i][1]
    random.Random(3).shuffle(state.bag)
    after = event_risk(g)
    pd.testing.assert_frame_equal(before, after)
    assert before.attrs == after.attrs


def test_public_bag_counts_what_players_can_see():
    g = small_game(2, release=(3, 1, 0), fills=[("brown", "air_pollution")])
    bag = public_bag(g)
    state = g.state
    assert bag.green == 4 and bag.under_slots == 9 - 4
    assert sum(bag.green_unseen.values()) == 9  # nothing green seen yet
    assert bag.brown == dict(Counter(s for c, s in state.bag if c == "brown"))
    assert bag.size == len(state.bag)


def test_rule_6_1_current_phase_counts_the_draws_still_queued():
    """A 1-space Rain and Flooding row fires on the first of 2 draws and asks every player
    for a hazard (rule 7.5); the second draw waits behind those decisions, so the coming
    phase is the current one with 1 draw left (N was fixed when it began, rule 6.1)."""
    g = small_game(2, release=(1, 1, 1), spaces={"rain_and_flooding": 1})
    sandbox.fix_disc(g, "brown", "rain_and_flooding")
    sandbox.fix_dice(g, 2, 3)
    g.apply(RollDice(g.active_seat))
    settle(g)
    g.apply(EndTurn(g.active_seat))
    state = g.state
    assert state.phase == "event" and state.queue[0].kind == "place_hazard"
    assert sum(1 for t in state.queue if t.kind == "draw") == 1
    frame = event_risk(g)
    assert (frame.attrs["phase"], frame.attrs["draws"], frame.attrs["turn"]) == (
        "current",
        1,
        state.turn,
    )
    exact = brute_force(g, 1)
    for r in frame.itertuples():
        assert Fraction(r.p_exact) == exact[r.row][0], r.row


def test_teacher_fixed_disc_is_drawn_first_with_certainty():
    g = small_game(1, spaces=2, fills=[("brown", "climate_conference")])
    sandbox.fix_disc(g, "brown", "climate_conference")
    frame = event_risk(g).set_index("row")
    assert frame.loc["climate_conference", "p_exact"] == "1"
    assert (frame.drop(index="climate_conference")["p_fires"] == 0).all()


def test_event_risk_for_a_finished_game_is_empty():
    g = play_one(["random"] * 4, 5)
    frame = event_risk(g)
    assert frame.attrs["phase"] == "over" and (frame["p_fires"] == 0).all()


def test_event_risk_is_fast_on_the_full_bag():
    rules = en.RuleSet.standard(4, disc_bands_4p=((0, 28, 3),))
    g = en.new_game(seed=2, rules=rules)
    settle(g)
    release_greens(g, 4)
    assert len(g.state.bag) >= 40 and public_bag(g).green > 0
    event_risk(g)  # warm-up (pandas import)
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        event_risk(g)
        timings.append(time.perf_counter() - start)
    assert sorted(timings)[2] < 0.05


def test_plot_event_risk_draws_one_bar_per_row():
    import matplotlib

    matplotlib.use("Agg")
    g = small_game(2, release=(1, 0, 0))
    ax = plot_event_risk(g)
    frame = event_risk(g)
    bars = [p for p in ax.patches]
    assert len(bars) == len(frame)
    assert [b.get_width() for b in bars] == pytest.approx(frame["p_fires"].tolist())
    assert plot_event_risk(frame, ax=ax) is ax


# ==============================================================================================
# 2. what if
# ==============================================================================================

NO_POLLUTION_ROLLS = {  # rule 7.2 rolls dice too: a row that never fills isolates production dice
    "event_spaces": tuple((row, 50 if row == "environmental_pollution" else 3) for row in ROWS)
}


def play_until(g, bots, rng, turn):
    """Bots play until the active seat is free to act in the action phase of ``turn``."""
    for _ in range(100_000):
        s = g.state
        if s.turn == turn and s.phase == "action" and not s.queue:
            return
        assert not g.is_over, "the game ended too early for this test"
        g.apply(bots[g.current_seat].decide(g, g.legal_actions(), rng))
    raise AssertionError("bots did not get there")


@pytest.fixture(scope="module")
def branching_game():
    """A random-bot game where, at turn 4, the active seat holds 3 science and simply ends
    its turn (the actual decision); the alternative is a renewable plant."""
    rules = en.RuleSet.standard(4, **NO_POLLUTION_ROLLS)
    g = en.new_game(seed=21, rules=rules)
    bots = [en.bots.RandomBot(seed=s) for s in range(4)]
    rng = random.Random(0)
    play_until(g, bots, rng, 4)
    seat = g.active_seat
    missing = 3 - g.state.players[seat].hand["science"]
    if missing > 0:
        sandbox.give(g, seat, science=missing)
    g.apply(EndTurn(seat))
    play_until(g, bots, rng, 12)
    return g


def renewable_plant(game):
    return next(
        a for a in game.legal_actions() if isinstance(a, BuildPlant) and a.plant == "renewable"
    )


def production_dice(game):
    """Replay a game and record the production dice per turn (state.dice after RollDice)."""
    replay = en.new_game(seed=game.seed, rules=game.rules, names=game.names)
    rolls = []
    for action in game.actions:
        replay.apply(action)
        if isinstance(action, RollDice):
            rolls.append((replay.turn, *replay.state.dice))
    return rolls


def test_branch_point_is_the_first_action_of_the_turns_action_phase(branching_game):
    g = branching_game
    bp, actual = branch_point(g, 4)
    s = bp.state
    assert (s.turn, s.phase, s.queue) == (4, "action", [])
    assert isinstance(actual, EndTurn) and actual.seat == s.active
    index = len(bp.actions)
    assert g.actions[index] == actual
    assert s.players[s.active].hand["science"] >= 3  # the sandbox gift before it is kept
    with pytest.raises(ValueError, match="never reached its action phase"):
        branch_point(g, 500)


def test_what_if_branches_share_the_dice_common_random_numbers(branching_game):
    g = branching_game
    result = what_if(g, 4, renewable_plant, horizon=6, samples=3, bots="random")
    actual_dice = [d for d in production_dice(g) if 4 < d[0] <= 10]
    for i in range(3):
        assert result.dice["A"][i] == result.dice["B"][i]
        assert result.dice["A"][i] == actual_dice  # the game's own future dice
    # the branches really differ: B's renewable plant lowers the seat's LF at once (rule 4.1)
    hist = result.history
    seat = result.seat
    at = hist[(hist["turn"] == 4) & (hist["seat"] == seat)].set_index(["branch", "sample"])["lf"]
    for i in range(3):
        assert at[("B", i)] == at[("A", i)] - 1


def test_what_if_resampled_chance_changes_dice_but_keeps_pairs(branching_game):
    g = branching_game
    result = what_if(g, 4, renewable_plant, horizon=6, samples=3, resample_chance=True, seed=1)
    actual_dice = [d for d in production_dice(g) if 4 < d[0] <= 10]
    assert any(result.dice["A"][i] != actual_dice for i in range(3))
    assert result.dice["A"][0] != result.dice["A"][1] or result.dice["A"][1] != result.dice["A"][2]
    for i in range(3):
        assert result.dice["A"][i] == result.dice["B"][i]


@pytest.mark.parametrize("horizon", [0, 1, 5])
def test_what_if_respects_the_horizon(branching_game, horizon):
    result = what_if(
        branching_game, 4, lambda game: EndTurn(game.active_seat), horizon=horizon, samples=2
    )
    assert result.history["turn"].max() <= 4 + horizon
    assert result.history["turn"].min() == 3  # the shared starting record
    assert (result.outcomes["last_turn"] <= 4 + horizon).all()
    running = result.outcomes[~result.outcomes["over"]]
    assert (running["last_turn"] == 4 + horizon).all()


def test_what_if_illegal_alternative_raises_a_friendly_value_error(branching_game):
    g = branching_game
    bp, _ = branch_point(g, 4)
    seat = bp.active_seat
    free = next(c for c in range(len(g.board.corners)) if bp.state.owner_of(c) is None)
    with pytest.raises(ValueError, match="not possible at the start of turn 4"):
        what_if(g, 4, BuildCity(seat, free), samples=1)
    with pytest.raises(ValueError, match="Not your move"):
        what_if(g, 4, EndTurn((seat + 1) % 4), samples=1)
    with pytest.raises(ValueError):
        what_if(g, 4, lambda game: "build something", samples=1)
    with pytest.raises(ValueError):
        what_if(g, 4, EndTurn(seat), samples=0)


def test_alternatives_are_legal_and_labelled(branching_game):
    g = branching_game
    bp, actual = branch_point(g, 4)
    options = alternatives(g, 4)
    assert options[0] == (f"{bp.describe(actual)} (what happened)", actual)
    assert all(isinstance(label, str) and bp.why_illegal(a) is None for label, a in options)
    assert any(isinstance(a, BuildPlant) and a.plant == "renewable" for _, a in options)
    assert 4 in action_turns(g)


def test_what_if_summary_and_plot(branching_game):
    import matplotlib

    matplotlib.use("Agg")
    result = what_if(branching_game, 4, renewable_plant, horizon=3, samples=3)
    table = result.summary()
    assert list(table.columns) == ["A", "B", "B − A", "se(B − A)"]
    assert "final GF" in table.index
    a = result.outcomes[result.outcomes["branch"] == "A"]["final_gf"].mean()
    assert table.loc["final GF", "A"] == pytest.approx(a)
    ax = result.plot()
    gids = {line.get_gid() for line in ax.get_lines()}
    assert {"whatif-gf-A", "whatif-gf-B", "whatif-lf-A", "whatif-lf-B"} <= gids
    assert set(result.branches) == {"A", "B"}
    for frame in result.branches.values():
        assert {"sample", "turn", "seat", "lf", "gf"} <= set(frame.columns)


def test_what_if_widget_runs_headless(branching_game):
    from energies.insight import WhatIfWidget

    w = WhatIfWidget(branching_game, samples=2, horizon=2)
    w.select_turn(4)
    options = w.alt_dropdown.options
    assert options and options[0][1] == branch_point(branching_game, 4)[1]
    w.alt_dropdown.value = next(a for _, a in options if isinstance(a, BuildPlant))
    result = w.run()
    assert result is not None and w.chart.value[:4] == b"\x89PNG"
    assert "final GF" in w.table.value


# ==============================================================================================
# 3. burden
# ==============================================================================================


def hand_history():
    """4 seats, turns 0-2; LF and cumulative harm counters chosen by hand."""
    lf = {0: (3, 4, 4), 1: (3, 0, 0), 2: (3, -1, 2), 3: (3, 2, 2)}
    harm = {  # last turn's cumulative counters
        0: {},
        1: {"hazards_suffered": 2, "production_lost": 3},
        2: {"cards_discarded": 1},
        3: {"cards_stolen": 1, "blocked_turns": 1},
    }
    records = []
    for turn in range(3):
        for seat in range(4):
            rec = {
                "turn": turn,
                "seat": seat,
                "lf": lf[seat][turn],
                "gf": 0,
                "hazards_suffered": 0,
                "production_lost": 0,
                "cards_discarded": 0,
                "cards_stolen": 0,
                "blocked_turns": 0,
            }
            if turn == 2:
                rec.update(harm[seat])
            records.append(rec)
    return records


def test_burden_of_a_hand_built_history():
    frame = burden(pd.DataFrame(hand_history())).set_index("seat")
    caused = {0: 8, 1: 0, 2: 2, 3: 4}  # sum over turns 1-2 of max(LF, 0)
    harm = {0: 0, 1: 5, 2: 1, 3: 2}
    f_share = {s: Fraction(v, 14) for s, v in caused.items()}
    h_share = {s: Fraction(v, 8) for s, v in harm.items()}
    for s in range(4):
        assert frame.loc[s, "footprint_turns"] == caused[s]
        assert frame.loc[s, "footprint_share"] == pytest.approx(float(f_share[s]))
        assert frame.loc[s, "harm"] == harm[s]
        assert frame.loc[s, "harm_share"] == pytest.approx(float(h_share[s]))
    assert frame.loc[1, "hazards_suffered_share"] == 1.0
    assert frame.loc[3, "cards_stolen_share"] == 1.0
    assert frame.loc[1, "burden_ratio"] == math.inf
    assert frame.loc[0, "burden_ratio"] == 0.0
    mismatch = sum(abs(h_share[s] - f_share[s]) for s in range(4)) / 2
    assert frame["mismatch"].iloc[0] == pytest.approx(float(mismatch))
    # ranks by footprint: seat 1 (1st), 2 (2nd), 3 (3rd), 0 (4th); R = (rank - 1/2) / 4
    rank = {1: 1, 2: 2, 3: 3, 0: 4}
    conc = 2 * sum(h_share[s] * Fraction(2 * rank[s] - 1, 8) for s in range(4)) - 1
    assert conc == Fraction(-7, 16)
    assert frame["concentration"].iloc[0] == pytest.approx(float(conc))


@pytest.mark.parametrize(
    "footprint, harm, expected",
    [
        ([1, 2, 3, 4], [0, 0, 0, 1], 1 - 1 / 4),  # the biggest polluter suffers everything
        ([1, 2, 3, 4], [1, 0, 0, 0], -(1 - 1 / 4)),  # the cleanest seat suffers everything
        ([1, 2, 3, 4], [1, 1, 1, 1], 0.0),  # harm equal for all
        ([2, 2, 2, 2], [1, 0, 0, 0], 0.0),  # all tie on footprint: mean ranks, no relation
        ([1, 3, 3, 5], [0, 1, 1, 0], 0.0),  # tied middle seats share rank 2.5
    ],
)
def test_concentration_index_extremes(footprint, harm, expected):
    share = [h / sum(harm) for h in harm]
    assert concentration_index(footprint, share) == pytest.approx(expected)


def test_burden_without_harm_is_nan():
    records = [
        r
        | {
            k: 0
            for k in (
                "hazards_suffered",
                "production_lost",
                "cards_discarded",
                "cards_stolen",
                "blocked_turns",
            )
        }
        for r in hand_history()
    ]
    frame = burden(records)
    assert frame["harm_share"].isna().all() and math.isnan(frame.attrs["concentration"])


def test_burden_accepts_game_history_frame_and_simulate_turns():
    frame, turns = simulate(2, ["random"] * 3, seed=4, per_turn=True, progress=False)
    per_game = burden(turns)
    assert len(per_game) == 2 * 3 and set(per_game["game"]) == {0, 1}
    g = play_one(["random"] * 3, int(frame.loc[1, "seed"]))
    from_game = burden(g)
    from_frame = burden(g.history_frame())
    cols = ["footprint_turns", "harm", "harm_share", "footprint_share", "concentration"]
    pd.testing.assert_frame_equal(from_game[cols], from_frame[cols])
    one = per_game[per_game["game"] == 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(one[cols], from_game[cols])
    assert "name" in from_frame.columns
    last = g.history[-1]
    assert (
        from_game.loc[from_game["seat"] == last["seat"], "hazards_suffered"].item()
        == last["hazards_suffered"]
    )


def test_plot_burden_draws_pollution_caused_harm_and_ordinary_losses_per_seat():
    import matplotlib

    matplotlib.use("Agg")
    game = scripted_burden_game()
    ax = plot_burden(burden(game))
    assert len(ax.patches) == 3 * 4  # pollution caused, pollution harm, ordinary losses
    assert {p.get_gid() for p in ax.patches} == {
        "burden-caused",
        "burden-suffered",
        "burden-ordinary",
    }
    assert "Who polluted, who paid for it" in ax.get_title() and "mismatch" in ax.get_title()
    old = plot_burden(hand_history(), part="all")  # footprint vs every loss, two bars a seat
    assert len(old.patches) == 2 * 4 and "mismatch" in old.get_title()
    with pytest.raises(ValueError, match="part must be one of"):
        plot_burden(hand_history(), part="harm")


def scripted_burden_game():
    """Three turns played by hand on the beginner island (seat 0 starts; 1 disc a turn, each
    of another kind: no event fires).

    Seat 0: a city at corner 12 (hexes 0, 3, 4) with fossil plants on hexes 0 and 4; seat 1:
    a town at corner 22 (hexes 3, 7, 8) with a fossil plant on hex 7; seat 2: a town at
    corner 40; seat 3: a town at corner 50 (hex 18 only).

    * turn 1 (seat 0): a hex hazard on hex 3, a 12 is rolled: the hazard keeps 2 cards from
      seat 0's city and 1 from seat 1's town (rule 8.1) — pollution harm;
    * turn 2 (seat 1): the Inspector on hex 3, a 12 again: the same cards, kept by the
      Inspector — ordinary;
    * turn 3 (seat 2): seat 3 holds 8 cards, a 7: it discards 4 (rule 9.1), the Inspector goes
      to hex 18 and seat 2 steals 1 card from seat 3 (rule 9.2) — ordinary.
    """
    rules = en.RuleSet.standard(4).replace(random_start_player=False)
    g = en.new_game(seed=1, rules=rules, names=["Ada", "Ben", "Cy", "Di"])
    sandbox.clear_board(g)
    for seat, piece, corner in ((0, "city", 12), (1, "town", 22), (2, "town", 40), (3, "town", 50)):
        sandbox.place(g, seat, piece, corner)
    for seat, corner, hex_id in ((0, 12, 0), (0, 12, 4), (1, 22, 7)):
        sandbox.place_plant(g, seat, "fossil", corner, hex_id)
    kinds = iter(["air_pollution", "rain_and_flooding", "production_increase"])

    def play(seat, dice, before=()):
        for edit in before:
            edit()
        sandbox.fix_dice(g, *dice)
        g.apply(RollDice(seat))
        while g.state.queue:  # discards, the Inspector, proposals: by hand below
            task = g.state.queue[0]
            if task.kind == "discard":
                g.apply(DiscardCard(task.seat, "lumber"))
            elif task.kind == "move_inspector":
                g.apply(MoveInspector(seat, 18))
            else:
                g.apply(Decline(g.current_seat))
        sandbox.fix_disc(g, "brown", next(kinds))
        g.apply(EndTurn(seat))

    play(0, (6, 6), [lambda: sandbox.add_hazard(g, hex=3)])
    play(1, (6, 6), [lambda: sandbox.move_inspector(g, 3)])
    play(2, (3, 4), [lambda: sandbox.give(g, 3, lumber=8)])
    assert g.turn == 4 and not g.events  # no event fired
    return g


def test_burden_separates_pollution_harm_from_ordinary_losses_in_a_played_game():
    """The scripted game's exact numbers (see scripted_burden_game)."""
    frame = burden(scripted_burden_game()).set_index("seat")
    assert list(frame["fossil_plant_turns"]) == [6, 3, 0, 0]  # fossil plants x 3 turns
    assert list(frame["pollution_caused_share"]) == pytest.approx([2 / 3, 1 / 3, 0, 0])
    assert list(frame["production_lost_hazard"]) == [2, 1, 0, 0]
    assert list(frame["pollution_harm"]) == [2, 1, 0, 0]
    assert list(frame["pollution_harm_share"]) == pytest.approx([2 / 3, 1 / 3, 0, 0])
    assert list(frame["pollution_ratio"][:2]) == pytest.approx([1.0, 1.0])
    assert frame["pollution_ratio"][2:].isna().all()  # caused none, bore none
    assert list(frame["production_lost_inspector"]) == [2, 1, 0, 0]
    assert list(frame["cards_discarded_seven"]) == [0, 0, 0, 4]
    assert list(frame["cards_stolen"]) == [0, 0, 0, 1]
    assert list(frame["ordinary_losses"]) == [2, 1, 0, 5]
    assert list(frame["ordinary_losses_share"]) == pytest.approx([2 / 8, 1 / 8, 0, 5 / 8])
    for kind in ("hazards_suffered", "hex_hazards_suffered", "cards_discarded_brown"):
        assert list(frame[kind]) == [0, 0, 0, 0]
    assert list(frame["cards_discarded_other"]) == [0, 0, 0, 0]
    # the release 0.4 measures mix both: production lost counts the Inspector's cards too
    assert list(frame["production_lost"]) == [4, 2, 0, 0]
    assert list(frame["harm"]) == [4, 2, 0, 5]
    # harm follows pollution exactly; ranks by fossil-plant-turns: seats 2 and 3 tie at 1.5
    assert frame.attrs["pollution_mismatch"] == pytest.approx(0.0)
    rank = {0: 4, 1: 3}
    shares = {0: Fraction(2, 3), 1: Fraction(1, 3)}
    conc = 2 * sum(shares[s] * Fraction(2 * rank[s] - 1, 8) for s in (0, 1)) - 1
    assert conc == Fraction(7, 12)
    assert frame.attrs["pollution_concentration"] == pytest.approx(float(conc))


def test_burden_counts_pollution_events_hazards_and_brown_discards():
    """Hand-built records with every pollution and ordinary counter (the cumulative values of
    the last turn) and fossil plants by turn: the exact sums and shares."""
    records = hand_history()
    fossil = {0: (0, 2, 2), 1: (0, 0, 1), 2: (0, 0, 0), 3: (0, 1, 1)}  # turns 0-2
    split = {
        0: {"hex_hazards_suffered": 1, "cards_discarded_brown": 0},
        1: {"hex_hazards_suffered": 0, "production_lost_hazard": 2},
        2: {"cards_discarded_seven": 1},
        3: {"cards_discarded_brown": 0},
    }
    for r in records:
        r["fossil"] = fossil[r["seat"]][r["turn"]]
        for key in ("hex_hazards_suffered", "production_lost_hazard", "cards_discarded_seven"):
            r.setdefault(key, 0)
        r["cards_discarded_brown"] = 0
        if r["turn"] == 2:
            r.update(split[r["seat"]])
    frame = burden(records).set_index("seat")
    # pollution: seat 0 one hex hazard; seat 1 two hazards on buildings + 2 cards a hazard kept
    assert list(frame["pollution_harm"]) == [1, 4, 0, 0]
    assert list(frame["fossil_plant_turns"]) == [4, 1, 0, 2]  # turns 1-2 only
    assert list(frame["pollution_caused_share"]) == pytest.approx([4 / 7, 1 / 7, 0, 2 / 7])
    assert list(frame["pollution_harm_share"]) == pytest.approx([1 / 5, 4 / 5, 0, 0])
    assert frame.loc[1, "pollution_ratio"] == pytest.approx((4 / 5) / (1 / 7))
    assert frame.loc[3, "pollution_ratio"] == 0.0
    # ordinary: seat 1's third lost card was the Inspector's; seat 2's discard was on a 7;
    # seat 3 lost a card to theft
    assert list(frame["production_lost_inspector"]) == [0, 1, 0, 0]
    assert list(frame["ordinary_losses"]) == [0, 1, 1, 1]
    mismatch = (abs(1 / 5 - 4 / 7) + abs(4 / 5 - 1 / 7) + 0 + abs(0 - 2 / 7)) / 2
    assert frame.attrs["pollution_mismatch"] == pytest.approx(mismatch)


def test_burden_of_records_before_the_split_leaves_the_pollution_columns_empty():
    frame = burden(hand_history())
    assert frame["pollution_harm"].isna().all() and frame["ordinary_losses"].isna().all()
    assert math.isnan(frame.attrs["pollution_mismatch"])
    assert list(frame["harm"]) == [0, 5, 1, 2]  # the all-losses measures as before


# ==============================================================================================
# 4. payoff matrix
# ==============================================================================================


@pytest.fixture(scope="module")
def payoff():
    return payoff_matrix(("fossil", "green"), games=3, players=3, seed=1)


def test_payoff_matrix_shape_and_rates(payoff):
    assert list(payoff["k"]) == [0, 1, 2, 3]
    assert list(payoff["n_fossil"] + payoff["n_green"]) == [3] * 4
    rates = payoff[
        ["win_rate_fossil", "win_rate_green", "everyone_loses", "p_fossil_wins", "p_green_wins"]
    ]
    assert ((rates.isna()) | ((rates >= 0) & (rates <= 1))).all().all()
    assert math.isnan(payoff.loc[0, "win_rate_fossil"]) and math.isnan(
        payoff.loc[3, "win_rate_green"]
    )
    assert not math.isnan(payoff.loc[1, "win_rate_fossil"])
    kinds = [c for c in payoff.columns if c.startswith("outcome_")]
    assert payoff[kinds].sum(axis=1).tolist() == pytest.approx([1.0] * 4)


def test_payoff_matrix_matches_a_direct_simulation(payoff):
    k = 1
    lineups = [list(lu) for lu in lineups_for(("fossil", "green"), k, 3)]
    assert sorted(Counter(lu).get("fossil", 0) for lu in map(tuple, lineups)) == [1, 1, 1]
    frame = simulate(3, lineups, seed=1, progress=False)
    wins = seats = 0
    for row in frame.itertuples():
        for s in range(3):
            if getattr(row, f"bot_{s}") == "fossil":
                seats += 1
                wins += s in row.winners
    row = payoff.set_index("k").loc[k]
    assert row["win_rate_fossil"] == pytest.approx(wins / seats)
    assert row["everyone_loses"] == pytest.approx(frame["everyone_loses"].mean())
    assert row["mean_final_gf"] == pytest.approx(frame["final_gf"].mean())


def test_payoff_matrix_rejects_bad_personas():
    with pytest.raises(ValueError):
        payoff_matrix(("fossil", "fossil"), games=1)
    with pytest.raises(ValueError):
        payoff_matrix(("fossil", "nobody"), games=1)


def test_plot_payoff(payoff):
    import matplotlib

    matplotlib.use("Agg")
    ax = plot_payoff(payoff)
    assert {"payoff-a", "payoff-b", "payoff-lose"} <= {line.get_gid() for line in ax.get_lines()}


# ==============================================================================================
# packaging
# ==============================================================================================


def test_import_is_light():
    code = (
        "import sys, energies.insight; "
        "print(any(m in sys.modules for m in ('pandas', 'matplotlib', 'ipywidgets')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
