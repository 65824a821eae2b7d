"""The ``energies`` command's argument types and checks (the commands: :mod:`energies.cli`).

Each bad argument becomes a :class:`UsageError`: one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import os

from ..kit import registry
from ..kit.text import printable
from ..runner.arguments import seat_counts


class UsageError(Exception):
    """A bad argument: reported as one line on stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr instead of the usage block."""

    def error(self, message: str):
        raise UsageError(message)


# -- argument types -------------------------------------------------------------------------------


MAX_SEED = 2**63 - 1  # what Game accepts
MAX_GAMES = 1_000_000  # simulate keeps one row per game in memory


def whole_number(minimum: int, maximum: int):
    """An argparse type: a whole number from ``minimum`` to ``maximum``."""

    def parse(text: str) -> int:
        if len(text) > 40:  # int() of a huge text is slow, and no count here is that long
            raise argparse.ArgumentTypeError(f"must be at most {maximum:,}")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number, not {printable(repr(text))}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum:,}, not {value:,}")
        return value

    return parse


games_count = whole_number(1, MAX_GAMES)
jobs_count = whole_number(1, 10**6)  # capped to the machine by _capped_jobs, with a note
seed_number = whole_number(0, MAX_SEED)


#: What --out may end in: pandas writes a .csv (compressed as its ending says) or a .parquet.
TABLE_ENDINGS = (".csv", ".csv.gz", ".csv.bz2", ".csv.zip", ".csv.xz", ".csv.zst", ".parquet")


def file_name(text: str) -> str:
    """An argparse type: a file name that is not empty (an empty one would be skipped silently)."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file name, not an empty text")
    return text


def table_file_name(text: str) -> str:
    """An argparse type for --out: a file name ending as TABLE_ENDINGS says.

    Any other ending would get CSV text under a misleading name (a .xlsx, or a .json that
    may be a save file about to be overwritten).
    """
    if not file_name(text).lower().endswith(TABLE_ENDINGS):
        ending = os.path.splitext(text)[1] or "no ending"
        raise argparse.ArgumentTypeError(
            f"must end in .csv or .parquet (e.g. results.csv), not {printable(ending)}"
        )
    return text


def check_players(spec, players: int | None) -> None:
    low, high = spec.players
    if players is not None and not low <= players <= high:
        raise UsageError(f"--players must be {seat_counts(spec)} for {spec.title}, not {players}")


def lineup(bots: str | None, players: int | None, game: str = registry.DEFAULT_GAME) -> list[str]:
    """The bot names of --bots, one per seat; a single name with --players fills every seat."""
    spec = registry.get(game)
    low, high = spec.players
    seats = seat_counts(spec)
    check_players(spec, players)
    if bots is None:  # default: random bots, one per seat
        bots = ",".join(["random"] * (players or spec.default_players))
    names = [part.strip() for part in bots.split(",")]
    if any(not name for name in names):
        raise UsageError(f"--bots has an empty name in {bots!r} (check the commas)")
    if len(names) == 1 and players is not None:
        names = names * players
    if players is not None and len(names) != players:
        raise UsageError(f"--bots names {len(names)} bots but --players is {players}")
    if not low <= len(names) <= high:
        raise UsageError(f"--bots needs {seats} bot names, one per seat, not {len(names)}")
    for name in names:
        try:
            spec.make_bot(name)
        except ValueError as exc:
            raise UsageError(str(exc).rstrip(".")) from None
    return names


def seconds(minimum: float, maximum: float):
    """An argparse type: a number of seconds from ``minimum`` to ``maximum``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of seconds, not {printable(repr(text))}"
            ) from None
        if not minimum <= value <= maximum:  # NaN fails both
            raise argparse.ArgumentTypeError(f"must be {minimum:g} to {maximum:g} seconds")
        return value

    return parse


def seat_plan(text: str) -> list[str]:
    """An argparse type for ``serve --seats``: 3 or 4 entries, each 'student' or a bot name."""
    seats = [part.strip() for part in text.split(",")]
    if len(seats) not in (3, 4):
        raise argparse.ArgumentTypeError(f"name 3 or 4 seats, not {len(seats)}")
    spec = registry.get(registry.DEFAULT_GAME)
    for seat in seats:
        if seat == "student":
            continue
        try:
            spec.make_bot(seat)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None
    if all(seat != "student" for seat in seats):
        raise argparse.ArgumentTypeError("leave at least one seat for a student")
    return seats


def language_code(text: str) -> str:
    """An argparse type for ``serve --lang``: one of the kit's languages ("zh_hant" reads as
    "zh-Hant")."""
    from ..kit.i18n import LANGUAGES, check_language

    try:
        return check_language(text)
    except ValueError:
        names = ", ".join(LANGUAGES)
        raise argparse.ArgumentTypeError(
            f"the class's language is one of {names}, not {printable(repr(text))}"
        ) from None
