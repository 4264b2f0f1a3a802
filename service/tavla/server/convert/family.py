"""Positions and moves of plakoto, fevga and long nardy to and from messages (docs/variants.md).

Their boards (28 ints, :mod:`tavla.core.rules.geometry`) have no GNU Backgammon IDs, so they
are written with the protobuf classes rather than :mod:`tavla.server.convert.wire`'s byte
encoders: each side's ``SideCheckers`` with its ``pinned`` points, and ``ids.family_id``
(:mod:`tavla.core.ids.family_id`) in place of the three GNU IDs.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla import core
from tavla.core import Position, Side
from tavla.core.ids import family_id
from tavla.core.rules.geometry import SIZE as BOARD_SIZE
from tavla.core.rules.variant import Variant
from tavla.server.convert import wire
from tavla.server.convert.enums import SIDES
from tavla.v1 import types_pb2 as pb

__all__ = ["BOARD_SIZE", "move_to_proto", "moves_to_wire", "position_from_id", "position_to_proto"]


def _side(position: Position, side: Side) -> pb.SideCheckers:
    view = position.side(side)
    return pb.SideCheckers(points=view.points, bar=view.bar, borne_off=view.off, pip_count=view.pip_count,
                           pinned=view.pinned)


def position_to_proto(position: Position, view: int = wire.FULL) -> pb.Position:
    """A ``Position``: ``on_roll``, the board with pip counts and pinned points, ``ids.family_id``;
    under MOVE_VIEW_BASIC ``on_roll`` and ``family_id`` (the oneof's ID member) only."""
    on_roll = SIDES.to_proto(position.on_roll)
    text = family_id.encode(position)
    if view == wire.BASIC:
        return pb.Position(on_roll=on_roll, family_id=text)
    return pb.Position(on_roll=on_roll,
                       board=pb.Board(white=_side(position, Side.WHITE), black=_side(position, Side.BLACK)),
                       ids=pb.PositionIds(family_id=text))


def move_to_proto(move: core.Move, view: int = wire.FULL) -> pb.Move:
    """A ``Move``: notation (a pin written as a hit, ``13/7*``), checker moves (``hit`` set on a
    pin) and the result, the opponent on roll."""
    msg = pb.Move(notation=move.notation, result=position_to_proto(move.result, view))
    if view != wire.BASIC:
        msg.checker_moves.extend(pb.CheckerMove(from_point=s[0], to_point=s[1], die=s[2], hit=s[3])
                                 for s in move.steps)
    return msg


def moves_to_wire(moves: Sequence[core.Move], view: int = wire.FULL) -> bytes:
    """The serialized repeated ``moves`` field (number 1) of a ListLegalMovesResponse."""
    return b"".join(wire._field(b"\x0a", move_to_proto(m, view).SerializeToString()) for m in moves)


def position_from_id(msg: pb.Position, variant: type[Variant]) -> Position:
    """The position of ``msg.family_id`` with ``msg.on_roll`` (required) on roll.

    :raises InvalidInputError: ``on_roll`` unset or unknown (``position.on_roll``), a bad ID
        (``position.family_id``).
    """
    on_roll = SIDES.from_proto(msg.on_roll, "position.on_roll")
    return family_id.decode(msg.family_id, on_roll, variant)
