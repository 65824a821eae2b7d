"""Per-turn records and the event log as tidy pandas DataFrames (pandas imported lazily)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def history_frame(records: Sequence[dict[str, Any]], names: Sequence[str] | None = None):
    """One row per seat per turn: turn, seat, name, lf, gf, vp, pieces, cards, hazards."""
    import pandas as pd

    frame = pd.DataFrame.from_records(list(records))
    if frame.empty:
        return frame
    if names is not None:
        frame.insert(2, "name", [names[s] for s in frame["seat"]])
    return frame


def events_frame(events: Sequence[dict[str, Any]]):
    """One row per event that fired: turn, active seat, event, disc colour, seats hit, effect."""
    import pandas as pd

    columns = ["turn", "active", "event", "color", "hit", "effect"]
    frame = pd.DataFrame.from_records(list(events), columns=columns)
    frame["hit"] = frame["hit"].apply(tuple)
    return frame
