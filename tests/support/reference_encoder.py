"""The straightforward protobuf builder of ListLegalMoves answers: one message object per field.

The server built its answers this way before :mod:`tavla.server.convert.wire`; tests/server/test_wire.py checks
that the wire encoder gives the very same bytes, and bench/bench_encode.py times both.
"""

from __future__ import annotations

from tavla import core
from tavla.core import Position, Side, SideView
from tavla.server.convert import common as convert
from tavla.server.convert import ids as convert_ids
import rpc_api as api
from tavla.v1 import types_pb2 as pb


def side(view: SideView) -> pb.SideCheckers:
    return pb.SideCheckers(points=view.points, bar=view.bar, borne_off=view.off, pip_count=view.pip_count)


def position(pos: Position) -> pb.Position:
    pid = core.position_id.encode(pos)
    gnubg_id, xgid = convert_ids.position_ids(pos, pid)
    return pb.Position(
        on_roll=convert.side_to_proto(pos.on_roll),
        board=pb.Board(white=side(pos.side(Side.WHITE)), black=side(pos.side(Side.BLACK))),
        ids=pb.PositionIds(position_id=pid, gnubg_id=gnubg_id, xgid=xgid),
    )


def move(m: core.Move) -> pb.Move:
    return pb.Move(
        notation=m.notation,
        checker_moves=[convert.checker_move_to_proto(s) for s in m.steps],
        result=position(m.result),
    )


def response(moves: list[core.Move], basic: bool = False) -> bytes:
    """The serialized ListLegalMovesResponse; ``basic``: MOVE_VIEW_BASIC's fields only."""
    encoded = [move(m) for m in moves]
    if basic:
        for m in encoded:
            m.ClearField("checker_moves")
            m.result.position_id = m.result.ids.position_id  # the ID in place of the board
            m.result.ClearField("ids")
    return api.ListLegalMovesResponse(moves=encoded, dice_used=moves[0].dice_used).SerializeToString()
