"""ShelfieGame: one seeded game of My Shelfie Dice on the kit's game contract."""

from __future__ import annotations

from fractions import Fraction

from ...kit.shell import CompanionGame
from . import engine
from .actions import CODEC
from .rules import ShelfieRules


class ShelfieGame(CompanionGame):
    """A game of My Shelfie Dice. Create it with :func:`energies.games.shelfie.new_game`."""

    NAME = "shelfie"
    TITLE = "My Shelfie Dice"
    FORMAT = "energies-shelfie"
    RULES = ShelfieRules
    ENGINE = engine
    CODEC = CODEC

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice on the table (sorted faces; the joker is ``rules.joker``)."""
        return self.state.dice

    def score(self, seat: int) -> int:
        """Points of ``seat`` now (rule 3.2)."""
        return self.state.score(self.checked_seat(seat))

    def scores(self) -> list[int]:
        return [self.state.score(s) for s in range(self.rules.players)]

    def chance_outcomes(self, action) -> list[tuple[tuple[int, ...], Fraction]]:
        """The chance node of a re-roll: every resulting set of dice with its probability."""
        return engine.chance_outcomes(self.state, action)

    def summary_row(self) -> dict:
        """Per-seat columns for :func:`energies.simulate` (score and circled items)."""
        row = {}
        for seat in range(self.rules.players):
            row[f"score_{seat}"] = self.state.score(seat)
            row[f"circled_{seat}"] = sum(r.count(1) for r in self.state.shelves[seat])
        return row

    def draw(self, ax=None, seats=None):
        """The shelves and the dice as a matplotlib picture; returns the Axes."""
        from .draw import draw_game

        if seats is not None:  # seat 9 raised IndexError halfway through the picture
            if isinstance(seats, (str, bytes)) or not hasattr(seats, "__iter__"):
                raise ValueError(f"seats must be a list of seats, not {seats!r}.")
            seats = [self.checked_seat(seat) for seat in seats]
        return draw_game(self, ax=ax, seats=seats)

    def _repr_png_(self) -> bytes:
        from .draw import game_png

        return game_png(self)


def new_game(
    players: int | None = None,
    seed: int = 0,
    rules: ShelfieRules | None = None,
    names=None,
    lang: str | None = None,
) -> ShelfieGame:
    """Start a game: 1 to 6 players (default 2, or the rules' count) and a seed."""
    if rules is None:
        rules = ShelfieRules(players=2 if players is None else players)
    elif players is not None and players != rules.players:
        raise ValueError(f"players={players} does not match the rules ({rules.players} players).")
    return ShelfieGame(rules, seed, names, lang)


def load_game(text: str | bytes, trust_rules: bool = False) -> ShelfieGame:
    """Load a saved game of My Shelfie Dice (replays it and checks the digest).

    A version-1 file (earlier releases: its digest does not cover its rules) loads when its
    rules are the default ones for its player count, or with ``trust_rules=True``.
    """
    return ShelfieGame.from_json(text, trust_rules)
