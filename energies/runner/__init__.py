"""Play and simulate any registered game of the kit through the contract.

import energies as en
outcome = en.play(en.new_game(seed=7), [en.bots.RandomBot() for _ in range(4)])
frame = en.simulate(100, ["fossil", "green", "balanced", "random"], seed=1)
"""

from .batch import bot_name, bot_seed, game_seeds, play_one, simulate
from .loop import play, view_for

__all__ = ["bot_name", "bot_seed", "game_seeds", "play", "play_one", "simulate", "view_for"]
