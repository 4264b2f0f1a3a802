"""Positions and rolls met in random games: the common input of the differential and
accelerator tests."""

from __future__ import annotations

import random

from tavla.core import Backgammon, Position, Variant
from tavla.core.rules.movegen import generate


def random_game_pairs(seed: int, count: int, variant: type[Variant] = Backgammon):
    """``count`` (board, dice) pairs of random games of ``variant`` from its start, each move
    chosen uniformly (seeded) among the legal results."""
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        pos = Position.initial(variant=variant)
        while len(pairs) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            pairs.append((pos.board, dice))
            _, results = generate(pos.board, *dice)
            nxt = Position(rng.choice(sorted(results)), variant=variant).swap_turn()
            if nxt.winner:
                break
            pos = nxt
    return pairs

