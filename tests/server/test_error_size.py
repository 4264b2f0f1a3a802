"""Error statuses stay small enough for clients that cap metadata at 8 KiB (grpc-java's default),
whatever the input echoes: a long non-ASCII input still reaches them as INVALID_ARGUMENT."""

from __future__ import annotations

import grpc
import pytest

import rpc_api as api
from tavla.v1 import types_pb2 as pb


@pytest.fixture(scope="module")
def strict_engine(server_address):
    options = [("grpc.max_metadata_size", 8192)]
    with grpc.insecure_channel(server_address, options=options) as ch:
        yield api.AnyStub(ch)


@pytest.mark.parametrize(
    "call, message",
    [
        ("GetInitialPosition", api.GetInitialPositionRequest(ruleset=pb.Ruleset(preset="😀" * 600))),
        ("ApplyMove", api.ApplyMoveRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                                           dice=[5, 1], move=pb.Move(notation="😀" * 199))),
    ],
)
def test_long_unicode_input_is_invalid_argument(strict_engine, call, message):
    with pytest.raises(grpc.RpcError) as err:
        getattr(strict_engine, call)(message, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
