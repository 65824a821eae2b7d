"""The contract every game of the kit follows, and what all games share.

This package is the bottom floor: it imports nothing else of ``energies`` and only the
standard library. A game (New Energies, My Shelfie Dice, Noclear, or a new one) depends on
it and on nothing above it; the runner, the command and the class tools drive every game
through it. See ``docs/architecture.md``.
"""
