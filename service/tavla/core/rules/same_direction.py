"""What fevga and long nardy share: both sides move the same way round the board, a single
checker holds a point, there is no hitting and no bar (variants-rules.md).

The board: :mod:`tavla.core.rules.geometry` (28 ints from the mover's view; the mover's point
``p`` is the opponent's ``((p + 11) mod 24) + 1``). All 15 checkers start on the own 24 (the
**head**), so the two heads are the mover's 24 and 12. Bear-off is backgammon's (R11, R12);
1 point, 2 when the loser has borne off nothing (mars); no cube.

**The prime rule** both variants play (fevga's "a prime must be opened when all the opponent's
checkers are behind it", long nardy's "six consecutive points only if an opposing checker is
already past them"): no step may end with the mover holding six consecutive points, consecutive
on the **opponent's** way round (the mover's 1 and 24 are neighbours there), unless an opposing
checker stands past the six. It is checked on the board after every step, so a step that keeps
such a prime is refused too (the prime must be opened).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tavla.core.errors import IllegalReason, InvalidInputError
from tavla.core.rules.geometry import OPP_BIT, SIZE, counts_same, flip_same, held_mask, lead, same_point, traps, where
from tavla.core.rules.variant import FAMILY_ID, Board, Contact, Direction, ResultKind, Variant, bear_off_refusal, bears_off

if TYPE_CHECKING:
    from tavla.core.rules.position import Position, Side, SideView

R = IllegalReason
HEAD = 24


def prime_after(b: list[int], f: int, t: int, mask: int, lead_q: int) -> bool:
    """The prime rule: whether the mover would hold a trapping prime after moving one checker
    ``f`` -> ``t`` (``t`` <= 0: borne off). ``mask`` and ``lead_q`` are :func:`held_mask` and
    :func:`lead` of ``b``, which the caller computes once for all the steps of a board."""
    if b[f] == 1:
        mask &= ~OPP_BIT[f]
    if t > 0:
        mask |= OPP_BIT[t]
    return traps(mask, lead_q)


class SameDirection(Variant):
    """The shared geometry and bear-off of fevga and long nardy (not registered)."""

    start = ((24, 15),)
    direction = Direction.SAME
    contact = Contact.NONE
    bar = False
    cube = False
    kinds: ClassVar[tuple[ResultKind, ...]] = (ResultKind.SINGLE, ResultKind.GAMMON)
    codecs: ClassVar[dict[str, str]] = {FAMILY_ID: "tavla.core.ids.family_id"}
    prime_rule: ClassVar[bool] = True  # the prime rule above (fevga: an option, on by default)
    # a lower checker's step can make a higher one's legal (the start rule, the quarter block,
    # the prime rule): a double's steps are tried in every order
    ordered_doubles = False

    @classmethod
    def initial_board(cls) -> Board:
        b = [0] * SIZE
        b[24], b[12] = 15, -15
        return tuple(b)

    flip = staticmethod(flip_same)
    side_counts = staticmethod(counts_same)

    @classmethod
    def board_from_sides(cls, on_roll: Side, mine: SideView, theirs: SideView) -> Board:
        me, them = on_roll.name.lower(), on_roll.other.name.lower()
        for side, view in ((me, mine), (them, theirs)):
            if view.bar:
                raise InvalidInputError(f"position.board.{side}.bar", f"{cls.name} has no bar")
        b = [0] * SIZE
        for p in range(1, 25):
            q = same_point(p)
            m, t = mine.points[p - 1], theirs.points[q - 1]
            if m and t:
                raise InvalidInputError(f"position.board.{me}.points",
                                        f"point {p} of {me} (point {q} of {them}) holds checkers of both sides")
            b[p] = m - t
        return tuple(b)

    @staticmethod
    def outside_count(b: list[int] | Board) -> int:
        """The mover's checkers on points 7-24 (R11)."""
        return sum([n for n in b[7:25] if n > 0])

    @staticmethod
    def play(b: list[int], f: int, die: int) -> tuple[int, bool]:
        """One checker from ``f`` by ``die``: no hitting in this family (a single checker holds
        its point), so never a hit; ``(0, False)`` when it bears off."""
        t = f - die
        b[f] -= 1
        if t <= 0:
            return 0, False
        b[t] += 1
        return t, False

    @staticmethod
    def unplay(b: list[int], f: int, t: int, hit: bool) -> None:
        b[f] += 1
        if t:
            b[t] -= 1

    @classmethod
    def refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str]:
        if not 1 <= f <= 24 or b[f] <= 0:
            return R.NO_CHECKER_THERE, f"no checker of the side on roll on {where(f)} (R4)"
        t = f - die
        if t > 0 and b[t] < 0:
            return R.POINT_BLOCKED, f"point {t} is held by an opposing checker (a single checker holds a point)"
        if t <= 0 and not bears_off(b, f, die, cls.outside_count(b)):
            return bear_off_refusal(b, f, die, cls.outside_count(b))
        special = cls.rule_refusal(b, f, die)
        if special is not None:
            return special
        return (R.POINT_BLOCKED, "the step would leave six points in a row held with no opposing "
                                 "checker past them (the prime rule)")

    @classmethod
    def rule_refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str] | None:
        """The variant's own clause that stops a step (start rule, head rule, ...), else None."""
        return None

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        """Single (oin) if the loser has borne off a checker, else gammon (mars), 2 points."""
        return ResultKind.SINGLE if position.side(winner.other).off else ResultKind.GAMMON


def plain_step(b: list[int], f: int, t: int, outside: int) -> bool:
    """The clauses both variants share for a checker on ``f`` (``b[f] > 0``) going to ``t``
    (``t`` <= 0: bearing off): an open or own point; bearing off all home, exact or from the
    highest point (R11, R12)."""
    if t > 0:
        return b[t] >= 0
    return bears_off(b, f, f - t, outside)
