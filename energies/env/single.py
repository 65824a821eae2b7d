"""A Gymnasium single-agent wrapper: one seat learns, personas play the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium

from ..runner.arguments import finite_number
from .aec import raw_env


class SingleAgentEnv(gymnasium.Env):
    """One seat learns; the others are played by personas (Gymnasium API).

    ``opponents`` names the bots of the other seats in seat order after the learner
    (default FossilRush, GreenInvestor, Balanced; the first two with 3 players; a list or
    comma-separated names as ``simulate`` takes them). The observation is the
    AEC observation dict; the episode ends when the game does (reward as in
    :class:`raw_env`). An action outside the mask ends the episode with ``illegal_reward``;
    one outside the action space, a step before ``reset()`` or after the episode ended is
    refused with a ValueError and changes nothing.
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
        from ..bots import make_bot

        self.aec = raw_env(players=players, render_mode=render_mode, **env_kwargs)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"seat must be a whole number from 0 to {players - 1}, not {seat!r}.")
        if opponents is None:
            names: list[Any] = ["fossil", "green", "balanced"][: players - 1]
        elif isinstance(opponents, str):  # "fossil,green,balanced", as simulate takes them
            names = [name.strip() for name in opponents.split(",")]
        else:
            names = list(opponents)
        if len(names) != players - 1:
            raise ValueError(
                f"Give {players - 1} opponents, one per other seat (e.g. 'fossil,green"
                f"{',balanced' if players == 4 else ''}'), not {len(names)}."
            )
        for spec in names:
            make_bot(spec)  # an unknown bot is refused now, not at the first reset()
        self.illegal_reward = finite_number("illegal_reward", illegal_reward)
        self._specs = names
        self._make_bot = make_bot
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space("player_0")
        self.action_space = self.aec.action_space("player_0")
        self._ended = True  # no episode yet: step() needs a reset() first

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
        self._ended = self.aec.game.is_over
        return self.aec.observe(self.aec.possible_agents[self.seat]), {}

    def _play_others(self) -> None:
        from ..runner.loop import view_for

        game = self.aec.game
        while not game.is_over and game.current_seat != self.seat:
            seat = game.current_seat
            bot = self._bots[seat]
            legal = game.legal_actions()
            action = bot.decide(view_for(bot, game, seat), legal, self._rng)
            self.aec.step(self.aec.codec.index(action))

    def step(self, action: int):
        if self._ended:
            raise ValueError("The episode has ended (or not begun): call reset() first.")
        if not self.action_space.contains(action):
            raise ValueError(
                f"The action must be a whole number from 0 to {self.action_space.n - 1} "
                f"(an index of the action mask), not {action!r}."
            )
        me = self.aec.possible_agents[self.seat]
        if int(action) not in self.aec._legal().indices:
            self._ended = True  # the episode ends here; the game is left as it was
            observation = self.aec.observe(me)
            return observation, self.illegal_reward, True, False, {"illegal": True}
        self.aec.step(int(action))
        self._play_others()
        self._ended = self.aec.game.is_over
        observation = self.aec.observe(me)
        reward = float(self.aec._cumulative_rewards.get(me, 0.0))
        self.aec._cumulative_rewards[me] = 0.0
        info = dict(self.aec.infos.get(me, {}))
        return observation, reward, self.aec.terminations[me], self.aec.truncations[me], info

    def render(self):
        return self.aec.render()
