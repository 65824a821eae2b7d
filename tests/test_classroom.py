"""energies.classroom: a class's save files in one table, bad files skipped with a reason."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import energies as en
from energies.classroom import collect, plot_class
from energies.insight import burden
from energies.newenergies.game import MAX_SAVE_BYTES

NAMES = ["Ada", "Ben", "Chloé", "Dev"]


def finished_game(seed: int, players: int = 4):
    game = en.new_game(players=players, seed=seed, names=NAMES[:players])
    en.play(game, [en.bots.RandomBot() for _ in range(players)])
    return game


@pytest.fixture(scope="module")
def games():
    return {"group1": finished_game(1), "group2": finished_game(2), "trio": finished_game(3, 3)}


@pytest.fixture
def class_folder(tmp_path, games):
    for name, game in games.items():
        game.save(tmp_path / f"{name}.json")
    good = games["group1"].to_json()
    (tmp_path / "broken.json").write_text(good[: len(good) // 2], encoding="utf-8")
    (tmp_path / "notes.json").write_text('{"format": "shopping list"}', encoding="utf-8")
    data = json.loads(good)
    data["digest"] = "0" * len(data["digest"])
    (tmp_path / "edited.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "nested.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "latin1.json").write_bytes(b'{"names": "Chlo\xe9"}')
    with open(tmp_path / "huge.json", "wb") as f:  # sparse: big on paper, nothing to read
        f.truncate(MAX_SAVE_BYTES + 1)
    (tmp_path / "folder.json").mkdir()
    (tmp_path / ".ipynb_checkpoints").mkdir()  # hidden entries are not part of the class
    return tmp_path


def test_folder_gives_one_row_per_good_game_and_skips_the_rest(class_folder, games):
    frame = collect(class_folder)
    assert sorted(frame["group"]) == ["group1", "group2", "trio"]
    reasons = {os.path.basename(r["source"]): r["reason"] for r in frame.attrs["skipped"]}
    assert set(reasons) == {
        "broken.json",
        "notes.json",
        "edited.json",
        "nested.json",
        "latin1.json",
        "huge.json",
        "folder.json",
    }
    assert "not valid JSON" in reasons["broken.json"]
    assert "not an energies save file" in reasons["notes.json"]
    assert "digest" in reasons["edited.json"]
    assert "nested too deeply" in reasons["nested.json"]
    assert "UTF-8" in reasons["latin1.json"]
    assert reasons["huge.json"].startswith("It is 4,000,001 bytes, more than a save file can be")
    assert "folder" in reasons["folder.json"]


def test_row_matches_the_game(games):
    game = games["group1"]
    row = collect([game.to_json()]).iloc[0]
    outcome = game.outcome
    assert row["group"] == "text 1"
    assert row["players"] == 4 and row["names"] == "Ada, Ben, Chloé, Dev"
    assert row["outcome"] == outcome.kind and row["finished"]
    assert row["winners"] == tuple(outcome.winners)
    assert row["everyone_loses"] == (outcome.kind == "everyone_loses")
    assert row["turns"] == game.turn
    assert row["final_gf"] == game.global_footprint == row["gf_by_turn"][-1]
    assert len(row["gf_by_turn"]) == game.turn + 1  # turn 0 (the set-up) to the last turn
    expected = burden(game)
    for seat in game.snapshot()["seats"]:
        s = seat["seat"]
        assert row[f"fossil_{s}"] == seat["fossil"]
        assert row[f"renewable_{s}"] == seat["renewable"]
        assert row[f"vp_{s}"] == seat["vp"]
        ratio = float(expected.loc[expected["seat"] == s, "burden_ratio"].iloc[0])
        assert row[f"burden_{s}"] == pytest.approx(ratio, nan_ok=True)
        ratio = float(expected.loc[expected["seat"] == s, "pollution_ratio"].iloc[0])
        assert row[f"pollution_{s}"] == pytest.approx(ratio, nan_ok=True)
    assert row["mismatch"] == pytest.approx(expected.attrs["mismatch"], nan_ok=True)
    assert row["pollution_mismatch"] == pytest.approx(
        expected.attrs["pollution_mismatch"], nan_ok=True
    )


def test_everyone_loses_flag_and_winner_names():
    frame = collect([finished_game(seed).to_json() for seed in range(12)])
    assert set(frame["outcome"]) <= {"victory_points", "empty_bag", "everyone_loses"}
    assert (frame["everyone_loses"] == (frame["outcome"] == "everyone_loses")).all()
    assert frame["everyone_loses"].any()  # random tables often end with everybody losing
    for row in frame.to_dict("records"):
        names = row["names"].split(", ")
        assert row["winner_names"] == ", ".join(names[s] for s in row["winners"])
        assert (not row["winners"]) == (row["outcome"] == "everyone_loses")


def test_three_player_game_leaves_seat_3_empty(games):
    row = collect([games["trio"].to_json()]).iloc[0]
    assert row["players"] == 3
    assert row["fossil_3"] is pd_na() and math.isnan(row["burden_3"])
    assert math.isnan(row["pollution_3"])


def pd_na():
    import pandas as pd

    return pd.NA


def test_list_mixes_paths_texts_dicts_and_keeps_order(tmp_path, games):
    path = tmp_path / "blue team.json"
    games["group2"].save(path)
    items = [
        games["group1"].to_json(),
        str(path),
        "this is not a save",
        json.loads(games["trio"].to_json()),
        path,
        str(tmp_path / "missing.json"),
        games["group1"].to_json().encode("utf-8"),
        42,
    ]
    frame = collect(items)
    assert list(frame["group"]) == ["text 1", "blue team", "text 3"]
    assert list(frame["players"]) == [4, 4, 3]
    skipped = frame.attrs["skipped"]
    missing = str(tmp_path / "missing.json")
    assert [r["source"] for r in skipped] == ["text 2", str(path), missing, "text 4", "text 5"]
    assert "not valid JSON" in skipped[0]["reason"]
    assert f"The same game as {path}" in skipped[1]["reason"]  # a game counts once
    assert "Cannot read" in skipped[2]["reason"]
    assert "The same game as text 1" in skipped[3]["reason"]
    assert "not int" in skipped[4]["reason"]


def test_a_mistyped_folder_and_another_games_save_are_skipped_with_the_true_reason(tmp_path):
    from energies.runner import play_one

    # both were "not valid JSON" / "not an energies save file"
    shelfie = play_one(["random"] * 3, 1, game="shelfie")
    shelfie.save(tmp_path / "dice.json")
    (skipped,) = collect(tmp_path).attrs["skipped"]
    assert skipped["reason"] == (
        "It is a save of My Shelfie Dice: collect() pools New Energies games only."
    )
    (skipped,) = collect(str(tmp_path / "class_saves")).attrs["skipped"]
    assert skipped["reason"].startswith("No file or folder is named ")
    assert "class_saves" in skipped["reason"]


def test_unfinished_save_is_a_row_in_progress():
    game = en.new_game(seed=4)
    frame = collect(game.to_json())
    row = frame.iloc[0]
    assert row["outcome"] == "in_progress" and not row["finished"] and row["winners"] == ()
    assert row["turns"] == game.turn


def test_pipe_is_skipped_without_hanging(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    os.mkfifo(tmp_path / "pipe.json")
    frame = collect(tmp_path)
    assert frame.empty
    assert frame.attrs["skipped"][0]["reason"] == "It is a pipe, not a save file."


def test_empty_folder_gives_empty_tables_with_columns(tmp_path):
    frame = collect(tmp_path)
    assert frame.empty and "final_gf" in frame.columns and "burden_3" in frame.columns
    assert frame.attrs["skipped"] == []


def test_two_rounds_concatenate(class_folder, games):
    import pandas as pd

    first = collect(class_folder)
    second = collect([games["group1"].to_json()])
    both = pd.concat([first.assign(round=1), second.assign(round=2)], ignore_index=True)
    assert list(both["round"]) == [1, 1, 1, 2]
    assert len(first.attrs["skipped"]) == 7 and second.attrs["skipped"] == []


def test_source_of_the_wrong_kind_is_a_clear_error():
    with pytest.raises(TypeError, match="folder, a file path"):
        collect(42)


def test_plot_class_draws_lines_and_outcome_panel(class_folder):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = collect(class_folder).assign(round=[1, 1, 2])
    ax = plot_class(frame)
    assert len(ax.figure.axes) == 2
    assert [
        line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")
    ] == [f"round {r}: {g}" for r, g in zip(frame["round"], frame["group"])]
    panel = ax.figure.axes[1]
    assert [round(p.get_width()) for p in panel.patches] == list(frame["turns"])
    plt.close(ax.figure)
    _fig, given = plt.subplots()
    assert plot_class(frame, ax=given) is given and len(given.figure.axes) == 1
    plt.close(given.figure)
    with pytest.raises(ValueError, match="at least one game"):
        plot_class(frame.iloc[0:0])


def test_import_is_light():
    code = "import energies.classroom, sys; print('pandas' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_classroom_preset_is_a_race_to_5_vp_with_rows_of_2_and_early_bands():
    # rule 14.1's target, rule 6.3's spaces and rule 4.3's bands change; bag and costs are published
    short, full = en.RuleSet.classroom(), en.RuleSet.standard()
    changed = {k for k, v in short.to_dict().items() if full.to_dict()[k] != v}
    assert changed == {"victory_points", "event_spaces", "disc_bands_4p", "disc_bands_3p"}
    assert short.victory_points == 5
    assert {short.spaces(row) for row, _ in short.event_spaces} == {2}
    assert short.brown_discs == full.brown_discs
    # the two top bands (2 and 3 discs a turn) start 3 GF sooner, the 1-disc band ends sooner
    assert short.discs_to_draw(16) == 2 and full.discs_to_draw(16) == 1
    assert short.discs_to_draw(21) == 3 and full.discs_to_draw(21) == 2
    assert [short.discs_to_draw(gf) for gf in range(16)] == [
        full.discs_to_draw(gf) for gf in range(16)
    ]
    three = en.RuleSet.classroom(3)
    assert three.players == 3 and three.victory_points == 5
    assert three.discs_to_draw(12) == 2 and en.RuleSet.standard(3).discs_to_draw(12) == 1
    assert en.RuleSet.classroom(turn_limit=100).turn_limit == 100
    # the preset's own fields can be changed too (a class tries a longer race)
    longer = en.RuleSet.classroom(victory_points=6)
    assert longer.victory_points == 6 and longer.event_spaces == short.event_spaces
    assert longer.disc_bands == short.disc_bands


def test_classroom_games_are_short_races():
    personas = ["fossil", "green", "balanced", "freerider"]
    rotated = [personas[i:] + personas[:i] for i in range(4)]
    frame = en.simulate(8, rotated, rules=en.RuleSet.classroom(), seed=3, progress=False)
    assert 20 <= frame["turns"].median() <= 32
    assert (frame["outcome"] == "victory_points").mean() >= 0.5  # a race, not a wait for the bag
    for row in frame[frame["outcome"] == "victory_points"].to_dict("records"):
        assert all(row[f"vp_{seat}"] >= 5 for seat in row["winners"])  # rule 14.1 at 5
    full = en.simulate(8, rotated, seed=3, progress=False)
    assert frame["turns"].median() < full["turns"].median()


def test_games_saved_with_the_earlier_preset_replay_as_played():
    # release 0.1's class example was played with the bag-and-rows preset (4 brown discs of
    # each kind, 10 VP): the files carry those rules, not today's RuleSet.classroom()
    example = Path(__file__).resolve().parents[1] / "notebooks" / "class-example" / "round1"
    for file in sorted(example.glob("group-*.json")):
        game = en.load_game(file.read_text())  # replays every action, checks the file's digest
        assert game.rules.victory_points == 10 and game.rules != en.RuleSet.classroom()
        assert sum(n for _, n in game.rules.brown_discs) == 20
        assert game.is_over and len(game.actions) == len(json.loads(file.read_text())["actions"])


def test_classroom_game_saves_and_collects(tmp_path):
    game = en.new_game(seed=5, rules=en.RuleSet.classroom(), names=NAMES)
    en.play(
        game,
        [en.bots.GreenInvestor(), en.bots.FossilRush(), en.bots.Balanced(), en.bots.FreeRider()],
    )
    game.save(tmp_path / "short.json")
    row = collect(tmp_path).iloc[0]
    assert row["outcome"] == game.outcome.kind and row["turns"] == game.turn


# -- lesson 07: two rounds with the same seeds, role cards in round 2 ---------------------------


def classroom_game(seed: int, personas, names=NAMES):
    game = en.new_game(rules=en.RuleSet.classroom(), seed=seed, names=list(names))
    en.play(game, [en.bots.make_bot(p, seed=seed + s) for s, p in enumerate(personas)])
    return game


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory):
    """Three tables; tables A and B play their seed twice, C changes its seed in round 2."""
    root = tmp_path_factory.mktemp("class")
    plan = {
        "A": (
            11,
            ["fossil", "fossil", "freerider", "random"],
            ["green", "balanced", "green", "green"],
        ),
        "B": (
            12,
            ["fossil", "balanced", "fossil", "green"],
            ["green", "green", "balanced", "green"],
        ),
        "C": (13, ["random"] * 4, ["green"] * 4),
    }
    for number in (1, 2):
        (root / f"round{number}").mkdir()
    for group, (seed, first, second) in plan.items():
        classroom_game(seed, first).save(root / "round1" / f"group-{group}.json")
        again = seed + 100 if group == "C" else seed
        classroom_game(again, second).save(root / "round2" / f"group-{group}.json")
    return collect(root / "round1", round=1), collect(root / "round2", round=2)


def test_collect_names_the_seed_the_round_and_each_seats_lf_and_cities(two_rounds):
    first, _second = two_rounds
    assert list(first["round"]) == [1, 1, 1] and list(first.columns[:2]) == ["round", "group"]
    game = en.load_game(Path(first.loc[0, "source"]).read_text(encoding="utf-8"))
    assert first.loc[0, "seed"] == game.seed == 11
    for seat in game.snapshot()["seats"]:
        s = seat["seat"]
        assert first.loc[0, f"lf_{s}"] == seat["lf"]
        assert first.loc[0, f"cities_{s}"] == len(seat["cities"])
    assert "round" not in collect([game.to_json()]).columns
    for bad in (True, [1], 2.5):
        with pytest.raises(ValueError, match="round must be a number or a short name"):
            collect([game.to_json()], round=bad)


def test_pair_rounds_pairs_a_table_with_itself_and_says_why_not(two_rounds):
    from energies.classroom import pair_rounds

    first, second = two_rounds
    pairs = pair_rounds(first, second)
    assert list(pairs["group"]) == ["group-A", "group-B"]
    assert list(pairs["seed"]) == [11, 12]
    for row in pairs.to_dict("records"):
        one = first[first["group"] == row["group"]].iloc[0]
        two = second[second["group"] == row["group"]].iloc[0]
        fossil = [sum(int(r[f"fossil_{s}"]) for s in range(4)) for r in (one, two)]
        assert (row["fossil_1"], row["fossil_2"]) == tuple(fossil)
        assert row["fossil_change"] == fossil[1] - fossil[0]
        assert row["final_gf_change"] == two["final_gf"] - one["final_gf"]
    [unpaired] = pairs.attrs["unpaired"]
    assert (
        unpaired["group"] == "group-C"
        and "Another seed in round 2 (113, not 13)" in (unpaired["reason"])
    )
    only_one = pair_rounds(first, second[second["group"] != "group-B"])
    assert {"group": "group-B", "reason": "Only in round 1."} in only_one.attrs["unpaired"]


def test_compare_rounds_gives_the_mean_change_per_table_with_a_t_interval_and_exact_p():
    from energies.classroom import compare_rounds

    def table(gfs, seeds=(1, 2, 3, 4)):
        rows = []
        for i, (gf, seed) in enumerate(zip(gfs, seeds)):
            rows.append(
                {"group": f"g{i}", "seed": seed, "players": 4, "finished": True,
                 "final_gf": gf, "everyone_loses": False, "turns": 25,
                 **{f"{k}_{s}": 1 for k in ("fossil", "renewable") for s in range(4)}}
            )  # fmt: skip
        import pandas as pd

        return pd.DataFrame(rows)

    summary = compare_rounds(table([12, 14, 10, 16]), table([9, 12, 9, 10]), "final_gf")
    row = summary.loc["final_gf"]
    changes = [-3, -2, -1, -6]  # round 2 minus round 1, table by table
    mean = sum(changes) / 4
    sd = math.sqrt(sum((c - mean) ** 2 for c in changes) / 3)
    assert row["tables"] == 4 and row["change"] == mean == -3.0
    assert row["low"] == pytest.approx(mean - 3.182 * sd / 2)
    assert row["high"] == pytest.approx(mean + 3.182 * sd / 2)
    assert row["p_value"] == 2 / 16  # only "all down" and "all up" are as large, of 2^4
    assert (row["tables_down"], row["tables_same"], row["tables_up"]) == (4, 0, 0)
    assert (row["round_1"], row["round_2"]) == (13.0, 10.0)
    with pytest.raises(ValueError, match="nothing to pair"):
        compare_rounds(table([1, 2, 3, 4]), table([1, 2, 3, 4], seeds=(5, 6, 7, 8)))
    with pytest.raises(ValueError, match="measures must name"):
        compare_rounds(table([1, 2, 3, 4]), table([1, 2, 3, 4]), "happiness")
    with pytest.raises(ValueError, match="second must be collect"):
        compare_rounds(table([1, 2, 3, 4]), [1, 2])


def test_t_quantile_and_sign_flip_test():
    from energies.classroom.rounds import sign_flip_p, t_quantile_975

    assert t_quantile_975(1) == 12.706 and t_quantile_975(30) == 2.042
    assert t_quantile_975(1000) == pytest.approx(1.962, abs=1e-3)
    assert sign_flip_p([1.0, 1.0, 1.0]) == 2 / 8
    assert sign_flip_p([0.0, 0.0]) == 1.0
    assert sign_flip_p([3.0, -1.0]) == 1.0  # every pattern gives |±3 ± 1| >= 2
    assert sign_flip_p([1.0] * 20) == 1 / 20_001  # sampled beyond 16 tables, never 0


def test_role_cards_give_every_seat_a_stake_and_in_role_checks_the_final_board():
    from energies.classroom import ROLES, in_role, roles_for

    assert [r.key for r in ROLES] == ["company", "city", "ngo", "journalist"]
    assert [r.key for r in roles_for(3)] == ["company", "city", "ngo"]
    for role in ROLES:
        assert role.who and role.wants and role.goal and len(role.may) >= 2
        assert "rule" in role.goal or any("rule" in m for m in role.may)
    with pytest.raises(ValueError, match="players must be 3 or 4"):
        roles_for(5)
    import pandas as pd

    def game(**changes):
        row = {
            "group": "g", "players": 4, "names": "Ana, Ben, Cleo, Dan", "finished": True,
            "winners": (2,), "everyone_loses": False, "final_gf": 10, "gf_by_turn": (12, 11, 10),
            "fossil_0": 2, "renewable_0": 0, "cities_0": 1, "lf_0": 6,
            "fossil_1": 0, "renewable_1": 1, "cities_1": 2, "lf_1": 4,
            "fossil_2": 0, "renewable_2": 3, "cities_2": 1, "lf_2": 0,
            "fossil_3": 1, "renewable_3": 1, "cities_3": 1, "lf_3": 0,
        }  # fmt: skip
        row.update(changes)
        return row

    met = lambda frame: dict(zip(frame["role"], frame["met"]))
    frame = in_role(pd.DataFrame([game()]))
    assert list(frame["name"]) == ["Ana", "Ben", "Cleo", "Dan"]
    assert list(frame["won_game"]) == [False, False, True, False]
    assert met(frame) == {
        "The energy company": True,  # 2 fossil plants, and somebody won
        "The city": True,  # 2 cities, LF 4 below Ana's 6
        "The green NGO": True,  # GF 10 < 12 before the first roll
        "The journalist": True,  # 1 fossil, 1 renewable, and a winner
    }
    worse = in_role(
        pd.DataFrame([game(everyone_loses=True, winners=(), final_gf=12, lf_1=6, fossil_3=2)])
    )
    assert not any(worse["met"])  # the company's customers are gone, the city ties Ana's LF...
    unfinished = in_role(pd.DataFrame([game(finished=False)]))
    assert unfinished.empty
    with pytest.raises(ValueError, match="in_role needs"):
        in_role(pd.DataFrame({"group": ["g"]}))


def test_the_change_in_sentences_and_the_paired_chart(two_rounds):
    import matplotlib

    matplotlib.use("Agg")
    from energies.classroom import compare_rounds, describe_change, plot_rounds

    first, second = two_rounds
    summary = compare_rounds(first, second, ("final_gf", "everyone_loses"))
    text = describe_change(summary).splitlines()
    gf = summary.loc["final_gf"]
    assert text[0].startswith(f"The GF at the end: {gf['round_1']:.1f} in round 1")
    assert f"{gf['change']:+.1f} per table (95 % interval {gf['low']:+.1f} to" in text[0]
    assert text[1].startswith("Everybody lost at")
    ax = plot_rounds(first, second, "fossil")
    lines = {line.get_gid(): line for line in ax.get_lines()}
    pairs = summary.attrs["unpaired"]
    assert pairs == [{"group": "group-C", "reason": pairs[0]["reason"]}]
    for group in ("group-A", "group-B"):
        one = first[first["group"] == group].iloc[0]
        two = second[second["group"] == group].iloc[0]
        drawn = tuple(lines[f"pair-{group}"].get_ydata())
        assert drawn == tuple(float(sum(r[f"fossil_{s}"] for s in range(4))) for r in (one, two))
    assert "pair-group-C" not in lines and "pair-mean" in lines
    with pytest.raises(ValueError, match="measure must be one of"):
        plot_rounds(first, second, "luck")
    with pytest.raises(ValueError, match="describe_change needs"):
        describe_change(first)
