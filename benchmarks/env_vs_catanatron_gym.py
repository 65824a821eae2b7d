"""Env steps/s against catanatron-gym, like for like: random legal agents, CPU time (a report).

    python -m pip install catanatron==3.2.1                 # once; not dependencies of energies
    python -m pip install --no-deps catanatron_gym==4.0.0
    python benchmarks/env_vs_catanatron_gym.py --rounds 5 --seconds 3

catanatron-gym (https://github.com/bcollazo/catanatron, PyPI ``catanatron_gym``) is the
Gymnasium environment of the catanatron project. Its 4.0.0 pins ``gymnasium==0.29.1``; a plain
``pip install catanatron_gym`` would downgrade the ``gymnasium`` 1.x that energies' ``[rl]``
extra installs, so it is installed with ``--no-deps`` (it needs only ``catanatron``,
``gymnasium`` and ``numpy``, all present; it uses ``gymnasium.Env`` and two ``spaces`` that
1.x still has). Its 3.x releases need the old ``gym==0.21.0``, whose source no longer builds.

A separate script rather than a side of ``env_speed.py``: that one measures the env against
the raw engine on one kind of side (the AEC loop) and rewrites its whole report; this one
needs a second project's env, its own counting (a learner's steps with opponents played
inside ``step``) and a report appended by hand to ``results/env_speed.md``. It reuses nothing
but the idea of ``env_speed.run_round``: the sides take turns game by game.

catanatron-gym's ``CatanatronEnv`` is one learning seat against bots that it plays inside
``step`` (``game.play_tick`` until the learner is to act; by default one
``catanatron.RandomPlayer``, a 1v1 game). The most like-for-like pairing in energies is
``energies.env.single.SingleAgentEnv``, in which one seat learns and bots play the other
seats inside ``step``. The sides, each played by a uniformly random *legal* learner with its
own ``random.Random``:

* **catanatron-gym 4p** — ``CatanatronEnv({"enemies": [RandomPlayer(RED), RandomPlayer(WHITE),
  RandomPlayer(ORANGE)]})``: 4 players, 3 random bots. ``reset(seed=)``; then
  ``step(rng.choice(info["valid_actions"]))`` until terminated or truncated. Every ``step``
  computes the observation vector (1,002 floats, ``create_sample``) and the valid action
  indices (``get_valid_actions()``, handed back in ``info``; the learner picks from that list,
  so they are computed once per step, as the mask is on our side). Steps counted: the
  learner's (its decisions); the bots' moves inside ``step`` are not counted.
* **catanatron-gym 1v1** — the same with its default enemy (one ``RandomPlayer``): the env as
  its users get it. No energies side matches it: New Energies is played by 3 or 4.
* **single 4p, offers off** (the headline's energies side) — ``SingleAgentEnv(players=4,
  opponents="random,random,random", rules=RuleSet.standard(4).replace(trade_offers_per_turn=0))``:
  3 ``energies.bots.RandomBot`` opponents, no trades between players (catanatron has none:
  the same choice as ``benchmarks/vs_catanatron.py``'s headline). ``reset(seed=)``; then
  ``step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))``. Every ``step`` computes the
  observation vector (1,300 floats) and the int8 action mask. Steps counted: the learner's.
* **single 4p, as played** — the same with the standard rules: the learner and its opponents
  make and answer one-for-one offers (rule 12.1), so more of the steps are trade answers.
* **env() 4 random agents** — the AEC env (``energies.env.env(players=4)``, with its checks),
  offers off, every seat a random legal agent as in ``env_speed.py``: ``last()`` (observation
  + mask) and ``step`` for every decision of every seat. Steps counted: all seats' decisions,
  each with an observation. Not like for like with catanatron-gym, whose opponents' moves
  build no observation; it is here because a PettingZoo user's loop looks like this.

Every game is fresh: a side's game ``k`` of a round is played with seed ``first_seed + k + 1``
(catanatron treats seed 0 as "random"). Within a round the sides take turns game by game, the
next game going to the side with the least process CPU time (``time.process_time``) so far,
until each has had ``--seconds``, so the machine's drift hits all alike; every round builds its
environments anew. The ratios are per round.
Also reported per side: games, learner steps per game, and all decisions per learner step
(from ``game.state.actions`` and energies' ``game.actions``), so a reader sees what a step holds.
If catanatron-gym is not installed the script says how to install it and exits with status 0.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from importlib.metadata import version

# numpy's BLAS threads may idle-spin after a call and process_time counts every thread:
# one thread, as env_instructions.py runs its children (neither side multiplies matrices).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def catanatron_gym_side(enemies: int):
    """A player of one seeded game of CatanatronEnv with ``enemies`` random bots:
    seed -> (learner steps, all decisions of the game)."""
    from catanatron import Color, RandomPlayer
    from catanatron_gym.envs.catanatron_env import CatanatronEnv

    colors = (Color.RED, Color.WHITE, Color.ORANGE)[:enemies]
    e = CatanatronEnv({"enemies": [RandomPlayer(c) for c in colors]})
    rng = random.Random(enemies)

    def play(seed: int) -> tuple[int, int]:
        _obs, info = e.reset(seed=seed)
        steps = 0
        while True:
            _obs, _r, terminated, truncated, info = e.step(rng.choice(info["valid_actions"]))
            steps += 1
            if terminated or truncated:
                return steps, len(e.game.state.actions)

    return play


def single_side(offers: bool):
    """A player of one seeded game of SingleAgentEnv, seat 0 learning, 3 RandomBots:
    seed -> (learner steps, all decisions of the game)."""
    import energies as en
    from energies.env.single import SingleAgentEnv

    rules = en.RuleSet.standard(4)
    if not offers:
        rules = rules.replace(trade_offers_per_turn=0)
    e = SingleAgentEnv(players=4, opponents="random,random,random", rules=rules)
    rng = random.Random(4)

    def play(seed: int) -> tuple[int, int]:
        obs, _info = e.reset(seed=seed)
        steps = 0
        while True:
            action = rng.choice(obs["action_mask"].nonzero()[0].tolist())
            obs, _r, terminated, truncated, _info = e.step(action)
            steps += 1
            if terminated or truncated:
                return steps, len(e.aec.game.actions)

    return play


def aec_side():
    """A player of one seeded game through env(), 4 random legal agents, offers off:
    seed -> (all seats' steps, all decisions of the game)."""
    import energies as en
    from energies.env import env

    e = env(players=4, rules=en.RuleSet.standard(4).replace(trade_offers_per_turn=0))
    rng = random.Random(0)

    def play(seed: int) -> tuple[int, int]:
        steps = 0
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        return steps, steps

    return play


SIDES = {
    "catanatron-gym 4p": lambda: catanatron_gym_side(3),
    "catanatron-gym 1v1": lambda: catanatron_gym_side(1),
    "single 4p, offers off": lambda: single_side(offers=False),
    "single 4p, as played": lambda: single_side(offers=True),
    "env() 4 random agents": aec_side,
}
HEADLINE = ("single 4p, offers off", "catanatron-gym 4p")


def run_round(seconds: float, first_seed: int) -> dict[str, dict]:
    """Every side's counts and CPU time. The sides take turns game by game, the next game
    always going to the side with the least CPU time so far, until each has had ``seconds``:
    the machine's drift hits all sides alike, and a side with short games plays more of them
    instead of waiting for the others' long ones. Each side's k-th game has the same seed."""
    sides = {name: make() for name, make in SIDES.items()}
    stats = {name: {"cpu": 0.0, "steps": 0, "games": 0, "decisions": 0} for name in sides}
    while True:
        name = min(stats, key=lambda n: stats[n]["cpu"])  # the first in order on a tie
        s = stats[name]
        if s["cpu"] >= seconds:
            break
        start = time.process_time()
        steps, decisions = sides[name](first_seed + s["games"] + 1)
        s["cpu"] += time.process_time() - start
        s["steps"] += steps
        s["decisions"] += decisions
        s["games"] += 1
    for s in stats.values():
        s["rate"] = s["steps"] / s["cpu"]
    return stats


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return (
        f"median {fmt.format(statistics.median(values))} "
        f"(rounds {fmt.format(min(values))}–{fmt.format(max(values))})"
    )


def report(rounds: list[dict[str, dict]], command: str, load: str) -> str:
    import energies as en

    lines = [
        f"Command: `{command}`  ",
        (
            f"energies {en.__version__}, catanatron {version('catanatron')}, catanatron_gym "
            f"{version('catanatron_gym')}, gymnasium {version('gymnasium')}, numpy "
            f"{version('numpy')}, Python {platform.python_version()}; {platform.machine()}, "
            f"{os.cpu_count()} CPUs shared with other work; `uptime` load averages before and "
            f"after: {load}."
        ),
        "",
        (
            "Steps/s per round (process CPU time; steps are the learner's, except env()'s, "
            "which are every seat's):"
        ),
        "",
        "| side | "
        + " | ".join(f"round {i}" for i in range(1, len(rounds) + 1))
        + " | median | min–max |",
        "|---|" + "---:|" * (len(rounds) + 2),
    ]
    for name in SIDES:
        rates = [r[name]["rate"] for r in rounds]
        lines.append(
            f"| {name} | "
            + " | ".join(f"{v:,.0f}" for v in rates)
            + f" | {statistics.median(rates):,.0f} | {min(rates):,.0f}–{max(rates):,.0f} |"
        )
    lines += [
        "",
        "| side | games (all rounds) | steps per game | all decisions per step | CPU ms per game |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in SIDES:
        games = sum(r[name]["games"] for r in rounds)
        steps = sum(r[name]["steps"] for r in rounds)
        decisions = sum(r[name]["decisions"] for r in rounds)
        cpu = sum(r[name]["cpu"] for r in rounds)
        lines.append(
            f"| {name} | {games} | {steps / games:.1f} | {decisions / steps:.2f} | "
            f"{1000 * cpu / games:.1f} |"
        )

    def ratios(ours: str, theirs: str) -> list[float]:
        return [r[ours]["rate"] / r[theirs]["rate"] for r in rounds]

    headline = ratios(*HEADLINE)
    lines += [
        "",
        "Ratios of steps/s, per round:",
        "",
        f"- **single 4p, offers off / catanatron-gym 4p (the headline): {spread(headline)}**; "
        "per round " + ", ".join(f"{v:.2f}" for v in headline),
        "- single 4p, as played / catanatron-gym 4p: "
        + spread(ratios("single 4p, as played", "catanatron-gym 4p")),
        "- single 4p, offers off / catanatron-gym 1v1 (its default): "
        + spread(ratios("single 4p, offers off", "catanatron-gym 1v1")),
        "- env() 4 random agents / catanatron-gym 4p (not like for like: every env() step "
        "builds an observation): " + spread(ratios("env() 4 random agents", "catanatron-gym 4p")),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per side per round")
    parser.add_argument("--out", default=None, help="also write the markdown report here")
    args = parser.parse_args()
    if args.rounds < 1 or not args.seconds > 0:
        parser.error("--rounds must be at least 1, --seconds above 0")
    try:
        import catanatron_gym  # noqa: F401
    except ImportError:
        print(
            "catanatron-gym is not installed: `python -m pip install catanatron==3.2.1` and "
            "`python -m pip install --no-deps catanatron_gym==4.0.0`, then run this again. "
            "The comparison was skipped (exit 0)."
        )
        sys.exit(0)
    load_before = os.getloadavg()
    rounds = []
    for r in range(args.rounds):
        rounds.append(run_round(args.seconds, 1000 * r))
        print(
            f"round {r + 1}: " + ", ".join(f"{n} {s['rate']:,.0f}" for n, s in rounds[-1].items()),
            file=sys.stderr,
            flush=True,
        )
    load_after = os.getloadavg()
    load = " / ".join(", ".join(f"{x:.2f}" for x in la) for la in (load_before, load_after))
    command = "python benchmarks/env_vs_catanatron_gym.py " + " ".join(sys.argv[1:])
    text = report(rounds, command.strip(), load)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
