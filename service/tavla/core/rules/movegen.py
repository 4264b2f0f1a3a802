"""Legal move generation (R4-R14 of RULES.md), the hot path of the engine, for any variant.

The search is written once; what a variant's checkers may do comes from its hooks
(:mod:`tavla.core.rules.variant`): the single-step rule ``sources``, ``play``/``unplay`` applying a
step on a mutable list, ``outside_count`` and ``home`` for bearing off, ``turn_rule`` for a rule of
a plain roll's play as a whole (checked on each candidate before the dice are counted),
``turn_filter`` for R7 (as many dice as possible, else the larger die).
Results are keyed by the resulting board so two orders of the same checkers are one move.
Candidates are generated depth-first; the turn filter runs over the finished candidates.

A variant may carry a compiled generator (``variant.compiled_generate``, installed onto the
backgammon-geometry variants by the server's ``MoveGenerator.install`` at start-up, or by
:func:`use_accelerator` in a library): :func:`generate` calls it first, :func:`generate_python` is
the pure search it must agree with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.position import BAR, Board
from tavla.core.rules.variant import StepsFn, Variant


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

Generated = tuple[int, dict[Board, tuple[CheckerMove, ...]]]
"""What :func:`generate` returns: (dice used, {resulting board: step sequence})."""


def use_compiled(implementation: Callable[[Board, int, int], Generated] | None,
                 variant: type[Variant] = Backgammon, steps: StepsFn | None = None) -> None:
    """Make :func:`generate` call ``implementation`` first for ``variant`` and the subclasses
    that move as it does (``None``: the pure-Python generator alone): it sets
    ``variant.compiled_generate``. ``implementation(board, d1, d2)`` must return what
    :func:`generate_python` returns, or raise ValueError to hand the call to it. ``steps``, the
    compiled turn analysis of the same rules (``tavla_accel.turn_steps``), sets
    ``variant.compiled_steps`` (:mod:`tavla.core.rules.steps` answers with it). The core never
    calls this itself: the server's ``tavla.server.api.generator`` does at start-up, or
    :func:`use_accelerator` in a library."""
    variant.compiled_generate = implementation
    variant.compiled_steps = steps if implementation is not None else None


def use_accelerator() -> bool:
    """Make :func:`generate` call the compiled generator, the extension ``tavla_accel`` (built by
    the tavla-rules install when cargo is there; docs/library.md), for backgammon and every variant
    that moves as it does, when it is installed. For a library: the server installs it itself
    (``tavla.server.api.generator``, under ``TAVLA_ACCEL``). Only this call imports the extension.

    :returns: ``True`` when the extension is installed and now in use; ``False`` (nothing
        changed: the pure-Python generator, same answers) when it is not.
    """
    try:
        import tavla_accel
    except ImportError:
        return False
    tavla_accel.set_checker_move(CheckerMove)
    use_compiled(tavla_accel.generate, steps=tavla_accel.turn_steps)
    return True


def generate(board: Board, d1: int, d2: int, variant: type[Variant] = Backgammon) -> Generated:
    """All legal plays of dice ``d1``, ``d2`` (1-6) from ``board``, side on roll moving, by the
    rules of ``variant``: its compiled generator's answer when it has one
    (``variant.compiled_generate``), else (or when that refuses the call with ValueError)
    :func:`generate_python`'s, which is the same.
    """
    compiled = variant.compiled_generate
    if compiled is not None:
        try:
            return compiled(board, d1, d2)
        except ValueError:
            pass
    return generate_python(board, d1, d2, variant)


def generate_python(board: Board, d1: int, d2: int, variant: type[Variant] = Backgammon) -> Generated:
    """All legal plays of dice ``d1``, ``d2`` (1-6) from ``board``, side on roll moving, by the
    rules of ``variant`` (its single-step rule ``sources``, ``play``, ``unplay`` and turn filter).

    :returns: (dice used, {resulting board: one step sequence reaching it, the larger die tried
        first whatever the order of ``d1``, ``d2``}); the resulting board
        is still in the mover's view. When nothing can be played the dict holds the unchanged
        board with an empty sequence, so it is never empty.
    """
    # larger die first, so a move's dice do not depend on the order given (R7)
    d1, d2 = max(d1, d2), min(d1, d2)
    sources, play, unplay, home = variant.sources, variant.play, variant.unplay, variant.home
    b = list(board)
    out = variant.outside_count(b)
    results: dict[Board, tuple[CheckerMove, ...]] = {}
    if d1 == d2:
        dice = variant.dice_to_play(d1, d2)  # the turn hook: how many times the double plays
        # unordered: every order is tried, each (board, dice left) once (a transposition's
        # subtree adds nothing new)
        seen: set[tuple[Board, int]] | None = None if variant.ordered_doubles else set()
        best = _doubles(b, d1, len(dice), BAR, out, [], results, 0, (sources, play, unplay, home, seen))
    else:
        best = 0
        allows = variant.turn_rule  # a rule of the whole turn (long nardy's head rule), or None
        for da, db in ((d1, d2), (d2, d1)):
            for f in sources(b, da, out):
                t, hit = play(b, f, da)
                out_a = out - 1 if f > home >= t else out
                s1 = _new(CheckerMove, (f, t, da, hit))
                both = False
                for g in sources(b, db, out_a):
                    u, hit2 = play(b, g, db)
                    # a play the turn's rule forbids does not count as using both dice (R7):
                    # the dice it would use may still be played another way, or one alone
                    if allows is None or allows(b):
                        both = True
                        if best < 2:
                            best = 2
                            results.clear()
                        key = tuple(b)
                        if key not in results:
                            results[key] = (s1, _new(CheckerMove, (g, u, db, hit2)))
                    unplay(b, g, u, hit2)
                if not both and best < 2 and (allows is None or allows(b)):
                    best = 1
                    key = tuple(b)
                    if key not in results:
                        results[key] = (s1,)
                unplay(b, f, t, hit)
        # R7 (the variant's turn filter): if either die but not both can be played, the larger
        # one must be; a board both dice reach alone (the last checker borne off) was stored
        # with the larger, tried first
        results = variant.turn_filter(best, results, d1, d2)
    if best == 0:
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
    rules: tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any], int, set[tuple[Board, int]] | None],
) -> int:
    """Depth-first search of a double (R6): with the variant's ``ordered_doubles`` sources never
    increase, so each set is tried once; without it (a rule by which a lower checker's step can
    open one for a higher: fevga's start rule, the prime rule) every order is tried, each board
    with the same dice left once (``seen``: a board reached again has the same plays below it).

    ``rules`` are the variant's ``sources``, ``play``, ``unplay``, ``home`` and ``seen`` (``None``
    when ordered), looked up once per roll. Returns the most dice used so far; ``results`` keeps
    only plays using that many.
    """
    sources, play, unplay, home, seen = rules
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
            if best < len(steps):
                results.clear()
                best = len(steps)
            key = tuple(b)
            if key not in results:
                results[key] = tuple(steps)
        else:
            if seen is None:
                best = _doubles(b, die, left - 1, f, out - 1 if f > home >= t else out, steps, results, best, rules)
            else:
                node = (tuple(b), left)
                if node not in seen:
                    seen.add(node)
                    best = _doubles(b, die, left - 1, BAR, out - 1 if f > home >= t else out, steps, results, best,
                                    rules)
        steps.pop()
        unplay(b, f, t, hit)
    return best
