"""NoclearRules: every number of Noclear, in one frozen dataclass.

The rules reference is ``shared/rules/noclear.md``; rule numbers in the
comments are its numbers. The source has no card data: the cards are ours
(``decks/default.json`` with its design notes), and every number tagged [H]
is a house default listed by :meth:`NoclearRules.house_defaults`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...kit.rulebook import CompanionRules
from .cards import deck_problems
from .vocabulary import COLOURS, SYMBOLS  # (imported from here by the other modules too)

# A turn is at most 3 actions (buy, token, end turn) besides upgrades and discards, each
# machine is upgraded once and discarded once (rule 2.2, uranium_payment="machines"), so
# every game of up to 5,000 turns fits a save file (MAX_SAVED_ACTIONS, 20,000); with a
# larger limit a game where nobody can buy ran on and could not be loaded.
MAX_TURN_LIMIT = 5_000
URANIUM_PAYMENTS = ("all", "exact", "machines")  # rule 2.2 [H]: see NoclearRules.HOUSE


@dataclass(frozen=True)
class NoclearRules(CompanionRules):
    """The rules of Noclear; change a copy with ``.replace(...)``."""

    players: int = 2  # rule 1.3 [H]: 2 to 4
    deck: str = "default"  # rule 1.4 [H]: the card data file in energies/games/noclear/decks
    market_size: int = 5  # rule 1.5 [H]
    uranium_visible: int = 3  # rule 1.5 [H]
    start_energy: tuple[int, ...] = (3, 3)  # rule 2 [H]: blue, orange on each energy board
    catch_up_energy: tuple[int, ...] = (
        1,
        0,
    )  # rule 2.5 [H]: extra start energy per place after the start player
    energy_cap: int = 12  # rule 2.2 [H]: most energy of one colour a board holds
    store_energy: int = 1  # rule 2.2: energy added when buying nothing
    # rule 2.2 [H], how uranium is paid: "all" discards all energy (the excess is lost);
    # "exact" pays the price in energy; "machines" discards owned machines worth the price
    uranium_payment: str = "all"
    upgrades_per_turn: int = 1  # rule 2.4
    end: str = "immediate"  # rule 3.1 [H]: "immediate" or "round"
    tiebreak: str = "energy"  # rule 3.1 [H]: "energy" (most left, then shared) or "shared"
    turn_limit: int = 400  # engine safety: a game that cannot finish ends, scored as it stands

    HOUSE: ClassVar[dict[str, tuple[str, str]]] = {
        "players": ("1.3", "8 player boards suggest up to 4 players: 2 to 4, default 2"),
        "deck": ("1.4", "the source has no card data: our designed 40 machines and 10 uranium"),
        "market_size": ("1.5", "5 machines face up"),
        "uranium_visible": ("1.5", "the 3 cheapest uranium cards left are face up"),
        "start_energy": ("2.1", "each board starts with 3 blue and 3 orange energy"),
        "catch_up_energy": (
            "2.5",
            "each seat after the start player starts with 1 more blue energy per place",
        ),
        "energy_cap": ("2.2", "an energy board holds at most 12 of each colour; more is lost"),
        "uranium_payment": (
            "2.2",
            "'discard them; excess points are lost': 'all' discards the energy points, all of the board; 'machines' discards owned machines whose points (price, plus upgrade cost once upgraded) cover the price; 'exact' pays just the price in energy",
        ),
        "end": ("3.1", "the game ends at once when the last uranium card is bought"),
        "tiebreak": ("3.1", "equal uranium: most energy left wins, then the victory is shared"),
        "turn_limit": ("3.1", "engine safety: after 400 turns the game is scored as it stands"),
    }
    READINGS: ClassVar[tuple[tuple[str, str], ...]] = (
        (
            "1.5",
            "the top token marks a market slot (that machine cannot be bought); both tokens start at random places from the seed",
        ),
        (
            "2.2",
            "energy is held on the player's energy board by colour; 'any' in a price may be paid in either colour; uranium prices are in energy (or machine points) of any colour",
        ),
        (
            "2.3",
            "each effect is printed on its card: 'move_token' (move a token to another place) or 'surge' (every machine of the printed symbol produces once)",
        ),
        (
            "2.3",
            "the text always says 'the token': a 'move_token' effect may move either radioactivity token, the top one (a market slot) or the bottom one (a symbol)",
        ),
        (
            "2.4",
            "a machine may be upgraded in the turn it is bought; the upgrade step is skipped when nothing is affordable",
        ),
        ("2.5", "the start player is drawn from the seed; play goes up the seats"),
    )

    @property
    def symbols(self) -> tuple[str, ...]:
        return SYMBOLS

    @property
    def colours(self) -> tuple[str, ...]:
        return COLOURS

    def problems(self) -> list[str]:
        out = []  # the field types are checked before (CompanionRules.type_problems)
        if not 2 <= self.players <= 4:
            out.append(f"players must be 2 to 4, not {self.players}")
        if not 1 <= self.market_size <= 10 or not 1 <= self.uranium_visible <= 10:
            out.append("market_size and uranium_visible must be 1 to 10")
        if self.energy_cap < 1 or min(self.store_energy, self.upgrades_per_turn) < 0:
            out.append("energy_cap must be at least 1; store_energy, upgrades_per_turn at least 0")
        for name in ("start_energy", "catch_up_energy"):
            amounts = getattr(self, name)
            if len(amounts) != len(COLOURS) or any(not 0 <= n <= self.energy_cap for n in amounts):
                out.append(f"{name} needs one amount per colour, each 0 to energy_cap")
        if self.uranium_payment not in URANIUM_PAYMENTS:
            out.append("uranium_payment must be 'all', 'exact' or 'machines'")
        if self.end not in ("immediate", "round"):
            out.append("end must be 'immediate' or 'round'")
        if self.tiebreak not in ("energy", "shared"):
            out.append("tiebreak must be 'energy' or 'shared'")
        if not 1 <= self.turn_limit <= MAX_TURN_LIMIT:
            out.append(f"turn_limit must be 1 to {MAX_TURN_LIMIT}")
        if not out:
            out += deck_problems(self)
        return out
