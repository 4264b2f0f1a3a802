"""Matching a move a player names to a legal move, and saying why it is illegal when it is not.

A named move is a list of :class:`~tavla.core.rules.notation.Leg` (one checker's path). It is legal
when its legs, played die by die through every point they name (R4), end on the board of a legal
move, hitting only on points the legs name when a route allows. Otherwise the legs are played
die by die in every order to find the rule that stops them (R4-R14), and an
:class:`IllegalMoveError` carries that rule's reason: the first rule broken in the order a player
makes the move (see :func:`diagnose`).

Every single step is judged by the position's variant (:mod:`tavla.core.rules.variant`): its
single-step rule (``step_problem``, which asks ``sources``, the rule the generator uses) and
``play``/``unplay``; nothing here knows a board geometry.
"""

from __future__ import annotations

from typing import Sequence

from tavla.core.rules.backgammon import Backgammon
from tavla.core.errors import IllegalMoveError, IllegalReason
from tavla.core.rules.moves import Move, check_dice, legal_moves
from tavla.core.rules.notation import Leg
from tavla.core.rules.position import BAR, Position
from tavla.core.rules.variant import Variant

R = IllegalReason


def resolve(position: Position, dice: Sequence[int], legs: Sequence[Leg]) -> Move:
    """The legal move that ``legs`` describe.

    Each leg is played as written (R4): the checker lands on every point the leg names, each hop
    made with one or more dice; a hop's unnamed landing points are free. The named move is the
    legal move whose resulting board the legs reach; an unnamed intermediate hit only when no
    route without one fits.

    :raises InvalidInputError: bad dice.
    :raises IllegalMoveError: no legal move fits (reason per R4-R14, see :func:`diagnose`), or
        several do (``AMBIGUOUS_MOVE``).
    """
    moves = legal_moves(position, dice)
    by_board = {m.board_after: m for m in moves}
    pool = _pool(dice, position.variant)
    ends: set[tuple[int, ...]] = set()
    if len(legs) <= len(pool):  # each leg takes a die at least (R4)
        _routes(list(position.board), [list(leg.points) for leg in legs], pool, ends, position.variant)
    same = [by_board[b] for b in ends if b in by_board]
    if same:
        named = {p for leg in legs for p in leg.points[1:]}
        # prefer hits on named points; an unnamed intermediate hit only if nothing else fits
        fits = [m for m in same if m.hits <= named] or same
        most = max(len(m.hits) for m in fits)
        best = [m for m in fits if len(m.hits) == most]  # landing on a blot hits it (R5)
        if len(best) == 1:
            return best[0]
        raise IllegalMoveError(
            R.AMBIGUOUS_MOVE,
            f"{_text(legs)!r} fits {len(best)} legal moves: " + ", ".join(m.notation for m in best),
        )
    raise diagnose(position, dice, legs, moves[0].dice_used)


def _pool(dice: Sequence[int], variant: type[Variant]) -> list[int]:
    """The dice to play, as the variant's turn hook gives them (a double four times, R6).
    :raises InvalidInputError: bad dice."""
    d1, d2 = check_dice(dice)
    return list(variant.dice_to_play(d1, d2))


def _routes(b: list[int], paths: list[list[int]], pool: list[int], ends: set[tuple[int, ...]],
            variant: type[Variant]) -> None:
    """Add to ``ends`` every board the legs reach, played die by die in any order (R4-R12).

    Each step uses one die, so at most four levels deep: small enough without a memo."""
    if all(len(p) == 1 for p in paths):
        ends.add(tuple(b))
        return
    out = variant.outside_count(b)  # b is the same board for every step tried here
    for i, path in enumerate(paths):
        if len(path) == 1:
            continue
        f, target = path[0], path[1]
        for die in set(pool):
            t = max(f - die, 0)
            if not _reachable(t - target, target == 0, pool, die) or variant.step_problem(b, f, die, out):
                continue
            t, hit = variant.play(b, f, die)
            _routes(b, *_advance(paths, i, t, pool, die), ends, variant)
            variant.unplay(b, f, t, hit)


def _advance(paths: list[list[int]], i: int, t: int, pool: list[int],
             die: int) -> tuple[list[list[int]], list[int]]:
    """The legs and the dice left once leg ``i``'s checker has moved with ``die`` to ``t``."""
    path = paths[i]
    new_paths = [p.copy() for p in paths]
    new_paths[i] = [t] + path[2:] if t == path[1] else [t] + path[1:]
    rest = pool.copy()
    rest.remove(die)
    return new_paths, rest


def _text(legs: Sequence[Leg]) -> str:
    return " ".join("/".join("bar" if p == BAR else "off" if p == 0 else str(p) for p in leg.points)
                    for leg in legs) or "(no move)"


def diagnose(position: Position, dice: Sequence[int], legs: Sequence[Leg], best: int) -> IllegalMoveError:
    """Why ``legs`` is not a legal move; ``best`` is how many dice a legal move uses.

    The legs are played die by die in every order a player could play them. The reason is the
    rule that stops the order getting furthest; among orders stopped after as many steps, the
    leg written first, within a leg the larger die first, and for one die a broken rule
    (``POINT_BLOCKED``, ...) before ``WRONG_DICE``. Legs that play completely but use too few dice or the smaller die break R7
    (``MUST_USE_BOTH_DICE``, ``MUST_USE_MORE_DICE``, ``MUST_USE_LARGER_DIE``).
    """
    d1, d2 = check_dice(dice)
    pool = _pool(dice, position.variant)
    text = _text(legs)
    if len(legs) > len(pool):
        return IllegalMoveError(R.WRONG_DICE, f"{text!r} moves {len(legs)} checkers with {d1}-{d2}")
    failure = _Failure([_text([leg]) for leg in legs], position.variant)
    _search(list(position.board), [list(leg.points) for leg in legs], pool, 0, failure)
    if failure.complete is not None:
        used = failure.complete
        turn_rule = position.variant.turn_refusal(failure.board, d1, d2)
        if turn_rule is not None:
            return IllegalMoveError(turn_rule[0], f"{text!r} with {d1}-{d2}: {turn_rule[1]}")
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
    # every order of the legs either completes or breaks a rule, so a failure was noted
    _, reason, why = max(failure.notes)
    return IllegalMoveError(reason, f"{text!r} with {d1}-{d2}: {why}")


def leg_problem(board: Sequence[int], f: int, t: int, pool: Sequence[int],
                name: str, variant: type[Variant] = Backgammon) -> tuple[IllegalReason, str] | None:
    """The rule (R4-R14) that stops one checker going ``f``/``t`` with several of the dice in
    ``pool``, as :func:`diagnose` finds it for a written leg, with the message led by ``name``;
    None when only the dice do not fit (``WRONG_DICE``) or the leg can be played."""
    failure = _Failure([name], variant)
    _search(list(board), [[f, t]], list(pool), 0, failure)
    if failure.complete is not None:
        return None
    _, reason, why = max(failure.notes)
    return None if reason is R.WRONG_DICE else (reason, why)


class _Failure:
    """What the search found: each rule that stopped an order of the legs, or a complete play."""

    def __init__(self, names: list[str], variant: type[Variant]) -> None:
        self.names = names  # each leg as written, to name it in messages
        self.variant = variant  # whose single-step rule judges each step
        self.notes: list[tuple[tuple[int, int, bool, int], IllegalReason, str]] = []
        self.complete: int | None = None
        self.board: tuple[int, ...] = ()  # where a complete play ends


def _search(b: list[int], paths: list[list[int]], pool: list[int], depth: int, failure: _Failure) -> None:
    """Try every leg and die in turn; record the deepest rule violation or a complete play."""
    if all(len(p) == 1 for p in paths):
        failure.complete = depth
        failure.board = tuple(b)
        return
    for i, path in enumerate(paths):
        if len(path) == 1:
            continue
        f, target = path[0], path[1]
        for die in sorted(set(pool), reverse=True):
            t = max(f - die, 0)
            if not _reachable(t - target, target == 0, pool, die):
                _note(failure, depth, i, R.WRONG_DICE,
                      f"{failure.names[i]}: the dice do not move a checker {_p(f)}/{_p(target)}")
                continue
            problem = failure.variant.step_problem(b, f, die)
            if problem:
                _note(failure, depth, i, problem[0], f"{failure.names[i]}: {problem[1]}")
                continue
            after = b.copy()
            t, _ = failure.variant.play(after, f, die)
            _search(after, *_advance(paths, i, t, pool, die), depth + 1, failure)
            if failure.complete is not None:
                return
    # ranked below every leg's note at this depth: it is the reason only when no die was left
    _note(failure, depth, len(paths), R.WRONG_DICE, "more movement than the dice give")


def _reachable(dist: int, to_off: bool, pool: list[int], used: int) -> bool:
    """Whether the dice left after ``used`` can cover ``dist`` more pips (off: at least); a
    negative ``dist`` (the die passes the named point) never."""
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


def _note(failure: _Failure, depth: int, leg: int, reason: IllegalReason, why: str) -> None:
    # The player's order ranks the notes: the failure after the most steps played; at equal depth
    # the leg written first; within one leg a broken rule says more than a dice mismatch; then the
    # first found (the larger die first).
    rank = (depth, -leg, reason is not R.WRONG_DICE, -len(failure.notes))
    failure.notes.append((rank, reason, why))
