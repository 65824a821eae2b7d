"""The PettingZoo AEC environment and the Gymnasium wrapper (issue 19)."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is part of the test extra")

from energies.actions import ACTION_TYPES

import energies as en
from energies import env as env_module
from energies.env import SingleAgentEnv, encoding, env, raw_env


def test_pettingzoo_api_test_passes():
    from pettingzoo.test import api_test

    for players in (4, 3):
        api_test(env(players=players, seed=11), num_cycles=400)


def test_pettingzoo_seed_test_passes():
    from pettingzoo.test import seed_test

    seed_test(lambda: env(players=4), num_cycles=300)


def test_every_action_kind_has_indices_or_a_reason():
    # fails when a new kind joins ACTION_TYPES without a block in the encoding
    assert encoding.encodable_kinds() | set(encoding.NOT_ENCODED) == set(ACTION_TYPES)
    for players in (3, 4):
        assert raw_env(players=players).codec.kinds == encoding.encodable_kinds()


def test_the_docstring_table_matches_the_blocks():
    rows = dict(re.findall(r"^([a-z_]+) {2,}(\d+)", env_module.__doc__, flags=re.MULTILINE))
    codec = raw_env(players=4).codec
    assert {kind: int(size) for kind, size in rows.items()} == {
        kind: size for kind, _start, size in codec.blocks
    }
    assert f"N = {codec.size} with 4 players ({raw_env(players=3).codec.size} with 3)" in (
        env_module.__doc__
    )
    e = raw_env(players=4)
    e.reset(seed=1)
    assert f"M = {e._encoder.size:,}" in env_module.__doc__


def test_every_listed_action_has_one_index_that_decodes_to_it():
    for players in (3, 4):
        codec = raw_env(players=players).codec
        kinds = set()
        for seed in range(4):
            game = en.new_game(players=players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                legal = game.legal_actions()
                indices = [codec.index(a) for a in legal]
                assert None not in indices, [a for a, i in zip(legal, indices) if i is None]
                assert len(set(indices)) == len(legal)
                for action, i in zip(legal, indices):
                    assert codec.actions[action.seat][i] == action
                kinds |= {a.kind for a in legal}
                game.apply_listed(rng.choice(legal))
        assert {"build_plant", "offer_trade", "respond_to_trade", "discard_card"} <= kinds


def consistent_twin(game, seat: int, rng: random.Random):
    """``test_view.hide_and_shuffle``, keeping what the table has seen: a trade offer being
    answered shows that its maker holds the cards offered (rule 12.1)."""
    from test_view import hide_and_shuffle

    twin = hide_and_shuffle(game, seat, rng)
    task = twin.state.pending
    if task is not None and task.kind == "trade_response" and task.info["from"] != seat:
        maker = twin.state.players[task.info["from"]]
        size = sum(maker.hand.values())
        shown = [kind for kind, n in task.info["give"] if kind != "energy" for _ in range(n)]
        maker.hand = dict.fromkeys(maker.hand, 0)
        for kind in shown + [rng.choice(list(maker.hand)) for _ in range(size - len(shown))]:
            maker.hand[kind] += 1
    return twin


def test_observations_and_masks_hide_what_the_seat_cannot_see():
    # positions that differ only in hidden information (the others' hands recomposed within
    # their sizes, their development cards, the deck, the bag's order and green symbols,
    # the random streams) give the seat to act the same observation and the same mask,
    # offers to other seats included (rule 12.1: offers depend on public card counts)
    shuffler = random.Random(3)
    checked = offering = 0
    for seed in (3, 4):
        e = env(players=4)
        e.reset(seed=seed)
        raw = e.unwrapped
        rng = np.random.default_rng(seed)
        for step, agent in enumerate(e.agent_iter()):
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if step % 9 == 0:
                seat = raw.agent_name_mapping[agent]
                twin = raw_env(players=4)
                twin.reset(seed=seed)
                twin.game = consistent_twin(raw.game, seat, shuffler)
                twin.agent_selection = agent
                other = twin.observe(agent)
                assert np.array_equal(other["observation"], obs["observation"])
                assert np.array_equal(other["action_mask"], obs["action_mask"])
                checked += 1
                offering += any(raw.codec.params[i][0] == "offer_trade"
                                for i in np.flatnonzero(obs["action_mask"]))  # fmt: skip
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 100 and offering > 10


def test_the_active_player_answering_a_proposal_sees_who_made_it():
    # rule 12.1: the other seats propose to the active player, who answers at the table
    # knowing the proposer; the pending decision names only the answering seat, so the
    # observation says who made the trade being answered (relative seat, one-hot)
    found = 0
    for seed in range(20):
        e = raw_env(players=4)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        at = e._encoder.at
        while not e.game.is_over and found < 6:
            task = e.game.state.pending
            if task is not None and task.kind == "trade_response":
                for seat in range(4):
                    obs = e.observe(e.possible_agents[seat])["observation"]
                    maker = obs[at["trade_from"] : at["trade_from"] + 4]
                    assert np.flatnonzero(maker).tolist() == [(task.info["from"] - seat) % 4]
                found += task.info["from"] != e.game.state.active  # a proposal
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))
        if found >= 6:
            break
    assert found >= 6


def _finish(e, rng):
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_rewards_at_the_end_and_everyone_loses():
    seen = set()
    for seed in range(12):
        e = raw_env(players=4)
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter():
            _obs, reward, terminated, truncated, _info = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
            else:
                mask = e.observe(agent)["action_mask"]
                e.step(int(rng.choice(np.flatnonzero(mask))))
        outcome = e.game.outcome
        seen.add(outcome.kind)
        for s, agent in enumerate(e.possible_agents):
            if outcome.kind == "everyone_loses":
                assert totals[agent] == -1.0
            else:
                assert totals[agent] == (1.0 if s in outcome.winners else -1.0)
    assert "everyone_loses" in seen and len(seen) >= 2


def test_the_turn_limit_truncates_with_no_reward():
    e = raw_env(players=4, max_turns=3)
    e.reset(seed=2)
    _finish(e, np.random.default_rng(0))
    assert e.game.outcome.kind == "unfinished" and e.agents == []


def test_footprint_reward_charges_the_polluters():
    game = en.new_game(players=4, seed=9)
    en.play(game, [en.bots.make_bot(n, seed=1) for n in ("fossil", "green", "random", "random")])
    reward = env_module.footprint_reward(weight=1.0)
    lfs = [max(0, game.local_footprint(s)) for s in range(4)]
    for s in range(4):
        expected = env_module.win_loss_reward(game, s) - lfs[s] / sum(lfs)
        assert reward(game, s) == pytest.approx(expected)


def test_illegal_actions_are_refused():
    e = raw_env(players=4)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    wrapped = env(players=4)
    wrapped.reset(seed=1)
    offender = wrapped.agent_selection
    wrapped.last()
    wrapped.step(illegal)  # PettingZoo's wrapper: the game ends, the offender loses
    assert all(wrapped.terminations.values()) and wrapped.rewards[offender] == -1


def test_a_seed_that_is_not_a_whole_number_is_refused_and_changes_nothing():
    with pytest.raises(ValueError, match="whole number"):
        raw_env(players=4, seed="7")
    for make in (raw_env, env):
        e = make(players=4)
        with pytest.raises(ValueError, match="whole number"):
            e.reset(seed=1.5)  # not silently seed 1
        assert e.unwrapped.game is None  # still not reset
        e.reset(seed=np.int64(3))  # numpy integers are whole numbers
        game, agent = e.unwrapped.game, e.agent_selection
        for bad in ("a", True, 2**63, [1]):
            with pytest.raises(ValueError, match="whole number"):
                e.reset(seed=bad)
        assert e.unwrapped.game is game and game.seed == 3 and e.agent_selection == agent
        e.reset()  # no seed: the game after a refused one is still a new one
        assert e.unwrapped.game is not game


def test_the_checked_env_enforces_order_and_bounds():
    from pettingzoo.utils.env_logger import EnvLogger

    e = env(players=4)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    EnvLogger.suppress_output()
    try:
        with pytest.raises(Exception, match="reset"):
            e.step(0)
    finally:
        EnvLogger.unsuppress_output()
    e.reset(seed=2)
    for bad in (-1, e.unwrapped.codec.size, 2.5, "roll"):
        with pytest.raises(AssertionError, match="action space"):
            e.step(bad)
    iterator = iter(e.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="step"):
        next(iterator)  # two agents without a step between them


def test_pettingzoo_render_test_passes(capsys):
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env(players=4, render_mode=render_mode))
    assert "energies.Game" in capsys.readouterr().out  # "human" outside Jupyter: one line


def test_render_returns_the_board_as_rgb():
    e = raw_env(players=4, render_mode="rgb_array")
    e.reset(seed=4)
    image = e.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 100 and len(np.unique(image.reshape(-1, 3), axis=0)) > 10


def test_the_single_agent_wrapper_passes_gymnasiums_checker():
    from gymnasium.utils.env_checker import check_env

    check_env(SingleAgentEnv(players=4), skip_render_check=True)
    single = SingleAgentEnv(players=3, seat=1, opponents=["random", "green"])
    obs, _info = single.reset(seed=5)
    assert single.aec.game.current_seat == 1 and obs["action_mask"].any()
    done, steps = False, 0
    rng = np.random.default_rng(1)
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _info = single.step(action)
        done, steps = terminated or truncated, steps + 1
    assert single.aec.game.is_over and reward in (-1.0, 1.0) and steps > 10


def test_the_single_agent_wrapper_refuses_bad_arguments_and_steps_clearly():
    for kwargs, words in [
        ({"seat": "a"}, "seat must be"),
        ({"seat": 1.0}, "seat must be"),
        ({"seat": 4}, "seat must be"),
        ({"opponents": ["fossil", "green"]}, "Give 3 opponents"),
        ({"opponents": ["fossil", "green", "nobody"]}, "nobody"),
        ({"illegal_reward": "a"}, "illegal_reward must be a number"),
    ]:
        with pytest.raises(ValueError, match=words):
            SingleAgentEnv(players=4, **kwargs)
    three = SingleAgentEnv(players=3, opponents="random, green")  # as simulate takes them
    assert three._specs == ["random", "green"] and len(SingleAgentEnv(players=3)._specs) == 2
    single = SingleAgentEnv(players=4)
    with pytest.raises(ValueError, match="reset"):
        single.step(0)
    obs, _info = single.reset(seed=2)
    actions = len(single.aec.game.actions)
    for bad in ("x", None, 1.7, -1, 953):
        with pytest.raises(ValueError, match="whole number from 0 to 952"):
            single.step(bad)
    assert len(single.aec.game.actions) == actions  # nothing changed
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, reward, terminated, _truncated, info = single.step(illegal)
    assert terminated and reward == -1.0 and info == {"illegal": True}
    assert len(single.aec.game.actions) == actions
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    with pytest.raises(ValueError, match="ended"):  # the episode is over until reset()
        single.step(legal)
    obs, _info = single.reset(seed=2)
    single.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_import_energies_does_not_import_the_env():
    code = "import sys, energies; print('pettingzoo' in sys.modules, 'energies.env' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def _agents_page(heading: str | None = None) -> str:
    """docs/agents.md (the README's learning-agents section moved there), or one section of it."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "agents.md").read_text(
        encoding="utf-8"
    )
    if heading is None:
        return text
    return text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_agents_page_action_table_and_example_match_the_code():
    section = _agents_page("## Actions")
    codec = raw_env(players=4).codec
    quoted = {}
    for ranges, kinds in re.findall(
        r"^\| ([0-9–/ ]+) \| (`[^|]+`) \|", section, flags=re.MULTILINE
    ):
        for span, kind in zip(ranges.split(" / "), kinds.split(" / ")):
            first, _, last = span.strip().partition("–")
            quoted[kind.strip("` ")] = (int(first), int(last or first))
    assert quoted == {k: (start, start + size - 1) for k, start, size in codec.blocks}
    example = _agents_page().split("```python", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(example, "docs/agents.md example", "exec"), namespace)  # noqa: S102
    assert namespace["e"].unwrapped.game.is_over


def test_the_agents_page_observation_table_matches_the_encoder():
    """Every segment of the observation vector, in order, with its indices (4 players)."""
    from energies.env.encoding import ObservationEncoder

    section = _agents_page("## Observations")
    quoted = [
        (name, int(first), int(last or first))
        for first, last, name in re.findall(
            r"^\| (\d+)(?:–(\d+))? \| `([a-z_]+)` \|", section, flags=re.MULTILINE
        )
    ]
    encoder = ObservationEncoder(en.new_game(players=4, seed=1).board)
    assert quoted == [(name, start, start + size - 1) for name, start, size in encoder.layout]
    assert f"float32[{encoder.size}]" in section


def test_win_rate_shows_a_progress_bar_on_request_and_plays_the_same_games(capsys):
    # lesson 08's cells of a few hundred games take seconds: they show a bar (issue 33)
    from energies.env.agents import RandomAgent, win_rate

    quiet = win_rate(RandomAgent(), 3, seed=4)
    assert capsys.readouterr().err == ""
    assert win_rate(RandomAgent(), 3, seed=4, progress=True) == quiet
    assert "playing: 100%" in capsys.readouterr().err  # outside a notebook tqdm writes to stderr
    with pytest.raises(ValueError, match="progress must be True or False"):
        win_rate(RandomAgent(), 1, progress="yes")
