"""The dilemma measured (energies.insight.temptation): intervals, the classifier on synthetic
tables, the measurement itself, the shipped tables against the function, the map and its knobs."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import energies as en
from energies.insight import intervals
from energies.insight.temptation import (
    KNOBS,
    PUBLISHED_KNOBS,
    DilemmaResult,
    classify,
    dilemma,
    dilemma_map,
    dilemma_row,
    dilemma_tables,
    named_rules,
    plot_dilemma_map,
    policy_rules,
    shipped_dilemma,
    shipped_seed_sets,
)
from energies.insight.temptation.policy import knobs_of, map_table
from energies.insight.temptation.verdict import (
    CHICKEN,
    NO_TEMPTATION,
    OTHER,
    SOCIAL_DILEMMA,
    UNDECIDED,
    VOLUNTEERS_DILEMMA,
    classify_signs,
    verdict_text,
)


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# -- intervals ------------------------------------------------------------------------------------


def test_wilson_matches_the_textbook_values():
    low, high = intervals.wilson(0.5, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert intervals.wilson(0.0, 40)[0] == 0.0 and 0 < intervals.wilson(0.0, 40)[1] < 0.1
    assert intervals.wilson(0.3, 0) == (0.0, 1.0)


def test_newcombe_matches_the_published_example():
    # Newcombe (1998), Statistics in Medicine 17, table II, example (a): 56/70 - 48/80,
    # method 10: 0.0524 to 0.3339
    low, high = intervals.newcombe(56 / 70, 70, 48 / 80, 80)
    assert (round(low, 3), round(high, 3)) == (0.052, 0.334)


def test_mean_interval_is_the_normal_interval_of_a_mean():
    mean, low, high = intervals.mean_interval([0, 1] * 50)
    half = 1.96 * math.sqrt(0.25 * 100 / 99 / 100)
    assert mean == 0.5 and math.isclose(high - mean, half) and math.isclose(mean - low, half)
    assert math.isnan(intervals.mean_interval([])[0])


def test_the_benchmarks_use_the_same_intervals():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "rates.py"
    spec = importlib.util.spec_from_file_location("rates", path)
    rates = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rates)
    assert rates.wilson is intervals.wilson and rates.newcombe is intervals.newcombe


# -- the classifier on synthetic tables -----------------------------------------------------------


def synthetic(gains, green, gaps=(0.0, 0.0, 0.0), games=100_000, gap_width=0.01):
    """A dilemma table of 4 players with switching gains D(k) = F(k) - G(k-1) as given.

    ``green``: G(0) .. G(3); ``gaps``: F(k) - G(k) at k = 1..3 (the paired seat gap), each
    with an interval of +- ``gap_width``. Many games make every interval narrow."""
    n = len(gains)
    fossil = [math.nan] + [green[k - 1] + gains[k - 1] for k in range(1, n + 1)]
    rows = []
    for k in range(n + 1):
        gap = gaps[k - 1] if 0 < k < n else math.nan
        rows.append(
            {
                "k": k,
                "players": n,
                "games": games,
                "fossil_bot": "fossil",
                "green_bot": "green",
                "fossil_seats": k * games,
                "green_seats": (n - k) * games,
                "fossil_win_rate": fossil[k],
                "green_win_rate": green[k] if k < n else math.nan,
                "seat_gap": gap,
                "seat_gap_low": gap - gap_width,
                "seat_gap_high": gap + gap_width,
            }
        )
    return pd.DataFrame(rows)


GREEN = (0.25, 0.20, 0.30, 0.50)


@pytest.mark.parametrize(
    "gains, green, gaps, verdict",
    [
        # fossil pays whatever the others do; everyone does better at an all-green table
        ((0.15, 0.15, 0.15, 0.05), (0.25, 0.20, 0.15, 0.10), (0.2, 0.2, 0.1), SOCIAL_DILEMMA),
        # fossil pays whatever the others do, but all-fossil tables do as well as all-green
        ((0.15, 0.15, 0.15, 0.20), (0.25, 0.20, 0.15, 0.10), (0.2, 0.2, 0.1), OTHER),
        # fossil pays for the first two, then green: the greens of the 2-2 mix win less
        ((0.20, 0.10, -0.05, -0.30), GREEN, (0.15, 0.10, -0.2), VOLUNTEERS_DILEMMA),
        # the same switch, but the greens of the 2-2 mix win more than its fossils
        ((0.20, 0.10, -0.05, -0.30), GREEN, (0.15, -0.10, -0.2), CHICKEN),
        # green pays whatever the others do
        ((-0.10, -0.10, -0.20, -0.30), GREEN, (-0.1, -0.1, -0.2), NO_TEMPTATION),
        # green pays while few choose fossil, fossil once many do (a bandwagon)
        ((-0.10, -0.05, 0.10, 0.20), GREEN, (-0.1, 0.1, 0.2), OTHER),
        # the sign flips back and forth
        ((0.10, -0.10, 0.10, -0.10), GREEN, (0.1, -0.1, 0.1), OTHER),
    ],
)
def test_the_classifier_names_each_pattern(gains, green, gaps, verdict):
    table = synthetic(gains, green, gaps)
    result = classify(table)
    assert result.kind == verdict and result.text == verdict
    assert result.possible == (verdict,)
    assert [round(g.value, 6) for g in result.gains] == [round(g, 6) for g in gains]


def test_a_verdict_waits_until_the_intervals_separate():
    gains, gaps = (0.20, 0.10, 0.04, -0.30), (0.15, 0.10, -0.2)
    few = classify(synthetic(gains, GREEN, gaps, games=50))
    assert few.kind == UNDECIDED and few.text == "undecided at 50 games"
    assert few.possible and UNDECIDED not in few.possible
    assert "Still possible at 50 games" in few.reason()
    many = classify(synthetic(gains, GREEN, gaps, games=100_000))
    assert many.kind in few.possible and many.kind != UNDECIDED


def test_an_unknown_volunteers_gap_still_says_chicken():
    # the switching gains settle "fossil pays only while few choose it"; whether the greens
    # of the mix win less (a volunteer's dilemma) is open: the family is stated
    table = synthetic((0.20, 0.10, -0.05, -0.30), GREEN, (0.15, 0.0, -0.2), gap_width=0.05)
    result = classify(table)
    assert result.kind == CHICKEN and set(result.possible) == {CHICKEN, VOLUNTEERS_DILEMMA}


def test_an_undecided_verdict_among_dilemmas_says_it_is_a_dilemma():
    # fossil pays for the first three seats and everyone does better all-green; whether the
    # fourth seat still gains (social dilemma) or loses (volunteer's dilemma) is open
    table = synthetic((0.20, 0.15, 0.10, 0.0), (0.25, 0.20, 0.15, 0.10), (0.15, 0.10, 0.05))
    result = classify(table)
    assert result.kind == UNDECIDED and result.dilemma
    assert result.possible == (SOCIAL_DILEMMA, VOLUNTEERS_DILEMMA)
    assert result.text == (
        "a dilemma: social dilemma or volunteer's dilemma, undecided at 100000 games"
    )
    # "other" still open: no dilemma shown yet, the plain wording
    fossil_pays_collective_open = synthetic((0.15, 0.15, 0.15, 0.10), (0.25, 0.20, 0.15, 0.15))
    assert classify(fossil_pays_collective_open).possible == (SOCIAL_DILEMMA, OTHER)
    assert not classify(fossil_pays_collective_open).dilemma
    assert verdict_text(UNDECIDED, (SOCIAL_DILEMMA, OTHER), 50) == "undecided at 50 games"
    assert verdict_text(CHICKEN, (CHICKEN, VOLUNTEERS_DILEMMA), 50) == CHICKEN


def test_classify_signs_reads_every_unknown_sign_both_ways():
    assert classify_signs((1, 1, 1, 1), 1, (1, 1, 1)) == (SOCIAL_DILEMMA, (SOCIAL_DILEMMA,))
    assert classify_signs((1, 1, 1, 1), 0, (1, 1, 1)) == (UNDECIDED, (SOCIAL_DILEMMA, OTHER))
    # green pays for the first three; the fourth either keeps it so or starts a bandwagon
    assert classify_signs((-1, -1, -1, 0), 0, (0, 0, 0)) == (UNDECIDED, (NO_TEMPTATION, OTHER))
    assert classify_signs((-1, -1, -1, -1), 0, (0, 0, 0)) == (NO_TEMPTATION, (NO_TEMPTATION,))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.drop(columns=["seat_gap"]), "lacks the columns"),
        (lambda t: t[t["k"] != 2], "one row for every k"),
        (lambda t: "not a table", "lacks the columns"),
    ],
)
def test_classify_refuses_what_is_not_a_dilemma_table(change, message):
    with pytest.raises(ValueError, match=message):
        classify(change(synthetic((0.1, 0.1, 0.1, 0.1), GREEN)))


# -- the measurement ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    return dilemma(en.RuleSet.classroom(), games=8, seed=3)


def test_dilemma_measures_every_k_with_seats_rotated(small):
    table = small.table
    assert list(table["k"]) == [0, 1, 2, 3, 4]
    assert (table["games"] == 8).all() and (table["seed"] == 3).all()
    assert list(table["fossil_seats"]) == [0, 8, 16, 24, 32]
    assert list(table["green_seats"]) == [32, 24, 16, 8, 0]
    assert math.isnan(table["fossil_win_rate"].iloc[0])
    assert math.isnan(table["green_win_rate"].iloc[4])
    for row in table.to_dict("records"):
        # a shared win is split: the seats' win shares add up to the games somebody won
        won = (1 - row["everyone_loses"] - row["outcome_unfinished"]) * row["games"]
        shares = sum(
            row[f"{side}_win_rate"] * row[f"{side}_seats"]
            for side in ("fossil", "green")
            if row[f"{side}_seats"]
        )
        assert math.isclose(shares, won)
        for side in ("fossil_win", "everyone_loses", "expected_winners"):
            column = side if side != "fossil_win" else "fossil_win_rate"
            if not math.isnan(row[column]):
                assert row[f"{side}_low"] <= row[column] <= row[f"{side}_high"]
    assert isinstance(small, DilemmaResult)
    assert small.verdict in (small.kind, "undecided at 8 games")


def test_dilemma_is_deterministic_by_seed(small):
    again = dilemma(en.RuleSet.classroom(), games=8, seed=3)
    pd.testing.assert_frame_equal(small.table, again.table)
    other = dilemma_row(en.RuleSet.classroom(), 1, games=8, seed=4)
    assert other != small.table.iloc[1].to_dict()


def test_a_row_counts_each_seat_by_its_strategy():
    # a table of two bots the seat labels tell apart: the counts follow the rotation
    row = dilemma_row(en.RuleSet.classroom(), 2, games=4, strategies=("random", "green"), seed=1)
    assert row["fossil_bot"] == "random" and row["green_bot"] == "green"
    assert row["fossil_seats"] == 8 and row["green_seats"] == 8
    frame = en.simulate(
        4,
        [
            ["random", "random", "green", "green"][r:] + ["random", "random", "green", "green"][:r]
            for r in range(4)
        ],
        rules=en.RuleSet.classroom(),
        seed=1,
        progress=False,
    )
    rates = {"random": 0.0, "green": 0.0}
    for record in frame.to_dict("records"):
        for seat in record["winners"]:
            rates[record[f"bot_{seat}"]] += 1 / len(record["winners"])
    assert math.isclose(row["fossil_win_rate"], rates["random"] / 8)
    assert math.isclose(row["green_win_rate"], rates["green"] / 8)


def test_a_row_takes_bot_objects_and_names_them():
    # the search check seats SearchPlayer objects with a chosen budget; they are named by role
    from energies.bots.search import SearchPlayer

    fossil = SearchPlayer(budget=1, plants="fossil")
    row = dilemma_row(en.RuleSet.classroom(), 1, games=1, strategies=(fossil, "green"), seed=2)
    assert (row["fossil_bot"], row["green_bot"]) == ("search-fossil", "green")
    assert row["fossil_seats"] == 1 and row["green_seats"] == 3


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rules": "classroom"}, "rules must be a RuleSet"),
        ({"rules": en.RuleSet.standard(3)}, "pass players=3"),
        ({"players": 5}, "players must be 3 or 4"),
        ({"strategies": ("green", "green")}, "two different bots"),
        ({"strategies": ("fossil",)}, "strategies must be two bots"),
        ({"strategies": ("fossil", "nobody")}, "Unknown bot"),
        ({"games": 0}, "games must be a whole number"),
        ({"seed": -1}, "seed must be a whole number"),
    ],
)
def test_dilemma_refuses_bad_arguments_before_playing(kwargs, message):
    with pytest.raises(ValueError, match=message):
        dilemma(**{"games": 2, **kwargs})


def test_the_result_plots_rates_with_intervals(small):
    plt = pyplot()
    fig, given = plt.subplots()
    ax = small.plot(ax=given)
    assert ax is given
    # each line carries its 95 % interval: an errorbar container, the data line first
    lines = {c.lines[0].get_gid(): c.lines[0] for c in ax.containers}
    assert set(lines) == {"dilemma-fossil", "dilemma-green", "dilemma-lose"}
    fossil = lines["dilemma-fossil"]
    assert list(fossil.get_xdata()) == [1, 2, 3, 4]
    assert list(fossil.get_ydata()) == list(small.table["fossil_win_rate"].iloc[1:])
    assert small.verdict in " ".join(ax.get_title().split())  # wrapped when long
    plt.close(fig)
    switching = small.switching
    assert list(switching["comparison"]).count("switching gain") == 4
    assert set(switching["sign"]) <= {"+", "-", "?"}


# -- the shipped tables ---------------------------------------------------------------------------


@pytest.mark.parametrize("bots", ["personas", "search"])
def test_the_shipped_tables_are_complete(bots):
    table = dilemma_tables(bots)
    for name in ("published", "classroom"):
        for seed in shipped_seed_sets(name, bots):
            part = table[(table["rules"] == name) & (table["seed"] == seed)]
            assert sorted(part["k"]) == [0, 1, 2, 3, 4], (bots, name, seed)
            result = shipped_dilemma(name, bots, seed_set=seed)
            assert result.verdict == classify(part.reset_index(drop=True)).text
            assert (result.table["seed"] == seed).all()
    expected = ("fossil", "green") if bots == "personas" else ("search-fossil", "search-green")
    assert set(table["fossil_bot"]) == {expected[0]} and set(table["green_bot"]) == {expected[1]}


def test_shipped_dilemma_picks_a_seed_set():
    seeds = shipped_seed_sets("classroom", "search")
    assert seeds == [1, 2]
    first, second = (shipped_dilemma("classroom", "search", seed_set=s) for s in seeds)
    assert list(first.table["seed"].unique()) == [1] and list(second.table["seed"].unique()) == [2]
    pd.testing.assert_frame_equal(shipped_dilemma("classroom", "search").table, first.table)
    for wrong in (3, "1", True):
        with pytest.raises(ValueError, match="seed_set must be one of"):
            shipped_dilemma("classroom", "search", seed_set=wrong)


# -- the claims the docs and lessons quote, on both seed sets --------------------------------------


def classroom_row(bots: str, seed: int, k: int):
    table = shipped_dilemma("classroom", bots, seed_set=seed).table
    return table[table["k"] == k].iloc[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_what_strong_players_show_of_the_classroom_game(seed):
    """Issue 38 part 4 with the search players, as docs/insight.md and docs/results.md quote
    it, on each shipped seed set of at least 200 games per table: a lone fossil seat wins more
    than a fair share (interval above 1/4), an all-fossil table loses together in a clear share
    (interval above 10 %: the early disc bands empty the bag before anybody reaches 5 VP) and
    has fewer winners than an all-green one (the difference's interval above zero), and every
    table lasts about 25 turns on average."""
    result = shipped_dilemma("classroom", "search", seed_set=seed)
    assert (result.table["games"] >= 200).all()
    lone, green, fossil = (classroom_row("search", seed, k) for k in (1, 0, 4))
    assert lone["fossil_win_low"] > 0.25
    half = math.hypot(
        *[(r["expected_winners_high"] - r["expected_winners_low"]) / 2 for r in (green, fossil)]
    )
    assert green["expected_winners"] - fossil["expected_winners"] > half
    assert fossil["everyone_loses_low"] > 0.10
    assert fossil["outcome_victory_points"] < green["outcome_victory_points"]
    assert 20 <= result.table["mean_turns"].min() and result.table["mean_turns"].max() <= 32
    assert result.details.dilemma  # every reading the data leave open is a dilemma


@pytest.mark.parametrize("seed", [1, 2])
def test_four_fossil_rush_switch_in_time(seed):
    """The personas' reason: FossilRush scrambles for renewable plants before the bag runs
    out, so an all-FossilRush classroom table (400 games) almost never loses together."""
    fossil = classroom_row("personas", seed, 4)
    assert fossil["games"] >= 400
    assert fossil["everyone_loses"] <= 0.02 and fossil["everyone_loses_high"] < 0.05


def assert_same_row(fresh: dict, shipped) -> None:
    """Every column of a freshly measured row equals the shipped one (to the CSV's 6 places)."""
    for column, value in fresh.items():
        if isinstance(value, float):
            both_nan = math.isnan(value) and math.isnan(shipped[column])
            assert both_nan or math.isclose(value, shipped[column], abs_tol=1e-6), column
        else:
            assert value == shipped[column], column


def test_the_shipped_classroom_table_is_what_the_function_computes():
    """The lone fossil seat of the classroom table, re-measured with its recorded games and
    seed: the shipped row must be today's (re-run benchmarks/dilemma.py when bots or rules
    change)."""
    table = dilemma_tables("personas")
    shipped = table[(table["rules"] == "classroom") & (table["k"] == 1)].iloc[0]
    fresh = dilemma_row(
        named_rules("classroom"),
        1,
        games=int(shipped["games"]),
        strategies=(shipped["fossil_bot"], shipped["green_bot"]),
        seed=int(shipped["seed"]),
    )
    assert_same_row(fresh, shipped)


def search_games(seed: int, k: int):
    """The shipped games of one classroom search row, as energies.simulate's frame holds them."""
    from importlib import resources

    from energies.insight.temptation.shipped import GAMES_FILE

    with resources.files("energies.data").joinpath(GAMES_FILE).open() as f:
        games = pd.read_csv(f, dtype={"winners": str}, keep_default_na=False)
    part = games[(games["rules"] == "classroom") & (games["seed_set"] == seed) & (games["k"] == k)]
    part = part.sort_values("game").reset_index(drop=True)
    part["winners"] = [tuple(int(seat) for seat in w.split()) for w in part["winners"]]
    part["everyone_loses"] = part["outcome"] == "everyone_loses"
    part["players"] = 4
    return part


@pytest.mark.parametrize("seed", [1, 2])
def test_the_shipped_search_games_add_up_to_their_rows(seed):
    """Every classroom search row is exactly what its shipped games give."""
    from energies.insight.temptation.measure import row_of_games

    shipped = shipped_dilemma("classroom", "search", seed_set=seed).table
    for row in shipped.to_dict("records"):
        games = search_games(seed, row["k"])
        assert list(games["game"]) == list(range(row["games"]))
        fresh = row_of_games(games, row["k"], row["fossil_bot"], row["green_bot"], seed=seed)
        assert_same_row(fresh, row)


def test_the_first_search_games_of_a_row_replay_exactly():
    """The search rows are reproducible: the first games of the all-fossil table of seed set
    1, re-played with the same seed and budget, are the shipped games (winners, turns,
    actions, points). Re-run benchmarks/dilemma.py when the bots or the rules change."""
    from energies.bots.search import SearchPlayer
    from energies.insight.temptation.measure import dilemma_games

    shipped = search_games(1, 4).head(2)
    budget = int(shipped_dilemma("classroom", "search", seed_set=1).table["budget"].iloc[0])
    strong = (
        SearchPlayer(budget=budget, plants="fossil"),
        SearchPlayer(budget=budget, plants="renewable"),
    )
    fresh = dilemma_games(named_rules("classroom"), 4, games=2, strategies=strong, seed=1)
    columns = ["game", "seed", "outcome", "winners", "turns", "actions", "final_gf"]
    columns += [f"vp_{seat}" for seat in range(4)]
    for column in columns:
        assert list(fresh[column]) == list(shipped[column]), column


def test_the_shipped_map_point_is_what_the_function_computes():
    """One table of the shipped map (the classroom centre, all fossil), re-measured."""
    table = map_table()
    shipped = table[(table["point"] == "classroom") & (table["k"] == 4)].iloc[0]
    knobs = {k: shipped[k] for k in KNOBS}
    knobs = {k: v if isinstance(v, str) else int(v) for k, v in knobs.items()}
    assert policy_rules(**knobs) == en.RuleSet.classroom()
    fresh = dilemma_row(
        policy_rules(**knobs), 4, games=int(shipped["games"]), seed=int(shipped["seed"])
    )
    assert_same_row(fresh, shipped)


def test_shipped_dilemma_refuses_unknown_names():
    with pytest.raises(ValueError, match="rules must be one of"):
        shipped_dilemma("tournament")
    with pytest.raises(ValueError, match="bots must be one of"):
        shipped_dilemma("classroom", bots="humans")
    with pytest.raises(ValueError, match="No shipped personas table"):
        shipped_dilemma("classroom", players=3)


# -- the map and its knobs ------------------------------------------------------------------------


def test_policy_rules_set_exactly_the_knobs():
    assert policy_rules() == en.RuleSet.standard()
    rules = policy_rules(
        victory_points=6,
        brown_discs=30,
        row_spaces=2,
        green_per_player=5,
        fossil_science=2,
        renewable_science=4,
        disc_bands="flat",
    )
    assert rules.victory_points == 6
    assert dict(rules.brown_discs) == dict.fromkeys(dict(rules.brown_discs), 6)
    assert {n for _, n in rules.event_spaces} == {2}
    assert dict(rules.green_discs_per_player) == {
        "climate_conference": 1,
        "sustainable_production": 2,
        "government_funding": 2,
    }
    assert rules.cost("fossil") == {"science": 2} and rules.cost("renewable") == {"science": 4}
    assert rules.disc_bands == ((0, 28, 1),) and rules.discs_to_draw(27) == 1
    early = policy_rules(disc_bands="early")
    assert early.discs_to_draw(16) == 2 and en.RuleSet.standard().discs_to_draw(16) == 1
    assert policy_rules(3, disc_bands="early").discs_to_draw(12) == 2


def test_knobs_of_reads_the_presets_back():
    assert knobs_of(en.RuleSet.standard()) == PUBLISHED_KNOBS
    classroom = knobs_of(en.RuleSet.classroom())
    assert policy_rules(**classroom) == en.RuleSet.classroom()
    with pytest.raises(ValueError, match="plant_vp"):
        knobs_of(en.RuleSet.standard(plant_vp=1))


@pytest.mark.parametrize(
    "knobs, message",
    [
        ({"vp": 5}, "Unknown knob"),
        ({"brown_discs": 42}, "multiple of 5"),
        ({"green_per_player": 4}, "odd number"),
        ({"disc_bands": "steep"}, "disc_bands must be one of"),
        ({"victory_points": 0}, "victory_points must be a whole number"),
        ({"fossil_science": 1.5}, "fossil_science must be a whole number"),
    ],
)
def test_policy_rules_refuses_impossible_knobs(knobs, message):
    with pytest.raises(ValueError, match=message):
        policy_rules(**knobs)


def test_the_map_classifies_every_point_and_holds_both_presets():
    frame = dilemma_map()
    assert set(frame["block"]) == {"race", "policy"}
    assert frame["point"].is_unique
    assert set(frame["verdict"]) <= {
        SOCIAL_DILEMMA,
        VOLUNTEERS_DILEMMA,
        CHICKEN,
        NO_TEMPTATION,
        OTHER,
        UNDECIDED,
    }
    race = frame[frame["block"] == "race"]
    for preset in (en.RuleSet.standard(), en.RuleSet.classroom()):
        knobs = knobs_of(preset)
        match = race[
            (race["victory_points"] == knobs["victory_points"])
            & (race["brown_discs"] == knobs["brown_discs"])
            & (race["row_spaces"] == knobs["row_spaces"])
        ]
        assert len(match) == 1
    assert all(sorted(part["k"]) == [0, 1, 2, 3, 4] for _, part in map_table().groupby("point"))


@pytest.mark.parametrize("block", ["race", "policy"])
def test_plot_dilemma_map_draws_one_cell_per_point(block):
    plt = pyplot()
    frame = dilemma_map()
    ax = plot_dilemma_map(frame, block=block)
    cells = [p for p in ax.patches if str(p.get_gid()).startswith("cell-")]
    assert len(cells) == (frame["block"] == block).sum()
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    assert legend == set(frame[frame["block"] == block]["verdict"])
    presets = {str(p.get_gid()) for p in ax.patches if str(p.get_gid()).startswith("preset-")}
    # the classroom game's early disc bands put it off the race grid (published bands): it
    # is the policy block's centre, outlined there beside the published game
    assert presets == (
        {"preset-published"} if block == "race" else {"preset-published", "preset-classroom"}
    )
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="block must be"):
        plot_dilemma_map(frame, block="prices")
