"""Matching a move a player names to a legal move, and saying why it is illegal when it is not.

A named move is a list of :class:`~tavla.core.notation.Leg` (one checker's path). It is legal
when some legal move ends with the mover's checkers where the legs put them and hits only on
points the legs name. Otherwise the legs are played die by die in every order to find the rule
that stops them (R4-R14), and an :class:`IllegalMoveError` carries that rule's reason.
"""

from __future__ import annotations

from typing import Sequence

from tavla.core import movegen
from tavla.core.errors import IllegalMoveError, IllegalReason
from tavla.core.moves import Move, check_dice, legal_moves
from tavla.core.notation import Leg
from tavla.core.position import BAR, Position

R = IllegalReason


def resolve(position: Position, dice: Sequence[int], legs: Sequence[Leg]) -> Move:
    """The legal move that ``legs`` describe.

    :raises InvalidInputError: bad dice.
    :raises IllegalMoveError: no legal move fits (reason per R4-R14), or several do
        (``AMBIGUOUS_MOVE``).
    """
    moves = legal_moves(position, dice)
    own = [x if x > 0 else 0 for x in position.board]
    for leg in legs:
        own[leg.start] -= 1
        if leg.end:
            own[leg.end] += 1
    if min(own) >= 0:
        target = tuple(own[1:])
        named = {p for leg in legs for p in leg.points[1:]}
        same = [m for m in moves if tuple(x if x > 0 else 0 for x in m.board_after[1:]) == target]
        # prefer hits on named points; an unnamed intermediate hit only if nothing else fits
        fits = [m for m in same if m.hits <= named] or same
        if fits:
            most = max(len(m.hits) for m in fits)
            best = [m for m in fits if len(m.hits) == most]  # landing on a blot hits it (R5)
            if len(best) == 1:
                return best[0]
            raise IllegalMoveError(
                R.AMBIGUOUS_MOVE,
                f"{_text(legs)!r} fits {len(best)} legal moves: "
                + ", ".join(m.notation for m in best),
            )
    raise diagnose(position, dice, legs, moves[0].dice_used)


def _text(legs: Sequence[Leg]) -> str:
    return " ".join("/".join("bar" if p == BAR else "off" if p == 0 else str(p) for p in leg.points)
                    for leg in legs) or "(no move)"


def diagnose(position: Position, dice: Sequence[int], legs: Sequence[Leg], best: int) -> IllegalMoveError:
    """Why ``legs`` is not a legal move; ``best`` is how many dice a legal move uses."""
    d1, d2 = check_dice(dice)
    pool = [d1] * 4 if d1 == d2 else [d1, d2]
    text = _text(legs)
    if len(legs) > len(pool):
        return IllegalMoveError(R.WRONG_DICE, f"{text!r} moves {len(legs)} checkers with {d1}-{d2}")
    failure = _Failure()
    failure.names = [_text([leg]) for leg in legs]
    _search(list(position.board), [list(leg.points) for leg in legs], pool, 0, failure)
    if failure.complete is not None:
        used = failure.complete
        if d1 == d2 or used == 0:
            return IllegalMoveError(
                R.MUST_USE_MORE_DICE,
                f"{text!r} plays {used} of the dice; {best} can be played (R6, R7)",
            )
        if best == 2:
            return IllegalMoveError(
                R.MUST_USE_BOTH_DICE, f"{text!r} plays one die of {d1}-{d2}; both can be played (R7)"
            )
        return IllegalMoveError(
            R.MUST_USE_LARGER_DIE,
            f"{text!r} plays the smaller die of {d1}-{d2}; only one can be played, so the larger (R7)",
        )
    reason, why = failure.reason or (R.WRONG_DICE, "the dice do not make these moves")
    return IllegalMoveError(reason, f"{text!r} with {d1}-{d2}: {why}")


class _Failure:
    """The deepest point the search reached: the rule that stopped it, or a complete play."""

    def __init__(self) -> None:
        self.depth = -1
        self.reason: tuple[IllegalReason, str] | None = None
        self.complete: int | None = None
        self.names: list[str] = []  # each leg as written, to name it in messages


def _search(b: list[int], paths: list[list[int]], pool: list[int], depth: int, failure: _Failure) -> None:
    """Try every leg and die in turn; record the deepest rule violation or a complete play."""
    if all(len(p) == 1 for p in paths):
        failure.complete = depth
        return
    if failure.complete is not None:
        return
    for i, path in enumerate(paths):
        if len(path) == 1:
            continue
        f, target = path[0], path[1]
        for die in sorted(set(pool), reverse=True):
            t = max(f - die, 0)
            if t < target or not _reachable(t - target, target == 0, pool, die):
                _note(failure, depth, R.WRONG_DICE,
                      f"{failure.names[i]}: the dice do not move a checker {_p(f)}/{_p(target)}")
                continue
            problem = _step_problem(b, f, die)
            if problem:
                _note(failure, depth, problem[0], f"{failure.names[i]}: {problem[1]}")
                continue
            t, hit = movegen.play(b, f, die)
            rest = pool.copy()
            rest.remove(die)
            new_paths = [p.copy() for p in paths]
            new_paths[i] = [t] + path[2:] if t == target else [t] + path[1:]
            _search(b, new_paths, rest, depth + 1, failure)
            movegen.unplay(b, f, t, hit)
            if failure.complete is not None:
                return
    if not pool:
        _note(failure, depth, R.WRONG_DICE, "more movement than the dice give")


def _reachable(dist: int, to_off: bool, pool: list[int], used: int) -> bool:
    """Whether the dice left after ``used`` can cover ``dist`` more pips (off: at least)."""
    if dist == 0:
        return True
    rest = pool.copy()
    rest.remove(used)
    sums = {0}
    for d in rest:
        sums |= {s + d for s in sums}
    return any(s >= dist if to_off else s == dist for s in sums if s)


def _p(point: int) -> str:
    return "bar" if point == BAR else "off" if point == 0 else str(point)


def _note(failure: _Failure, depth: int, reason: IllegalReason, why: str) -> None:
    # the deepest failure wins; at equal depth a broken rule says more than a dice mismatch
    vague = failure.reason is not None and failure.reason[0] is R.WRONG_DICE
    if depth > failure.depth or depth == failure.depth and vague and reason is not R.WRONG_DICE:
        failure.depth = depth
        failure.reason = (reason, why)


def _step_problem(b: list[int], f: int, die: int) -> tuple[IllegalReason, str] | None:
    """The rule a single step breaks, or None if it is a legal single step."""
    if b[BAR] and f != BAR:
        return R.MUST_ENTER_FROM_BAR, f"a checker on the bar must enter before {f} moves (R8)"
    if b[f] <= 0:
        return R.NO_CHECKER_THERE, f"no checker of the side on roll on {_p(f)} (R4)"
    t = f - die
    if t > 0:
        if b[t] < -1:
            return R.POINT_BLOCKED, f"point {t} is held by two or more opposing checkers (R5, R9)"
        return None
    if movegen.outside_count(b):
        return R.BEAR_OFF_NOT_ALLOWED, "no checker may bear off before all 15 are home (R11, R14)"
    if t < 0 and any(b[h] > 0 for h in range(f + 1, 7)):
        return (
            R.BEAR_OFF_NOT_ALLOWED,
            f"a {die} bears off from {f} only when no checker stands higher (R12)",
        )
    return None

