"""PlayApp's page: building the ``view`` the browser draws (readouts, strip, controls, charts)."""

from __future__ import annotations

import base64
import math
import time
from collections import Counter
from typing import Any

from ...kit.i18n import N_, render
from ...newenergies.actions import Action, goods_text, pretty
from ...newenergies.rules.vocabulary import amount, word
from ...viz import persona_color, seat_color
from ..common import APP_CHART_SIZE, footprint_png, risk_png
from .board import board_pieces, changed_spots
from .bot_turns import bot_label
from .controls import CARD_KINDS, Options
from .status import bag_line, gf_line, turn_line
from .words import page_words

LOG_LINES = 60
STRIP_LINES = 14


def _percent(share) -> int:
    """A share as a whole percent; nothing to share (NaN: nobody polluted) shows as 0."""
    share = float(share)
    return 0 if math.isnan(share) else round(100 * share)


def _data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


class _Page:
    """A mixin of :class:`~energies.widgets.PlayApp`: turns the game into the page's ``view``.

    The game, the seats, the wording (``self.words``) and the handlers live in PlayApp."""

    def _say(self, text: str, kind: str = "info") -> None:
        self.status_text, self.status_kind = text, kind

    def _mark(self) -> None:
        """Remember the table before a human move: the strip shows what changed since."""
        g = self.game
        seat = self._viewer
        p = g.state.players[seat]
        self._since = {
            "log": len(g.log),
            "hand": {**{k: p.hand[k] for k in CARD_KINDS}, "energy": p.energy},
            "pieces": board_pieces(g.state),
            "seat": seat,
        }

    # -- the view ----------------------------------------------------------------------------

    def _refresh(self, progress: str = "") -> None:
        start = time.perf_counter()
        g = self.game
        if not progress:
            self._deliver_to_human()  # rule 12.1: proposals held for the active human
            self._autosave()
        seat = g.current_seat
        pass_to = self._pass_to()  # hot-seat: the screen goes to another human first
        human = seat is not None and seat in self.humans and not g.is_over and pass_to is None
        if human:
            self._viewer = seat
            self._revealed = seat
        legal = g.legal_actions() if human else []
        self._legal = legal
        options = Options(g, seat if human else None, legal, self.words)
        pieces = board_pieces(g.state)
        t = time.perf_counter()
        spots = options.spots() if human else {}
        self.timings["spots"] = time.perf_counter() - t
        self._rev += 1
        view: dict[str, Any] = {
            "rev": self._rev,
            "decision_no": self._decision_number(),  # clicks carry it back (PlayApp._act)
            "prompt": self._prompt_text(),
            "color": seat_color(seat) if seat is not None else "#333333",
            "turn_line": turn_line(self.game.state, self.words),
            "status": {"text": self.status_text, "kind": self.status_kind},
            "progress": progress,
            "human": human,
            "over": g.is_over,
            "pieces": pieces,
            "spots": spots,
            "changed": changed_spots(self._since.get("pieces"), pieces) if not progress else [],
            "strip": self._strip(),
            "decision": None,
            "turn": [],
            "scores": self._scores(),
            "gf": gf_line(self.game.state, self.game.is_over, self.words),
            "bag_line": bag_line(self.game.state, self.game.is_over, self.words),  # rule 14.2, now
            "hand": self._hand() if pass_to is None else None,
            "pass_to": self._pass_screen(pass_to),
            "log": self._log_lines(g.state.log[-LOG_LINES:]),
            "controls": {
                # a human decides (or the pass screen waits for one): no bot to move
                "bots": not g.is_over and seat not in self.humans,
                "step": not g.is_over and seat not in self.humans,
                "undo": any(a.seat in self.humans for a in g.actions)
                if self.humans
                else bool(g.actions),
            },
            "file": {
                "folder": str(self.save_dir),
                "default": self._default_file_name(),
                "note": self.file_note,
                "kind": self.file_note_kind,
                "autosave": self.autosave_path.name if self.autosave_path else "",
            },
            "offer_answer": self.offer_answer,
            "proposals": self._proposal_view(),  # rule 12.1: the "don't ask me" option
            "interject": self._interject_view() if pass_to is None else None,  # rule 12.1
            "ui": page_words(self.words),  # the page's own words, in the app's language
        }
        if human and g.pending:
            words = self.words
            title = words.say(
                N_("{name}, decide now: {task}"),
                name=words.name(seat),
                task=g.pending if words.english else words.speak(g.pending, addressee=seat),
            )
            task = g.state.pending
            if task.kind == "discard":  # how many clicks are left, not just "discard cards"
                left = task.info["count"]
                title += " " + words.nsay("({n} more)", "({n} more, one card per click)", left)
            if any(a.kind == "respond_to_trade" for a in legal):  # say what is offered
                offer = next(
                    (a for a in reversed(g.actions) if a.kind in ("offer_trade", "propose_trade")),
                    None,
                )
                if offer is not None and offer.kind == "propose_trade" and offer.seat != seat:
                    # rule 12.1: who gives what, said to the one who answers ("Bo proposes
                    # 1 steel for 1 food to the active player" left that to guess)
                    title += " " + words.say(
                        N_("({name} offers {partner} {give} for {get})"),
                        name=words.name(offer.seat),
                        partner=words.name(seat),
                        give=goods_text(offer.give),
                        get=goods_text(offer.get),
                    )
                elif offer is not None and words.english:  # spoken with the whole title below
                    title += f" ({offer.sentence(words.names[offer.seat], g.board)})"
                elif offer is not None:
                    title += " " + words.say(N_("({offer})"), offer=words.describe(offer))
            view["decision"] = {
                "title": words.speak(title, addressee=seat) if words.english else title,
                "options": options.decision_controls(),
                "picker": options.proposal_picker() or None,  # rule 12.1
            }
        elif human:
            view["turn"] = options.turn_controls()
            view["build"] = options.build_rows()
            view["build_note"] = options.turn_why() or ""
            view["supply"] = options.supply_rows()
            view["offers"] = options.offers()
            view["ask"] = options.ask_control()  # rule 12.1: ask the table again
            view["energy"] = options.energy_controls()
            view["cards"] = options.card_controls()
        if g.is_over:
            view["over_panel"] = self._over_panel()
        self.view.view = view
        self.timings["view"] = time.perf_counter() - start
        if not progress:
            self._draw_charts()
        self.timings["refresh"] = time.perf_counter() - start

    def _pass_screen(self, seat: int | None) -> dict[str, Any] | None:
        """Hot-seat: the screen that hides the hand until the next player takes the laptop."""
        if seat is None:
            return None
        return {"seat": seat, "name": self.words.name(seat), "color": seat_color(seat)}

    def _strip(self) -> dict[str, Any]:
        """What happened since the last human move: log lines and the viewer's card changes."""
        g, since = self.game, self._since
        lines = self._log_lines(g.state.log[since.get("log", len(g.state.log)) :])
        hand_change = ""
        seat = since.get("seat")
        # a hand's changes are shown to its own player only (hot-seat: not to the next one)
        if (
            seat is not None
            and "hand" in since
            and seat == self._viewer
            and self._pass_to() is None
        ):
            p = g.state.players[seat]
            now = {**{k: p.hand[k] for k in CARD_KINDS}, "energy": p.energy}
            lang = self.words.lang
            diff = [
                ("+" if now[k] > since["hand"][k] else "−")
                + str(render(amount(k, abs(now[k] - since["hand"][k])), lang))
                for k in now
                if now[k] != since["hand"][k]
            ]
            if diff and self.words.english:
                hand_change = f"{self.words.possessive(seat)} cards: {', '.join(diff)}"
            elif diff:
                hand_change = self.words.say(
                    N_("Cards of {name}: {changes}"),
                    name=self.words.name(seat),
                    changes=", ".join(diff),
                )
        more = max(0, len(lines) - STRIP_LINES)
        more_text = self.words.nsay(
            "({n} earlier line in the Log tab)", "({n} earlier lines in the Log tab)", more
        )
        return {
            "lines": lines[-STRIP_LINES:],
            "more": more,
            "more_text": more_text if more else "",
            "hand_change": hand_change,
        }

    def _scores(self) -> list[dict[str, Any]]:
        g, s = self.game, self.game.state
        return [
            {
                "seat": p.seat,
                "name": self.words.name(p.seat),
                "who": self._who(p.seat),
                # a bot's persona in its colour of every chart and worksheet (a human: none)
                "who_color": (
                    None if p.seat in self.humans else persona_color(bot_label(self.bots[p.seat]))
                ),
                "color": seat_color(p.seat),
                "vp": s.victory_points(p.seat),
                "lf": s.local_footprint(p.seat),
                "fossil": p.count_plants("fossil"),
                "renewable": p.count_plants("renewable"),
                "cards": p.cards,
                "energy": p.energy,
                "dev": len(p.dev_cards),
                "active": p.seat == s.active,
                "deciding": p.seat == g.current_seat,
            }
            for p in s.players
        ]

    def _hand(self) -> dict[str, Any]:
        g = self.game
        seat = (
            self._viewer
            if self.humans
            else (g.current_seat if g.current_seat is not None else g.active_seat)
        )
        p = g.state.players[seat]
        dev, new = Counter(p.dev_cards), Counter(p.dev_new)
        limit = g.rules.discard_threshold
        return {
            "seat": seat,
            "title": f"{self.words.possessive(seat)} hand"
            if self.words.english
            else self.words.say(N_("Hand of {name}"), name=self.words.name(seat)),
            "cards": [[k, p.hand[k], str(render(word(k), self.words.lang))] for k in CARD_KINDS],
            "energy": p.energy,
            "cap": g.rules.energy_cap,
            "dev": ", ".join(
                f"{render(pretty(c), self.words.lang)} ×{n}"
                + (" " + self.words.say(N_("({n} new)"), n=new[c]) if new[c] else "")
                for c, n in sorted(dev.items())
            ),
            "warehouse": bool(p.warehouse),
            "warn": self.words.say(N_("more than {n} cards: a 7 costs half"), n=limit)
            if p.cards > limit
            else "",
        }

    def _over_panel(self) -> dict[str, Any]:
        """The end of the game in words, with who polluted and who paid for the pollution
        (insight.burden: fossil plants against the pollution harm borne, Catan luck apart)."""
        g = self.game
        rows = []
        try:
            from ...insight import burden

            frame = burden(g)
            for r in frame.itertuples():
                rows.append(
                    {
                        "name": self.words.name(int(r.seat)),
                        "color": seat_color(int(r.seat)),
                        "caused": _percent(r.pollution_caused_share),
                        "paid": _percent(r.pollution_harm_share),
                    }
                )
        except ValueError:  # no turn recorded (a game over during set-up): nothing to compare
            rows = []
        return {"outcome": self.words.speak(str(g.outcome)), "burden": rows}

    def _log_lines(self, lines: list) -> list[str]:
        """Engine log lines (sentences and actions) as the page shows them."""
        words = self.words
        return [
            words.describe(line) if isinstance(line, Action) else words.speak(line)
            for line in lines
        ]

    # -- charts ------------------------------------------------------------------------------

    def _draw_charts(self) -> None:
        """Footprint chart and risk meter, drawn only while the chart tab is open (or the game
        is over) and only when a turn or an event changed them."""
        g = self.game
        want = self.chart and (self.charts_open or g.is_over)
        key = (self._generation, len(g.history), len(g.events), g.is_over)
        if not want or key == self._chart_key:
            self.timings["chart"] = 0.0
            return
        t = time.perf_counter()
        lang = self.words.lang
        self.view.chart = _data_url(
            footprint_png(g, figsize=APP_CHART_SIZE, legend="below", lang=lang)
        )
        self.view.risk = _data_url(risk_png(g, lang=lang)) if not g.is_over else ""
        self._chart_key = key
        self.chart_redraws += 1
        self.timings["chart"] = time.perf_counter() - t
