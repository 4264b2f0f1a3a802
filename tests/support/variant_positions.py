"""Random positions of the barless variants (plakoto, fevga, long nardy) for property tests:
arbitrary legal placements (Hypothesis) and positions met in random self-play (seeded)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from tavla.core import Position, Side, SideView, find_variant
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.variant import Direction

FAMILY = ("plakoto", "fevga", "long_nardy")


def _their(direction: Direction, p: int) -> int:
    return 25 - p if direction is Direction.OPPOSITE else (p + 12 if p <= 12 else p - 12)


@st.composite
def family_positions(draw, names=FAMILY) -> Position:
    """A legal position of one of ``names``: each side's checkers on random points or off; a
    point both sides land on keeps one side's checkers, except in plakoto where a single
    checker may lie pinned under the other side's."""
    variant = find_variant(draw(st.sampled_from(names)))
    white = draw(st.lists(st.integers(0, 24), min_size=15, max_size=15))
    black = draw(st.lists(st.integers(0, 24), min_size=15, max_size=15))
    wc, bc = [0] * 25, [0] * 25
    for p in white:
        wc[p] += 1
    for q in black:
        bc[q] += 1
    pins_w, pins_b = [], []
    for p in range(1, 25):
        q = _their(variant.direction, p)
        if wc[p] and bc[q]:
            if variant.contact.value == "pin" and wc[p] == 1 and draw(st.booleans()):
                pins_w.append(p)
            elif variant.contact.value == "pin" and bc[q] == 1:
                pins_b.append(q)
            else:
                bc[0] += bc[q]
                bc[q] = 0
    if not any(wc[1:]) and not any(bc[1:]):
        wc[24], wc[0] = 1, wc[0] - 1
    on_roll = draw(st.sampled_from([Side.WHITE, Side.BLACK]))
    w = SideView(tuple(wc[1:]), 0, wc[0], tuple(pins_w))
    b = SideView(tuple(bc[1:]), 0, bc[0], tuple(sorted(pins_b)))
    return Position.from_sides(on_roll, w, b, variant)


def self_play_positions(name: str, seed: int, count: int) -> list[Position]:
    """``count`` positions met in random games of ``name`` (uniform random legal moves), each
    with the side on roll to move; a game that ends starts again from the start."""
    variant = find_variant(name)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.initial(rng.choice([Side.WHITE, Side.BLACK]), variant)
        while len(out) < count and pos.winner is None and not pos.drawn:
            out.append(pos)
            moves = legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))
            pos = rng.choice(moves).result
    return out
