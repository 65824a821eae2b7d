"""One shell for every game (issue 31): the contract at the bottom (energies.kit), one
implementation of log, undo, digest and save files, and the public conformance check
``energies.kit.api_test`` run on every registered game and on deliberately broken ones."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from pathlib import Path

import pytest

import energies as en
from energies import cli, games, kit
from energies.games.shelfie import ShelfieGame, ShelfieRules
from energies.kit import IllegalActionError, SaveFileError, api_test

COMPANIONS = ["shelfie", "noclear"]
GOLDEN = Path(__file__).parent / "golden"
# a rule whose change still replays the games below: only the file digest can tell
REPLAYING_RULE = {"shelfie": ("rows_to_end", 3), "noclear": ("turn_limit", 399)}


def _played(name: str, seed: int = 21, actions: int = 30, rules=None):
    game = games.get(name).new_game(seed=seed, rules=rules, names=["Ada", "Bo"])
    rng = random.Random(seed)
    for _ in range(actions):
        game.apply(rng.choice(game.legal_actions()))
    return game


# -- the conformance check -----------------------------------------------------------------


@pytest.mark.parametrize("name", games.names())
def test_api_test_passes_on_every_registered_game(name):
    api_test(name)


@pytest.mark.parametrize(("name", "players"), [("shelfie", 1), ("noclear", 4), ("new-energies", 3)])
def test_api_test_passes_at_other_table_sizes(name, players):
    api_test(name, players=players, seeds=[5], bot_actions=60)


class _ApplyThenRaise(ShelfieGame):
    """Broken on purpose: an illegal action enters the log before it is refused."""

    def apply(self, action) -> None:
        reason = self.why_illegal(action)
        if reason is not None:
            self.actions.append(action)
            raise IllegalActionError(reason, action)
        self.apply_listed(action)


class _StateDigestOnly(ShelfieGame):
    """Broken on purpose, as the companion shell was: the file's digest covers the replayed
    position only, so an edited name loads as the same game."""

    def to_dict(self) -> dict:
        return {**super().to_dict(), "version": 1, "digest": self.digest()}


BROKEN = {"_ApplyThenRaise": _ApplyThenRaise, "_StateDigestOnly": _StateDigestOnly}
RULES = ShelfieRules  # this module is the broken games' game module (GameSpec.module)
_BROKEN_NOW = [_ApplyThenRaise]


def new_game(players=None, seed=0, rules=None, **options):
    return _BROKEN_NOW[0](rules or ShelfieRules(players=players or 2), seed, **options)


def load_game(text, trust_rules=False):
    return _BROKEN_NOW[0].from_json(text, trust_rules)


@pytest.mark.parametrize(
    ("broken", "words"),
    [
        ("_ApplyThenRaise", "the illegal action None changed the game"),
        ("_StateDigestOnly", "a save file with a name changed (its digest left as it was) loaded"),
    ],
)
def test_api_test_names_the_broken_promise_of_a_broken_game(broken, words):
    _BROKEN_NOW[0] = BROKEN[broken]
    spec = dataclasses.replace(games.get("shelfie"), name=f"broken{broken}", module=__name__)
    with pytest.raises(AssertionError) as info:
        api_test(spec, seeds=[3])
    assert words in str(info.value)
    assert str(info.value).startswith(f"broken{broken} (seed 3, 2 players, after ")


# -- save files: the digest covers the whole file, for every game ----------------------------


def _edits(name: str, game) -> dict:
    rule, value = REPLAYING_RULE[name]
    other = game.fork()
    other.undo()
    other.apply(next(a for a in other.legal_actions() if a != game.actions[-1]))
    swapped = json.loads(other.to_json())["actions"]
    return {
        "a name": lambda d: d["names"].__setitem__(1, "Eve"),
        "the seed": lambda d: d.update(seed=d["seed"] + 1),
        "a rule value": lambda d: d["rules"].update({rule: value}),
        "an action": lambda d: d.update(actions=swapped),
    }


@pytest.mark.parametrize("name", COMPANIONS)
def test_an_edited_companion_save_is_refused_by_the_loader_and_the_command(name, tmp_path, capsys):
    game = _played(name)
    text = game.to_json()
    assert json.loads(text)["version"] == 2
    for what, edit in _edits(name, game).items():
        data = json.loads(text)
        edit(data)
        with pytest.raises(SaveFileError) as info:
            games.load_game(json.dumps(data))
        if what != "the seed":  # (other dice may stop the replay before the digest)
            assert "digest does not match its rules, seats and replayed actions" in str(info.value)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        assert cli.main(["replay", str(path)]) == 2, what
        out, err = capsys.readouterr()
        assert "digest verified" not in out and err.startswith("energies: error:"), what
    path.write_text(text)
    assert cli.main(["replay", str(path)]) == 0
    assert "digest verified" in capsys.readouterr().out


@pytest.mark.parametrize("name", COMPANIONS)
def test_a_version_1_companion_file_of_default_rules_loads_and_saves_as_version_2(name):
    text = (GOLDEN / f"{name}_v1_save.json").read_text()  # written by the release before
    data = json.loads(text)
    assert (
        data["version"] == 1
        and data["rules"] == games.get(name).rules_class(players=len(data["names"])).to_dict()
    )
    game = games.load_game(text)
    assert game.digest() == data["digest"] and game.names == data["names"]
    again = json.loads(game.to_json())
    assert again["version"] == 2 and again["actions"] == data["actions"]
    assert games.load_game(game.to_json()).digest() == game.digest()
    data["actions"][-1] = json.loads(_edited_last_action(game))
    with pytest.raises(SaveFileError, match="digest does not match the replayed game"):
        games.load_game(json.dumps(data))


def test_a_version_2_noclear_file_written_by_release_0_3_loads_byte_for_byte():
    # written by 0.3.0 (three seats, engineer/random/engineer, seed 19: it buys three 4+4
    # machines with exactly 4 + 4 and ten uranium cards with all the energy held): the file
    # digest covers the rules dict and the position, so a new rules field, a new key in the
    # position or an action the rules no longer allow would all refuse it
    text = (GOLDEN / "noclear_v2_save.json").read_text().strip()
    data = json.loads(text)
    assert data["version"] == 2 and data["engine"] == "0.3.0"
    game = games.load_game(text)
    assert game.is_over and game.outcome.winners == (0,)
    again = json.loads(game.to_json())
    assert {k: again[k] for k in ("rules", "actions", "digest")} == {
        k: data[k] for k in ("rules", "actions", "digest")
    }


def _edited_last_action(game) -> str:
    other = game.fork()
    last = other.undo()[0]
    choice = next(a for a in other.legal_actions() if a != last)
    return json.dumps(type(game).CODEC.to_dict(choice))


@pytest.mark.parametrize("name", COMPANIONS)
def test_a_version_1_companion_file_of_other_rules_needs_trust(name, tmp_path):
    rule, value = REPLAYING_RULE[name]
    rules = games.get(name).rules_class(players=2).replace(**{rule: value})
    game = _played(name, rules=rules)
    old = json.loads(game.to_json())
    old.update(version=1, digest=game.digest())  # earlier releases: the state digest only
    with pytest.raises(SaveFileError, match=r"version 1.*load_game\(text, trust_rules=True\)"):
        en.load_game(json.dumps(old))
    trusted = en.load_game(json.dumps(old), trust_rules=True)
    assert getattr(trusted.rules, rule) == value and trusted.digest() == game.digest()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert en.load_file(path, trust_rules=True).digest() == game.digest()


def test_new_energies_version_2_files_written_before_the_shell_load_unchanged():
    # the same game as test_game_files' round trips: a file is the shell's output, byte for byte
    game = en.new_game(seed=7, names=["Ada", "Grace", "Alan", "Edsger"])
    rng = random.Random(7)
    for _ in range(150):
        game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    assert en.load_game(text).to_json() == text
    assert json.loads(text)["digest"] == kit.saves.file_digest(
        "energies-game",
        {k: json.loads(text)[k] for k in ("rules", "seed", "names", "actions")},
        game.digest(),
    )


def test_an_unknown_format_gets_the_friendly_reason_of_every_loader():
    for bad in ("{}", '{"format": "chess"}', '{"format": ["energies-game"]}'):
        with pytest.raises(SaveFileError, match=r"not an energies save file \(the 'format'"):
            games.load_game(bad)
    with pytest.raises(SaveFileError, match=r"not an energies save file \(expected a JSON"):
        games.load_game("[1]")
    shelfie_file = games.new_game("shelfie").to_json()
    with pytest.raises(SaveFileError, match="not an energies save file"):
        en.newenergies.load_game(shelfie_file)
    with pytest.raises(SaveFileError, match="not a Noclear save file"):
        games.get("noclear").load_game(shelfie_file)


# -- undo, and the objects every game shares -------------------------------------------------


def test_undo_refuses_bools_zero_and_floats_alike_in_every_game():
    messages = set()
    for name in games.names():
        game = games.new_game(name, seed=4)
        game.apply(game.legal_actions()[0])
        before = game.to_json()
        for steps in (True, 0, 1.0):
            with pytest.raises(ValueError) as info:
                game.undo(steps)
            messages.add(str(info.value))
        assert game.to_json() == before
        with pytest.raises(ValueError, match="Only 1 action"):
            game.undo(2)
    assert messages == {"undo needs a number of steps of at least 1."}


def test_every_game_is_a_game_shell_with_the_same_contract_objects():
    for name in games.names():
        game = games.new_game(name, seed=1)
        assert isinstance(game, kit.GameShell) and isinstance(game, kit.GameProtocol)
        assert games.spec_of(game) is games.get(name)
    # moved, not copied: the old homes hold the very same classes
    from energies.newenergies import engine, state
    from energies.newenergies.rules.house import HouseDefault

    assert en.IllegalActionError is engine.IllegalActionError is kit.IllegalActionError
    assert en.Outcome is state.Outcome is kit.Outcome
    assert en.SaveFileError is kit.SaveFileError and en.RuleError is kit.RuleError
    assert HouseDefault is kit.HouseDefault
    assert en.bots.bot_from_class_or_object is kit.bot_from_class_or_object
    assert games.get("shelfie").bots["random"] is kit.RandomBot
    assert issubclass(en.bots.RandomBot, kit.RandomBot)
    outcome = kit.Outcome("points", (0,), 3, "seat 0 wins")
    assert pickle.loads(pickle.dumps(outcome)) == outcome  # simulate sends them across processes
    assert en.__version__ == kit.RELEASE


def test_a_game_spec_names_its_game_module_and_its_bots_apart():
    spec = games.get("new-energies")
    assert (spec.module, spec.bot_module) == ("energies.newenergies", "energies.bots")
    assert spec.code.RULES is en.RuleSet and spec.code.new_game is en.new_game
    assert spec.bots == en.bots.PERSONAS
    for name in COMPANIONS:
        spec = games.get(name)
        assert spec.module == spec.bot_module == f"energies.games.{name}"
    with pytest.warns(DeprecationWarning, match="energies.games.new_energies moved"):
        import energies.games.new_energies as old
    assert old is en.newenergies
    with pytest.raises(ValueError, match="not a game of the kit"):
        games.spec_of(object())
