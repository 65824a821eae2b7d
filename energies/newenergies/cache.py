"""Every speed cache of the New Energies engine: the per-state ones live here, the rest are listed.

No cache changes what a game does: each keeps an answer the engine would compute again
from the same facts, and :mod:`energies.newenergies.invariants` compares the per-state
ones with a fresh computation (the golden traces and determinism tests hold the rest).

**Per state** — :class:`EngineCache`, the one ``GameState.cache`` field (never saved,
compared or shown; ``copy.deepcopy`` and ``Game.fork`` copy it with the state):

* ``listed`` — the legal actions of the position as ``engine.legal_actions`` last listed
  them (``turns.advance`` sets it for a decision it found options for);
* ``listed_before_offer`` — the listing a pending trade offer interrupted: a refusal
  returns to it (``engine.apply_listed``); a proposal made unasked at the active player's
  free decision (rule 12.1) keeps nothing, so the listing after its answer is made afresh
  (whether the table may still be asked depends on the proposals made);
* ``spots`` — per seat, where it could build (roads, towns, plants; cost aside) and its
  supply trades, trimmed rather than dropped as pieces move (``engine.keep_spots``);
* ``view_stamp`` — a token of the public copies the last view made (:mod:`..view`), kept
  through the answers of a trade window, which change nobody's cards or pieces
  (``engine.QUIET``);
* ``owners`` — corner -> seat of every town and city (``GameState.corner_owners``);
* ``road_lengths`` — every seat's road length as the Longest Road award counts it
  (``awards.update_longest_road``, which refreshes only the builder's after a road).

Every applied action drops the first four in ``engine.apply_listed``, which keeps back what
survives it (the spots a piece leaves standing, a quiet answer's stamp, the listing an
offer interrupted); :meth:`EngineCache.forget` drops what any other change invalidates.

The class lives beside :mod:`.state` rather than in :mod:`.engine`: ``state`` makes one for
every new state, and importing ``engine.cache`` would run ``engine/__init__``, which
imports ``state`` (a circle).

**Per process** — keyed by everything their answer depends on, so a game can never read
another game's answer; those that hand out objects hand out immutable ones (frozen
actions, tuples, an immutable :class:`~.board.Board`):

* ``actions.shared`` (``functools.cache`` per action class) — one object per distinct
  action: listings build the same few hundred frozen actions again and again;
* ``actions.codec._field_types`` — each action class's field names and types, read by
  ``field_problem`` on every ``apply``;
* ``state._clockwise`` — the seats clockwise from a seat, per seat and table size;
* ``layouts._build`` (``lru_cache(64)``) — the board of a layout, seed, number placement,
  harbors and rates: a simulation's games share their boards;
* ``Board`` — its adjacency tables are made once per board (it is immutable), its
  ``networkx`` graph (``Board.graph``) on first use;
* ``RuleSet._spaces``, ``_costs``, ``_supply_rates`` (cached properties of a frozen rule
  set) — event row sizes, costs and supply rates per harbor set, read on every listing;
  ``rules._field_specs`` — the spec of every rule field;
* ``engine.offers`` — ``_offer_table(seat, partner)`` and ``_proposal_table(seat)``, one
  action per give x get; ``_offer_picker(holdings)`` and ``_offer_count(holdings)``, which of
  them a pair of holdings allows (at most 2**14 byte strings);
  ``_proposal_options(seat, holdings)``, a proposal window's whole answer;
* ``engine.listing`` — ``_road_table(seat, paths)``; ``_supply_trade_table(seat, give,
  gets)``; ``_TRADE_TABLES`` (seat, science rule, supply rates -> trade tables; emptied past
  1,000 keys); ``_BUYS``, what a hand can pay for per card counts, for the last rule set's
  costs (``hand_buys``, at most ``MAX_HANDS`` hands);
* ``engine.decisions`` — ``_inspector_table(seat, hexes)``; ``_answers(seat, can_accept)``,
  a trade offer's answers;
* ``engine.awards._longest_road`` (``lru_cache(4096)``) — a road network's longest road
  given the board's paths, the roads and the corners that cut them;
* ``engine.setup`` — ``_corner_tables(board)`` (``lru_cache(64)``), pips and resources per
  corner; ``_PLAYED``, the quick start's placements as a tree per board, rules and start
  player (picks depend on nothing else but tie-break draws, which a later game still
  takes); ``_LAST_RULES``, the last rule set's hash;
* :mod:`..view` — the public copies the last views made (``_public``, ``_own``, ``_tasks``,
  ``_kept`` …), reused while their source is equal by value or the state keeps their
  ``view_stamp``.
"""

from __future__ import annotations

from typing import Any


class EngineCache:
    """What the engine found for one state, kept until a change of the state invalidates it.

    Read and written by the engine only; the fields are described in the module docstring.
    Kept as one object for the life of its state (:meth:`forget` empties it in place), so a
    caller may hold it across engine calls.
    """

    __slots__ = ("listed", "listed_before_offer", "owners", "road_lengths", "spots", "view_stamp")

    def __init__(self) -> None:
        self.listed: tuple[Any, ...] | None = None
        self.listed_before_offer: tuple[Any, ...] | None = None
        self.spots: dict[int, dict[Any, Any]] | None = None
        self.view_stamp: object | None = None
        self.owners: dict[int, int] | None = None
        self.road_lengths: dict[int, int] | None = None

    def forget(self, change: str = "anything") -> None:
        """Drop what ``change`` invalidates (each is found again when next asked for).

        ``"building"``: a town or city was placed on an empty corner — the corner owners, and
        the road lengths (a building can cut another seat's road); the listings, spots and
        view stamp go with the action that placed it (``engine.apply_listed``). An upgrade
        to a city invalidates neither: the corner keeps its owner.

        ``"anything"``: the state changed outside the rules' actions (a teacher's edit, the
        quick start jumping to a position it kept) or the game is over — every cache.
        """
        if change == "building":
            self.owners = self.road_lengths = None
        elif change == "anything":
            self.listed = self.listed_before_offer = self.spots = self.view_stamp = None
            self.owners = self.road_lengths = None
        else:
            raise ValueError(f"unknown change {change!r}: 'building' or 'anything'")

    def __repr__(self) -> str:
        kept = [name for name in self.__slots__ if getattr(self, name) is not None]
        return f"<EngineCache keeping {', '.join(kept) or 'nothing'}>"
