"""Building test positions from point maps, each side in its own numbering (R1)."""

from __future__ import annotations

from tavla.core import CHECKERS, Position, Side, SideView


def view(points: dict[int, int], bar: int = 0) -> SideView:
    """A side with ``points`` ({point: checkers}), ``bar`` on the bar and the rest borne off."""
    counts = tuple(points.get(p, 0) for p in range(1, 25))
    return SideView(counts, bar, CHECKERS - sum(counts) - bar)


def position(mover: dict[int, int], other: dict[int, int], mover_bar: int = 0, other_bar: int = 0,
             on_roll: Side = Side.WHITE) -> Position:
    """White (or ``on_roll``) to move with ``mover``'s checkers; ``other`` is the opponent's."""
    me, opp = view(mover, mover_bar), view(other, other_bar)
    white, black = (me, opp) if on_roll is Side.WHITE else (opp, me)
    return Position.from_sides(on_roll, white, black)


def notations(moves) -> set[str]:
    return {m.notation for m in moves}
