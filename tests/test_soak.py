"""The soak run (benchmarks/soak.py) in CI: 1,000 seeded mixed-line-up games, checked after
EVERY action (issue "Reliability"; design §5.2).

* 1,000 games on 2 processes — personas and RandomBots drawn per game, 3 and 4
  players, quick and draft starts (rules 2.3, 3.3), beginner and random layouts
  (rule 2.2) — obey every invariant of :func:`energies.newenergies.invariants.check_invariants`
  after every action, and each ends with one of the four outcome kinds (rules
  14.1-14.3); the wall time is printed (run with ``-s``);
* the report does not depend on the number of processes;
* a soak game is exactly the game :func:`energies.runner.batch.play_one` plays, so the
  reproduce recipe of a failure report works;
* the soak is not a no-op: a broken engine gives violations, a failure report and
  exit status 1.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

import energies as en
from energies.newenergies.invariants import OUTCOME_KINDS
from energies.runner import play_one

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import soak  # benchmarks/soak.py: a script, importable from its folder

CI_GAMES = 1000


def test_rules_14_soak_1000_games_every_invariant_after_every_action():
    """CI runs 1,000 soak games (jobs=2): no violation in any of them, every game finished with
    one of the four outcome kinds (14.1 victory points, 14.2 empty bag / everyone loses, 14.3
    unfinished), and the run really covered both player counts, both starts, both layouts and
    every bot persona."""
    started = time.perf_counter()
    report = soak.run_soak(CI_GAMES, jobs=2, seed=0)
    elapsed = time.perf_counter() - started
    print("\n" + soak.format_report(report) + f"(test wall time {elapsed:.1f} s)")

    assert report["failures"] == [], report["failures"]
    assert report["violations"] == 0
    assert report["failed_games"] == 0
    assert report["games"] == CI_GAMES
    assert set(report["outcomes"]) <= set(OUTCOME_KINDS), report["outcomes"]
    assert sum(report["outcomes"].values()) == CI_GAMES
    # every action was checked, plus each game's starting position
    assert report["checks"] == report["actions"] + CI_GAMES
    assert report["actions"] > 50 * CI_GAMES
    # the run mixed what the issue asks for
    assert set(report["players"]) == {3, 4}
    assert report["starts"] == {"draft": CI_GAMES // 2, "quick": CI_GAMES // 2}
    layouts = report["layouts"]
    assert layouts["beginner/spiral"] == CI_GAMES // 2
    assert layouts.get("random/spiral", 0) > 0 and layouts.get("random/shuffled", 0) > 0
    assert set(report["seats"]) == set(en.bots.PERSONAS)
    assert all(count >= 300 for count in report["seats"].values()), report["seats"]


def _comparable(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("elapsed", "jobs")}


def test_soak_report_does_not_depend_on_the_number_of_processes():
    """Each game's line-up, seed, start and layout come from (run seed, game index) alone."""
    one = soak.run_soak(10, jobs=1, seed=3)
    two = soak.run_soak(10, jobs=2, seed=3)
    assert _comparable(one) == _comparable(two)
    assert one["violations"] == 0 and one["games"] == 10


def test_soak_config_mixes_line_ups_starts_and_layouts_deterministically():
    """Quick and draft starts alternate (rules 2.3, 3.3), layouts alternate every two games
    (rule 2.2); the per-game draw is a pure function of (seed, index)."""
    configs = [soak.game_config(0, i) for i in range(8)]
    assert [c["start"] for c in configs] == ["quick", "draft"] * 4
    assert [c["layout"] for c in configs] == ["beginner", "beginner", "random", "random"] * 2
    assert configs == [soak.game_config(0, i) for i in range(8)]
    assert soak.game_config(1, 0) != soak.game_config(0, 0)
    for c in configs:
        assert c["players"] in (3, 4) and len(c["lineup"]) == c["players"]
        assert set(c["lineup"]) <= set(en.bots.PERSONAS)


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_soak_game_is_the_game_play_one_plays(index: int):
    """The failure report's recipe replays the very game: play_one with the same line-up,
    seed and rules reaches the same final digest and outcome."""
    config = soak.game_config(5, index)
    result = soak.play_checked(config)
    assert result["violations"] == []
    game = play_one(config["lineup"], config["game_seed"], soak.config_rules(config))
    assert game.digest() == result["digest"]
    assert game.outcome.kind == result["outcome"]
    assert len(game.actions) == result["actions"]


def test_soak_reports_a_corrupt_engine_with_a_recipe_and_exit_status_1(monkeypatch, capsys):
    """A state whose VP disagree with its pieces (rule 13.8) is a violation: the report names
    it with the game to reproduce, and the command exits with status 1."""
    real = en.newenergies.state.GameState.victory_points
    monkeypatch.setattr(
        en.newenergies.state.GameState, "victory_points", lambda self, s: real(self, s) + 1
    )
    report = soak.run_soak(2, jobs=1, seed=0)
    assert report["violations"] > 0 and report["failed_games"] == 2
    failure = report["failures"][0]
    assert any("rule 13.8" in m for m in failure["messages"]), failure["messages"]
    assert "--seed 0 --game 0" in failure["reproduce"]
    assert soak.main(["--games", "2", "--jobs", "1", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "reproduce" in out


def test_soak_counts_an_engine_crash_as_a_violation(monkeypatch):
    """An exception from the engine on a listed legal action is reported, not raised."""
    calls = {"n": 0}
    real = en.newenergies.engine.apply

    def flaky(state, action):
        calls["n"] += 1
        if calls["n"] == 30:
            raise RuntimeError("boom")
        return real(state, action)

    monkeypatch.setattr(en.newenergies.engine, "apply", flaky)
    result = soak.play_checked(soak.game_config(0, 0))
    assert any("RuntimeError: boom" in m for m in result["violations"]), result
    assert "exception" in result["after"]
