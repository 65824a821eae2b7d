"""A class's games in one SQLite file: the class, its tables and seats, every game and move.

The class server (:mod:`energies.server`) keeps a class here, and
:func:`energies.classroom.collect` reads it back. One file holds one class:

==============  ===================================================================================
``class``       the class's settings, one JSON value per key (the game, its rules, the seat plan,
                the teacher's key, paused or not, the round and its written agreement)
``tables``      each table: its number, its join code and its seed (the same in every round)
``seats``       who sits at each seat: the plan (``open`` for a student, or a bot's name), the
                student's name and a SHA-256 of the student's seat token, or the bot that took
                the seat over
``games``       one game per table and round: rules, seed, names, who played each seat, the
                digest of the position after its last move, the number of moves, its status
``actions``     every accepted move, numbered from 1 within its game, with the digest of the
                position it led to
==============  ===================================================================================

Every move is written by :meth:`ClassDatabase.record_move` in one transaction that also moves
the game's digest on, and that transaction is committed before the call returns: the server
acknowledges a move only after that. The file runs in WAL mode with ``synchronous=NORMAL``: a
commit is in the write-ahead log, handed to the operating system, when it returns, so a killed
server (its process ended, the machine still on) loses no committed move; only a power cut of
the whole machine may lose the last moves before it, and never leaves a broken file (the log
is synced to disk at each checkpoint). WAL also lets the teacher's notebook read the class
(:meth:`ClassDatabase.open_for_reading`) while the server writes.

A game is read back only through the kit's contract: :meth:`ClassDatabase.replay` starts the
registered game with the recorded rules, seed and names, applies every recorded move with
``apply`` (each checked again) and compares the replayed position's digest with the one the
server recorded; any difference is a :class:`~energies.kit.contract.SaveFileError`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..kit import registry
from ..kit.contract import SaveFileError

__all__ = ["ClassDatabase", "GameRecord", "is_class_database", "token_hash"]

SCHEMA_VERSION = 1
#: The first 16 bytes of every SQLite file.
SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS class (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    number INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    seed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    number INTEGER NOT NULL REFERENCES tables(number),
    seat INTEGER NOT NULL,
    plan TEXT NOT NULL,
    name TEXT,
    token TEXT UNIQUE,
    bot TEXT,
    PRIMARY KEY (number, seat)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL REFERENCES tables(number),
    agreement INTEGER NOT NULL,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    names TEXT NOT NULL,
    players TEXT NOT NULL,
    digest TEXT NOT NULL,
    moves INTEGER NOT NULL,
    status TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    UNIQUE (round, number)
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    digest TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, number)
);
"""

#: A game's status: being played, over by the rules, or ended by the teacher before that.
PLAYING, OVER, ENDED = "playing", "over", "ended"


def token_hash(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256 (a copy of the file gives no seat)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_class_database(path: str | os.PathLike) -> bool:
    """Whether ``path`` names a regular file that starts like an SQLite database."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except (OSError, ValueError):
        return False


@dataclass(frozen=True)
class GameRecord:
    """One game of the class as the database holds it (its moves are read by ``moves``)."""

    id: int
    round: int
    number: int
    agreement: bool
    game: str
    rules: dict[str, Any]
    seed: int
    names: tuple[str, ...]
    players: tuple[str, ...]  # who played each seat: "student", or the bot's name
    digest: str
    moves: int
    status: str
    started: float
    ended: float | None


class ClassDatabase:
    """One class in one SQLite file (see the module text). Not shared between threads: each
    thread opens its own (the server uses one, a notebook reading the class another)."""

    def __init__(self, path: str | os.PathLike, *, readonly: bool = False) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise ValueError(f"path must be a file path, not {type(path).__name__}.")
        self.path = Path(path)
        self.readonly = readonly
        if readonly:
            if not is_class_database(self.path):
                raise SaveFileError(f"{self.path} is not a class database (an SQLite file).")
            # mode=ro: reading a class never changes its file (WAL readers need no lock)
            uri = self.path.resolve().as_uri() + "?mode=ro"
            self.connection = sqlite3.connect(uri, uri=True, isolation_level=None)
        else:
            if self.path.exists() and not is_class_database(self.path):
                raise SaveFileError(
                    f"{self.path} exists and is not a class database: choose another file name."
                )
            self.connection = sqlite3.connect(self.path, isolation_level=None)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.executescript(_SCHEMA)
        self.connection.execute("PRAGMA foreign_keys=ON")
        self.connection.execute("PRAGMA busy_timeout=5000")
        version = self.setting("schema")
        if version is None and not readonly:
            self.set_settings(schema=SCHEMA_VERSION)
        elif version not in (None, SCHEMA_VERSION):
            raise SaveFileError(
                f"{self.path} holds a class of a newer release (schema {version}); "
                "update energies to read it."
            )

    @classmethod
    def open_for_reading(cls, path: str | os.PathLike) -> ClassDatabase:
        """The class at ``path``, read-only (a running server keeps writing it)."""
        return cls(path, readonly=True)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self):  # -> the database itself
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    # -- writing in one transaction -------------------------------------------------------------

    def _write(self, statements: list[tuple[str, tuple]]) -> list[int]:
        """Run the statements in one transaction and commit; return each one's row count."""
        if self.readonly:
            raise PermissionError("This class database was opened for reading only.")
        cursor = self.connection.cursor()
        counts = []
        cursor.execute("BEGIN IMMEDIATE")
        try:
            for sql, values in statements:
                cursor.execute(sql, values)
                counts.append(cursor.rowcount)
            cursor.execute("COMMIT")
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        return counts

    # -- the class ------------------------------------------------------------------------------

    def setting(self, key: str, default: Any = None) -> Any:
        row = self.connection.execute("SELECT value FROM class WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def settings(self) -> dict[str, Any]:
        rows = self.connection.execute("SELECT key, value FROM class").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def set_settings(self, **values: Any) -> None:
        self._write(
            [
                ("INSERT OR REPLACE INTO class (key, value) VALUES (?, ?)", (k, json.dumps(v)))
                for k, v in values.items()
            ]
        )

    def is_empty(self) -> bool:
        """True while no class has been written into the file."""
        return self.setting("game") is None

    # -- tables and seats -----------------------------------------------------------------------

    def add_tables(self, tables: list[tuple[int, str, int]], plan: list[str]) -> None:
        """Tables ``(number, code, seed)``, each with one seat per entry of ``plan``."""
        statements = []
        for number, code, seed in tables:
            statements.append(
                ("INSERT INTO tables (number, code, seed) VALUES (?, ?, ?)", (number, code, seed))
            )
            statements += [
                ("INSERT INTO seats (number, seat, plan) VALUES (?, ?, ?)", (number, seat, kind))
                for seat, kind in enumerate(plan)
            ]
        self._write(statements)

    def tables(self) -> list[dict[str, Any]]:
        rows = self.connection.execute("SELECT number, code, seed FROM tables ORDER BY number")
        return [{"number": n, "code": c, "seed": s} for n, c, s in rows.fetchall()]

    def seats(self, number: int) -> list[dict[str, Any]]:
        rows = self.connection.execute(
            "SELECT seat, plan, name, token, bot FROM seats WHERE number = ? ORDER BY seat",
            (number,),
        ).fetchall()
        return [
            {"seat": seat, "plan": plan, "name": name, "token": token, "bot": bot}
            for seat, plan, name, token, bot in rows
        ]

    def take_seat(self, number: int, seat: int, name: str, token: str) -> bool:
        """A student takes an open, free seat; False when someone was quicker."""
        (count,) = self._write(
            [
                (
                    (
                        "UPDATE seats SET name = ?, token = ? WHERE number = ? AND seat = ? "
                        "AND plan = 'open' AND token IS NULL"
                    ),
                    (name, token_hash(token), number, seat),
                )
            ]
        )
        return count == 1

    def free_seat(self, number: int, seat: int) -> None:
        """The seat is open again: its student's name and token are forgotten."""
        self._write(
            [
                (
                    "UPDATE seats SET name = NULL, token = NULL, bot = NULL WHERE number = ? "
                    + "AND seat = ?",
                    (number, seat),
                )
            ]
        )

    def set_seat_bot(self, number: int, seat: int, bot: str | None) -> None:
        """A bot plays the seat from now on (``None``: its student plays it again)."""
        self._write(
            [("UPDATE seats SET bot = ? WHERE number = ? AND seat = ?", (bot, number, seat))]
        )

    # -- games and moves ------------------------------------------------------------------------

    def start_game(
        self,
        *,
        round_: int,
        number: int,
        agreement: bool,
        game,
        players: list[str],
    ) -> int:
        """Record a game that starts now (``game``: a fresh game of the kit); return its id."""
        spec = registry.spec_of(game)
        values = (
            round_,
            number,
            int(agreement),
            spec.name,
            json.dumps(game.rules.to_dict()),
            game.seed,
            json.dumps(list(game.names)),
            json.dumps(list(players)),
            game.digest(),
            len(game.actions),
            PLAYING,
            time.time(),
        )
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            cursor.execute(
                "INSERT INTO games (round, number, agreement, game, rules, seed, names, players, "
                "digest, moves, status, started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values,
            )
            game_id = cursor.lastrowid
            cursor.execute("COMMIT")
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        return int(game_id)

    def record_move(self, game_id: int, number: int, action: dict[str, Any], digest: str) -> None:
        """Commit move ``number`` (1, 2, ...) of a game and the digest of the position after it.

        Refused (``ValueError``, nothing written) unless it is exactly the game's next move:
        a move can be neither lost nor written twice.
        """
        text = json.dumps(action, separators=(",", ":"))
        counts = self._write_checked(
            [
                (
                    (
                        "UPDATE games SET digest = ?, moves = ? WHERE id = ? AND moves = ? "
                        "AND status = ?"
                    ),
                    (digest, number, game_id, number - 1, PLAYING),
                ),
                (
                    "INSERT INTO actions (game, number, action, digest, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, number, text, digest, time.time()),
                ),
            ]
        )
        if counts is None:
            raise ValueError(f"Move {number} is not the next move of game {game_id}.")

    def _write_checked(self, statements: list[tuple[str, tuple]]) -> list[int] | None:
        """Like _write, but rolled back (None returned) when the first statement changes no row."""
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            counts = []
            for index, (sql, values) in enumerate(statements):
                cursor.execute(sql, values)
                counts.append(cursor.rowcount)
                if index == 0 and cursor.rowcount != 1:
                    cursor.execute("ROLLBACK")
                    return None
            cursor.execute("COMMIT")
        except BaseException:
            if self.connection.in_transaction:
                cursor.execute("ROLLBACK")
            raise
        return counts

    def finish_game(self, game_id: int, status: str) -> None:
        """The game is over by the rules (``OVER``) or ended by the teacher (``ENDED``)."""
        if status not in (OVER, ENDED):
            raise ValueError(f"status must be {OVER!r} or {ENDED!r}, not {status!r}.")
        self._write(
            [
                (
                    "UPDATE games SET status = ?, ended = ? WHERE id = ? AND status = ?",
                    (status, time.time(), game_id, PLAYING),
                )
            ]
        )

    def set_players(self, game_id: int, players: list[str]) -> None:
        self._write([("UPDATE games SET players = ? WHERE id = ?", (json.dumps(players), game_id))])

    def games(self, round_: int | None = None) -> list[GameRecord]:
        """The class's games, by round and table (only one round's with ``round_``)."""
        sql = (
            "SELECT id, round, number, agreement, game, rules, seed, names, players, digest, "
            "moves, status, started, ended FROM games"
        )
        values: tuple = ()
        if round_ is not None:
            sql += " WHERE round = ?"
            values = (round_,)
        rows = self.connection.execute(sql + " ORDER BY round, number", values).fetchall()
        return [
            GameRecord(
                id=r[0],
                round=r[1],
                number=r[2],
                agreement=bool(r[3]),
                game=r[4],
                rules=json.loads(r[5]),
                seed=r[6],
                names=tuple(json.loads(r[7])),
                players=tuple(json.loads(r[8])),
                digest=r[9],
                moves=r[10],
                status=r[11],
                started=r[12],
                ended=r[13],
            )
            for r in rows
        ]

    def moves(self, game_id: int) -> Iterator[tuple[int, dict[str, Any], str]]:
        """(number, action as JSON, digest after it) of every move of a game, in order."""
        rows = self.connection.execute(
            "SELECT number, action, digest FROM actions WHERE game = ? ORDER BY number",
            (game_id,),
        )
        for number, text, digest in rows:
            yield number, json.loads(text), digest

    def replay(self, record: GameRecord):
        """The game, replayed through the kit's contract from its rules, seed, names and moves;
        a :class:`SaveFileError` when a move does not apply or the position differs from the
        one the server recorded."""
        where = f"round {record.round}, table {record.number}"
        try:
            spec = registry.get(record.game)
            rules = spec.rules_class.from_dict(record.rules)
            game = spec.new_game(seed=record.seed, rules=rules, names=list(record.names))
        except ValueError as exc:
            raise SaveFileError(f"The game of {where} cannot be started again: {exc}") from None
        codec = type(game).CODEC
        expected = 0
        for number, data, _digest in self.moves(record.id):
            expected += 1
            if number != expected:
                raise SaveFileError(f"The game of {where} lacks its move {expected}.")
            try:
                game.apply(codec.from_dict(data))
            except ValueError as exc:
                raise SaveFileError(
                    f"Move {number} of the game of {where} does not apply: {exc}"
                ) from None
        if expected != record.moves or game.digest() != record.digest:
            raise SaveFileError(
                f"The game of {where} replays to another position than the one the server "
                "recorded: the database was changed."
            )
        return game
