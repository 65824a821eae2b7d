"""What the deciding seat can do, as the page shows it: board spots and the controls beside it.

Every option carries its action (``action_to_dict``), a label in the app's wording, its
price, and — for a control that is disabled — the engine's ``why_illegal`` sentence or the
cards the seat is short of. Pure functions of the game; :mod:`energies.widgets.play` sends
the result to the page.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...kit.i18n import N_, N_plural, render
from ...newenergies.actions import (
    Action,
    AskForProposals,
    BuildCity,
    BuildPlant,
    BuildRoad,
    BuildTown,
    BuildWarehouse,
    BuyDevCard,
    DemolishFossil,
    EndTurn,
    OfferTrade,
    PlayDevCard,
    RemoveHazard,
    RollDice,
    TradeWithSupply,
    action_to_dict,
    goods_text,
    pretty,
)
from ...newenergies.engine.checks import supply_rates
from ...newenergies.engine.decisions import ANSWERS
from ...newenergies.rules import RESOURCES
from ...newenergies.rules.vocabulary import amount, word
from .words import Wording, _plural_verb

CARD_KINDS = (*RESOURCES, "science")
BOARD_KINDS = {
    "build_road": "p",
    "build_town": "c",
    "build_city": "c",
    "place_hazard": "c",
    "build_plant": "h",
    "move_inspector": "h",
    "choose_hex": "h",
    "demolish_fossil": "h",
}
#: Decisions whose pieces or removals cost nothing: the set-up, Road Construction's roads
#: (rule 13.1), Production Increase's fossil plant (rule 7.4), a Cleanup's hazard (rule 13.5).
FREE_TASKS = frozenset(
    {"setup_town", "setup_city", "setup_road", "free_road", "free_fossil", "cleanup"}
)
BUILD_ITEMS = (  # (title, cost item, action kind, where to click)
    (
        N_("Road"),
        "road",
        "build_road",
        N_plural("click a glowing path ({n} spot)", "click a glowing path ({n} spots)"),
    ),
    (
        N_("Town"),
        "town",
        "build_town",
        N_plural("click a glowing corner ({n} spot)", "click a glowing corner ({n} spots)"),
    ),
    (
        N_("City"),
        "city",
        "build_city",
        N_plural(
            "click one of your glowing towns ({n} spot)",
            "click one of your glowing towns ({n} spots)",
        ),
    ),
    (
        N_("Fossil plant"),
        "fossil",
        "build_plant",
        N_plural("click a glowing hex ({n} spot)", "click a glowing hex ({n} spots)"),
    ),
    (
        N_("Renewable plant"),
        "renewable",
        "build_plant",
        N_plural("click a glowing hex ({n} spot)", "click a glowing hex ({n} spots)"),
    ),
)


# why no spot glows for a building although the turn allows building
_NO_SPOT = {
    "build_road": N_("No free path touches your roads, towns or cities."),
    "build_town": N_("No free corner is on your roads and two steps from every building."),
    "build_city": N_("You have no town to turn into a city (or no city piece left)."),
    "build_plant": N_("No free plant spot next to your towns and cities (hover a hex)."),
}


def spot_key(action: Action) -> str | None:
    """Where on the board an action happens: "c12" (corner), "p40" (path), "h3" (hex)."""
    kind = action.kind
    if kind == "remove_hazard":
        return ("h" if action.place == "hex" else "c") + str(action.index)
    prefix = BOARD_KINDS.get(kind)
    if prefix is None:
        return None
    field = {"p": "path", "c": "corner", "h": "hex"}[prefix]
    return prefix + str(getattr(action, field))


def price_text(cost: dict[str, int], words: Wording) -> str:
    """ "1 lumber + 1 brick" in the app's language ("free" when nothing)."""
    parts = [str(render(amount(k, n), words.lang)) for k, n in cost.items() if n]
    return " + ".join(parts) or words.say(N_("free"))


def short_of(have: dict[str, int], cost: dict[str, int], words: Wording) -> str | None:
    """ "You are short of 1 food and 2 steel." (None when the cost can be paid)."""
    missing = [
        str(render(amount(k, n - have.get(k, 0)), words.lang))
        for k, n in cost.items()
        if have.get(k, 0) < n
    ]
    if not missing:
        return None
    return words.say(N_("You are short of {cards}."), cards=words.listing(missing))


class Options:
    """The options of one seat at one moment, in the app's wording."""

    def __init__(self, game, seat: int | None, legal: list[Action], words: Wording) -> None:
        self.game, self.seat, self.legal, self.words = game, seat, legal, words
        self.rules = game.rules
        if seat is not None:
            p = game.state.players[seat]
            self.player = p
            self.have = {**{k: p.hand[k] for k in CARD_KINDS}, "energy": p.energy}

    # -- labels ------------------------------------------------------------------------------

    def label(self, action: Action) -> str:
        """The action as a command: "Build a road on path Mountains 10 | Pasture 2" (in
        another language than English: the sentence with the player's name)."""
        if not self.words.english:
            return self.words.describe(action)
        text = self.game.describe(action)
        name = self.game.names[action.seat] if 0 <= action.seat < len(self.game.names) else ""
        if name and text.startswith(name + " "):
            verb, _, rest = text[len(name) + 1 :].partition(" ")
            text = _plural_verb(verb).capitalize() + (" " + rest if rest else "")
        return self.words.speak(text, addressee=action.seat)

    def price(self, action: Action) -> str:
        r, kind, words = self.rules, action.kind, self.words
        task = self.game.state.pending
        if task is not None and task.kind in FREE_TASKS and task.seat == action.seat:
            return words.say(N_("free"))  # the event's fossil plant, a Cleanup's hazard, a road
        if kind in ("build_road", "build_town", "build_city"):
            return price_text(r.cost(kind[6:]), words)
        if kind == "build_plant":
            return price_text(r.cost(action.plant), words)
        if kind == "buy_dev_card":
            return price_text(r.cost("dev_card"), words)
        energy = {
            "remove_hazard": r.hazard_removal_energy,
            "demolish_fossil": r.demolish_energy,
            "build_warehouse": r.warehouse_energy,
        }.get(kind)
        if energy is not None:
            return str(render(amount("energy", energy), words.lang))
        if kind == "trade_with_supply":
            rate = supply_rates(self.game.state, action.seat).get(action.give)
            return str(render(amount(action.give, rate), words.lang)) if rate else ""
        if kind == "offer_trade":
            return str(render(goods_text(action.give), words.lang))
        return ""

    def option(self, action: Action, **extra: Any) -> dict[str, Any]:
        return {
            "a": action_to_dict(action),
            "kind": action.kind,
            "label": self.label(action),
            "price": self.price(action),
            **extra,
        }

    def _reason(self, action: Action):
        """The engine's reason as a message (the app says it in its own language)."""
        return self.game.ENGINE.why_illegal(self.game.state, action)

    def why(self, action: Action) -> str:
        reason = self._reason(action)
        return self.words.speak(reason, addressee=self.seat) if reason else ""

    def _spot_why(self, action: Action) -> str:
        """:meth:`why` of a building on one spot. The engine checks the moment before the
        spot (``why_illegal``: the game is over, not your move, "First discard cards."), so
        while the moment forbids that kind of building its reason is the same on every spot
        and is worked out once, not once per corner, path and hex."""
        state = self.game.state
        task = state.queue[0] if state.queue else None
        if not (
            state.outcome is not None
            or self.game.current_seat != self.seat
            or (task is not None and not isinstance(action, ANSWERS[task.kind]))
        ):
            return self.why(action)
        kept = self.__dict__.setdefault("_moment_why", {})
        if type(action) not in kept:
            kept[type(action)] = self.why(action)
        return kept[type(action)]

    # -- the board ---------------------------------------------------------------------------

    def spots(self) -> dict[str, dict[str, Any]]:
        """Every corner, path and hex: its options (legal now) or why nothing is possible."""
        out: dict[str, dict[str, Any]] = {}
        for a in self.legal:
            key = spot_key(a)
            if key is not None:
                out.setdefault(key, {"legal": True, "options": []})["options"].append(
                    self.option(a)
                )
        for spot in out.values():
            self._shorten(spot["options"])
            first, say = spot["options"][0], self.words.say
            free = say(N_("free"))
            spot["tip"] = (
                say(N_("{label} — free"), label=first["label"])
                if len(spot["options"]) == 1 and first["price"] == free
                else say(N_("{label} — costs {price}"), label=first["label"], price=first["price"])
                if len(spot["options"]) == 1 and first["price"]
                else first["label"]
                if len(spot["options"]) == 1
                else say(
                    N_("Click to choose: {options}"),
                    options=say(N_(" or ")).join(
                        f"{o['short']} ({o['price']})" for o in spot["options"]
                    ),
                )
            )
        if self.seat is None:
            return out
        g, s, seat = self.game, self.game.state, self.seat
        owner_of = {}
        for p in s.players:
            for c in p.towns:
                owner_of[c] = (p.seat, "town")
            for c in p.cities:
                owner_of[c] = (p.seat, "city")
        roads = {path: p.seat for p in s.players for path in p.roads}
        w = self.words
        for c in range(len(g.board.corner_positions)):
            if f"c{c}" in out:
                continue
            if c in owner_of:
                who, piece = owner_of[c]
                if w.english:
                    tip = f"{w.possessive(who)} {piece}" + (
                        " (a city cannot grow further)." if piece == "city" else "."
                    )
                elif piece == "city":
                    tip = w.say(
                        N_("City of {name} (a city cannot grow further)."), name=w.name(who)
                    )
                else:
                    tip = w.say(N_("Town of {name}."), name=w.name(who))
                if who == seat and piece == "town":
                    tip = self._spot_why(BuildCity(seat, c)) or tip
            else:
                tip = self._spot_why(BuildTown(seat, c))
            out[f"c{c}"] = {"tip": tip}
        for path in range(len(g.board.paths)):
            if f"p{path}" not in out:
                if path not in roads:
                    tip = self._spot_why(BuildRoad(seat, path))
                elif w.english:
                    tip = f"{w.possessive(roads[path])} road."
                else:
                    tip = w.say(N_("Road of {name}."), name=w.name(roads[path]))
                out[f"p{path}"] = {"tip": tip}
        mine = self.player.towns | self.player.cities
        for hx in g.board.hexes:
            if f"h{hx.id}" in out:
                continue
            corners = [c for c in g.board.hex_corners(hx.id) if c in mine]
            if corners:
                tip = self._spot_why(BuildPlant(seat, "renewable", corners[0], hx.id))
            elif hx.number is None:
                tip = w.say(
                    N_("{hex}: nothing grows here, no plant can stand here."), hex=w.hex(hx.id)
                )
            else:
                tip = w.say(
                    N_("A plant on {hex} needs a town or city of yours on its corners."),
                    hex=w.hex(hx.id),
                )
            out[f"h{hx.id}"] = {"tip": tip}
        return out

    def _shorten(self, options: list[dict[str, Any]]) -> None:
        """Labels for the chooser of a spot: "Fossil plant", "Renewable plant for your city at
        corner ..." (the building only when two of yours touch the hex)."""
        corners = {o["a"].get("corner") for o in options if o["kind"] == "build_plant"}
        for o in options:
            a = o["a"]
            if o["kind"] != "build_plant":
                o["short"] = o["label"]
                continue
            say = self.words.say
            fossil = a["plant"] == "fossil"
            o["short"] = say(N_("Fossil plant")) if fossil else say(N_("Renewable plant"))
            if len(corners) > 1:
                at = self.words.corner(a["corner"])
                if a["corner"] in self.player.cities:
                    o["short"] = say(
                        N_("{plant} for your city at {corner}"), plant=o["short"], corner=at
                    )
                else:
                    o["short"] = say(
                        N_("{plant} for your town at {corner}"), plant=o["short"], corner=at
                    )

    # -- the controls beside the board -------------------------------------------------------

    def _first(self, kind: str) -> Action | None:
        return next((a for a in self.legal if a.kind == kind), None)

    def turn_controls(self) -> list[dict[str, Any]]:
        """Roll the dice and end the turn: always shown, disabled with the reason."""
        out = []
        for cls in (RollDice, EndTurn):
            a = self._first(cls.kind)
            if a is not None:
                out.append(self.option(a))
            elif self.seat is not None:
                probe = cls(self.seat)
                out.append({**self.option(probe), "a": None, "why": self.why(probe)})
        return out

    def build_rows(self) -> list[dict[str, Any]]:
        """One row per building: its price and how many spots glow, or why none."""
        rows = []
        words = self.words
        for title, item, kind, (where_one, where_many) in BUILD_ITEMS:
            cost, title = self.rules.cost(item), words.say(title)
            legal = [
                a
                for a in self.legal
                if a.kind == kind and (kind != "build_plant" or a.plant == item)
            ]
            if legal:
                n = len({spot_key(a) for a in legal})
                text = words.nsay(where_one, where_many, n)
                price = price_text(cost, words)
                rows.append({"title": title, "price": price, "text": text, "kind": kind})
                continue
            # when the turn forbids every building (not your turn, roll first), the page
            # says so once above the rows (build_note) instead of on each row
            why = (
                ""
                if self.turn_why()
                else short_of(self.have, cost, words) or self._no_spot_why(kind)
            )
            rows.append(
                {"title": title, "price": price_text(cost, words), "why": why, "kind": kind}
            )
        return rows

    def turn_why(self) -> str | None:
        """The reason that holds for every building now (not your turn, roll first, decide);
        worked out once per Options (the rows and controls each ask it)."""
        if not hasattr(self, "_turn_why"):
            self._turn_why = self._find_turn_why()
        return self._turn_why

    def _find_turn_why(self):
        reason = self._reason(BuildRoad(self.seat, 0))
        # the same sentence for two different spots: the turn, not the spot, forbids it
        if (
            reason
            and not reason.lower().startswith(("you are short", "you need", "path"))
            and self._reason(BuildTown(self.seat, 0)) == reason
        ):
            return self.words.speak(reason, addressee=self.seat)
        return None

    def _no_spot_why(self, kind: str) -> str:
        return self.words.say(_NO_SPOT.get(kind, N_("Not possible now.")))

    def supply_rows(self) -> list[dict[str, Any]]:
        """Trades with the supply: one row per card you give, with its rate (4:1, 3:1, 2:1)."""
        if self.seat is None:
            return []
        rates = supply_rates(self.game.state, self.seat)
        rows = []
        for give, rate in rates.items():
            legal = [a for a in self.legal if a.kind == "trade_with_supply" and a.give == give]
            row = {"give": give, "rate": f"{rate}:1", "have": self.have.get(give, 0)}
            row["give_name"] = str(render(word(give), self.words.lang))
            if legal:
                row["options"] = [
                    self.option(a, label=str(render(word(a.get), self.words.lang)), price="")
                    for a in legal
                ]
            else:
                other = next(k for k in CARD_KINDS if k != give)
                row["why"] = self.why(TradeWithSupply(self.seat, give, other)) or self.words.say(
                    N_("You have {have}; a trade needs {rate}."),
                    have=render(amount(give, row["have"]), self.words.lang),
                    rate=rate,
                )
            rows.append(row)
        return rows

    def offers(self) -> dict[str, Any]:
        """One-for-one offers to another player (rule 12.1) for the page's three pickers."""
        legal = [a for a in self.legal if a.kind == "offer_trade"]
        names = self.game.names
        out: dict[str, Any] = {
            "options": [
                {
                    **self.option(a),
                    "partner": names[a.partner],
                    "give": str(render(goods_text(a.give), self.words.lang)),
                    "get": str(render(goods_text(a.get), self.words.lang)),
                }
                for a in legal
            ]
        }
        if not legal and self.seat is not None:
            n = len(self.game.state.players)
            probe = OfferTrade(self.seat, (self.seat + 1) % n, (("brick", 1),), (("lumber", 1),))
            out["why"] = self.why(probe) or self.words.say(
                N_("No one-for-one offer is possible now.")
            )
        return out

    def ask_control(self) -> dict[str, Any] | None:
        """ "Ask the table": the active player asks the others for proposals (rule 12.1),
        or the reason it cannot now."""
        if self.seat is None:
            return None
        a, say = self._first("ask_for_proposals"), self.words.say
        if a is not None:
            return self.option(a, label=say(N_("Ask the table")))
        probe = AskForProposals(self.seat)
        why = self.why(probe) or say(N_("Not possible now."))
        return {**self.option(probe), "a": None, "label": say(N_("Ask the table")), "why": why}

    def energy_controls(self) -> list[dict[str, Any]]:
        out = [self.option(a) for a in self.legal if a.group == "energy"]
        if self.seat is None:
            return out
        seat, kinds = self.seat, {a.kind for a in self.legal}
        probes = (
            ("remove_hazard", RemoveHazard(seat, "hex", 0), N_("Remove a hazard")),
            ("demolish_fossil", DemolishFossil(seat, 0, 0), N_("Demolish a fossil plant")),
            ("build_warehouse", BuildWarehouse(seat), N_("Build the warehouse")),
        )
        for kind, probe, title in probes:
            if kind not in kinds:
                why = self.turn_why() or self._energy_why(kind, probe)
                label = self.words.say(title)
                out.append({**self.option(probe), "a": None, "label": label, "why": why})
        return out

    def _energy_why(self, kind: str, probe: Action) -> str:
        need = {
            "remove_hazard": self.rules.hazard_removal_energy,
            "demolish_fossil": self.rules.demolish_energy,
            "build_warehouse": self.rules.warehouse_energy,
        }[kind]
        say = self.words.say
        if self.have["energy"] < need:
            return say(
                N_("You have {have} energy; it costs {need}."), have=self.have["energy"], need=need
            )
        if kind == "remove_hazard":
            return say(N_("None of your buildings or hexes carries a hazard."))
        if kind == "demolish_fossil":
            return say(N_("You have no fossil plant to demolish (or did so this turn)."))
        return self.why(probe) or say(N_("Not possible now."))

    def card_controls(self) -> list[dict[str, Any]]:
        out = [self.option(a) for a in self.legal if a.group == "cards"]
        if self.seat is None:
            return out
        kinds = {a.kind for a in self.legal}
        if "buy_dev_card" not in kinds:
            probe = BuyDevCard(self.seat)
            why = (
                self.turn_why()
                or short_of(self.have, self.rules.cost("dev_card"), self.words)
                or self.why(probe)
            )
            out.insert(0, {**self.option(probe), "a": None, "why": why})
        playable = {a.card for a in self.legal if a.kind == "play_dev_card"}
        for card, n in sorted(Counter(self.player.dev_cards).items()):
            if card not in playable:
                probe = PlayDevCard(self.seat, card)
                why = self.why(probe) or self.words.say(N_("Not playable now."))
                label = self.words.say(
                    N_("Play {card} (×{n})"), card=render(pretty(card), self.words.lang), n=n
                )
                out.append({**self.option(probe), "a": None, "label": label, "why": why})
        return out

    def decision_controls(self) -> list[dict[str, Any]]:
        """Every option of a pending decision (discard, Inspector, hazard, answer an offer)
        but one-for-one proposals, which :meth:`proposal_picker` shows."""
        proposing = any(a.kind == "propose_trade" for a in self.legal)
        return [
            self.option(a, label=self.words.say(N_("Pass (propose nothing)")))
            if proposing and a.kind == "decline"
            else self.option(a)
            for a in self.legal
            if a.kind != "propose_trade"
        ]

    def proposal_picker(self) -> list[dict[str, Any]]:
        """Rule 12.1: a seat that is not active proposes one card for one to the active
        player; the page shows two pickers and a button, not dozens of buttons."""
        active = self.game.names[self.game.state.active]
        return [
            {
                **self.option(a),
                "partner": active,
                "give": str(render(goods_text(a.give), self.words.lang)),
                "get": str(render(goods_text(a.get), self.words.lang)),
            }
            for a in self.legal
            if a.kind == "propose_trade"
        ]
