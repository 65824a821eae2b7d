"""PlayApp's view: building its widgets and redrawing them (readouts, log, action buttons)."""

from __future__ import annotations

import time
from collections import Counter

import ipywidgets as W

from ..actions import Action, EndTurn, pretty
from ..rules import RESOURCES
from ..viz import board_png, seat_color
from .common import _CHART_PX, _esc, _StatusMixin, footprint_png, risk_png

GROUPS = ("build", "trade", "energy", "cards")  # the tabs; "turn" buttons sit above them
GROUP_TITLES = {"build": "Build", "trade": "Trade", "energy": "Energy", "cards": "Cards"}
KIND_TITLES = {
    "build_road": "Roads",
    "build_town": "Towns",
    "build_city": "Cities",
    "build_plant": "Power plants",
    "trade_with_supply": "Trade with the supply",
    "offer_trade": "Offer a player a trade",
    "remove_hazard": "Remove a hazard (energy)",
    "demolish_fossil": "Demolish a fossil plant (energy)",
    "build_warehouse": "Warehouse",
    "buy_dev_card": "Buy a development card",
    "play_dev_card": "Play a development card",
}
MAX_BUTTONS = 16  # more options of one kind than this: a Dropdown and a "Do it" button
MAX_DECISION_BUTTONS = 60
LOG_LINES = 30


class _PlayView(_StatusMixin):
    """The widgets of :class:`~energies.widgets.PlayApp` and their redrawing (a mixin: the
    game, the seats and the handlers live in PlayApp)."""

    # -- widgets -------------------------------------------------------------------------------

    def _build(self) -> None:
        px = int(self.board_size[0] * self.board_dpi)
        self._button_layout = W.Layout(width="auto", margin="2px")
        self._button_style = W.ButtonStyle()
        self.prompt = W.HTML()
        self.status = W.HTML()
        self.board_image = W.Image(format="png", layout=W.Layout(width=f"{px}px", max_width="100%"))
        self.vp_lf_html = W.HTML()
        self.hand_html = W.HTML()
        self.log_html = W.HTML(layout=W.Layout(width="420px", max_width="100%"))
        self.chart_image = W.Image(
            format="png",
            layout=W.Layout(
                width=f"{_CHART_PX}px", max_width="100%", display=None if self.chart else "none"
            ),
        )
        self.risk_image = W.Image(
            format="png",
            layout=W.Layout(width="340px", max_width="100%", display=None if self.chart else "none"),
        )

        self.bots_button = W.Button(
            description="Bots play until my turn",
            button_style="primary",
            icon="forward",
            tooltip="Let the bots decide until a human must decide or the game ends",
            layout=W.Layout(width="auto"),
        )
        self.step_button = W.Button(
            description="Step",
            icon="step-forward",
            tooltip="One bot decision",
            layout=W.Layout(width="auto"),
        )
        self.undo_button = W.Button(
            description="Undo",
            icon="undo",
            tooltip="Back to the previous human decision (bot moves after it are undone too)",
            layout=W.Layout(width="auto"),
        )
        self.auto_bots = W.Checkbox(value=False, description="Bots answer at once", indent=False)
        self.bots_button.on_click(lambda _b: self.play_bots())
        self.step_button.on_click(lambda _b: self.step())
        self.undo_button.on_click(lambda _b: self.undo())

        self.decision_title = W.HTML()
        self.decision_area = W.Box(layout=W.Layout(flex_flow="row wrap"))
        self.decision_box = W.VBox(
            [self.decision_title, self.decision_area],
            layout=W.Layout(border="3px solid #E69F00", padding="4px", display="none"),
        )
        self.turn_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.group_boxes = {g: W.VBox() for g in GROUPS}
        self.action_tabs = W.Tab(children=[self.group_boxes[g] for g in GROUPS])
        self.action_tabs.titles = tuple(GROUP_TITLES[g] for g in GROUPS)

        self.filename = W.Text(value="energies-game.json", description="File:")
        self.save_button = W.Button(description="Save", icon="save", layout=W.Layout(width="auto"))
        self.load_button = W.Button(
            description="Load", icon="folder-open", layout=W.Layout(width="auto")
        )
        self.upload = W.FileUpload(accept=".json", multiple=False, description="Upload a save")
        self.save_button.on_click(lambda _b: self.save())
        self.load_button.on_click(lambda _b: self.load())
        self.upload.observe(self._on_upload, names="value")
        files = W.HBox(
            [self.filename, self.save_button, self.load_button, self.upload],
            layout=W.Layout(flex_flow="row wrap"),
        )

        controls = W.HBox(
            [self.bots_button, self.step_button, self.undo_button, self.auto_bots],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        side = W.VBox([self.vp_lf_html, self.hand_html], layout=W.Layout(padding="0 0 0 8px"))
        self.widget = W.VBox(
            [
                self.prompt,
                self.status,
                W.HBox([self.board_image, side], layout=W.Layout(flex_flow="row wrap")),
                controls,
                self.decision_box,
                self.turn_box,
                self.action_tabs,
                W.HBox(
                    [self.chart_image, self.risk_image, self.log_html],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                files,
            ]
        )
        # stable hooks for the browser tests (tests/browser) and for classroom CSS
        for widget, name in (
            (self.widget, "playapp"),
            (self.board_image, "board"),
            (self.chart_image, "chart"),
            (self.risk_image, "risk"),
            (self.bots_button, "bots"),
            (self.step_button, "step"),
            (self.undo_button, "undo"),
        ):
            widget.add_class(f"energies-{name}")

    def _on_action_button(self, button) -> None:
        self.click(button.action)

    def _on_do_it(self, button) -> None:
        dropdown, actions = button.dropdown, button.choices
        index = dropdown.value
        if index is None or not 0 <= index < len(actions):
            self._say("Choose an option first.", "error")
            return
        self.click(actions[index])

    # -- drawing -------------------------------------------------------------------------------

    def _refresh(self) -> None:
        start = time.perf_counter()
        g = self.game
        seat = g.current_seat
        human = seat is not None and seat in self.humans
        if human:
            self._viewer = seat
        legal = g.legal_actions() if human else []
        self._legal = legal

        s = g.state
        active = self._name(s.active)
        dice = f" · dice {s.dice[0]}+{s.dice[1]}" if s.dice else ""
        color = seat_color(seat) if seat is not None else "#333"
        self.prompt.value = (
            f'<div class="energies-prompt" style="font-size:1.3em;font-weight:bold;'
            f'border-left:8px solid {color};padding-left:6px">{_esc(self._prompt_text())}'
            f'</div><div style="color:#555">Turn {s.turn} · {_esc(active)}\'s turn{dice}'
            f"</div>"
        )

        t = time.perf_counter()
        if human and g.pending:
            highlight = legal
        elif human:
            highlight = [a for a in legal if a.group == "build"]
        else:
            highlight = None
        self.board_image.value = board_png(
            g, highlight=highlight, figsize=self.board_size, dpi=self.board_dpi
        )
        self.timings["board"] = time.perf_counter() - t

        t = time.perf_counter()
        self.vp_lf_html.value = self._table_html()
        self.hand_html.value = self._hand_html()
        self.log_html.value = self._log_html()
        self.timings["readouts"] = time.perf_counter() - t

        t = time.perf_counter()
        key = (self._generation, len(g.history), len(g.events))
        defer, self._defer_chart = self._defer_chart, False
        if key != self._chart_key and not defer and self.chart:
            self.chart_image.value = footprint_png(g)
            self.risk_image.value = risk_png(g)  # the risk meter follows every turn (and undo)
            self._chart_key = key
            self.chart_redraws += 1
            self.timings["chart"] = time.perf_counter() - t
        else:
            self.timings["chart"] = 0.0

        t = time.perf_counter()
        # the same options keep their buttons (a discard of several cards, a new roll phase)
        key = (self._generation, seat, g.pending, tuple(legal))
        if key != self._actions_key:
            self._show_actions(legal, seat if human else None)
            self._actions_key = key
        self.timings["actions"] = time.perf_counter() - t

        over = g.is_over
        self.bots_button.disabled = over or human
        self.step_button.disabled = over or human
        self.undo_button.disabled = (
            not any(a.seat in self.humans for a in g.actions) if self.humans else not g.actions
        )
        self.timings["refresh"] = time.perf_counter() - start

    def _table_html(self) -> str:
        g, s = self.game, self.game.state
        current = g.current_seat
        rows = []
        num = 'style="padding:1px 6px;text-align:right"'
        for p in s.players:
            seat = p.seat
            marks = " ▶" if seat == s.active else ""
            if seat == current and seat != s.active:
                marks += " <i>(deciding)</i>"
            style = "background:#FFF4D6;" if seat == current else ""
            rows.append(
                f'<tr data-seat="{seat}" style="{style}">'
                f'<td style="padding:1px 6px"><span style="display:inline-block;width:0.9em;'
                f'height:0.9em;background:{seat_color(seat)};border:1px solid #333"></span> '
                f"<b>{_esc(self._name(seat))}</b>{marks}</td>"
                f'<td style="padding:1px 6px;color:#555">{_esc(self._who(seat))}</td>'
                f'<td class="vp" {num}><b>{s.victory_points(seat)}</b></td>'
                f'<td class="lf" {num}>{s.local_footprint(seat)}</td>'
                f"<td {num}>{p.count_plants('fossil')} / {p.count_plants('renewable')}</td>"
                f"<td {num}>{p.cards}</td><td {num}>{p.energy}</td>"
                f"<td {num}>{len(p.dev_cards)}</td></tr>"
            )
        gf = s.global_footprint
        if g.is_over:
            tail = _esc(self._named(str(g.outcome)))
        else:
            discs = s.rules.discs_to_draw(gf)
            tail = f"next event phase draws <b>{discs}</b> disc{'s' * (discs != 1)}"
        return (
            '<table class="energies-scores" style="border-collapse:collapse"><tr>'
            + "".join(
                f'<th style="padding:1px 6px">{h}</th>'
                for h in ("Seat", "", "VP", "LF", "fossil / renewable", "cards", "energy", "dev")
            )
            + "</tr>"
            + "".join(rows)
            + "</table>"
            f'<div class="energies-gf" style="margin-top:4px">GF <b class="gf">{gf}</b> of '
            f"{s.rules.gf_max} · {tail} · bag {len(s.bag)} discs · "
            f"first to {s.rules.victory_points} VP wins</div>"
        )

    def _hand_html(self) -> str:
        g = self.game
        seat = (
            self._viewer
            if self.humans
            else (g.current_seat if g.current_seat is not None else g.active_seat)
        )
        p = g.state.players[seat]
        cards = " · ".join(f"{k} <b>{p.hand[k]}</b>" for k in RESOURCES)
        dev = Counter(p.dev_cards)
        new = Counter(p.dev_new)
        dev_text = (
            ", ".join(
                f"{pretty(c)} ×{n}" + (f" ({new[c]} new)" if new[c] else "")
                for c, n in sorted(dev.items())
            )
            or "none"
        )
        limit = g.rules.discard_threshold
        warn = (
            f' <span style="color:#B00020">(more than {limit}: a 7 costs half)</span>'
            if (p.cards > limit)
            else ""
        )
        return (
            f'<div class="energies-hand" data-seat="{seat}" style="margin-top:8px">'
            f"<b>Hand of {_esc(self._name(seat))}</b><br>{cards}<br>"
            f"science <b>{p.hand['science']}</b> · energy <b>{p.energy}</b> of {g.rules.energy_cap}"
            f" · cards {p.cards}{warn}<br>development cards: {_esc(dev_text)}"
            f"{' · warehouse' if p.warehouse else ''}</div>"
        )

    def _log_html(self) -> str:
        g = self.game
        lines = []
        for line in g.log[-LOG_LINES:]:
            if line.startswith("—"):
                style = "font-weight:bold;border-top:1px solid #ccc;margin-top:3px"
            elif line.startswith("Event:"):
                style = "color:#8B3A00;font-weight:bold"
            elif "disc drawn" in line:
                style = f"color:{'#007A55' if line.startswith('Green') else '#6B4226'};font-style:italic"
            elif line.startswith("Game over"):
                style = "font-weight:bold;color:#B00020"
            else:
                style = ""
            lines.append(f'<div style="margin:0;{style}">{_esc(self._named(line))}</div>')
        events = g.events
        if events:
            green = sum(1 for e in events if e.get("color") == "green")
            last = events[-1]
            summary = (
                f"{len(events)} event(s) so far ({len(events) - green} brown, {green} green); "
                f"last: {pretty(str(last['event']))} on turn {last['turn']}"
            )
        else:
            summary = "No event has fired yet (a row fires when it is full)."
        return (
            f'<div class="energies-events" style="color:#555">{_esc(summary)}</div>'
            '<div class="energies-log" style="height:300px;overflow-y:auto;display:flex;'
            "flex-direction:column-reverse;border:1px solid #ddd;padding:4px;font-size:0.9em;"
            'line-height:1.35">'
            f"<div>{''.join(lines)}</div></div>"
        )

    # -- action buttons ------------------------------------------------------------------------

    def _button(self, action: Action, style: str = "") -> W.Button:
        label = self._named(self.game.describe(action))
        b = W.Button(
            description=label,
            tooltip=label,
            button_style=style,
            layout=self._button_layout,
            style=self._button_style,
        )
        b.action = action
        b.on_click(self._on_action_button)
        self.action_buttons.append(b)
        self._owned.append(b)
        return b

    def _kind_widgets(self, kind: str, actions: list[Action], limit: int, style="") -> list:
        if len(actions) <= limit:
            return [self._button(a, style) for a in actions]
        labels = [(self._named(self.game.describe(a)), i) for i, a in enumerate(actions)]
        dropdown = W.Dropdown(options=labels, value=0, layout=W.Layout(width="auto"))
        do_it = W.Button(
            description="Do it",
            button_style=style or "info",
            icon="check",
            layout=W.Layout(width="auto"),
        )
        do_it.dropdown, do_it.choices = dropdown, list(actions)
        do_it.on_click(self._on_do_it)
        self.action_dropdowns.append((dropdown, do_it))
        row = W.HBox([dropdown, do_it])
        self._owned += [dropdown, do_it, row]
        return [row]

    def _show_actions(self, legal: list[Action], seat: int | None) -> None:
        old = self._owned
        self._owned = []
        self.action_buttons, self.decision_buttons, self.turn_buttons = [], [], []
        self.action_dropdowns = []
        g = self.game

        if seat is not None and g.pending:
            self.decision_title.value = (
                f'<b style="font-size:1.15em">{_esc(self._name(seat))}, decide now: '
                f"{_esc(g.pending)}</b>"
            )
            by_kind: dict[str, list[Action]] = {}
            for a in legal:
                by_kind.setdefault(a.kind, []).append(a)
            children = []
            for kind, actions in by_kind.items():
                children += self._kind_widgets(kind, actions, MAX_DECISION_BUTTONS, "warning")
            self.decision_buttons = list(self.action_buttons)
            self.decision_area.children = children
            self.decision_box.layout.display = "flex"
            self.turn_box.children = []
            for group in GROUPS:
                self.group_boxes[group].children = [self._note("Decide first (see above).")]
            self.action_tabs.titles = tuple(GROUP_TITLES[g_] for g_ in GROUPS)
        else:
            self.decision_box.layout.display = "none"
            self.decision_area.children = []
            groups: dict[str, list[Action]] = {group: [] for group in GROUPS}
            turn: list[Action] = []
            for a in legal:
                groups.get(a.group, turn).append(a)
            self.turn_box.children = [
                self._button(
                    a,
                    "success"
                    if a.kind == "roll_dice"
                    else "danger"
                    if isinstance(a, EndTurn)
                    else "",
                )
                for a in turn
            ]
            self.turn_buttons = list(self.action_buttons)
            titles = []
            for group in GROUPS:
                actions = groups[group]
                titles.append(f"{GROUP_TITLES[group]} ({len(actions)})")
                if seat is None:
                    wait = "The game is over." if g.is_over else "Waiting for the bots."
                    self.group_boxes[group].children = [self._note(wait)]
                    continue
                if not actions:
                    self.group_boxes[group].children = [self._note("Nothing possible now.")]
                    continue
                by_kind = {}
                for a in actions:
                    by_kind.setdefault(a.kind, []).append(a)
                children = []
                for kind, acts in by_kind.items():
                    title = KIND_TITLES.get(kind, kind.replace("_", " ").capitalize())
                    children.append(self._note(f"<b>{_esc(title)}</b>", raw=True))
                    items = self._kind_widgets(kind, acts, MAX_BUTTONS)
                    box = W.Box(items, layout=W.Layout(flex_flow="row wrap"))
                    self._owned.append(box)
                    children.append(box)
                self.group_boxes[group].children = children
            self.action_tabs.titles = tuple(titles)
        for widget in old:
            widget.close()

    def _note(self, text: str, raw: bool = False) -> W.HTML:
        note = W.HTML(text if raw else f"<i>{_esc(text)}</i>")
        self._owned.append(note)
        return note
