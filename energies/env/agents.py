"""Small agents for :mod:`energies.env` (lesson 08): random, masked-greedy, a linear learner.

Each agent has ``act(observation_dict, rng) -> index``. They read the action mask and
the codec's table of index -> (kind, parameters), nothing else of the game.

``KindLearner`` is a softmax policy that is *linear* in one-hot "bucket" features of
an action (its kind, split by plant kind, card and accept/decline): the chance of a
legal action is proportional to ``exp(theta[bucket])``. It learns with REINFORCE
(Monte-Carlo policy gradient with a running-mean baseline) from the ±1 end-of-game
reward, so what it learns is readable: one number per bucket.
"""

from __future__ import annotations

import numpy as np

from .encoding import ActionCodec

# masked-greedy: the first bucket in this list that is legal is taken (ties: at random)
GREEDY_ORDER = (
    "build_city",
    "build_town",
    "build_plant:renewable",
    "build_road",
    "buy_dev_card",
    "play_dev_card",
    "remove_hazard",
    "demolish_fossil",
    "build_plant:fossil",
)


def buckets(codec: ActionCodec) -> tuple[list[str], np.ndarray]:
    """(bucket names, bucket id of every action index) for a codec."""
    names: list[str] = []
    ids = np.empty(codec.size, dtype=np.intp)
    for i, (kind, params) in enumerate(codec.params):
        if kind == "build_plant":
            name = f"build_plant:{params[0]}"
        elif kind == "play_dev_card":
            name = f"play_dev_card:{params[0]}"
        elif kind == "respond_to_trade":
            name = "accept_trade" if params[0] else "decline_trade"
        else:
            name = kind
        if name not in names:
            names.append(name)
        ids[i] = names.index(name)
    return names, ids


class RandomAgent:
    """A uniformly random legal index (what RandomBot does, through the env)."""

    def act(self, observation: dict, rng: np.random.Generator) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))


class GreedyAgent:
    """Takes the first legal bucket of :data:`GREEDY_ORDER`; otherwise a random legal index."""

    def __init__(self, codec: ActionCodec) -> None:
        self.names, self.ids = buckets(codec)

    def act(self, observation: dict, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        legal_buckets = self.ids[legal]
        for name in GREEDY_ORDER:
            if name in self.names:
                hits = legal[legal_buckets == self.names.index(name)]
                if hits.size:
                    return int(rng.choice(hits))
        return int(rng.choice(legal))


class KindLearner:
    """A linear softmax policy over action buckets, trained by REINFORCE (see the module)."""

    def __init__(self, codec: ActionCodec, learning_rate: float = 0.05) -> None:
        self.names, self.ids = buckets(codec)
        self.theta = np.zeros(len(self.names))
        self.learning_rate = learning_rate
        self.baseline = 0.0
        self.games = 0
        self._grad = np.zeros_like(self.theta)

    def act(self, observation: dict, rng: np.random.Generator, learn: bool = True) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        b = self.ids[legal]
        logits = self.theta[b]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(rng.choice(legal.size, p=p))
        if learn:  # d log pi / d theta = onehot(chosen bucket) - expected bucket
            np.add.at(self._grad, b, -p)
            self._grad[b[k]] += 1.0
        return int(legal[k])

    def finish_game(self, reward: float) -> None:
        """One REINFORCE step with the game's reward; the baseline is the running mean."""
        self.games += 1
        self.baseline += (reward - self.baseline) / min(self.games, 100)
        self.theta += self.learning_rate * (reward - self.baseline) * self._grad
        self._grad[:] = 0.0

    def table(self) -> dict[str, float]:
        """The learned preference of every bucket, highest first."""
        order = np.argsort(-self.theta)
        return {self.names[i]: round(float(self.theta[i]), 2) for i in order}


def win_rate(
    agent,
    games: int,
    seed: int = 0,
    *,
    learn: bool = False,
    opponents=("random", "random", "random"),
    progress: bool = False,
) -> float:
    """Share of ``games`` seeded 4-player games that ``agent`` wins from seat 0.

    The other seats are played by ``opponents`` (persona names) through
    :class:`energies.env.SingleAgentEnv`. With ``learn=True`` a :class:`KindLearner`
    updates itself after every game. The same seed gives the same games for every
    agent, so two agents' rates compare like for like. ``progress=True`` shows a ``tqdm``
    progress bar (when tqdm is installed): a lesson cell of a few hundred games takes seconds.
    """
    from . import SingleAgentEnv

    if not isinstance(progress, bool):
        raise ValueError(f"progress must be True or False, not {progress!r}.")
    env = SingleAgentEnv(players=len(opponents) + 1, opponents=list(opponents))
    rng = np.random.default_rng(seed)
    wins = 0
    for game in _games(games, progress, "training" if learn else "playing"):
        observation, _info = env.reset(seed=seed * 1_000_003 + game)
        done, reward = False, 0.0
        while not done:
            if isinstance(agent, KindLearner):
                action = agent.act(observation, rng, learn=learn)
            else:
                action = agent.act(observation, rng)
            observation, reward, terminated, truncated, _info = env.step(action)
            done = terminated or truncated
        wins += reward > 0
        if learn:
            agent.finish_game(reward)
    return wins / games


def _games(games: int, progress: bool, what: str):
    """range(games), with a tqdm bar when asked for and tqdm is installed."""
    if progress:
        try:
            from tqdm.auto import trange
        except ImportError:
            return range(games)
        return trange(games, desc=what, unit="game")
    return range(games)
