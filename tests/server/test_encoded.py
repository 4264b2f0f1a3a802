"""ListLegalMoves' answer handed over as finished wire bytes (tavla.server.api.encoded).

The servicer returns the serialized ``ListLegalMovesResponse`` (from server/convert/wire.py or the compiled
accelerator) and gRPC, Connect binary and gRPC-Web send those bytes as they are; Connect JSON
parses them first. Every surface must answer exactly what the message path gives: the response
built field by field with the protobuf library (tests/support/reference_encoder.py) and serialized, for
both views (``MOVE_VIEW_FULL``, ``MOVE_VIEW_BASIC``), on real positions of the match records
(R4-R14), including rolls where no die can be played (``dice_used`` 0, left out of the bytes) and
the largest answer of bench/data/hardest.txt; on the accelerated and the pure-Python path.
"""

from __future__ import annotations

import base64
import glob
import json
import os
import struct
import urllib.error
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf import json_format

from tavla import core
from tavla.core import Position
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import read_match
from tavla.server.api.generator import MoveGenerator
from tavla.server.process import app
from tavla.server.api import encoded
from tavla.server.convert import wire
from tavla.server.process.config import Config
from tavla.server.http.app import HttpContext
from tavla.server.api.engine import Engine
from tavla.server.api.rules import RulesService
from tavla.server.api.servicers import for_engine
from engine_servicers import by_service
import rpc_api as api
from tavla.v1 import types_pb2 as pb
from reference_encoder import response as ref_response

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATCHES = sorted(glob.glob(os.path.join(HERE, "data", "matches", "*.mat")))[:12]
PATH = "/tavla.v1.RulesService/ListLegalMoves"
VIEWS = ((api.MOVE_VIEW_FULL, False), (api.MOVE_VIEW_BASIC, True))
# bench/data/hardest.txt: the largest full answer (1,693 moves, ~260 KB)
LARGEST = (core.position_id.decode("fqa8AACkqqqIJA", core.Side.WHITE), (2, 2))


def _pairs() -> list[tuple[Position, tuple[int, int]]]:
    pairs: list[tuple[Position, tuple[int, int]]] = []
    engine = LocalEngine()
    for path in MATCHES:
        replay(read_match(path), engine, on_roll=lambda pos, dice: pairs.append((pos, dice)))
    blocked = [(p, d) for p, d in pairs if core.legal_moves(p, d)[0].dice_used == 0][:3]
    return pairs[::40] + blocked + [LARGEST]


@pytest.fixture(scope="module")
def pairs() -> list[tuple[Position, tuple[int, int]]]:
    found = _pairs()
    assert sum(core.legal_moves(p, d)[0].dice_used == 0 for p, d in found) >= 3  # dances are covered
    return found


@pytest.fixture(scope="module", params=["accel", "pure"])
def path(request) -> Iterator[str]:
    if request.param == "accel" and not MoveGenerator.from_env().active:
        if os.environ.get("TAVLA_ACCEL_EXPECTED", "1") == "0":
            pytest.skip("tavla_accel not built and TAVLA_ACCEL_EXPECTED=0")
        pytest.fail("tavla_accel is not installed (make accel-test), or set TAVLA_ACCEL_EXPECTED=0", pytrace=False)
    yield request.param
    MoveGenerator.from_env().install()  # the pure engine took the core's generator


@pytest.fixture(scope="module")
def engine(path) -> Iterator[app.Engine]:
    # pure: the core + wire.py answer
    generator = MoveGenerator.pure() if path == "pure" else MoveGenerator.from_env()
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0), by_service=for_engine(Engine(generator=generator)))
    app.start(e)
    yield e
    app.stop(e, 0.5)


@pytest.fixture(scope="module")
def raw_call(engine) -> Iterator[grpc.UnaryUnaryMultiCallable]:
    # no response deserializer: the bytes exactly as the server sent them
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}",
                               options=[("grpc.max_receive_message_length", 8 << 20)]) as channel:
        yield channel.unary_unary(PATH, request_serializer=api.ListLegalMovesRequest.SerializeToString)


def _request(position: Position, dice: tuple[int, int], view: int) -> api.ListLegalMovesRequest:
    on_roll = pb.SIDE_WHITE if position.on_roll == core.Side.WHITE else pb.SIDE_BLACK
    return api.ListLegalMovesRequest(position=pb.Position(position_id=core.position_id.encode(position),
                                                          on_roll=on_roll), dice=list(dice), view=view)


def _post(port: int, body: bytes, content_type: str) -> tuple[str, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{PATH}", data=body, method="POST",
                                     headers={"content-type": content_type})
    with urllib.request.urlopen(request, timeout=30) as r:
        assert r.status == 200
        return r.headers["content-type"], r.read()


def _grpc_web_payload(port: int, request: api.ListLegalMovesRequest, text: bool) -> bytes:
    data = request.SerializeToString()
    frame = struct.pack(">BI", 0, len(data)) + data
    kind = "application/grpc-web-text+proto" if text else "application/grpc-web+proto"
    _, body = _post(port, base64.b64encode(frame) if text else frame, kind)
    body = base64.b64decode(body) if text else body
    flags, length = struct.unpack(">BI", body[:5])
    assert flags == 0
    trailer = body[5 + length:]
    assert trailer[0] == 0x80 and b"grpc-status: 0" in trailer
    return body[5:5 + length]


def test_every_surface_sends_the_message_paths_bytes(engine, raw_call, pairs, path):
    port = engine.http_port
    for position, dice in pairs:
        moves = core.legal_moves(position, dice)
        for view, basic in VIEWS:
            expected = ref_response(moves, basic=basic)
            request = _request(position, dice, view)
            where = (path, core.position_id.encode(position), position.on_roll.name, dice, view)
            assert raw_call(request, timeout=30) == expected, where
            assert _post(port, request.SerializeToString(), "application/proto") == ("application/proto",
                                                                                     expected), where
            assert _grpc_web_payload(port, request, text=False) == expected, where
            assert _grpc_web_payload(port, request, text=True) == expected, where
            kind, body = _post(port, json_format.MessageToJson(request).encode(), "application/json")
            assert kind == "application/json"
            assert json.loads(body) == json_format.MessageToDict(api.ListLegalMovesResponse.FromString(expected)), where


def test_servicer_returns_bytes_and_the_typed_path_a_message(pairs):
    servicer = RulesService()
    position, dice = pairs[0]
    request = _request(position, dice, api.MOVE_VIEW_FULL)
    data = servicer.ListLegalMoves(request, HttpContext("test", {}, "", None))
    assert isinstance(data, bytes)
    message = servicer.list_legal_moves(request, HttpContext("test", {}, "", None))
    assert isinstance(message, api.ListLegalMovesResponse)
    assert message.SerializeToString() == data == ref_response(core.legal_moves(position, dice))


def test_legal_moves_response_leaves_dice_used_zero_out():
    assert wire.legal_moves_response(b"\x0a\x00", 0) == b"\x0a\x00"
    assert wire.legal_moves_response(b"\x0a\x00", 4) == b"\x0a\x00\x10\x04"
    assert api.ListLegalMovesResponse.FromString(b"\x0a\x00\x10\x04").dice_used == 4


def test_serializer_passes_bytes_and_serializes_messages():
    message = api.ListLegalMovesResponse(moves=[pb.Move(notation="24/23")], dice_used=1)
    assert encoded.serialize(b"\x10\x02") == b"\x10\x02"
    assert encoded.serialize(message) == message.SerializeToString()
    assert encoded.size(b"abc") == 3 and encoded.size(message) == message.ByteSize()


class _MessageServicer(RulesService):
    """A subclass that still returns the message: gRPC and HTTP must serialize it as before."""

    def ListLegalMoves(self, request, context):
        return api.ListLegalMovesResponse.FromString(super().ListLegalMoves(request, context))


def test_a_servicer_returning_a_message_still_works():
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0), by_service=by_service(_MessageServicer()))
    app.start(e)
    try:
        position = Position.initial(core.Side.WHITE)
        request = _request(position, (3, 1), api.MOVE_VIEW_BASIC)
        expected = ref_response(core.legal_moves(position, (3, 1)), basic=True)
        with grpc.insecure_channel(f"127.0.0.1:{e.port}") as channel:
            stub = api.AnyStub(channel)
            assert stub.ListLegalMoves(request, timeout=30).SerializeToString() == expected
        assert _post(e.http_port, request.SerializeToString(), "application/proto")[1] == expected
        assert _grpc_web_payload(e.http_port, request, text=False) == expected
        _, body = _post(e.http_port, json_format.MessageToJson(request).encode(), "application/json")
        assert json.loads(body) == json_format.MessageToDict(api.ListLegalMovesResponse.FromString(expected))
    finally:
        app.stop(e, 0.5)


def test_http_refuses_an_answer_over_the_message_limit():
    # the limit counts the bytes as they are: 1-1 from the start lists 42 moves, over 1 KiB
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, max_message_bytes=1024))
    app.start(e)
    try:
        big = _request(Position.initial(core.Side.WHITE), (1, 1), api.MOVE_VIEW_FULL)
        request = urllib.request.Request(f"http://127.0.0.1:{e.http_port}{PATH}", data=big.SerializeToString(),
                                         method="POST", headers={"content-type": "application/proto"})
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(request, timeout=30)
        assert info.value.code == 429 and json.loads(info.value.read())["code"] == "resource_exhausted"
        small = _request(Position.initial(core.Side.WHITE), (3, 1), api.MOVE_VIEW_BASIC)  # 16 moves, < 1 KiB
        assert _post(e.http_port, small.SerializeToString(), "application/proto")[1] == ref_response(
            core.legal_moves(Position.initial(core.Side.WHITE), (3, 1)), basic=True)
    finally:
        app.stop(e, 0.5)
