"""CATAN: New Energies in the games registry: its existing public API, under the contract names."""

from __future__ import annotations

from ..bots import PERSONAS as BOTS
from ..bots import make_bot
from ..newenergies.game import new_game
from ..newenergies.saves import load_game
from ..newenergies.rules import RuleSet as RULES

__all__ = ["BOTS", "RULES", "load_game", "make_bot", "new_game"]
