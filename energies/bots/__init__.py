"""Players: the one-method Player protocol and the bot personas.

A bot is any object with ``decide(game_view, legal_actions, rng) -> action``:
it gets what its seat may know (``game.view(seat)``, a read-only
:class:`energies.view.GameView`: own hand, public board, only the number of the
others' cards), the list of legal actions of the seat it plays, and a seeded
``random.Random`` to break ties with.

    class Cautious:
        def decide(self, game, legal, rng):
            builds = [a for a in legal if a.kind == "build_plant" and a.plant == "renewable"]
            return builds[0] if builds else rng.choice(legal)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..newenergies.actions import Action, ProposeTrade
from ..kit import bots as kit_bots
from ..kit.bots import bot_from_class_or_object  # noqa: F401 - every game's; offered here too
from ..kit.fields import show
from .strategy import StrategyBot


class Player(Protocol):
    """Anything that can choose one of the legal actions."""

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot(kit_bots.RandomBot):
    """Picks uniformly among the legal actions: the baseline every strategy should beat.

    One exception keeps random games from filling up with trade talk: asked whether it wants
    to propose a trade to the active player (rule 12.1), it proposes a random listed trade
    only one time in ``propose_chance`` and otherwise passes.
    """

    propose_chance = 0.25

    def decide(self, game_view, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        options = legal_actions if isinstance(legal_actions, (list, tuple)) else list(legal_actions)
        rng = self._rng or rng
        if type(options[0]) is ProposeTrade:  # a proposal window: proposals, then "pass"
            if rng.random() >= self.propose_chance:
                return options[-1]
            return rng.choice(options[:-1])
        return rng.choice(options)

    decide.ignores_view = True  # play() passes None instead of copying a view it never reads


class FossilRush(StrategyBot):
    """Grows fast on cheap fossil plants and ignores the footprint until the bag is nearly empty.

    Then, knowing rule 14.2, it scrambles (demolish, build renewable) to end with more
    renewable than fossil plants.
    """

    name = "FossilRush"
    science_value = 0.8
    hazard_care = 1.5
    scramble_rounds = 3  # it knows rule 14.2: more renewable than fossil plants, or no win at all

    def _scrambling(self, state, seat) -> bool:
        return self.endgame(state, self.scramble_rounds) and self.balance(state, seat) <= 0

    def plant_wish(self, state, seat):
        return "renewable" if self._scrambling(state, seat) else "fossil"

    def plant_score(self, state, seat, plant):
        if self._scrambling(state, seat):
            return 8.0 if plant == "renewable" else -3.0
        return 6.0 if plant == "fossil" else 0.0

    def demolish_score(self, state, seat):
        return 5.0 if self._scrambling(state, seat) else 0.0


class GreenInvestor(StrategyBot):
    """Saves science for renewable plants and spends energy removing hazards."""

    name = "GreenInvestor"
    science_value = 2.0
    hazard_care = 4.0

    def plant_wish(self, state, seat):
        return "renewable"

    def plant_score(self, state, seat, plant):
        return 9.0 if plant == "renewable" else -5.0

    def demolish_score(self, state, seat):
        return 4.0


class Balanced(StrategyBot):
    """Chases victory points but keeps its footprint at or below the table average."""

    name = "Balanced"
    science_value = 1.4
    hazard_care = 3.0

    def _over_average(self, state, seat, extra: int = 1) -> bool:
        return self.footprints(state)[seat] + extra > self.table_average_lf(state)

    def plant_wish(self, state, seat):
        if self.balance(state, seat) <= 0 or self._over_average(state, seat):
            return "renewable"
        return "fossil"

    def plant_score(self, state, seat, plant):
        if plant == "renewable":
            return (
                8.0
                if (self.balance(state, seat) <= 1 or self._over_average(state, seat, 0))
                else 5.0
            )
        if self._over_average(state, seat) or self.balance(state, seat) <= 1 or self.endgame(state):
            return -2.0
        return 5.0

    def _footprint_penalty(self, state, seat):
        return 3.0 if self._over_average(state, seat) else 0.0

    def demolish_score(self, state, seat):
        return 3.5 if self._over_average(state, seat, 0) or self.endgame(state) else 0.0


class FreeRider(StrategyBot):
    """Lets the others go green and builds fossil plants while the global footprint is low."""

    name = "FreeRider"
    science_value = 1.1
    hazard_care = 2.0

    def _gf_low(self, state) -> bool:
        # "low" = the single-disc band or below: pollution still looks cheap
        single = [band for band in state.rules.disc_bands if band[2] == 1]
        high = single[0][1] if single else state.rules.gf_max // 2
        return self.global_footprint(state) <= high - 3

    def plant_wish(self, state, seat):
        if self.endgame(state) and self.balance(state, seat) <= 0:
            return "renewable"  # free-riding ends when the bag is about to run dry
        return "fossil" if self._gf_low(state) else None

    def plant_score(self, state, seat, plant):
        if plant == "renewable":
            return 8.0 if self.endgame(state) and self.balance(state, seat) <= 0 else 0.0
        return 6.0 if self._gf_low(state) and not self.endgame(state) else -1.0

    def demolish_score(self, state, seat):
        return 4.0 if self.endgame(state) and self.balance(state, seat) <= 0 else 0.0


# Short names used by simulate() and the command line (the search players, make_bot("search"),
# are kept apart in search.SEARCH_BOTS: a tournament over PERSONAS stays quick).
PERSONAS: dict[str, type] = {
    "random": RandomBot,
    "fossil": FossilRush,
    "green": GreenInvestor,
    "balanced": Balanced,
    "freerider": FreeRider,
}
BOTS = PERSONAS  # the name every game's bot table has (energies.kit.registry.GameSpec.bots)


def make_bot(spec, seed: int | None = None):
    """A bot from a short name ("random", "fossil", ...), a class, or a ready bot object."""
    if isinstance(spec, str):
        # (the search player builds on these personas: it is imported here, not at the top)
        from .search import SEARCH_BOTS, SearchPlayer

        key = spec.strip().lower()
        aliases = {cls.__name__.lower(): name for name, cls in PERSONAS.items()}
        key = aliases.get(key, key)
        if key in SEARCH_BOTS:  # the search player and its restricted variants
            return SearchPlayer(seed=seed, plants=SEARCH_BOTS[key])
        if key not in PERSONAS:
            names = ", ".join(sorted([*PERSONAS, *SEARCH_BOTS]))
            raise ValueError(f"Unknown bot {show(spec)}; choose from {names}.")
        return PERSONAS[key](seed=seed)
    return bot_from_class_or_object(spec, seed)
