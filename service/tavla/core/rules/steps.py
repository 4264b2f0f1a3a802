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

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavla.core.rules import legality
from tavla.core.errors import IllegalMoveError, IllegalReason, InvalidInputError
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.moves import Move, check_dice, legal_moves
from tavla.core.rules.position import BAR, Board, Position, Side
from tavla.core.rules.variant import Variant
from tavla.core.values import maker

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
    :ivar forced: not complete, and only one final position is left: the rest is forced (at the
        start of a turn: the roll has one legal move).
    :ivar forced_steps: when ``forced``, the remaining steps in an order they can be played.
    :ivar memo: what the game machine derives from this analysis, each under its own key (the
        analysis of each next step, the actions): kept as long as the analysis is, and right as
        long, since the analysis never changes. Not part of its value.
    """

    steps: tuple[CheckerMove, ...]
    position: Position
    dice_left: tuple[int, ...]
    next_steps: tuple[CheckerMove, ...]
    complete: bool
    move: Move | None
    gele: bool
    forced: bool = False
    forced_steps: tuple[CheckerMove, ...] = ()
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    turn_key: tuple[Any, ...] = field(default=(), compare=False, hash=False, repr=False)  # _analysed's arguments

    @property
    def combined(self) -> tuple[CombinedStep, ...]:
        """Where one checker can go on with more than one die from here (each a path of legal
        steps; one per start, destination and resulting position). Found when asked (only
        ListLegalSteps shows them; a referee's Act never reads them), from the turn's tree."""
        return _combined(*self.turn_key) if self.turn_key else ()


class _Node:
    """One point of the turn's tree: a board and the dice left (the depth is how many were
    played), with what is found about it, each computed once."""

    __slots__ = ("board", "pool", "depth", "kids", "reaches", "regular", "nexts", "rest", "joined")

    def __init__(self, board: Board, pool: tuple[int, ...], depth: int) -> None:
        self.board = board
        self.pool = pool
        self.depth = depth
        self.kids: list[tuple[CheckerMove, _Node]] | None = None  # every single-die step, and where it leads
        self.reaches: bool | None = None  # some further steps reach a legal move's end
        self.regular: list[tuple[CheckerMove, _Node]] | None = None  # the kids some legal move goes through
        self.nexts: list[tuple[CheckerMove, _Node]] | None = None  # the legal next steps
        self.rest: tuple[CheckerMove, ...] | None | bool = False  # forced(): False until computed
        self.joined: list[CombinedStep] | None = None  # combined()


class _Turn:
    """The turn's fixed facts (the variant, the dice, how many a legal move uses) and its tree of
    steps, each node made and each question about it answered once. A turn's tree depends only
    on the variant, the position and the dice, so it is kept between calls (:func:`_turn`): every
    click of a turn starts from the same position and dice."""

    def __init__(self, position: Position, dice: Sequence[int]) -> None:
        self.variant: type[Variant] = position.variant
        d1, d2 = check_dice(dice)
        self.double = d1 == d2
        self.pool: tuple[int, ...] = self.variant.dice_to_play(d1, d2)  # the turn hook
        self.moves = legal_moves(position, dice)
        self.used = self.moves[0].dice_used
        self.by_board = {m.board_after: m for m in self.moves}
        self._nodes: dict[tuple[Board, tuple[int, ...]], _Node] = {}
        self.root = self.node(position.board, self.pool)

    def node(self, board: Board, pool: tuple[int, ...]) -> _Node:
        key = (board, pool)
        found = self._nodes.get(key)
        if found is None:
            # setdefault: two threads walking one kept turn make one node (equal answers anyway)
            found = self._nodes.setdefault(key, _Node(board, pool, len(self.pool) - len(pool)))
        return found

    def physical(self, n: _Node) -> list[tuple[CheckerMove, _Node]]:
        """Single-die steps the board allows now (R4-R12: the variant's ``sources``), larger die
        first, each with where it lands and whether it hits (the variant's ``play``), and the
        node it leads to."""
        found = n.kids
        if found is None:
            v = self.variant
            b = list(n.board)
            out = v.outside_count(b)
            found = []
            pool = n.pool
            for die in dict.fromkeys(pool):  # each distinct die once, larger first
                rest = list(pool)
                rest.remove(die)
                left = tuple(rest)
                for f in v.sources(b, die, out):
                    t, hit = v.play(b, f, die)
                    after = tuple(b)
                    v.unplay(b, f, t, hit)
                    found.append((CheckerMove(f, t, die, hit), self.node(after, left)))
            n.kids = found
        return found

    def done(self, n: _Node) -> bool:
        """Whether the turn is over: all the dice a legal move uses, or a legal final position
        reached with fewer dice from which no further step completes a legal move (R7: a die
        that can still be played must be; the last checker borne off ends the game, R15)."""
        if n.depth >= self.used:
            return True
        return n.board in self.by_board and not self.regular_next(n)

    def completes(self, n: _Node) -> bool:
        """Whether some sequence of further steps from ``n`` reaches a legal move's final
        position with ``used`` dice (R7: with one die, only the larger's when it can play)."""
        if n.depth == self.used:
            return n.board in self.by_board
        if n.reaches is None:
            if n.kids is None and n.depth == self.used - 1:  # one die to go: no nodes needed
                n.reaches = self._ends_in_one(n)
            else:
                n.reaches = any(self.completes(c) for _, c in self.physical(n))
        return n.reaches

    def _ends_in_one(self, n: _Node) -> bool:
        """Whether one more single-die step from ``n`` reaches a legal move's final position:
        :meth:`completes` one die before the end, trying the steps in the same order, without
        making their nodes."""
        v = self.variant
        b = list(n.board)
        out = v.outside_count(b)
        by_board = self.by_board
        for die in dict.fromkeys(n.pool):
            for f in v.sources(b, die, out):
                t, hit = v.play(b, f, die)
                reached = tuple(b) in by_board
                v.unplay(b, f, t, hit)
                if reached:
                    return True
        return False

    def regular_next(self, n: _Node) -> list[tuple[CheckerMove, _Node]]:
        """The steps playable now (R4-R12) that some legal move starts with (never called once
        the turn is done)."""
        if n.regular is None:
            n.regular = [(s, c) for s, c in self.physical(n) if self.completes(c)]
        return n.regular

    def shortcuts(self, n: _Node) -> list[tuple[CheckerMove, _Node]]:
        """Steps that reach a legal move's final position with fewer dice: the same end (R15)."""
        return [(s, c) for s, c in self.physical(n) if c.board in self.by_board]

    def legal_next(self, n: _Node) -> list[tuple[CheckerMove, _Node]]:
        if n.nexts is None:
            if self.done(n):
                n.nexts = []
            else:
                found = self.regular_next(n)
                steps = [s for s, _ in found]
                n.nexts = found + [(s, c) for s, c in self.shortcuts(n) if s not in steps]
        return n.nexts

    def follow(self, n: _Node, steps: Sequence[CheckerMove]) -> tuple[tuple[CheckerMove, _Node], ...]:
        """``steps`` (a path of legal next steps from ``n``) with the node each leads to."""
        out = []
        for step in steps:
            n = next(c for s, c in self.legal_next(n) if s == step)
            out.append((step, n))
        return tuple(out)

    def combined(self, n: _Node) -> list[CombinedStep]:
        """Each checker's destinations with two or more dice, one per (from, to, position)."""
        if n.joined is None:
            found: dict[tuple[int, int, Board], CombinedStep] = {}

            def walk(chain: tuple[CheckerMove, ...], at: _Node) -> None:
                for s, c in self.legal_next(at):
                    if s[0] != chain[-1][1]:  # another checker (a checker borne off has ended)
                        continue
                    longer = chain + (s,)
                    found.setdefault((longer[0][0], s[1], c.board), CombinedStep(longer))
                    walk(longer, c)

            for first, c in self.legal_next(n):
                walk((first,), c)
            n.joined = list(found.values())
        return n.joined

    def forced(self, n: _Node) -> tuple[CheckerMove, ...] | None:
        """The remaining steps when only one final position is left, else None (call it only
        while the turn is not done)."""
        if n.rest is False and n is self.root and len(self.by_board) > 1:
            n.rest = None  # every legal move's end is reachable from the start: two or more
        if n.rest is False:
            ends: dict[Board, tuple[CheckerMove, ...]] = {}

            def walk(at: _Node, path: tuple[CheckerMove, ...]) -> None:
                steps = self.legal_next(at)  # none once done: every offered path ends so
                if not steps:
                    ends.setdefault(at.board, path)
                for s, c in steps:
                    if len(ends) > 1:  # two final positions: not forced, no need to look further
                        return
                    walk(c, path + (s,))

            walk(n, ())
            n.rest = next(iter(ends.values())) if len(ends) == 1 else None
        return n.rest  # type: ignore[return-value]


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

    Answers are kept per (variant, its compiled generator, board, side on roll, dice, steps) and
    each turn's tree of steps per (variant, generator, board, side, dice): bounded, immutable
    values, the same with and without them (:func:`clear_cache`).
    """
    d1, d2 = check_dice(dice)
    variant = position.variant
    given = tuple((g.from_point, g.to_point, g.die) for g in done)
    # a class hashes by identity; mypy does not see type[Variant] as Hashable
    return _analysed(variant, variant.compiled_generate, position.board, position.on_roll, max(d1, d2),  # type: ignore[arg-type]
                     min(d1, d2), given)


# every step of a turn makes its analysis with these (tavla.core.values: a third of __init__'s cost)
_step_state: Callable[..., StepState] = maker(StepState, (
    "steps", "position", "dice_left", "next_steps", "complete", "move", "gele", "forced", "forced_steps", "turn_key"))
_position: Callable[..., Position] = maker(Position, ("board", "on_roll", "variant"))
_move: Callable[..., Move] = maker(Move, ("steps", "board_after", "mover"))


#: Turns kept between calls, and analyses (a turn and the steps so far). A cache, not state:
#: an answer is the same with and without it (tests/referee/test_referee_cache.py). A turn's
#: tree is some hundred nodes (a few thousand for an early double); live objects make every
#: full garbage collection slower, so few are kept (one per game in play on a worker is what a
#: click needs) and a turn is dropped once its move is confirmed (:func:`forget_turn`).
TURNS_KEPT = 64
ANALYSES_KEPT = 256


_turns: OrderedDict[tuple[object, ...], _Turn] = OrderedDict()  # least recently used first
_turns_lock = threading.Lock()


def _turn(variant: type[Variant], generator: object, board: Board, on_roll: Side, high: int, low: int) -> _Turn:
    """The turn of ``board`` and the dice, by ``variant``'s rules (``generator``, the variant's
    compiled generator or None, is part of the key: a test that swaps it gets its own turns)."""
    key = (variant, generator, board, on_roll, high, low)
    with _turns_lock:
        found = _turns.get(key)
        if found is not None:
            _turns.move_to_end(key)
            return found
    made = _Turn(Position(board, on_roll, variant), (high, low))  # outside the lock: it takes a while
    with _turns_lock:  # two threads may make one turn each: the same answers either way
        _turns[key] = made
        if len(_turns) > TURNS_KEPT:
            _turns.popitem(last=False)
    return made


def forget_turn(position: Position, dice: Sequence[int]) -> None:
    """Drop the kept tree of the turn of ``position`` and ``dice`` (its move is confirmed: no
    click needs it again), so that fewer objects stay alive; nothing if none is kept."""
    if len(dice) == 2 and _turns:  # none kept when the compiled analysis answers the turn
        variant = position.variant
        key = (variant, variant.compiled_generate, position.board, position.on_roll, max(dice), min(dice))
        with _turns_lock:
            _turns.pop(key, None)


@functools.lru_cache(maxsize=ANALYSES_KEPT)
def _analysed(variant: type[Variant], generator: object, board: Board, on_roll: Side, high: int, low: int,
              done: tuple[tuple[int, int, int], ...]) -> StepState:
    """:func:`legal_steps` of a position, its dice larger first and the steps so far as (from, to,
    die): every answer of a turn is kept, so a ListActions or an UNDO after an Act answers at
    once. An error (a step no legal move starts with) is raised again each time, not kept.
    The variant's compiled analysis (``compiled_steps``, beside its compiled generator) answers
    the common path (every step given one legal next step) without the tree; the rest, and
    every variant without one, takes the tree."""
    compiled = variant.compiled_steps if generator is not None else None
    if compiled is not None:
        try:
            found = compiled(board, high, low, done)
        except ValueError:  # outside its domain: the tree answers or raises the core's error
            found = None
        if found is not None:
            return _compiled_state(variant, generator, board, on_roll, high, low, done, found)
    turn, n, played = _walked(variant, generator, board, on_roll, high, low, done)
    complete = turn.done(n)
    move = turn.by_board[n.board] if complete else None  # the module docstring's invariant
    rest = None if complete else turn.forced(n)
    return StepState(
        steps=tuple(played), position=Position(n.board, on_roll, variant), dice_left=n.pool,
        next_steps=tuple(s for s, _ in turn.legal_next(n)), complete=complete, move=move,
        gele=board[BAR] > 0 and turn.used == 0, forced=rest is not None, forced_steps=rest or (),
        turn_key=(variant, generator, board, on_roll, high, low, done),
    )


def _compiled_state(variant: type[Variant], generator: object, board: Board, on_roll: Side, high: int, low: int,
                    done: tuple[tuple[int, int, int], ...], found: Any) -> StepState:
    """The :class:`StepState` of a compiled analysis' answer: (steps played, board after, dice
    left, next steps, the legal move's steps when complete else None, the forced rest else
    None, dice a legal move uses); the tree's answer (tests/accel/test_accel_steps.py)."""
    played, after, left, next_steps, move_steps, rest, used = found
    complete = move_steps is not None
    move = _move(move_steps, after, _position(board, on_roll, variant)) if complete else None
    return _step_state(played, _position(after, on_roll, variant), left, next_steps, complete, move,
                       board[BAR] > 0 and used == 0, rest is not None, rest or (),
                       (variant, generator, board, on_roll, high, low, done))


def _walked(variant: type[Variant], generator: object, board: Board, on_roll: Side, high: int, low: int,
            done: tuple[tuple[int, int, int], ...]) -> tuple[_Turn, _Node, list[CheckerMove]]:
    """The turn, the node the steps ``done`` lead to, and those steps as played."""
    turn = _turn(variant, generator, board, on_roll, high, low)
    n = turn.root
    played: list[CheckerMove] = []
    for i, (f, t, die) in enumerate(done):
        for step, n in _match(turn, n, f, t, die, i):
            played.append(step)
    return turn, n, played


def _combined(variant: type[Variant], generator: object, board: Board, on_roll: Side, high: int, low: int,
              done: tuple[tuple[int, int, int], ...]) -> tuple[CombinedStep, ...]:
    """:attr:`StepState.combined` of the analysis :func:`_analysed` made of these arguments."""
    turn, n, _ = _walked(variant, generator, board, on_roll, high, low, done)
    return tuple(turn.combined(n))


def clear_cache() -> None:
    """Forget every kept turn and analysis (tests compare answers with and without them)."""
    _analysed.cache_clear()
    with _turns_lock:
        _turns.clear()


def _where(point: int) -> str:
    return "bar" if point == BAR else "off" if point == 0 else str(point)


def _refuse_drag(turn: _Turn, board: Board, f: int, t: int, pool: tuple[int, ...], text: str) -> None:
    """A step of several dice (a drag, 24/12 with 3-3) that breaks a rule on its way: that rule,
    as ApplyMove names it for the leg written as a move (R4-R14)."""
    problem = legality.leg_problem(board, f, t, pool, text, turn.variant)
    if problem is not None:
        raise IllegalMoveError(*problem)


def _match(turn: _Turn, n: _Node, f: int, t: int, die: int, i: int) -> tuple[tuple[CheckerMove, _Node], ...]:
    """The legal step (or one checker's legal steps) the step ``i`` from ``f`` to ``t`` (with
    ``die``, 0 when not given) names, each with the node it leads to, or why there is none."""
    board, pool, depth = n.board, n.pool, n.depth
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
    if turn.done(n):
        if not dice:
            _refuse_drag(turn, board, f, t, pool, text)
        problem = turn.variant.step_problem(list(board), f, dice[0]) if dice else None
        if problem is not None:  # e.g. a checker moved while one waits on the bar after "gele"
            raise IllegalMoveError(problem[0], f"{text} with a {dice[0]}: {problem[1]}")
        raise IllegalMoveError(R.WRONG_DICE, f"{text}: the move is already complete with {depth} "
                                             f"dice; no more can be played (R7)")
    regular = turn.regular_next(n)
    fits = [(s, c) for s, c in regular if s[0] == f and s[1] == t and s[2] in dice]
    # Two dice that both bear off this checker: it stands highest (R12), so the die left bears
    # off or moves the same checkers either way and the final positions are the same; the first,
    # the larger, is taken (R7).
    if not fits:  # the same final position with fewer dice (R15: the game ends the same)
        fits = [(s, c) for s, c in turn.shortcuts(n) if s[0] == f and s[1] == t and s[2] in dice]
    if fits:
        return (fits[0],)
    routes = [c for c in turn.combined(n) if c.from_point == f and c.to_point == t]
    if routes:
        return turn.follow(n, _route(routes, text))
    if not dice:
        _refuse_drag(turn, board, f, t, pool, text)
        left = "-".join(map(str, pool))
        raise IllegalMoveError(R.WRONG_DICE, f"{text}: no die left ({left}) or dice in turn move a "
                                             f"checker {_where(f)}/{_where(t)}")
    d = dice[0]
    problem = turn.variant.step_problem(list(board), f, d)
    if problem is not None:
        raise IllegalMoveError(problem[0], f"{text} with a {d}: {problem[1]}")
    # A legal single step that no legal move starts with: a rule of the whole turn (long nardy's
    # head rule with a plain roll), else R7. Not with a double: there every legal step starts a
    # play of the most dice (a step never stops another checker's steps).
    after = list(board)
    turn.variant.play(after, f, d)
    turn_rule = turn.variant.turn_refusal(tuple(after), turn.pool[0], turn.pool[-1])
    if turn_rule is not None:
        raise IllegalMoveError(turn_rule[0], f"{text} with a {d}: {turn_rule[1]}")
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
