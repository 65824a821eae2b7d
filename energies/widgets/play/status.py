"""The status lines under the board that the PlayApp and the class server's seat page share:
whose turn and the dice, the footprint and the bag, and who would win if the bag ran out now.

Each takes the game state (or a seat's view of it: only public parts are read) and the page's
:class:`~energies.widgets.play.words.Wording`, so both pages say the same sentence in the
reader's language.
"""

from __future__ import annotations

from ...kit.i18n import N_
from ...newenergies.engine.events import empty_bag_outcome
from .words import Wording


def turn_line(state, words: Wording) -> str:
    """ "Turn 4 · Ana's turn · dice 3 + 5 = 8"."""
    if words.english:
        dice = (
            f" · dice {state.dice[0]} + {state.dice[1]} = {sum(state.dice)}" if state.dice else ""
        )
        return f"Turn {state.turn} · {words.possessive(state.active)} turn{dice}"
    line = words.say(
        N_("Turn {turn} · {name} plays"), turn=state.turn, name=words.name(state.active)
    )
    if state.dice:
        line += " · " + words.say(
            N_("dice {a} + {b} = {total}"), a=state.dice[0], b=state.dice[1], total=sum(state.dice)
        )
    return line


def gf_line(state, over: bool, words: Wording) -> str:
    """The GF, the discs the next event phase draws (rule 4.3), the bag and the VP target."""
    gf, rules = state.global_footprint, state.rules
    if over:
        return words.say(N_("GF {gf} of {most} · game over"), gf=gf, most=rules.gf_max)
    return words.nsay(
        "GF {gf} of {most} · next event phase draws {n} disc · bag {bag} · first to {vp} VP",
        "GF {gf} of {most} · next event phase draws {n} discs · bag {bag} · first to {vp} VP",
        rules.discs_to_draw(gf),
        gf=gf,
        most=rules.gf_max,
        bag=len(state.bag),
        vp=rules.victory_points,
    )


def bag_line(state, over: bool, words: Wording) -> str:
    """What the empty bag would mean now (rule 14.2), from the plants on the board (public),
    scored by the engine's own :func:`~energies.newenergies.engine.events.empty_bag_outcome`."""
    if over:
        return ""
    kind, winners, _reason, _out = empty_bag_outcome(state)
    if kind == "everyone_loses":
        return words.say(
            N_(
                "If the bag ran out now, everybody would lose: nobody has more renewable "
                "than fossil plants (rule 14.2)."
            )
        )
    names = [words.name(s) for s in winners]
    player = state.players[winners[0]]
    balance = player.count_plants("renewable") - player.count_plants("fossil")
    if not words.english:
        return words.nsay(
            "If the bag ran out now: {names} would win (renewable minus fossil plants: "
            "+{balance}, rule 14.2).",
            "If the bag ran out now: {names} would share the win (renewable minus fossil "
            "plants: +{balance}, rule 14.2).",
            len(names),
            names=words.listing(names),
            balance=balance,
        )
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    verb = ("win" if words.is_you(winners[0]) else "wins") if len(names) == 1 else "share the win"
    return (
        f"If the bag ran out now: {who} {verb} (renewable minus fossil plants: +{balance}, "
        "rule 14.2)."
    )
