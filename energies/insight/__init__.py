"""Insight tools: look *into* a game of New Energies instead of just playing it.

* :func:`event_risk` — the exact chance that each event row fires in the coming
  event phase, from what players can know (the risk meter), and
  :func:`bag_runs_out_within` — when the empty-bag ending (rule 14.2) arrives.
* :func:`what_if` — go back to a turn, take another decision, play both branches
  forward with bots on the same dice (common random numbers) and compare;
  :func:`alternatives` lists the options at that point, :class:`WhatIfWidget`
  wraps it for a notebook (import it from :mod:`energies.insight.widget`).
* :func:`burden` — who polluted and who paid for the pollution, the ordinary Catan losses
  (7s, theft, the Inspector) kept apart.
* :func:`self_undoing` — the moves a player took back in the same turn (demolish a fossil
  plant and rebuild one, trade a card away and back, ...): a check that a bot plays its
  plan sensibly.
* :func:`who_paid` — one game's pollution burden in three columns of percentages (the
  debrief's table).
* :func:`payoff_matrix` — the social dilemma: win rates of two personas as one
  replaces the other around the table.
* :func:`strong_players` — the same question for strong play: the cached table of the
  fossil-only and renewable-only search players (:func:`fossil_verdicts` sets them side
  by side, :func:`plot_strong_players` draws them).
* :func:`dilemma` — the dilemma measured and classified (social dilemma, volunteer's
  dilemma, chicken, no temptation, other, or undecided) with 95 % intervals;
  :func:`shipped_dilemma` reads the tables that ship with the package, :func:`dilemma_map`
  and :func:`plot_dilemma_map` show which rules make which game
  (:mod:`energies.insight.temptation`).

pandas, matplotlib and ipywidgets are imported only when a function needs them.
The maths is explained in ``docs/insight.md``.
"""

from __future__ import annotations

from .burden import burden, plot_burden, who_paid
from .payoff import payoff_matrix, plot_payoff
from .risk import bag_runs_out_within, event_risk, plot_event_risk, public_bag
from .strong import fossil_verdicts, plot_strong_players, strong_players
from .temptation import (
    DilemmaResult,
    dilemma,
    dilemma_map,
    dilemma_tables,
    plot_dilemma_map,
    policy_rules,
    shipped_dilemma,
)
from .undoing import SelfUndo, self_undoing
from .whatif import WhatIfResult, alternatives, branch_point, what_if

__all__ = [
    "DilemmaResult",
    "SelfUndo",
    "WhatIfResult",
    "WhatIfWidget",
    "alternatives",
    "bag_runs_out_within",
    "branch_point",
    "burden",
    "dilemma",
    "dilemma_map",
    "dilemma_tables",
    "event_risk",
    "fossil_verdicts",
    "payoff_matrix",
    "plot_burden",
    "plot_dilemma_map",
    "plot_event_risk",
    "plot_payoff",
    "plot_strong_players",
    "policy_rules",
    "public_bag",
    "self_undoing",
    "shipped_dilemma",
    "strong_players",
    "what_if",
    "who_paid",
]


def __getattr__(name: str):
    # the widget needs ipywidgets: imported only when asked for
    if name == "WhatIfWidget":
        from .widget import WhatIfWidget

        return WhatIfWidget
    raise AttributeError(f"module 'energies.insight' has no attribute {name!r}")
