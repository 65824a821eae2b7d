"""The role cards of lesson 07, two to an A4 page, from ``energies.classroom.ROLES``.

The cards and lesson 07's analysis (``energies.classroom.in_role``) read one definition, so a
printed goal is the goal the notebook checks.
"""

from __future__ import annotations

import html

from .render import document

CARDS_PER_PAGE = 2
STYLE = """
<style>
body { font-size: 10.2pt; line-height: 1.3; }
.card { box-sizing: border-box; min-height: 124mm; border: 0.6mm dashed #666; border-radius: 3mm;
  padding: 5mm 7mm; margin: 0 0 6mm 0; break-inside: avoid; position: relative; }
.card:nth-of-type(2n) { break-after: page; }
.card:last-of-type { break-after: auto; }
.card h1 { font-size: 19pt; margin: 0 0 1mm 0; }
.card .seat { color: #555; font-size: 9.5pt; margin: 0 0 3mm 0; }
.card h2 { font-size: 11pt; border: none; margin: 2.5mm 0 0.5mm 0; color: #0072B2; }
.card .goal { border: 0.4mm solid #111; border-radius: 2mm; padding: 1.5mm 2.5mm; margin-top: 2mm; }
.card .goal h2 { margin-top: 0; color: #111; }
footer { font-size: 7pt; }
</style>
"""
ORDINALS = ("first", "second", "third", "fourth")


def role_cards_html() -> str:
    from energies.classroom import ROLES

    e = html.escape
    cards = []
    for seat, role in enumerate(ROLES):
        may = "".join(f"<li>{e(line)}</li>" for line in role.may)
        only_four = " (a table of four only)" if seat == 3 else ""
        cards.append(
            f'<section class="card"><h1>{e(role.title)}</h1>'
            f'<p class="seat">Lesson 07, round 2 · for the {ORDINALS[seat]} name in the group '
            f"cell (seat {seat}){only_four}</p>"
            f"<h2>Who you are</h2><p>{e(role.who)}</p>"
            f"<h2>What you want</h2><p>{e(role.wants)}</p>"
            f"<h2>What you may say and do</h2><ul>{may}</ul>"
            f'<div class="goal"><h2>You win in role when</h2><p>{e(role.goal)}</p>'
            "<p><em>Scored apart from the game: you can win the game and fail in role, or the "
            "other way round.</em></p></div></section>"
        )
    return document(
        "Role cards",
        STYLE + "\n".join(cards),
        "energies.classroom.ROLES (docs/printables/cards.py)",
    )
