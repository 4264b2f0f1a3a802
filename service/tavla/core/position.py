"""Immutable positions (R1, R2 of RULES.md).

Internally a position is one tuple of 26 ints seen from the side on roll, which keeps move
generation a matter of list indexing:

* ``board[p]`` for ``p`` in 1..24: ``> 0`` checkers of the side on roll on its point ``p``;
  ``< 0`` checkers of the opponent there (the opponent's point ``25 - p``).
* ``board[25]``: checkers of the side on roll on the bar (``>= 0``).
* ``board[0]``: minus the opponent's checkers on the bar (``<= 0``).

Borne-off checkers are not stored: each side has :data:`CHECKERS` and the rest are off.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass

from tavla.core.errors import InvalidInputError

CHECKERS = 15
POINTS = 24
BAR = 25  # index of the on-roll side's bar, and the "from" of an entering checker
OFF = 0  # the "to" of a checker borne off

Board = tuple[int, ...]


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
    """

    points: tuple[int, ...]
    bar: int
    off: int

    @property
    def pip_count(self) -> int:
        """Pips this side needs to bear off everything: a bar checker counts 25."""
        return sum(n * (i + 1) for i, n in enumerate(self.points)) + 25 * self.bar


# A board value as a signed byte -> the count of the side it belongs to, else 0 (for translate).
_MINE = bytes(range(128)) + bytes(128)
_THEIRS = bytes(129) + bytes(range(127, 0, -1))
_pack_board = struct.Struct("26b").pack


def side_counts(board: Board, on_roll: bool) -> bytes:
    """25 counts of one side in its own numbering, points 1..24 then the bar, as bytes.

    :param on_roll: the side on roll (else the other side). Byte operations rather than a Python
        loop: Position IDs and answers need this for every resulting position.
    """
    raw = _pack_board(*board)
    return raw[1:].translate(_MINE) if on_roll else raw[24::-1].translate(_THEIRS)


def flip_board(board: Board) -> Board:
    """The same board seen from the other side."""
    return tuple(-x for x in reversed(board))


@dataclass(frozen=True, slots=True)
class Position:
    """A position: where every checker is and which side is on roll. Immutable.

    Build one with :meth:`initial`, :meth:`from_sides` or :func:`tavla.core.position_id.decode`;
    the constructor takes the internal board (see the module docstring) and does not validate.
    """

    board: Board
    on_roll: Side = Side.WHITE

    @classmethod
    def initial(cls, on_roll: Side = Side.WHITE) -> "Position":
        """The starting position (R2): 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side."""
        b = [0] * 26
        for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            b[point] = n
            b[25 - point] = -n
        return cls(tuple(b), on_roll)

    @classmethod
    def from_sides(cls, on_roll: Side, white: SideView, black: SideView) -> "Position":
        """Build and validate a position from each side's own view.

        :raises InvalidInputError: a count is negative, a side does not have 15 checkers in all,
            or both sides have checkers on one point.
        """
        views = {Side.WHITE: white, Side.BLACK: black}
        for side, view in views.items():
            _check_view(side, view)
        if white.off == CHECKERS and black.off == CHECKERS:
            raise InvalidInputError("position.board", "both sides have borne off all 15 checkers")
        me, opp = views[on_roll], views[on_roll.other]
        b = [0] * 26
        for p in range(1, 25):
            mine, theirs = me.points[p - 1], opp.points[24 - p]
            if mine and theirs:
                raise InvalidInputError(
                    f"position.board.{on_roll.name.lower()}.points",
                    f"point {p} of {on_roll.name.lower()} (point {25 - p} of "
                    f"{on_roll.other.name.lower()}) holds checkers of both sides",
                )
            b[p] = mine - theirs
        b[BAR] = me.bar
        b[0] = -opp.bar
        return cls(tuple(b), on_roll)

    def side(self, side: Side) -> SideView:
        """The checkers of ``side`` in its own numbering."""
        counts = side_counts(self.board, side is self.on_roll)
        points = tuple(counts[:24])
        bar = counts[24]
        return SideView(points, bar, CHECKERS - sum(counts))

    def swap_turn(self) -> "Position":
        """The same checkers with the other side on roll."""
        return Position(flip_board(self.board), self.on_roll.other)

    def borne_off(self, side: Side) -> int:
        """Checkers ``side`` has borne off."""
        return self.side(side).off

    def pip_count(self, side: Side) -> int:
        """Pip count of ``side``."""
        return self.side(side).pip_count

    @property
    def winner(self) -> Side | None:
        """The side that has borne off all 15 (R15), or ``None`` while the game goes on."""
        if not any(side_counts(self.board, True)):
            return self.on_roll
        if not any(side_counts(self.board, False)):
            return self.on_roll.other
        return None


def _check_view(side: Side, view: SideView) -> None:
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
    if total != CHECKERS:
        raise InvalidInputError(
            field, f"has {total} checkers on points, bar and off; each side has exactly 15 (R1)"
        )
