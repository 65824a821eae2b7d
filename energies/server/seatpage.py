"""One student's page: the PlayApp's ``view`` built from what that seat may know.

The student's browser runs the PlayApp's own page code (``energies/widgets/play/static``),
which draws whatever ``view`` it is given. Here that view is built for one seat from
``game.view(seat)`` — the seat's information-set view: its own hand, the others' counts,
the public board, bag and log — and, for the seat's own options, from the listing of its
decision (``legal_actions`` while it decides, ``proposals_now`` for rule 12.1) and
``why_illegal`` of its own moves, in the PlayApp's wording (:mod:`energies.widgets.play`'s
:class:`~energies.widgets.play.controls.Options` and
:class:`~energies.widgets.play.words.Wording`, shared, not copied). Nothing else of the
game reaches the page, so two positions that differ only in what the seat cannot see give
the same page (``tests/test_server.py`` checks it over the wire).

:class:`Screen` is what the server remembers of one seat's page between two drawings: its
revision, its status line, where "what just happened" starts, the last click.

A page speaks its connection's language: the wording (:class:`TableWords`) is one language's,
and every text here goes through it (the PlayApp's messages where the page says the same).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..kit.i18n import N_, Message, msg, nsay, render
from ..newenergies.actions import Action, goods_text, pretty
from ..newenergies.rules.vocabulary import amount, word
from ..viz import seat_color
from ..widgets.play.board import board_geometry, board_pieces, changed_spots
from ..widgets.play.controls import CARD_KINDS, Options
from ..widgets.play.status import bag_line, gf_line, turn_line
from ..widgets.play.words import Wording, page_words
from .room import OVER, WAITING, Room, Table

LOG_LINES = 60
STRIP_LINES = 14


class TableWords:
    """One game's wording in one language and its log as the pages show it, each line spoken
    once: the log only grows, and every seat's page shows the same public lines (``view.log``
    is ``game.log``: it names no hidden card)."""

    def __init__(self, game, lang: str | None = None) -> None:
        self.game = game
        self.words = Wording(game, lang)
        self.lines: list[str] = []

    def log(self) -> list[str]:
        source = self.game.state.log
        if len(source) > len(self.lines):
            words = self.words
            self.lines += [
                words.describe(line) if isinstance(line, Action) else words.speak(line)
                for line in source[len(self.lines) :]
            ]
        return self.lines


#: A status line as the server keeps it: a text, a message, or ``said(words)`` that says it in
#: one language's wording (a move, with the table's names).
Status = str | Message | Callable[[Wording], str]


@dataclass
class Screen:
    """What the server remembers of one seat's page (shared by the seat's open tabs, which
    may speak different languages: the status is said in each)."""

    rev: int = 0
    status: tuple[Status, str] = ("", "info")
    since_log: int = 0  # "what just happened" starts here: at the seat's last own move
    since_hand: dict[str, int] | None = None
    since_pieces: dict[str, Any] | None = None
    last_click: tuple[Any, int] | None = None  # (action, rev) of the last click applied
    charts_open: bool = False
    game_key: Any = None  # the game the marks above belong to (a new round resets them)
    # the last page built in each language, and the table version it shows
    pages: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)

    def tell(self, text: Status, kind: str = "info") -> None:
        self.status = (text, kind)

    def status_in(self, words: Wording) -> dict[str, str]:
        """The status line as the page shows it, in the wording's language."""
        text, kind = self.status
        if callable(text):
            text = text(words)
        elif isinstance(text, Message) and not words.english:  # English: the text as it is
            text = words.speak(text)  # (its seat numbers count from 1, not the engine's seats)
        return {"text": str(text), "kind": kind}


def _hand_of(view) -> dict[str, int]:
    me = view.me
    return {**{k: me.hand[k] for k in CARD_KINDS}, "energy": me.energy}


def mark(screen: Screen, table: Table, seat: int) -> None:
    """The seat moved (or its page is new): "what just happened" starts here."""
    game = table.game
    view = game.view(seat)
    screen.since_log = len(game.state.log)
    screen.since_hand = _hand_of(view)
    screen.since_pieces = board_pieces(view)
    screen.game_key = (table.round, table.number)


def geometry(table: Table, words: Wording | None = None) -> dict[str, Any]:
    """The board's shape and names, in the wording's language (default: the kit's)."""
    return board_geometry(table.game.board, words or Wording(table.game))


def seat_page(
    room: Room,
    table: Table,
    seat: int,
    screen: Screen,
    spoken: TableWords | None = None,
    decision_no: int = 0,
) -> dict[str, Any]:
    """The PlayApp ``view`` of ``seat``'s page now (see the module text). ``spoken``: the
    game's wording and spoken log, kept between pages (made here when None); ``decision_no``:
    the number of the table's decision, which a click on the page carries back.

    When nothing of the table changed since the last page in that language (a refused click:
    only the status line is new), that page is sent again with the new status: a student who
    clicks a lot costs the server little."""
    if spoken is None or spoken.game is not table.game:
        spoken = TableWords(table.game)
    lang = spoken.words.lang
    kept = screen.pages.get(lang)
    if kept is not None and kept[0] == table.version:
        screen.rev += 1
        page = {**kept[1], "rev": screen.rev}
        page["status"] = screen.status_in(spoken.words)
        return page
    page = _build_page(room, table, seat, screen, spoken)
    page["decision_no"] = decision_no
    screen.pages[lang] = (table.version, page)
    return page


def _build_page(
    room: Room, table: Table, seat: int, screen: Screen, spoken: TableWords | None
) -> dict[str, Any]:
    game = table.game
    if screen.game_key != (table.round, table.number):
        mark(screen, table, seat)
    words = spoken.words
    log = spoken.log()
    view = game.view(seat)
    playing = room.playing_problem(table) is None
    deciding = playing and view.current_seat == seat and not table.is_bot_seat(seat)
    legal = game.legal_actions() if deciding else []
    options = Options(game, seat, legal, words)
    pieces = board_pieces(view)
    screen.rev += 1
    page: dict[str, Any] = {
        "rev": screen.rev,
        "prompt": _prompt(room, table, seat, view, words, deciding),
        "color": seat_color(view.current_seat) if view.current_seat is not None else "#333333",
        "turn_line": turn_line(view, words),
        "status": screen.status_in(words),
        "progress": "",
        "human": not game.is_over,  # a student's page: the seat's own controls, even waiting
        "over": game.is_over,
        "pieces": pieces,
        # the glowing spots and their sentences while the seat decides (a waiting seat's
        # board answers a hover with "nothing to do here now")
        "spots": options.spots() if deciding else {},
        "changed": changed_spots(screen.since_pieces, pieces),
        "strip": _strip(view, log, screen, words),
        "decision": None,
        "turn": [],
        "scores": _scores(table, view, words),
        "gf": gf_line(view, game.is_over, words),
        "bag_line": bag_line(game.state, game.is_over, words),  # rule 14.2: if the bag ran out now
        "hand": _hand(view, words),
        "log": log[-LOG_LINES:],
        "controls": {"bots": False, "step": False, "undo": False},
        "file": {"folder": "", "default": ""},
        "offer_answer": _offer_answer(game, seat, words),
        "proposals": None,
        "interject": _interject(room, table, seat, view, words) if playing else None,
        "ui": page_words(words),  # the page's own words, in the page's language
    }
    if deciding and view.pending is not None:
        page["decision"] = {
            "title": words.speak(_decision_title(game, seat, view, legal, words), addressee=seat),
            "options": options.decision_controls(),
            "picker": options.proposal_picker() or None,  # rule 12.1
        }
    elif not game.is_over:
        page["turn"] = options.turn_controls()
        page["build"] = options.build_rows()
        page["build_note"] = (
            (options.turn_why() or "") if playing else words.speak(room.playing_problem(table))
        )
        page["supply"] = options.supply_rows()
        page["offers"] = options.offers()
        page["ask"] = options.ask_control()  # rule 12.1: ask the table again
        page["energy"] = options.energy_controls()
        page["cards"] = options.card_controls()
    if game.is_over:
        page["over_panel"] = _over_panel(game, words)
    return page


# -- parts of the page --------------------------------------------------------------------------


def _task(game, view, words: Wording, seat: int | None) -> str:
    if game.is_over:
        return words.say(N_("the game is over"))
    if view.pending is not None:
        return words.speak(game.pending, addressee=seat)
    if view.phase == "roll":
        return words.say(N_("roll the dice (a development card may be played first)"))
    return words.say(N_("build on the board, trade, or end the turn"))


def _prompt(room: Room, table: Table, seat: int, view, words: Wording, deciding: bool) -> str:
    game = table.game
    say = words.say
    if game.is_over:
        return say(
            N_("Game over after turn {turn}: {outcome}"),
            turn=view.turn,
            outcome=words.speak(game.outcome.reason),
        )
    problem = room.playing_problem(table)
    if problem:
        return words.speak(problem)
    current = view.current_seat
    if deciding:
        return say(
            N_("{name}, your move: {task}"),
            name=words.name(seat),
            task=_task(game, view, words, seat),
        )
    if table.is_bot_seat(seat) and current == seat:
        return say(
            N_("A bot plays for you just now: it must {task}"),
            task=_task(game, view, words, seat),
        )
    return say(
        N_("Waiting for {name}: {name} must {task}"),
        name=words.name(current),
        task=_task(game, view, words, current),
    )


def _scores(table: Table, view, words: Wording) -> list[dict[str, Any]]:
    return [
        {
            "seat": p.seat,
            "name": words.name(p.seat),
            "who": words.say(N_("you"))
            if p.seat == view.seat
            else words.speak(table.seats[p.seat].who()),
            "color": seat_color(p.seat),
            "vp": view.victory_points(p.seat),  # the others' hidden VP cards are not counted
            "lf": view.local_footprint(p.seat),
            "fossil": p.count_plants("fossil"),
            "renewable": p.count_plants("renewable"),
            "cards": p.cards,
            "energy": p.energy,
            "dev": p.dev_count,
            "active": p.seat == view.active,
            "deciding": p.seat == view.current_seat,
        }
        for p in view.players
    ]


def _hand(view, words: Wording) -> dict[str, Any]:
    me = view.me
    rules = view.rules
    lang = words.lang
    held: dict[str, int] = {}
    for card in me.dev_cards:
        held[card] = held.get(card, 0) + 1
    new: dict[str, int] = {}
    for card in me.dev_new:
        new[card] = new.get(card, 0) + 1
    return {
        "seat": view.seat,
        "title": "Your hand"
        if words.english
        else words.say(N_("Hand of {name}"), name=words.name(view.seat)),
        "cards": [[k, me.hand[k], str(render(word(k), lang))] for k in CARD_KINDS],
        "energy": me.energy,
        "cap": rules.energy_cap,
        "dev": ", ".join(
            f"{render(pretty(c), lang)} ×{n}"
            + (" " + words.say(N_("({n} new)"), n=new[c]) if new.get(c) else "")
            for c, n in sorted(held.items())
        ),
        "warehouse": bool(me.warehouse),
        "warn": (
            words.say(N_("more than {n} cards: a 7 costs half"), n=rules.discard_threshold)
            if me.cards > rules.discard_threshold
            else ""
        ),
    }


def _strip(view, log: list[str], screen: Screen, words: Wording) -> dict[str, Any]:
    """What happened since the seat's last own move: the log lines and its card changes."""
    lines = log[min(screen.since_log, len(log)) :]
    change = ""
    if screen.since_hand is not None:
        now = _hand_of(view)
        diff = [
            ("+" if now[k] > screen.since_hand[k] else "−")
            + str(render(amount(k, abs(now[k] - screen.since_hand[k])), words.lang))
            for k in now
            if now[k] != screen.since_hand[k]
        ]
        if diff and words.english:
            change = f"Your cards: {', '.join(diff)}"
        elif diff:
            change = words.say(
                N_("Cards of {name}: {changes}"),
                name=words.name(view.seat),
                changes=", ".join(diff),
            )
    more = max(0, len(lines) - STRIP_LINES)
    more_text = words.nsay(
        "({n} earlier line in the Log tab)", "({n} earlier lines in the Log tab)", more
    )
    return {
        "lines": lines[-STRIP_LINES:],
        "more": more,
        "more_text": more_text if more else "",
        "hand_change": change,
    }


def _decision_title(game, seat: int, view, legal: list, words: Wording) -> str:
    say = words.say
    title = say(
        N_("{name}, decide now: {task}"),
        name=words.name(seat),
        task=words.speak(game.pending, addressee=seat),
    )
    task = view.pending
    if task.kind == "discard":  # how many clicks are left, not just "discard cards"
        left = task.info["count"]
        title += " " + words.nsay("({n} more)", "({n} more, one card per click)", left)
    if any(a.kind == "respond_to_trade" for a in legal):  # say what is offered
        offer = next(
            (a for a in reversed(game.actions) if a.kind in ("offer_trade", "propose_trade")),
            None,
        )
        if offer is not None and offer.kind == "propose_trade" and offer.seat != seat:
            title += " " + say(
                N_("({name} offers {partner} {give} for {get})"),
                name=words.name(offer.seat),
                partner=words.name(seat),
                give=goods_text(offer.give),
                get=goods_text(offer.get),
            )
        elif offer is not None:
            title += " " + say(N_("({offer})"), offer=words.describe(offer))
    return title


def _offer_answer(game, seat: int, words: Wording) -> str:
    """The answer to the seat's last offer or proposal of this turn, once given."""
    actions = game.actions
    turn_start = _turn_start(game)
    for index in range(len(actions) - 1, turn_start - 1, -1):
        offer = actions[index]
        if offer.seat == seat and offer.kind in ("offer_trade", "propose_trade"):
            partner = offer.partner if offer.kind == "offer_trade" else game.active_seat
            answer = next((a for a in actions[index + 1 :] if a.kind == "respond_to_trade"), None)
            if answer is None:
                text = N_("{name} has not answered your offer ({give} for {get}) yet.")
            elif answer.accept:
                text = N_("{name} accepted your offer: {give} for {get}.")
            else:
                text = N_("{name} declined your offer: {give} for {get}.")
            return words.say(
                text,
                name=words.name(partner),
                give=goods_text(offer.give),
                get=goods_text(offer.get),
            )
    return ""


def _turn_start(game) -> int:
    """The index in ``game.actions`` of the current turn's first action (its roll)."""
    actions = game.actions
    for index in range(len(actions) - 1, -1, -1):
        if actions[index].kind == "end_turn":
            return index + 1
    return 0


def _interject(room: Room, table: Table, seat: int, view, words: Wording) -> dict | None:
    """Rule 12.1: "Propose a trade to <the active player>" for a seat that is not active."""
    game = table.game
    rules = view.rules
    if game.is_over or rules.trade_offers_per_turn <= 0 or view.active == seat:
        return None
    held = table.held.get(seat)
    kinds = CARD_KINDS + (("energy",) if rules.energy_tradeable else ())
    return {
        "partner": words.name(view.active),
        "kinds": list(kinds),
        "seats": [
            {
                "seat": seat,
                "name": words.name(seat),
                "held": words.say(
                    N_("{give} for {get}"),
                    give=goods_text(held[0].give),
                    get=goods_text(held[0].get),
                )
                if held
                else "",
                "note": words.speak(table.notes.get(seat, ""), addressee=seat),
            }
        ],
    }


def _over_panel(game, words: Wording) -> dict[str, Any]:
    """How the game ended, with who polluted and who paid for the pollution (the PlayApp's
    panel: :func:`energies.insight.burden`, public once the game is over)."""
    from ..insight import burden

    rows = []
    try:
        frame = burden(game)
        for r in frame.itertuples():
            rows.append(
                {
                    "name": words.name(int(r.seat)),
                    "color": seat_color(int(r.seat)),
                    "caused": _percent(r.pollution_caused_share),
                    "paid": _percent(r.pollution_harm_share),
                }
            )
    except ValueError:  # no turn recorded: nothing to compare
        rows = []
    return {"outcome": words.speak(game.outcome.reason), "burden": rows}


def _percent(share) -> int:
    """A share as a whole percent; nothing to share (NaN: nobody polluted) shows as 0."""
    share = float(share)
    return 0 if math.isnan(share) else round(100 * share)


# -- the lobby: before the table's game starts -------------------------------------------------


def lobby(room: Room, table: Table, seat: int | None, lang: str | None = None) -> dict[str, Any]:
    """What a student sees of a table before (and around) its game: seats, names, status, and
    the lobby's sentences with a count in them, in ``lang``."""
    students = [s for s in table.seats if not s.played_by_bot]
    free = sum(s.plan == "open" and not s.student and table.status == WAITING for s in students)
    return {
        "class": room.name,
        "table": table.number,
        "code": table.code,
        "round": room.round,
        "agreement": room.agreement,
        "paused": room.paused,
        "status": table.status,
        "you": seat,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name
                or (
                    str(render(msg(N_("bot ({bot})"), bot=s.plan), lang))
                    if s.plan != "open"
                    else ""
                ),
                "free": s.plan == "open" and not s.student and table.status == WAITING,
                "bot": s.played_by_bot,
                "online": bool(s.online),
            }
            for s in table.seats
        ],
        "note": str(render(room.playing_problem(table) or "", lang)),
        "taken_note": nsay(
            "{taken} of {n} seat for students taken. Type your name, then take a free seat.",
            "{taken} of {n} seats for students taken. Type your name, then take a free seat.",
            len(students),
            lang,
            taken=len(students) - free,
        ),
        "over": table.status == OVER,
        "role": _role_card(room, table, seat),
    }


def _role_card(room: Room, table: Table, seat: int | None) -> dict[str, Any] | None:
    """The seat's own role card in a round played in role (lesson 07: dealt in seat order)."""
    if seat is None or not room.roles or room.round < 2:
        return None
    from ..classroom.roles import roles_for

    role = roles_for(len(table.seats))[seat]
    return {
        "title": role.title,
        "who": role.who,
        "wants": role.wants,
        "may": list(role.may),
        "goal": role.goal,
    }


def chart_images(game, lang: str | None = None) -> dict[str, str]:
    """The footprint chart and risk meter as PNG data URLs (public facts; matplotlib), their
    titles, axes and legends in ``lang``."""
    import base64

    from ..widgets.common import footprint_png, risk_png

    def url(png: bytes) -> str:
        return "data:image/png;base64," + base64.b64encode(png).decode("ascii")

    return {
        "chart": url(footprint_png(game, lang=lang)),
        "risk": "" if game.is_over else url(risk_png(game, lang=lang)),
    }
