"""NoclearGame: one seeded game of Noclear on the kit's game contract."""

from __future__ import annotations

from ...kit.shell import CompanionGame
from . import engine
from .actions import CODEC
from .cards import Deck
from .rules import NoclearRules


class NoclearGame(CompanionGame):
    """A game of Noclear. Create it with :func:`energies.games.noclear.new_game`."""

    NAME = "noclear"
    TITLE = "Noclear"
    FORMAT = "energies-noclear"
    RULES = NoclearRules
    ENGINE = engine
    CODEC = CODEC

    @property
    def cards(self) -> Deck:
        """The deck data: machines by id, uranium cards, design notes."""
        return self.state.cards

    def uranium(self, seat: int) -> int:
        """Uranium cards ``seat`` holds (rule 3.1: most wins)."""
        return self.state.uranium_count(self.checked_seat(seat))

    def energy(self, seat: int) -> tuple[int, int]:
        """(blue, orange) energy on ``seat``'s board."""
        return tuple(self.state.players[self.checked_seat(seat)].energy)

    def production(self, seat: int) -> tuple[int, int]:
        """(blue, orange) energy ``seat`` collects next turn (the bottom token respected)."""
        return self.state.production(self.checked_seat(seat))

    def payment_note(self, action) -> str:
        """What a listed ``action`` takes and what is left or lost (rule 2.2): "Solar field;
        leaves 0 blue + 2 orange", "Wind farm: 10 points pay the 8 owed; 2 lost" ("" when it
        pays nothing). The app shows it beside each action."""
        return engine.payment_note(self.state, action)

    def history_frame(self):
        """One row per turn: who collected, how much their machines made, how much the bottom
        radioactivity token switched off, their energy, machines and uranium then (pandas)."""
        import pandas as pd

        frame = pd.DataFrame.from_records(self.state.history)
        frame.insert(2, "name", [self.names[s] for s in frame["seat"]])
        return frame

    def summary_row(self) -> dict:
        """Per-seat columns for :func:`energies.simulate`."""
        row = {"start": self.state.start}
        lost = [0] * self.rules.players
        for record in self.state.history:
            lost[record["seat"]] += record["switched_off"]
        for p in self.state.players:
            row[f"uranium_{p.seat}"] = len(p.uranium)
            row[f"machines_{p.seat}"] = len(p.machines)
            row[f"opening_{p.seat}"] = p.first_machine
            row[f"switched_off_{p.seat}"] = lost[p.seat]
        return row

    def draw(self, ax=None):
        """The market, the tokens and every seat's machines, energy and uranium; returns the Axes."""
        from .draw import draw_game

        return draw_game(self, ax=ax)

    def _repr_png_(self) -> bytes:
        from .draw import game_png

        return game_png(self)


def new_game(
    players: int | None = None,
    seed: int = 0,
    rules: NoclearRules | None = None,
    names=None,
    lang: str | None = None,
) -> NoclearGame:
    """Start a game: 2 to 4 players (default 2, or the rules' count) and a seed."""
    if rules is None:
        rules = NoclearRules(players=2 if players is None else players)
    elif players is not None and players != rules.players:
        raise ValueError(f"players={players} does not match the rules ({rules.players} players).")
    return NoclearGame(rules, seed, names, lang)


def load_game(text: str | bytes, trust_rules: bool = False) -> NoclearGame:
    """Load a saved game of Noclear (replays it and checks the digest).

    A version-1 file (earlier releases: its digest does not cover its rules) loads when its
    rules are the default ones for its player count, or with ``trust_rules=True``.
    """
    return NoclearGame.from_json(text, trust_rules)
