"""simulate(): many seeded bot games as one pandas row per game (design: simulation at scale).

Written with the "random" persona and small bot classes defined here, so the tests hold
whatever other personas are registered in energies.bots.PERSONAS.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from energies.actions import EndTurn

import energies as en
from energies.runner import bot_name, bot_seed, game_seeds, play_one, simulate

OUTCOME_KINDS = {"victory_points", "empty_bag", "everyone_loses", "unfinished"}


def columns(players: int) -> list[str]:
    cols = ["game", "seed", "players", "lineup"] + [f"bot_{s}" for s in range(players)]
    cols += ["outcome", "winners", "everyone_loses", "turns", "actions", "final_gf"]
    for key in ("vp", "lf", "fossil", "renewable"):
        cols += [f"{key}_{s}" for s in range(players)]
    return cols


class LazyBot:
    """Rolls and ends the turn whenever it may; otherwise a random legal choice."""

    def __init__(self, seed=None):
        self.seed = seed

    def decide(self, game, legal, rng):
        for action in legal:
            if isinstance(action, EndTurn):
                return action
        return rng.choice(legal)


class CountingBot:
    """A stateful bot object: counts its decisions (to see that simulate copies objects)."""

    def __init__(self, seed=None):
        self.calls = 0

    def decide(self, game, legal, rng):
        self.calls += 1
        return rng.choice(legal)


@pytest.fixture(scope="module")
def frame4():
    return simulate(12, ["random"] * 4, seed=5, progress=False)


# -- the frame ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_frame_has_one_row_per_game_and_the_documented_columns(players):
    frame = simulate(5, ["random"] * players, seed=2, progress=False)
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == columns(players)
    assert len(frame) == 5
    assert frame["game"].tolist() == list(range(5))
    assert (frame["players"] == players).all()
    assert (frame["lineup"] == ",".join(["random"] * players)).all()
    for seat in range(players):
        assert (frame[f"bot_{seat}"] == "random").all()


def test_rows_match_the_rules_of_the_end_of_the_game(frame4):
    """Rules 14.1-14.3: the outcome kinds, winners among the seats, everyone_loses has no winner."""
    for row in frame4.itertuples(index=False):
        assert row.outcome in OUTCOME_KINDS
        assert isinstance(row.winners, tuple)
        assert set(row.winners) <= set(range(row.players))
        assert row.everyone_loses == (row.outcome == "everyone_loses")
        if row.outcome in ("everyone_loses", "unfinished"):
            assert row.winners == ()
        else:
            assert row.winners
        if row.outcome == "victory_points":  # rule 14.1: 10 VP on the own turn
            (winner,) = row.winners
            assert getattr(row, f"vp_{winner}") >= 10
        if row.outcome == "empty_bag":  # rule 14.2: the winners have more renewable than fossil
            for seat in row.winners:
                assert getattr(row, f"renewable_{seat}") > getattr(row, f"fossil_{seat}")
        assert row.turns >= 1 and row.actions > 0


def test_rows_equal_the_game_they_describe(frame4):
    """Each row's numbers are those of the game replayed from its seed (play_one)."""
    for row in frame4.head(3).itertuples(index=False):
        game = play_one(["random"] * 4, row.seed)
        assert game.outcome.kind == row.outcome
        assert game.outcome.winners == row.winners
        assert game.turn == row.turns and len(game.actions) == row.actions
        assert game.global_footprint == row.final_gf
        for seat in range(4):
            assert game.victory_points(seat) == getattr(row, f"vp_{seat}")
            assert game.local_footprint(seat) == getattr(row, f"lf_{seat}")


def test_numpy_integers_from_a_frame_are_whole_numbers(frame4):
    """frame.iloc[i].seed is a numpy int64: play_one and simulate take it (they refused it)."""
    row = frame4.iloc[2]
    assert isinstance(row.seed, np.integer)
    game = play_one(["random"] * 4, row.seed)
    assert game.seed == row.seed and type(game.seed) is int
    assert (game.turn, len(game.actions)) == (row.turns, row.actions)
    again = simulate(
        np.int64(2), ["random"] * 4, seed=np.int64(5), jobs=np.int64(1), progress=False
    )
    pdt.assert_frame_equal(again, frame4.head(2))


def test_game_seeds_come_from_seed_sequence_spawn(frame4):
    expected = [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(5).spawn(12)]
    assert frame4["seed"].tolist() == expected == game_seeds(12, 5)


def test_same_seed_same_frame_and_other_seed_other_games(frame4):
    again = simulate(12, ["random"] * 4, seed=5, progress=False)
    pdt.assert_frame_equal(frame4, again)
    other = simulate(4, ["random"] * 4, seed=6, progress=False)
    assert other["seed"].tolist() != frame4["seed"].head(4).tolist()
    assert not other.drop(columns="seed").equals(frame4.head(4).drop(columns="seed"))
    # a prefix of the games is the same run: game i does not depend on how many games follow
    pdt.assert_frame_equal(simulate(4, ["random"] * 4, seed=5, progress=False), frame4.head(4))


def test_bot_seeds_are_derived_from_the_game_seed():
    assert bot_seed(11, 0) == bot_seed(11, 0)
    assert len({bot_seed(11, s) for s in range(4)} | {bot_seed(12, 0)}) == 5


# -- parallel runs give the same frame ------------------------------------------------------------


def test_jobs_2_gives_the_same_frame_as_jobs_1(frame4):
    parallel = simulate(12, ["random"] * 4, seed=5, jobs=2, progress=False)
    pdt.assert_frame_equal(frame4, parallel)


def test_thread_pool_executor_gives_the_same_frame(frame4):
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        threaded = simulate(12, ["random"] * 4, seed=5, executor=pool, progress=False)
    pdt.assert_frame_equal(frame4, threaded)


def test_dask_client_gives_the_same_frame(frame4):
    if os.environ.get("CI"):
        from dask import distributed  # under CI the Dask test must run, never skip
    else:
        distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    )
    try:
        with distributed.Client(cluster) as client:
            with_dask = simulate(12, ["random"] * 4, seed=5, executor=client, progress=False)
    finally:
        cluster.close()
    pdt.assert_frame_equal(frame4, with_dask)


def test_custom_bot_class_and_object_in_a_thread_pool():
    lineup = [LazyBot, "random", LazyBot, "random"]
    serial = simulate(4, lineup, seed=9, progress=False)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        threaded = simulate(4, lineup, seed=9, executor=pool, progress=False)
    pdt.assert_frame_equal(serial, threaded)
    assert serial["lineup"].eq("LazyBot,random,LazyBot,random").all()


def test_bot_objects_are_copied_for_every_game():
    bot = CountingBot()
    first = simulate(3, [bot, "random", "random", "random"], seed=4, progress=False)
    assert bot.calls == 0  # the games used copies
    second = simulate(3, [bot, "random", "random", "random"], seed=4, progress=False)
    pdt.assert_frame_equal(first, second)
    assert first["bot_0"].eq("CountingBot").all()


# -- line-ups -------------------------------------------------------------------------------------


def test_a_list_of_lineups_is_cycled_through_game_by_game():
    lineups = [[LazyBot, "random", "random"], ["random", LazyBot, "random"]]
    frame = simulate(4, lineups, seed=1, progress=False)
    assert frame["lineup"].tolist() == [
        "LazyBot,random,random",
        "random,LazyBot,random",
        "LazyBot,random,random",
        "random,LazyBot,random",
    ]
    assert frame["bot_1"].tolist() == ["random", "LazyBot", "random", "LazyBot"]
    assert (frame["players"] == 3).all()


def test_bot_names_are_the_persona_short_names():
    assert bot_name("random") == "random"
    assert bot_name("RandomBot") == "random"
    assert bot_name(en.bots.RandomBot) == "random"
    assert bot_name(en.bots.RandomBot(seed=1)) == "random"
    assert bot_name(LazyBot) == "LazyBot"


def test_rules_argument_is_used_and_checked():
    rules = en.RuleSet.standard(3)
    frame = simulate(2, ["random"] * 3, rules=rules, seed=3, progress=False)
    pdt.assert_frame_equal(frame, simulate(2, ["random"] * 3, seed=3, progress=False))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"bots": ["random"] * 2}, "3 or 4"),
        ({"bots": ["random"] * 5}, "3 or 4"),
        ({"bots": []}, "bots"),
        ({"bots": ["random", "random", "nobody"]}, "nobody"),
        ({"bots": ["random", "random", 42]}, "not a bot"),
        # refused before any game (they failed at their first turn, with a bare AttributeError)
        ({"bots": ["random", "random", type("NoDecide", (), {})]}, "NoDecide.*not a bot"),
        ({"bots": ["random", "random", type("Flag", (), {"decide": 5})()]}, "not a bot"),
        ({"bots": ["random", "random", "x" * 10_000]}, r"Unknown bot 'x{36}\.\.\.; "),
        ({"bots": [["random"] * 3, ["random"] * 4]}, "same number"),
        ({"bots": [["random"] * 3, "random"]}, "mixes"),
        ({"bots": ["random"] * 4, "rules": en.RuleSet.standard(3)}, "3 players"),
        ({"bots": ["random"] * 4, "games": 0}, "games"),
        ({"bots": ["random"] * 4, "jobs": 0}, "jobs"),
        ({"bots": ["random"] * 4, "seed": -1}, "seed"),
        ({"bots": ["random"] * 4, "seed": np.True_}, "seed"),
        ({"bots": ["random"] * 4, "games": 2.0}, "games"),
        ({"bots": ["random"] * 4, "per_turn": "no"}, "per_turn"),  # returned a pair of frames
        ({"bots": ["random"] * 4, "executor": object()}, "submit"),
    ],
)
def test_bad_arguments_raise_a_clear_value_error(kwargs, message):
    args = {"games": 2, "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate(**args)


def test_unpicklable_bot_objects_are_refused_for_process_pools():
    bot = CountingBot()
    bot.hook = lambda: None  # a lambda cannot be pickled
    with pytest.raises(ValueError, match="picklable"):
        simulate(2, [bot, "random", "random"], jobs=2, progress=False)


# -- per-turn records -----------------------------------------------------------------------------


def test_per_turn_frame_is_consistent_with_the_games():
    games, turns = simulate(4, ["random"] * 3, seed=8, per_turn=True, progress=False)
    pdt.assert_frame_equal(games, simulate(4, ["random"] * 3, seed=8, progress=False))
    assert list(turns.columns[:2]) == ["game", "seed"]
    assert {"turn", "seat", "vp", "lf", "gf", "fossil", "renewable"} <= set(turns.columns)
    assert sorted(turns["game"].unique()) == list(range(4))
    for row in games.itertuples(index=False):
        mine = turns[turns["game"] == row.game]
        assert (mine["seed"] == row.seed).all()
        assert mine["turn"].max() == row.turns
        assert (mine.groupby("turn")["seat"].count() == row.players).all()  # one record per seat
        last = mine[mine["turn"] == row.turns].set_index("seat")
        assert (last["gf"] == row.final_gf).all()
        for seat in range(row.players):
            for key in ("vp", "lf", "fossil", "renewable"):
                assert last.loc[seat, key] == getattr(row, f"{key}_{seat}"), (row.game, seat, key)


def test_per_turn_with_jobs_2_matches_jobs_1():
    serial = simulate(6, ["random"] * 4, seed=2, per_turn=True, progress=False)
    parallel = simulate(6, ["random"] * 4, seed=2, per_turn=True, jobs=2, progress=False)
    pdt.assert_frame_equal(serial[0], parallel[0])
    pdt.assert_frame_equal(serial[1], parallel[1])


@pytest.mark.parametrize("lineup", [["random"] * 4, ["fossil", "green", "balanced"]])
def test_a_game_without_history_plays_out_the_same(lineup):
    """simulate keeps no per-turn records unless per_turn: the games must not change."""
    kept = play_one(lineup, seed=11)
    bare = play_one(lineup, seed=11, history=False)
    assert kept.history and not bare.history
    assert bare.to_json() == kept.to_json() and bare.log == kept.log
    assert bare.events == kept.events
    bare.undo(3)  # a replay keeps the choice
    assert not bare.history and bare.state.keep_history is False


# -- progress and imports -------------------------------------------------------------------------


def test_progress_false_prints_nothing(capsys):
    simulate(2, ["random"] * 3, progress=False)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_progress_uses_tqdm_auto_when_available(monkeypatch):
    bars = []

    class FakeBar:
        def __init__(self, total=None, **kwargs):
            self.total, self.done, self.closed = total, 0, False
            bars.append(self)

        def update(self, n=1):
            self.done += n

        def close(self):
            self.closed = True

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = FakeBar
    package = types.ModuleType("tqdm")
    package.auto = auto
    monkeypatch.setitem(sys.modules, "tqdm", package)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    simulate(3, ["random"] * 3, progress=True)
    assert len(bars) == 1 and bars[0].total == 3 and bars[0].done == 3 and bars[0].closed


def test_progress_without_tqdm_falls_back_silently(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    frame = simulate(2, ["random"] * 3, seed=1, progress=True)
    assert len(frame) == 2
    assert capsys.readouterr().err == ""


def test_jobs_1_does_not_import_multiprocessing():
    """jobs=1 must work where processes cannot start (JupyterLite): no multiprocessing import."""
    code = textwrap.dedent(
        """
        import sys
        from energies.runner import simulate
        simulate(2, ["random"] * 3, progress=False)
        bad = [m for m in sys.modules if m.startswith("multiprocessing")
               or m == "concurrent.futures.process"]
        print(bad)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
