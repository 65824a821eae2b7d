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
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..newenergies.actions import goods_text, pretty
from ..viz import seat_color
from ..widgets.play.board import board_geometry, board_pieces, changed_spots
from ..widgets.play.controls import CARD_KINDS, Options
from ..widgets.play.words import Wording
from .room import OVER, WAITING, Room, Table

LOG_LINES = 60
STRIP_LINES = 14


class TableWords:
    """One game's wording and its log as the pages show it, each line spoken once: the log
    only grows, and every seat's page shows the same public lines (``view.log`` is
    ``game.log``: it names no hidden card)."""

    def __init__(self, game) -> None:
        self.game = game
        self.words = Wording(game)
        self.lines: list[str] = []

    def log(self) -> list[str]:
        source = self.game.state.log
        if len(source) > len(self.lines):
            self.lines += [self.words.speak(str(line)) for line in source[len(self.lines) :]]
        return self.lines


@dataclass
class Screen:
    """What the server remembers of one seat's page (shared by the seat's open tabs)."""

    rev: int = 0
    status: tuple[str, str] = ("", "info")
    since_log: int = 0  # "what just happened" starts here: at the seat's last own move
    since_hand: dict[str, int] | None = None
    since_pieces: dict[str, Any] | None = None
    last_click: tuple[Any, int] | None = None  # (action, rev) of the last click applied
    charts_open: bool = False
    game_key: Any = None  # the game the marks above belong to (a new round resets them)
    page: dict[str, Any] | None = None  # the last page built, and the table version it shows
    page_version: int = -1

    def tell(self, text: str, kind: str = "info") -> None:
        self.status = (text, kind)


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


def geometry(table: Table) -> dict[str, Any]:
    return board_geometry(table.game.board, Wording(table.game))


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

    When nothing of the table changed since the last page (a refused click: only the status
    line is new), that page is sent again with the new status: a student who clicks a lot
    costs the server little."""
    if screen.page is not None and screen.page_version == table.version:
        screen.rev += 1
        page = {**screen.page, "rev": screen.rev}
        page["status"] = {"text": screen.status[0], "kind": screen.status[1]}
        return page
    page = _build_page(room, table, seat, screen, spoken)
    page["decision_no"] = decision_no
    screen.page, screen.page_version = page, table.version
    return page


def _build_page(
    room: Room, table: Table, seat: int, screen: Screen, spoken: TableWords | None
) -> dict[str, Any]:
    game = table.game
    if spoken is None or spoken.game is not game:
        spoken = TableWords(game)
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
        "turn_line": _turn_line(view, words),
        "status": {"text": screen.status[0], "kind": screen.status[1]},
        "progress": "",
        "human": not game.is_over,  # a student's page: the seat's own controls, even waiting
        "over": game.is_over,
        "pieces": pieces,
        # the glowing spots and their sentences while the seat decides (a waiting seat's
        # board answers a hover with "nothing to do here now")
        "spots": options.spots() if deciding else {},
        "changed": changed_spots(screen.since_pieces, pieces),
        "strip": _strip(view, log, screen),
        "decision": None,
        "turn": [],
        "scores": _scores(table, view, words),
        "gf": _gf_line(view, game.is_over),
        "bag_line": _bag_line(game, words),  # rule 14.2: who would win if the bag ran out now
        "hand": _hand(view, words),
        "log": log[-LOG_LINES:],
        "controls": {"bots": False, "step": False, "undo": False},
        "file": {"folder": "", "default": ""},
        "offer_answer": _offer_answer(game, seat, words),
        "proposals": None,
        "interject": _interject(room, table, seat, view, words) if playing else None,
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
        page["build_note"] = (options.turn_why() or "") if playing else room.playing_problem(table)
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
        return "the game is over"
    if view.pending is not None:
        return words.speak(game.pending, addressee=seat)
    if view.phase == "roll":
        return "roll the dice (a development card may be played first)"
    return "build on the board, trade, or end the turn"


def _prompt(room: Room, table: Table, seat: int, view, words: Wording, deciding: bool) -> str:
    game = table.game
    if game.is_over:
        return f"Game over after turn {view.turn}: {words.speak(str(game.outcome))}"
    problem = room.playing_problem(table)
    if problem:
        return problem
    current = view.current_seat
    if deciding:
        return f"{words.name(seat)}, your move: {_task(game, view, words, seat)}"
    if table.is_bot_seat(seat) and current == seat:
        return f"A bot plays for you just now: it must {_task(game, view, words, seat)}"
    return f"Waiting for {words.name(current)}: {words.name(current)} must " + _task(
        game, view, words, current
    )


def _turn_line(view, words: Wording) -> str:
    dice = f" · dice {view.dice[0]} + {view.dice[1]} = {sum(view.dice)}" if view.dice else ""
    return f"Turn {view.turn} · {words.possessive(view.active)} turn{dice}"


def _gf_line(view, over: bool) -> str:
    gf, rules = view.global_footprint, view.rules
    if over:
        return f"GF {gf} of {rules.gf_max} · game over"
    discs = rules.discs_to_draw(gf)
    return (
        f"GF {gf} of {rules.gf_max} · next event phase draws {discs} "
        f"disc{'s' * (discs != 1)} · bag {len(view.bag)} · first to {rules.victory_points} VP"
    )


def _bag_line(game, words: Wording) -> str:
    """What the empty bag would mean now (rule 14.2), from the plants on the board (public),
    scored by the engine's own :func:`~energies.newenergies.engine.events.empty_bag_outcome`."""
    from ..newenergies.engine.events import empty_bag_outcome

    if game.is_over:
        return ""
    kind, winners, _reason, _out = empty_bag_outcome(game.state)
    if kind == "everyone_loses":
        return (
            "If the bag ran out now, everybody would lose: nobody has more renewable than "
            "fossil plants (rule 14.2)."
        )
    names = [words.name(s) for s in winners]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    player = game.state.players[winners[0]]
    balance = player.count_plants("renewable") - player.count_plants("fossil")
    verb = "wins" if len(names) == 1 else "share the win"
    return (
        f"If the bag ran out now: {who} {verb} (renewable minus fossil plants: +{balance}, "
        "rule 14.2)."
    )


def _scores(table: Table, view, words: Wording) -> list[dict[str, Any]]:
    return [
        {
            "seat": p.seat,
            "name": words.name(p.seat),
            "who": "you" if p.seat == view.seat else table.seats[p.seat].who(),
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
    held: dict[str, int] = {}
    for card in me.dev_cards:
        held[card] = held.get(card, 0) + 1
    new: dict[str, int] = {}
    for card in me.dev_new:
        new[card] = new.get(card, 0) + 1
    return {
        "seat": view.seat,
        "title": "Your hand",
        "cards": [[k, me.hand[k]] for k in CARD_KINDS],
        "energy": me.energy,
        "cap": rules.energy_cap,
        "dev": ", ".join(
            f"{pretty(c)} ×{n}" + (f" ({new[c]} new)" if new.get(c) else "")
            for c, n in sorted(held.items())
        ),
        "warehouse": bool(me.warehouse),
        "warn": (
            f"more than {rules.discard_threshold} cards: a 7 costs half"
            if me.cards > rules.discard_threshold
            else ""
        ),
    }


def _strip(view, log: list[str], screen: Screen) -> dict[str, Any]:
    """What happened since the seat's last own move: the log lines and its card changes."""
    lines = log[min(screen.since_log, len(log)) :]
    change = ""
    if screen.since_hand is not None:
        now = _hand_of(view)
        diff = [
            f"{'+' if now[k] > screen.since_hand[k] else '−'}{abs(now[k] - screen.since_hand[k])} {k}"
            for k in now
            if now[k] != screen.since_hand[k]
        ]
        if diff:
            change = f"Your cards: {', '.join(diff)}"
    more = max(0, len(lines) - STRIP_LINES)
    return {"lines": lines[-STRIP_LINES:], "more": more, "hand_change": change}


def _decision_title(game, seat: int, view, legal: list, words: Wording) -> str:
    title = f"{words.name(seat)}, decide now: {game.pending}"
    task = view.pending
    if task.kind == "discard":  # how many clicks are left, not just "discard cards"
        left = task.info["count"]
        title += f" ({left} more, one card per click)" if left > 1 else " (1 more)"
    if any(a.kind == "respond_to_trade" for a in legal):  # say what is offered
        offer = next(
            (a for a in reversed(game.actions) if a.kind in ("offer_trade", "propose_trade")),
            None,
        )
        if offer is not None and offer.kind == "propose_trade" and offer.seat != seat:
            title += (
                f" ({words.name(offer.seat)} offers {words.name(seat)}"
                f" {goods_text(offer.give)} for {goods_text(offer.get)})"
            )
        elif offer is not None:
            title += f" ({game.describe(offer)})"
    return title


def _offer_answer(game, seat: int, words: Wording) -> str:
    """The answer to the seat's last offer or proposal of this turn, once given."""
    actions = game.actions
    turn_start = _turn_start(game)
    for index in range(len(actions) - 1, turn_start - 1, -1):
        offer = actions[index]
        if offer.seat == seat and offer.kind in ("offer_trade", "propose_trade"):
            partner = offer.partner if offer.kind == "offer_trade" else game.active_seat
            deal = f"{goods_text(offer.give)} for {goods_text(offer.get)}"
            answer = next((a for a in actions[index + 1 :] if a.kind == "respond_to_trade"), None)
            who = words.name(partner)
            if answer is None:
                return f"{who} has not answered your offer ({deal}) yet."
            return f"{who} {'accepted' if answer.accept else 'declined'} your offer: {deal}."
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
                "held": f"{goods_text(held[0].give)} for {goods_text(held[0].get)}" if held else "",
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
    return {"outcome": words.speak(str(game.outcome)), "burden": rows}


def _percent(share) -> int:
    """A share as a whole percent; nothing to share (NaN: nobody polluted) shows as 0."""
    share = float(share)
    return 0 if math.isnan(share) else round(100 * share)


# -- the lobby: before the table's game starts -------------------------------------------------


def lobby(room: Room, table: Table, seat: int | None) -> dict[str, Any]:
    """What a student sees of a table before (and around) its game: seats, names, status."""
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
                "name": s.name or (f"bot ({s.plan})" if s.plan != "open" else ""),
                "free": s.plan == "open" and not s.student and table.status == WAITING,
                "bot": s.played_by_bot,
                "online": bool(s.online),
            }
            for s in table.seats
        ],
        "note": room.playing_problem(table) or "",
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


def chart_images(game) -> dict[str, str]:
    """The footprint chart and risk meter as PNG data URLs (public facts; matplotlib)."""
    import base64

    from ..widgets.common import footprint_png, risk_png

    def url(png: bytes) -> str:
        return "data:image/png;base64," + base64.b64encode(png).decode("ascii")

    return {"chart": url(footprint_png(game)), "risk": "" if game.is_over else url(risk_png(game))}
