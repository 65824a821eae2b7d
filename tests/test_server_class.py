"""A class plays through a real ``energies serve`` process: 40 simulated students at 10 tables
play whole games without a move lost or applied twice, and a server killed mid-game resumes
every table exactly where it was (issue 34, "done when" and item 1).

The students are websocket clients (``tests/server_students.py``) that click random options
of their own pages. The timing of the class is measured by ``benchmarks/server_load.py``;
these tests assert correctness only. The games use the classroom preset with fewer brown
discs of each event kind (two instead of four: a game about half as long; one for the class
of 40, a third as long), so CI waits a minute, not several.
"""

from __future__ import annotations

import asyncio
import io
import json
import urllib.request
import zipfile

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from server_students import Student, run_async, start_server

import energies as en
from energies.classroom.database import ClassDatabase
from energies.newenergies.rules.vocabulary import BROWN_EVENTS
from energies.server import create_class

SHORT = en.RuleSet.classroom().replace(brown_discs=tuple((kind, 2) for kind in BROWN_EVENTS))
SHORTER = SHORT.replace(brown_discs=tuple((kind, 1) for kind in BROWN_EVENTS))


def make_class(path, tables: int, seed: int, rules=SHORT) -> list[str]:
    create_class(path, tables=tables, rules=rules, seed=seed, bot_delay=0)
    with ClassDatabase.open_for_reading(path) as db:
        return [t["code"] for t in db.tables()]


def run(students: list[Student], timeout: float) -> list:
    async def main():
        return await asyncio.gather(*(s.play(timeout) for s in students), return_exceptions=True)

    return run_async(main)


def check_no_move_lost_or_doubled(path, students: list[Student]) -> dict[int, str]:
    """Every move a student got acknowledged is in the file at its number, once; the file
    holds nothing else (no bots here) but clicks whose answer a killed server never sent
    (committed, then killed before the acknowledgement); each game replays offline, from its
    seed and those moves alone, to the digest the server recorded. Returns table -> digest."""
    digests = {}
    with ClassDatabase.open_for_reading(path) as db:
        tables = {t["code"]: t["number"] for t in db.tables()}
        for record in db.games():
            acked = {}
            for s in students:
                if tables[s.code] == record.number:
                    for number, action in s.moves:
                        assert number not in acked, f"move {number} acknowledged twice"
                        acked[number] = action
            unanswered = [
                a for s in students if tables[s.code] == record.number for a in s.unanswered
            ]
            stored = {number: action for number, action, _digest in db.moves(record.id)}
            assert sorted(stored) == list(range(1, record.moves + 1))
            for number, action in stored.items():
                if number in acked:
                    assert acked[number] == action, f"table {record.number}, move {number}"
                else:  # committed, and the server was killed before it could say so
                    assert action in unanswered, f"table {record.number}: move {number} unknown"
                    unanswered.remove(action)
            assert set(acked) <= set(stored), f"table {record.number}: an acknowledged move lost"
            rules = en.RuleSet.from_dict(record.rules)
            offline = en.new_game(rules=rules, seed=record.seed, names=list(record.names))
            codec = type(offline).CODEC
            for number in sorted(stored):
                offline.apply(codec.from_dict(stored[number]))
            assert offline.digest() == record.digest
            digests[record.number] = record.digest
    return digests


def test_a_class_of_40_simulated_students_plays_through_the_server_without_loss(tmp_path):
    path = tmp_path / "class.sqlite"
    codes = make_class(path, tables=10, seed=100, rules=SHORTER)
    server = start_server(path)
    try:
        students = [
            Student(server.ws, code, f"S{seat}", seed=100 * table + seat)
            for table, code in enumerate(codes)
            for seat in range(4)
        ]
        failures = [r for r in run(students, timeout=600) if isinstance(r, BaseException)]
        assert not failures, failures[:3]
    finally:
        server.stop()
    assert all(s.over for s in students)
    check_no_move_lost_or_doubled(path, students)
    with ClassDatabase.open_for_reading(path) as db:
        games = db.games()
    assert len(games) == 10 and all(g.status == "over" for g in games)
    assert sum(len(s.moves) for s in students) == sum(g.moves for g in games)


def test_a_killed_server_resumes_every_table_exactly(tmp_path):
    path = tmp_path / "class.sqlite"
    codes = make_class(path, tables=2, seed=300)
    server = start_server(path)
    students = [
        Student(server.ws, code, f"S{s}", seed=10 * t + s)
        for t, code in enumerate(codes)
        for s in range(4)
    ]

    async def play_then_kill():
        tasks = [asyncio.create_task(s.play(600)) for s in students]
        while sum(len(s.moves) for s in students) < 120:  # well into both games
            await asyncio.sleep(0.02)
            assert not any(t.done() and t.exception() for t in tasks)
        server.kill()  # SIGKILL: no clean shutdown, no last write
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = run_async(play_then_kill)
    assert all(isinstance(r, BaseException) for r in results)  # every connection broke
    before = check_no_move_lost_or_doubled(path, students)  # nothing acknowledged was lost
    assert all(s.token for s in students)

    server = start_server(path)  # the same file: every table resumes
    try:
        request = urllib.request.Request(
            f"{server.http}/console/games.zip",
            headers={"Authorization": f"Bearer {_key(path)}"},
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            archive = zipfile.ZipFile(io.BytesIO(answer.read()))
        resumed = {}
        for name in archive.namelist():
            game = en.load_game(archive.read(name))
            resumed[int(name.split("table")[1][:2])] = game.digest()
        assert resumed == before  # the same positions, digest for digest
        for s in students:  # the students come back with their tokens and finish
            s.base = server.ws
        failures = [r for r in run(students, timeout=600) if isinstance(r, BaseException)]
        assert not failures, failures[:3]
    finally:
        server.stop()
    assert all(s.over for s in students)
    after = check_no_move_lost_or_doubled(path, students)
    assert after.keys() == before.keys()


def _key(path) -> str:
    with ClassDatabase.open_for_reading(path) as db:
        return db.setting("key")


def test_the_database_refuses_a_move_out_of_turn_or_twice(tmp_path):
    path = tmp_path / "class.sqlite"
    make_class(path, tables=1, seed=1)
    game = en.new_game(rules=SHORT, seed=2, names=["A", "B", "C", "D"])
    with ClassDatabase(path) as db:
        game_id = db.start_game(
            round_=1, number=1, agreement=False, game=game, players=["student"] * 4
        )
        action = game.legal_actions()[0]
        game.apply(action)
        data = type(game).CODEC.to_dict(action)
        db.record_move(game_id, 1, data, game.digest())
        for number in (1, 3):  # again, or with a gap
            with pytest.raises(ValueError, match="not the next move"):
                db.record_move(game_id, number, data, game.digest())
        record = db.games()[0]
        assert record.moves == 1 and [n for n, *_ in db.moves(game_id)] == [1]
        assert db.replay(record).digest() == game.digest()
        db.connection.execute(
            "UPDATE actions SET action = ? WHERE number = 1",
            (json.dumps({"kind": "end_turn", "seat": 0}),),
        )
        with pytest.raises(en.SaveFileError):
            db.replay(db.games()[0])
