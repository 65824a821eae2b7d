"""The conformance check of the kit's game contract: :func:`api_test`, for any game.

Modelled on PettingZoo's ``api_test`` and OpenSpiel's random-simulation tests: seeded random
games are played through the contract alone (:mod:`energies.kit.contract`), and at every step
(every ``thorough_every``-th after the first twenty) the check asks what the contract
promises. The first broken promise raises an AssertionError that names the game, the seed,
the step and the promise, so a new game can be checked before it is registered::

    from energies.kit import api_test
    api_test("shelfie")                  # or api_test(my_spec, players=3, seeds=range(5))
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import tempfile
from collections.abc import Iterable
from typing import Any

from . import registry
from .contract import GameProtocol, IllegalActionError, SaveFileError
from .fields import show

__all__ = ["api_test"]

_FIRST_STEPS_CHECKED = 20  # every step of a game's opening is checked in full
_LISTED_SAMPLE = 12  # listed actions asked why_illegal per checked step
_VIEW_DEPTH = 3  # how deep a view is searched for the game or a random stream
_VIEW_ITEMS = 200  # items per container searched (a board holds hundreds)
_RULES_TRIED = 8  # rule changes tried in search of one under which the game still replays


def api_test(
    spec_or_name: registry.GameSpec | str,
    players: int | None = None,
    seeds: Iterable[int] = (1, 2),
    max_actions: int = 400,
    thorough_every: int = 10,
    bot_actions: int = 200,
) -> None:
    """Check a game against the kit's contract; raise AssertionError at the first failure.

    ``spec_or_name``: a registered game's short name or a :class:`GameSpec` (a game not yet
    registered too). For each seed, a random game of ``players`` (default: the game's default)
    is played for up to ``max_actions`` actions, checking that:

    * ``legal_actions``, ``current_seat``, ``is_over`` and ``outcome`` agree, and every listed
      action is one ``why_illegal`` approves;
    * an illegal action (None, a string, another seat's move, a stale move) gets a sentence
      from ``why_illegal``, and ``apply`` raises IllegalActionError with that reason and
      changes nothing (digest, snapshot, log);
    * ``apply_listed`` and ``apply`` of a listed action reach the same position; a fork
      shares nothing; ``undo`` takes back exactly the last actions, with the same chance;
      ``undo`` refuses True, 0, 1.0 and -1 with one message;
    * ``view(seat)`` for every seat is a copy that holds neither the game nor a random
      stream, ``view`` of a wrong seat is a ValueError, ``snapshot()`` is plain JSON;
    * the same seed and actions give the same digest; the save file loads to the same game
      and the same text, and a file with its seed, a name, a rule value or an action changed
      (its digest left as it was) is refused with SaveFileError;
    * every bot of ``spec.bots`` plays ``bot_actions`` actions of a game from views alone.

    What the contract cannot see (whether a view hides exactly the hidden information) is the
    game's own tests' to check.
    """
    spec = spec_or_name
    if not isinstance(spec, registry.GameSpec):
        spec = registry.get(spec_or_name)
    players = spec.default_players if players is None else players
    spec.check_players(players)
    seeds = list(seeds)
    if not seeds:
        raise ValueError("api_test needs at least one seed.")
    for seed in seeds:
        _Playthrough(spec, players, seed, thorough_every).run(max_actions)
    for name in spec.bots:
        _bots_play(spec, players, seeds[0], name, bot_actions)


class _Playthrough:
    """One seeded random game of ``spec``, checked as it is played."""

    def __init__(self, spec: registry.GameSpec, players: int, seed: int, every: int) -> None:
        self.spec, self.players, self.seed, self.every = spec, players, seed, max(1, every)
        self.step = 0
        self.game = self.new_game()
        self.checks = random.Random(f"{seed}:checks")  # apart from the moves' stream

    def fail(self, promise: str) -> None:
        raise AssertionError(
            f"{self.spec.name} (seed {self.seed}, {self.players} players, after "
            f"{self.step} actions): {promise}"
        )

    def new_game(self):
        return self.spec.new_game(players=self.players, seed=self.seed)

    def run(self, max_actions: int) -> None:
        game = self.game
        missing = [m for m in _members(GameProtocol) if not hasattr(game, m)]
        if missing:
            self.fail(f"the game object lacks {', '.join(missing)} of the contract.")
        if game.rules.players != self.players or len(game.names) != self.players:
            self.fail(f"a game for {self.players} players has {len(game.names)} names.")
        twin = self.new_game()
        if twin.digest() != game.digest() or twin.legal_actions() != game.legal_actions():
            self.fail("two new games with the same seed differ.")
        moves, earlier = random.Random(self.seed), []
        for self.step in range(max_actions):
            legal = game.legal_actions()
            self.check_turn(legal)
            if game.is_over:
                break
            if self.step < _FIRST_STEPS_CHECKED or self.step % self.every == 0:
                self.check_position(legal, earlier)
            action = moves.choice(legal)
            try:
                game.apply(action)
            except IllegalActionError as exc:
                self.fail(f"the listed action {show(action)} was refused: {exc.reason}")
            if not game.actions or game.actions[-1] != action:
                self.fail("an applied action is not the last of game.actions.")
            earlier = legal
        else:
            self.step = max_actions
        self.check_turn(game.legal_actions())
        self.check_position(game.legal_actions(), earlier)
        self.check_replay_and_undo()
        self.check_files()

    # -- every position -------------------------------------------------------------------------

    def check_turn(self, legal: list) -> None:
        game = self.game
        if game.is_over != (game.outcome is not None):
            self.fail("is_over and outcome disagree.")
        if game.is_over:
            if legal or game.current_seat is not None:
                self.fail("a finished game still lists actions or a seat to act.")
            self.check_outcome(game.outcome)
            return
        if not legal:
            self.fail("a game that is not over lists no legal action.")
        seat = game.current_seat
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            self.fail(f"current_seat is {show(seat)}, not a seat of the table.")

    def check_outcome(self, outcome: Any) -> None:
        winners = list(getattr(outcome, "winners", [None]))
        if not isinstance(getattr(outcome, "kind", None), str) or any(
            not isinstance(w, int) or not 0 <= w < self.players for w in winners
        ):
            self.fail(f"the outcome {show(outcome)} needs a kind and seats as winners.")
        if not isinstance(getattr(outcome, "reason", None), str):
            self.fail("the outcome has no reason in words.")
        _json(self, outcome.to_dict(), "outcome.to_dict()")

    def check_position(self, legal: list, earlier: list) -> None:
        game = self.game
        for action in self.checks.sample(legal, min(len(legal), _LISTED_SAMPLE)):
            reason = game.why_illegal(action)
            if reason is not None:
                self.fail(f"why_illegal refuses the listed action {show(action)}: {reason}")
        for bad in self.illegal_actions(legal, earlier):
            self.check_refused(bad)
        _json(self, game.snapshot(), "snapshot()")
        for seat in range(self.players):
            self.check_view(seat)
        for seat in (-1, self.players, True):
            try:
                game.view(seat)
            except ValueError:
                continue
            self.fail(f"view({seat!r}) did not raise ValueError.")
        if legal:
            self.check_fork(self.checks.choice(legal))

    def illegal_actions(self, legal: list, earlier: list) -> list:
        """None, a string, another seat's move, a move listed before but not now."""
        game, bad, listed = self.game, [None, "keep"], set(legal)
        first = legal[0] if legal else None
        if dataclasses.is_dataclass(first) and hasattr(first, "seat"):
            others = (dataclasses.replace(first, seat=s) for s in range(self.players))
            bad += [next((a for a in others if a.seat != first.seat and a not in listed), None)]
        stale = (a for a in earlier if a not in listed and game.why_illegal(a) is not None)
        bad.append(next(stale, None))
        return bad[:2] + [a for a in bad[2:] if a is not None]

    def check_refused(self, bad: Any) -> None:
        game = self.game
        reason = game.why_illegal(bad)
        if not isinstance(reason, str) or not reason.strip():
            self.fail(f"why_illegal({show(bad)}) gives {show(reason)}, not a sentence.")
        before = self.fingerprint()
        try:
            game.apply(bad)
        except IllegalActionError as exc:
            if exc.reason != reason or exc.action is not bad:
                self.fail(
                    f"apply({show(bad)}) raised IllegalActionError with reason "
                    f"{show(exc.reason)} and action {show(exc.action)}; why_illegal said "
                    f"{show(reason)}."
                )
        except Exception as exc:  # noqa: BLE001 - any other error breaks the promise
            self.fail(f"apply({show(bad)}) raised {type(exc).__name__}, not IllegalActionError.")
        else:
            self.fail(f"apply({show(bad)}) accepted an action why_illegal refuses: {reason}")
        if self.fingerprint() != before:
            self.fail(f"the illegal action {show(bad)} changed the game (it must change nothing).")

    def fingerprint(self) -> tuple:
        game = self.game
        return game.digest(), json.dumps(game.snapshot(), sort_keys=True), list(game.actions)

    def check_view(self, seat: int) -> None:
        game = self.game
        view = game.view(seat)
        found = _reaches(view, (game, getattr(game, "state", game)))
        if found:
            self.fail(f"view({seat}) holds {found}: a bot could read or change the game.")

    def check_fork(self, action: Any) -> None:
        game = self.game
        before = self.fingerprint()
        fork = game.fork()
        fork.apply(action)
        if self.fingerprint() != before:
            self.fail("playing on a fork changed the game it was forked from.")
        listed = game.fork()
        listed.apply_listed(action)
        if listed.digest() != fork.digest():
            self.fail(f"apply_listed({show(action)}) and apply reach different positions.")
        if fork.undo() != [action] or fork.digest() != before[0]:
            self.fail(f"undo() after {show(action)} does not give back the same position.")
        fork.apply(action)
        messages = set()
        for steps in (True, 0, 1.0, -1):
            try:
                fork.undo(steps)
            except ValueError as exc:
                messages.add(str(exc))
            else:
                self.fail(f"undo({steps!r}) was accepted: steps must be a whole number >= 1.")
            if fork.actions[-1:] != [action]:
                self.fail(f"the refused undo({steps!r}) changed the game.")
        if len(messages) != 1:
            self.fail(f"undo(True), undo(0), undo(1.0), undo(-1) say different things: {messages}")

    # -- the whole game -----------------------------------------------------------------------

    def check_replay_and_undo(self) -> None:
        game = self.game
        replay = self.new_game()
        for action in game.actions:
            replay.apply(action)
        if replay.digest() != game.digest():
            self.fail("the same seed and actions give a different digest (not deterministic).")
        steps = min(3, len(game.actions))
        if not steps:
            return
        fork, kept = game.fork(), self.new_game()
        for action in game.actions[:-steps]:
            kept.apply(action)
        if fork.undo(steps) != game.actions[-steps:] or fork.digest() != kept.digest():
            self.fail(f"undo({steps}) does not give the position before the last {steps} actions.")
        try:
            fork.undo(len(fork.actions) + 1)
        except ValueError:
            pass
        else:
            self.fail("undo of more actions than the game holds was accepted.")

    def check_files(self) -> None:
        game, spec = self.game, self.spec
        text = game.to_json()
        data = _json(self, json.loads(text), "to_json()")
        try:
            loaded = spec.load_game(text)
        except SaveFileError as exc:
            self.fail(f"its own save file does not load: {exc}")
        if loaded.digest() != game.digest() or loaded.to_json() != text:
            self.fail("a loaded save file is not the same game (digest or text differ).")
        if loaded.legal_actions() != game.legal_actions():
            self.fail("a loaded save file lists other legal actions.")
        registered = spec.name in registry.names() and registry.get(spec.name) == spec
        if registered and registry.load_game(text).digest() != game.digest():
            self.fail("registry.load_game reads the save file as another game.")
        with tempfile.TemporaryDirectory() as folder:
            path = game.save(os.path.join(folder, "game.json"))
            with open(path, encoding="utf-8") as file:
                if file.read() != text:
                    self.fail("save(path) wrote other text than to_json().")
        for what, edit in self.edits(data):
            edited = json.loads(text)
            edit(edited)
            try:
                spec.load_game(json.dumps(edited))
            except SaveFileError:
                continue
            except Exception as exc:  # noqa: BLE001 - anything else breaks the promise
                kind = type(exc).__name__
                self.fail(f"a save file with {what} raised {kind}, not SaveFileError.")
            self.fail(f"a save file with {what} (its digest left as it was) loaded.")

    def edits(self, data: dict) -> list:
        """(words, change) pairs: each makes another game whose file must be refused."""
        out = [
            ("its seed changed", lambda d: d.update(seed=d["seed"] + 1)),
            ("a name changed", lambda d: d["names"].__setitem__(0, d["names"][0] + " II")),
            ("its digest changed", lambda d: d.update(digest="0" * len(d["digest"]))),
        ]
        rule = self.changed_rule(data["rules"])
        if rule:
            out.append((f"the rule {rule[0]} changed", lambda d: d["rules"].update([rule])))
        swapped = self.swapped_action()
        if swapped:
            out.append(("its last action swapped for another", lambda d: d.update(swapped)))
        return out

    def changed_rule(self, rules: dict) -> tuple[str, int] | None:
        """A whole-number rule field with another value the rules class accepts, one under
        which the game's actions still replay if there is one (then only the digest can
        tell the edit)."""
        rules_class, valid = self.spec.rules_class, []
        for name, value in rules.items():
            if name == "players" or not isinstance(value, int) or isinstance(value, bool):
                continue
            for other in (value + 1, value - 1):
                try:
                    changed = rules_class.from_dict({**rules, name: other})
                except ValueError:
                    continue
                valid.append((name, other))
                if self.replays(changed):
                    return name, other
                if len(valid) >= _RULES_TRIED:
                    return valid[0]
        return valid[0] if valid else None

    def replays(self, rules: Any) -> bool:
        game = self.spec.new_game(players=self.players, seed=self.seed, rules=rules)
        for action in self.game.actions:
            if game.why_illegal(action) is not None:
                return False
            game.apply(action)
        return True

    def swapped_action(self) -> dict | None:
        """The file's actions with the last one replaced by another legal at that point."""
        game = self.game
        if not game.actions:
            return None
        before = self.new_game()
        for action in game.actions[:-1]:
            before.apply(action)
        others = [a for a in before.legal_actions() if a != game.actions[-1]]
        if not others:
            return None
        before.apply(self.checks.choice(others))
        return {"actions": json.loads(before.to_json())["actions"]}


def _bots_play(spec: registry.GameSpec, players: int, seed: int, name: str, limit: int) -> None:
    """Bots of ``name`` in every seat decide from views alone, through the contract."""
    game = spec.new_game(players=players, seed=seed)
    bots = [spec.make_bot(name, seed=seed + seat) for seat in range(players)]
    rng = random.Random(f"{seed}:bots")
    for step in range(limit):
        if game.is_over:
            return
        seat = game.current_seat
        action = bots[seat].decide(game.view(seat), game.legal_actions(), rng)
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise AssertionError(
                f"{spec.name} (seed {seed}, after {step} actions): the {name!r} bot of seat "
                f"{seat} chose an illegal action {show(action)}: {exc.reason}"
            ) from None


def _members(protocol: type) -> list[str]:
    """The names a runtime-checkable protocol asks for (methods, properties, attributes)."""
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {n for n in vars(protocol) if not n.startswith("_")}
    return sorted(names)


def _json(check: _Playthrough, value: Any, what: str) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        check.fail(f"{what} is not plain JSON: {exc}")
    return value


def _reaches(view: Any, forbidden: tuple) -> str | None:
    """What in ``view`` (searched a few levels deep) is one of ``forbidden`` or a random
    stream, in words; None when nothing is."""
    seen: set[int] = set()
    level = [view]
    for _ in range(_VIEW_DEPTH + 1):
        following = []
        for item in level:
            if id(item) in seen or isinstance(item, (str, bytes, int, float, type(None))):
                continue
            seen.add(id(item))
            if any(item is f for f in forbidden):
                return "the game itself" if item is forbidden[0] else "the game's state"
            if isinstance(item, random.Random):
                return "a random stream, which would give the coming chance away"
            if isinstance(item, dict):
                following += list(item.values())[:_VIEW_ITEMS]
            elif isinstance(item, (list, tuple, set, frozenset)):
                following += list(item)[:_VIEW_ITEMS]
            elif hasattr(item, "__dict__") and not isinstance(item, type):
                following += list(vars(item).values())[:_VIEW_ITEMS]
        level = following
    return None
