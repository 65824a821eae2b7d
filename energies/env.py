"""A PettingZoo AEC environment for New Energies, and a Gymnasium single-agent wrapper.

    from energies.env import env

    e = env(players=4, seed=1)                  # a PettingZoo AECEnv ("player_0" ... "player_3")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Install with ``pip install "energies[rl]"`` (pettingzoo, gymnasium, numpy). ``import
energies`` never imports this module.

Agents and turns
----------------
``player_s`` plays seat ``s``. The agent to act is whoever the engine waits for
(``game.current_seat``): the active player, or another seat answering a decision
(a discard on a 7, a trade offer, an event's choice). Observations are built from
``game.view(seat)`` only — what that seat may know — so no agent sees another's hand,
the deck, the bag's order or the dice to come.

Actions
-------
``Discrete(N)``, N = 952 with 4 players (902 with 3): blocks in this order, the
same for every board. ``k`` = 1..players-1 is a seat *relative* to the one deciding
(``(seat + k) % players``); corners 0-53, paths 0-71 and hexes 0-18 are the board's
ids; a plant site is one of the 114 (corner, hex) pairs of a hex and a corner of it,
sorted; card kinds are lumber, brick, fiber, food, steel, science (+ energy in trades).

=========================  =====================  ==========================================
kind                       size (4 players)       parameters, in index order
=========================  =====================  ==========================================
roll_dice                  1
end_turn                   1
build_road                 72                     path
build_town                 54                     corner
build_city                 54                     corner
build_plant                228                    kind (fossil, renewable) x plant site
buy_dev_card               1
trade_with_supply          42                     give (6 cards + energy) x get (6 cards)
offer_trade                147 (98 with 3)        partner k x give (7) x get (7); one card for
                                                  one card only (rule 12.1)
propose_trade              49                     give (7) x get (7), one for one, by a seat
                                                  that is not active to the active player
                                                  (rule 12.1)
respond_to_trade           2                      decline, accept
remove_hazard              73                     19 hexes, then 54 buildings (corner)
demolish_fossil            114                    plant site
build_warehouse            1
play_dev_card              5                      cleanup, victory_point, road_construction,
                                                  high_yield, research_grant
discard_card               6                      card kind
take_card                  6                      card kind
move_inspector             19                     hex
choose_victim              3 (2 with 3)           victim k
place_hazard               54                     corner
choose_hex                 19                     hex
decline                    1
=========================  =====================  ==========================================

``observation["action_mask"]`` (int8) marks the legal indices of the agent to act (all
zero for the others). Offers of several cards, which the engine accepts from hand-made
actions but never lists, have no index. ``codec.describe(i)`` names an index;
``env.unwrapped.legal_actions()`` gives the mask's index -> action.

Observations
------------
``{"observation": float32[M], "action_mask": int8[N]}``, M = 1,296. Seats are rotated so
the observing seat is slot 0 (slot 3 is empty with 3 players). Segments in order
(``encoder.layout`` has the offsets):

own_hand (6), own_dev_cards (5, incl. hidden VP cards), own_dev_new (5), then per seat
(4 each): cards (hand size), energy, dev_cards (development cards held), warehouse; counters
(6: deck size, energy supply, offers made, plants built, demolished, cards played this
turn), turn (turn / 10), seats (4 x 9: VP (public; the own seat's counts its hidden VP
cards), LF, towns, cities, roads, fossil, renewable, Longest Road, Environmentalist),
public (5: GF, bag size, green discs in the bag, discs the next event phase draws,
hazards left), phase (5, one-hot), dice (11, one-hot sum of the last roll), bag_brown (5,
per symbol), event_board (8 rows, discs on each), pending (14 decision kinds, "I decide",
active seat 4), trade (7 + 7: the offer being answered), towns (4 x 54), cities (4 x 54),
roads (4 x 72), plants (2 x 114), hex_hazards (19), building_hazards (54), inspector (19),
terrain (19 x 5 resources), pips (19, pips / 5). The observation is kept up to date between
steps (:mod:`energies.tracking`) and always equals the encoding of ``game.view(seat)``.

Rewards, endings
----------------
Zero until the game ends; then, by default (``reward="win_loss"``), +1 for every winner
and -1 for every other seat; when **everyone loses** (the bag ran dry with nobody
greener than fossil, rule 14.2) every seat gets -1. ``reward="footprint"`` subtracts
``footprint_weight * LF / total LF`` from each seat's result, so polluters pay even
among losers; any callable ``reward(game, seat) -> float`` works too. A finished game
*terminates* every agent; the turn limit (``max_turns``, default the rule set's
``turn_limit``, rule 14.3) *truncates* them with reward 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

from .encoding import ActionCodec, Listing, ObservationEncoder
from .engine import current_seat
from .game import Game, new_game
from .rules import RuleSet
from .tracking import ObservationTracker

#: Upper bound of every observation feature (counts, GF, turn / 10 within the turn limit).
OBSERVATION_HIGH = 1000.0

__all__ = ["CheckedEnv", "SingleAgentEnv", "env", "footprint_reward", "raw_env", "win_loss_reward"]


def win_loss_reward(game: Game, seat: int) -> float:
    """+1 for a winner, -1 for everyone else; -1 for all when everyone loses."""
    outcome = game.outcome
    if outcome is None or outcome.kind == "unfinished":
        return 0.0
    return 1.0 if seat in outcome.winners else -1.0


def footprint_reward(weight: float = 1.0) -> Callable[[Game, int], float]:
    """Win/loss minus ``weight`` x the seat's share of the total LF at the end."""

    def reward(game: Game, seat: int) -> float:
        base = win_loss_reward(game, seat)
        if game.outcome is None or game.outcome.kind == "unfinished":
            return base
        lfs = [max(0, game.local_footprint(s)) for s in range(game.rules.players)]
        return base - weight * lfs[seat] / max(1, sum(lfs))

    return reward


def env(**kwargs) -> AECEnv:
    """The environment with the usual checks: :class:`CheckedEnv` around :class:`raw_env`.

    The checks are those of PettingZoo's ``OrderEnforcingWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper(illegal_reward=-1)``, done
    in one layer: ``reset()`` comes first, an action must lie in the action space, and an
    illegal action (outside the mask) ends the game for all agents with -1 for the agent
    that made it.
    """
    return CheckedEnv(raw_env(**kwargs))


_GUARDED = frozenset(
    {"agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"}
)


class CheckedEnv(BaseWrapper):
    """Order of calls, bounds and illegal moves checked around a :class:`raw_env`.

    Behaves as PettingZoo's stack ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(
    TerminateIllegalWrapper(env, illegal_reward)))``: the same errors and warnings, the
    same end of the game on an illegal move; one layer that reads the environment
    directly, so a step costs a fraction of what three stacked wrappers cost.
    """

    def __init__(self, env: raw_env, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self._illegal_reward = float(illegal_reward)
        self._has_reset = False
        self._has_updated = False

    # the attributes PettingZoo's OrderEnforcingWrapper guards until reset()
    def _after_reset(name: str):  # builds the properties below
        def read(self):
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)

        return property(read)

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")
    del _after_reset

    def __getattr__(self, name: str) -> Any:
        # reached when a guarded property above refuses (or for any other attribute)
        if name in _GUARDED and not self.__dict__.get("_has_reset"):
            raise AttributeError(f"{name} cannot be accessed before reset")
        return super().__getattr__(name)

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._has_reset = self._has_updated = True
        self.env.reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        env = self.env
        agent = env.agent_selection
        return (
            env.observe(agent) if observe else None,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            if action is not None:
                assert env._action_space.contains(action), "action is not in action space"
            env._was_dead_step(action)  # None is the only answer of a finished agent
            return
        in_space = (
            0 <= action < env.codec.size if type(action) is int
            else env._action_space.contains(action)
        )  # fmt: skip
        assert in_space, "action is not in action space"
        chosen = env._chosen(action)
        if chosen is not None:
            env._apply(agent, chosen)
            return
        # as TerminateIllegalWrapper: the game ends, the offender gets the illegal reward
        EnvLogger.warn_on_illegal_move()
        env._cumulative_rewards[agent] = 0
        env.terminations = dict.fromkeys(env.agents, True)
        env.truncations = dict.fromkeys(env.agents, True)
        env.rewards = dict.fromkeys(env.agents, 0)
        env.rewards[agent] = self._illegal_reward
        env._accumulate_rewards()
        env._deads_step_first()

    def render(self) -> np.ndarray | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return self.env.render()

    def state(self) -> np.ndarray:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return self.env.state()

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterator:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterator(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterator:
    """``for agent in env.agent_iter()``: the agent to act until none is left; a step or a
    reset must come between two agents (as PettingZoo's order-enforcing iterator)."""

    def __init__(self, wrapper: CheckedEnv, max_iter: int) -> None:
        self._wrapper, self._env, self._left = wrapper, wrapper.env, max_iter

    def __iter__(self) -> _AgentIterator:
        return self

    def __next__(self) -> str:
        env = self._env
        if not env.agents or self._left <= 0:
            raise StopIteration
        self._left -= 1
        assert self._wrapper._has_updated, (
            "need to call step() or reset() in a loop over `agent_iter`"
        )
        self._wrapper._has_updated = False
        return env.agent_selection


class raw_env(AECEnv):
    """New Energies as an AEC environment: see the module docstring for spaces and rewards."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["rgb_array", "human"],
        "name": "energies_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 4,
        rules: RuleSet | None = None,
        seed: int | None = None,
        reward: str | Callable[[Game, int], float] = "win_loss",
        footprint_weight: float = 1.0,
        max_turns: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if rules is None:
            rules = RuleSet.standard(players)
        elif rules.players != players:
            raise ValueError(f"players={players} does not match the rule set ({rules.players}).")
        if max_turns is not None:
            if not isinstance(max_turns, int) or max_turns < 1:
                raise ValueError(f"max_turns must be a whole number >= 1, not {max_turns!r}.")
            rules = rules.replace(turn_limit=max_turns)  # rule 14.3 ends it as "unfinished"
        if render_mode not in (None, "rgb_array", "human"):
            raise ValueError(
                f"render_mode must be None, 'rgb_array' or 'human', not {render_mode!r}."
            )
        if reward == "win_loss":
            self.reward_fn = win_loss_reward
        elif reward == "footprint":
            self.reward_fn = footprint_reward(footprint_weight)
        elif callable(reward):
            self.reward_fn = reward
        else:
            raise ValueError("reward must be 'win_loss', 'footprint' or a function (game, seat).")
        self.rules = rules
        self.render_mode = render_mode
        self._seed = seed
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        board = new_game(rules=rules, seed=0).board  # only the topology: the same for all
        self.codec = ActionCodec(players, board)
        self._encoders: dict[Any, tuple[ObservationEncoder, ObservationTracker]] = {}
        size = ObservationEncoder(board).size
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.codec.size)
        self.game: Game | None = None

    # -- spaces (the same objects every call, as PettingZoo expects) ---------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # -- the AEC contract ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` fixes the board, dice, bag and deck (default: a fresh one)."""
        if seed is None:
            seed = (
                self._seed
                if self._seed is not None
                else int(np.random.SeedSequence().entropy % 2**62)
            )
        self._seed = None  # a second reset without a seed starts a different game
        self.game = new_game(rules=self.rules, seed=int(seed))
        self._encoder, self._tracker = self._encoder_for(self.game.board)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._listed: tuple[Any, int, list[Any], Listing, int | None] | None = None
        self.agent_selection = self.possible_agents[self.game.current_seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        game = self.game
        listed = self._legal()
        if agent == self.agent_selection and listed[4] == seat:
            mask = listed[3].mask.copy()
        else:
            mask = np.zeros(self.codec.size, dtype=np.int8)
        return {"observation": self._tracker.observation(game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._chosen(action)
        if chosen is None:
            name = self.codec.describe(int(action)) if action is not None else "None"
            raise ValueError(f"{agent} chose {name}, which is not legal now (see the action mask).")
        self._apply(agent, chosen)

    def _chosen(self, action: Any) -> Any:
        """The listed action of index ``action``, or None when it is not legal now."""
        listed = self._legal()
        try:
            return listed[2][listed[3].indices.index(int(action))]
        except (TypeError, ValueError):
            return None

    def _apply(self, agent: str, chosen: Any) -> None:
        """Play a listed action of the agent to act; rewards and endings when the game ends."""
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        game.apply_listed(chosen)  # an action object just listed: already checked
        seat = current_seat(game.state)
        if seat is not None:  # rewards stay 0 until the end: nothing to add up
            self.agent_selection = self.possible_agents[seat]
            return
        truncated = game.outcome.kind == "unfinished"
        for a in self.agents:
            seat = self.agent_name_mapping[a]
            self.rewards[a] = 0.0 if truncated else float(self.reward_fn(game, seat))
            self.terminations[a] = not truncated
            self.truncations[a] = truncated
            self.infos[a] = {"outcome": game.outcome.kind, "winners": game.outcome.winners}
        self._accumulate_rewards()

    def legal_actions(self) -> dict[int, Any]:
        """Index -> legal action of the agent to act (empty once the game is over)."""
        if self.game is None or self.game.is_over:
            return {}
        _state, _seen, legal, listing, _seat = self._legal()
        return {i: a for i, a in zip(listing.indices, legal) if i is not None}

    def _legal(self) -> tuple[Any, int, list[Any], Listing, int | None]:
        """(state, actions so far, the listed actions, their :class:`~energies.encoding.
        Listing` (indices and mask), the seat to decide), listed once per position:
        observe() and step() share it (listed afresh once the game, an undo or a teacher's
        edit has moved on)."""
        game = self.game
        listed = self._listed
        if listed is None or listed[0] is not game.state or listed[1] != len(game.actions):
            state, legal = game.state, game.legal_actions()
            listed = self._listed = (
                state, len(game.actions), legal, self.codec.listing(legal), current_seat(state)
            )  # fmt: skip
        return listed

    def _encoder_for(self, board) -> tuple[ObservationEncoder, ObservationTracker]:
        key = board.__reduce__()[1]  # the layout: terrain and numbers
        if key not in self._encoders:
            encoder = ObservationEncoder(board)
            self._encoders[key] = (encoder, ObservationTracker(encoder))
        return self._encoders[key]

    def render(self) -> np.ndarray | None:
        """``rgb_array``: the board as an RGB array (height x width x 3, uint8), drawn by
        energies.viz; ``human``: the board picture shown in Jupyter (a line of text
        elsewhere), returning None."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='rgb_array' or 'human'.")
            return None
        if self.render_mode == "human":
            _show(self.game)
            return None
        return board_rgb(self.game)

    def close(self) -> None:
        self.game = None


def _show(game: Game) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        from .viz import board_png

        display(Image(board_png(game, dpi=64)))
    else:
        print(repr(game))


def board_rgb(game: Game, size: float = 6.0, dpi: int = 80) -> np.ndarray:
    """``energies.viz.draw_board`` rendered off-screen (Agg) as an RGB uint8 array."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .viz import draw_board

    figure = Figure(figsize=(size, size), dpi=dpi)
    canvas = FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    draw_board(game, ax=ax)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


class SingleAgentEnv(gymnasium.Env):
    """One seat learns; the others are played by personas (Gymnasium API).

    ``opponents`` names the bots of the other seats in seat order after the learner
    (default FossilRush, GreenInvestor, Balanced for 4 players). The observation is the
    AEC observation dict; the episode ends when the game does (reward as in
    :class:`raw_env`). An action outside the mask ends the episode with ``illegal_reward``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[Any] | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **env_kwargs: Any,
    ) -> None:
        from .bots import make_bot

        self.aec = raw_env(players=players, render_mode=render_mode, **env_kwargs)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat!r}.")
        names = list(opponents) if opponents is not None else ["fossil", "green", "balanced"]
        if len(names) != players - 1:
            raise ValueError(f"Give {players - 1} opponents, one per other seat.")
        self._specs = names
        self._make_bot = make_bot
        self.seat = seat
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space("player_0")
        self.action_space = self.aec.action_space("player_0")

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.aec.reset(seed=game_seed)
        others = [s for s in range(self.aec.rules.players) if s != self.seat]
        self._bots = {
            s: self._make_bot(spec, seed=game_seed + s) for s, spec in zip(others, self._specs)
        }
        import random

        self._rng = random.Random(game_seed)
        self._play_others()
        return self.aec.observe(self.aec.possible_agents[self.seat]), {}

    def _play_others(self) -> None:
        from .play import view_for

        game = self.aec.game
        while not game.is_over and game.current_seat != self.seat:
            seat = game.current_seat
            bot = self._bots[seat]
            legal = game.legal_actions()
            action = bot.decide(view_for(bot, game, seat), legal, self._rng)
            self.aec.step(self.aec.codec.index(action))

    def step(self, action: int):
        me = self.aec.possible_agents[self.seat]
        if int(action) not in self.aec._legal()[3].indices:
            observation = self.aec.observe(me)
            return observation, self.illegal_reward, True, False, {"illegal": True}
        self.aec.step(int(action))
        self._play_others()
        observation = self.aec.observe(me)
        reward = float(self.aec._cumulative_rewards.get(me, 0.0))
        self.aec._cumulative_rewards[me] = 0.0
        info = dict(self.aec.infos.get(me, {}))
        return observation, reward, self.aec.terminations[me], self.aec.truncations[me], info

    def render(self):
        return self.aec.render()
