"""The ``energies`` command line: simulate, play, replay, rules, and one-line errors (exit 2)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pandas as pd
import pytest

import energies as en
from energies.cli import main
from energies.runner import simulate

RANDOM4 = "random,random,random,random"


def assert_usage_error(code, capsys, *needles):
    """Exit status 2, nothing on stdout, ONE line 'energies: error: ...' on stderr, no traceback."""
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("energies: error: ")
    assert "Traceback" not in captured.err
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


# -- simulate -------------------------------------------------------------------------------------


def test_simulate_writes_a_csv_with_one_row_per_game_and_prints_a_summary(tmp_path, capsys):
    out = tmp_path / "results.csv"
    code = main(
        [
            "simulate",
            "--games",
            "5",
            "--bots",
            "random,random,random",
            "--seed",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""  # --no-progress: no bar
    frame = pd.read_csv(out, keep_default_na=False)
    expected = simulate(5, ["random"] * 3, seed=1, progress=False)
    assert len(frame) == 5
    assert list(frame.columns) == list(expected.columns)
    assert frame["seed"].tolist() == expected["seed"].tolist()
    assert frame["outcome"].tolist() == expected["outcome"].tolist()
    # winners are written as seats joined by ';' (empty when nobody wins, rule 14.2)
    assert frame["winners"].astype(str).tolist() == [
        ";".join(map(str, w)) for w in expected["winners"]
    ]
    for kind, count in expected["outcome"].value_counts().items():
        assert kind in captured.out and str(count) in captured.out
    assert "win_rate" in captured.out and "random" in captured.out
    assert f"mean turns {expected['turns'].mean():.1f}" in captured.out
    assert f"wrote 5 games to {out}" in captured.out


def test_simulate_with_two_jobs_writes_the_same_file(tmp_path, capsys):
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    base = ["simulate", "--games", "6", "--bots", RANDOM4, "--seed", "3", "--no-progress"]
    assert main(base + ["--out", str(one)]) == 0
    assert main(base + ["--out", str(two), "--jobs", "2"]) == 0
    assert one.read_text() == two.read_text()


def test_simulate_single_bot_name_with_players_fills_every_seat(capsys):
    assert (
        main(["simulate", "--games", "2", "--bots", "random", "--players", "3", "--no-progress"])
        == 0
    )
    assert "2 games, 3 players" in capsys.readouterr().out


def test_simulate_parquet_needs_pyarrow(tmp_path, capsys):
    out = tmp_path / "results.parquet"
    code = main(["simulate", "--games", "2", "--bots", RANDOM4, "--out", str(out), "--no-progress"])
    if importlib.util.find_spec("pyarrow") is None:
        assert_usage_error(code, capsys, "pyarrow")
        assert not out.exists()
    else:
        assert code == 0
        assert len(pd.read_parquet(out)) == 2


def test_simulate_parquet_without_pyarrow_is_a_clear_error(tmp_path, capsys, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    code = main(["simulate", "--games", "2", "--out", str(tmp_path / "r.parquet"), "--no-progress"])
    assert_usage_error(code, capsys, "pip install pyarrow")


# -- play and replay ------------------------------------------------------------------------------


def test_play_prints_the_turn_log_and_outcome_and_replay_verifies_the_save(tmp_path, capsys):
    save = tmp_path / "game.json"
    assert main(["play", "--bots", RANDOM4, "--seed", "7", "--save", str(save)]) == 0
    played = capsys.readouterr().out
    game = en.load_file(save)  # the engine's own check of the digest
    assert game.is_over and game.seed == 7
    assert "— Turn 1: seat" in played
    assert game.log[-1] in played  # "Game over: ..."
    assert (
        f"Outcome ({game.outcome.kind}, turn {game.outcome.turn}): {game.outcome.reason}" in played
    )
    assert f"saved to {save}" in played

    assert main(["replay", str(save)]) == 0
    replayed = capsys.readouterr().out
    assert "digest verified" in replayed
    assert f"{len(game.actions)} actions replayed" in replayed
    assert game.outcome.reason in replayed


def test_play_is_the_game_simulate_plays_for_that_seed(capsys):
    """A simulate row is watched again: `energies play --seed <row.seed> --bots <row.lineup>`."""
    row = simulate(1, ["random"] * 3, seed=4, progress=False).iloc[0]
    assert main(["play", "--bots", row["lineup"], "--seed", str(row["seed"]), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"Outcome ({row['outcome']}, turn {row['turns']})" in out
    for seat in range(3):
        assert f"Seat {seat}: {row[f'vp_{seat}']} VP, LF {row[f'lf_{seat}']}," in out
    assert "— Turn 1" not in out  # --quiet leaves out the log


def test_replay_with_log_prints_the_turn_log(tmp_path, capsys):
    game = en.new_game(3, seed=2)
    en.play(game, [en.bots.RandomBot() for _ in range(3)])
    game.save(tmp_path / "g.json")
    assert main(["replay", str(tmp_path / "g.json"), "--log"]) == 0
    out = capsys.readouterr().out
    assert "— Turn 1: seat" in out and "digest verified" in out


def test_replay_of_an_unfinished_game_says_who_acts(tmp_path, capsys):
    game = en.new_game(4, seed=3)
    game.save(tmp_path / "g.json")
    assert main(["replay", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    assert f"seat {game.current_seat} to act" in out and "digest verified" in out


# -- rules ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_rules_prints_the_standard_rule_set_with_house_defaults_marked(players, capsys):
    assert main(["rules", "--players", str(players)]) == 0
    out = capsys.readouterr().out
    assert en.RuleSet.standard(players).describe() in out
    assert f"players = {players}" in out
    assert "[H" in out


@pytest.mark.parametrize("game", ["shelfie", "noclear"])
def test_rules_prints_a_companion_games_rules(game, capsys):
    from energies.games import get

    spec = get(game)
    players = spec.players[1]
    assert main(["rules", "--game", game, "--players", str(players)]) == 0
    out = capsys.readouterr().out
    assert spec.rules_class(players=players).describe() in out
    assert f"players = {players}" in out


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "simulate" in capsys.readouterr().out


def test_version_prints_the_package_version_and_exits_0(capsys):
    import energies

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"energies {energies.__version__}"


# -- bad arguments: one line, exit 2 --------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, needle",
    [
        ([], "choose a command"),
        (["dance"], "invalid choice"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--games", "-3"], "--games"),
        (["simulate", "--games", "many"], "--games"),
        (["simulate", "--jobs", "0"], "--jobs"),
        (["simulate", "--bots", "random,nobody,random"], "nobody"),
        (["simulate", "--bots", "random,random"], "3 or 4"),
        (["simulate", "--bots", "random,,random,random"], "empty"),
        (["simulate", "--bots", RANDOM4, "--players", "3"], "--players"),
        (["simulate", "--players", "5"], "--players"),
        (["simulate", "--seed", "-1"], "--seed"),
        (["simulate", "--out", "/no/such/folder/r.csv"], "does not exist"),
        (["simulate", "--out", ""], "empty"),  # was skipped: the games ran, nothing written
        (["simulate", "--out", "results.xlsx"], ".xlsx"),  # was CSV text in a .xlsx
        (["simulate", "--out", "game.json"], ".csv or .parquet"),  # would overwrite a save
        (["play", "--save", ""], "empty"),  # was skipped: the game ran, nothing saved
        (["simulate", "--wat"], "unrecognized"),
        (["play", "--bots", "nobody,random,random"], "nobody"),
        (["play", "--save", "/no/such/folder/g.json"], "does not exist"),
        (["replay"], "file"),
        (["replay", "/no/such/file.json"], "Cannot read"),
        (["rules", "--players", "2"], "--players"),
        (["rules", "--game", "noclear", "--players", "5"], "2 to 4"),
        (["rules", "--game", "chess"], "invalid choice"),
    ],
)
def test_bad_arguments_print_one_line_and_exit_2(argv, needle, capsys):
    assert_usage_error(main(argv), capsys, needle)


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_simulate_out_through_a_link_to_a_device_is_refused(tmp_path, capsys):
    link = tmp_path / "results.csv"
    link.symlink_to("/dev/null")
    argv = ["simulate", "--games", "1", "--no-progress", "--out", str(link)]
    assert_usage_error(main(argv), capsys, "is a device")


@pytest.mark.parametrize(
    "command, name",
    [("simulate --games 1 --no-progress --out", "r.csv"), ("play --quiet --save", "g.json")],
)
def test_a_folder_removed_while_the_games_run_is_named_once(
    command, name, tmp_path, monkeypatch, capsys
):
    """Was 'cannot write <path>: Cannot write <path>: the folder ... does not exist.'"""
    from energies.kit import files

    folder = tmp_path / "class"
    folder.mkdir()
    real_write = files.atomic_write

    def remove_the_folder_first(path, write):
        folder.rmdir()
        return real_write(path, write)

    monkeypatch.setattr(files, "atomic_write", remove_the_folder_first)
    line = assert_usage_error(main(command.split() + [str(folder / name)]), capsys)
    assert line == (
        f"energies: error: Cannot write {folder / name}: the folder {folder} does not exist."
    )


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda text: text[: len(text) // 2],  # truncated
        lambda text: "not json at all",
        lambda text: json.dumps({**json.loads(text), "digest": "0" * 64}),  # digest mismatch
        lambda text: json.dumps(
            {**json.loads(text), "seed": json.loads(text)["seed"] + 1}
        ),  # changed
        lambda text: json.dumps({**json.loads(text), "format": "other"}),
    ],
    ids=["truncated", "not-json", "digest", "seed-changed", "format"],
)
def test_replay_of_a_corrupt_save_file_is_one_line_exit_2(corrupt, tmp_path, capsys):
    game = en.new_game(4, seed=5)
    en.play(game, [en.bots.RandomBot() for _ in range(4)])
    path = tmp_path / "bad.json"
    path.write_text(corrupt(game.to_json()), encoding="utf-8")
    with pytest.raises(en.SaveFileError):
        en.load_file(path)
    line = assert_usage_error(main(["replay", str(path)]), capsys, str(path))
    assert "digest verified" not in line


# -- the real console script ----------------------------------------------------------------------


def _command() -> list[str]:
    script = shutil.which("energies", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "energies.cli"]


def test_console_script_runs_and_reports_errors_with_status_2():
    ok = subprocess.run(
        _command() + ["rules", "--players", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert "[H" in ok.stdout and "players = 3" in ok.stdout
    bad = subprocess.run(
        _command() + ["simulate", "--games", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "energies: error: argument --games: must be at least 1, not 0"
    ]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_stdout_is_one_line_on_stderr_not_a_traceback():
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            _command() + ["rules"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr.splitlines() == ["energies: error: No space left on device"]


def test_module_entry_point_plays_a_game():
    result = subprocess.run(
        [sys.executable, "-m", "energies.cli", "play", "--bots", "random,random,random"]
        + ["--seed", "2", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Outcome (")
