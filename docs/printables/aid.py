"""The one-page player aid: a turn, the costs, LF and GF, the two endings — from the rule set.

Every number is read from ``RuleSet.classroom()`` (the short game of lessons A and 07) and
every line cites the rule it comes from (``/work/shared/rules/new-energies.md``, the rules
sheet's numbers), so the aid follows the code when a preset changes.
"""

from __future__ import annotations

import html

from .render import document

STYLE = """
<style>
body { font-size: 9.8pt; line-height: 1.3; }
h1 { font-size: 14pt; }
h2 { font-size: 10.5pt; margin-top: 2.5mm; }
.columns { column-count: 2; column-gap: 7mm; }
.columns > section { break-inside: avoid; }
table { font-size: 9.2pt; }
.rule { color: #555; font-size: 8pt; }
</style>
"""

EVENT_NAMES = {
    "climate_conference": "Climate Conference",
    "environmental_pollution": "Environmental Pollution",
    "air_pollution": "Air Pollution",
    "production_increase": "Production Increase",
    "rain_and_flooding": "Rain and Flooding",
}


def _cost(pairs) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in pairs)


def _lf(n: int) -> str:
    return f"{n:+d}".replace("-", "−") if n else "0"  # a true minus sign


def player_aid_html() -> str:
    import energies as en

    r = en.RuleSet.classroom()
    start_gf = en.new_game(rules=r, seed=1).global_footprint
    e = html.escape
    builds = [
        ("road", r.road_cost, 0, "10"),
        ("town", r.town_cost, r.lf_town, "10"),
        ("city (replaces your town)", r.city_cost, r.lf_city - r.lf_town, "10"),
        ("fossil plant", r.fossil_cost, r.lf_fossil, "10"),
        ("renewable plant", r.renewable_cost, r.lf_renewable, "10, 10.4"),
        ("development card", r.dev_card_cost, 0, "10"),
    ]
    build_rows = "".join(
        f"<tr><td>{e(name)}</td><td>{e(_cost(cost))}</td><td>{_lf(lf)}</td></tr>"
        for name, cost, lf, _rule in builds
    )
    energy_rows = "".join(
        f"<tr><td>{n} energy</td><td>{e(what)}</td></tr>"
        for n, what in (
            (r.hazard_removal_energy, "remove any one hazard"),
            (
                r.demolish_energy,
                (
                    f"demolish one of your fossil plants (LF {_lf(-r.lf_fossil)}), "
                    f"at most {r.demolish_per_turn} per turn"
                ),
            ),
            (
                r.warehouse_energy,
                (
                    f"build your warehouse: keep up to {r.warehouse_threshold} cards on a 7 "
                    "(once per game)"
                ),
            ),
            (r.energy_card_rate, "take 1 resource or science card from the supply"),
        )
    )
    bands = r.disc_bands
    band_row = "".join(f"<td>{lo}–{hi}</td>" for lo, hi, _n in bands)
    draw_row = "".join(f"<td>{n}</td>" for _lo, _hi, n in bands)
    discs = ", ".join(f"{EVENT_NAMES.get(k, k)} {n}" for k, n in r.brown_discs)
    spaces = sorted({n for _row, n in r.event_spaces})
    body = f"""{STYLE}
<h1>Player aid · CATAN: New Energies, the short classroom game</h1>
<p class="lead">The kit's <code>RuleSet.classroom()</code>: the published rules with a smaller
bag ({e(discs)} brown discs, rule 1) and event rows of {" or ".join(map(str, spaces))} spaces
(rule 6.3). Rule numbers point to the rules sheet.</p>
<div class="columns">
<section><h2>A turn (rule 5)</h2>
<ol>
<li><strong>Events</strong> (rule 6): draw discs from the bag — how many, the GF decides
(table below). A disc fills a space of its row; a full row fires its event (rule 6.2).</li>
<li><strong>Production</strong> (rule 8): roll two dice. Each town next to a hex with that
number gets 1 card of it, each city 1 card <em>and</em> 1 science; a plant on that hex whose
building was paid gives its owner 1 energy (rule 8.3; at most {r.energy_cap} held, rule 8.4). A hazard or the
Inspector stops a hex or a building (rules 8.1, 8.5).<br>
<strong>A 7</strong> (rule 9): nobody produces; more than {r.discard_threshold} cards: discard
half; move the Inspector and steal 1 card.</li>
<li><strong>Actions</strong> (rules 10–12), in any order: build, trade, use energy. At most
{r.plants_per_turn} plant per turn (rule 10.3); {r.dev_cards_per_turn} development card per turn
(rule 5.4).</li>
</ol></section>
<section><h2>Costs (rule 10)</h2>
<table><tr><th>build</th><th>cost</th><th>LF</th></tr>{build_rows}</table>
<p>A plant stands on a land hex next to your town (1 plant) or city (up to
{r.city_plant_slots}) (rule 10.2). A renewable plant puts a green disc into the bag (rule 10.4).</p>
</section>
<section><h2>Energy (rule 11)</h2>
<table>{energy_rows}</table></section>
<section><h2>Trading (rule 12)</h2>
<p>Any deal with the active player (rule 12.1). With the supply: {r.bank_rate} equal
resources → 1; {r.science_rate} science → 1 resource; {r.energy_card_rate} energy → 1 card
(rule 12.2); a harbor {r.generic_harbor_rate}:1 or {r.special_harbor_rate}:1 (rule 12.3).</p>
</section>
<section><h2>LF and GF (rule 4)</h2>
<p><strong>LF</strong> = {r.lf_town} × towns + {r.lf_city} × cities + fossil plants −
renewable plants (rule 4.1). <strong>GF</strong> = all LFs together, from 0 to
{r.gf_max} (rule 4.2); it starts at {start_gf} (rule 3.5).</p>
<table><tr><th>GF</th>{band_row}</tr><tr><th>discs drawn</th>{draw_row}</tr></table>
<p class="rule">Rule 4.3 (4 players). A very low GF draws more discs too: then the bag holds
mostly green, rewarding discs.</p></section>
<section><h2>What your LF does</h2>
<ul>
<li><strong>Highest LF:</strong> discards a card at a Climate Conference (7.1), puts a hazard
on its own city at Air Pollution (7.3), may build a free fossil plant at a Production Increase
(7.4).</li>
<li><strong>Lowest LF:</strong> takes a card at a Climate Conference (7.1), draws a development
card at Government Funding (7.7).</li>
<li><strong>Most renewable plants:</strong> take a card at Sustainable Production (7.6).</li>
<li><strong>Everybody:</strong> Rain and Flooding puts a hazard on one of your buildings (7.5);
Environmental Pollution puts hazards on hexes (7.2).</li>
</ul></section>
<section><h2>The two endings (rule 14)</h2>
<ol>
<li><strong>{r.victory_points} VP</strong> on your own turn: you win at once (14.1). VP: town
{r.town_vp}, city {r.city_vp}, VP card {r.vp_card_vp}, Longest Road {r.longest_road_vp},
Active Environmentalist {r.environmentalist_vp} (13.8).</li>
<li><strong>Empty bag:</strong> a disc must be drawn and the bag is empty (14.2). Only players
with <strong>more renewable than fossil plants</strong> can win; the highest (renewable −
fossil) wins, ties by VP. Nobody qualifies: <strong>everybody loses</strong>.</li>
</ol></section>
</div>"""
    return document("Player aid", body, "RuleSet.classroom() (docs/printables/aid.py)")
