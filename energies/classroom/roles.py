"""Role cards for the class experiment: a stake for every seat, and whether each seat won in role.

Round 2 of lesson 07 deals one card per seat, in seat order (the first name of the group cell
gets the first card), the way World Climate's briefings and KEEP COOL's role cards give every
player a stake besides the game's own score. Each card says who you are, what you want, what
you may say and do at the table, and how you win *in role*: a goal the table can check on the
board at the end, and that :func:`in_role` checks from the saved games. The printed cards
(``docs/facilitator/role-cards.pdf``) are made from :data:`ROLES`, so the cards and the
analysis can never disagree.

A goal in role is scored apart from the game: a player may win the game and fail in role, or
lose the game and succeed in role. The four goals pull apart on purpose: the company's fossil
plants raise the footprint that the NGO wants lowered; the city's growth raises its own LF,
which its citizens want to be not the highest; the journalist makes the footprint public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ROLES", "Role", "in_role", "roles_for"]


@dataclass(frozen=True)
class Seat:
    """What a role's goal may look at: one seat at the end of a game, and the table."""

    fossil: int
    renewable: int
    cities: int
    lf: int
    others_lf: tuple[int, ...]
    start_gf: int
    final_gf: int
    everyone_loses: bool
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Role:
    """One role card: its words, and the check of its goal in role."""

    key: str
    title: str
    who: str
    wants: str
    may: tuple[str, ...]
    goal: str
    check: Callable[[Seat], bool] = field(repr=False, compare=False)


def _company(seat: Seat) -> bool:
    return seat.fossil >= 2 and not seat.everyone_loses


def _city(seat: Seat) -> bool:
    return seat.cities >= 2 and bool(seat.others_lf) and seat.lf < max(seat.others_lf)


def _ngo(seat: Seat) -> bool:
    return seat.final_gf < seat.start_gf


def _journalist(seat: Seat) -> bool:
    return seat.fossil <= seat.renewable and bool(seat.winners)


ROLES: tuple[Role, ...] = (
    Role(
        key="company",
        title="The energy company",
        who="You run Island Power, the company that owns the island's power stations. Your "
        "shareholders count one thing: how many fossil plants you run.",
        wants="Cheap power now. A fossil plant costs less science than a renewable one "
        "(rule 10), and your board wants the cheap ones kept running.",
        may=(
            "Offer energy or science to any player in a trade, on any terms (rules 11.1, 12.1).",
            (
                "Promise anything: to build green later, to demolish a plant (rule 11). Nobody can "
                "make you keep a promise."
            ),
            "Argue that jobs and growth need cheap power.",
        ),
        goal="At least 2 of your fossil plants still stand at the end, and the game does not "
        "end with everybody losing: a company needs customers (rule 14.2).",
        check=_company,
    ),
    Role(
        key="city",
        title="The city",
        who="You are the mayor of the island's largest city. Your citizens want homes and jobs, "
        "and they want to breathe.",
        wants="Growth: towns and cities (rule 10). But every town and city raises your LF "
        "(rule 4.1), and the highest LF is hit by Air Pollution and by the Climate "
        "Conference (rules 7.1, 7.3).",
        may=(
            "Call a town meeting once per round: every player says their LF aloud.",
            (
                "Propose a rule for the table (for example: no plants on the hexes around your "
                "city) and ask who agrees."
            ),
            "Trade with anyone (rule 12.1).",
        ),
        goal="You end with at least 2 cities, and your LF is lower than the highest LF of the "
        "others (a tie for the highest does not count).",
        check=_city,
    ),
    Role(
        key="ngo",
        title="The green NGO",
        who="You lead Clean Island, a group that campaigns for a low footprint. You cannot "
        "pass laws; you can persuade, and pay.",
        wants="A lower global footprint (GF) for the whole island, not only for you (rule 4.2).",
        may=(
            (
                "Offer a good trade to any player who promises to build a renewable plant this "
                "turn (rule 12.1)."
            ),
            "Say aloud, after any build, what it did to the GF.",
            "Ask the table to write down an agreement, and read it out when someone breaks it.",
        ),
        goal="The GF at the end is lower than before the first roll (rule 3.5). The whole "
        "table's footprint counts, not only yours.",
        check=_ngo,
    ),
    Role(
        key="journalist",
        title="The journalist",
        who="You write for the Island Courier. Your readers trust you because you tell them "
        "the numbers, and because you live as you write.",
        wants="The truth on the front page: how high the GF is, who raised it, and what it "
        "costs everybody (rule 4.3: the GF decides how many discs are drawn).",
        may=(
            (
                "At the start of every turn, read the GF aloud and say how many discs it draws "
                "(rule 4.3)."
            ),
            "After an event fires, say whom it hit and who caused the footprint behind it.",
            "Ask any player once per turn: why did you build that?",
        ),
        goal="You end with no more fossil than renewable plants (you live as you write), and "
        "the game ends with at least one winner (rule 14.2).",
        check=_journalist,
    ),
)


def roles_for(players: int) -> tuple[Role, ...]:
    """The cards of a table, in seat order: 4 players get all four, 3 players no journalist."""
    if isinstance(players, bool) or players not in (3, 4):
        raise ValueError(f"players must be 3 or 4 (New Energies, rule 3.6), not {players!r}.")
    return ROLES[:players]


def in_role(frame: Any):
    """Whether each seat reached its goal in role: one row per (group, seat).

    ``frame`` is :func:`energies.classroom.collect`'s table of the round that played with
    role cards (cards dealt in seat order, :func:`roles_for`). Columns: ``group``, ``seat``,
    ``name``, ``role`` (the card's title), ``met`` (the goal reached), ``won_game`` (the
    seat is among the game's winners). Games saved before their end are left out: a goal
    is judged on the final board.
    """
    import pandas as pd

    needed = {"group", "players", "names", "winners", "everyone_loses", "final_gf", "finished"}
    if not hasattr(frame, "columns") or needed - set(frame.columns):
        raise ValueError("in_role needs collect()'s table of the round played with role cards.")
    rows = []
    for game in frame.to_dict("records"):
        if not game["finished"]:
            continue
        players = int(game["players"])
        names = str(game["names"]).split(", ")
        lfs = [int(game[f"lf_{s}"]) for s in range(players)]
        for seat, role in enumerate(roles_for(players)):
            view = Seat(
                fossil=int(game[f"fossil_{seat}"]),
                renewable=int(game[f"renewable_{seat}"]),
                cities=int(game[f"cities_{seat}"]),
                lf=lfs[seat],
                others_lf=tuple(lf for s, lf in enumerate(lfs) if s != seat),
                start_gf=int(game["gf_by_turn"][0]),
                final_gf=int(game["final_gf"]),
                everyone_loses=bool(game["everyone_loses"]),
                winners=tuple(game["winners"]),
            )
            rows.append(
                {
                    "group": game["group"],
                    "seat": seat,
                    "name": names[seat] if seat < len(names) else f"Seat {seat}",
                    "role": role.title,
                    "met": bool(role.check(view)),
                    "won_game": seat in view.winners,
                }
            )
    return pd.DataFrame(rows, columns=["group", "seat", "name", "role", "met", "won_game"])
