"""The fixed hard (position, roll) pairs of bench/data/hardest.txt: the ones with the most
distinct moves, read by the accelerator's tests and by bench/bench_encode.py."""

from __future__ import annotations

import os

from tavla import core
from tavla.core import Position, Side

HARDEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "data", "hardest.txt")


def hardest_pairs() -> list[tuple[Position, tuple[int, int]]]:
    """Each ``position_id on_roll d1-d2`` line (``#`` comments and blank lines skipped)."""
    pairs = []
    with open(HARDEST, encoding="ascii") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pid, side, roll = line.split()[:3]
                d1, d2 = (int(x) for x in roll.split("-"))
                pairs.append((core.position_id.decode(pid, Side[side.upper()]), (d1, d2)))
    return pairs
