"""The env's observation, kept up to date between steps, equals a fresh encoding (issue 19).

``energies.env.tracking`` keeps parts of the observation from step to step and the env keeps
its action mask per position; both must give exactly what encoding the seat's view and
listing the legal actions afresh give, at every step, for every seat, after every kind
of action — events, 7s, trades, development cards, hazards — and after a teacher's
sandbox edit, an undo or a swapped game.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is part of the test extra")

from energies.actions import BuildRoad, RollDice, TradeWithSupply, shared

from energies import sandbox
from energies.env import env, tracking
from energies.env.encoding import ActionCodec
from energies.env.tracking import segments as tracking_parts


def fresh_mask(raw, seat: int) -> np.ndarray:
    """The action mask from the legal list, looked up by value (no cache of the env)."""
    mask = np.zeros(raw.codec.size, dtype=np.int8)
    game = raw.game
    if game.current_seat == seat:
        for action in game.legal_actions():
            mask[raw.codec._index[seat][action]] = 1
    return mask


def assert_fresh(raw, seat: int, observation: dict | None = None) -> None:
    agent = raw.possible_agents[seat]
    got = observation if observation is not None else raw.observe(agent)
    expected = raw._encoder.encode(raw.game.view(seat))
    assert got["observation"].dtype == np.float32
    assert np.array_equal(got["observation"], expected), np.flatnonzero(
        got["observation"] != expected
    )
    if agent == raw.agent_selection:
        assert np.array_equal(got["action_mask"], fresh_mask(raw, seat))


def test_every_observation_equals_a_fresh_encoding():
    kinds: set[str] = set()
    for seed in range(10):
        players = 4 if seed % 3 else 3
        e = env(players=players)
        e.reset(seed=100 + seed)
        raw = e.unwrapped
        rng = random.Random(seed)
        for step, agent in enumerate(e.agent_iter()):
            obs, _reward, terminated, truncated, _info = e.last()
            seat = raw.agent_name_mapping[agent]
            if terminated or truncated:
                e.step(None)
                continue
            assert_fresh(raw, seat, obs)  # the agent to act, as it is asked at every step
            if step % 7 == 0:  # and now and then every seat, in a shuffled order
                for other in rng.sample(range(players), players):
                    assert_fresh(raw, other)
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            kinds.add(raw.codec.params[action][0])
            e.step(action)
    assert {
        "roll_dice", "end_turn", "build_road", "build_plant", "buy_dev_card", "play_dev_card",
        "trade_with_supply", "offer_trade", "propose_trade", "respond_to_trade",
        "discard_card", "move_inspector", "place_hazard", "remove_hazard", "demolish_fossil",
    } <= kinds  # fmt: skip


def _play(e, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        agent = e.agent_selection
        obs = e.observe(agent)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def test_sandbox_edits_undo_and_a_swapped_game_are_seen():
    e = env(players=4)
    e.reset(seed=5)
    raw = e.unwrapped
    rng = random.Random(5)
    _play(e, rng, 200)
    for s in range(4):
        raw.observe(raw.possible_agents[s])  # every seat's kept parts are filled
    game = raw.game
    edits = [
        lambda: sandbox.give(game, 1, steel=2, energy=1),
        lambda: sandbox.move_inspector(game, (game.state.inspector + 1) % 19),
        lambda: sandbox.add_hazard(game, hex=(game.state.inspector + 3) % 19),
        lambda: sandbox.give_dev_card(game, 2, game.state.dev_deck[-1]),
        lambda: sandbox.remove(game, "road", min(game.state.players[3].roads)),
    ]
    for edit in edits:
        edit()
        for s in range(4):
            assert_fresh(raw, s)
    game.undo(3)  # a new state and action list
    for s in range(4):
        assert_fresh(raw, s)
    other = env(players=4)
    other.reset(seed=6)
    _play(other, rng, 150)
    raw.game = other.unwrapped.game  # another game under the same env
    raw.agent_selection = other.unwrapped.agent_selection
    for s in range(4):
        assert_fresh(raw, s)


def test_an_observation_after_several_actions_shows_the_bag_as_it_is():
    # a SingleAgentEnv observes its seat only after the opponents' moves: a renewable plant
    # puts a disc into the bag (rule 10.4) and the next event phase draws one (rule 6.1),
    # so the bag keeps its size while its discs and the event board change
    from energies.env import SingleAgentEnv

    single = SingleAgentEnv(players=4, seat=0)
    obs, _info = single.reset(seed=0)
    raw, rng = single.aec, np.random.default_rng(0)
    for _ in range(150):
        assert_fresh(raw, 0, obs)
        obs, _reward, done, truncated, _info = single.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if done or truncated:
            break


def _checked_game(seed: int, steps: int) -> None:
    """Play ``steps`` random steps of a seeded game, checking every observation."""
    e = env(players=4)
    e.reset(seed=seed)
    raw = e.unwrapped
    rng = random.Random(seed)
    for _ in range(steps):
        agent = e.agent_selection
        obs = e.observe(agent)
        assert_fresh(raw, raw.agent_name_mapping[agent], obs)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def test_the_check_catches_a_tracker_that_misses_a_change(monkeypatch):
    # a tracker that took rolls and supply trades for trade-window answers would keep the
    # hands it showed before them: the comparison with a fresh encoding must notice
    _checked_game(3, 300)  # as it is: no difference
    monkeypatch.setattr(tracking, "QUIET", tracking.QUIET | {RollDice, TradeWithSupply})
    with pytest.raises(AssertionError):
        _checked_game(3, 300)


@pytest.mark.parametrize(
    ("owner", "name", "seat_at"),
    [  # seat_at: where the seat is among the arguments of what is kept per seat
        (tracking_parts.Segments, "read_numbers", None),
        (tracking_parts.Segments, "counters", None),
        (tracking_parts.Segments, "frame", None),
        (tracking_parts.Segments, "head", 1),
        (tracking_parts.Segments, "seats", 1),
        (tracking_parts.Segments, "rows", 0),
        (tracking.ObservationTracker, "_pending_bytes", 0),
    ],
)
def test_the_check_catches_every_kept_segment_going_stale(monkeypatch, owner, name, seat_at):
    # each segment the tracker keeps, frozen at its first value (per seat where it is kept
    # per seat): the comparison with a fresh encoding must notice
    # (600 steps: the event rows must change after their first value; random agents that
    # also ask the table for proposals, rule 12.1, reach fewer event phases in 300)
    _checked_game(3, 600)  # as it is: no difference
    original, first = getattr(owner, name), {}

    def frozen(self, *args):
        key = None if seat_at is None else args[seat_at]
        if key not in first:
            first[key] = original(self, *args)
        return first[key]

    monkeypatch.setattr(owner, name, frozen)
    with pytest.raises(AssertionError):
        _checked_game(3, 600)


@pytest.mark.parametrize("name", ["_hazards_changed", "_pieces_moved"])
def test_the_check_catches_the_bytes_after_the_pending_decision_going_stale(monkeypatch, name):
    # each seat keeps its rows and the tail joined until a piece moves or a hazard or the
    # Inspector moves (a new token): a tracker that kept the old token must be noticed
    _checked_game(3, 300)  # as it is: no difference
    original = getattr(tracking.ObservationTracker, name)

    def forgetful(self, *args):
        token = self._after
        original(self, *args)
        self._after = token

    monkeypatch.setattr(tracking.ObservationTracker, name, forgetful)
    with pytest.raises(AssertionError):
        _checked_game(3, 300)


def test_the_check_catches_a_stale_action_mask(monkeypatch):
    kept: list = []

    def first_listing_forever(self, legal):
        if not kept:
            kept.append(original(self, legal))
        return kept[0]

    original = ActionCodec.listing
    monkeypatch.setattr(ActionCodec, "listing", first_listing_forever)
    with pytest.raises(AssertionError):
        _checked_game(3, 50)


def test_the_action_mask_handed_out_is_a_copy():
    # the env keeps one mask per set of options: a caller changing its copy changes nothing
    e = env(players=4)
    e.reset(seed=8)
    raw = e.unwrapped
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    legal = mask.copy()
    mask[:] = 1 - mask
    assert np.array_equal(e.observe(agent)["action_mask"], legal)
    assert_fresh(raw, raw.agent_name_mapping[agent])


def test_a_kept_listing_is_confirmed_by_its_contents():
    # same length, same first, middle and last objects: found under the same key, yet
    # another list
    codec = env(players=4).unwrapped.codec
    first, middle, last = shared.EndTurn(0), shared.BuildRoad(0, 9), shared.BuyDevCard(0)
    for path in (3, 7, 3):
        legal = [first, shared.BuildRoad(0, path), middle, last]
        listing = codec.listing(legal)
        assert listing.indices == [codec.index(a) for a in legal]
        assert np.flatnonzero(listing.mask).tolist() == sorted(listing.indices)
    # an equal list of other objects is the same listing (equal actions, equal indices)
    again = codec.listing([first, BuildRoad(0, 3), middle, last])
    assert again.indices == [codec.index(a) for a in (first, shared.BuildRoad(0, 3), middle, last)]
