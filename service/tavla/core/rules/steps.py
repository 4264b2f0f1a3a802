"""Checker-by-checker play: the legal next steps after the steps made so far.

A frontend lets a player drag one checker at a time and take steps back until the dice are
lifted (seed 001, Özet), marking where a checker may go (seed 004). The legal full moves are
the sequences of single-die steps (R4-R10, R12) that use as many dice as can be used, with the
larger die when only one of two can be played (R7). A step is offered when it extends the steps
so far to a prefix of such a sequence, or when it reaches the final position of a legal move at
once (the last checker borne off by one die where the rules play both: the game ends the same
way). So every path of offered steps ends in exactly one of :func:`tavla.core.legal_moves`'
moves, and every legal move is such a path.

Beside single-die steps, :class:`StepState` lists each checker's combined destinations (one
checker moving on with more dice, with the points it passes) and says when the rest of the turn
is forced (only one final position is left).

The steps a board allows are the position's variant's single-step rule (``sources``) and
``play`` (:mod:`tavla.core.rules.variant`), the same the generator and the diagnosis use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavla.core.rules import legality
from tavla.core.errors import IllegalMoveError, IllegalReason, InvalidInputError
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.moves import Move, check_dice, legal_moves
from tavla.core.rules.position import BAR, Board, Position
from tavla.core.rules.variant import Variant

R = IllegalReason


@dataclass(frozen=True, slots=True)
class CombinedStep:
    """One checker moving on with two or more dice, each step a legal step in turn (R4).

    :ivar steps: the single-die steps, in order; ``steps[0][0]`` is the start, ``steps[-1][1]``
        the destination, the points between are where the checker lands on the way.
    """

    steps: tuple[CheckerMove, ...]

    @property
    def from_point(self) -> int:
        return self.steps[0][0]

    @property
    def to_point(self) -> int:
        return self.steps[-1][1]

    @property
    def via(self) -> tuple[int, ...]:
        """The points the checker lands on before its destination."""
        return tuple(s[1] for s in self.steps[:-1])


@dataclass(frozen=True, slots=True)
class StepState:
    """Where a turn stands after some steps.

    :ivar steps: the steps so far, each ``(from, to, die, hit)`` in the mover's numbering.
    :ivar position: the position after them, the same side still on roll.
    :ivar dice_left: the dice not played yet (a double has four).
    :ivar next_steps: the legal next single-die steps; empty when ``complete``.
    :ivar complete: the steps so far make a whole legal move (its final position).
    :ivar move: that legal move, as :func:`legal_moves` lists it, when ``complete``.
    :ivar gele: the side on roll has a checker on the bar and no die enters it (seed 001).
    :ivar combined: where one checker can go on with more than one die from here (each a path of
        legal steps; one per start, destination and resulting position).
    :ivar forced: not complete, and only one final position is left: the rest is forced (at the
        start of a turn: the roll has one legal move).
    :ivar forced_steps: when ``forced``, the remaining steps in an order they can be played.
    """

    steps: tuple[CheckerMove, ...]
    position: Position
    dice_left: tuple[int, ...]
    next_steps: tuple[CheckerMove, ...]
    complete: bool
    move: Move | None
    gele: bool
    combined: tuple[CombinedStep, ...] = ()
    forced: bool = False
    forced_steps: tuple[CheckerMove, ...] = ()


class _Turn:
    """The turn's fixed facts: the variant, the dice, how many a legal move uses, and memos."""

    def __init__(self, position: Position, dice: Sequence[int]) -> None:
        self.variant: type[Variant] = position.variant
        d1, d2 = check_dice(dice)
        self.double = d1 == d2
        self.pool: tuple[int, ...] = (d1,) * 4 if self.double else (max(d1, d2), min(d1, d2))
        self.moves = legal_moves(position, dice)
        self.used = self.moves[0].dice_used
        self.by_board = {m.board_after: m for m in self.moves}
        self._memo: dict[tuple[Board, tuple[int, ...]], bool] = {}
        self._steps: dict[tuple[Board, tuple[int, ...]], list[CheckerMove]] = {}

    def done(self, board: Board, pool: tuple[int, ...], depth: int) -> bool:
        """Whether the turn is over: all the dice a legal move uses, or a legal final position
        reached with fewer dice from which no further step completes a legal move (R7: a die
        that can still be played must be; the last checker borne off ends the game, R15)."""
        if depth >= self.used:
            return True
        return board in self.by_board and not self.regular_next(board, pool, depth)

    def physical(self, board: Board, pool: tuple[int, ...]) -> list[CheckerMove]:
        """Single-die steps the board allows now (R4-R12: the variant's ``sources``), larger die
        first, each with where it lands and whether it hits (the variant's ``play``)."""
        key = (board, pool)
        found = self._steps.get(key)
        if found is None:
            v = self.variant
            b = list(board)
            out = v.outside_count(b)
            found = []
            for die in dict.fromkeys(pool):  # each distinct die once, larger first
                for f in v.sources(b, die, out):
                    t, hit = v.play(b, f, die)
                    v.unplay(b, f, t, hit)
                    found.append(CheckerMove(f, t, die, hit))
            self._steps[key] = found
        return found

    def completes(self, board: Board, pool: tuple[int, ...], depth: int) -> bool:
        """Whether some sequence of further steps from ``board`` reaches a legal move's final
        position with ``used`` dice (R7: with one die, only the larger's when it can play)."""
        if depth == self.used:
            return board in self.by_board
        key = (board, pool)
        if key not in self._memo:
            self._memo[key] = any(self.completes(*self.play(board, pool, s), depth + 1)
                                  for s in self.physical(board, pool))
        return self._memo[key]

    def regular_next(self, board: Board, pool: tuple[int, ...], depth: int) -> list[CheckerMove]:
        """The steps playable now (R4-R12) that some legal move starts with (never called once
        the turn is done)."""
        return [s for s in self.physical(board, pool) if self.completes(*self.play(board, pool, s), depth + 1)]

    def shortcuts(self, board: Board, pool: tuple[int, ...]) -> list[CheckerMove]:
        """Steps that reach a legal move's final position with fewer dice: the same end (R15)."""
        return [s for s in self.physical(board, pool) if self.play(board, pool, s)[0] in self.by_board]

    def legal_next(self, board: Board, pool: tuple[int, ...], depth: int) -> list[CheckerMove]:
        if self.done(board, pool, depth):
            return []
        found = self.regular_next(board, pool, depth)
        return found + [s for s in self.shortcuts(board, pool) if s not in found]

    def combined(self, board: Board, pool: tuple[int, ...], depth: int) -> list[CombinedStep]:
        """Each checker's destinations with two or more dice, one per (from, to, position)."""
        found: dict[tuple[int, int, Board], CombinedStep] = {}

        def walk(chain: tuple[CheckerMove, ...], b: Board, p: tuple[int, ...], d: int) -> None:
            for s in self.legal_next(b, p, d):
                if s[0] != chain[-1][1]:  # another checker (a checker borne off has ended)
                    continue
                nb, np = self.play(b, p, s)
                longer = chain + (s,)
                found.setdefault((longer[0][0], s[1], nb), CombinedStep(longer))
                walk(longer, nb, np, d + 1)

        for first in self.legal_next(board, pool, depth):
            walk((first,), *self.play(board, pool, first), depth + 1)
        return list(found.values())

    def forced(self, board: Board, pool: tuple[int, ...], depth: int) -> tuple[CheckerMove, ...] | None:
        """The remaining steps when only one final position is left, else None (call it only
        while the turn is not done)."""
        ends: dict[Board, tuple[CheckerMove, ...]] = {}

        def walk(b: Board, p: tuple[int, ...], d: int, path: tuple[CheckerMove, ...]) -> None:
            steps = self.legal_next(b, p, d)  # none once done: every offered path ends so
            if not steps:
                ends.setdefault(b, path)
            for s in steps:
                if len(ends) > 1:  # two final positions: not forced, no need to look further
                    return
                walk(*self.play(b, p, s), d + 1, path + (s,))

        walk(board, pool, depth, ())
        return next(iter(ends.values())) if len(ends) == 1 else None


    def play(self, board: Board, pool: tuple[int, ...], step: CheckerMove) -> tuple[Board, tuple[int, ...]]:
        """The board and the dice left after ``step`` (the variant's ``play``)."""
        b = list(board)
        self.variant.play(b, step[0], step[2])
        rest = list(pool)
        rest.remove(step[2])
        return tuple(b), tuple(rest)


def legal_steps(position: Position, dice: Sequence[int], done: Sequence[CheckerMove] = ()) -> StepState:
    """The turn after the steps ``done``: the legal next steps, and whether it is complete.

    A step in ``done`` gives ``from_point`` and ``to_point``; its die is the distance. The die is
    read only for a bear-off (``to_point`` 0) that two dice can make, to pick one; elsewhere it
    is ignored. A step whose distance no single die makes is one checker moving on with several
    dice: a route through legal steps, one without an intermediate hit when there is one.

    :raises InvalidInputError: bad dice (``dice``) or a step outside the board (``steps``).
    :raises IllegalMoveError: a step that no legal move starts with: the rule it breaks (R4-R14),
        ``MUST_USE_BOTH_DICE`` / ``MUST_USE_LARGER_DIE`` when it can be played but leaves fewer
        dice playable than a legal move uses (R7), ``WRONG_DICE`` when no
        dice left make the distance or after a complete move, ``AMBIGUOUS_MOVE`` for a route of
        several dice that ends in different positions. A bear-off two dice can make, the die not
        given, is played with the larger (R7, R12). A step of several dice refused on its way
        names the rule that stops it, as :func:`~tavla.core.rules.legality.resolve` does.
    """
    turn = _Turn(position, dice)
    board: Board = position.board
    pool = turn.pool
    played: list[CheckerMove] = []
    for i, given in enumerate(done):
        for step in _match(turn, board, pool, len(played), given, i):
            played.append(step)
            board, pool = turn.play(board, pool, step)
    depth = len(played)
    complete = turn.done(board, pool, depth)
    move = turn.by_board[board] if complete else None  # the module docstring's invariant
    rest = None if complete else turn.forced(board, pool, depth)
    return StepState(
        steps=tuple(played), position=Position(board, position.on_roll, position.variant), dice_left=pool,
        next_steps=tuple(turn.legal_next(board, pool, depth)), complete=complete, move=move,
        gele=position.board[BAR] > 0 and turn.used == 0,
        combined=tuple(turn.combined(board, pool, depth)), forced=rest is not None,
        forced_steps=rest or (),
    )


def _where(point: int) -> str:
    return "bar" if point == BAR else "off" if point == 0 else str(point)


def _refuse_drag(turn: _Turn, board: Board, f: int, t: int, pool: tuple[int, ...], text: str) -> None:
    """A step of several dice (a drag, 24/12 with 3-3) that breaks a rule on its way: that rule,
    as ApplyMove names it for the leg written as a move (R4-R14)."""
    problem = legality.leg_problem(board, f, t, pool, text, turn.variant)
    if problem is not None:
        raise IllegalMoveError(*problem)


def _match(turn: _Turn, board: Board, pool: tuple[int, ...], depth: int, given: CheckerMove,
           i: int) -> tuple[CheckerMove, ...]:
    """The legal step (or one checker's legal steps) ``given`` names, or why there is none."""
    f, t, die = given.from_point, given.to_point, given.die
    text = f"step {i + 1} ({_where(f)}/{_where(t)})"
    if not 1 <= f <= BAR or not 0 <= t < f:
        raise InvalidInputError("steps", f"{text}: from must be 1-24 or 25 (bar), to 0 (off) or 1-24, "
                                         "and forward (R4)")
    if die and not 1 <= die <= 6:
        raise InvalidInputError("steps", f"{text}: die {die} is not 1-6")
    if t:
        dice = [f - t] if f - t in pool else []
    else:
        bear = sorted({d for d in pool if d >= f}, reverse=True)
        dice = [die] if die in bear else bear
    if turn.done(board, pool, depth):
        if not dice:
            _refuse_drag(turn, board, f, t, pool, text)
        problem = turn.variant.step_problem(list(board), f, dice[0]) if dice else None
        if problem is not None:  # e.g. a checker moved while one waits on the bar after "gele"
            raise IllegalMoveError(problem[0], f"{text} with a {dice[0]}: {problem[1]}")
        raise IllegalMoveError(R.WRONG_DICE, f"{text}: the move is already complete with {depth} "
                                             f"dice; no more can be played (R7)")
    regular = turn.regular_next(board, pool, depth)
    fits = [s for s in regular if s[0] == f and s[1] == t and s[2] in dice]
    # Two dice that both bear off this checker: it stands highest (R12), so the die left bears
    # off or moves the same checkers either way and the final positions are the same; the first,
    # the larger, is taken (R7).
    if not fits:  # the same final position with fewer dice (R15: the game ends the same)
        fits = [s for s in turn.shortcuts(board, pool) if s[0] == f and s[1] == t and s[2] in dice]
    if fits:
        return (fits[0],)
    routes = [c for c in turn.combined(board, pool, depth) if c.from_point == f and c.to_point == t]
    if routes:
        return _route(routes, text)
    if not dice:
        _refuse_drag(turn, board, f, t, pool, text)
        left = "-".join(map(str, pool))
        raise IllegalMoveError(R.WRONG_DICE, f"{text}: no die left ({left}) or dice in turn move a "
                                             f"checker {_where(f)}/{_where(t)}")
    d = dice[0]
    problem = turn.variant.step_problem(list(board), f, d)
    if problem is not None:
        raise IllegalMoveError(problem[0], f"{text} with a {d}: {problem[1]}")
    # A legal single step that no legal move starts with. Not with a double: there every legal
    # step starts a play of the most dice (a step never stops another checker's steps).
    if turn.used == 1:  # the smaller of two dice, where only the larger may be played alone
        raise IllegalMoveError(R.MUST_USE_LARGER_DIE, f"{text} plays the {d}; only one die can be "
                                                      f"played, so the larger {turn.pool[0]} (R7)")
    raise IllegalMoveError(R.MUST_USE_BOTH_DICE, f"{text} with a {d} leaves the other die unplayable; "
                                                 "both can be played (R7)")


def _route(routes: list[CombinedStep], text: str) -> tuple[CheckerMove, ...]:
    """One checker's route: without an intermediate hit if one fits (unnamed points, R5)."""
    quiet = [c for c in routes if not any(s[3] for s in c.steps[:-1])] or routes
    if len(quiet) > 1:  # routes are one per resulting position: these end differently
        raise IllegalMoveError(R.AMBIGUOUS_MOVE, f"{text}: " + ", ".join(
            "/".join(map(_where, (c.from_point, *c.via, c.to_point))) for c in quiet)
            + " end differently; give the steps one by one")
    return quiet[0].steps
