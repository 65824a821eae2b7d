"""Loading a New Energies save file: parse, check, replay every action, compare the digest.

Saving is :meth:`energies.newenergies.game.Game.save`; both are the kit's game shell
(:class:`energies.kit.shell.GameShell`), which every game of the kit shares, with New
Energies' policy for version-1 files (``Game._v1_rules_checkable``) beside its ``Game``.
"""

from __future__ import annotations

from ..kit.saves import READABLE_VERSIONS  # noqa: F401 - offered here too
from .game import Game


def load_game(text: str | bytes, trust_rules: bool = False) -> Game:
    """Load a saved game; raise SaveFileError with the problem for a bad file.

    The actions are replayed and the digest checked. A version-1 file (earlier releases)
    has a digest of the replayed position only, which does not cover its rules: it loads
    when its rules are a standard rule set, or with ``trust_rules=True`` for a file you
    wrote yourself. Saving it again writes version 2.
    """
    return Game.from_json(text, trust_rules)
