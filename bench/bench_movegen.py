"""Legal-move generation rate on every position of the 79 real matches, beside GNU Backgammon.

Prints figures; asserts nothing about speed. Run: ``python bench/bench_movegen.py`` (the test
extras install gnubg; without it only our figures are printed).

Measured, in one run on the same (position, roll) pairs:
* ``tavla movegen.generate``: the generator alone (distinct resulting boards).
* ``tavla legal_moves``: the core API the service calls (Move values, results not yet flipped).
* ``tavla_accel.generate`` (when the extension is installed): the compiled generator the server
  puts behind ``movegen.generate``, the same answer as Python objects.
* ``gnubg find_best_moves``: GNU Backgammon's move generation plus its 0-ply ordering, the
  nearest call its Python binding offers.
Then the slowest (position, roll) pairs for us.
"""

from __future__ import annotations

import argparse
import glob
import os
import time

from tavla.core import legal_moves
from tavla.core.ids import position_id
from tavla.core.rules.movegen import generate
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import read_match

HERE = os.path.dirname(os.path.abspath(__file__))
MATCHES = os.path.join(HERE, "..", "tests", "data", "matches", "*.mat")


def match_pairs(limit=None):
    """Every (position, roll) of the real matches, in file order (the first ``limit`` files)."""
    pairs = []
    engine = LocalEngine()
    for path in sorted(glob.glob(MATCHES))[:limit]:
        replay(read_match(path), engine, on_roll=lambda pos, dice: pairs.append((pos, dice)))
    return pairs


def best_time(fn, items, repeat, clock=time.perf_counter):
    """The shortest of ``repeat`` runs of ``fn`` over ``items``, in seconds of ``clock``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        for item in items:
            fn(item)
        best = min(best, clock() - t0)
    return best


def rate(fn, items, repeat):
    best = best_time(fn, items, repeat)
    return len(items) / best, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept")
    args = parser.parse_args()

    pairs = match_pairs()
    print(f"positions: {len(pairs)} (position, roll) pairs from {len(glob.glob(MATCHES))} matches")
    boards = [(p.board, d) for p, d in pairs]

    ours, t_ours = rate(lambda bd: generate(bd[0], *bd[1]), boards, args.repeat)
    api, _ = rate(lambda pd: legal_moves(pd[0], pd[1]), pairs, args.repeat)
    print(f"tavla movegen.generate   {ours:10,.0f} positions/s  ({t_ours:.3f} s)")
    print(f"tavla legal_moves        {api:10,.0f} positions/s")
    try:
        import tavla_accel
    except ImportError:
        tavla_accel = None
    if hasattr(tavla_accel, "generate"):  # the compiled generator the server installs
        from tavla.core.rules.movegen import CheckerMove

        tavla_accel.set_checker_move(CheckerMove)
        compiled, t_compiled = rate(lambda bd: tavla_accel.generate(bd[0], *bd[1]), boards, args.repeat)
        print(f"tavla_accel.generate     {compiled:10,.0f} positions/s  ({t_compiled:.3f} s; the same "
              "objects, compiled)")
    try:
        import gnubg
    except ImportError:
        print("gnubg not installed: pip install '.[test]' for the comparison")
    else:
        import sys

        sys.path.insert(0, os.path.join(HERE, "..", "tests", "support"))
        from oracle_gnubg import _CUBE, _EVAL, to_gnubg

        gboards = [(to_gnubg(b), d) for b, d in boards]
        theirs, t_theirs = rate(lambda gd: gnubg.find_best_moves(gd[0], _CUBE, _EVAL, gd[1]), gboards,
                                args.repeat)
        print(f"gnubg find_best_moves    {theirs:10,.0f} positions/s  ({t_theirs:.3f} s)")
        print(f"ratio tavla/gnubg        {ours / theirs:10.2f}")

    timed = []
    for pos, dice in pairs:
        t0 = time.perf_counter()
        for _ in range(5):
            _, results = generate(pos.board, *dice)
        timed.append(((time.perf_counter() - t0) / 5, pos, dice, len(results)))
    timed.sort(key=lambda x: -x[0])
    print("slowest (position, roll) pairs:")
    for secs, pos, dice, n in timed[:5]:
        print(f"  {secs * 1e6:8.0f} us  {position_id.encode(pos)} {pos.on_roll.name.lower()} "
              f"{dice[0]}-{dice[1]}: {n} moves")


if __name__ == "__main__":
    main()
