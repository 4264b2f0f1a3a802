"""Benchmark of the one-sided bear-off database. Prints figures; asserts nothing.

    PYTHONPATH=service python bench/bench_bearoff.py [--lookups 200000] [--seed 1]

Reports: build time (no tracing), peak traced allocation of a second build (tracemalloc) and
the process's peak RSS growth, bytes held by the arrays, size of the cache file and the time to
load it, and the mean time per look-up over random positions for the database calls and for the
frontend functions of :mod:`tavla.core.rules.bearoff`. The cache is written to a temporary directory.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from tavla.core import Position, Side, SideView
from tavla.core.rules import bearoff_db as bdb
from tavla.core.rules.bearoff import bear_off_info, best_bear_off_move, race_odds


def _rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _per_call(fn, args, repeat: int = 1) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        for a in args:
            fn(a)
    return (time.perf_counter() - t0) / (len(args) * repeat)


def _position(a: tuple[int, ...], b: tuple[int, ...]) -> Position:
    def view(c):
        pts = tuple(c) + (0,) * 18
        return SideView(pts, 0, 15 - sum(c))

    return Position.from_sides(Side.WHITE, view(a), view(b))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lookups", type=int, default=200_000, help="random database look-ups")
    ap.add_argument("--frontend", type=int, default=5_000, help="calls of each frontend function")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, {os.cpu_count()} CPUs")

    gc.collect()
    rss0 = _rss_mb()
    t0 = time.perf_counter()
    db = bdb.build()
    t_build = time.perf_counter() - t0
    rss1 = _rss_mb()
    print(f"build:            {t_build:8.2f} s  ({bdb.N_POSITIONS} positions, two tables)")
    print(f"peak RSS growth:  {rss1 - rss0:8.1f} MB  (process peak {rss1:.1f} MB)")

    tracemalloc.start()
    bdb.build()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"tracemalloc peak: {peak / 2**20:8.1f} MB  (during a build, tracing on)")
    print(f"arrays in memory: {db.nbytes / 2**20:8.2f} MB")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bearoff.bin"
        t0 = time.perf_counter()
        bdb.save(db, path)
        t_save = time.perf_counter() - t0
        size = path.stat().st_size
        t0 = time.perf_counter()
        bdb.load(path)
        t_load = time.perf_counter() - t0
    print(f"cache file:       {size / 2**20:8.2f} MB  (save {t_save * 1e3:.0f} ms, "
          f"load + SHA-256 check {t_load * 1e3:.0f} ms)")

    rng = random.Random(args.seed)
    idx = [rng.randrange(bdb.N_POSITIONS) for _ in range(args.lookups)]
    counts = [bdb.position_counts(i) for i in idx]
    print(f"look-ups over {args.lookups} random positions (mean per call):")
    for name, fn, data in (
        ("position_index(counts)", bdb.position_index, counts),
        ("mean_rolls(index)", db.mean_rolls, idx),
        ("epc(index)", db.epc, idx),
        ("distribution(index)", db.distribution, idx),
        ("first_off_distribution(index)", db.first_off_distribution, idx),
        ("survival(index)", db.survival, idx),
        ("position_counts(index)", bdb.position_counts, idx[: args.lookups // 10]),
    ):
        print(f"  {name:32s} {_per_call(fn, data) * 1e6:8.2f} us")

    bdb._db = db  # the frontend functions use the shared instance
    n = args.frontend
    positions = [_position(counts[i], counts[-1 - i]) for i in range(n)]
    dice = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(n)]
    print(f"frontend calls over {n} random all-home positions (mean per call):")
    print(f"  {'bear_off_info(position, side)':32s} "
          f"{_per_call(lambda p: bear_off_info(p, Side.WHITE), positions) * 1e6:8.2f} us")
    print(f"  {'race_odds(position)':32s} {_per_call(race_odds, positions) * 1e6:8.2f} us")
    pairs = list(zip(positions, dice))
    print(f"  {'best_bear_off_move(pos, dice)':32s} "
          f"{_per_call(lambda pd: best_bear_off_move(*pd), pairs) * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
