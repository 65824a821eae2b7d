"""What the deciding seat can do, as the page shows it: board spots and the controls beside it.

Every option carries its action (``action_to_dict``), a label in the app's wording, its
price, and — for a control that is disabled — the engine's ``why_illegal`` sentence or the
cards the seat is short of. Pure functions of the game; :mod:`energies.widgets.play` sends
the result to the page.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

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
    ("Road", "road", "build_road", "a glowing path"),
    ("Town", "town", "build_town", "a glowing corner"),
    ("City", "city", "build_city", "one of your glowing towns"),
    ("Fossil plant", "fossil", "build_plant", "a glowing hex"),
    ("Renewable plant", "renewable", "build_plant", "a glowing hex"),
)


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


def price_text(cost: dict[str, int]) -> str:
    return " + ".join(f"{n} {k}" for k, n in cost.items() if n) or "free"


def short_of(have: dict[str, int], cost: dict[str, int]) -> str | None:
    """ "You are short of 1 food and 2 steel." (None when the cost can be paid)."""
    missing = [f"{n - have.get(k, 0)} {k}" for k, n in cost.items() if have.get(k, 0) < n]
    if not missing:
        return None
    text = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
    return f"You are short of {text}."


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
        """The action as a command: "Build a road on path Mountains 10 | Pasture 2"."""
        text = self.game.describe(action)
        name = self.game.names[action.seat] if 0 <= action.seat < len(self.game.names) else ""
        if name and text.startswith(name + " "):
            verb, _, rest = text[len(name) + 1 :].partition(" ")
            text = _plural_verb(verb).capitalize() + (" " + rest if rest else "")
        return self.words.speak(text, addressee=action.seat)

    def price(self, action: Action) -> str:
        r, kind = self.rules, action.kind
        task = self.game.state.pending
        if task is not None and task.kind in FREE_TASKS and task.seat == action.seat:
            return "free"  # the event's fossil plant, a Cleanup's hazard, a free road
        if kind in ("build_road", "build_town", "build_city"):
            return price_text(r.cost(kind[6:]))
        if kind == "build_plant":
            return price_text(r.cost(action.plant))
        if kind == "buy_dev_card":
            return price_text(r.cost("dev_card"))
        if kind == "remove_hazard":
            return f"{r.hazard_removal_energy} energy"
        if kind == "demolish_fossil":
            return f"{r.demolish_energy} energy"
        if kind == "build_warehouse":
            return f"{r.warehouse_energy} energy"
        if kind == "trade_with_supply":
            rate = supply_rates(self.game.state, action.seat).get(action.give)
            return f"{rate} {action.give}" if rate else ""
        if kind == "offer_trade":
            return goods_text(action.give)
        return ""

    def option(self, action: Action, **extra: Any) -> dict[str, Any]:
        return {
            "a": action_to_dict(action),
            "kind": action.kind,
            "label": self.label(action),
            "price": self.price(action),
            **extra,
        }

    def why(self, action: Action) -> str:
        reason = self.game.why_illegal(action)
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
            first = spot["options"][0]
            spot["tip"] = (
                f"{first['label']} — free"
                if len(spot["options"]) == 1 and first["price"] == "free"
                else f"{first['label']} — costs {first['price']}"
                if len(spot["options"]) == 1 and first["price"]
                else first["label"]
                if len(spot["options"]) == 1
                else "Click to choose: "
                + " or ".join(f"{o['short']} ({o['price']})" for o in spot["options"])
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
                tip = f"{w.possessive(who)} {piece}" + (
                    " (a city cannot grow further)." if piece == "city" else "."
                )
                if who == seat and piece == "town":
                    tip = self._spot_why(BuildCity(seat, c)) or tip
            else:
                tip = self._spot_why(BuildTown(seat, c))
            out[f"c{c}"] = {"tip": tip}
        for path in range(len(g.board.paths)):
            if f"p{path}" not in out:
                tip = (
                    f"{w.possessive(roads[path])} road."
                    if path in roads
                    else self._spot_why(BuildRoad(seat, path))
                )
                out[f"p{path}"] = {"tip": tip}
        mine = self.player.towns | self.player.cities
        for hx in g.board.hexes:
            if f"h{hx.id}" in out:
                continue
            corners = [c for c in g.board.hex_corners(hx.id) if c in mine]
            if corners:
                tip = self._spot_why(BuildPlant(seat, "renewable", corners[0], hx.id))
            elif hx.number is None:
                tip = f"{w.hex(hx.id)}: nothing grows here, no plant can stand here."
            else:
                tip = f"A plant on {w.hex(hx.id)} needs a town or city of yours on its corners."
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
            o["short"] = f"{a['plant'].capitalize()} plant"
            if len(corners) > 1:
                piece = "city" if a["corner"] in self.player.cities else "town"
                o["short"] += f" for your {piece} at {self.words.corner(a['corner'])}"

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
        for title, item, kind, where in BUILD_ITEMS:
            cost = self.rules.cost(item)
            legal = [
                a
                for a in self.legal
                if a.kind == kind and (kind != "build_plant" or a.plant == item)
            ]
            if legal:
                n = len({spot_key(a) for a in legal})
                text = f"click {where} ({n} spot{'s' * (n != 1)})"
                rows.append({"title": title, "price": price_text(cost), "text": text, "kind": kind})
                continue
            # when the turn forbids every building (not your turn, roll first), the page
            # says so once above the rows (build_note) instead of on each row
            why = "" if self.turn_why() else short_of(self.have, cost) or self._no_spot_why(kind)
            rows.append({"title": title, "price": price_text(cost), "why": why, "kind": kind})
        return rows

    def turn_why(self) -> str | None:
        """The reason that holds for every building now (not your turn, roll first, decide);
        worked out once per Options (the rows and controls each ask it)."""
        if not hasattr(self, "_turn_why"):
            self._turn_why = self._find_turn_why()
        return self._turn_why

    def _find_turn_why(self) -> str | None:
        reason = self.game.why_illegal(BuildRoad(self.seat, 0))
        # the same sentence for two different spots: the turn, not the spot, forbids it
        if (
            reason
            and not reason.lower().startswith(("you are short", "you need", "path"))
            and self.game.why_illegal(BuildTown(self.seat, 0)) == reason
        ):
            return self.words.speak(reason, addressee=self.seat)
        return None

    def _no_spot_why(self, kind: str) -> str:
        return {
            "build_road": "No free path touches your roads, towns or cities.",
            "build_town": "No free corner is on your roads and two steps from every building.",
            "build_city": "You have no town to turn into a city (or no city piece left).",
            "build_plant": "No free plant spot next to your towns and cities (hover a hex).",
        }.get(kind, "Not possible now.")

    def supply_rows(self) -> list[dict[str, Any]]:
        """Trades with the supply: one row per card you give, with its rate (4:1, 3:1, 2:1)."""
        if self.seat is None:
            return []
        rates = supply_rates(self.game.state, self.seat)
        rows = []
        for give, rate in rates.items():
            legal = [a for a in self.legal if a.kind == "trade_with_supply" and a.give == give]
            row = {"give": give, "rate": f"{rate}:1", "have": self.have.get(give, 0)}
            if legal:
                row["options"] = [self.option(a, label=a.get, price="") for a in legal]
            else:
                other = next(k for k in CARD_KINDS if k != give)
                row["why"] = self.why(TradeWithSupply(self.seat, give, other)) or (
                    f"You have {row['have']} {give}; a trade needs {rate}."
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
                    "give": goods_text(a.give),
                    "get": goods_text(a.get),
                }
                for a in legal
            ]
        }
        if not legal and self.seat is not None:
            n = len(self.game.state.players)
            probe = OfferTrade(self.seat, (self.seat + 1) % n, (("brick", 1),), (("lumber", 1),))
            out["why"] = self.why(probe) or "No one-for-one offer is possible now."
        return out

    def ask_control(self) -> dict[str, Any] | None:
        """ "Ask the table": the active player asks the others for proposals (rule 12.1),
        or the reason it cannot now."""
        if self.seat is None:
            return None
        a = self._first("ask_for_proposals")
        if a is not None:
            return self.option(a, label="Ask the table")
        probe = AskForProposals(self.seat)
        why = self.why(probe) or "Not possible now."
        return {**self.option(probe), "a": None, "label": "Ask the table", "why": why}

    def energy_controls(self) -> list[dict[str, Any]]:
        out = [self.option(a) for a in self.legal if a.group == "energy"]
        if self.seat is None:
            return out
        seat, kinds = self.seat, {a.kind for a in self.legal}
        probes = (
            ("remove_hazard", RemoveHazard(seat, "hex", 0), "Remove a hazard"),
            ("demolish_fossil", DemolishFossil(seat, 0, 0), "Demolish a fossil plant"),
            ("build_warehouse", BuildWarehouse(seat), "Build the warehouse"),
        )
        for kind, probe, title in probes:
            if kind not in kinds:
                why = self.turn_why() or self._energy_why(kind, probe)
                out.append({**self.option(probe), "a": None, "label": title, "why": why})
        return out

    def _energy_why(self, kind: str, probe: Action) -> str:
        need = {
            "remove_hazard": self.rules.hazard_removal_energy,
            "demolish_fossil": self.rules.demolish_energy,
            "build_warehouse": self.rules.warehouse_energy,
        }[kind]
        if self.have["energy"] < need:
            return f"You have {self.have['energy']} energy; it costs {need}."
        if kind == "remove_hazard":
            return "None of your buildings or hexes carries a hazard."
        if kind == "demolish_fossil":
            return "You have no fossil plant to demolish (or did so this turn)."
        return self.why(probe) or "Not possible now."

    def card_controls(self) -> list[dict[str, Any]]:
        out = [self.option(a) for a in self.legal if a.group == "cards"]
        if self.seat is None:
            return out
        kinds = {a.kind for a in self.legal}
        if "buy_dev_card" not in kinds:
            probe = BuyDevCard(self.seat)
            why = (
                self.turn_why()
                or short_of(self.have, self.rules.cost("dev_card"))
                or self.why(probe)
            )
            out.insert(0, {**self.option(probe), "a": None, "why": why})
        playable = {a.card for a in self.legal if a.kind == "play_dev_card"}
        for card, n in sorted(Counter(self.player.dev_cards).items()):
            if card not in playable:
                probe = PlayDevCard(self.seat, card)
                why = self.why(probe) or "Not playable now."
                out.append(
                    {
                        **self.option(probe),
                        "a": None,
                        "label": f"Play {pretty(card)} (×{n})",
                        "why": why,
                    }
                )
        return out

    def decision_controls(self) -> list[dict[str, Any]]:
        """Every option of a pending decision (discard, Inspector, hazard, answer an offer)
        but one-for-one proposals, which :meth:`proposal_picker` shows."""
        proposing = any(a.kind == "propose_trade" for a in self.legal)
        return [
            self.option(a, label="Pass (propose nothing)")
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
                "give": goods_text(a.give),
                "get": goods_text(a.get),
            }
            for a in self.legal
            if a.kind == "propose_trade"
        ]
