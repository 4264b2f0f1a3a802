"""A brute-force reference of the move rules (R4-R12, R6, R7), written from RULES.md and not
from movegen: every sequence of single-die steps is tried and R7 is applied to the whole turn.
Slow and obvious on purpose; tests compare the generator against it.
"""

from __future__ import annotations

from tavla.core.rules.position import BAR


def _single_steps(b: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """Boards after each single-die step of the side on roll (R4, R5, R8, R9, R11, R12)."""
    def moved(f: int) -> tuple[int, ...] | None:
        t = f - die
        nb = list(b)
        nb[f] -= 1
        if t >= 1:
            if b[t] <= -2:
                return None  # R5, R9: held
            if b[t] == -1:
                nb[t], nb[0] = 0, nb[0] - 1  # R5, R8: the blot goes to the bar
            nb[t] += 1
            return tuple(nb)
        if any(b[p] > 0 for p in range(7, 26)):
            return None  # R11
        if t < 0 and any(b[p] > 0 for p in range(f + 1, 7)):
            return None  # R12
        return tuple(nb)

    if b[BAR] > 0:  # R8
        froms = [BAR]
    else:
        froms = [p for p in range(1, 25) if b[p] > 0]
    return [nb for nb in (moved(f) for f in froms) if nb is not None]


def reference(board: tuple[int, ...], d1: int, d2: int) -> set[tuple[int, ...]]:
    """The boards of the legal plays (R6, R7), by trying every sequence of single-die steps."""
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    ends: dict[tuple[int, ...], set[tuple[int, int]]] = {}  # board -> (dice used, first die)

    def walk(b: tuple[int, ...], dice: list[int], used: int, first: int) -> None:
        nexts = _single_steps(b, dice[0]) if dice else []
        if not nexts:
            ends.setdefault(b, set()).add((used, first))
            return
        for nb in nexts:
            walk(nb, dice[1:], used + 1, first or dice[0])

    for order in orders:
        walk(board, order, 0, 0)
    most = max(u for s in ends.values() for u, _ in s)
    legal = {b for b, s in ends.items() if any(u == most for u, _ in s)}
    if most == 1 and d1 != d2:  # R7: the larger die when it can be played alone
        big = max(d1, d2)
        if any((1, big) in s for s in ends.values()):
            legal = {b for b, s in ends.items() if (1, big) in s}
    return legal


