"""Move generation per variant on backgammon's board: backgammon, portes, nackgammon,
hypergammon, on (position, roll) pairs of random games of each from its own start.

Prints figures; asserts nothing about speed. Run: ``PYTHONPATH=service:tests/support python
bench/bench_board_variants.py [--pairs N]``.

Per variant: the pure-Python generator (``movegen.generate_python``), the compiled one
(``tavla_accel.generate``, when installed; the server puts it behind ``movegen.generate`` for all
four), the core's ``legal_moves`` with the wire encoding of a ListLegalMovesResponse (the
Python path hypergammon's answers take: the compiled whole-call answer counts 15 checkers), and
the slowest pair of the pure generator.
"""

from __future__ import annotations

import argparse
import time

from games import random_game_pairs
from tavla.core import Position, Side, find_variant, legal_moves
from tavla.core.rules.movegen import generate_python
from tavla.server.convert.common import moves_to_wire

from tavla.server.api.generator import MoveGenerator

GENERATOR = MoveGenerator.from_env()
GENERATOR.install()  # the extension behind movegen.generate (set_checker_move), as the server's engine does
tavla_accel = GENERATOR.ext  # None: the figures of the pure path only

VARIANTS = ("backgammon", "portes", "nackgammon", "hypergammon")


def _rate(fn, pairs) -> float:
    start = time.perf_counter()
    for board, (d1, d2) in pairs:
        fn(board, d1, d2)
    return len(pairs) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=5000)
    args = parser.parse_args()
    print(f"{'variant':12} {'pure /s':>10} {'compiled /s':>12} {'legal_moves+wire /s':>20} {'worst pure ms':>14}")
    for name in VARIANTS:
        variant = find_variant(name)
        pairs = random_game_pairs(1, args.pairs, variant)
        pure = _rate(lambda b, x, y: generate_python(b, x, y, variant), pairs)
        compiled = _rate(tavla_accel.generate, pairs) if tavla_accel is not None else float("nan")

        def answer(b, x, y):
            moves_to_wire(legal_moves(Position(b, Side.WHITE, variant), (x, y)))

        rpc = _rate(answer, pairs)
        worst = 0.0
        for board, (d1, d2) in pairs:
            t = time.perf_counter()
            generate_python(board, d1, d2, variant)
            worst = max(worst, time.perf_counter() - t)
        print(f"{name:12} {pure:10.0f} {compiled:12.0f} {rpc:20.0f} {worst * 1000:14.2f}")


if __name__ == "__main__":
    main()
