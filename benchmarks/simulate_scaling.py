"""simulate() scaling: games/s with jobs=1 and jobs=2 and the speed-up (a report, not a test).

    python benchmarks/simulate_scaling.py --games 200 --bots random,random,random,random

Both runs play the same seeded games (the frames are checked to be equal), so the
difference is the process pool's gain minus its start-up and transfer cost. The CPU
column (this process plus the workers) tells overhead apart from a busy machine: equal
CPU but a slower wall clock means the cores were not free.
"""

from __future__ import annotations

import argparse
import os
import time

import pandas.testing as pdt

from energies.runner.batch import chunk_size, simulate


def _cpu_seconds() -> float:
    """CPU time of this process plus its finished children (the pool's workers)."""
    try:
        import resource
    except ImportError:  # Windows
        return time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(games: int, bots: list[str], seed: int, jobs: int):
    start, cpu = time.perf_counter(), _cpu_seconds()
    frame = simulate(games, bots, seed=seed, jobs=jobs, progress=False)
    return frame, time.perf_counter() - start, _cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default="random,random,random,random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="job counts to time")
    args = parser.parse_args()
    bots = [b.strip() for b in args.bots.split(",")]

    print(f"{args.games} games, bots {','.join(bots)}, seed {args.seed}, {os.cpu_count()} CPUs")
    base_frame = base_seconds = None
    for jobs in args.jobs:
        frame, seconds, cpu = timed(args.games, bots, args.seed, jobs)
        if base_frame is None:
            base_frame, base_seconds = frame, seconds
        else:
            pdt.assert_frame_equal(base_frame, frame)  # same games whatever the job count
        chunk = "" if jobs == 1 else f", chunks of {chunk_size(args.games, jobs)}"
        print(
            f"jobs={jobs}: {seconds:6.2f} s  {args.games / seconds:7.1f} games/s  "
            f"speed-up x{base_seconds / seconds:.2f}  (CPU {cpu:.2f} s{chunk})"
        )


if __name__ == "__main__":
    main()
