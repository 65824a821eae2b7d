"""The teacher's console over real websockets: every table live, pause and resume, end the
round, lesson 07's second round, a seat handed to a bot, the downloads, and
``classroom.collect`` reading the class straight from its database (issue 34, item 4)."""

from __future__ import annotations

import io
import time
import urllib.request
import zipfile

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from test_server import Client, _options, codes, full_table, student, table_game

import energies as en
from energies.classroom import collect, plot_class
from energies.classroom.database import ClassDatabase
from energies.server import create_class
from energies.server.room import Room


@pytest.fixture
def server(tmp_path):
    path = tmp_path / "class.sqlite"
    create_class(path, tables=2, seed=40, bots={3: "green"}, bot_delay=0.0, name="7B")
    running = en.server.ClassServer(path, port=0)
    yield running
    running.stop()


def console(server) -> Client:
    client = Client(server, "/ws/console")
    client.next("hello")
    client.send(type="hello", key=server.key)
    assert client.ack("hello")["ok"]
    return client


def latest(client: Client) -> dict:
    """The console as the teacher's page shows it now (every message waiting read first)."""
    try:
        while True:
            client.next(timeout=0.05)
    except TimeoutError:
        pass
    return next(m for m in reversed(client.received) if m["type"] == "set")["changes"]["console"]


def command(client: Client, **message) -> dict:
    client.send(**message)
    return client.ack(message["type"])


def wait_for(check, what: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {timeout} s")


def download(server, what: str) -> bytes:
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/console/{what}",
        headers={"Authorization": f"Bearer {server.key}"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200
        return answer.read()


def play(server, seats: list[Client], moves: int) -> None:
    """Make ``moves`` student moves at table 1 (each the first option of the deciding page),
    while its bot plays its own at its pace."""
    by_seat = {c.view["hand"]["seat"]: c for c in seats}
    made = 0
    deadline = time.monotonic() + 60
    while made < moves:
        assert time.monotonic() < deadline, "the table did not move on"
        game = table_game(server)
        client = by_seat.get(game.current_seat)
        if client is None:  # the bot decides
            time.sleep(0.02)
            continue
        page = client.page_at(len(game.actions))
        options = _options(page)
        if not options:  # an older drawing of this position (paused, say): the next one
            try:
                client.next("set", timeout=0.5)
            except TimeoutError:
                pass
            continue
        client.send(type="act", action=options[0], decision_no=page["decision_no"])
        if client.ack("act")["ok"]:
            made += 1


def next_game(client: Client) -> dict:
    """The first page of a new game (a new round): move 0 again."""
    while True:
        message = client.next("set")
        if "view" in message["changes"] and message["moves"] == 0:
            return message["changes"]["view"]


def test_the_console_shows_every_table_live_with_its_join_code_and_qr_code(server):
    teacher = console(server)
    first = teacher.received[-2]["changes"] if teacher.received[-2]["type"] == "set" else None
    first = first or next(m for m in teacher.received if m["type"] == "set")["changes"]
    assert set(first["qr"]) == {"1", "2"} and first["qr"]["1"].startswith("<svg")
    state = first["console"]
    assert state["class"] == "7B" and state["round"] == 1 and not state["paused"]
    table = state["tables"][0]
    assert table["status"] == "waiting" and table["link"] == server.links[1]
    seats = full_table(server, codes(server)[0], names=("Ada", "Bo", "Cy"))
    playing = wait_for(
        lambda: (s := latest(teacher))["tables"][0].get("turn") is not None and s, "a live table"
    )
    table = playing["tables"][0]
    assert table["status"] == "playing" and table["gf_max"] == 28 and table["bag"] > 0
    assert [s["name"] for s in table["seats"]] == ["Ada", "Bo", "Cy", "Bot 4 (green)"]
    assert {"lf", "fossil", "renewable", "vp", "cards"} <= set(table["seats"][0])
    assert table["seats"][0]["who"] == "student" and table["seats"][3]["who"] == "bot (green)"
    for client in (teacher, *seats):
        client.close()


def test_pause_stops_every_move_and_resume_lets_the_class_go_on(server):
    teacher = console(server)
    seats = full_table(server, codes(server)[0], names=("Ada", "Bo", "Cy"))
    assert command(teacher, type="pause")["ok"]
    assert wait_for(lambda: latest(teacher)["paused"], "a paused console")
    moves = len(table_game(server).actions)
    for client in seats:  # every page says so, and no click counts
        page = client.page_at(moves)
        while "paused" not in page["prompt"]:
            page = client.next("set")["changes"].get("view", page)
    time.sleep(0.5)  # bots do not move either (their delay is 0 here)
    assert len(table_game(server).actions) == moves
    mover = seats[0]
    mover.send(
        type="act", action={"kind": "end_turn", "seat": 0}, decision_no=mover.view["decision_no"]
    )
    assert "paused" in mover.ack("act")["reason"]
    assert command(teacher, type="resume")["ok"]
    play(server, seats, 1)
    assert len(table_game(server).actions) > moves
    for client in (teacher, *seats):
        client.close()


def test_end_round_then_the_second_round_plays_the_same_seeds_and_collect_reads_both(server):
    teacher = console(server)
    seats = full_table(server, codes(server)[0], names=("Ada", "Bo", "Cy"))
    play(server, seats, 3)  # a few moves of round 1
    assert command(teacher, type="end_round")["move"] == 1  # one table was playing
    mover = seats[0]
    mover.send(type="act", action={"kind": "end_turn", "seat": 0})
    assert "ended this round" in mover.ack("act")["reason"]
    round1 = collect(server.database)  # while the server runs (WAL: it keeps writing)
    assert list(round1["round"]) == [1] and round1["outcome"].tolist() == ["in_progress"]
    assert round1["group"].tolist() == ["table 1"] and not round1["agreement"].any()
    first_seed = table_game(server).seed
    answer = command(teacher, type="next_round", agreement=True)
    assert answer["ok"] and answer["move"] == 2
    from energies.classroom import roles_for

    for client in seats:  # every page switches to the new game: the same board, move 0
        assert next_game(client)["hand"]["seat"] == client.view["hand"]["seat"]
        seat = client.view["hand"]["seat"]
        card = next(m for m in reversed(client.received) if m["type"] == "set" and "lobby" in m)
        assert card["lobby"]["role"]["title"] == roles_for(4)[seat].title  # lesson 07's cards
        assert "Round 2 has started" in client.view["status"]["text"]
    game = table_game(server)
    assert game.seed == first_seed and game.names[:3] == ["Ada", "Bo", "Cy"]
    wait_for(lambda: latest(teacher)["round"] == 2, "round 2 on the console")
    assert latest(teacher)["agreement"] is True and latest(teacher)["roles"] is True
    play(server, seats, 2)
    both = collect(server.database)
    assert both["round"].tolist() == [1, 2] and both["agreement"].tolist() == [False, True]
    assert both.attrs["skipped"] == [] and (both["table"] == 1).all()
    ax = plot_class(both)  # each round in its own line style, as in lesson 07
    assert len(ax.get_lines()) == 4
    for client in (teacher, *seats):
        client.close()


def test_the_downloads_hold_every_game_as_a_checked_save_file_and_as_one_table(server):
    import pandas as pd

    teacher = console(server)
    seats = full_table(server, codes(server)[0], names=("Ada", "Bo", "Cy"))
    play(server, seats, 1)
    archive = zipfile.ZipFile(io.BytesIO(download(server, "games.zip")))
    assert archive.namelist() == ["round1-table01.json"]
    game = en.load_game(archive.read("round1-table01.json"))  # replayed, digest checked
    assert game.digest() == table_game(server).digest()
    table = pd.read_csv(io.BytesIO(download(server, "games.csv")))
    assert table.loc[0, "names"].startswith("Ada, Bo, Cy") and table.loc[0, "round"] == 1
    for client in (teacher, *seats):
        client.close()


def test_the_teacher_hands_a_left_seat_to_a_bot_and_a_reload_takes_it_back(server):
    teacher = console(server)
    code = codes(server)[0]
    seats = full_table(server, code, names=("Ada", "Bo", "Cy"))
    token = seats[1].token["token"]
    seats[1].close()
    wait_for(
        lambda: latest(teacher)["tables"][0]["seats"][1]["who"] == "student (offline)", "offline"
    )
    assert command(teacher, type="seat_to_bot", table=1, seat=1)["ok"]
    assert latest(teacher)["tables"][0]["seats"][1]["who"].startswith("bot (balanced) for Bo")
    assert not command(teacher, type="seat_to_bot", table=1, seat=3)["ok"]  # no student there
    assert not command(teacher, type="seat_to_bot", table=9, seat=0)["ok"]
    # the bot plays Bo's decisions now
    for _ in range(60):
        if any(a.seat == 1 for a in table_game(server).actions):
            break
        play(server, [seats[0], seats[2]], 1)
    assert any(a.seat == 1 for a in table_game(server).actions), "no bot move for Bo"
    back = student(server, code, token=token)
    page = back.page_at(len(table_game(server).actions))
    assert page["hand"]["seat"] == 1
    wait_for(lambda: latest(teacher)["tables"][0]["seats"][1]["who"] == "student", "Bo back")
    for client in (teacher, back, seats[0], seats[2]):
        client.close()


def test_bots_wait_the_class_pace_after_every_change(tmp_path):
    path = tmp_path / "c.sqlite"
    create_class(path, tables=1, seed=2, bots={1: "green", 2: "fossil", 3: "random"}, bot_delay=2.0)
    now = [100.0]
    room = Room(ClassDatabase(path), clock=lambda: now[0])
    table = room.tables[1]
    room.join(table, "Ada")  # the only student seat: the table starts
    game = table.game
    while not room.bot_due(table):  # let Ada reach a bot's turn
        room.act(table, 0, type(game).CODEC.to_dict(game.legal_actions()[0]))
    assert room.seconds_until_bot(table) == pytest.approx(2.0)
    now[0] += 1.5
    assert room.seconds_until_bot(table) == pytest.approx(0.5)
    now[0] += 0.5
    assert room.seconds_until_bot(table) == 0.0
    moves = len(game.actions)
    room.bot_move(table)
    assert len(game.actions) == moves + 1
    if room.bot_due(table):
        assert room.seconds_until_bot(table) == pytest.approx(2.0)  # the pace starts again
    room.pause()
    assert not room.bot_due(table) and room.bot_move(table) is None


def test_a_new_class_refuses_bad_settings_and_an_old_one_keeps_its_own(tmp_path):
    from energies.cli import main
    from energies.server import Refusal

    path = tmp_path / "c.sqlite"
    for bad in (
        {"tables": 0},
        {"tables": True},
        {"bots": {4: "green"}},
        {"bots": {0: "nobody"}},
        {"bots": {s: "green" for s in range(4)}},
        {"rules": "long"},
        {"bot_delay": -1},
        {"name": "\x07"},
    ):
        with pytest.raises(Refusal):
            create_class(path, **bad)
    assert ClassDatabase(path).is_empty()  # nothing was written
    create_class(path, tables=1)
    with pytest.raises(Refusal, match="already holds a class"):
        create_class(path, tables=2)
    assert main(["serve", str(path), "--tables", "3"]) == 2  # keeps its 1 table: refused
    assert main(["serve", str(tmp_path / "n.sqlite"), "--seats", "green,green,green"]) == 2
    assert main(["serve", str(tmp_path / "n.sqlite"), "--seats", "student,nobody,student"]) == 2
    not_a_class = tmp_path / "notes.txt"
    not_a_class.write_text("my notes")
    assert main(["serve", str(not_a_class)]) == 2
    assert not_a_class.read_text() == "my notes"


def test_collect_skips_a_game_whose_moves_were_changed_in_the_file(tmp_path):
    import sqlite3

    path = tmp_path / "c.sqlite"
    create_class(path, tables=2, seed=5, bots={1: "green", 2: "green", 3: "green"})
    room = Room(ClassDatabase(path))
    for table in room.tables.values():
        room.join(table, "Ada")
        game = table.game
        for _ in range(4):
            if game.current_seat == 0:
                room.act(table, 0, type(game).CODEC.to_dict(game.legal_actions()[0]))
            else:
                room.bot_move(table)
    room.db.close()
    assert collect(path)["table"].tolist() == [1, 2]
    with sqlite3.connect(path) as db:  # someone edits a move of table 2 by hand
        db.execute(
            """UPDATE actions SET action = '{"kind":"end_turn","seat":2}' """
            "WHERE game = (SELECT id FROM games WHERE number = 2) AND number = 1"
        )
    frame = collect(path)
    assert frame["table"].tolist() == [1]
    (skipped,) = frame.attrs["skipped"]
    assert skipped["source"].endswith("round 1, table 2") and "table 2" in skipped["reason"]


def test_one_line_in_a_notebook_starts_the_class_and_its_console_widget(tmp_path, capsys):
    path = tmp_path / "notebook.sqlite"
    server = en.server.serve(path, tables=2, seed=3, bots={2: "green", 3: "fossil"}, port=0)
    try:
        printed = capsys.readouterr().out
        assert server.links[1] in printed and server.console_url in printed
        assert "this machine only" in printed  # loopback unless the teacher says otherwise
        widget = server.console()
        assert [t["number"] for t in widget.console["tables"]] == [1, 2]
        assert set(widget.qr) == {"1", "2"}
        from energies.server.web import STATIC

        assert widget._esm == (STATIC / "console.js").read_text()  # the console page's own code
        seats = full_table(server, codes(server)[0], names=("Ada", "Bo"))
        wait_for(lambda: widget.console["tables"][0]["status"] == "playing", "a live widget")
        widget._on_message(widget, {"type": "pause"}, [])  # the widget's button
        assert widget.status == "Done." and widget.console["paused"]
        widget._on_message(widget, {"type": "seat_to_bot", "table": 7, "seat": 0}, [])
        assert "no table 7" in widget.status
        widget._on_message(widget, {"type": "download", "what": "games.zip"}, [])
        assert "save_games" in widget.status
        widget._on_message(widget, {"type": "resume"}, [])
        assert not widget.console["paused"]
        saved = server.save_games(tmp_path / "saves")
        assert [p.name for p in saved] == ["round1-table01.json"]
        assert en.load_game(saved[0].read_text()).names[:2] == ["Ada", "Bo"]
        assert server.collect()["names"].tolist() == ["Ada, Bo, Bot 3 (green), Bot 4 (fossil)"]
        widget.close()
        for client in seats:
            client.close()
    finally:
        server.stop()
    assert not server.running
    with pytest.raises(ValueError):
        en.server.ConsoleWidget(object())
    again = en.server.serve(path, port=0, quiet=True)  # the same file: the class goes on
    try:
        assert (
            again.key == server.key
            and again.call(lambda hub: hub.room.tables[1].status) == "playing"
        )
    finally:
        again.stop()
    with pytest.raises(en.server.Refusal, match="leave out tables"):
        en.server.serve(path, tables=3, port=0)


def test_a_table_filled_during_a_pause_starts_when_the_class_goes_on(tmp_path):
    path = tmp_path / "c.sqlite"
    create_class(path, tables=1, seed=2, bots={2: "green", 3: "green"})
    room = Room(ClassDatabase(path))
    table = room.tables[1]
    room.pause()
    room.join(table, "Ada")
    room.join(table, "Bo")
    assert table.status == "waiting" and table.game is None  # nobody plays while paused
    room.resume()
    assert table.status == "playing" and table.game.names[:2] == ["Ada", "Bo"]


def test_without_the_server_extra_the_command_says_what_to_install(tmp_path, monkeypatch, capsys):
    from energies.cli import main
    from energies.server import running

    monkeypatch.setattr(running, "missing_packages", lambda: ["uvicorn", "segno"])
    assert main(["serve", str(tmp_path / "c.sqlite")]) == 2
    assert "pip install 'energies[server]'" in capsys.readouterr().err
    assert not (tmp_path / "c.sqlite").exists()
    with pytest.raises(ImportError, match="uvicorn, segno"):
        en.server.ClassServer(tmp_path / "c.sqlite")


def test_a_refused_click_sends_the_last_page_again_without_building_it(tmp_path, monkeypatch):
    """A student who clicks wrong again and again costs a status line, not a page (each page
    asks the engine why about every spot of the board)."""
    import json

    from server_students import run_async

    from energies.server import seatpage
    from energies.server.hub import Connection, Hub

    create_class(tmp_path / "c.sqlite", tables=1, seed=4)
    built = []
    real = seatpage._build_page
    monkeypatch.setattr(seatpage, "_build_page", lambda *a: built.append(a[2]) or real(*a))

    async def main():
        room = Room(ClassDatabase(tmp_path / "c.sqlite"))
        hub = Hub(room, "http://class")
        conns = []
        for name in ("Ada", "Bo", "Cy", "Di"):
            conn = Connection("student", room.tables[1])
            hub.open_student(conn)
            hub.receive(conn, json.dumps({"type": "join", "name": name}))
            conns.append(conn)
        before = len(built)
        wrong = json.dumps({"type": "act", "action": {"kind": "end_turn", "seat": 0}})
        waiting = next(c for c in conns if c.seat != room.tables[1].game.current_seat)
        for _ in range(5):
            hub.receive(waiting, wrong)
        pages = [json.loads(t) for t in _drain(waiting) if '"type":"set"' in t]
        assert len(built) == before  # no page was built for the five refusals
        assert [p["changes"]["view"]["status"]["kind"] for p in pages[-5:]] == ["error"] * 5
        revs = [p["changes"]["view"]["rev"] for p in pages[-5:]]
        assert revs == sorted(set(revs))  # every answer is a new drawing for the page

    run_async(main)


def _drain(conn) -> list[str]:
    texts = []
    while not conn.queue.empty():
        texts.append(conn.queue.get_nowait())
    return texts


def test_the_teacher_frees_a_seat_taken_before_the_table_starts(server):
    teacher = console(server)
    code = codes(server)[0]
    prankster = student(server, code, "Nobody")
    token = prankster.token["token"]
    assert command(teacher, type="free_seat", table=1, seat=0)["ok"]
    with pytest.raises(Exception):  # noqa: B017 - the server closes that page's connection
        while True:
            prankster.next()
    again = Client(server, f"/ws/table/{code}")
    again.next("lobby")
    again.send(type="hello", token=token)  # the old token names no seat any more
    assert not again.ack("hello")["ok"]
    assert again.last("lobby")["lobby"]["seats"][0]["free"]
    assert not command(teacher, type="free_seat", table=1, seat=0)["ok"]  # free already
    seats = full_table(server, code, names=("Ada", "Bo", "Cy"))
    answer = command(teacher, type="free_seat", table=1, seat=0)  # playing: a bot instead
    assert not answer["ok"] and "give the seat to a bot" in answer["reason"]
    for client in (teacher, again, *seats):
        client.close()


def test_role_cards_come_with_a_round_in_role_only(tmp_path):
    from energies.classroom import roles_for
    from energies.server.seatpage import lobby

    create_class(tmp_path / "c.sqlite", tables=1, seed=3, bots={2: "green"}, players=3)
    room = Room(ClassDatabase(tmp_path / "c.sqlite"))
    table = room.tables[1]
    room.join(table, "Ada")
    room.join(table, "Bo")
    assert lobby(room, table, 0)["role"] is None  # round 1: no cards
    room.next_round(False, roles=False)
    assert lobby(room, table, 0)["role"] is None
    room.next_round(True)  # lesson 07's second round: in role
    cards = [lobby(room, table, seat)["role"]["title"] for seat in range(3)]
    assert cards == [role.title for role in roles_for(3)]  # seat order, no journalist
    assert lobby(room, table, None)["role"] is None  # nobody's card in the lobby
    with pytest.raises(en.server.Refusal):
        room.next_round(True, roles="yes")


def test_lesson_07_runs_on_the_live_class_and_its_charts_follow_the_games(server):
    """Lesson 07 with both rounds pointed at the class file, as its text says: its cells run
    while the server plays round 2 (a table not finished in both rounds is not compared yet),
    and run again once the table has finished, they compare and draw it."""
    import json
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    seats = full_table(server, codes(server)[0], names=("Ada", "Bo", "Cy"))
    for client in seats:
        client.close()

    def play_on(hub, moves: int) -> int:
        """Up to ``moves`` moves at table 1 on the server's own loop (students and bot)."""
        room, table = hub.room, hub.room.tables[1]
        made = 0
        while made < moves and not table.game.is_over:
            game = table.game
            if room.bot_due(table):
                room.bot_move(table)
            else:
                legal = game.legal_actions()
                room.act(table, game.current_seat, type(game).CODEC.to_dict(legal[-1]))
            made += 1
        return len(table.game.actions)

    server.call(play_on, 10_000)
    assert table_game(server).is_over
    assert server.next_round(agreement=True) == 2
    server.call(play_on, 20)

    notebook = Path(__file__).resolve().parents[1] / "notebooks" / "07-class-experiment.ipynb"
    cells = [
        "".join(cell["source"])
        for cell in json.loads(notebook.read_text())["cells"]
        if cell["cell_type"] == "code"
    ]
    live = repr(str(server.database))

    def run_lesson() -> dict:
        names: dict = {}
        for source in cells:
            if "ROUND_1 = " in source:  # the cell that names the class's files
                source = source.replace('"class-example/round1"', live)
                source = source.replace('"class-example/round2"', live)
            if "GROUP, SEED, ROUND" in source:  # the cell each group runs at its laptop
                continue
            try:
                exec(source, names)  # noqa: S102 - the lesson's own cells, as Jupyter runs them
            except ValueError as exc:
                names.setdefault("refused", []).append(str(exc))
        return names

    during = run_lesson()
    assert during["round1"]["outcome"].iloc[0] != "in_progress"
    assert during["round2"]["outcome"].tolist() == ["in_progress"]
    assert during["both"]["round"].tolist() == [1, 2]
    assert during["refused"] and all("No table finished both" in r for r in during["refused"])
    server.call(play_on, 10_000)
    after = run_lesson()
    assert "refused" not in after, after.get("refused")
    assert after["pairs"]["group"].tolist() == ["table 1"]
    assert after["round2"]["agreement"].tolist() == [True]
