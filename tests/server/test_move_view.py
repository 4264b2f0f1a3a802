"""ListLegalMoves' ``view`` (MoveView): the full answer by default, a lean one on request (R4-R14)."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import rpc_api as api
from tavla.v1 import types_pb2 as pb

TIMEOUT = 30  # seconds per call: generous, never a speed assertion
START_ID = "4HPwATDgc/ABMA"
AFTER_51_ID = "4PPgASjgc/ABMA"  # 24/23 13/8 from the start, black on roll


def list_moves(engine, view: int, dice=(5, 1)) -> api.ListLegalMovesResponse:
    request = api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID, on_roll=pb.SIDE_WHITE),
                                        dice=dice, view=view)
    return engine.ListLegalMoves(request, timeout=TIMEOUT)


def test_unspecified_is_the_full_answer(engine):
    unset = list_moves(engine, api.MOVE_VIEW_UNSPECIFIED)
    assert unset == list_moves(engine, api.MOVE_VIEW_FULL)
    move = {m.notation: m for m in unset.moves}["24/23 13/8"]
    assert sorted((c.from_point, c.to_point, c.die) for c in move.checker_moves) == [(13, 8, 5), (24, 23, 1)]
    assert move.result.ids.position_id == AFTER_51_ID
    assert move.result.WhichOneof("checkers") == "board"
    assert move.result.on_roll == pb.SIDE_BLACK
    assert move.result.board.white.pip_count == 161 and move.result.board.black.pip_count == 167


def test_basic_is_notation_and_result_id_only(engine):
    full = list_moves(engine, api.MOVE_VIEW_FULL, (6, 6))
    basic = list_moves(engine, api.MOVE_VIEW_BASIC, (6, 6))
    assert basic.dice_used == full.dice_used == 4
    assert len(basic.moves) == len(full.moves) > 1
    for lean, whole in zip(basic.moves, full.moves):  # same moves, same order
        assert lean.notation == whole.notation
        assert lean.result.position_id == whole.result.ids.position_id  # the oneof's ID, no ids
        assert lean.result.WhichOneof("checkers") == "position_id" and not lean.result.HasField("ids")
        assert lean.result.on_roll == whole.result.on_roll == pb.SIDE_BLACK
        assert not lean.checker_moves and not lean.result.HasField("board")
    assert basic.ByteSize() * 3 < full.ByteSize()


def test_basic_result_can_be_sent_back(engine):
    # the lean result (ID + on_roll) is a valid request position: black answers 24/23 13/8
    move = {m.notation: m for m in list_moves(engine, api.MOVE_VIEW_BASIC).moves}["24/23 13/8"]
    request = api.ListLegalMovesRequest(position=move.result, dice=(6, 5), view=api.MOVE_VIEW_BASIC)
    notations = {m.notation for m in engine.ListLegalMoves(request, timeout=TIMEOUT).moves}
    assert "24/13" in notations


def test_unknown_view_is_invalid_argument(engine):
    with pytest.raises(grpc.RpcError) as info:
        list_moves(engine, 7)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(info.value)
    violations = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            msg = error_details_pb2.BadRequest()
            detail.Unpack(msg)
            violations += [(v.field, v.description) for v in msg.field_violations]
    assert violations == [("view", "unknown value 7")]
