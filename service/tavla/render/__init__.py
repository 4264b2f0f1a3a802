"""Pictures of a position: an SVG board (:mod:`tavla.render.svg`) and a text board
(:mod:`tavla.render.text`), both laid out by :class:`BoardPicture`. Pure Python, no gRPC.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core import MatchState, Position, Side
from tavla.core.rules.variant import Direction

__all__ = ["BoardPicture", "Slot"]


@dataclass(frozen=True, slots=True)
class Slot:
    """One point as drawn.

    :ivar column: 0-11 from the left, 0-5 left of the bar.
    :ivar top: in the top row.
    :ivar label: the point's number from the side on roll's view (1-24).
    :ivar count: checkers on it (on top of a pinned one: the pinning stack).
    :ivar side: whose checkers; ``None`` when empty.
    :ivar pinned: plakoto: the side whose one checker lies pinned beneath them, else ``None``.
    """

    column: int
    top: bool
    label: int
    count: int
    side: Side | None
    pinned: Side | None = None


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """What to draw and how.

    :ivar position: the checkers and the side on roll.
    :ivar match: the match (score, length, Crawford, cube); ``None`` for money play, cube centred.
    :ivar dice: the roll of the side on roll, or ``None``.
    :ivar bottom: the side at the bottom, moving anticlockwise; ``None`` means the side on roll.
    :ivar home_left: the bottom side's home board on the left instead of the right.
    """

    position: Position
    match: MatchState | None = None
    dice: tuple[int, int] | None = None
    bottom: Side | None = None
    home_left: bool = False

    @property
    def bottom_side(self) -> Side:
        return self.bottom or self.position.on_roll

    @property
    def top_side(self) -> Side:
        return self.bottom_side.other

    def score(self, side: Side) -> str:
        """``side``'s score as drawn: ``3/7`` in a match, ``3`` in a money session with points
        won, ``""`` when none is shown."""
        match = self.match
        if match is None or not (match.length or any(match.scores)):
            return ""
        return f"{match.score(side)}/{match.length}" if match.length else str(match.score(side))

    def bottom_point(self, column: int, top: bool) -> int:
        """The bottom side's number (1-24) of the point drawn at ``column`` (0-11) in a row."""
        if self.home_left:
            return 24 - column if top else 1 + column
        return 13 + column if top else 12 - column

    def slots(self) -> list[Slot]:
        """The 24 points, top row then bottom row, each left to right."""
        bottom, top_side = self.position.side(self.bottom_side), self.position.side(self.top_side)
        on_roll_is_bottom = self.position.on_roll is self.bottom_side
        same = self.position.variant.direction is Direction.SAME
        out = []
        for top in (True, False):
            for column in range(12):
                p = self.bottom_point(column, top)
                q = (p + 12 if p <= 12 else p - 12) if same else 25 - p  # the top side's number
                mine, theirs = bottom.points[p - 1], top_side.points[q - 1]
                label = p if on_roll_is_bottom else q
                if mine and theirs:  # plakoto: one checker pinned beneath the other side's
                    if p in bottom.pinned:
                        out.append(Slot(column, top, label, theirs, self.top_side, self.bottom_side))
                    else:
                        out.append(Slot(column, top, label, mine, self.bottom_side, self.top_side))
                elif mine:
                    out.append(Slot(column, top, label, mine, self.bottom_side))
                else:
                    out.append(Slot(column, top, label, theirs, self.top_side if theirs else None))
        return out

    @property
    def shows_direction(self) -> bool:
        """Whether the picture labels each side's direction: for the variants whose moves a
        backgammon player would not guess (plakoto, fevga, long nardy: no bar)."""
        return not self.position.variant.bar

    def home_on_left(self, side: Side) -> bool:
        """Whether ``side``'s home board (its points 1-6) is drawn left of the bar, where its
        borne-off tray then goes. The bottom side's is on the left only with ``home_left``; the
        top side's is in the row above it, the same side of the bar (its 1-6 are the bottom
        side's 19-24), unless both move the same way round (fevga, long nardy: its 1-6 are the
        bottom side's 13-18, the other side of the bar; docs/variants.md)."""
        if side is self.bottom_side:
            return self.home_left
        return self.home_left != (self.position.variant.direction is Direction.SAME)

    def clockwise(self, side: Side) -> bool:
        """Whether ``side`` travels clockwise as drawn (the bottom side never does; the top side
        does with opposite directions; ``home_left`` mirrors both)."""
        top = side is self.top_side and self.position.variant.direction is Direction.OPPOSITE
        return top != self.home_left
