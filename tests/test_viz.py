"""Tests for energies.viz: the board picture and the footprint, hand, plant and outcome charts.

Artists are found by their gid (see the viz module docstring), so the tests check
what is drawn, not how it looks. Rule numbers name what a drawn thing stands for.
"""

from __future__ import annotations

import io
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from energies.actions import (
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    ChooseHex,
    DemolishFossil,
    EndTurn,
    MoveInspector,
    PlaceHazard,
    RemoveHazard,
    RollDice,
)
from matplotlib.colors import to_hex, to_rgb
from matplotlib.figure import Figure

import energies as en
from energies import sandbox as sb
from energies import viz
from energies.newenergies.board import PIPS

NAMES = ["Ada", "Ben", "Chloé", "Dev"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def gids(root, prefix: str) -> dict[str, object]:
    """Artists under ``root`` (Axes or Figure) whose gid starts with ``prefix``, by gid."""
    found = root.findobj(lambda a: (a.get_gid() or "").startswith(prefix))
    return {a.get_gid(): a for a in found}


def board_axes(game, **kw):
    fig = Figure(figsize=(7, 7))
    ax = fig.add_axes((0, 0, 1, 1))
    assert viz.draw_board(game, ax=ax, **kw) is ax
    return ax


def corner_with_numbered_hexes(board, k: int, avoid=()) -> int:
    """A corner touching ``k`` numbered hexes, not next to or on a corner in ``avoid``."""
    for c in board.corners:
        hexes = board.corner_hexes(c)
        numbered = len(hexes) == k and all(board.hexes[h].number for h in hexes)
        if numbered and c not in avoid and not set(board.corner_neighbors(c)) & set(avoid):
            return c
    raise AssertionError("no such corner")


@pytest.fixture
def position():
    """An empty island (sandbox) with one of every piece: town, city, roads, both plant
    kinds, a hex hazard, a building hazard and the Inspector moved (rules 7, 9.2, 10)."""
    g = en.new_game(seed=1, names=NAMES)
    sb.clear_board(g)
    b = g.board
    city = corner_with_numbered_hexes(b, 3)
    town = corner_with_numbered_hexes(b, 3, avoid=(city,))
    sb.place(g, 0, "town", town)
    sb.place(g, 1, "city", city)
    roads = {0: b.corner_paths(town)[:2], 1: b.corner_paths(city)[:1]}
    for seat, paths in roads.items():
        for p in paths:
            sb.place(g, seat, "road", p)
    h_town, h_city = b.corner_hexes(town)[0], b.corner_hexes(city)
    sb.place_plant(g, 0, "renewable", town, h_town)
    sb.place_plant(g, 1, "fossil", city, h_city[0])
    sb.place_plant(g, 1, "renewable", city, h_city[1])
    hazard_hex = next(h for h in range(19) if h not in (h_town, *h_city, g.state.inspector))
    sb.add_hazard(g, hex=hazard_hex)
    sb.add_hazard(g, building=city)
    inspector = next(h for h in range(19) if h not in (hazard_hex, g.state.inspector))
    sb.move_inspector(g, inspector)
    return g, {
        "town": town,
        "city": city,
        "roads": roads,
        "h_town": h_town,
        "h_city": h_city,
        "hazard_hex": hazard_hex,
        "inspector": inspector,
    }


def midgame(seed: int = 16, turn: int = 15):
    """A RandomBot game stopped at the start of ``turn`` (the loop of en.play)."""
    import random

    g = en.new_game(seed=seed, names=NAMES)
    bots = [en.bots.RandomBot() for _ in NAMES]
    rng = random.Random(f"{seed}:bots:0")
    while not g.is_over and g.turn < turn:
        g.apply(bots[g.current_seat].decide(g, g.legal_actions(), rng))
    return g


# -- the board ---------------------------------------------------------------------------------


def test_rule_1_board_has_19_hex_patches_coloured_and_named_by_terrain():
    g = en.new_game(seed=3)
    ax = board_axes(g)
    hexes = gids(ax, "hex-")
    assert sorted(hexes) == sorted(f"hex-{h}" for h in range(19))
    labels = gids(ax, "label-")
    for hx in g.board.hexes:
        assert (
            to_hex(hexes[f"hex-{hx.id}"].get_facecolor()) == viz.TERRAIN_COLORS[hx.terrain].lower()
        )
        # colour is never the only cue: every hex names its terrain (colour-blind students)
        assert labels[f"label-{hx.id}"].get_text() == viz.TERRAIN_LABELS[hx.terrain]


def test_terrain_and_seat_palettes_are_distinct():
    assert len(set(viz.TERRAIN_COLORS.values())) == 6
    assert len(set(viz.SEAT_COLORS)) == 4
    assert not set(viz.SEAT_COLORS) & set(viz.PLANT_COLORS.values())


def is_red(color) -> bool:
    r, g, b = to_rgb(color)
    return r > 0.6 and g < 0.3 and b < 0.3


@pytest.mark.parametrize("layout", ["beginner", "random"])
def test_rule_2_2_one_token_per_numbered_hex_with_red_6_and_8_and_pips(layout):
    rules = en.RuleSet.standard(4, layout=layout)
    g = en.new_game(seed=5, rules=rules)
    ax = board_axes(g)
    tokens, numbers = gids(ax, "token-"), gids(ax, "token-number-")
    numbered = [hx for hx in g.board.hexes if hx.number is not None]
    assert len(numbered) == 18
    assert sorted(numbers) == sorted(f"token-number-{hx.id}" for hx in numbered)
    assert len(tokens) - len(numbers) == 18  # one token circle per numbered hex
    for hx in numbered:
        text = numbers[f"token-number-{hx.id}"]
        assert text.get_text() == str(hx.number)
        assert is_red(text.get_color()) == (hx.number in (6, 8))
    pips = gids(ax, "pips")["pips"]
    assert len(pips.get_offsets()) == sum(PIPS[hx.number] for hx in numbered)
    red_pips = sum(is_red(c) for c in pips.get_facecolors())
    assert red_pips == sum(PIPS[hx.number] for hx in numbered if hx.number in (6, 8))


def test_rule_1_harbors_show_their_rate():
    g = en.new_game(seed=2)
    ax = board_axes(g)
    texts = gids(ax, "harbor-")
    assert len(texts) == len(g.board.harbors) == 9
    for hb in g.board.harbors:
        want = "3:1" if hb.resource is None else f"2:1\n{hb.resource}"
        assert texts[f"harbor-{hb.id}"].get_text() == want


def test_quick_start_roads_towns_and_cities_in_seat_colours():
    g = en.new_game(seed=7, names=NAMES)
    ax = board_axes(g)
    roads = gids(ax, "road-")
    state = g.state
    assert len(roads) == sum(len(p.roads) for p in state.players) == 8
    for p in state.players:
        for path in p.roads:
            assert to_hex(roads[f"road-{path}"].get_color()) == viz.SEAT_COLORS[p.seat].lower()
        for kind, corners in (("town", p.towns), ("city", p.cities)):
            for c in corners:
                art = gids(ax, f"{kind}-{c}")[f"{kind}-{c}"]
                assert to_hex(art.get_facecolor()) == viz.SEAT_COLORS[p.seat].lower()
    assert len(gids(ax, "town-")) == 4 and len(gids(ax, "city-")) == 4


def test_legend_names_the_seats_of_a_game():
    ax = board_axes(en.new_game(seed=7, names=NAMES))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:4] == NAMES
    assert {"town", "city", "fossil plant", "renewable plant", "hazard", "Inspector"} <= set(labels)


@pytest.mark.parametrize(
    "piece",
    ["town", "city", "road", "fossil", "renewable", "hex_hazard", "building_hazard", "inspector"],
)
def test_every_piece_kind_is_drawn(position, piece):
    """Rules 7.2/7.3 (hazards), 9.2 (Inspector), 10.1-10.2 (buildings, roads, plants)."""
    g, at = position
    ax = board_axes(g)
    want = {
        "town": [f"town-{at['town']}"],
        "city": [f"city-{at['city']}"],
        "road": [f"road-{p}" for paths in at["roads"].values() for p in paths],
        "fossil": [f"plant-fossil-{at['city']}-{at['h_city'][0]}"],
        "renewable": [
            f"plant-renewable-{at['town']}-{at['h_town']}",
            f"plant-renewable-{at['city']}-{at['h_city'][1]}",
        ],
        "hex_hazard": [f"hazard-hex-{at['hazard_hex']}"],
        "building_hazard": [f"hazard-building-{at['city']}"],
        "inspector": ["inspector"],
    }[piece]
    prefix = {
        "town": "town-",
        "city": "city-",
        "road": "road-",
        "fossil": "plant-fossil-",
        "renewable": "plant-renewable-",
        "hex_hazard": "hazard-hex-",
        "building_hazard": "hazard-building-",
        "inspector": "inspector",
    }[piece]
    drawn = {k for k in gids(ax, prefix) if not k.endswith("-mark")}
    assert drawn == set(want)


def test_plants_sit_between_their_building_and_their_hex(position):
    """Rule 10.2: a plant belongs to a building and stands on an adjacent hex."""
    g, _at = position
    ax = board_axes(g)
    b = g.board
    for (c, h), kind in g.state.players[1].plants.items():
        art = gids(ax, f"plant-{kind}-{c}-{h}")[f"plant-{kind}-{c}-{h}"]
        x, y = art.get_path().transformed(art.get_patch_transform()).vertices.mean(axis=0)
        (cx, cy), (hx, hy) = b.corner_positions[c], b.hexes[h].center
        assert np.hypot(x - cx, y - cy) < np.hypot(x - hx, y - hy)  # nearer its building
        assert np.hypot(hx - x, hy - y) < 1.0  # and inside its hex


def test_inspector_is_drawn_on_its_hex(position):
    g, at = position
    art = gids(board_axes(g), "inspector")["inspector"]
    x, y = art.get_path().vertices.mean(axis=0)
    nearest = min(range(19), key=lambda h: np.hypot(*np.subtract(g.board.hexes[h].center, (x, y))))
    assert nearest == at["inspector"] == g.state.inspector


def test_title_shows_turn_gf_and_discs_of_rule_4_3(position):
    g, _ = position
    title = gids(board_axes(g), "title")["title"].get_text()
    gf = g.global_footprint
    assert f"Turn {g.turn}" in title and f"GF {gf}" in title
    assert f"draws {g.rules.discs_to_draw(gf)} disc" in title


def test_draw_board_accepts_a_game_state():
    g = en.new_game(seed=4)
    ax = board_axes(g.state)
    assert len(gids(ax, "hex-")) == 19
    assert [t.get_text() for t in ax.get_legend().get_texts()][:4] == [
        f"Seat {s}" for s in range(4)
    ]


def test_draw_board_without_ax_makes_a_figure_and_renders():
    ax = viz.draw_board(en.new_game(seed=4))
    buf = io.BytesIO()
    ax.figure.savefig(buf, format="png")
    assert buf.getvalue().startswith(b"\x89PNG")


@pytest.mark.parametrize("players, start", [(3, "quick"), (4, "draft")])
def test_board_of_a_3_player_or_draft_game(players, start):
    """Rule 3: a draft start has no pieces yet; 3 players get 3 seat colours."""
    g = en.new_game(players=players, seed=2, start=start)
    ax = board_axes(g)
    assert len(gids(ax, "hex-")) == 19
    towns = sum(len(p.towns) for p in g.state.players)
    assert len(gids(ax, "town-")) == towns == (players if start == "quick" else 0)
    assert len(ax.get_legend().get_texts()) == players + 6


def test_draw_board_rejects_other_objects():
    with pytest.raises(TypeError):
        viz.draw_board("a board")


# -- highlight ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action, expected",
    [
        (BuildTown(0, 5), {"highlight-corner-5"}),
        (BuildCity(0, 9), {"highlight-corner-9"}),
        (PlaceHazard(0, 12), {"highlight-corner-12"}),
        (BuildRoad(0, 40), {"highlight-path-40"}),
        (MoveInspector(0, 3), {"highlight-hex-3"}),
        (ChooseHex(0, 7), {"highlight-hex-7"}),
        (BuildPlant(0, "renewable", 8, 4), {"highlight-hex-4", "highlight-plant-8-4"}),
        (DemolishFossil(0, 8, 4), {"highlight-hex-4", "highlight-plant-8-4"}),
        (RemoveHazard(0, "hex", 6), {"highlight-hex-6"}),
        (RemoveHazard(0, "building", 6), {"highlight-corner-6"}),
        (EndTurn(0), set()),
        (("path", 2), {"highlight-path-2"}),
        (("hex", 18), {"highlight-hex-18"}),
        (11, {"highlight-corner-11"}),
    ],
)
def test_highlight_marks_the_place_of_each_action(action, expected):
    ax = board_axes(en.new_game(seed=1), highlight=[action])
    assert set(gids(ax, "highlight-")) == expected


def test_highlight_legal_inspector_moves_after_a_7(position):
    """Rule 9.2: after a 7 the Inspector goes to another hex without a hazard."""
    g, at = position
    sb.fix_dice(g, 3, 4)
    g.apply(RollDice(g.active_seat))
    legal = g.legal_actions()
    assert legal and all(isinstance(a, MoveInspector) for a in legal)
    ax = board_axes(g, highlight=legal)
    drawn = set(gids(ax, "highlight-hex-"))
    assert drawn == {f"highlight-hex-{a.hex}" for a in legal}
    assert f"highlight-hex-{at['hazard_hex']}" not in drawn
    assert f"highlight-hex-{g.state.inspector}" not in drawn


def test_highlight_dict_and_bad_pair():
    ax = board_axes(en.new_game(seed=1), highlight={"corners": [1], "paths": [2], "hexes": [3]})
    assert set(gids(ax, "highlight-")) == {
        "highlight-corner-1",
        "highlight-path-2",
        "highlight-hex-3",
    }
    with pytest.raises(ValueError):
        viz.highlight_targets([("edge", 3)])


# -- board_png ---------------------------------------------------------------------------------


def decode(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float)


def test_board_png_returns_png_bytes_and_leaves_no_figure_open():
    g = en.new_game(seed=7, names=NAMES)
    before = plt.get_fignums()
    png = viz.board_png(g, figsize=(5, 5), dpi=80)
    assert png.startswith(b"\x89PNG")
    assert decode(png).shape == (400, 400, 3)
    assert plt.get_fignums() == before


def test_board_png_matches_draw_board(position):
    """The cached static layer plus the pieces is the picture draw_board makes."""
    g, _ = position
    png = viz.board_png(g, figsize=(6, 6), dpi=72)
    fig = Figure(figsize=(6, 6), dpi=72)
    ax = fig.add_axes((0, 0, 1, 1))
    viz.draw_board(g, ax=ax)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72)
    diff = np.abs(decode(png) - decode(buf.getvalue()))
    assert diff.mean() < 0.5  # anti-aliasing may differ by a level here and there


def test_board_png_follows_the_game(position):
    g, at = position
    first = viz.board_png(g, figsize=(5, 5), dpi=60)
    sb.remove_hazard(g, hex=at["hazard_hex"])
    second = viz.board_png(g, figsize=(5, 5), dpi=60)
    assert first != second
    third = viz.board_png(g, highlight=[BuildTown(0, 0)], figsize=(5, 5), dpi=60)
    assert third != second


def test_draw_board_is_fast_enough_for_a_widget_click():
    """Timing only (printed, never asserted): run with -s to see the numbers."""
    g = midgame()
    legal = g.legal_actions()
    viz.board_png(g)  # warm the static-layer cache and the font cache
    timings = {}
    for name, draw in [
        ("board_png (cached static layer)", lambda: viz.board_png(g, highlight=legal)),
        ("draw_board into an Axes", lambda: board_axes(g, highlight=legal)),
        ("draw_board + full render", lambda: board_axes(g).figure.savefig(io.BytesIO())),
    ]:
        runs = []
        for _ in range(3):
            t = time.perf_counter()
            draw()
            runs.append(time.perf_counter() - t)
        timings[name] = min(runs) * 1000
    print("\n" + "\n".join(f"  {k}: {v:.0f} ms" for k, v in timings.items()))


# -- charts over a game ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished():
    g = en.new_game(seed=1, names=NAMES)
    en.play(g, [en.bots.RandomBot() for _ in NAMES])
    return g


def lines_by_gid(ax, prefix):
    return {line.get_gid(): line for line in ax.lines if (line.get_gid() or "").startswith(prefix)}


def band_span(patch) -> tuple[float, float]:
    ys = patch.get_path().transformed(patch.get_patch_transform()).vertices[:, 1]
    return float(ys.min()), float(ys.max())


@pytest.mark.parametrize("form", ["game", "frame", "records"])
def test_rule_4_footprint_chart_one_lf_line_per_seat_and_the_gf(finished, form):
    """Rules 4.1/4.2: LF per seat and GF from the per-turn history, whatever its form."""
    history = {"game": finished, "frame": finished.history_frame(), "records": finished.history}[
        form
    ]
    ax = viz.plot_footprint(history)
    lf = lines_by_gid(ax, "lf-")
    assert sorted(lf) == [f"lf-{s}" for s in range(4)]
    records = pd.DataFrame(finished.history)
    for s in range(4):
        rows = records[records.seat == s].sort_values("turn")
        np.testing.assert_array_equal(lf[f"lf-{s}"].get_ydata(), rows["lf"].to_numpy())
        assert to_hex(lf[f"lf-{s}"].get_color()) == viz.SEAT_COLORS[s].lower()
    gf = lines_by_gid(ax, "gf")["gf"]
    assert gf.get_linewidth() > lf["lf-0"].get_linewidth()
    per_turn = records.groupby("turn")["gf"].first()
    np.testing.assert_array_equal(gf.get_ydata(), per_turn.to_numpy())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == (
        "Seat 0 LF" if form == "records" else f"{NAMES[0]} LF"
    )  # records lack names


@pytest.mark.parametrize("players", [4, 3])
def test_rule_4_3_footprint_chart_shades_the_disc_bands(players):
    g = en.new_game(players=players, seed=2)
    en.play(g, [en.bots.RandomBot() for _ in range(players)])
    rules = en.RuleSet.standard(players)
    for history in (g, g.history_frame()):  # a frame alone: bands inferred from the seats
        ax = viz.plot_footprint(history, events=[])
        bands = gids(ax, "band-")
        spans = [band_span(bands[f"band-{i}"]) for i in range(len(rules.disc_bands))]
        assert spans == [(lo - 0.5, hi + 0.5) for lo, hi, _ in rules.disc_bands]
        (axis,) = [a for a in ax.child_axes if a.get_gid() == "disc-bands"]
        labels = [t.get_text() for t in axis.get_yticklabels()]
        low, high, discs = rules.disc_bands[1]  # the band every game starts in (rule 3.5)
        assert f"{discs} disc\n(GF {low}–{high})" in labels


def test_footprint_chart_marks_each_event(finished):
    """Rule 6.2: a row that fills fires its event; each firing gets a mark."""
    assert finished.events, "this seeded game should have fired events"
    for events in (None, finished.events_frame()):
        ax = viz.plot_footprint(finished, events=events)
        marks = [k for k in gids(ax, "event-mark-")]
        assert len(marks) == len(finished.events)
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    assert {
        en.actions.pretty(e["event"]) for e in finished.events if e["color"] == "brown"
    } <= legend
    ax = viz.plot_footprint(finished.history_frame())  # no events given: none drawn
    assert not gids(ax, "event-mark-")


def test_footprint_chart_draws_into_the_given_axes(finished):
    _fig, (a, b) = plt.subplots(1, 2)
    assert viz.plot_footprint(finished, ax=b) is b
    assert lines_by_gid(b, "lf-") and not a.lines


def test_charts_with_an_empty_history_say_so():
    for plot in (viz.plot_footprint, viz.plot_resources, viz.plot_plants):
        ax = plot([])
        assert "No turns recorded" in ax.texts[0].get_text()


def test_rule_9_1_hand_chart_shows_hand_size_and_the_discard_limit(finished):
    ax = viz.plot_resources(finished)
    records = pd.DataFrame(finished.history)
    lines = lines_by_gid(ax, "hand_size-")
    assert len(lines) == 4
    for s in range(4):
        want = records[records.seat == s].sort_values("turn")["hand_size"].to_numpy()
        np.testing.assert_array_equal(lines[f"hand_size-{s}"].get_ydata(), want)
    limit = lines_by_gid(ax, "discard-limit")["discard-limit"]
    assert limit.get_ydata()[0] == finished.rules.discard_threshold
    _fig, ax2 = plt.subplots()
    assert viz.plot_resources(finished.history_frame(), ax=ax2, column="energy") is ax2
    assert len(lines_by_gid(ax2, "energy-")) == 4


def test_plant_chart_renewable_solid_fossil_dashed(finished):
    """Rule 10: plants per seat over the game (lines nudged apart, counts round back)."""
    ax = viz.plot_plants(finished.history)
    records = pd.DataFrame(finished.history)
    for kind, style in (("renewable", "-"), ("fossil", "--")):
        lines = lines_by_gid(ax, f"{kind}-")
        assert len(lines) == 4
        for s in range(4):
            line = lines[f"{kind}-{s}"]
            assert line.get_linestyle() == style
            want = records[records.seat == s].sort_values("turn")[kind].to_numpy()
            np.testing.assert_array_equal(np.round(line.get_ydata()), want)


# -- simulation outcomes -----------------------------------------------------------------------


def results_frame(games: list[tuple[str, str, tuple[int, ...]]]) -> pd.DataFrame:
    """A simulate()-like frame by hand: (lineup, outcome kind, winners) per game."""
    rows = []
    for lineup, outcome, winners in games:
        bots = lineup.split(",")
        rows.append(
            {
                "lineup": lineup,
                "outcome": outcome,
                "winners": winners,
                **{f"bot_{s}": b for s, b in enumerate(bots)},
            }
        )
    return pd.DataFrame(rows)


LINEUP_A = "fossil,green,balanced,random"
LINEUP_B = "random,random,random,random"
GAMES = [
    (LINEUP_A, "victory_points", (1,)),
    (LINEUP_A, "victory_points", (1,)),
    (LINEUP_A, "empty_bag", (2,)),
    (LINEUP_A, "everyone_loses", ()),
    (LINEUP_B, "victory_points", (0,)),
    (LINEUP_B, "unfinished", ()),
]


def test_outcome_bars_show_the_share_of_each_ending_per_lineup():
    """Rule 14: games end by victory points, empty bag or everyone losing."""
    frame = results_frame(GAMES)
    fig, ax = plt.subplots()
    assert viz.plot_outcomes(frame, ax=ax) is ax
    assert fig.axes == [ax]  # a given Axes gets the outcome bars only
    bars = gids(ax, "outcome-")
    width = {k: round(b.get_width(), 6) for k, b in bars.items() if k.count("-") == 2}
    # line-up A is drawn first (row 0): 2 of 4 by VP, 1 empty bag, 1 everyone loses
    assert width["outcome-victory_points-0"] == 0.5
    assert width["outcome-empty_bag-0"] == 0.25
    assert width["outcome-everyone_loses-0"] == 0.25
    assert width["outcome-victory_points-1"] == 0.5
    assert width["outcome-unfinished-1"] == 0.5
    for row in (0, 1):  # the stacked shares of each line-up fill the bar
        assert sum(w for k, w in width.items() if k.endswith(f"-{row}")) == pytest.approx(1.0)


def test_win_rate_per_bot_counts_seats_played():
    frame = results_frame(GAMES)
    rates = viz.win_rates(frame)
    assert rates.loc["green", "seats"] == 4 and rates.loc["green", "wins"] == 2
    assert rates.loc["random", "seats"] == 4 + 2 * 4 and rates.loc["random", "wins"] == 1
    assert rates.loc["balanced", "win_rate"] == pytest.approx(0.25)
    assert rates.loc["fossil", "win_rate"] == 0
    ax = viz.plot_outcomes(frame)
    assert len(ax.figure.axes) == 2
    panel = ax.figure.axes[1]
    assert [t.get_text() for t in panel.get_yticklabels()] == list(rates.index)


def test_win_rates_read_winners_saved_as_text():
    frame = results_frame(GAMES)
    frame["winners"] = frame["winners"].astype(str)  # e.g. after a CSV round trip
    assert viz.win_rates(frame).loc["green", "wins"] == 2


def test_a_persona_has_one_colour_in_every_chart():
    """The outcome chart's win-rate bars, the payoff chart and the strong players' chart draw
    each persona in the palette's colour, so FossilRush is the same colour everywhere."""
    from energies.insight import plot_payoff, plot_strong_players

    frame = results_frame(GAMES)
    panel = viz.plot_outcomes(frame).figure.axes[1]
    bars = [p for p in panel.patches if p.get_gid() is None or p.get_gid() == "win-rate"]
    shown = [t.get_text() for t in panel.get_yticklabels()]
    outcome_colour = {bot: to_hex(bar.get_facecolor()) for bot, bar in zip(shown, bars)}
    payoff = pd.DataFrame(
        {
            "k": [0, 1, 2, 3, 4],
            "win_rate_fossil": [np.nan, 0.1, 0.2, 0.3, 0.25],
            "win_rate_green": [0.25, 0.3, 0.3, 0.3, np.nan],
            "everyone_loses": [0.0, 0.0, 0.0, 0.1, 0.2],
            "games": [10] * 5,
        }
    )
    payoff.attrs.update(personas=("fossil", "green"), players=4)
    lines = {line.get_gid(): line for line in plot_payoff(payoff).get_lines()}
    payoff_colour = {
        "fossil": to_hex(lines["payoff-a"].get_color()),
        "green": to_hex(lines["payoff-b"].get_color()),
    }
    for bot in ("fossil", "green"):
        assert outcome_colour[bot] == payoff_colour[bot] == viz.persona_color(bot).lower()
    assert outcome_colour["fossil"] != outcome_colour["green"] != outcome_colour["balanced"]
    assert outcome_colour["random"] == viz.PERSONA_COLORS["random"].lower()
    strong = plot_strong_players(players=4)
    legend = {
        t.get_text(): h
        for t, h in zip(strong.get_legend().texts, strong.get_legend().legend_handles)
    }
    assert (
        to_hex(legend["fossil only"].get_facecolor()) == viz.persona_color("search-fossil").lower()
    )
    assert (
        to_hex(legend["renewable only"].get_facecolor())
        == viz.persona_color("search-green").lower()
    )


def test_persona_colours_are_distinct_and_names_are_forgiving():
    assert len(set(viz.PERSONA_COLORS.values())) == len(viz.PERSONA_COLORS)
    assert set(viz.PERSONA_COLORS) == set(viz.PERSONA_LABELS)
    assert viz.persona_color("FossilRush") == viz.persona_color(" fossil ") == "#D55E00"
    assert viz.persona_color("GreenInvestor") == viz.persona_color("green")
    mine = viz.persona_color("MyBot")  # a student's bot: the same colour every time
    assert mine in viz.OTHER_BOT_COLORS and viz.persona_color("mybot") == mine
    assert not set(viz.OTHER_BOT_COLORS) & set(viz.PERSONA_COLORS.values())
    # an outcome chart and a persona win-rate chart share a figure: no colour means both
    assert not set(viz.OUTCOME_COLORS.values()) & set(viz.PERSONA_COLORS.values())
    assert not set(viz.OUTCOME_COLORS.values()) & set(viz.OTHER_BOT_COLORS)
    with pytest.raises(ValueError, match="string"):
        viz.persona_color(3)


def test_outcome_chart_needs_lineup_and_outcome():
    with pytest.raises(ValueError, match="lineup"):
        viz.plot_outcomes(pd.DataFrame({"outcome": ["empty_bag"]}))
    with pytest.raises(ValueError, match="no rows"):
        viz.plot_outcomes(pd.DataFrame(columns=["lineup", "outcome", "winners"]))


# -- packaging ---------------------------------------------------------------------------------


def test_import_energies_does_not_import_matplotlib():
    code = "import sys, energies, energies.viz; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_module_docstring_first_line_says_what_it_owns():
    first = viz.__doc__.strip().splitlines()[0]
    assert "board" in first and "footprint" in first
