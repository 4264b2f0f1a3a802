"""Deterministic random self-play with the reference: positions for differential tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from .core import legal_results, outcome, start_position, thaw


def self_play(variant: str, seed: int, max_plies: int = 2000, **options: Any) -> Iterator[tuple[dict[str, Any], int, int]]:
    """Yield (position, d1, d2) for every ply of one random game, the position before the roll is played.

    The dice and the chosen play come from ``random.Random(seed)`` (the play uniformly among the
    distinct legal results, sorted so the run is reproducible). Stops when ``outcome`` is not None
    or after ``max_plies``; the final position is not yielded (see ``last_position``).
    """
    rng = random.Random(seed)
    pos = start_position(variant, rng.choice("WB"))
    for _ply in range(max_plies):
        if outcome(pos, **options) is not None:
            return
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield pos, d1, d2
        nxt = thaw(rng.choice(sorted(legal_results(pos, d1, d2, **options))))
        nxt["on_roll"] = "B" if pos["on_roll"] == "W" else "W"
        pos = nxt
