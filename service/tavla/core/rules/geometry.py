"""The board of the tavla family's variants without a bar (plakoto, fevga, long nardy).

One tuple of **28 ints**, seen from the side on roll (the mover), as the generator's hooks
index it (:mod:`tavla.core.rules.variant`):

* ``board[p]`` for ``p`` in 1..24: the mover's point ``p`` (its own numbering, R1). ``> 0``: that
  many of the mover's checkers, ``< 0``: that many of the opponent's. In plakoto these are the
  checkers **on top** (the free stack); a pinned checker under them is in the masks below.
* ``board[0]`` and ``board[25]``: always 0 (there is no bar: the generic code reads
  ``board[25]`` as the mover's bar).
* ``board[26]``, ``board[27]``: the variant's two slots.

  - plakoto: ``board[26]`` is a bit mask (bit ``p``) of the mover's points where one of the
    **mover's** checkers is pinned under the opponent's, ``board[27]`` the mask of the mover's
    points where one of the **opponent's** checkers is pinned under the mover's;
  - long nardy: ``board[26]`` counts the mover's checkers that have left its head (24) during
    the turn being played (0 in every position between turns), ``board[27]`` is 0;
  - fevga: both 0.

How the opponent's points meet the mover's (variants-rules.md): **opposite** directions (plakoto) --
the mover's ``p`` is the opponent's ``25 - p``; the **same** direction (fevga, long nardy) -- the
mover's ``p`` is the opponent's ``((p + 11) mod 24) + 1``, so the mover's 12 is the opponent's 24.

Borne-off checkers are not stored: each side has 15 and the rest are off.
"""

from __future__ import annotations

from tavla.core.rules.variant import Board

SIZE = 28
SLOT_A = 26
_POINTS = range(1, 25)


def mirror_mask(mask: int) -> int:
    """A point mask (bit p) seen from the other side with opposite directions: bit 25 - p."""
    out = 0
    while mask:
        low = mask & -mask
        p = low.bit_length() - 1
        out |= 1 << (25 - p)
        mask ^= low
    return out


def same_point(p: int) -> int:
    """The other side's number of the mover's point ``p`` when both move the same way
    (12 <-> 24, 1 <-> 13): ``((p + 11) mod 24) + 1``."""
    return p + 12 if p <= 12 else p - 12


# The mover's points in the order the opponent travels them (same direction): the opponent's
# 24, 23, ..., 1 are the mover's 12, 11, ..., 1, 24, ..., 13.
ROTATE = tuple(same_point(p) for p in range(25))  # ROTATE[p]: the other side's number of p


def flip_same(board: Board) -> Board:
    """The board of a same-direction variant seen from the other side (turn slots cleared)."""
    return (0, *(-x for x in board[13:25]), *(-x for x in board[1:13]), 0, 0, 0)


def counts_same(board: Board, on_roll: bool) -> bytes:
    """25 counts of one side in its own numbering (points 1..24, then a bar of 0)."""
    if on_roll:
        return bytes([x if x > 0 else 0 for x in board[1:25]] + [0])
    return bytes([-x if x < 0 else 0 for x in (*board[13:25], *board[1:13])] + [0])


def opp_bit(p: int) -> int:
    """The bit of the mover's point ``p`` in an opponent-path mask: bit ``q - 1`` for the
    opponent's point ``q``."""
    return 1 << (ROTATE[p] - 1)


OPP_BIT = tuple(opp_bit(p) if p else 0 for p in range(25))


def held_mask(b: list[int] | Board) -> int:
    """The mover's held points as an opponent-path mask (bit ``q - 1``: the opponent's ``q``)."""
    m = 0
    for p in _POINTS:
        if b[p] > 0:
            m |= OPP_BIT[p]
    return m


def lead(b: list[int] | Board) -> int:
    """The opponent's point (its numbering) of its most advanced checker on the board; 25 when it
    has none there."""
    best = 25
    for p in _POINTS:
        if b[p] < 0:
            q = ROTATE[p]
            if q < best:
                best = q
    return best


def traps(mask: int, lead_q: int) -> bool:
    """Whether the mover's held points ``mask`` (opponent-path bits) include six consecutive
    points on the opponent's way with no opponent checker past them: the run's lowest point
    (opponent's numbering) lies below the opponent's most advanced checker ``lead_q``."""
    runs = mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) & (mask >> 5)
    return bool(runs & ((1 << (lead_q - 1)) - 1))


def where(point: int) -> str:
    return "off" if point == 0 else str(point)
