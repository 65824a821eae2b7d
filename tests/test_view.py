"""The information-set view: what a seat may know, and nothing else (issue 19).

The main property: two positions that differ only in what a seat cannot see —
opponents' hands recomposed within their sizes, opponents' development cards, the
deck's order, the bag's order and the face-down green symbols, the random streams —
give that seat equal views, and every built-in bot decides identically on them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import energies as en
from energies.bots import PERSONAS, make_bot
from energies.newenergies import view as view_module
from energies.newenergies.rules import CARD_KINDS
from energies.newenergies.view import GameView, HiddenInformationError, PlayerView


def positions(seeds=range(6), players=(3, 4), every=9):
    """Positions of seeded games (random and persona seats), every ``every`` actions."""
    for seed in seeds:
        for n in players:
            game = en.new_game(players=n, seed=seed)
            names = ["random", "fossil", "green", "balanced", "freerider"]
            bots = [make_bot(names[(seed + s) % 5], seed=seed * 10 + s) for s in range(n)]
            rng = random.Random(seed)
            step = 0
            while not game.is_over:
                if step % every == 0:
                    yield game
                seat = game.current_seat
                action = bots[seat].decide(game.view(seat), game.legal_actions(), rng)
                game.apply(action)
                step += 1
            yield game


def hide_and_shuffle(game: en.Game, seat: int, rng: random.Random) -> en.Game:
    """A fork that differs from ``game`` only in what ``seat`` cannot see."""
    other = game.fork()
    state = other.state
    for p in state.players:
        if p.seat == seat:
            continue
        # the hand: same size, other composition
        size = sum(p.hand.values())
        p.hand = dict.fromkeys(CARD_KINDS, 0)
        for _ in range(size):
            p.hand[rng.choice(CARD_KINDS)] += 1
    # development cards of the others and the deck: dealt again, same counts
    others = [p for p in state.players if p.seat != seat]
    pool = [c for p in others for c in p.dev_cards] + state.dev_deck
    rng.shuffle(pool)
    for p in others:
        held, new = len(p.dev_cards), len(p.dev_new)
        p.dev_cards, pool = pool[:held], pool[held:]
        p.dev_new = list(p.dev_cards[:new])
    state.dev_deck = pool
    # green discs lie face down in the bag and under the slots: swap their symbols around
    greens = [d for d in state.bag if d[0] == "green"]
    symbols = [d[1] for d in greens] + [s for p in state.players for s in p.green_slots]
    rng.shuffle(symbols)
    browns = [d for d in state.bag if d[0] == "brown"]
    state.bag = browns + [("green", s) for s in symbols[: len(greens)]]
    rng.shuffle(state.bag)
    rest = symbols[len(greens) :]
    for p in state.players:
        k = len(p.green_slots)
        p.green_slots, rest = rest[:k], rest[k:]
    for stream in state.rng.values():
        stream.seed(rng.getrandbits(64))
    state.cache.forget()
    return other


def test_hidden_information_does_not_change_a_view_or_a_decision():
    rng = random.Random(19)
    checked = decided = 0
    for game in positions():
        for seat in range(game.rules.players):
            twin = hide_and_shuffle(game, seat, rng)
            mine, theirs = game.view(seat), twin.view(seat)
            assert mine == theirs, f"seat {seat} sees a difference at turn {game.turn}"
            checked += 1
            if game.current_seat == seat:
                legal = game.legal_actions()
                for cls in PERSONAS.values():  # fresh bots: a bot's own stream moves on
                    a = cls(seed=3).decide(mine, legal, random.Random(5))
                    b = cls(seed=3).decide(theirs, legal, random.Random(5))
                    assert a == b, f"{cls.__name__} decides differently on hidden information"
                decided += 1
    assert checked > 300 and decided > 100


def test_teacher_edits_of_hidden_facts_leave_the_views_of_other_seats_equal():
    from energies import sandbox

    def built(card: str, dev: str, dice: tuple[int, int]):
        game = en.new_game(players=4, seed=6)
        sandbox.give(game, 1, **{card: 2}, energy=1)
        sandbox.take(game, 1, **{card: 1})
        sandbox.give_dev_card(game, 2, dev)
        sandbox.fix_dice(game, *dice)
        return game

    one, two = built("steel", "victory_point", (4, 4)), built("brick", "cleanup", (2, 5))
    for seat in (0, 3):  # neither got the cards nor the development card
        assert one.view(seat) == two.view(seat)
        assert one.view(seat).log == two.view(seat).log
    assert one.view(1) != two.view(1)  # the seat given the cards knows them (its hand)
    assert one.log[-5:] == [
        "Teacher sandbox: give 2 cards for seat 1",
        "Teacher sandbox: give ['energy', 1] for seat 1",  # energy is public
        "Teacher sandbox: take 1 card for seat 1",
        "Teacher sandbox: give a development card for seat 2",
        "Teacher sandbox: the next dice roll is fixed",
    ]
    replayed = en.load_game(one.to_json())  # the edits themselves are kept for the replay
    assert replayed.state.players[1].hand == one.state.players[1].hand
    assert replayed.state.players[2].dev_cards == one.state.players[2].dev_cards


def test_the_view_does_see_what_the_seat_knows():
    # the control for the test above: changing the seat's own hand or a public fact shows
    game = en.new_game(players=4, seed=2)
    seat = game.current_seat
    before = game.view(seat)
    other = game.fork()
    other.state.players[seat].hand["brick"] += 1
    assert other.view(seat) != before
    other = game.fork()
    other.state.players[(seat + 1) % 4].hand["brick"] += 1  # hand size is public
    assert other.view(seat) != before
    other = game.fork()
    other.state.bag.pop(next(i for i, d in enumerate(other.state.bag) if d[0] == "brown"))
    assert other.view(seat) != before


def test_a_view_hides_the_others_cards_with_a_reason():
    game = en.new_game(players=4, seed=1)
    view = game.view(0)
    assert dict(view.players[0].hand) == game.state.players[0].hand
    assert view.players[2].cards == sum(game.state.players[2].hand.values())
    with pytest.raises(HiddenInformationError, match="hidden"):
        view.players[2].hand  # noqa: B018
    with pytest.raises(AttributeError):
        view.players[3].dev_cards  # noqa: B018
    with pytest.raises(HiddenInformationError):
        view.view(1)
    assert view.view(0) is view


def _reachable(root, depth=4):
    """Every object reachable from ``root`` by attribute access, items and iteration."""
    seen, todo = {}, [(root, 0)]
    while todo:
        obj, d = todo.pop()
        if id(obj) in seen or d > depth:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, (str, int, float, bool, type(None), en.RuleSet)):
            continue
        if type(obj).__name__ == "Board":
            continue  # immutable island topology, shared on purpose
        children = []
        if isinstance(obj, (tuple, frozenset)):
            children += list(obj)
        if hasattr(obj, "items") and hasattr(obj, "keys"):
            children += [v for kv in obj.items() for v in kv]
        for name in dir(obj):
            if name.startswith("__"):
                continue
            try:
                value = getattr(obj, name)
            except AttributeError:
                continue  # hidden fields raise
            if not callable(value):
                children.append(value)
        todo += [(c, d + 1) for c in children]
    return list(seen.values())


def test_no_path_from_a_view_back_to_the_game():
    game = en.new_game(players=4, seed=4)
    rng = random.Random(1)
    for _ in range(150):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.current_seat)
    assert not hasattr(view, "__dict__") and not hasattr(view.players[0], "__dict__")
    assert not hasattr(view, "fork") and not hasattr(view, "state") and not hasattr(view, "rng")
    forbidden = (en.Game, type(game.state), type(game.state.players[0]), random.Random)
    for obj in _reachable(view):
        assert not isinstance(obj, forbidden), f"the view reaches {type(obj).__name__}"
        assert not isinstance(obj, (list, dict, set)), f"the view holds a mutable {type(obj)}"
    with pytest.raises(AttributeError):
        view.turn = 3
    with pytest.raises(TypeError):
        view.me.hand["brick"] = 9


def test_views_reused_from_the_cache_equal_fresh_ones():
    game = en.new_game(players=4, seed=8)
    rng = random.Random(8)
    compared = 0
    while not game.is_over:
        seat = rng.randrange(4)
        cached = game.view(seat)
        view_module.forget_copies()
        assert tuple(cached) == tuple(game.view(seat))
        compared += 1
        game.apply(rng.choice(game.legal_actions()))
    assert compared > 100


def test_play_gives_bots_views_and_the_same_queries_as_the_state():
    seen = Counter()

    class Recorder:
        def decide(self, view, legal, rng):
            assert isinstance(view, GameView) and view.seat == legal[0].seat
            assert isinstance(view.players[0], PlayerView)
            seen[type(view).__name__] += 1
            return rng.choice(legal)

    game = en.new_game(players=4, seed=3)
    en.play(game, [Recorder(), make_bot("green", seed=1), make_bot("random", seed=2), Recorder()])
    assert seen["GameView"] > 50
    state, view = game.state, game.view(1)
    for s in range(4):
        assert view.local_footprint(s) == state.local_footprint(s)
        assert view.pieces_left(s, "road") == state.pieces_left(s, "road")
    assert view.global_footprint == state.global_footprint
    assert view.corner_owners() == state.corner_owners()
    assert list(view.log) == game.log


def test_public_vp_leaves_out_the_others_hidden_cards():
    game = en.new_game(players=4, seed=5)
    game.state.players[2].dev_cards.append("victory_point")
    assert game.view(2).victory_points(2) == game.victory_points(2)
    assert game.view(0).victory_points(2) == game.victory_points(2) - 1


def test_the_risk_meter_reads_a_view_like_the_game():
    from energies.insight import event_risk

    game = en.new_game(players=4, seed=6)
    rng = random.Random(6)
    for _ in range(400):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    on_game = event_risk(game)
    for seat in range(4):
        on_view = event_risk(game.view(seat))
        assert list(on_view["p_exact"]) == list(on_game["p_exact"])
        assert on_view.attrs["bag_green"] == on_game.attrs["bag_green"]


def test_a_task_changed_in_place_shows_in_the_next_view():
    """A pending task's frozen copy is kept with the task while its details stay equal
    (view._queue_view): a count the engine lowers in place (one card of a discard at a time)
    and a list changed inside the details both show in the next view, as in a fresh one."""
    from energies.newenergies.state import Task

    game = en.new_game(players=4, seed=2)
    discard = Task("discard", 1, {"count": 3, "source": "seven"})
    chosen = Task("choose_hex", 1, {"chosen": [4]})
    game.state.queue[:0] = [discard, chosen]
    assert game.view(1).queue[0].info["count"] == 3
    assert game.view(1).queue[1].info["chosen"] == (4,)
    discard.info["count"] -= 1
    chosen.info["chosen"].append(7)
    view = game.view(1)
    assert view.queue[0].info["count"] == 2 and view.queue[1].info["chosen"] == (4, 7)
    assert tuple(view) == tuple(view_module.fresh_view(game.state, 1))
    # only the tasks still queued are kept (keeping every task would keep them all alive)
    game.state.queue.remove(chosen)
    game.view(1)
    kept = [entry[0] for entry in view_module._queue_kept[0].values()]
    assert list(map(id, kept)) == list(map(id, game.state.queue))


def test_the_log_in_chunks_reads_as_the_games_log():
    """The log is copied in chunks of view.LOG_CHUNK lines that later views share: across
    chunk boundaries, and for another game's log, a view's log is the game's log. (On the
    way: the view counts the pieces left as the state does.)"""
    game = en.new_game(players=4, seed=3)
    rng = random.Random(3)
    for step in range(4 * view_module.LOG_CHUNK):
        if step % 5 == 0:
            assert list(game.view(game.current_seat).log) == game.log
        game.apply(rng.choice(game.legal_actions()))
        if step % 50 == 0:
            view = game.view(0)
            for seat in range(4):
                for piece in ("town", "city", "road", "fossil", "renewable"):
                    assert view.pieces_left(seat, piece) == game.state.pieces_left(seat, piece)
    other = en.new_game(players=4, seed=4)
    assert list(other.view(0).log) == other.log
    assert list(game.view(0).log) == game.log
