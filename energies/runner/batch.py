"""Simulation at scale: many seeded bot games, one tidy pandas row per game.

    import energies as en
    from energies.simulate import simulate

    frame = simulate(1000, ["fossil", "green", "balanced", "random"], seed=1, jobs=2)
    frame.groupby("outcome").size()

Every game gets its own seed from ``numpy.random.SeedSequence(seed).spawn(games)``
and every bot a seed derived from its game's seed and seat, so the frame is the
same whatever ``jobs`` or ``executor`` runs it. A row's game can be watched again
with ``energies play --seed <row.seed> --bots <row.lineup>`` (or
:func:`play_one`).

Every registered game (:mod:`energies.kit.registry`) plays the same way: ``game="shelfie"``
or ``game="noclear"`` takes that game's bot names, player counts and rules
object. A row holds the line-up, then the game's own columns: those its ``simulate_columns``
hook gives (New Energies: footprints, points and plants), else the outcome, turns, actions and
the game's ``summary_row()``.

Running in parallel
-------------------
* ``jobs=1`` (default): a plain loop in this process. Nothing from
  ``multiprocessing`` is imported, so it works where processes cannot be
  started (JupyterLite, some sandboxes).
* ``jobs=N``: a ``concurrent.futures.ProcessPoolExecutor`` with ``N`` workers (in a
  browser kernel, which cannot start processes, a one-line note and ``jobs=1``);
  games are sent in chunks (25-50 games) to amortise the start-up and transfer
  cost, and the rows are put back in game order.
* ``executor=``: any object with ``.submit(fn, *args)`` returning futures with
  ``.result()``: a ``concurrent.futures`` executor you made yourself (for
  instance with another multiprocessing start method) or a
  ``dask.distributed.Client`` (``pip install "dask[distributed]"``).

Bot specs travel to the workers, so with ``jobs > 1`` or a process-based
executor they must be picklable: names (``"random"``) and classes defined at
module level are; bot objects may not be (lambdas, open files, classes defined
in a notebook when workers are spawned). Bot *objects* are copied
(``copy.deepcopy``) for every game, so no game sees what another game did to
the object and results do not depend on the order games run in.
"""

from __future__ import annotations

import copy
import math
import os
import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..kit import platform as _lite
from ..kit import registry as _games
from ..kit.fields import show
from .arguments import (
    MAX_GAMES,
    MAX_PER_TURN_GAMES,
    check_count,
    normalise_lineups,
    whole_number,
)
from .loop import play

__all__ = ["bot_name", "bot_seed", "game_seeds", "play_one", "simulate"]

#: Largest number of games sent to a worker at once.
MAX_CHUNK = 50


# -- seeds and names ------------------------------------------------------------------------------


def game_seeds(games: int, seed: int = 0) -> list[int]:
    """The per-game seeds of :func:`simulate`: one int from each child of SeedSequence(seed)."""
    import numpy as np

    children = np.random.SeedSequence(seed).spawn(games)
    return [int(child.generate_state(1)[0]) for child in children]


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game seeded ``game_seed`` (deterministic, 63 bits)."""
    return random.Random(f"energies:{game_seed}:bot:{seat}").getrandbits(63)


def bot_name(spec: Any, game: str = _games.DEFAULT_GAME) -> str:
    """Short name of a bot spec: the game's name for it ("random"), else the class's name."""
    personas = _games.get(game).bots
    by_class = {cls: name for name, cls in personas.items()}
    if isinstance(spec, str):
        key = spec.strip().lower()
        aliases = {cls.__name__.lower(): name for name, cls in personas.items()}
        return aliases.get(key, key)
    cls = spec if isinstance(spec, type) else type(spec)
    if cls in by_class:
        return by_class[cls]
    return str(getattr(spec, "name", None) or cls.__name__)


def _build_bot(spec: Any, seed: int, game: str):
    """A fresh bot for one game: names and classes are built with the seed, objects copied."""
    make_bot = _games.get(game).make_bot
    if isinstance(spec, (str, type)):
        return make_bot(spec, seed=seed)
    bot = make_bot(spec, seed=seed)
    try:
        return copy.deepcopy(bot)
    except (TypeError, AttributeError, copy.Error, RecursionError):
        # an object that cannot be copied is used as it is
        return bot


# -- one game -------------------------------------------------------------------------------------


def play_one(
    lineup: Sequence[Any],
    seed: int,
    rules: Any = None,
    history: bool = True,
    game: str = _games.DEFAULT_GAME,
):
    """Play one game as :func:`simulate` plays it; return the finished game object.

    ``history=False`` keeps no per-turn records (simulate does that unless ``per_turn``);
    only a game that keeps such records (``GameSpec.turn_records``) is given the flag.
    """
    number = whole_number(seed)
    seed = seed if number is None else number  # a frame's numpy seed; new_game refuses the rest
    spec = _games.get(game)
    kept = {"history": history} if spec.turn_records else {}
    played = spec.new_game(len(lineup), seed, rules, **kept)
    players = [_build_bot(b, bot_seed(seed, seat), spec.name) for seat, b in enumerate(lineup)]
    play(played, players)
    return played


def _row(index: int, seed: int, lineup: Sequence[Any], game, spec) -> dict[str, Any]:
    """A finished game's simulate row: the line-up, then the columns its game gives."""
    names = [bot_name(bot, spec.name) for bot in lineup]
    row: dict[str, Any] = {
        "game": index,
        "seed": seed,
        "players": len(lineup),
        "lineup": ",".join(names),
    }
    for seat, bot in enumerate(names):
        row[f"bot_{seat}"] = bot
    columns = spec.hook("simulate_columns") or _contract_columns
    row.update(columns(game))
    return row


def _contract_columns(game) -> dict[str, Any]:
    """The columns of a game without a ``simulate_columns`` hook: its outcome, length and
    own per-seat numbers (``summary_row()``)."""
    outcome = game.outcome
    return {
        "outcome": outcome.kind,
        "winners": tuple(outcome.winners),
        "turns": game.turn,
        "actions": len(game.actions),
        **game.summary_row(),
    }


def _play_chunk(tasks: Sequence[tuple[int, int, tuple]], rules: Any, per_turn: bool, name: str):
    """Worker: play (index, seed, lineup) tasks; return [(index, row, turn records or None)].

    A top-level function so process pools with the 'spawn' start method can import it.
    """
    spec = _games.get(name)
    out = []
    for index, seed, lineup in tasks:
        game = play_one(lineup, seed, rules, history=per_turn, game=name)  # same game either way
        records = None
        if per_turn:
            records = [{"game": index, "seed": seed, **record} for record in game.history]
        out.append((index, _row(index, seed, lineup, game, spec), records))
    return out


def max_jobs() -> int:
    """Most worker processes simulate starts: one per CPU."""
    return os.cpu_count() or 1


def chunk_size(games: int, workers: int) -> int:
    """Games per task: about four tasks per worker, at most MAX_CHUNK games each."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (4 * max(workers, 1)))))


def _chunks(tasks: list, size: int) -> list[list]:
    return [tasks[i : i + size] for i in range(0, len(tasks), size)]


# -- progress -------------------------------------------------------------------------------------


class _NoProgress:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool):
    if not enabled:
        return _NoProgress()
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _NoProgress()
    return tqdm(total=total, desc="simulate", unit="game")


# -- the public function --------------------------------------------------------------------------


def simulate(
    games: int,
    bots: Any,
    rules: Any = None,
    seed: int = 0,
    jobs: int = 1,
    executor: Any = None,
    progress: bool = True,
    per_turn: bool = False,
    game: str = _games.DEFAULT_GAME,
):
    """Play ``games`` seeded bot games; return one pandas row per game.

    Parameters
    ----------
    games:
        How many games (a whole number from 1 to ``MAX_GAMES``, a million; 50,000 with
        ``per_turn``, whose records grow about 200 per game).
    bots:
        One line-up: a list with one bot spec per seat (a persona name such as
        ``"random"``, a bot class taking ``seed=``, or a bot object); its length
        (3 or 4) is the player count and must match ``rules.players``. Or a
        list of line-ups (lists/tuples of specs, all the same length): game
        ``i`` uses line-up ``i % len(bots)``, so ``[[a, b, c, d], [b, c, d, a]]``
        rotates the seats. A comma-separated text (``"fossil,green,random"``)
        is one line-up.
    rules:
        A :class:`~energies.RuleSet` (default: the standard rules for the
        player count), or the chosen game's rules object.
    seed:
        Seed of the whole run (>= 0): game ``i`` is seeded from child ``i`` of
        ``numpy.random.SeedSequence(seed)``.
    jobs:
        1 plays in this process; N > 1 uses a process pool of N workers (at most one
        per CPU: :func:`max_jobs`; the rows are the same for any ``jobs``).
    executor:
        An object with ``.submit(fn, *args)`` (a concurrent.futures executor or
        a ``dask.distributed.Client``); overrides ``jobs``. It is not shut down.
    progress:
        Show a ``tqdm`` progress bar when tqdm is installed.
    per_turn:
        Also return every game's per-turn, per-seat history records (a game that keeps
        them: ``GameSpec.turn_records``, New Energies).
    game:
        Which game of the kit (:func:`energies.games.names`): "new-energies"
        (default), "shelfie", "noclear" or any game registered since.

    Returns
    -------
    A DataFrame with columns ``game, seed, players, lineup, bot_0..`` and then the game's
    own (New Energies: ``outcome, winners, everyone_loses, turns, actions, final_gf`` and
    per seat ``vp_i, lf_i, fossil_i, renewable_i``); with ``per_turn=True`` the pair
    ``(games_frame, turns_frame)`` where ``turns_frame`` holds ``game, seed``
    and the ``game.history`` records of every game.
    """
    if not isinstance(per_turn, bool):  # it decides the return type: a frame or a pair
        raise ValueError(f"per_turn must be True or False, not {show(per_turn)}.")
    games = check_count("games", games, 1, MAX_PER_TURN_GAMES if per_turn else MAX_GAMES)
    asked = check_count("jobs", jobs, 1, 10**6)
    jobs = min(asked, max_jobs())  # more would only compete
    number = whole_number(seed)
    if number is None or not 0 <= number < 2**63:
        raise ValueError(f"seed must be a whole number from 0 to 2**63 - 1, not {show(seed)}.")
    seed = number
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(
            "executor must have a submit(fn, *args) method (e.g. a concurrent.futures executor)."
        )
    spec = _games.get(game)
    name = spec.name
    if per_turn and not spec.turn_records:
        keeping = [s.title for s in map(_games.get, _games.names()) if s.turn_records]
        raise ValueError(
            f"per_turn records exist only for {' and '.join(keeping)} games, not {spec.title}."
        )
    lineups = normalise_lineups(bots, rules, name)
    if executor is None and asked > 1 and not _lite.can_start_processes():
        _lite.note(
            "this Python cannot start worker processes (a browser kernel): simulate plays "
            "its games here one by one (jobs=1), with the same results.",
            kind="processes",
        )
        jobs = 1

    seeds = game_seeds(games, seed)
    tasks = [(i, s, lineups[i % len(lineups)]) for i, s in enumerate(seeds)]

    bar = _progress_bar(games, progress)
    try:
        if executor is None and jobs == 1:
            results = []
            for task in tasks:
                results.extend(_play_chunk([task], rules, per_turn, name))
                bar.update(1)
        else:
            results = _run_parallel(tasks, rules, per_turn, jobs, executor, bar, name)
    finally:
        bar.close()
    return _frames(results, per_turn)


def _run_parallel(tasks, rules, per_turn, jobs, executor, bar, name: str) -> list:
    import concurrent.futures as cf

    if executor is None:
        import pickle

        try:
            pickle.dumps([list({id(t[2]): t[2] for t in tasks}.values()), rules])
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise ValueError(
                "With jobs > 1 the bots are sent to other processes and must be picklable: "
                f"use bot names or module-level classes ({exc})."
            ) from None
        chunks = _chunks(tasks, chunk_size(len(tasks), jobs))
        with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
            return _collect(pool, chunks, rules, per_turn, bar, name)
    chunks = _chunks(tasks, chunk_size(len(tasks), jobs if jobs > 1 else 2))
    return _collect(executor, chunks, rules, per_turn, bar, name)


def _collect(executor, chunks, rules, per_turn, bar, name: str) -> list:
    import concurrent.futures as cf

    futures = [executor.submit(_play_chunk, chunk, rules, per_turn, name) for chunk in chunks]
    results = []
    if all(isinstance(f, cf.Future) for f in futures):
        done: Iterable = cf.as_completed(futures)
    else:  # dask and other futures: wait in submission order
        done = futures
    try:
        for future in done:
            part = future.result()
            results.extend(part)
            bar.update(len(part))
    except BaseException:
        for future in futures:
            cancel = getattr(future, "cancel", None)
            if callable(cancel):
                cancel()
        raise
    return results


def _frames(results: list, per_turn: bool):
    import pandas as pd

    results.sort(key=lambda item: item[0])
    frame = pd.DataFrame.from_records([row for _, row, _ in results])
    if not per_turn:
        return frame
    records = [record for _, _, recs in results for record in recs]
    turns = pd.DataFrame.from_records(records)
    return frame, turns
