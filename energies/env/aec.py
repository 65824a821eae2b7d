"""The AEC environment itself (:class:`raw_env`), its rewards and its picture; see
:mod:`energies.env` for the spaces, the encoding and the usual way in (``env()``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..kit.fields import show
from ..newenergies.game import Game, new_game
from ..newenergies.rules import RuleSet
from ..runner.arguments import finite_number, whole_number
from .encoding import ActionCodec, Listing, ObservationEncoder
from .tracking import ObservationTracker

#: Upper bound of every observation feature (counts, GF, turn / 10 within the turn limit).
OBSERVATION_HIGH = 1000.0


def win_loss_reward(game: Game, seat: int) -> float:
    """+1 for a winner, -1 for everyone else; -1 for all when everyone loses."""
    outcome = game.outcome
    if outcome is None or outcome.kind == "unfinished":
        return 0.0
    return 1.0 if seat in outcome.winners else -1.0


def footprint_reward(weight: float = 1.0) -> Callable[[Game, int], float]:
    """Win/loss minus ``weight`` x the seat's share of the total LF at the end."""
    weight = finite_number("footprint_weight", weight)

    def reward(game: Game, seat: int) -> float:
        base = win_loss_reward(game, seat)
        if game.outcome is None or game.outcome.kind == "unfinished":
            return base
        lfs = [max(0, game.local_footprint(s)) for s in range(game.rules.players)]
        return base - weight * lfs[seat] / max(1, sum(lfs))

    return reward


def _whole_seed(seed: Any) -> int:
    """``seed`` as a Python int (numpy integers too); ValueError for anything else, as
    ``new_game`` says (1.5 is not silently seed 1)."""
    number = whole_number(seed)
    if number is None or abs(number) >= 2**63:
        raise ValueError(f"The seed must be a whole number below 2**63 (e.g. 7), not {show(seed)}.")
    return number


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
        if whole_number(players) not in (3, 4):
            raise ValueError(f"players must be 3 or 4, not {show(players)}.")
        players = whole_number(players)
        if rules is None:
            rules = RuleSet.standard(players)
        elif not isinstance(rules, RuleSet):  # a dict or a text failed only at the first reset
            raise ValueError(
                f"rules must be a RuleSet (e.g. en.RuleSet.standard(players={players})), "
                f"not {show(rules)}."
            )
        elif rules.players != players:
            raise ValueError(f"players={players} does not match the rule set ({rules.players}).")
        footprint_weight = finite_number("footprint_weight", footprint_weight)
        if max_turns is not None:
            if whole_number(max_turns) is None or max_turns < 1:
                raise ValueError(f"max_turns must be a whole number >= 1, not {show(max_turns)}.")
            try:  # rule 14.3 ends it as "unfinished"
                rules = rules.replace(turn_limit=int(max_turns))
            except ValueError as exc:
                raise ValueError(f"max_turns={max_turns} is refused: {exc}") from None
        if render_mode not in (None, "rgb_array", "human"):
            raise ValueError(
                f"render_mode must be None, 'rgb_array' or 'human', not {render_mode!r}."
            )
        if isinstance(reward, str) and reward == "win_loss":
            self.reward_fn = win_loss_reward
        elif reward == "footprint":
            self.reward_fn = footprint_reward(footprint_weight)
        elif callable(reward):
            self.reward_fn = reward
        else:
            raise ValueError("reward must be 'win_loss', 'footprint' or a function (game, seat).")
        self.rules = rules
        self.render_mode = render_mode
        self._seed = None if seed is None else _whole_seed(seed)
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
        """Start a new game; ``seed`` fixes the board, dice, bag and deck (default: a fresh one).
        A seed that is not a whole number changes nothing and raises ValueError."""
        if seed is None:
            seed = (
                self._seed
                if self._seed is not None
                else int(np.random.SeedSequence().entropy % 2**62)
            )
        game = new_game(rules=self.rules, seed=_whole_seed(seed))  # checked before any change
        self._seed = None  # a second reset without a seed starts a different game
        self.game = game
        self._encoder, self._tracker = self._encoder_for(self.game.board)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        # the position listed last (see _relist): its state, its number of actions, the legal
        # list, its Listing (indices, mask) and the seat to decide
        self._listed_state: Any = None
        self._listed_count = -1
        self._legal_list: list[Any] = []
        self._listing: Listing = self.codec.listing([])  # (no position listed yet)
        self._decider: int | None = None
        self.agent_selection = self.possible_agents[self.game.current_seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        listing = self._legal()
        if seat == self._decider and agent == self.agent_selection:
            mask = listing.mask.copy()
        else:
            mask = np.zeros(self.codec.size, dtype=np.int8)
        return {"observation": self._tracker.observation(self.game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self._play(action):
            name = self.codec.describe(int(action)) if action is not None else "None"
            raise ValueError(f"{agent} chose {name}, which is not legal now (see the action mask).")

    def _play(self, action: Any) -> bool:
        """Play the legal action of index ``action`` for the agent to act (False, and nothing
        changes, when it is not legal now); rewards and endings when the game ends."""
        listing = self._legal()
        try:
            if type(action) is not int:
                action = int(action)
            chosen = self._legal_list[listing.indices.index(action)]
        except (TypeError, ValueError):
            return False
        # an action object just listed: already checked. Rewards stay 0 until the end, so
        # there is nothing to add up or reset (_cumulative_rewards) before then
        game = self.game
        game.apply_listed(chosen)
        state = game.state
        if state.outcome is None:
            queue = state.queue  # engine.current_seat, inline: it runs at every step
            self.agent_selection = self.possible_agents[queue[0].seat if queue else state.active]
            return True
        truncated = state.outcome.kind == "unfinished"
        for a in self.agents:
            seat = self.agent_name_mapping[a]
            self.rewards[a] = 0.0 if truncated else float(self.reward_fn(game, seat))
            self.terminations[a] = not truncated
            self.truncations[a] = truncated
            self.infos[a] = {"outcome": state.outcome.kind, "winners": state.outcome.winners}
        self._accumulate_rewards()
        return True

    def legal_actions(self) -> dict[int, Any]:
        """Index -> legal action of the agent to act (empty once the game is over)."""
        if self.game is None or self.game.is_over:
            return {}
        listing = self._legal()
        return {i: a for i, a in zip(listing.indices, self._legal_list) if i is not None}

    def _legal(self) -> Listing:
        """The :class:`~energies.encoding.Listing` (indices and mask) of the legal actions
        now (see _relist); the only place that asks whether the position is still the one
        listed."""
        game = self.game
        if game.state is not self._listed_state or len(game.actions) != self._listed_count:
            self._relist(game)
        return self._listing

    def _relist(self, game: Game) -> None:
        """List the position once: observe() and step() share it until the game, an undo or
        a teacher's edit moves on."""
        self._listed_state = game.state
        self._listed_count = len(game.actions)
        self._legal_list = game.legal_actions()
        self._listing = self.codec.listing(self._legal_list)
        state = game.state  # engine.current_seat, inline
        queue = state.queue
        self._decider = (
            None if state.outcome is not None else queue[0].seat if queue else state.active
        )

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
        from ..viz import board_png

        display(Image(board_png(game, dpi=64)))
    else:
        print(repr(game))


def board_rgb(game: Game, size: float = 6.0, dpi: int = 80) -> np.ndarray:
    """``energies.viz.draw_board`` rendered off-screen (Agg) as an RGB uint8 array."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ..viz import draw_board

    figure = Figure(figsize=(size, size), dpi=dpi)
    canvas = FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    draw_board(game, ax=ax)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()
