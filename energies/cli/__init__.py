"""The ``energies`` command: simulate many games, play or replay one, print the rules.

    energies simulate --games 1000 --bots fossil,green,balanced,random --jobs 2 --seed 1 \
        --out results.csv
    energies play --bots random,random,random,random --seed 7 --save game.json
    energies replay game.json
    energies rules --players 3
    energies rules --game shelfie
    energies simulate --game shelfie --bots ev,greedy,random --games 200
    energies play --game noclear --bots engineer,random --seed 3
    energies serve class.sqlite --tables 6 --seats student,student,student,green --host 0.0.0.0

Bad arguments print one line, ``energies: error: ...``, on stderr and exit with status 2;
output that cannot be written (stdout on a full disk) prints such a line and exits with 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence

from ..kit import registry
from ..kit.contract import RELEASE
from ..kit.text import printable
from .arguments import (
    Parser,
    UsageError,
    check_players,
    file_name,
    games_count,
    jobs_count,
    language_code,
    lineup,
    seat_plan,
    seconds,
    seed_number,
    table_file_name,
    whole_number,
)

PROG = "energies"


# -- the parser -----------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Rules engine and teaching kit for CATAN: New Energies (unofficial).",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {RELEASE}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    sim = sub.add_parser("simulate", help="play many seeded bot games and write one row per game")
    sim.add_argument(
        "--games",
        type=games_count,
        default=100,
        help="number of games (default 100, at most 1,000,000)",
    )
    _game_options(sim)
    sim.add_argument(
        "--jobs", type=jobs_count, default=1, help="worker processes (default 1, at most the CPUs)"
    )
    sim.add_argument("--seed", type=seed_number, default=0, help="seed of the run (default 0)")
    sim.add_argument(
        "--out", type=table_file_name, help="write the games to this .csv (or .parquet) file"
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")

    play = sub.add_parser("play", help="play one bot game and print its turn log")
    _game_options(play)
    play.add_argument("--seed", type=seed_number, default=0, help="game seed (default 0)")
    play.add_argument("--save", type=file_name, help="save the game to this JSON file")
    play.add_argument("--quiet", action="store_true", help="print only the outcome")

    replay = sub.add_parser("replay", help="load a saved game, replay it and verify its digest")
    replay.add_argument("file", help="a save file written by 'energies play --save' or Game.save")
    replay.add_argument("--log", action="store_true", help="also print the turn log")

    serve = sub.add_parser(
        "serve", help="run a class server: every student plays on their own device"
    )
    serve.add_argument(
        "database",
        nargs="?",
        default="class.sqlite",
        type=file_name,
        help="the class's SQLite file: made when missing, resumed when it exists "
        "(default class.sqlite)",
    )
    serve.add_argument(
        "--tables", type=whole_number(1, 60), help="a new class's tables (default 6)"
    )
    serve.add_argument(
        "--seats",
        type=seat_plan,
        help="a new class's seats in order: 'student' or a bot's name, e.g. "
        "student,student,student,green (default: 4 students)",
    )
    serve.add_argument(
        "--rules",
        choices=("classroom", "standard"),
        help="a new class's rules: the short classroom preset (default) or the standard game",
    )
    serve.add_argument("--seed", type=seed_number, help="table k plays seed SEED + k")
    serve.add_argument(
        "--bot-delay",
        type=seconds(0, 60),
        help="seconds a bot waits before each move, so students can follow (default 1)",
    )
    serve.add_argument(
        "--fill-bot", help="the bot that takes a seat no student took (default balanced)"
    )
    serve.add_argument("--name", help="the class's name on the pages (default Class)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0: the class's network)",
    )
    serve.add_argument("--port", type=whole_number(0, 65535), default=8765, help="default 8765")
    serve.add_argument(
        "--public-url",
        help="the address students type, when it is not this machine's (a proxy, JupyterHub)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        help="another web origin whose pages may connect (repeatable)",
    )
    serve.add_argument(
        "--prefix",
        default="",
        help="the path a proxy passes on unchanged, e.g. /services/energies on a JupyterHub",
    )
    serve.add_argument(
        "--lang",
        type=language_code,
        help="the class's language: en, de, zh-Hant or be (default: each browser's own, "
        "else English; a join link's ?lang=xx gives one student's page another)",
    )
    serve.add_argument(
        "--hub-login",
        action="store_true",
        help="only a JupyterHub's users come in (run as a hub service: docs/server.md)",
    )

    rules = sub.add_parser("rules", help="print the standard rule set ([H] marks house defaults)")
    _game_option(rules)
    rules.add_argument(
        "--players", type=whole_number(1, 99), help="player count (default: the game's usual)"
    )
    return parser


def _game_option(parser: argparse.ArgumentParser) -> None:
    """--game: one of the registered games."""
    parser.add_argument(
        "--game",
        default=registry.DEFAULT_GAME,
        choices=registry.names(),
        help=f"which game (default {registry.DEFAULT_GAME})",
    )


def _game_options(parser: argparse.ArgumentParser) -> None:
    """--game, --bots and --players, shared by simulate and play."""
    _game_option(parser)
    parser.add_argument(
        "--bots", help="comma-separated bot names, one per seat (default: random in every seat)"
    )
    parser.add_argument(
        "--players", type=whole_number(1, 99), help="player count (checks --bots; fills one name)"
    )


# -- commands -------------------------------------------------------------------------------------


def _check_out(path: str) -> None:
    """Refuse an output path that cannot be written, before any game runs."""
    from ..kit.files import output_problem

    problem = output_problem(path)
    if problem:
        raise UsageError(f"cannot write {path}: {problem}")
    if path.lower().endswith(".parquet") and importlib.util.find_spec("pyarrow") is None:
        raise UsageError(
            "writing .parquet needs pyarrow (pip install pyarrow); or write a .csv file"
        )


def _write(frame, path: str) -> None:
    """Write the frame atomically: a failed write leaves any earlier file as it was."""
    from ..kit.files import atomic_write

    out = frame.copy()
    if path.lower().endswith(".parquet"):
        out["winners"] = out["winners"].map(list)
        atomic_write(path, lambda temp: out.to_parquet(temp, index=False))
    else:
        out["winners"] = out["winners"].map(lambda w: ";".join(str(s) for s in w))
        atomic_write(path, lambda temp: out.to_csv(temp, index=False))


def _write_or_explain(path: str, write) -> None:
    """Run ``write()``; a failure becomes a UsageError that names ``path`` once."""
    from ..kit.files import FileProblem

    try:
        write()
    except FileProblem as exc:  # its message already says "Cannot write <path>: ..."
        raise UsageError(str(exc)) from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UsageError(f"cannot write {path}: {reason}") from None


def _capped_jobs(jobs: int, games: int) -> int:
    """--jobs, at most one worker per CPU (and per game), with a note when capped."""
    cpus = os.cpu_count() or 1
    if jobs > cpus:
        print(
            f"{PROG}: note: --jobs {jobs} is more than the {cpus} CPUs here; using {cpus}",
            file=sys.stderr,
        )
        jobs = cpus
    return max(1, min(jobs, games))


def summary(frame) -> str:
    """Outcome shares, win rate per bot name and mean turns of a simulate() frame, as text."""
    import pandas as pd

    games = len(frame)
    lines = [
        f"{games} games, {frame['players'].iloc[0]} players, mean turns {frame['turns'].mean():.1f}"
    ]
    counts = frame["outcome"].value_counts()
    outcomes = pd.DataFrame({"games": counts, "share": (counts / games).map("{:.1%}".format)})
    outcomes.index.name = "outcome"
    lines += ["", outcomes.to_string()]

    seats = [c for c in frame.columns if c.startswith("bot_")]
    rows = {}
    for game_winners, names in zip(frame["winners"], frame[seats].itertuples(index=False)):
        for seat, name in enumerate(names):
            entry = rows.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += seat in game_winners
    table = pd.DataFrame(
        {
            "seats": {n: s for n, (s, _) in rows.items()},
            "wins": {n: w for n, (_, w) in rows.items()},
        }
    )
    table["win_rate"] = (table["wins"] / table["seats"]).map("{:.1%}".format)
    table.index.name = "bot"
    lines += ["", table.sort_index().to_string()]
    return "\n".join(lines)


def _cmd_simulate(args) -> int:
    from ..runner.batch import simulate

    names = lineup(args.bots, args.players, args.game)
    missing = [m for m in ("numpy", "pandas") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"simulate needs {' and '.join(missing)} (pip install pandas)")
    if args.out:
        _check_out(args.out)
    jobs = _capped_jobs(args.jobs, args.games)
    frame = simulate(
        args.games, names, seed=args.seed, jobs=jobs, progress=not args.no_progress, game=args.game
    )
    if args.out:
        _write_or_explain(args.out, lambda: _write(frame, args.out))
    print(summary(frame))
    if args.out:
        print(f"\nwrote {len(frame)} games to {printable(args.out)}")
    return 0


def _outcome_lines(game) -> list[str]:
    outcome = game.outcome
    lines = [f"Outcome ({outcome.kind}, turn {outcome.turn}): {outcome.reason}"]
    if hasattr(game, "summary_row"):  # a companion game: its own per-seat numbers
        row = game.summary_row()
        for seat in range(game.rules.players):
            mark = " *winner*" if seat in outcome.winners else ""
            cells = ", ".join(
                f"{k[: -len(str(seat)) - 1]} {v}" for k, v in row.items() if k.endswith(f"_{seat}")
            )
            lines.append(f"  {game.names[seat]}: {cells}{mark}")
        return lines + [f"  {len(game.actions)} actions"]
    for seat in range(game.rules.players):
        p = game.state.players[seat]
        mark = " *winner*" if seat in outcome.winners else ""
        fossil, renewable = p.count_plants("fossil"), p.count_plants("renewable")
        lines.append(
            f"  {game.names[seat]}: {game.victory_points(seat)} VP, "
            f"LF {game.local_footprint(seat)}, "
            f"{fossil} fossil / {renewable} renewable plants{mark}"
        )
    lines.append(f"  GF {game.global_footprint}, {len(game.actions)} actions")
    return lines


def _cmd_play(args) -> int:
    from ..runner.batch import play_one

    names = lineup(args.bots, args.players, args.game)
    if args.save:
        _check_out(args.save)
    game = play_one(names, args.seed, game=args.game)
    if not args.quiet:
        print(
            f"Game seed {args.seed}: " + ", ".join(f"seat {s} = {n}" for s, n in enumerate(names))
        )
        for line in game.log:
            print(line)
        print()
    for line in _outcome_lines(game):
        print(line)
    if args.save:
        _write_or_explain(args.save, lambda: game.save(args.save))
        print(f"saved to {printable(args.save)}")
    return 0


def _cmd_replay(args) -> int:
    from ..kit.files import FileProblem, read_bounded
    from ..kit.saves import MAX_SAVE_BYTES, SaveFileError

    try:
        # a regular file of bounded size, opened without waiting (devices, pipes refused)
        data = read_bounded(args.file, MAX_SAVE_BYTES)
        game = registry.load_game(data)  # any game of the kit, by the file's format
    except FileProblem as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{args.file}: Cannot read {args.file}: {exc.strerror or exc}.") from None
    except SaveFileError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    print(
        f"Game seed {game.seed}, {game.rules.players} players, "
        f"{len(game.actions)} actions replayed, turn {game.turn}"
    )
    if args.log:
        for line in game.log:
            print(line)
    if game.outcome is not None:
        for line in _outcome_lines(game):
            print(line)
    else:
        print(
            f"Not finished: seat {game.current_seat} to act ({getattr(game, 'pending', None) or 'free choice'})"
        )
    print("digest verified")
    return 0


def _cmd_serve(args) -> int:
    from ..server.running import missing_packages

    missing = missing_packages()
    if missing:
        raise UsageError(
            f"the class server needs {', '.join(missing)}: pip install 'energies[server]'"
        )
    from ..server import Refusal
    from ..server.running import open_or_create, run_forever

    hub_login = None
    if args.hub_login:
        from ..server.hublogin import HubLogin, HubLoginError

        try:
            hub_login = HubLogin(os.environ)
        except HubLoginError as exc:
            raise UsageError(str(exc)) from None
    seats = args.seats
    try:
        open_or_create(
            args.database,
            tables=args.tables,
            players=len(seats) if seats else None,
            bots={s: bot for s, bot in enumerate(seats) if bot != "student"} if seats else None,
            rules=args.rules,
            seed=args.seed,
            bot_delay=args.bot_delay,
            fill_bot=args.fill_bot,
            name=args.name,
        )
    except Refusal as exc:
        raise UsageError(exc.reason) from None
    except ValueError as exc:  # a file that is no class database
        raise UsageError(str(exc)) from None
    try:
        run_forever(
            args.database,
            host=args.host,
            port=args.port,
            public_url=args.public_url,
            allow_origins=tuple(args.allow_origin),
            prefix=args.prefix,
            hub_login=hub_login,
            lang=args.lang,
        )
    except OSError as exc:
        raise UsageError(
            f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
        ) from None
    return 0


def _cmd_rules(args) -> int:
    spec = registry.get(args.game)
    check_players(spec, args.players)
    rules = spec.rules_class(players=args.players or spec.default_players)
    print(rules.describe())
    print(
        "\n[H] = house default: our reading where the printed rules leave a choice (see the rule)."
    )
    return 0


COMMANDS = {
    "simulate": _cmd_simulate,
    "play": _cmd_play,
    "replay": _cmd_replay,
    "rules": _cmd_rules,
    "serve": _cmd_serve,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad arguments, 1 a failed write)."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help / --version
            return exc.code if isinstance(exc.code, int) else 0
        if args.command is None:
            raise UsageError(f"choose a command: {', '.join(COMMANDS)} (see 'energies --help')")
        status = COMMANDS[args.command](args)
        if sys.stdout is not None:  # None when started with stdout closed
            sys.stdout.flush()  # a write error is reported below, not at the interpreter's exit
        return status
    except UsageError as exc:
        # always one line, and safe on a terminal (a file name may hold escape codes)
        message = printable(" ".join(str(exc).split()))
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{PROG}: error: out of memory (ask for fewer games)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `energies play | head`
        _drop_stdout()
        return 0
    except OSError as exc:  # e.g. stdout on a full disk (/dev/full), or no processes left
        print(f"{PROG}: error: {printable(exc.strerror or exc)}", file=sys.stderr)
        _drop_stdout()
        return 1


def _drop_stdout() -> None:
    """Point stdout at devnull, so the interpreter's final flush does not fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
