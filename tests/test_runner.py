"""The runner drives any registered game through the contract (issue 31 item 4).

* a toy game defined and registered only here ("take 1 or 2 stones; whoever takes the last
  wins") plays through :func:`energies.play`, :func:`energies.simulate` and ``play_one``;
* a game's registered ``play_loop`` hook is what ``play`` calls, and ``fast=False`` plays the
  contract loop instead;
* New Energies' hook loop and the contract loop play exactly the same games (actions,
  outcome) for the same seeded game and bots, personas that skip unlisted offers included;
* ``energies/runner`` imports nothing of ``energies`` but ``energies.kit`` (ast);
* no module but the registry compares with ``"new-energies"`` or asks
  ``isinstance(x, Game)`` of New Energies' ``Game`` (ast).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import energies as en
from energies.kit import registry
from energies.runner import bot_seed, play, play_one, simulate

PACKAGE = Path(en.__file__).parent

# -- a toy game, registered only by this module's fixture ---------------------------------------


@dataclass(frozen=True)
class PileRules:
    """Two seats take turns taking 1 or 2 stones from one pile; whoever takes the last wins."""

    players: int = 2
    stones: int = 7


@dataclass(frozen=True)
class Take:
    seat: int
    stones: int


class PileGame:
    """The contract, implemented directly (no shell): enough for the runner."""

    NAME = "toy-pile"

    def __init__(self, rules: PileRules, seed: int) -> None:
        self.rules, self.seed = rules, seed
        self.names = [f"Seat {s}" for s in range(rules.players)]
        self.actions: list[Take] = []
        self.left = rules.stones
        self.taken = [0] * rules.players
        self._outcome = None

    @property
    def current_seat(self) -> int | None:
        return None if self._outcome else len(self.actions) % self.rules.players

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self):
        return self._outcome

    @property
    def turn(self) -> int:
        return len(self.actions)

    def legal_actions(self) -> list[Take]:
        seat = self.current_seat
        if seat is None:
            return []
        return [Take(seat, n) for n in (1, 2) if n <= self.left]

    def why_illegal(self, action) -> str | None:
        if action not in self.legal_actions():
            return f"{action!r} is not a legal take now."
        return None

    def apply(self, action) -> None:
        reason = self.why_illegal(action)
        if reason is not None:
            raise en.IllegalActionError(reason, action)
        self.apply_listed(action)

    def apply_listed(self, action: Take) -> None:
        self.left -= action.stones
        self.taken[action.seat] += action.stones
        self.actions.append(action)
        if self.left == 0:
            reason = f"Seat {action.seat} took the last stone."
            self._outcome = en.Outcome("last_stone", (action.seat,), self.turn, reason)

    def view(self, seat: int) -> dict:
        return {"left": self.left, "seat": seat}

    def summary_row(self) -> dict:
        return {f"taken_{seat}": taken for seat, taken in enumerate(self.taken)}


class GreedyTaker:
    """Takes two whenever it may (the toy's second bot, to tell the bots apart in a row)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def decide(self, view, legal_actions, rng):
        return max(legal_actions, key=lambda take: take.stones)


class RandomTaker:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def decide(self, view, legal_actions, rng):
        return rng.choice(legal_actions)


class TakesThree:
    """Chooses a take the rules do not allow."""

    name = "cheat"

    def decide(self, view, legal_actions, rng):
        return Take(legal_actions[0].seat, 3)


# what the game's GameSpec module offers (this module, registered under TOY)
RULES = PileRules
BOTS = {"random": RandomTaker, "greedy": GreedyTaker}


def new_game(players=None, seed=0, rules=None):
    return PileGame(rules or PileRules(players=players or 2), seed)


def load_game(text):
    raise en.SaveFileError("The toy game keeps no files.")


def make_bot(spec, seed=None):
    if isinstance(spec, str):
        if spec.strip().lower() not in BOTS:
            raise ValueError(f"Unknown bot {spec!r}; choose from {', '.join(BOTS)}.")
        return BOTS[spec.strip().lower()](seed=seed)
    if isinstance(spec, type):
        return spec(seed=seed)
    if callable(getattr(spec, "decide", None)):
        return spec
    raise ValueError(f"{spec!r} is not a bot.")


LOOPS_RUN: list[int] = []


def counting_loop(game, seats, rng, max_actions, apply_choice):
    """A registered play_loop hook: counts its calls, then plays as the contract loop does."""
    LOOPS_RUN.append(game.seed)
    for _ in range(max_actions):
        seat = game.current_seat
        if seat is None:
            return game.outcome
        legal = game.legal_actions()
        action = seats[seat].decide(game.view(seat), legal, rng)
        if action in legal:
            game.apply_listed(action)
        else:
            apply_choice(game, seat, seats[seat], action)
    raise RuntimeError("unfinished")


def toy_spec(**hooks) -> registry.GameSpec:
    return registry.GameSpec(
        "toy-pile", "Pile", __name__, __name__, (2, 3), 2, "toy-pile", "none", "perfect", **hooks
    )


@pytest.fixture
def toy(monkeypatch):
    """The toy game registered for one test (a copy of the registry, restored after it)."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register(toy_spec())
    return "toy-pile"


def test_play_drives_a_game_the_runner_never_heard_of(toy):
    game = registry.new_game(toy, seed=5)
    outcome = en.play(game, [GreedyTaker(), RandomTaker()])
    assert outcome is game.outcome and game.is_over and game.left == 0
    assert sum(take.stones for take in game.actions) == 7
    assert outcome.winners == (game.actions[-1].seat,)
    again = registry.new_game(toy, seed=5)
    en.play(again, [GreedyTaker(), RandomTaker()])
    assert again.actions == game.actions  # the bots' stream is seeded from the game's seed


def test_simulate_and_play_one_run_the_toy_game(toy):
    frame = simulate(6, ["greedy", "random"], game=toy, seed=2, progress=False)
    assert list(frame.columns) == [
        "game", "seed", "players", "lineup", "bot_0", "bot_1",
        "outcome", "winners", "turns", "actions", "taken_0", "taken_1",
    ]  # fmt: skip
    assert set(frame["lineup"]) == {"greedy,random"} and set(frame["outcome"]) == {"last_stone"}
    assert (frame["taken_0"] + frame["taken_1"] == 7).all()
    for row in frame.itertuples():
        replayed = play_one(["greedy", "random"], row.seed, game=toy)
        assert (row.actions, row.winners) == (len(replayed.actions), replayed.outcome.winners)
    assert frame.equals(simulate(6, ["greedy", "random"], game=toy, seed=2, progress=False))


def test_the_toy_game_gets_the_runners_argument_checks(toy):
    with pytest.raises(ValueError, match="needs 2 or 3 bots"):
        simulate(2, ["random"] * 4, game=toy, progress=False)
    with pytest.raises(ValueError, match="rules must be a PileRules for Pile"):
        simulate(2, ["random"] * 2, rules=en.RuleSet(), game=toy, progress=False)
    with pytest.raises(ValueError, match="per_turn records exist only for .*, not Pile"):
        simulate(2, ["random"] * 2, per_turn=True, game=toy, progress=False)


@pytest.mark.parametrize("fast", [True, False])
def test_an_illegal_choice_names_the_bot_in_either_loop(toy, fast):
    game = registry.new_game(toy, seed=1)
    with pytest.raises(en.IllegalActionError, match=r"bot of seat 0 \(cheat\) chose an illegal"):
        play(game, [TakesThree(), RandomTaker()], fast=fast)
    assert game.actions == []  # the game is left as it was


def test_play_calls_a_registered_loop_once_and_fast_false_bypasses_it(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register(toy_spec(play_loop=f"{__name__}:counting_loop"))
    LOOPS_RUN.clear()
    hooked, plain = PileGame(PileRules(), seed=3), PileGame(PileRules(), seed=3)
    play(hooked, [RandomTaker(), RandomTaker()])
    play(plain, [RandomTaker(), RandomTaker()], fast=False)
    assert LOOPS_RUN == [3]
    assert hooked.actions == plain.actions and hooked.outcome == plain.outcome


def test_an_unregistered_game_plays_through_the_contract():
    class Unlisted(PileGame):
        NAME = "not-registered"

    game = Unlisted(PileRules(stones=5), seed=0)
    assert play(game, [GreedyTaker(), GreedyTaker()]).winners == (0,)  # 2, 2, then 1


# -- New Energies: its hook loop plays the contract loop's games ---------------------------------


@pytest.mark.parametrize(
    "seed, lineup",
    [
        (3, ("fossil", "green", "balanced", "random")),
        (8, ("freerider", "random", "green", "fossil")),
        (21, ("balanced", "green", "random")),
        (5, ("random", "random", "random", "random")),
    ],
)
def test_new_energies_fast_loop_and_contract_loop_play_the_same_game(seed, lineup):
    games = []
    for fast in (True, False):
        game = en.new_game(players=len(lineup), seed=seed)
        bots = [en.bots.make_bot(name, seed=bot_seed(seed, s)) for s, name in enumerate(lineup)]
        outcome = play(game, bots, fast=fast)
        games.append((game.actions, outcome, game.digest()))
    assert games[0] == games[1]
    assert games[0][1] is not None and len(games[0][0]) > 100


def test_new_energies_registers_its_loop_and_the_runner_uses_it():
    from energies.newenergies import fastplay

    assert registry.spec_of(en.new_game()).hook("play_loop") is fastplay.play_loop


# -- layers and special cases (ast) ---------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path):
    """(line, absolute module) of every import in the file, function-level ones included."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            yield node.lineno, module
            if not node.module or node.level:  # `from . import x`: x may be a module
                for alias in node.names:
                    yield node.lineno, f"{module}.{alias.name}"


def test_the_runner_imports_only_the_kit():
    allowed_outside = {"numpy", "pandas", "tqdm"}  # lazily: seeds, frames, the progress bar
    wrong = []
    for path in sorted((PACKAGE / "runner").rglob("*.py")):
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top == "energies":
                ok = module.startswith(("energies.kit", "energies.runner"))
            else:
                ok = top in sys.stdlib_module_names or top in allowed_outside or top == "__future__"
            if not ok:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)


def _new_energies_game_names(tree: ast.AST, module: str) -> set[str]:
    """Names a module binds to New Energies' Game class (``from ...game import Game as G``)."""
    homes = {"energies", "energies.newenergies", "energies.newenergies.game"}
    names = set()
    package = module.split(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                if alias.name == "Game" and source in homes:
                    names.add(alias.asname or "Game")
    return names


def _is_game_class(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Tuple):
        return any(_is_game_class(item, names) for item in node.elts)
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, ast.Attribute) and node.attr == "Game"  # en.Game, game.Game


def _holds_new_energies(node: ast.AST) -> bool:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_holds_new_energies(item) for item in node.elts)
    return isinstance(node, ast.Constant) and node.value == "new-energies"


def test_no_game_special_cases_outside_the_registry():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "kit" / "registry.py":
            continue
        module = _module_name(path)
        if path.name == "__init__.py":
            module += ".__init__"  # so a relative import's level counts from the package
        tree = ast.parse(path.read_text(), str(path))
        game_names = _new_energies_game_names(tree, module)
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(
                map(_holds_new_energies, [node.left, *node.comparators])
            ):
                found.append(f'{where}:{node.lineno} compares with "new-energies"')
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
                and len(node.args) == 2
                and _is_game_class(node.args[1], game_names)
            ):
                found.append(f"{where}:{node.lineno} asks isinstance(..., Game)")
    assert not found, "\n".join(found)


def test_the_special_case_check_sees_what_it_forbids():
    """The ast check above finds both patterns (so its silence means something)."""
    source = (
        "from ..newenergies.game import Game as NewEnergiesGame\n"
        "def f(game, name):\n"
        "    return isinstance(game, (int, NewEnergiesGame)) or name in ('x', 'new-energies')\n"
    )
    tree = ast.parse(source)
    names = _new_energies_game_names(tree, "energies.widgets.thing")
    assert names == {"NewEnergiesGame"}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.func.id == "isinstance"]
    assert _is_game_class(calls[0].args[1], names)
    compare = next(n for n in ast.walk(tree) if isinstance(n, ast.Compare))
    assert any(map(_holds_new_energies, compare.comparators))
