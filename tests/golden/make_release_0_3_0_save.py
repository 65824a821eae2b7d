"""Run with energies 0.3.0 on the path (commit 9284fe0) to write release-0.3.0-save.json.

Written by energies 0.3.0 (commit 9284fe0): a game whose replay depends on the readings of
that release — a fiber shortage with plants on the rolled hex (rule 8.3: no energy without
the card) and a Longest Road broken to a tie (rule 13.6: set aside)."""

import itertools
import sys

from energies.actions import BuildTown, Decline, EndTurn, RollDice

import energies as en

SB = en.sandbox
rules = en.RuleSet.standard(4, random_start_player=False)
g = en.new_game(seed=5, rules=rules)
SB.clear_board(g)
b = g.board
(h2,) = b.hexes_with_number(2)
c_a, c_b = b.hex_corners(h2)[0], b.hex_corners(h2)[2]
SB.place(g, 0, "city", c_a)
SB.place(g, 1, "town", c_b)
SB.place_plant(g, 0, "renewable", c_a, h2)
SB.place_plant(g, 1, "fossil", c_b, h2)
fiber = b.hexes[h2].resource
SB.give(g, 3, **{fiber: g.state.supply[fiber] - 1})
SB.fix_dice(g, 1, 1)
g.apply(RollDice(0))
while g.pending == "propose a trade to the active player or pass":
    g.apply(Decline(g.current_seat))
assert g.state.players[0].energy == 0, "0.3 gives no energy without the card"


def chain(*cs):
    return [b.path_between(x, y) for x, y in itertools.pairwise(cs)]


for p in chain(0, 3, 7, 12, 17, 23, 29):
    SB.place(g, 1, "road", p)
for p in chain(47, 51, 48, 52, 49, 53):
    SB.place(g, 2, "road", p)
SB.place(g, 0, "road", b.path_between(18, 23))
SB.give(g, 0, brick=1, lumber=1, fiber=0, food=1)
SB.give(g, 0, **{"fiber": 1} if g.state.supply["fiber"] else {})
g.apply(BuildTown(0, 23))
assert g.state.longest_road_holder is None, "0.3 sets a tied broken road aside"
g.apply(EndTurn(0))
sys.stdout.write(g.to_json())
