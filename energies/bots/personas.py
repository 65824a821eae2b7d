"""The four personas, each a StrategyBot with its own priorities, and their short names.

Each persona changes only a few hooks and weights of :class:`~energies.bots.strategy.StrategyBot`
(the scores themselves: :mod:`energies.bots.scoring`).
"""

from __future__ import annotations

from .base import RandomBot
from .strategy import StrategyBot


class FossilRush(StrategyBot):
    """Grows fast on cheap fossil plants and ignores the footprint until the bag nearly runs dry.

    It knows rule 14.2, though: it builds a fossil plant only while it can still end with
    more renewable than fossil plants by the empty bag (one fix per turn of its own, with
    turns to spare), builds renewable once another fossil plant would no longer pay, and
    scrambles (demolish, build renewable) when its plants need the turns it has left.
    """

    name = "FossilRush"
    science_value = 0.8
    hazard_care = 1.5

    def _scrambling(self, state, seat) -> bool:
        return not self.qualifies_in_time(state, seat)

    def _fossil_pays(self, state, seat) -> bool:
        """A fossil plant built now would not have to be demolished before the empty bag."""
        return self.qualifies_in_time(state, seat, extra_fossil=1)

    def plant_wish(self, state, seat):
        if self._scrambling(state, seat) or not self._fossil_pays(state, seat):
            return "renewable"
        return "fossil"

    def plant_score(self, state, seat, plant):
        if self._scrambling(state, seat):
            return 8.0 if plant == "renewable" else -3.0
        if self._fossil_pays(state, seat):
            return 6.0 if plant == "fossil" else 0.0
        # too late for another fossil plant: renewable raises the balance that rule 14.2 ranks
        return 5.0 if plant == "renewable" else -3.0

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
        # judged as it will stand with the plant (LF and GF one higher): never a plant that
        # demolish_score would then take down again
        if (
            self._over_average(state, seat)
            or self.balance(state, seat) <= 1
            or self.endgame(state, extra_gf=1)
        ):
            return -2.0
        return 5.0

    def _footprint_penalty(self, state, seat):
        return 3.0 if self._over_average(state, seat) else 0.0

    def demolish_score(self, state, seat):
        return 3.5 if self._over_average(state, seat, 0) or self.endgame(state) else 0.0


class FreeRider(StrategyBot):
    """Lets the others go green and builds fossil plants while the global footprint is low.

    Free-riding ends in time for rule 14.2: it builds no fossil plant it could not make up
    for by the empty bag, and scrambles (demolish, build renewable) when it must.
    """

    name = "FreeRider"
    science_value = 1.1
    hazard_care = 2.0

    def _gf_low(self, state) -> bool:
        # "low" = the single-disc band or below: pollution still looks cheap
        single = [band for band in state.rules.disc_bands if band[2] == 1]
        high = single[0][1] if single else state.rules.gf_max // 2
        return self.global_footprint(state) <= high - 3

    def _scrambling(self, state, seat) -> bool:
        return not self.qualifies_in_time(state, seat)

    def _fossil_ok(self, state, seat) -> bool:
        return self._gf_low(state) and self.qualifies_in_time(state, seat, extra_fossil=1)

    def plant_wish(self, state, seat):
        if self._scrambling(state, seat):
            return "renewable"  # free-riding ends when the bag is about to run dry
        return "fossil" if self._fossil_ok(state, seat) else None

    def plant_score(self, state, seat, plant):
        if plant == "renewable":
            return 8.0 if self._scrambling(state, seat) else 0.0
        return 6.0 if self._fossil_ok(state, seat) else -1.0

    def demolish_score(self, state, seat):
        return 4.0 if self._scrambling(state, seat) else 0.0


# Short names used by simulate() and the command line (the search players, make_bot("search"),
# are kept apart in search.SEARCH_BOTS: a tournament over PERSONAS stays quick).
PERSONAS: dict[str, type] = {
    "random": RandomBot,
    "fossil": FossilRush,
    "green": GreenInvestor,
    "balanced": Balanced,
    "freerider": FreeRider,
}
