"""Make the documentation pictures docs/board-midgame.png, docs/footprint.png and
docs/facilitator/paired-rounds.png.

One seeded game with four RandomBots: the board is drawn at the start of turn 15,
then the same game is played to its end (``en.play``) for the footprint chart.
The bots use the random stream ``en.play`` would use, so the pictures are
reproducible. The paired chart of lesson 07's slides is drawn from lesson 07's example
class (``notebooks/class-example``, bots, not a real class). Run from anywhere:
``python docs/make_figures.py``; then ``python docs/build_worksheets.py`` prints the slides
that show them.
"""

from __future__ import annotations

import random
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

import energies as en
from energies import viz

SEED = 19  # a game whose turn 15 shows every piece kind: a city, both plant kinds, hazards
MIDGAME_TURN = 15
DOCS = Path(__file__).resolve().parent


def play_until(game: en.Game, bots, turn: int) -> None:
    """Let the bots act until ``turn`` begins (the loop of ``en.play`` with a stop)."""
    rng = random.Random(f"{game.seed}:bots:{len(game.actions)}")
    while not game.is_over and game.turn < turn:
        seat = game.current_seat
        game.apply(bots[seat].decide(game, game.legal_actions(), rng))


def missing_piece_kinds(game: en.Game) -> list[str]:
    """Piece kinds the board picture should show but the position lacks."""
    s = game.state
    plants = [kind for p in s.players for kind in p.plants.values()]
    have = {
        "city upgrade": sum(len(p.cities) for p in s.players) > len(s.players),
        "fossil plant": "fossil" in plants,
        "renewable plant": "renewable" in plants,
        "hex hazard": bool(s.hex_hazards),
        "building hazard": bool(s.building_hazards),
    }
    return [kind for kind, ok in have.items() if not ok]


def main() -> None:
    names = ["Ada", "Ben", "Chloé", "Dev"]
    game = en.new_game(players=4, seed=SEED, names=names)
    bots = [en.bots.RandomBot() for _ in names]
    play_until(game, bots, MIDGAME_TURN)

    missing = missing_piece_kinds(game)
    if missing:  # the engine changed since SEED was chosen: pick another one
        print(f"warning: seed {SEED} shows no {', '.join(missing)} on turn {MIDGAME_TURN}")
    fig, ax = plt.subplots(figsize=(9, 9))
    fig.subplots_adjust(left=0, right=1, bottom=0, top=1)
    viz.draw_board(game, ax=ax)
    fig.savefig(DOCS / "board-midgame.png", dpi=130)
    plt.close(fig)

    outcome = en.play(game, bots)
    fig, ax = plt.subplots(figsize=(12, 6), layout="constrained")
    viz.plot_footprint(game, ax=ax)
    fig.savefig(DOCS / "footprint.png", dpi=110)
    plt.close(fig)
    print(
        f"seed {SEED}: board at turn {MIDGAME_TURN}; game ended on turn {outcome.turn}: {outcome}"
    )


def paired_rounds() -> None:
    """Lesson 07's example class, each table's round 1 and round 2 (the 07 slides show it)."""
    from energies.classroom import collect, plot_rounds

    example = DOCS.parent / "notebooks" / "class-example"
    first, second = collect(example / "round1"), collect(example / "round2")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    plot_rounds(first, second, "final_gf", ax=left)
    plot_rounds(first, second, "fossil", ax=right)
    fig.suptitle("Example data made by bots (lesson 07's class-example), not a real class")
    fig.savefig(DOCS / "facilitator" / "paired-rounds.png", dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main()
    paired_rounds()
