"""Legal move generation (R4-R14 of RULES.md), the hot path of the engine.

Works on the 26-int board of :mod:`tavla.core.position` (side on roll moves from 25 towards 0),
as a mutable list with apply/undo, and keys results by the resulting board so two orders of the
same checkers are one move. Candidates are generated depth-first; legality of the turn as a whole
(R7: as many dice as possible, else the larger die) is a filter over the finished candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tavla.core.position import BAR, Board


class CheckerMove(NamedTuple):
    """One die played by one checker: the one checker-move type of the core (generated moves,
    steps a frontend sends, a game's record). A tuple, so the generator's hot loop stays cheap.

    :ivar from_point: mover's numbering, 25 = the bar.
    :ivar to_point: mover's numbering, 0 = borne off.
    :ivar die: the die played; 0 in a step a frontend sends means "work it out from the distance".
    :ivar hit: the move hits a blot (ignored on input).
    """

    from_point: int
    to_point: int
    die: int = 0
    hit: bool = False


_new = tuple.__new__  # _new(CheckerMove, (...)) is half the cost of CheckerMove(...) in the hot loop


def sources(b: list[int], die: int, outside: int, top: int = BAR) -> list[int]:
    """Points (25 = bar) from which ``die`` can be played now, highest first.

    :param outside: the mover's checkers outside its home board (points 7-25), for R11.
    :param top: highest point to consider; the doubles search passes the last source so that the
        same dice in another order are not tried again (the bar, 25, is empty in the loop).
    """
    if b[BAR]:  # R8: bar checkers first; R9: die n enters on point 25 - n
        return [BAR] if b[BAR - die] >= -1 else []
    found = []
    for f in range(top, 0, -1):
        if b[f] > 0:
            t = f - die
            if t > 0:
                if b[t] >= -1:  # R5: open, own, or a blot
                    found.append(f)
            elif not outside:  # R11: all 15 home before bearing off
                if t == 0:
                    found.append(f)
                else:
                    # R12: a larger die bears off only from the highest occupied point
                    for h in range(f + 1, BAR):  # all home: points above 6 are empty
                        if b[h] > 0:
                            break
                    else:
                        found.append(f)
    return found


def play(b: list[int], f: int, die: int) -> tuple[int, bool]:
    """Move one checker from ``f`` by ``die`` in place; returns (to, hit). ``to`` 0 is off."""
    t = f - die
    b[f] -= 1
    if t <= 0:
        return 0, False
    if b[t] == -1:  # R5, R8: hit the blot, it goes to the opponent's bar
        b[t] = 1
        b[0] -= 1
        return t, True
    b[t] += 1
    return t, False


def unplay(b: list[int], f: int, t: int, hit: bool) -> None:
    """Undo :func:`play`."""
    b[f] += 1
    if t:
        if hit:
            b[t] = -1
            b[0] += 1
        else:
            b[t] -= 1


def outside_count(b: list[int] | Board) -> int:
    """The mover's checkers on points 7-24 and the bar."""
    return b[BAR] + sum([n for n in b[7:BAR] if n > 0])  # a list: faster than a generator here


Generated = tuple[int, dict[Board, tuple[CheckerMove, ...]]]
"""What :func:`generate` returns: (dice used, {resulting board: step sequence})."""

# The seam for a compiled generator (issue 12): ``tavla.server.accel`` installs the extension's
# ``tavla_accel.generate`` here at import, unless TAVLA_ACCEL is off, so that every caller of
# the core (ApplyMove, ListLegalSteps, Act, replays, ValidateMatch) gets it while the core
# imports neither the server nor the extension. It must return exactly what
# :func:`generate_python` does (tests/test_accel_generate.py) and raise ValueError for what it
# does not answer.
_compiled: Callable[[Board, int, int], Generated] | None = None


def use_compiled(implementation: Callable[[Board, int, int], Generated] | None) -> None:
    """Make :func:`generate` call ``implementation`` first (``None``: the pure-Python
    generator alone). ``implementation(board, d1, d2)`` must return what
    :func:`generate_python` returns, or raise ValueError to hand the call to it."""
    global _compiled
    _compiled = implementation


def generate(board: Board, d1: int, d2: int) -> Generated:
    """All legal plays of dice ``d1``, ``d2`` (1-6) from ``board``, side on roll moving: the
    compiled generator's answer when one is installed (:func:`use_compiled`), else (or when it
    refuses the call with ValueError) :func:`generate_python`'s, which is the same.
    """
    compiled = _compiled
    if compiled is not None:
        try:
            return compiled(board, d1, d2)
        except ValueError:
            pass
    return generate_python(board, d1, d2)


def generate_python(board: Board, d1: int, d2: int) -> Generated:
    """All legal plays of dice ``d1``, ``d2`` (1-6) from ``board``, side on roll moving.

    :returns: (dice used, {resulting board: one step sequence reaching it, the larger die tried
        first whatever the order of ``d1``, ``d2``}); the resulting board
        is still in the mover's view. When nothing can be played the dict holds the unchanged
        board with an empty sequence, so it is never empty.
    """
    # larger die first, so a move's dice do not depend on the order given (R7)
    d1, d2 = max(d1, d2), min(d1, d2)
    b = list(board)
    out = outside_count(b)
    results: dict[Board, tuple[CheckerMove, ...]] = {}
    if d1 == d2:
        best = _doubles(b, d1, 4, BAR, out, [], results, 0)
        return best, results
    best = 0
    for da, db in ((d1, d2), (d2, d1)):
        for f in sources(b, da, out):
            t, hit = play(b, f, da)
            out_a = out - 1 if f > 6 >= t else out
            second = sources(b, db, out_a)
            if second:
                if best < 2:
                    best = 2
                    results.clear()
                s1 = _new(CheckerMove, (f, t, da, hit))
                for g in second:
                    u, hit2 = play(b, g, db)
                    key = tuple(b)
                    if key not in results:
                        results[key] = (s1, _new(CheckerMove, (g, u, db, hit2)))
                    unplay(b, g, u, hit2)
            elif best < 2:
                best = 1
                key = tuple(b)
                if key not in results:
                    results[key] = (_new(CheckerMove, (f, t, da, hit)),)
            unplay(b, f, t, hit)
    if best == 1:
        # R7: if either die but not both can be played, the larger one must be; a board both
        # dice reach alone (the last checker borne off) was stored with the larger, tried first
        if any(s[0][2] == d1 for s in results.values()):
            results = {k: s for k, s in results.items() if s[0][2] == d1}
    elif best == 0:
        results[tuple(board)] = ()
    return best, results


def _doubles(
    b: list[int],
    die: int,
    left: int,
    top: int,
    out: int,
    steps: list[CheckerMove],
    results: dict[Board, tuple[CheckerMove, ...]],
    best: int,
) -> int:
    """Depth-first search of a double (R6): sources never increase, so each set is tried once.

    Returns the most dice used so far; ``results`` keeps only plays using that many.
    """
    found = sources(b, die, out, top)
    if not found:
        used = len(steps)
        if used > best:
            results.clear()
            best = used
        if used == best:
            key = tuple(b)
            if key not in results:
                results[key] = tuple(steps)
        return best
    for f in found:
        t, hit = play(b, f, die)
        steps.append(_new(CheckerMove, (f, t, die, hit)))
        if left == 1:
            if best < 4:
                results.clear()
                best = 4
            key = tuple(b)
            if key not in results:
                results[key] = tuple(steps)
        else:
            best = _doubles(b, die, left - 1, f, out - 1 if f > 6 >= t else out, steps, results, best)
        steps.pop()
        unplay(b, f, t, hit)
    return best
