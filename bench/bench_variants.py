"""The pure-Python generator's rate per variant, beside backgammon's, and each variant's slowest
(position, roll) pair (the goal is under 20 ms for the worst pair).

Prints figures; asserts nothing. Run: ``python bench/bench_variants.py [--positions N]``.

Positions: seeded random self-play of each variant (uniform random legal moves), plus, for the
worst-pair search, random legal placements (checkers scattered over the board, the most
branching), each with all 21 rolls. The rate is (position, roll) pairs per second through
``movegen.generate_python`` (the pure path: the variants have no compiled generator; backgammon's
is measured on the same pure path for comparison). Each pair's time is the best of ``--repeat``
runs.
"""

from __future__ import annotations

import argparse
import random
import time

from tavla.core import InvalidInputError, Position, Side, SideView, find_variant
from tavla.core.rules.movegen import generate_python
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.variant import Direction

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
VARIANTS = ("backgammon", "portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy")
GOAL_MS = 20.0


def self_play(name: str, seed: int, count: int) -> list[Position]:
    variant = find_variant(name)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.initial(rng.choice([Side.WHITE, Side.BLACK]), variant)
        while len(out) < count and pos.winner is None and not pos.drawn:
            out.append(pos)
            pos = rng.choice(legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))).result
    return out


def scattered(name: str, seed: int, count: int) -> list[Position]:
    """Random legal placements of a barless variant: each checker on a random point (its side's
    home more often, so bear-offs are met too); clashing points are dropped."""
    variant = find_variant(name)
    if variant.bar:
        return []
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        w, b = [0] * 24, [0] * 24
        for counts in (w, b):
            for _ in range(15):
                counts[rng.randrange(24) if rng.random() < 0.7 else rng.randrange(6)] += 1
        for p in range(1, 25):
            q = 25 - p if variant.direction is Direction.OPPOSITE else (p + 12 if p <= 12 else p - 12)
            if w[p - 1] and b[q - 1]:
                b[q - 1] = 0
        try:
            out.append(Position.from_sides(Side.WHITE, SideView(tuple(w), 0, 15 - sum(w)),
                                           SideView(tuple(b), 0, 15 - sum(b)), variant))
        except InvalidInputError:
            continue
    return out


def timed(variant, board, d1, d2, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        generate_python(board, d1, d2, variant)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="self-play positions per variant")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"pure-Python generator, {args.positions} self-play positions x 21 rolls per variant "
          f"(+ {args.positions // 2} scattered for the worst pair); goal: worst pair < {GOAL_MS:g} ms")
    print(f"{'variant':<12} {'pairs/s':>9} {'mean ms':>8} {'worst ms':>9}  worst pair")
    for name in VARIANTS:
        try:
            variant = find_variant(name)
        except InvalidInputError:
            print(f"{name:<12} (not registered on this branch)")
            continue
        positions = self_play(name, 2026, args.positions)
        total, pairs = 0.0, 0
        worst = (0.0, None, None)
        for pos in positions:
            for d1, d2 in ROLLS:
                t = timed(variant, pos.board, d1, d2, args.repeat)
                total += t
                pairs += 1
                if t > worst[0]:
                    worst = (t, pos, (d1, d2))
        for pos in scattered(name, 7, args.positions // 2):
            for d1, d2 in ROLLS:
                t = timed(variant, pos.board, d1, d2, args.repeat)
                if t > worst[0]:
                    worst = (t, pos, (d1, d2))
        t, pos, dice = worst
        where = ""
        if pos is not None:
            me = pos.side(pos.on_roll)
            where = (f"{dice[0]}-{dice[1]}, mover's points "
                     + " ".join(f"{p}:{n}" for p, n in enumerate(me.points, 1) if n))
        flag = "" if t * 1000 < GOAL_MS else "  OVER GOAL"
        print(f"{name:<12} {pairs / total:>9.0f} {1000 * total / pairs:>8.3f} {1000 * t:>9.2f}  {where}{flag}")


if __name__ == "__main__":
    main()
