"""Long nardy (Russian "длинные нарды"), uzun nard (Turkish), narde (variants-rules.md).

All 15 checkers start on the own 24, the **head**; both sides move the same way; no hitting,
no bar, a single checker holds a point (:mod:`tavla.core.rules.same_direction`). **Ours**:

* the head rule: one checker may leave the head per turn, except on a side's first throw (all
  15 still on the head), where 6-6, 4-4 and 3-3 take two off it (3-3: the ruleset option
  ``head_three_three``, on by default). On the first throw 6-6 plays 24/18(2) (the opponent's
  head on the mover's 12 blocks the other sixes), 4-4 plays 24/16(2);
* the six-block rule: six consecutive points held only with an opposing checker past them,
  checked on the board after every step (the prime rule of :mod:`~tavla.core.rules.same_direction`);
* standard bear-off (R11, R12); oin (single) 1, mars (the loser has borne off nothing) 2; koks
  3 (the loser has borne off nothing and still has a checker in the winner's starting quarter,
  the winner's 19-24) is the ruleset option ``koks``, off by default. No cube.

The head rule needs what the turn has done so far: ``board[26]`` counts the checkers that have
left the head this turn (:mod:`tavla.core.rules.geometry`); it is 0 between turns. The two-off
exception is asked of a die in :meth:`LongNardy.sources`; that the roll is a double, which a
single step does not know, is the turn rule's (``LongNardy.turn_rule``: a plain roll's plays
that take two off the head are not plays). The generator drops them before R7 counts the dice,
so a first plain throw that one checker cannot play with both dice plays one die, the larger
if it can (R7: white's 6-2 with black's runner on white's 16 plays 24/18 alone).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, ClassVar

from tavla.core.errors import IllegalReason
from tavla.core.rules.geometry import SLOT_A, held_mask, lead
from tavla.core.rules.same_direction import HEAD, SameDirection, plain_step, prime_after
from tavla.core.rules.variant import Board, ResultKind, Variant, register

if TYPE_CHECKING:
    from tavla.core.rules.position import Position, Side

R = IllegalReason
TAKEN = SLOT_A  # checkers that have left the head this turn


def _make_sources(doubles: frozenset[int]):  # type: ignore[no-untyped-def]
    def sources(b: list[int], die: int, outside: int, top: int = 24, bottom: int = 1) -> list[int]:
        """The single-step rule of long nardy: the head rule, an open or own point, the
        six-block rule after the step, standard bear-off (R11, R12)."""
        taken = b[TAKEN]
        head_ok = not taken or (taken == 1 and b[HEAD] == 14 and die in doubles)
        mask0, lead_q = held_mask(b), lead(b)
        found = []
        for f in range(min(top, 24), bottom - 1, -1):
            if b[f] > 0:
                if f == HEAD and not head_ok:
                    continue
                t = f - die
                if not plain_step(b, f, t, outside):
                    continue
                if prime_after(b, f, t, mask0, lead_q):
                    continue
                found.append(f)
        return found

    return staticmethod(sources)


def _one_off_head(b: list[int]) -> bool:
    """The head rule for a plain roll: at most one checker has left the head this turn."""
    return b[TAKEN] < 2


class LongNardy(SameDirection):
    """Long nardy, uzun nard, narde: the head rule and the six-block rule."""

    name = "long_nardy"
    aliases: ClassVar[tuple[str, ...]] = ("uzun_nard", "narde", "long_narde")
    title = "Long nardy"
    title_tr: ClassVar[str] = "Uzun nard"
    kind_names = {ResultKind.SINGLE: "oin", ResultKind.GAMMON: "mars", ResultKind.BACKGAMMON: "koks"}
    head_doubles: ClassVar[frozenset[int]] = frozenset({6, 4, 3})
    koks: ClassVar[bool] = False
    options = {"head_three_three": True, "koks": False}
    preset_aliases = ("uzun_nard", "narde")
    description = ("Long nardy (Turkish uzun nard): both sides move the same way from their heads, one "
                   "checker off the head per turn (two with 6-6, 4-4, 3-3 on the first throw), no six "
                   "points in a row unless an opposing checker is past them; oin 1, mars 2, no cube.")
    sources = _make_sources(frozenset({6, 4, 3}))
    turn_rule = _one_off_head  # read from the class, never bound (a variant is never instantiated)

    @staticmethod
    def play(b: list[int], f: int, die: int) -> tuple[int, bool]:
        t = f - die
        b[f] -= 1
        if f == HEAD:
            b[TAKEN] += 1
        if t <= 0:
            return 0, False
        b[t] += 1
        return t, False

    @staticmethod
    def unplay(b: list[int], f: int, t: int, hit: bool) -> None:
        b[f] += 1
        if f == HEAD:
            b[TAKEN] -= 1
        if t:
            b[t] -= 1

    @classmethod
    def rule_refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str] | None:
        if f == HEAD and b[TAKEN]:
            return (R.NO_CHECKER_THERE, "one checker leaves the head per turn (two only with 6-6, 4-4"
                                        + (" or 3-3" if 3 in cls.head_doubles else "") + " on the first throw)")
        return None

    @classmethod
    def turn_refusal(cls, board: Board, d1: int, d2: int) -> tuple[IllegalReason, str] | None:
        if d1 != d2 and board[TAKEN] >= 2:
            return (R.NO_CHECKER_THERE, "one checker leaves the head per turn; two only with a double "
                                        "(6-6, 4-4" + (" or 3-3" if 3 in cls.head_doubles else "") + ") on the first throw")
        return None

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        """Oin (single, 1) if the loser has borne off a checker, else mars (gammon, 2); with the
        ``koks`` option, koks (3, kind ``BACKGAMMON``) when the mars loser still has a checker in
        the winner's starting quarter (the winner's 19-24: the loser's 7-12)."""
        loser = position.side(winner.other)
        if loser.off:
            return ResultKind.SINGLE
        if cls.koks and any(loser.points[6:12]):
            return ResultKind.BACKGAMMON
        return ResultKind.GAMMON

    @classmethod
    def configured(cls, ruleset: object) -> type[Variant]:
        three = getattr(ruleset, "head_three_three", True)
        koks = getattr(ruleset, "koks", False)
        return cls if three and not koks else _options(three, koks)


@cache
def _options(three: bool, koks_on: bool) -> type[LongNardy]:
    doubles = frozenset({6, 4, 3} if three else {6, 4})

    class LongNardyOptions(LongNardy):
        """Long nardy with its ruleset options (``head_three_three``, ``koks``)."""

        head_doubles = doubles
        koks = koks_on
        kinds = (ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON) if koks_on else LongNardy.kinds
        sources = _make_sources(doubles)

    LongNardyOptions.__name__ = LongNardyOptions.__qualname__ = f"LongNardy{'' if three else 'No33'}{'Koks' if koks_on else ''}"
    return LongNardyOptions


register(LongNardy)
