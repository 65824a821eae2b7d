"""A group's game in a lesson: one call that sets up what a group plays at one laptop.

    app = en.widgets.group_app(1, ["Ana", "Ben", "Cleo"])   # lesson 02
    app = en.widgets.group_app(1, names, folder="round2")    # lesson 07, second round

The short classroom game (:meth:`energies.RuleSet.classroom`), the group's own seed (100 +
the group's number, so two groups never share a board and a group replays its board with the
same number), the students' names in the first seats and bots in the others, hot-seat without
proposal windows between the students (they talk across the table), and a save after every
move into the class folder, where lesson 07's ``collect`` reads it. A cell that runs again
plays on from the saved game instead of replacing it.

The class folder is ``class-games`` beside the notebook, or the folder named by the
environment variable ``ENERGIES_CLASS_FOLDER`` (a shared folder on a JupyterHub).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..kit.fields import show
from ..newenergies.game import new_game
from ..newenergies.rules import RuleSet
from .play import PlayApp

#: The environment variable naming the class folder (a folder the teacher shares).
CLASS_FOLDER_VARIABLE = "ENERGIES_CLASS_FOLDER"
#: The class folder when the variable is not set: beside the notebook.
DEFAULT_CLASS_FOLDER = "class-games"
#: Group ``n`` plays seed ``FIRST_SEED + n`` (the teacher guide's "group 1 → seed 101").
FIRST_SEED = 100
MAX_GROUP = 999
#: The bots that take the empty seats, in this order: with three students, one fossil bot
#: keeps the footprint rising, so the table meets the dilemma within one lesson.
SEAT_BOTS = (
    ("Fossil Fred", "FossilRush"),
    ("Green Grace", "GreenInvestor"),
    ("Balanced Bo", "Balanced"),
    ("Free Rider Flo", "FreeRider"),  # when a student is called Fossil Fred
)
PLAYERS = 4


def class_folder() -> Path:
    """Where the groups' games are saved: ``$ENERGIES_CLASS_FOLDER`` or ``./class-games``."""
    return Path(os.environ.get(CLASS_FOLDER_VARIABLE) or DEFAULT_CLASS_FOLDER).resolve()


def group_seed(group: int) -> int:
    """The seed of a group's game: its board, dice and discs (group 1 plays seed 101)."""
    return FIRST_SEED + _checked_group(group)


def group_app(group: int, names: Sequence[str], *, folder: str = "lesson02", **options) -> PlayApp:
    """The PlayApp of one group: ``names`` (1 to 4 students) play hot-seat, bots take the other
    seats, the short classroom game with seed 100 + ``group``, saved after every move to
    ``<class folder>/<folder>/group<group>.json``. ``options`` go to :class:`PlayApp`
    (for example ``propose_between_humans=True``)."""
    group = _checked_group(group)
    names = _checked_names(names)
    if (
        not isinstance(folder, str)
        or not folder.strip()
        or Path(folder).is_absolute()
        or ".." in Path(folder).parts
    ):
        raise ValueError(
            f"folder must be a folder name inside the class folder, not {show(folder)}."
        )
    taken = {n.strip().lower() for n in names}
    bots = [(name, bot) for name, bot in SEAT_BOTS if name.lower() not in taken]
    seats = {s: "human" for s in range(len(names))}
    seats.update({s: bot for s, (_name, bot) in enumerate(bots, start=len(names)) if s < PLAYERS})
    all_names = [*names, *(name for name, _bot in bots)][:PLAYERS]
    game = new_game(rules=RuleSet.classroom(), seed=group_seed(group), names=all_names)
    settings = {
        # the students ask a bot for a trade from the Trade tab when they want one: a window
        # in every bot turn would hand the laptop to each of them in turn (rule 12.1)
        "ask_on_bot_turns": False,
        "auto_bots": True,  # the bot plays its turn when a student ends theirs: one click less
        "save_dir": class_folder() / folder.strip(),
        "autosave": f"group{group}.json",
        **options,
    }
    return PlayApp(game, seats, **settings)


def _checked_group(group) -> int:
    if type(group) is not int or not 1 <= group <= MAX_GROUP:  # no bool, no 1.0
        raise ValueError(f"group must be a whole number from 1 to {MAX_GROUP}, not {show(group)}.")
    return group


def _checked_names(names) -> list[str]:
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise ValueError(
            f'names must be a list of 1 to {PLAYERS} names, e.g. ["Ana", "Ben"], not {show(names)}.'
        )
    if not 1 <= len(names) <= PLAYERS:
        raise ValueError(f"names must hold 1 to {PLAYERS} names, not {len(names)}.")
    if not all(isinstance(n, str) for n in names):
        raise ValueError(f"every name must be a text, not {show(list(names))}.")
    seen: set[str] = set()
    for name in names:  # "Pass the laptop to Ana" must name one player
        key = name.strip().lower()
        if key in seen:
            raise ValueError(f"two players are named {name.strip()!r}: give each their own name.")
        seen.add(key)
    return list(names)
