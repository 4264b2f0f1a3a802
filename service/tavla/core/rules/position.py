"""Immutable positions (R1, R2 of RULES.md).

A position is a board, the side on roll and the variant it is a position of
(:mod:`tavla.core.rules.variant`; default :class:`~tavla.core.rules.backgammon.Backgammon`). The variant
says what the board means; for the backgammon geometry (backgammon, tavla) it is one tuple of 26
ints seen from the side on roll, which keeps move generation a matter of list indexing:

* ``board[p]`` for ``p`` in 1..24: ``> 0`` checkers of the side on roll on its point ``p``;
  ``< 0`` checkers of the opponent there (the opponent's point ``25 - p``).
* ``board[25]``: checkers of the side on roll on the bar (``>= 0``).
* ``board[0]``: minus the opponent's checkers on the bar (``<= 0``).

Borne-off checkers are not stored: each side has ``variant.checkers`` and the rest are off.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tavla.core.rules.backgammon import BAR, OFF, POINTS, Backgammon, flip_board, side_counts
from tavla.core.errors import InvalidInputError
from tavla.core.rules.variant import Board, Variant

CHECKERS = Backgammon.checkers  # 15: backgammon's; a variant's own is ``variant.checkers``
__all__ = ["BAR", "CHECKERS", "OFF", "POINTS", "Board", "Position", "Side", "SideView", "flip_board",
           "side_counts"]


class Side(enum.IntEnum):
    """The two sides. A frontend maps them to colours and players."""

    WHITE = 1
    BLACK = 2

    @property
    def other(self) -> "Side":
        return Side.BLACK if self is Side.WHITE else Side.WHITE


@dataclass(frozen=True, slots=True)
class SideView:
    """One side's checkers in its own numbering (R1).

    :ivar points: 24 counts; ``points[0]`` is the side's point 1 (its home), ``points[23]`` its 24.
    :ivar bar: checkers on the bar.
    :ivar off: checkers borne off.
    :ivar pinned: the points (this side's numbering) where one of its checkers is pinned under
        an opposing checker (plakoto); included in ``points``. Empty in other variants.
    """

    points: tuple[int, ...]
    bar: int
    off: int
    pinned: tuple[int, ...] = ()

    @property
    def pip_count(self) -> int:
        """Pips this side needs to bear off everything: a bar checker counts 25."""
        return sum(n * (i + 1) for i, n in enumerate(self.points)) + 25 * self.bar


@dataclass(frozen=True, slots=True)
class Position:
    """A position: where every checker is, which side is on roll, and of which variant. Immutable.

    Build one with :meth:`initial`, :meth:`from_sides` or :func:`tavla.core.ids.position_id.decode`;
    the constructor takes the internal board (see the module docstring) and does not validate.

    :ivar variant: the variant class (:mod:`tavla.core.rules.variant`) whose rules the position is
        played by. Not part of equality: backgammon and tavla share one board, so the same
        checkers are the same position in either.
    """

    board: Board
    on_roll: Side = Side.WHITE
    variant: type[Variant] = field(default=Backgammon, compare=False)

    @classmethod
    def initial(cls, on_roll: Side = Side.WHITE, variant: type[Variant] = Backgammon) -> "Position":
        """The starting position of ``variant`` (R2 for backgammon: 2 on 24, 5 on 13, 3 on 8,
        5 on 6 for each side)."""
        return cls(variant.initial_board(), on_roll, variant)

    @classmethod
    def from_sides(cls, on_roll: Side, white: SideView, black: SideView,
                   variant: type[Variant] = Backgammon) -> "Position":
        """Build and validate a position of ``variant`` from each side's own view.

        :raises InvalidInputError: a count is negative, a side does not have the variant's
            number of checkers (15) in all, or both sides have checkers on one point.
        """
        views = {Side.WHITE: white, Side.BLACK: black}
        for side, view in views.items():
            _check_view(side, view, variant.checkers)
            if view.pinned and variant.contact.value != "pin":
                raise InvalidInputError(f"position.board.{side.name.lower()}.pinned",
                                        f"variant {variant.name!r} does not pin checkers")
        n = variant.checkers
        if white.off == n and black.off == n:
            raise InvalidInputError("position.board", f"both sides have borne off all {n} checkers")
        board = variant.board_from_sides(on_roll, views[on_roll], views[on_roll.other])
        return cls(board, on_roll, variant)

    def side(self, side: Side) -> SideView:
        """The checkers of ``side`` in its own numbering."""
        variant = self.variant
        mine = side is self.on_roll
        counts = variant.side_counts(self.board, mine)
        return SideView(tuple(counts[:24]), counts[24], variant.checkers - sum(counts),
                        variant.side_pinned(self.board, mine))

    def swap_turn(self) -> "Position":
        """The same checkers with the other side on roll."""
        return Position(self.variant.flip(self.board), self.on_roll.other, self.variant)

    def borne_off(self, side: Side) -> int:
        """Checkers ``side`` has borne off."""
        return self.side(side).off

    def pip_count(self, side: Side) -> int:
        """Pip count of ``side``."""
        return self.side(side).pip_count

    @property
    def drawn(self) -> bool:
        """Whether the game is over as a draw (plakoto: both mothers pinned;
        :meth:`Variant.drawn <tavla.core.rules.variant.Variant.drawn>`)."""
        return self.variant.drawn(self)

    @property
    def winner(self) -> Side | None:
        """The side that has won as the checkers stand (R15: borne off all its checkers;
        :meth:`Variant.winner <tavla.core.rules.variant.Variant.winner>`), or ``None`` while the game
        goes on."""
        return self.variant.winner(self)


def _check_view(side: Side, view: SideView, checkers: int = CHECKERS) -> None:
    field = f"position.board.{side.name.lower()}"
    if len(view.points) != POINTS:
        raise InvalidInputError(f"{field}.points", f"needs 24 counts, got {len(view.points)}")
    for i, n in enumerate(view.points):
        if n < 0:
            raise InvalidInputError(f"{field}.points", f"point {i + 1} has {n} checkers")
    if view.bar < 0:
        raise InvalidInputError(f"{field}.bar", f"negative count {view.bar}")
    if view.off < 0:
        raise InvalidInputError(f"{field}.borne_off", f"negative count {view.off}")
    total = sum(view.points) + view.bar + view.off
    if total != checkers:
        raise InvalidInputError(
            field, f"has {total} checkers on points, bar and off; each side has exactly {checkers} (R1)"
        )
