"""The live class: its tables, who sits where, every game in play, and the teacher's commands.

:class:`Room` owns the truth of a running class. It is plain Python, driven by the web layer
(:mod:`energies.server.web`) one message at a time on one thread, so no two changes ever
interleave. Every change of a game goes through :meth:`Room._apply`: the move is applied
to the game through the kit's contract (``apply``, which checks it again), then written to
the class database with the digest of the new position and committed, and only then is
anybody told (the mover's acknowledgement included). A move that cannot be written is taken
back, so the game in memory and the file never disagree.

A table waits until every seat planned for a student is taken (or the teacher starts it);
then its game starts with the students' names, and bots fill the seats nobody took. The
same seed is played at the same table in every round (lesson 07's protocol).
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..classroom.database import ENDED, OVER, ClassDatabase, token_hash
from ..kit import registry
from ..kit.contract import SaveFileError
from ..kit.fields import show
from ..kit.i18n import N_, msg, nmsg
from ..kit.text import name_problem
from ..newenergies.actions import ProposeTrade, goods_text
from ..newenergies.engine.checks import check_proposal, proposer_problem
from ..newenergies.rules import CARD_KINDS, RuleSet
from ..newenergies.rules.vocabulary import seat_name

__all__ = ["OPEN", "Refusal", "Room", "Seat", "Table", "create_class"]

OPEN = "open"  # a seat planned for a student
WAITING, PLAYING = "waiting", "playing"  # a table's status, besides OVER and ENDED
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud, typed on a phone
CODE_LENGTH = 6
DEFAULT_FILL_BOT = "balanced"
MAX_TABLES = 60
MAX_NAME = 24  # a student's name: short enough for the score table on a tablet


class Refusal(ValueError):
    """A request the class refuses; ``reason`` is the sentence the student or teacher reads
    (a message of :mod:`energies.kit.i18n`, an English ``str`` that each page says in its own
    language)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Seat:
    """One seat of a table: planned for a student (``plan == OPEN``) or for a bot."""

    seat: int
    plan: str
    name: str | None = None  # the student's name, once taken
    token: str | None = None  # SHA-256 of the student's seat token
    bot: str | None = None  # the bot playing the seat (the plan's, a filler, or the teacher's)
    online: int = 0  # open connections of the student

    @property
    def student(self) -> bool:
        """A student sits here (whether or not a bot plays for them just now)."""
        return self.name is not None

    @property
    def played_by_bot(self) -> bool:
        return self.bot is not None or self.plan != OPEN

    def who(self) -> str:
        """Who plays the seat, in words (a message: each page says it in its language)."""
        if self.bot is not None and self.student:
            return msg(N_("bot ({bot}) for {name}"), bot=self.bot, name=self.name)
        if self.played_by_bot:
            return msg(N_("bot ({bot})"), bot=self.bot or self.plan)
        if self.student:
            return msg(N_("student")) if self.online else msg(N_("student (offline)"))
        return msg(N_("open seat"))


@dataclass
class Table:
    """One table of the class and the game it plays in the current round."""

    number: int
    code: str
    seed: int
    seats: list[Seat]
    status: str = WAITING
    game: Any = None
    game_id: int | None = None
    round: int = 0
    agreement: bool = False
    changed_at: float = 0.0  # monotonic time of the last change (bots wait a while after it)
    version: int = 0  # counts the changes: a page drawn at the same version is still right
    bots: dict[int, Any] = field(default_factory=dict)
    # rule 12.1: proposals a student made while the active player was not free to answer
    held: dict[int, tuple[ProposeTrade, int]] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)  # what became of a seat's proposal

    def seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, digest):
                return seat.seat
        return None

    def name(self, seat: int) -> str:
        if self.game is not None:
            return self.game.names[seat]
        return self.seats[seat].name or f"Seat {seat + 1}"

    @property
    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.plan == OPEN and not s.student]

    def is_bot_seat(self, seat: int) -> bool:
        return self.seats[seat].played_by_bot


def new_code(taken: set[str]) -> str:
    """A short join code that no other table of the class has."""
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def _bot_problem(name: Any) -> str | None:
    if not isinstance(name, str):
        return f"A bot is named by a text such as 'green', not {show(name)}."
    try:
        registry.get("new-energies").make_bot(name)
    except ValueError as exc:
        return str(exc)
    return None


def create_class(
    database: ClassDatabase | str | os.PathLike,
    *,
    tables: int = 6,
    players: int = 4,
    bots: dict[int, str] | None = None,
    rules: RuleSet | str = "classroom",
    seed: int | None = None,
    bot_delay: float = 1.0,
    fill_bot: str = DEFAULT_FILL_BOT,
    name: str = "Class",
) -> None:
    """Write a new class into an empty database: ``tables`` tables of ``players`` seats,
    ``bots`` maps seats to the bot that plays them at every table (the others are for
    students), ``rules`` is ``"classroom"`` (the short preset), ``"standard"`` or a
    :class:`~energies.RuleSet`; table ``k`` plays seed ``seed + k`` (a random ``seed`` when
    None); ``bot_delay`` seconds pass before each bot move; ``fill_bot`` plays a seat no
    student took when the table starts. ``database``: a class database or a file path."""
    if not isinstance(database, ClassDatabase):
        with ClassDatabase(database) as opened:
            create_class(
                opened,
                tables=tables,
                players=players,
                bots=bots,
                rules=rules,
                seed=seed,
                bot_delay=bot_delay,
                fill_bot=fill_bot,
                name=name,
            )
        return
    if not database.is_empty():
        raise Refusal(f"{database.path} already holds a class: open it, or choose a new file.")
    if not (isinstance(tables, int) and not isinstance(tables, bool) and 1 <= tables <= MAX_TABLES):
        raise Refusal(f"tables must be 1 to {MAX_TABLES}, not {show(tables)}.")
    if isinstance(rules, str):
        presets = {"classroom": RuleSet.classroom, "standard": RuleSet.standard}
        if rules not in presets:
            raise Refusal(f"rules must be 'classroom', 'standard' or a RuleSet, not {show(rules)}.")
        if players not in (3, 4) or isinstance(players, bool):
            raise Refusal(f"players must be 3 or 4, not {show(players)}.")
        rules = presets[rules](players)
    elif not isinstance(rules, RuleSet):
        raise Refusal(f"rules must be 'classroom', 'standard' or a RuleSet, not {show(rules)}.")
    players = rules.players
    bots = dict(bots or {})
    for seat, bot in bots.items():
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players):
            raise Refusal(f"bots names seat {show(seat)}; the seats are 0 to {players - 1}.")
        problem = _bot_problem(bot)
        if problem:
            raise Refusal(problem)
    if len(bots) == players:
        raise Refusal("Every seat is a bot: leave at least one seat for a student.")
    problem = _bot_problem(fill_bot)
    if problem:
        raise Refusal(problem)
    if seed is None:
        seed = secrets.randbelow(10**6)
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**62):
        raise Refusal(f"seed must be a whole number from 0, not {show(seed)}.")
    if not (isinstance(bot_delay, (int, float)) and not isinstance(bot_delay, bool)):
        raise Refusal(f"bot_delay must be a number of seconds, not {show(bot_delay)}.")
    if not 0 <= bot_delay <= 60:
        raise Refusal(f"bot_delay must be 0 to 60 seconds, not {bot_delay}.")
    problem = name_problem(name)
    if problem:
        raise Refusal(problem.replace("Player names", "The class name"))
    plan = [bots.get(seat, OPEN) for seat in range(players)]
    codes: set[str] = set()
    rows = []
    for number in range(1, tables + 1):
        code = new_code(codes)
        codes.add(code)
        rows.append((number, code, seed + number))
    database.add_tables(rows, plan)
    database.set_settings(
        game="new-energies",
        name=name,
        rules=rules.to_dict(),
        plan=plan,
        bot_delay=float(bot_delay),
        fill_bot=fill_bot,
        key=secrets.token_urlsafe(18),
        paused=False,
        round=1,
        agreement=False,
        created=time.time(),
    )


class Room:
    """A class in play (see the module text). ``on_change(table)`` is called after every
    change of a table (``None``: of the whole class, such as a pause)."""

    def __init__(self, database: ClassDatabase, *, clock: Callable[[], float] = time.monotonic):
        if database.is_empty():
            raise Refusal(f"{database.path} holds no class yet (see create_class).")
        self.db = database
        self.clock = clock
        settings = database.settings()
        self.spec = registry.get(settings["game"])
        self.rules = self.spec.rules_class.from_dict(settings["rules"])
        self.name: str = settings["name"]
        self.plan: list[str] = settings["plan"]
        self.bot_delay: float = settings["bot_delay"]
        self.fill_bot: str = settings["fill_bot"]
        self.key: str = settings["key"]
        self.paused: bool = settings["paused"]
        self.round: int = settings["round"]
        self.agreement: bool = settings["agreement"]
        self.roles: bool = settings.get("roles", False)  # round 2 of lesson 07: role cards
        self.on_change: Callable[[Table | None], None] = lambda _table: None
        self.tables: dict[int, Table] = {}
        for row in database.tables():
            seats = [
                Seat(s["seat"], s["plan"], s["name"], s["token"], s["bot"])
                for s in database.seats(row["number"])
            ]
            self.tables[row["number"]] = Table(row["number"], row["code"], row["seed"], seats)
        for record in database.games(self.round):
            table = self.tables[record.number]
            try:
                table.game = database.replay(record)
            except SaveFileError as exc:
                raise SaveFileError(f"{database.path}: {exc}") from None
            table.game_id, table.round, table.agreement = record.id, record.round, record.agreement
            table.status = PLAYING if record.status == "playing" else record.status
            if table.status == PLAYING and table.game.is_over:  # stopped between two writes
                database.finish_game(record.id, OVER)
                table.status = OVER
        self._codes = {t.code: t for t in self.tables.values()}

    # -- finding tables and seats ---------------------------------------------------------------

    def table_by_code(self, code: Any) -> Table | None:
        if not isinstance(code, str):
            return None
        return self._codes.get(code.strip().upper())

    def table(self, number: Any) -> Table:
        if not isinstance(number, int) or isinstance(number, bool) or number not in self.tables:
            raise Refusal(msg(N_("There is no table {table} in this class."), table=show(number)))
        return self.tables[number]

    # -- joining --------------------------------------------------------------------------------

    def join(self, table: Table, name: Any, seat: Any = None) -> tuple[int, str]:
        """A student takes a free seat (the first free one when ``seat`` is None); return the
        seat and the student's new seat token (only its hash is kept)."""
        if table.status != WAITING:
            raise Refusal(
                msg(
                    N_(
                        "This table's game has started: only its players can come back to it. "
                        "Ask your teacher for a seat at another table."
                    )
                )
            )
        problem = name_problem(name)
        if problem:
            raise Refusal(problem)  # a message: said in the student's language
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise Refusal(
                msg(
                    N_("Names have at most {most} characters here; {name} is longer."),
                    most=MAX_NAME,
                    name=repr(name[:40]),
                )
            )
        if any(s.name and s.name.casefold() == name.casefold() for s in table.seats):
            raise Refusal(
                msg(
                    N_("{name} already sits at this table: add an initial to your name."), name=name
                )
            )
        free = table.free_seats
        if seat is None:
            if not free:
                raise Refusal(msg(N_("Every seat of this table is taken.")))
            seat = free[0]
        if not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(table.seats)
        ):
            raise Refusal(msg(N_("There is no seat {seat} at this table."), seat=show(seat)))
        if seat not in free:
            who = table.seats[seat]
            if who.student:
                taken = msg(
                    N_("Seat {seat} is not free ({name} sits there): choose a free seat."),
                    seat=seat + 1,
                    name=who.name,
                )
            else:
                taken = msg(
                    N_("Seat {seat} is not free (a bot plays it): choose a free seat."),
                    seat=seat + 1,
                )
            raise Refusal(taken)
        token = secrets.token_urlsafe(24)
        if not self.db.take_seat(table.number, seat, name, token):
            raise Refusal(
                msg(N_("Seat {seat} was taken a moment ago: choose another seat."), seat=seat + 1)
            )
        table.seats[seat].name, table.seats[seat].token = name, token_hash(token)
        self._changed(table)
        if not table.free_seats and not self.paused:
            self._start(table)
        return seat, token

    def come_back(self, table: Table, seat: int) -> None:
        """A student is back at their seat (a reload): a bot that played for them stops."""
        entry = table.seats[seat]
        if entry.bot is not None and entry.plan == OPEN:
            entry.bot = None
            table.bots.pop(seat, None)
            self.db.set_seat_bot(table.number, seat, None)
            self._record_players(table)
        self._changed(table)

    def set_online(self, table: Table, seat: int, delta: int) -> None:
        entry = table.seats[seat]
        entry.online = max(0, entry.online + delta)
        self._changed(table)

    # -- playing --------------------------------------------------------------------------------

    def playing_problem(self, table: Table) -> str | None:
        """Why nobody may move at this table now, or None."""
        if table.status == WAITING:
            return nmsg(
                "The game has not started: {n} seat still free. It starts when every seat is "
                "taken or the teacher starts it.",
                "The game has not started: {n} seats still free. It starts when every seat is "
                "taken or the teacher starts it.",
                len(table.free_seats),
            )
        if table.status == OVER:
            return msg(N_("The game is over: {outcome}"), outcome=table.game.outcome.reason)
        if table.status == ENDED:
            return msg(N_("The teacher ended this round."))
        if self.paused:
            return msg(N_("The teacher paused the class: wait until the game goes on."))
        return None

    def act(self, table: Table, seat: int, data: Any) -> int:
        """The student at ``seat`` chose the action ``data`` (as the page sends it); apply it
        when it is one of the seat's options now and return its move number."""
        problem = self.playing_problem(table)
        if problem:
            raise Refusal(problem)
        game = table.game
        try:
            action = type(game).CODEC.from_dict(data)
        except (TypeError, ValueError) as exc:
            raise Refusal(
                msg(N_("The page sent an action the game does not know: {problem}."), problem=exc)
            ) from None
        if getattr(action, "seat", None) != seat:
            raise Refusal(
                msg(
                    N_("You play seat {seat} ({name}); that action is not yours."),
                    seat=seat + 1,
                    name=table.name(seat),
                )
            )
        if table.is_bot_seat(seat):
            raise Refusal(
                msg(N_("A bot plays your seat just now ({who})."), who=table.seats[seat].who())
            )
        # only what the seat may choose now: the listing of its decision, or (rule 12.1) a
        # proposal to the active player; never a teacher's sandbox edit or anything unlisted
        allowed = game.legal_actions() if game.current_seat == seat else []
        if action not in allowed and action not in game.proposals_now(seat):
            why = game.ENGINE.why_illegal(game.state, action)  # a message: each page says it
            raise Refusal(why or msg(N_("That is not one of your options now.")))
        number = self._apply(table, action)
        self._after_move(table)
        return number

    def _apply(self, table: Table, action: Any) -> int:
        """Apply a checked action, commit it with the new digest, then tell everybody."""
        game = table.game
        game.apply(action)
        number = len(game.actions)
        try:
            self.db.record_move(
                table.game_id, number, type(game).CODEC.to_dict(action), game.digest()
            )
        except BaseException:
            game.undo(1)  # not on disk: the game in memory goes back to what the file holds
            raise
        if game.is_over:
            self.db.finish_game(table.game_id, OVER)
            table.status = OVER
            table.held.clear()
        self._changed(table)
        return number

    def _after_move(self, table: Table) -> None:
        """Rule 12.1, as the PlayApp does it: a proposal held for the active player is made
        at its next free decision of the action phase; one that cannot be made then (the
        proposer no longer holds the card, the cap) is dropped with the engine's reason, and
        one of a turn that has ended with a note."""
        game = table.game
        while table.status == PLAYING and table.held:
            state = game.state
            free = not state.queue and state.phase == "action"
            made = False
            for seat, (proposal, turn) in list(table.held.items()):
                if game.turn != turn:
                    del table.held[seat]
                    table.notes[seat] = msg(N_("Your proposal was not made: that turn has ended."))
                    continue
                if not free:
                    continue  # the active player is not free to answer yet: it waits
                del table.held[seat]
                why = game.ENGINE.why_illegal(game.state, proposal)
                if why:
                    table.notes[seat] = msg(
                        N_("Your proposal to {player} ({give} for {get}) could not be made: {why}"),
                        player=seat_name(state.active),
                        give=goods_text(proposal.give),
                        get=goods_text(proposal.get),
                        why=why,
                    )
                    continue
                table.notes[seat] = ""
                self._apply(table, proposal)
                made = True
                break  # one at a time: the active player answers it first
            if not made:
                return

    def propose(self, table: Table, seat: int, give: Any, get: Any) -> str:
        """Rule 12.1: the student at ``seat`` proposes one ``give`` for one ``get`` to the
        active player. Made at once when the active player is free to answer, else held
        until then; return what happened, in words."""
        problem = self.playing_problem(table)
        if problem:
            raise Refusal(problem)
        game = table.game
        kinds = CARD_KINDS + (("energy",) if game.rules.energy_tradeable else ())
        if not all(isinstance(k, str) and k in kinds for k in (give, get)):
            raise Refusal(
                msg(
                    N_("Propose one of {kinds} for another of them, not {give} for {get}."),
                    kinds=", ".join(kinds),
                    give=show(give),
                    get=show(get),
                )
            )
        proposal = ProposeTrade(seat, ((give, 1),), ((get, 1),))
        why = proposer_problem(game.state, seat) or check_proposal(game.state, proposal)
        if why:
            raise Refusal(why)
        partner = table.name(game.active_seat)
        give, get = goods_text(proposal.give), goods_text(proposal.get)
        if proposal in game.proposals_now(seat):
            table.notes[seat] = ""
            self._apply(table, proposal)
            return msg(
                N_("Proposed to {partner}: {give} for {get}."), partner=partner, give=give, get=get
            )
        table.held[seat] = (proposal, game.turn)
        table.notes[seat] = ""
        self._changed(table)
        return msg(
            N_(
                "Held: your proposal of {give} for {get} goes to {partner} at {partner}'s next "
                "free decision."
            ),
            partner=partner,
            give=give,
            get=get,
        )

    def cancel_proposal(self, table: Table, seat: int) -> str:
        held = table.held.pop(seat, None)
        self._changed(table)
        return msg(N_("Proposal withdrawn.")) if held else msg(N_("You hold no proposal."))

    # -- bots -----------------------------------------------------------------------------------

    def bot_due(self, table: Table) -> bool:
        """A bot must decide at this table, and the class is not paused."""
        if table.status != PLAYING or self.paused:
            return False
        seat = table.game.current_seat
        return seat is not None and table.is_bot_seat(seat)

    def bot_move(self, table: Table) -> int | None:
        """One move of the bot that must decide (None when no bot must)."""
        if not self.bot_due(table):
            return None
        game = table.game
        seat = game.current_seat
        bot = table.bots.get(seat)
        if bot is None:
            bot = table.bots[seat] = self.spec.make_bot(
                table.seats[seat].bot or table.seats[seat].plan
            )
        rng = random.Random(f"{game.seed}:server:{len(game.actions)}")
        action = bot.decide(game.view(seat), game.legal_actions(), rng)  # bots see views
        number = self._apply(table, action)
        self._after_move(table)
        return number

    def seconds_until_bot(self, table: Table) -> float | None:
        """How long until the due bot moves (the readable pace), None when no bot is due."""
        if not self.bot_due(table):
            return None
        return max(0.0, table.changed_at + self.bot_delay - self.clock())

    # -- the teacher's commands -----------------------------------------------------------------

    def pause(self) -> None:
        self.paused = True
        self.db.set_settings(paused=True)
        self._changed(None)

    def resume(self) -> None:
        self.paused = False
        self.db.set_settings(paused=False)
        for table in self.tables.values():
            table.changed_at = self.clock()  # bots wait their pace from now, not at once
            if table.status == WAITING and not table.free_seats:  # filled during the pause
                self._start(table)
        self._changed(None)

    def start_waiting_tables(self) -> list[int]:
        """Start every waiting table that has at least one student; bots take the free
        seats. Return the numbers of the tables started."""
        started = []
        for table in self.tables.values():
            if table.status == WAITING and any(s.student for s in table.seats):
                self._start(table)
                started.append(table.number)
        return started

    def _start(self, table: Table) -> None:
        for entry in table.seats:
            if entry.plan == OPEN and not entry.student and entry.bot is None:
                entry.bot = self.fill_bot
                self.db.set_seat_bot(table.number, entry.seat, self.fill_bot)
        names = [
            entry.name if entry.student else f"Bot {entry.seat + 1} ({entry.bot or entry.plan})"
            for entry in table.seats
        ]
        game = self.spec.new_game(seed=table.seed, rules=self.rules, names=names)
        table.game_id = self.db.start_game(
            round_=self.round,
            number=table.number,
            agreement=self.agreement,
            game=game,
            players=self._players(table),
        )
        table.game, table.round, table.agreement = game, self.round, self.agreement
        table.status = PLAYING
        table.bots.clear()
        table.held.clear()
        table.notes.clear()
        self._changed(table)

    def _players(self, table: Table) -> list[str]:
        return ["student" if not s.played_by_bot else (s.bot or s.plan) for s in table.seats]

    def _record_players(self, table: Table) -> None:
        if table.game_id is not None:
            self.db.set_players(table.game_id, self._players(table))

    def seat_to_bot(self, number: Any, seat: Any, bot: Any = None) -> None:
        """A bot plays the seat of a student who left (until the student comes back)."""
        table = self.table(number)
        if not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(table.seats)
        ):
            raise Refusal(
                msg(N_("Table {table} has no seat {seat}."), table=table.number, seat=show(seat))
            )
        entry = table.seats[seat]
        if not entry.student:
            raise Refusal(
                msg(
                    N_("No student sits at seat {seat} of table {table}."),
                    seat=seat + 1,
                    table=table.number,
                )
            )
        bot = self.fill_bot if bot is None else bot
        problem = _bot_problem(bot)
        if problem:
            raise Refusal(problem)
        entry.bot = bot
        table.bots.pop(seat, None)
        self.db.set_seat_bot(table.number, seat, bot)
        self._record_players(table)
        self._changed(table)

    def free_seat(self, number: Any, seat: Any) -> None:
        """Before its table starts, a taken seat is open again (a student sat down at the
        wrong table, or somebody who is not in the class took it); its token stops working."""
        table = self.table(number)
        if not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(table.seats)
        ):
            raise Refusal(
                msg(N_("Table {table} has no seat {seat}."), table=table.number, seat=show(seat))
            )
        if table.status != WAITING:
            raise Refusal(
                msg(
                    N_("Table {table} is playing: give the seat to a bot instead of freeing it."),
                    table=table.number,
                )
            )
        entry = table.seats[seat]
        if not entry.student:
            raise Refusal(
                msg(
                    N_("Seat {seat} of table {table} is free already."),
                    seat=seat + 1,
                    table=table.number,
                )
            )
        self.db.free_seat(table.number, seat)
        entry.name = entry.token = entry.bot = None
        self._changed(table)

    def end_round(self) -> list[int]:
        """End every game still being played (it stays in the class, unfinished)."""
        ended = []
        for table in self.tables.values():
            if table.status == PLAYING:
                self.db.finish_game(table.game_id, ENDED)
                table.status = ENDED
                table.held.clear()
                ended.append(table.number)
                self._changed(table)
        return ended

    def next_round(self, agreement: Any, roles: Any = True) -> int:
        """Lesson 07's next round: every table that played the last round plays its seed
        again with the same seats (``agreement``: the class wrote its agreement first;
        ``roles``: each seat gets its role card, dealt in seat order as in lesson 07,
        :func:`energies.classroom.roles_for`). Games still being played are ended first.
        Return the new round's number."""
        if not isinstance(agreement, bool):
            raise Refusal(f"agreement must be true or false, not {show(agreement)}.")
        if not isinstance(roles, bool):
            raise Refusal(f"roles must be true or false, not {show(roles)}.")
        played = [t for t in self.tables.values() if t.status != WAITING]
        if not played:
            raise Refusal(msg(N_("No table has played this round yet: start the tables first.")))
        self.end_round()
        self.round += 1
        self.agreement, self.roles = agreement, roles
        self.db.set_settings(round=self.round, agreement=agreement, roles=roles)
        for table in self.tables.values():
            table.status, table.game, table.game_id = WAITING, None, None
        for table in played:
            self._start(table)
        self._changed(None)
        return self.round

    # -- telling the listeners ------------------------------------------------------------------

    def _changed(self, table: Table | None) -> None:
        for changed in self.tables.values() if table is None else (table,):
            changed.version += 1
        if table is not None:
            table.changed_at = self.clock()
        self.on_change(table)
