"""The search players' cached question table and the fitted evaluation behind them."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import energies as en
from energies.bots.search import FEATURES, WEIGHTS, evaluate, features, win_chances

ROOT = Path(__file__).resolve().parents[1]


def test_the_cached_table_is_package_data_and_loads():
    table = en.insight.strong_players()
    assert set(table["subject"]) >= {"search-fossil", "search-green"}
    assert set(table["rules"]) == {"published", "lesson-04"}
    assert set(table["players"]) == {3, 4}
    assert set(table["opponents"]) == {"personas", "search"}
    assert (table["win_rate_low"] <= table["win_rate"]).all()
    assert (table["win_rate"] <= table["win_rate_high"]).all()
    assert ((table["fair_share"] - 1 / table["players"]).abs() < 1e-4).all()
    assert (table["games"] > 0).all()
    text = (ROOT / "pyproject.toml").read_text()
    assert '"energies.data" = ["*.csv"]' in text
    # the human-readable record beside the benchmark and the package's copy are one table
    record = (ROOT / "benchmarks" / "results" / "search_question.csv").read_text()
    assert (ROOT / "energies" / "data" / "search_question.csv").read_text() == record


def test_fossil_verdicts_follow_the_intervals():
    table = en.insight.strong_players()
    verdicts = en.insight.fossil_verdicts(table)
    assert len(verdicts) == 8  # 3 and 4 players x two rule sets x two kinds of opponents
    for row in verdicts.itertuples(index=False):
        against = "personas" if row.against == "against personas" else "search"
        rows = table[
            (table["players"] == row.players)
            & (table["rules"] == row.rules)
            & (table["opponents"] == against)
        ].set_index("subject")
        fossil, green = rows.loc["search-fossil"], rows.loc["search-green"]
        if row.verdict == "fossil pays":
            assert fossil["win_rate_low"] > green["win_rate_high"]
        elif row.verdict == "renewable pays":
            assert green["win_rate_low"] > fossil["win_rate_high"]
        else:
            assert row.verdict == "too close to call"
            assert fossil["win_rate_low"] <= green["win_rate_high"]
            assert green["win_rate_low"] <= fossil["win_rate_high"]
        assert row.games == min(fossil["games"], green["games"])


def test_importing_the_insight_tools_leaves_pandas_unloaded():
    code = "import sys, energies.insight as i; i.strong_players; assert 'pandas' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_plot_strong_players_draws_both_restricted_players():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    table = en.insight.strong_players()
    ax = en.insight.plot_strong_players(table, players=3)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert sorted(labels) == ["fair share (1/3)", "fossil only", "renewable only"]
    bars = list(ax.patches)
    rows = table[(table["players"] == 3) & table["subject"].isin(["search-fossil", "search-green"])]
    assert len(bars) == len(rows)
    assert sorted(round(b.get_height(), 4) for b in bars) == sorted(rows["win_rate"].round(4))
    matplotlib.pyplot.close(ax.figure)


def _position(seed: int = 5, rules=None):
    game = en.new_game(rules=rules or en.RuleSet.standard(4), seed=seed, history=False)
    bots = [en.bots.make_bot(b, seed=s) for s, b in enumerate(["green", "fossil"] * 2)]
    rng = random.Random(seed)
    while game.state.turn < 40 and game.current_seat is not None:
        seat = game.current_seat
        game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rng))
    return game


def test_win_chances_are_a_distribution_with_room_for_nobody():
    for rules in (en.RuleSet.standard(4), en.RuleSet.standard(4).replace(plant_vp=1)):
        state = _position(rules=rules).state
        chances = win_chances(state)
        assert len(chances) == 4 and all(0 < c < 1 for c in chances)
        assert sum(chances) < 1  # the rest: everyone loses (rule 14.2)
        assert len(features(state, 0)) == len(FEATURES) == len(WEIGHTS["published"])


def test_evaluation_prefers_more_renewable_plants_under_the_published_rules():
    state = _position().state
    seat = 0
    before = evaluate(state, seat)
    state.players[seat].plants[(999, 999)] = "renewable"  # one renewable plant more
    assert evaluate(state, seat) > before


def test_a_finished_game_scores_its_win_share():
    game = en.new_game(4, seed=3, history=False)
    names = ["green", "balanced", "freerider", "fossil"]
    en.play(game, [en.bots.make_bot(b, seed=s) for s, b in enumerate(names)])
    winners = game.outcome.winners
    for seat in range(4):
        expected = 1 / len(winners) if seat in winners else 0.0
        assert evaluate(game.state, seat) == expected


@pytest.mark.parametrize("players", [5, 2, 0, True, "4"])
def test_plot_strong_players_refuses_a_table_size_that_was_not_measured(players):
    # 5 drew an empty chart titled "5 players" with a 1/5 fair share; 0 divided by zero
    pytest.importorskip("matplotlib").use("Agg")
    with pytest.raises(ValueError, match=r"measured table sizes \[3, 4\]"):
        en.insight.plot_strong_players(players=players)
