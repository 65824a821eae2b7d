"""A class's games in one table: collect the save files of every group, chart them side by side.

``collect(source)`` reads save files (``app.save("group1.json")`` in the PlayApp,
``game.save(path)`` or ``energies play --save``) and returns a pandas DataFrame with
one row per game. Every file is loaded with :func:`energies.load_game`, which replays
the recorded actions and checks the digest, so an edited file never enters the table.
A file that cannot be used — not JSON, not a save file, a save of another game of the kit,
edited, too large, a folder, a name that names nothing, a copy of a game already in the
table (the same digest under another name) — is *skipped* and listed with its reason; ``collect`` never stops at a bad file. The skipped files are in
``frame.attrs["skipped"]``: a list of ``{"source": ..., "reason": ...}`` records (empty
when every file loaded); ``pandas.DataFrame(frame.attrs["skipped"])`` shows them as a table.
(Plain records rather than a DataFrame, so that ``pandas.concat`` of two rounds' frames
keeps working: pandas compares the ``attrs`` of the frames it joins.)

Lesson 07 plays the same seeds twice; :func:`compare_rounds` and :func:`pair_rounds`
(:mod:`~energies.classroom.rounds`) compare the two rounds table by table, with an interval.
Its second round deals role cards (:data:`ROLES`, :mod:`~energies.classroom.roles`), and
:func:`in_role` says which seats reached their goal in role.

A class played on the class server (:mod:`energies.server`) lives in one SQLite file,
:class:`~energies.classroom.database.ClassDatabase`; ``collect("class.sqlite")`` reads it
straight from there, also while the server keeps writing it (every game replayed and
checked, its moves against the digests the server recorded): every round, or one with
``round=``. Such a frame has a ``round`` column first and ``table`` and ``agreement`` (the
round was played after the written agreement) last, and ``group`` is ``table 1``, ``table 2``…

pandas and matplotlib are imported inside the functions.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..kit.text import chart_text, printable, readable
from ..viz.style import GROUP_COLORS
from .database import ClassDatabase, is_class_database
from .roles import ROLES, Role, in_role, roles_for
from .rounds import MEASURES, compare_rounds, describe_change, pair_rounds, plot_rounds

__all__ = [
    "COLUMNS",
    "DATABASE_COLUMNS",
    "MEASURES",
    "ROLES",
    "ClassDatabase",
    "Role",
    "collect",
    "compare_rounds",
    "describe_change",
    "in_role",
    "pair_rounds",
    "plot_class",
    "plot_rounds",
    "roles_for",
]

# The columns of collect()'s frame, in order; the per-seat columns follow the game's seats.
COLUMNS = (
    "group",
    "source",
    "seed",
    "players",
    "names",
    "outcome",
    "finished",
    "winners",
    "winner_names",
    "everyone_loses",
    "turns",
    "final_gf",
    "gf_by_turn",
    "mismatch",
    "pollution_mismatch",
)
#: What a class database adds at the end of each row (``round`` comes first, as with ``round=``).
DATABASE_COLUMNS = ("table", "agreement")
# each as <name>_<seat>, seat 0..3
SEAT_COLUMNS = ("fossil", "renewable", "vp", "lf", "cities", "burden", "pollution")
MAX_SEATS = 4
_LOOKS_LIKE_PATH = 4096  # a longer text (or one with a line break) is save text, not a path


def collect(source: Any, round: Any = None):
    """One row per saved game: outcome, winners, turns, final GF, plants and burden per seat.

    ``source`` is a folder (every entry in it, sorted by name; entries starting with
    ``.`` are ignored), one file path, one save text, or a list mixing paths
    (``str``/``Path``), save texts (``str``/``bytes``) and parsed save files (``dict``).
    A ``str`` is a path when it names an existing file or folder or ends in
    ``.json``; otherwise it is read as save text.

    ``round`` (optional, for example ``1`` or ``2``) is written into a ``round`` column of
    every row, so that two rounds' tables can be stacked and told apart.

    Columns: ``group`` (file name without ``.json``, or ``text 1``, ``text 2``… for
    texts), ``source``, ``seed`` (the game's seed: lesson 07 pairs the rounds by it),
    ``players``, ``names`` (comma-separated), ``outcome``
    (``victory_points``, ``empty_bag``, ``everyone_loses``, ``unfinished`` or
    ``in_progress`` for a game saved before its end), ``finished``, ``winners``
    (tuple of seats), ``winner_names``, ``everyone_loses``, ``turns``, ``final_gf``,
    ``gf_by_turn`` (tuple: the GF at the end of turn 0, 1, 2, …), ``pollution_mismatch``
    (how far the pollution harm missed the polluters, :func:`energies.insight.burden`),
    ``mismatch`` (the same for every loss and the footprint), and per seat ``fossil_<s>``,
    ``renewable_<s>``, ``vp_<s>``, ``lf_<s>``, ``cities_<s>`` (at the end, or when saved),
    ``pollution_<s>`` (the seat's pollution ratio: its share of the pollution harm / its share
    of the pollution caused) and ``burden_<s>`` (its share of every loss, Catan luck included,
    / its share of the footprint). Seats count from 0;
    a 3-player game has no value in the seat-3 columns.

    Files that cannot be used are listed in ``frame.attrs["skipped"]``, a list of
    ``{"source", "reason"}`` records in the order met. Raises ``TypeError`` only when ``source`` itself is
    neither a folder, a path, a text nor a list, and ``ValueError`` when ``round`` is
    neither a number nor a text.

    ``source`` may also be the path of a class database (the class server's SQLite file):
    every game of every round (only round ``round`` when given, a number), with ``round``,
    ``table`` and ``agreement`` columns.
    """
    if round is not None and (isinstance(round, bool) or not isinstance(round, (int, str))):
        raise ValueError(f"round must be a number or a short name (1, 2, 'silent'), not {round!r}.")
    if isinstance(source, (str, os.PathLike)) and _is_path(source) and is_class_database(source):
        return _collect_database(source, round)
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    first_of: dict[str, str] = {}  # digest -> the source that brought that game first
    for label, source_name, item in _items(source):
        try:
            game = _load(item)
            digest = game.to_dict()["digest"]  # rules, seed, seats, moves and position
            if digest in first_of:  # a copy (a renamed file, the same upload twice)
                skipped.append(
                    {
                        "source": source_name,
                        "reason": f"The same game as {first_of[digest]} (the same seats, seed "
                        "and moves): it is counted once.",
                    }
                )
                continue
            first_of[digest] = source_name
            rows.append(_row(game, label, source_name))
        except Exception as exc:  # noqa: BLE001 — a bad file is reported, never fatal
            skipped.append({"source": source_name, "reason": readable(_reason(exc))})
    frame = _frame(rows, skipped)
    if round is not None:
        frame.insert(0, "round", [round] * len(frame))
    return frame


def _frame(rows: list[dict[str, Any]], skipped: list[dict[str, str]], extra: tuple = ()):
    """collect()'s table of ``rows`` (``extra``: more columns at the end), with its types."""
    import pandas as pd

    columns = list(COLUMNS) + [f"{c}_{s}" for s in range(MAX_SEATS) for c in SEAT_COLUMNS]
    frame = pd.DataFrame.from_records(rows, columns=columns + list(extra))
    for seat in range(MAX_SEATS):
        for kind in ("fossil", "renewable", "vp", "lf", "cities"):
            frame[f"{kind}_{seat}"] = frame[f"{kind}_{seat}"].astype("Int64")
        for kind in ("burden", "pollution"):
            frame[f"{kind}_{seat}"] = frame[f"{kind}_{seat}"].astype(float)
    for name in ("seed", "players", "turns", "final_gf"):
        frame[name] = frame[name].astype(int)
    frame["everyone_loses"] = frame["everyone_loses"].astype(bool)
    frame["finished"] = frame["finished"].astype(bool)
    frame.attrs["skipped"] = skipped
    return frame


def _collect_database(path: str | os.PathLike, round: Any):
    """Every game of a class database (of round ``round``), replayed and checked."""
    from ..kit.saves import SaveFileError
    from ..newenergies.game import SAVE_FORMAT

    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    shown = _shown(Path(path))
    if round is not None and not isinstance(round, int):
        raise ValueError(f"A class database numbers its rounds 1, 2, ...; not {round!r}.")
    try:
        database = ClassDatabase.open_for_reading(path)
    except Exception as exc:  # noqa: BLE001 - an unreadable file is reported, never fatal
        skipped.append({"source": shown, "reason": readable(_reason(exc))})
        database = None
    if database is not None:
        with database:
            for record in database.games(round):
                source = f"{shown}: round {record.round}, table {record.number}"
                try:
                    game = database.replay(record)
                    if game.to_dict()["format"] != SAVE_FORMAT:  # a companion game's table
                        raise SaveFileError("collect() pools New Energies games only.")
                    row = _row(game, f"table {record.number}", source)
                except Exception as exc:  # noqa: BLE001 - a bad game is reported, never fatal
                    skipped.append({"source": source, "reason": readable(_reason(exc))})
                    continue
                row.update(round=record.round, table=record.number, agreement=record.agreement)
                rows.append(row)
    frame = _frame(rows, skipped, ("round", *DATABASE_COLUMNS))
    frame.insert(0, "round", frame.pop("round").astype(int))
    frame["table"] = frame["table"].astype(int)
    frame["agreement"] = frame["agreement"].astype(bool)
    return frame


def _items(source: Any) -> Iterable[tuple[str, str, Any]]:
    """(group label, source name, path-or-text) for every save in ``source``."""
    if isinstance(source, (str, os.PathLike)) and _is_path(source):
        path = Path(source)
        if path.is_dir():
            entries = sorted(p for p in path.iterdir() if not p.name.startswith("."))
            yield from ((_label(p), _shown(p), p) for p in entries)
            return
        yield _label(path), _shown(path), path
        return
    if isinstance(source, (str, bytes, bytearray, dict)):
        source = [source]
    if not isinstance(source, (list, tuple)):
        raise TypeError(
            "collect() takes a folder, a file path, a save text or a list of paths or texts, "
            f"not {type(source).__name__}."
        )
    texts = 0
    for item in source:
        if isinstance(item, os.PathLike) or (isinstance(item, str) and _is_path(item)):
            path = Path(item)
            yield _label(path), _shown(path), path
        else:
            texts += 1
            yield f"text {texts}", f"text {texts}", item


def _is_path(text: str | os.PathLike) -> bool:
    if isinstance(text, os.PathLike):
        return True
    return _looks_like_a_name(text) and (text.endswith(".json") or os.path.exists(text))


def _looks_like_a_name(text: str) -> bool:
    """A short one-line text that does not start like JSON: a path, or a mistyped one."""
    return (
        len(text) <= _LOOKS_LIKE_PATH
        and "\n" not in text
        and not text.lstrip().startswith(("{", "["))
    )


def _label(path: Path) -> str:
    return readable(path.name.removesuffix(".json"))


def _shown(path: Path) -> str:
    """The path as the table shows it: a name that is not UTF-8 (a Latin-1 name from a
    Windows zip) gets replacement characters, so charts and CSV files can hold it."""
    return readable(str(path))


def _load(item: Any):
    """A replayed, digest-checked Game; raises with a friendly message otherwise."""
    import json

    from ..kit.files import FileProblem, read_bounded
    from ..kit.saves import MAX_SAVE_BYTES, SaveFileError
    from ..newenergies.saves import load_game

    if isinstance(item, Path):
        try:  # one open: never a pipe or device, and a file that grows is not read whole
            item = read_bounded(item, MAX_SAVE_BYTES)
        except FileProblem as exc:  # "<path> is a pipe, ...": the table names the file already
            reason = str(exc).removeprefix(os.fspath(item))
            raise SaveFileError("It" + reason if reason != str(exc) else reason) from None
        except OSError as exc:
            raise SaveFileError(f"Cannot read it: {exc.strerror}.") from None
    elif isinstance(item, dict):
        item = json.dumps(item)
    elif not isinstance(item, (str, bytes, bytearray)):
        raise SaveFileError(f"A save must be a path or a text, not {type(item).__name__}.")
    try:
        return load_game(item)
    except SaveFileError as exc:
        raise SaveFileError(_why_not_a_save(item, exc)) from None


def _why_not_a_save(item: str | bytes | bytearray, exc: Exception) -> str:
    """The loader's reason, or a truer one: a mistyped path, or another game's save file."""
    from ..kit.registry import get, names
    from ..kit.saves import SaveFileError, parse_save
    from ..newenergies.game import SAVE_FORMAT

    try:
        data = parse_save(item)
    except SaveFileError:
        if isinstance(item, str) and _looks_like_a_name(item):  # a path that names nothing
            name = printable(repr(item))  # whole: at most _LOOKS_LIKE_PATH characters
            return f"No file or folder is named {name}, and it is not save text (not valid JSON)."
        return str(exc)
    kind = data.get("format") if isinstance(data, dict) else None
    for name in names():
        spec = get(name)
        if kind != SAVE_FORMAT and spec.save_format == kind:  # another game's save file
            return f"It is a save of {spec.title}: collect() pools New Energies games only."
    return str(exc)


def _reason(exc: BaseException) -> str:
    from ..kit.saves import SaveFileError

    if isinstance(exc, SaveFileError):
        return str(exc)
    return f"It could not be read as a save file ({type(exc).__name__}: {exc})."


def _row(game, label: str, source_name: str) -> dict[str, Any]:
    from ..insight import burden

    outcome = game.outcome
    kind = outcome.kind if outcome else "in_progress"
    winners = tuple(outcome.winners) if outcome else ()
    gf_at: dict[int, int] = {}
    for record in game.history:
        gf_at[int(record["turn"])] = int(record["gf"])  # the last record of a turn wins
    gf_at[game.turn] = int(game.global_footprint)
    row: dict[str, Any] = {
        "group": label,
        "source": source_name,
        "seed": int(game.seed),
        "players": game.rules.players,
        "names": ", ".join(game.names),
        "outcome": kind,
        "finished": outcome is not None and kind != "unfinished",
        "winners": winners,
        "winner_names": ", ".join(game.names[s] for s in winners),
        "everyone_loses": kind == "everyone_loses",
        "turns": game.turn,
        "final_gf": int(game.global_footprint),
        "gf_by_turn": tuple(gf_at[t] for t in sorted(gf_at)),
    }
    try:
        table = burden(game)
        seats = table["seat"].astype(int)
        ratios = dict(zip(seats, table["burden_ratio"]))
        pollution = dict(zip(seats, table["pollution_ratio"]))
        row["mismatch"] = float(table.attrs["mismatch"])
        row["pollution_mismatch"] = float(table.attrs["pollution_mismatch"])
    except ValueError:  # no turn played yet: nothing to compare
        ratios, pollution = {}, {}
        row["mismatch"] = row["pollution_mismatch"] = math.nan
    for seat in game.snapshot()["seats"]:
        s = seat["seat"]
        row[f"fossil_{s}"] = seat["fossil"]
        row[f"renewable_{s}"] = seat["renewable"]
        row[f"vp_{s}"] = seat["vp"]
        row[f"lf_{s}"] = seat["lf"]
        row[f"cities_{s}"] = len(seat["cities"])
        row[f"burden_{s}"] = float(ratios.get(s, math.nan))
        row[f"pollution_{s}"] = float(pollution.get(s, math.nan))
    return row


def plot_class(frame, ax=None):
    """Every group's GF over the turns, and how each game ended, side by side; return the Axes.

    ``frame`` is :func:`collect`'s result. Each game is one line of GF per turn, in its
    group's colour, ending in a dot coloured by the outcome; with a ``round`` column
    each round has its own line style and the round is added to the labels. With ``ax=None`` a figure with two panels is made and
    the GF Axes is returned; the outcome panel (one bar per group: its length the
    turns played, its colour the outcome, its text the winners) is
    ``ax.figure.axes[1]``. With a given ``ax`` only the GF lines are drawn into it.
    """
    if not hasattr(frame, "columns"):  # None or a list raised AttributeError
        raise ValueError(f"plot_class needs collect()'s frame, not {type(frame).__name__}.")
    missing = {"group", "outcome", "gf_by_turn", "turns"} - set(frame.columns)
    if missing:
        raise ValueError(f"plot_class needs collect()'s frame (missing {sorted(missing)}).")
    if frame.empty:
        raise ValueError("plot_class needs at least one game (the frame has no rows).")
    from ..viz.style import OUTCOME_COLORS, OUTCOME_LABELS

    panel = None
    if ax is None:
        import matplotlib.pyplot as plt

        height = max(3.5, 0.45 * len(frame) + 1.5)
        _fig, (ax, panel) = plt.subplots(
            1, 2, figsize=(12, height), layout="constrained", width_ratios=(3, 2)
        )
    labels = _group_labels(frame)
    # one colour per group, one line style per round: a group's two rounds share a colour
    groups = list(dict.fromkeys(frame["group"]))
    rounds = list(dict.fromkeys(frame["round"])) if "round" in frame.columns else [None]
    styles = ("-", "--", ":", "-.")
    for label, row in zip(labels, frame.to_dict("records")):
        gf = list(row["gf_by_turn"])
        color = GROUP_COLORS[groups.index(row["group"]) % len(GROUP_COLORS)]
        style = styles[rounds.index(row.get("round")) % len(styles)]
        ax.plot(range(len(gf)), gf, color=color, linestyle=style, linewidth=2, label=label)
        ax.plot(
            [len(gf) - 1],
            [gf[-1]],
            "o",
            markersize=8,
            color=OUTCOME_COLORS.get(row["outcome"], "#999999"),
            markeredgecolor="black",
        )
    ax.set_xlabel("turn")
    ax.set_ylabel("global footprint (GF)")
    ax.set_title("GF over the game, one line per group (dot: how it ended)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    if panel is not None:
        ys = range(len(frame))
        kinds = frame["outcome"].tolist()
        panel.barh(
            ys,
            frame["turns"],
            color=[OUTCOME_COLORS.get(k, "#999999") for k in kinds],
            edgecolor="white",
        )
        for y, row in zip(ys, frame.to_dict("records")):
            text = OUTCOME_LABELS.get(row["outcome"], row["outcome"].replace("_", " "))
            if row["winner_names"]:
                text += f": {row['winner_names']}"
            panel.text(row["turns"] + 0.5, y, chart_text(text), va="center", fontsize=9)
        panel.set_yticks(list(ys), labels)
        panel.invert_yaxis()
        panel.set_xlim(0, float(frame["turns"].max()) * 1.9 + 1)
        panel.set_xlabel("turns played")
        panel.set_title("How each game ended")
    return ax


def _group_labels(frame) -> list[str]:
    if "round" in frame.columns:
        labels = [f"round {r}: {g}" for r, g in zip(frame["round"], frame["group"])]
    else:
        labels = [str(g) for g in frame["group"]]
    return [chart_text(label) for label in labels]  # a "$" in a group name is not maths
