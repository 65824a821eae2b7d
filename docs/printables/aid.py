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

# The English words of the aid; docs/printables/languages.py holds the same keys in de, zh-Hant
# and be. A template's {placeholders} are the rule set's numbers, filled by player_aid_html.
ENGLISH = {
    "title": "Player aid",
    "events": {
        "climate_conference": "Climate Conference",
        "environmental_pollution": "Environmental Pollution",
        "air_pollution": "Air Pollution",
        "production_increase": "Production Increase",
        "rain_and_flooding": "Rain and Flooding",
    },
    "resources": {
        "lumber": "lumber",
        "brick": "brick",
        "fiber": "fiber",
        "food": "food",
        "steel": "steel",
        "science": "science",
    },
    "builds": (
        "road",
        "town",
        "city (replaces your town)",
        "fossil plant",
        "renewable plant",
        "development card",
    ),
    "energy_amount": "{n} energy",
    "energy_uses": (
        "remove any one hazard",
        "demolish one of your fossil plants (LF {lf}), at most {per_turn} per turn",
        "build your warehouse: keep up to {keep} cards on a 7 (once per game)",
        "take 1 resource or science card from the supply",
    ),
    "or": " or ",
    "body": """
<h1>Player aid · CATAN: New Energies, the short classroom game</h1>
<p class="lead">The kit's <code>RuleSet.classroom()</code>: the published rules and bag
({discs} brown discs, rule 1) in a race to {victory_points} VP (rule 14.1), with event rows
of {spaces} spaces (rule 6.3) and disc bands that draw more discs sooner (rule 4.3, the
table below). Rule numbers point to the rules sheet.</p>
<div class="columns">
<section><h2>A turn (rule 5)</h2>
<ol>
<li><strong>Events</strong> (rule 6): draw discs from the bag — how many, the GF decides
(table below). A disc fills a space of its row; a full row fires its event (rule 6.2).</li>
<li><strong>Production</strong> (rule 8): roll two dice. Each town next to a hex with that
number gets 1 card of it, each city 1 card <em>and</em> 1 science; a plant on that hex whose
building was paid gives its owner 1 energy (rule 8.3; at most {energy_cap} held, rule 8.4). A hazard or the
Inspector stops a hex or a building (rules 8.1, 8.5).<br>
<strong>A 7</strong> (rule 9): nobody produces; more than {discard_threshold} cards: discard
half; move the Inspector and steal 1 card.</li>
<li><strong>Actions</strong> (rules 10–12), in any order: build, trade, use energy. At most
{plants_per_turn} plant per turn (rule 10.3); {dev_cards_per_turn} development card per turn
(rule 5.4).</li>
</ol></section>
<section><h2>Costs (rule 10)</h2>
<table><tr><th>build</th><th>cost</th><th>LF</th></tr>{build_rows}</table>
<p>A plant stands on a land hex next to your town (1 plant) or city (up to
{city_plant_slots}) (rule 10.2). A renewable plant puts a green disc into the bag (rule 10.4).</p>
</section>
<section><h2>Energy (rule 11)</h2>
<table>{energy_rows}</table></section>
<section><h2>Trading (rule 12)</h2>
<p>Any deal with the active player (rule 12.1). With the supply: {bank_rate} equal
resources → 1; {science_rate} science → 1 resource; {energy_card_rate} energy → 1 card
(rule 12.2); a harbor {generic_harbor_rate}:1 or {special_harbor_rate}:1 (rule 12.3).</p>
</section>
<section><h2>LF and GF (rule 4)</h2>
<p><strong>LF</strong> = {lf_town} × towns + {lf_city} × cities + fossil plants −
renewable plants (rule 4.1). <strong>GF</strong> = all LFs together, from 0 to
{gf_max} (rule 4.2); it starts at {start_gf} (rule 3.5).</p>
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
<li><strong>{victory_points} VP</strong> on your own turn: you win at once (14.1). VP: town
{town_vp}, city {city_vp}, VP card {vp_card_vp}, Longest Road {longest_road_vp},
Active Environmentalist {environmentalist_vp} (13.8).</li>
<li><strong>Empty bag:</strong> a disc must be drawn and the bag is empty (14.2). Only players
with <strong>more renewable than fossil plants</strong> can win; the highest (renewable −
fossil) wins, ties by VP. Nobody qualifies: <strong>everybody loses</strong>.</li>
</ol></section>
</div>""",
}


def words(lang: str) -> dict:
    """The aid's words in ``lang`` (``en`` or one of ``languages.LANGUAGES``)."""
    if lang == "en":
        return ENGLISH
    from .languages import AID

    return AID[lang]


def _cost(pairs, names, item: str = "{n} {name}") -> str:
    return ", ".join(item.format(n=n, name=names.get(kind, kind)) for kind, n in pairs)


def _lf(n: int) -> str:
    return f"{n:+d}".replace("-", "−") if n else "0"  # a true minus sign


def player_aid_html(lang: str = "en") -> str:
    """The aid as an A4 page in ``lang``; every number comes from ``RuleSet.classroom()``."""
    import energies as en

    w = words(lang)
    r = en.RuleSet.classroom()
    start_gf = en.new_game(rules=r, seed=1).global_footprint
    e = html.escape
    builds = zip(
        w["builds"],
        (r.road_cost, r.town_cost, r.city_cost, r.fossil_cost, r.renewable_cost, r.dev_card_cost),
        (0, r.lf_town, r.lf_city - r.lf_town, r.lf_fossil, r.lf_renewable, 0),
    )
    build_rows = "".join(
        f"<tr><td>{e(name)}</td><td>{e(_cost(cost, w['resources'], w.get('cost_item', '{n} {name}')))}</td><td>{_lf(lf)}</td></tr>"
        for name, cost, lf in builds
    )
    remove, demolish, warehouse, card = w["energy_uses"]
    energy_rows = "".join(
        f"<tr><td>{e(w['energy_amount'].format(n=n))}</td><td>{e(what)}</td></tr>"
        for n, what in (
            (r.hazard_removal_energy, remove),
            (
                r.demolish_energy,
                demolish.format(lf=_lf(-r.lf_fossil), per_turn=r.demolish_per_turn),
            ),
            (r.warehouse_energy, warehouse.format(keep=r.warehouse_threshold)),
            (r.energy_card_rate, card),
        )
    )
    bands = r.disc_bands
    discs = ", ".join(f"{w['events'].get(k, k)} {n}" for k, n in r.brown_discs)
    spaces = sorted({n for _row, n in r.event_spaces})
    values = {
        "discs": e(discs),
        "spaces": w["or"].join(map(str, spaces)),
        "build_rows": build_rows,
        "energy_rows": energy_rows,
        "band_row": "".join(f"<td>{lo}–{hi}</td>" for lo, hi, _n in bands),
        "draw_row": "".join(f"<td>{n}</td>" for _lo, _hi, n in bands),
        "start_gf": start_gf,
        **{
            name: getattr(r, name)
            for name in (
                "energy_cap",
                "discard_threshold",
                "plants_per_turn",
                "dev_cards_per_turn",
                "city_plant_slots",
                "bank_rate",
                "science_rate",
                "energy_card_rate",
                "generic_harbor_rate",
                "special_harbor_rate",
                "lf_town",
                "lf_city",
                "gf_max",
                "victory_points",
                "town_vp",
                "city_vp",
                "vp_card_vp",
                "longest_road_vp",
                "environmentalist_vp",
            )
        },
    }
    body = STYLE + w.get("style", "") + w["body"].format(**values)
    source = "RuleSet.classroom() (docs/printables/aid.py)"
    if lang == "en":
        return document(w["title"], body, source)
    return document(w["title"], body, source, lang=lang, footer=w["footer"])
