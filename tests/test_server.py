"""The class server over real websockets: joining, playing from a seat's own page, and nobody
getting in where they don't belong (issue 34's items 1, 2, 3 and 5).

Each test starts the server in a background thread of this process (``ClassServer``: uvicorn on
a free loopback port, exactly as ``energies serve`` runs it) and talks to it with the
``websockets`` client, as a browser does: what a test checks is what crossed the wire.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import sqlite3
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")

import energies as en
from energies.classroom.database import ClassDatabase
from energies.newenergies.actions import action_to_dict
from energies.server import create_class
from energies.server.running import ClassServer
from energies.server.seatpage import Screen, seat_page

TIMEOUT = 30.0


# -- helpers ---------------------------------------------------------------------------------------


class Client:
    """One websocket to the server, keeping every message it received."""

    def __init__(self, server: ClassServer, path: str, origin: str | None = None) -> None:
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            websockets_sync.connect(
                f"ws://127.0.0.1:{server.port}{path}",
                origin=origin,
                proxy=None,
                max_size=None,
                compression=None,
                open_timeout=TIMEOUT,
            )
        )
        self.received: list[dict] = []
        self.texts: list[str] = []
        self.view: dict | None = None
        self.moves = -1

    def send(self, **message) -> None:
        self.ws.send(json.dumps(message))

    def send_text(self, text) -> None:
        self.ws.send(text)

    def next(self, kind: str | None = None, timeout: float = TIMEOUT) -> dict:
        """The next message (of ``kind``), every message on the way kept."""
        while True:
            text = self.ws.recv(timeout)
            message = json.loads(text)
            self.texts.append(text)
            self.received.append(message)
            if message["type"] == "set" and "view" in message["changes"]:
                self.view, self.moves = message["changes"]["view"], message["moves"]
            if kind is None or message["type"] == kind:
                return message

    def ack(self, of: str | None = None) -> dict:
        while True:
            message = self.next("ack")
            if of is None or message["of"] == of:
                return message

    def page_at(self, moves: int) -> dict:
        """Read until the page shows the table after ``moves`` moves."""
        while self.moves < moves:
            self.next("set")
        return self.view

    def last(self, kind: str) -> dict:
        """The last message of ``kind`` received so far."""
        return next(m for m in reversed(self.received) if m["type"] == kind)

    def close(self) -> None:
        self._stack.close()


def student(server: ClassServer, code: str, name: str | None = None, token: str | None = None):
    """A student's connection: lobby, then a name (a new seat) or a token (the seat again)."""
    client = Client(server, f"/ws/table/{code}")
    client.next("lobby")
    if token is not None:
        client.send(type="hello", token=token)
        assert client.ack("hello")["ok"]
    elif name is not None:
        client.send(type="join", name=name)
        client.token = client.next("token")
        assert client.ack("join")["ok"]
    return client


@pytest.fixture
def make_server(tmp_path):
    servers = []

    def make(name="class", **options) -> ClassServer:
        path = tmp_path / f"{name}.sqlite"
        options.setdefault("tables", 2)
        options.setdefault("seed", 11)
        options.setdefault("bot_delay", 0.0)
        create_class(path, **options)
        server = ClassServer(path, port=0)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


def codes(server: ClassServer) -> list[str]:
    return [link.rsplit("/", 1)[1] for link in server.links.values()]


def full_table(server: ClassServer, code: str, names=("Ada", "Bo", "Cy", "Di")) -> list[Client]:
    seats = [student(server, code, name) for name in names]
    for client in seats:
        client.page_at(0)
    return seats


def deciding(clients: list[Client]) -> Client:
    """The client whose page offers something to click (the seat that decides)."""
    for client in clients:
        if client.view and _options(client.view):
            return client
    raise AssertionError("no page offers an action")


def _options(view: dict) -> list[dict]:
    from server_students import page_options

    return page_options(view)


def recorded_moves(path) -> list[dict]:
    with sqlite3.connect(path) as db:
        return [
            json.loads(a) for (a,) in db.execute("SELECT action FROM actions ORDER BY game, number")
        ]


def table_game(server: ClassServer, number: int = 1):
    return server.call(lambda hub: hub.room.tables[number].game.fork())


# -- joining -------------------------------------------------------------------------------------


def test_students_join_by_code_and_the_game_starts_with_their_names(make_server):
    server = make_server(bots={3: "green"})
    code = codes(server)[0]
    ada = student(server, code, "Ada")
    lobby = ada.last("lobby")["lobby"]
    assert lobby["you"] == 0 and [s["free"] for s in lobby["seats"]] == [False, True, True, False]
    bo = student(server, code, "Bo")
    refused = Client(server, f"/ws/table/{code}")
    refused.next("lobby")
    refused.send(type="join", name="bo")  # the same name, another case: a classmate's
    answer = refused.ack("join")
    assert not answer["ok"] and "already sits" in answer["reason"]
    refused.send(type="join", name="Eve\x1b[31m")  # a terminal escape code in a name
    assert "control character" in refused.ack("join")["reason"]
    cy = student(server, code, "Cy")  # the last open seat: the game starts
    page = cy.page_at(0)
    game = table_game(server)
    assert game.names == ["Ada", "Bo", "Cy", "Bot 4 (green)"]
    assert game.rules == en.RuleSet.classroom()  # the class preset by default
    assert page["hand"]["seat"] == 2 and page["hand"]["title"] == "Your hand"
    late = Client(server, f"/ws/table/{code}")
    late.next("lobby")
    late.send(type="join", name="Eve")
    assert "has started" in late.ack("join")["reason"]
    for client in (ada, bo, cy, refused, late):
        client.close()


def test_a_page_shows_its_own_hand_and_only_counts_of_the_others(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    game = table_game(server)
    for client in seats:
        seat = client.view["hand"]["seat"]
        own = game.state.players[seat]
        held = {kind: n for kind, n, _name in client.view["hand"]["cards"]}  # [kind, n, its word]
        assert held == {k: own.hand[k] for k in held}
        for row in client.view["scores"]:  # every seat: its card count, never its cards
            assert row["cards"] == sum(game.state.players[row["seat"]].hand.values())
            assert set(row) >= {"cards", "energy", "dev"} and "hand" not in row
    # no other seat's hand crossed the wire to seat 0: its texts never hold their hand lists
    texts = "\n".join(seats[0].texts)
    assert texts.count('"hand":{') == sum(1 for m in seats[0].received if m["type"] == "set")
    for client in seats:
        client.close()


def test_a_reload_gets_the_seat_back_and_a_wrong_token_gets_nothing(make_server):
    server = make_server()
    code = codes(server)[0]
    seats = full_table(server, code)
    token = seats[1].token["token"]
    seats[1].close()
    again = student(server, code, token=token)  # the reload
    assert again.page_at(0)["hand"]["seat"] == 1
    stranger = Client(server, f"/ws/table/{code}")
    stranger.next("lobby")
    stranger.send(type="hello", token="x" * 32)
    assert not stranger.ack("hello")["ok"]
    other = codes(server)[1]  # a real token of table 1 at table 2
    elsewhere = Client(server, f"/ws/table/{other}")
    elsewhere.next("lobby")
    elsewhere.send(type="hello", token=token)
    assert not elsewhere.ack("hello")["ok"]
    elsewhere.send(type="act", action={"kind": "end_turn", "seat": 1})
    assert "Take a seat first" in elsewhere.ack("act")["reason"]
    with sqlite3.connect(server.database) as db:  # the file keeps hashes, never a token
        stored = [t for (t,) in db.execute("SELECT token FROM seats WHERE token IS NOT NULL")]
    assert len(stored) == 4 and token not in stored
    for client in (*seats, again, stranger, elsewhere):
        client.close()


# -- playing -------------------------------------------------------------------------------------


def test_a_click_is_committed_then_acknowledged_then_every_page_shows_it(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    mover = deciding(seats)
    action = _options(mover.view)[0]
    mover.send(type="act", action=action, decision_no=mover.view["decision_no"], id=7)
    ack = mover.ack("act")
    assert ack == {"type": "ack", "ok": True, "reason": None, "of": "act", "id": 7, "move": 1}
    assert recorded_moves(server.database) == [action]  # on disk when the ack came
    for client in seats:
        page = client.page_at(1)
        assert page["log"] and client.moves == 1
    for client in seats:
        client.close()


def test_nobody_acts_for_another_seat_or_sends_what_the_page_never_offered(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    mover = deciding(seats)
    other = next(c for c in seats if c is not mover)
    before = table_game(server).digest()
    forged = {**_options(mover.view)[0]}  # the mover's own option, sent by another seat
    other.send(type="act", action=forged, decision_no=other.view["decision_no"])
    assert "not yours" in other.ack("act")["reason"]
    mine = other.view["hand"]["seat"]
    tries = [
        {"kind": "sandbox", "seat": mine, "op": "give", "args": ["steel", 9]},  # a teacher's edit
        {"kind": "build_city", "seat": mine, "corner": 0},  # unlisted
        {"kind": "no_such_thing", "seat": mine},
        {"kind": "end_turn", "seat": mine, "extra": 1},
        "end_turn",
    ]
    for action in tries:
        other.send(type="act", action=action)
        assert not other.ack("act")["ok"], action
    for action in tries[:2]:  # not even the seat that decides may send these
        mover.send(type="act", action={**action, "seat": mover.view["hand"]["seat"]})
        assert not mover.ack("act")["ok"]
    assert table_game(server).digest() == before and recorded_moves(server.database) == []
    for client in seats:
        client.close()


def test_a_student_who_is_not_active_proposes_a_trade_at_any_time_rule_12_1(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    game = table_game(server)
    active = game.active_seat
    by_seat = {c.view["hand"]["seat"]: c for c in seats}
    # play the active seat to its free decision of the action phase (answering any window)
    for _ in range(40):
        game = table_game(server)
        if game.state.phase == "action" and not game.state.queue:
            break
        mover = by_seat[game.current_seat]
        mover.page_at(len(game.actions))
        options = _options(mover.view)
        pick = next((o for o in options if o["kind"] in ("roll_dice", "decline")), options[-1])
        mover.send(type="act", action=pick, decision_no=mover.view["decision_no"])
        assert mover.ack("act")["ok"]
    else:
        raise AssertionError("the active player never got a free decision")
    proposer = by_seat[(active + 1) % 4]
    held = game.state.players[proposer.view["hand"]["seat"]].hand
    give = next(k for k, n in held.items() if n > 0)
    get = next(k for k in ("brick", "lumber", "food") if k != give)
    proposer.send(type="propose", seat=(active + 2) % 4, give=give, get=get)  # another seat
    assert "for yourself only" in proposer.ack("propose")["reason"]
    proposer.send(type="propose", seat=(active + 1) % 4, give=give, get=get)
    assert proposer.ack("propose")["ok"]
    game = table_game(server)
    assert game.actions[-1].kind == "propose_trade" and game.current_seat == active
    answer = by_seat[active].page_at(len(game.actions))
    assert answer["decision"] and "offers" in answer["decision"]["title"]
    for client in seats:
        client.close()


def test_a_proposal_made_before_the_roll_waits_for_the_active_players_next_decision(make_server):
    """Rule 12.1 as the PlayApp does it: a student who is not active proposes while the active
    player has not rolled yet; the proposal is held (the game does not change) through the
    roll and the windows after it, and made at the active player's next free decision of the
    action phase, where the active player's page asks them to answer it."""
    server = make_server()
    seats = full_table(server, codes(server)[0])
    by_seat = {c.view["hand"]["seat"]: c for c in seats}

    def play_until(done) -> None:
        for _ in range(120):
            game = table_game(server)
            if done(game):
                return
            mover = by_seat[game.current_seat]
            mover.page_at(len(game.actions))
            options = _options(mover.view)
            pick = next((o for o in options if o["kind"] in ("roll_dice", "decline")), options[-1])
            mover.send(type="act", action=pick, decision_no=mover.view["decision_no"])
            assert mover.ack("act")["ok"]
        raise AssertionError("the game never got there")

    def before_a_roll_with_cards(game) -> bool:
        s = game.state
        proposer = s.players[(s.active + 1) % 4]
        return s.phase == "roll" and not s.queue and s.turn >= 2 and sum(proposer.hand.values())

    play_until(before_a_roll_with_cards)
    game = table_game(server)
    active, moves = game.active_seat, len(game.actions)
    proposer = by_seat[(active + 1) % 4]
    hand = game.state.players[(active + 1) % 4].hand
    give = next(k for k, n in hand.items() if n > 0)
    get = next(k for k in ("brick", "lumber", "food", "fiber") if k != give)
    proposer.send(type="propose", seat=(active + 1) % 4, give=give, get=get, click="p:1")
    assert proposer.ack("propose")["ok"]
    page = proposer.page_at(moves)
    assert page["status"]["text"].startswith("Held:") and len(table_game(server).actions) == moves
    assert page["interject"]["seats"][0]["held"] == f"1 {give} for 1 {get}"

    play_until(
        lambda g: (
            g.actions[-1].kind == "propose_trade"
            or (g.state.phase == "action" and not g.state.queue)
            or g.turn != game.turn
        )
    )
    game = table_game(server)
    made = game.actions[-1]
    assert made.kind == "propose_trade" and made.seat == (active + 1) % 4, made
    assert (made.give, made.get) == (((give, 1),), ((get, 1),))
    assert game.current_seat == active and game.turn == table_game(server).turn
    answer = by_seat[active].page_at(len(game.actions))
    assert answer["decision"] and "offers" in answer["decision"]["title"]
    assert not proposer.page_at(len(game.actions))["interject"]["seats"][0]["held"]
    for client in seats:
        client.close()


def test_a_held_proposal_that_cannot_be_made_at_the_free_decision_is_dropped_with_why(tmp_path):
    """Rule 12.1 as the PlayApp does it: at the active player's free decision a held proposal
    the proposer can no longer make (the card is gone) is dropped, and the proposer's page
    says why in the engine's words with the table's names."""
    from energies import sandbox
    from energies.server.room import Room

    create_class(tmp_path / "c.sqlite", tables=1, seed=11, bot_delay=0)
    room = Room(ClassDatabase(tmp_path / "c.sqlite"))
    table = room.tables[1]
    for name in ("Ada", "Bo", "Cy", "Di"):
        room.join(table, name)
    game = table.game

    def play_until(done) -> None:
        while not done(game):
            legal = game.legal_actions()
            pick = next((a for a in legal if a.kind in ("roll_dice", "decline")), legal[-1])
            room.act(table, game.current_seat, type(game).CODEC.to_dict(pick))

    play_until(lambda g: g.state.phase == "roll" and g.turn >= 2)
    proposer = (game.active_seat + 1) % 4
    edits = game.fork()
    sandbox.give(edits, proposer, steel=1)
    for edit in edits.actions[len(game.actions) :]:
        room._apply(table, edit)
    assert room.propose(table, proposer, "steel", "food").startswith("Held:")
    edits = game.fork()  # the card goes before the active player is free to answer
    sandbox.take(edits, proposer, steel=game.state.players[proposer].hand["steel"])
    for edit in edits.actions[len(game.actions) :]:
        room._apply(table, edit)
    turn = game.turn
    play_until(lambda g: g.state.phase == "action" and not g.state.queue)
    assert game.turn == turn and proposer not in table.held
    assert not any(a.kind == "propose_trade" and a.seat == proposer for a in game.actions)
    page = seat_page(room, table, proposer, Screen())
    note = page["interject"]["seats"][0]["note"]
    active = game.names[game.active_seat]
    assert note.startswith(f"Your proposal to {active} (1 steel for 1 food) could not be made:")
    assert "seat" not in note.lower()


# -- what gets in --------------------------------------------------------------------------------


def test_malformed_messages_get_a_reason_and_change_nothing(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    client = deciding(seats)
    before = table_game(server).digest()
    for text in (
        "not json",
        "[1, 2]",
        '{"type": 7}',
        '{"type": "act", "action": NaN}',
        '{"type": "explode"}',
        '{"type": "charts", "open": "yes"}',
        '{"type": "propose", "seat": true, "give": "steel", "get": "food"}',
        '{"type": "act", "action": {}, "decision_no": 1.5}',
        '{"type": "act", "action": {}, "rev": 3}',
        b"\x00\x01binary",
    ):
        client.send_text(text)
        message = client.next("error")
        assert message["reason"], text
    for kind in ("undo", "bots", "save", "load"):
        client.send(type=kind)
        assert not client.ack(kind)["ok"]
    client.send(type="act", action={"kind": "end_turn", "seat": 0}, decision_no=10**6)  # stale
    client.ack("act")
    assert table_game(server).digest() == before
    for c in seats:
        c.close()


def test_oversized_messages_and_floods_are_refused_and_a_flood_is_cut_off(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    client = seats[0]
    before = table_game(server).digest()
    client.send_text(json.dumps({"type": "charts", "open": True, "pad": "x" * 9000}))
    assert "at most" in client.next("error")["reason"]
    big = Client(server, f"/ws/table/{codes(server)[0]}")  # beyond the frame limit: closed
    big.next("lobby")
    big.send_text("x" * 200_000)
    with pytest.raises(Exception) as closed:
        for _ in range(5):
            big.next()
    assert getattr(getattr(closed.value, "rcvd", None), "code", 1009) == 1009
    for _ in range(400):  # as fast as the socket takes them: cut off after a while
        try:
            client.send(type="charts", open=False)
        except Exception:  # noqa: BLE001 - the server closed it
            break
    reasons = []
    with pytest.raises(Exception):  # noqa: B017 - the server closes the connection
        while True:
            message = client.next()
            if message["type"] == "error":
                reasons.append(message["reason"])
    assert any("Too many messages" in r for r in reasons)
    assert table_game(server).digest() == before
    for c in seats[1:]:
        c.close()


def test_websockets_from_other_origins_are_refused(make_server):
    server = make_server()
    code = codes(server)[0]
    with pytest.raises(Exception) as refused:
        Client(server, f"/ws/table/{code}", origin="http://evil.example")
    assert "403" in str(refused.value)
    same = Client(server, f"/ws/table/{code}", origin=f"http://127.0.0.1:{server.port}")
    assert same.next("lobby")["lobby"]["code"] == code
    same.close()


def test_the_console_needs_the_teachers_key(make_server):
    server = make_server()
    console = Client(server, "/ws/console")
    assert console.next("hello")["need"] == "key"
    console.send(type="pause")
    assert "key first" in console.ack("pause")["reason"]
    console.send(type="hello", key="guess")
    assert not console.ack("hello")["ok"]
    assert not any(m["type"] == "set" for m in console.received)
    console.send(type="hello", key=server.key)
    assert console.next("set")["changes"]["console"]["tables"]
    console.close()
    for what in ("games.zip", "games.csv"):
        for headers in ({}, {"Authorization": "Bearer guess"}):
            request = urllib.request.Request(
                f"http://127.0.0.1:{server.port}/console/{what}", headers=headers
            )
            with pytest.raises(urllib.error.HTTPError) as denied:
                urllib.request.urlopen(request, timeout=TIMEOUT)
            assert denied.value.code == 403


def test_no_path_from_the_web_reaches_the_file_system(make_server):
    server = make_server()
    base = f"http://127.0.0.1:{server.port}"
    for path in (
        "/assets/../../pyproject.toml",
        "/assets/..%2F..%2Fpyproject.toml",
        "/assets/%2e%2e/%2e%2e/energies/__init__.py",
        "/assets/board.py",
        "/assets/class.sqlite",
        f"/assets/{server.database}",
        "/console/..%2Fclass.sqlite",
        "/t/..%2F..%2Fetc%2Fpasswd",
    ):
        try:
            with urllib.request.urlopen(base + path, timeout=TIMEOUT) as answer:
                body = answer.read()
                status = answer.status
        except urllib.error.HTTPError as exc:
            body, status = exc.read(), exc.code
        assert status in (403, 404), path
        assert b"[project]" not in body and b"SQLite" not in body and b"root:" not in body
    with urllib.request.urlopen(base + "/assets/playapp.js", timeout=TIMEOUT) as answer:
        policy = answer.headers["content-security-policy"]
        assert (
            "script-src 'self'" in policy and answer.headers["x-content-type-options"] == "nosniff"
        )
        from energies.widgets.play.board import STATIC

        assert answer.read() == (STATIC / "playapp.js").read_bytes()  # shared, not a copy


def test_the_server_listens_on_loopback_unless_told_otherwise(tmp_path):
    from energies.server import running

    create_class(tmp_path / "c.sqlite", tables=1)
    server = ClassServer(tmp_path / "c.sqlite", port=0)
    try:
        assert server.address[0] == "127.0.0.1"
        lan = running.lan_address()
        if lan != "127.0.0.1":  # another address of this machine does not answer
            with pytest.raises(OSError):
                socket.create_connection((lan, server.port), timeout=5).close()
        assert running.ClassServer.__init__.__kwdefaults__["host"] == "127.0.0.1"
        assert running.serve.__kwdefaults__["host"] == "127.0.0.1"
    finally:
        server.stop()
    from energies.cli import build_parser

    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"


# -- hidden information --------------------------------------------------------------------------


def _hidden_edits(game, variant: int) -> list:
    """Teacher edits of facts seat 0 cannot see (seat 1's cards, seat 2's development card),
    made with the sandbox on a copy and returned as the actions it recorded."""
    from energies import sandbox

    card, dev = ("steel", "victory_point") if variant == 0 else ("brick", "cleanup")
    copy = game.fork()
    before = len(copy.actions)
    sandbox.give(copy, 1, **{card: 2})
    sandbox.take(copy, 1, **{card: 1})
    sandbox.give_dev_card(copy, 2, dev)
    return copy.actions[before:]


def _twin_classes(make_server, tmp_path):
    """Two copies of one class whose table 1 holds the same game but for hidden facts (the
    teacher's edits in each copy's file); the same codes, seats and tokens."""
    import shutil

    first = make_server(name="twin", tables=1, seed=6)
    seats = full_table(first, codes(first)[0])
    tokens = [c.token["token"] for c in seats]
    for client in seats:
        client.close()
    first.stop()
    servers = []
    for variant in (0, 1):
        path = tmp_path / f"twin{variant}.sqlite"
        shutil.copyfile(first.database, path)
        with ClassDatabase(path) as db:
            record = db.games()[0]
            game = db.replay(record)
            for number, edit in enumerate(_hidden_edits(game, variant), start=1):
                game.apply(edit)
                db.record_move(record.id, number, action_to_dict(edit), game.digest())
        servers.append(ClassServer(path, port=0))
    return servers, tokens


def test_twin_positions_that_differ_only_in_hidden_facts_give_a_seat_the_same_messages(
    make_server, tmp_path
):
    """Over the wire: two classes whose games differ only in what seat 0 cannot see send
    seat 0 the very same texts, at the start and after every move of a stretch of play."""
    (one, two), tokens = _twin_classes(make_server, tmp_path)
    try:
        assert table_game(one).digest() != table_game(two).digest()  # they do differ
        code = codes(one)[0]
        assert codes(two)[0] == code
        a = [student(one, code, token=t) for t in tokens]
        b = [student(two, code, token=t) for t in tokens]
        for client in a + b:
            client.page_at(3)
        compared = 0
        for _step in range(24):
            game = table_game(one)
            if game.is_over:
                break
            seat = game.current_seat
            option = _options(a[seat].page_at(len(game.actions)))[0]
            b[seat].page_at(len(game.actions))
            for side in (a, b):
                side[seat].send(
                    type="act", action=option, decision_no=side[seat].view["decision_no"]
                )
                assert side[seat].ack("act")["ok"]
            moves = len(game.actions) + 1
            assert a[0].page_at(moves) is not None and b[0].page_at(moves) is not None
            compared += 1
        seen_a = [t for t in a[0].texts if '"type":"set"' in t]
        seen_b = [t for t in b[0].texts if '"type":"set"' in t]
        assert compared >= 10 and len(seen_a) == len(seen_b) >= compared
        assert seen_a == seen_b  # byte for byte: nothing of the hidden facts reached seat 0
        # the control: seat 1, who got the cards, does see a difference
        assert a[1].texts[-1] != b[1].texts[-1] or a[1].view["hand"] != b[1].view["hand"]
        for client in a + b:
            client.close()
    finally:
        one.stop()
        two.stop()


def test_every_seat_page_is_the_same_for_positions_that_differ_only_in_what_it_cannot_see(
    tmp_path,
):
    """The page builder itself, over many positions of seeded games: a twin made by
    reshuffling every hidden fact (tests/test_view.py's hide_and_shuffle) gives each seat
    the same page, to the byte."""
    from test_view import hide_and_shuffle, positions

    from energies.server.room import PLAYING, Room

    create_class(tmp_path / "p.sqlite", tables=1)
    room = Room(ClassDatabase(tmp_path / "p.sqlite"))
    table = room.tables[1]
    for s in table.seats:
        s.name = f"S{s.seat}"
    rng = random.Random(34)
    checked = 0
    for game in positions(seeds=range(2), players=(4,), every=23):
        for seat in range(4):
            if any(a.kind == "respond_to_trade" for a in game.legal_actions()):
                # the one answer a twin may change: whether the offerer still holds what it
                # offered. A real twin cannot differ there (the offer showed it holds it), but
                # hide_and_shuffle recomposes the offerer's hand all the same
                continue
            twin = hide_and_shuffle(game, seat, rng)
            pages = []
            for which in (game, twin):
                table.game, table.status = which, PLAYING
                pages.append(json.dumps(seat_page(room, table, seat, Screen()), sort_keys=True))
            assert pages[0] == pages[1], f"seat {seat} sees a difference at turn {game.turn}"
            checked += 1
    assert checked > 40


def test_the_charts_tab_gets_the_tables_footprint_chart_and_risk_meter(make_server):
    server = make_server()
    seats = full_table(server, codes(server)[0])
    client = seats[0]
    client.send(type="charts", open=True)
    deadline = time.monotonic() + 120  # matplotlib draws them in a worker thread
    while time.monotonic() < deadline:
        changes = client.next("set")["changes"]
        if "chart" in changes:
            break
    else:
        raise AssertionError("no charts arrived")
    assert changes["chart"].startswith("data:image/png;base64,")
    assert changes["risk"].startswith("data:image/png;base64,")
    assert not any("chart" in m.get("changes", {}) for m in seats[1].received)  # asked: only 0
    for c in seats:
        c.close()
