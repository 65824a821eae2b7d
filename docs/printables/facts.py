"""Every number the facilitator pack prints, in one place, read from the code and the results.

The pack's markdown sources name facts as ``{{name}}``; :func:`facts` fills them. Rule numbers
come from ``RuleSet.classroom()`` (the short game lessons A and 07 play) and
``RuleSet.standard()``, so a changed preset changes the printed pages: their digests change
and the tests ask for a rebuild (``python docs/build_worksheets.py``).
"""

from __future__ import annotations

from functools import cache


def _cost(pairs) -> str:
    return " + ".join(f"{n} {kind}" for kind, n in pairs)


def _first_gf(rules, discs: int) -> int:
    """The lowest GF above the 1-disc band that draws ``discs`` discs a turn (rule 4.3)."""
    return min(lo for lo, _hi, n in rules.disc_bands if n == discs and lo > 0)


@cache
def facts() -> dict[str, str]:
    """{name: text} for the ``{{name}}`` placeholders of the pack's sources."""
    import energies as en
    from energies.classroom import ROLES

    short, full = en.RuleSet.classroom(), en.RuleSet.standard()
    start = en.new_game(rules=short, seed=1)
    rows = sorted({spaces for _row, spaces in short.event_spaces})
    bands = " | ".join(f"{lo}–{hi}" for lo, hi, _n in short.disc_bands)
    draws = " | ".join(str(n) for _lo, _hi, n in short.disc_bands)
    return {
        "vp_target": str(short.victory_points),
        "fossil_cost": _cost(short.fossil_cost),
        "renewable_cost": _cost(short.renewable_cost),
        "classroom_bag": str(sum(n for _kind, n in short.brown_discs)),
        "standard_bag": str(sum(n for _kind, n in full.brown_discs)),
        "classroom_row": " or ".join(str(n) for n in rows),
        "standard_vp": str(full.victory_points),
        "standard_row": " or ".join(str(n) for n in sorted({n for _r, n in full.event_spaces})),
        "classroom_two_discs": str(_first_gf(short, 2)),
        "classroom_three_discs": str(_first_gf(short, 3)),
        "standard_two_discs": str(_first_gf(full, 2)),
        "standard_three_discs": str(_first_gf(full, 3)),
        "start_gf": str(start.global_footprint),
        "roles_table": "| role | goal in role |\n|---|---|\n"
        + "\n".join(f"| **{role.title}** | {role.goal} |" for role in ROLES),
        "bands_table": (
            f"| GF (4 players) | {bands} |\n|---|{'---|' * len(short.disc_bands)}\n"
            f"| discs drawn | {draws} |"
        ),
    }


def fill(text: str) -> str:
    """``text`` with every ``{{name}}`` replaced; an unknown name stops the build."""
    import re

    known = facts()

    def one(match) -> str:
        name = match.group(1)
        if name not in known:
            raise SystemExit(f"unknown fact {{{{{name}}}}}: add it to docs/printables/facts.py")
        return known[name]

    return re.sub(r"\{\{\s*(\w+)\s*\}\}", one, text)
