"""The module paths of release 0.2's flat tree, kept for one release with a DeprecationWarning.

Release 0.3 grouped the package by layer (``docs/architecture.md``): the contract in
:mod:`energies.kit`, the game in :mod:`energies.newenergies`, players in :mod:`energies.bots`,
:mod:`energies.runner`, :mod:`energies.env` and so on. An old ``import energies.state``
still works: it warns once and gives the module at its new place (the same module object, so
classes and functions are identical whichever path named them). ``tests/test_moved_paths.py``
lists these paths; the next release removes them. (``energies.actions``, ``energies.board``
and ``energies.sandbox`` stay public paths, without a warning: see ``energies/__init__.py``.)
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: old path -> new path
MOVED: dict[str, str] = {
    "energies.action_json": "energies.newenergies.actions.codec",
    "energies.agents": "energies.env.agents",
    "energies.awards": "energies.newenergies.engine.awards",
    "energies.checks": "energies.newenergies.engine.checks",
    "energies.cli_args": "energies.cli.arguments",
    "energies.decision_effects": "energies.newenergies.engine.answers",
    "energies.decisions": "energies.newenergies.engine.decisions",
    "energies.effects": "energies.newenergies.engine.effects",
    "energies.encoding": "energies.env.encoding",
    "energies.engine": "energies.newenergies.engine",
    "energies.env_aec": "energies.env.aec",
    "energies.env_checked": "energies.env.checked",
    "energies.env_single": "energies.env.single",
    "energies.evaluation": "energies.bots.search.evaluation",
    "energies.events": "energies.newenergies.engine.events",
    "energies.files": "energies.kit.files",
    "energies.game": "energies.newenergies.game",
    "energies.game_loading": "energies.newenergies.saves",
    "energies.games.app": "energies.widgets.companion",
    "energies.games.base": "energies.kit.shell",
    "energies.games.companion_rules": "energies.kit.rulebook",
    "energies.games.new_energies": "energies.newenergies",
    "energies.history": "energies.newenergies.history",
    "energies.house_rules": "energies.newenergies.rules.house",
    "energies.invariants": "energies.newenergies.invariants",
    "energies.invariants_board": "energies.newenergies.invariants.board",
    "energies.layouts": "energies.newenergies.layouts",
    "energies.listing": "energies.newenergies.engine.listing",
    "energies.lite": "energies.kit.platform",
    "energies.plan": "energies.bots.plan",
    "energies.play": "energies.runner.loop",
    "energies.quickstart": "energies.newenergies.engine.setup",
    "energies.rule_bounds": "energies.newenergies.rules.bounds",
    "energies.rule_checks": "energies.kit.fields",
    "energies.rules": "energies.newenergies.rules",
    "energies.save_files": "energies.kit.saves",
    "energies.scoring": "energies.bots.scoring",
    "energies.search": "energies.bots.search",
    "energies.search_candidates": "energies.bots.search.candidates",
    "energies.simulate": "energies.runner.batch",
    "energies.simulate_checks": "energies.runner.arguments",
    "energies.state": "energies.newenergies.state",
    "energies.strategy": "energies.bots.strategy",
    "energies.text": "energies.kit.text",
    "energies.tracking": "energies.env.tracking",
    "energies.tracking_parts": "energies.env.tracking.segments",
    "energies.trade_offers": "energies.newenergies.engine.offers",
    "energies.turns": "energies.newenergies.engine.turns",
    "energies.view": "energies.newenergies.view",
    "energies.view_types": "energies.newenergies.view.types",
    "energies.vocabulary": "energies.newenergies.rules.vocabulary",
    "energies.widgets.board_view": "energies.widgets.play.board",
    "energies.widgets.bot_turns": "energies.widgets.play.bot_turns",
    "energies.widgets.controls": "energies.widgets.play.controls",
    "energies.widgets.page": "energies.widgets.play.page",
    "energies.widgets.proposals": "energies.widgets.play.proposals",
    "energies.widgets.saves": "energies.widgets.play.saves",
    "energies.widgets.words": "energies.widgets.play.words",
    "energies.worlds": "energies.bots.search.worlds",
}


#: public paths that name a module living elsewhere, given without a warning (en.actions,
#: en.board and en.sandbox are part of the facade)
PUBLIC: dict[str, str] = {
    "energies.actions": "energies.newenergies.actions",
    "energies.board": "energies.newenergies.board",
    "energies.sandbox": "energies.newenergies.sandbox",
}


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and hands out the module at its new place, with a DeprecationWarning."""

    def find_spec(self, name, path=None, target=None):
        if name in MOVED or name in PUBLIC:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        if spec.name in PUBLIC:
            return importlib.import_module(PUBLIC[spec.name])
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new} in energies 0.3; the old path will be removed "
            "in the next release.",
            DeprecationWarning,
            # 2: the line that imported (warnings skips importlib's own frames), so Python's
            # default filters show it in a notebook or a script
            stacklevel=2,
        )
        return importlib.import_module(new)

    def exec_module(self, module) -> None:
        """The module at its new place has run already."""


def install() -> None:
    if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(MovedModules())
