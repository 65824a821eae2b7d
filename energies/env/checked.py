"""The checks of PettingZoo's usual wrappers in one layer (:class:`CheckedEnv`, see
``energies.env.env``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

from ..runner.arguments import finite_number
from .aec import raw_env

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
        self._illegal_reward = finite_number("illegal_reward", illegal_reward)
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
        self.env.reset(seed=seed, options=options)  # first: a refused seed changes nothing
        self._has_reset = self._has_updated = True

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
        if env._play(action):
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

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """``for agent in env.agent_iter()``: the agent to act until none is left; a step or a
        reset must come between two agents (as PettingZoo's order-enforcing iterator)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return self._agents(max_iter)

    def _agents(self, max_iter: int) -> Iterator[str]:
        env = self.env
        for _ in range(max_iter):
            if not env.agents:
                return
            assert self._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            self._has_updated = False
            yield env.agent_selection

    def __str__(self) -> str:
        return str(self.env)
