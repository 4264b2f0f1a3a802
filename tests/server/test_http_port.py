"""The HTTP port: Connect (JSON and binary) and gRPC-Web give the answers and errors gRPC gives.

Each test talks plain HTTP/1.1 with the standard library, as curl or a browser would, to a server
started in process with ``http_port=0``; answers are compared with the same call over gRPC.
Rules are cited where a call exercises one (R7: both dice must be played).
"""

from __future__ import annotations

import base64
import json
import struct
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2

from tavla.server.process import app
from tavla.server.process.config import Config
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
import rpc_api as api
from tavla.v1 import types_pb2 as pb
from http_calls import connect_json, http

START = "4HPwATDgc/ABMA"
ORIGIN = "https://play.example.com"


@pytest.fixture(scope="module")
def engine() -> Iterator[app.Engine]:
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, cors_origins=ORIGIN))
    app.start(e)
    yield e
    app.stop(e, 0.5)


@pytest.fixture(scope="module")
def stub(engine: app.Engine) -> Iterator[api.AnyStub]:
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
        yield api.AnyStub(channel)


def grpc_web(port: int, method: str, message, *, text: bool = False) -> tuple[bytes | None, dict[str, str]]:
    """One gRPC-Web call: the response message bytes (None on error) and the trailers."""
    data = message.SerializeToString()
    frame = struct.pack(">BI", 0, len(data)) + data
    kind = "application/grpc-web-text+proto" if text else "application/grpc-web+proto"
    status, headers, body = http(port, api.path(method), base64.b64encode(frame) if text else frame, kind,
                                 headers={"x-grpc-web": "1"})
    assert status == 200 and headers["content-type"] == kind
    if text:
        body = base64.b64decode(body)
    payload, trailers = None, {}
    while body:
        flags, length = struct.unpack(">BI", body[:5])
        chunk, body = body[5:5 + length], body[5 + length:]
        if flags & 0x80:
            for line in chunk.decode().split("\r\n"):
                if line:
                    key, value = line.split(":", 1)
                    trailers[key.strip()] = value.strip()
        else:
            payload = chunk
    return payload, trailers


APPLY = {"position": {"position_id": START}, "dice": [5, 1], "move": {"notation": "24/23 13/8"}}
ILLEGAL = {"position": {"position_id": START}, "dice": [5, 1], "move": {"notation": "24/23"}}


def test_connect_json_answers_as_grpc(engine, stub):
    status, answer, headers = connect_json(engine.http_port, "ApplyMove", APPLY)
    assert status == 200 and headers["content-type"] == "application/json"
    expected = stub.ApplyMove(json_format.ParseDict(APPLY, api.ApplyMoveRequest()))
    assert json_format.ParseDict(answer, api.ApplyMoveResponse()) == expected
    result = answer["move"]["result"]
    assert result["ids"]["positionId"] == "4PPgASjgc/ABMA"  # proto JSON: camelCase, enums by name
    assert result["onRoll"] == "SIDE_BLACK"
    assert len(headers["x-request-id"]) == 32


def test_connect_binary_answers_as_grpc(engine, stub):
    request = json_format.ParseDict(APPLY, api.ApplyMoveRequest())
    status, headers, body = http(engine.http_port, api.path("ApplyMove"), request.SerializeToString(),
                                 "application/proto")
    assert status == 200 and headers["content-type"] == "application/proto"
    assert api.ApplyMoveResponse.FromString(body) == stub.ApplyMove(request)


@pytest.mark.parametrize("text", [False, True], ids=["binary", "text"])
def test_grpc_web_answers_as_grpc(engine, stub, text):
    request = api.ListLegalMovesRequest(position=pb.Position(position_id=START), dice=[6, 5])
    payload, trailers = grpc_web(engine.http_port, "ListLegalMoves", request, text=text)
    assert trailers["grpc-status"] == "0"
    assert api.ListLegalMovesResponse.FromString(payload) == stub.ListLegalMoves(request)


def _grpc_status(stub, request) -> status_pb2.Status:
    with pytest.raises(grpc.RpcError) as caught:
        stub.ApplyMove(request)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    trailing = dict(caught.value.trailing_metadata())
    return status_pb2.Status.FromString(trailing["grpc-status-details-bin"])


def test_illegal_move_carries_the_same_error_info_over_connect(engine, stub):
    """R7: 24/23 alone with 5-1 is refused with MUST_USE_BOTH_DICE on every protocol."""
    expected = _grpc_status(stub, json_format.ParseDict(ILLEGAL, api.ApplyMoveRequest()))
    status, error, _ = connect_json(engine.http_port, "ApplyMove", ILLEGAL)
    assert status == 400 and error["code"] == "invalid_argument"
    assert error["message"] == expected.message
    # the same details as gRPC, in order: the ErrorInfo, then the player's LocalizedMessage
    assert [d["type"] for d in error["details"]] == [d.type_url.split("/")[-1] for d in expected.details]
    detail, localized = error["details"]
    assert localized["type"] == "google.rpc.LocalizedMessage" and localized["debug"]["locale"] == "en"
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    expected_info = error_details_pb2.ErrorInfo()
    expected.details[0].Unpack(expected_info)
    assert info == expected_info and info.reason == "MUST_USE_BOTH_DICE"
    assert detail["debug"]["reason"] == "MUST_USE_BOTH_DICE"


def test_illegal_move_carries_the_same_status_over_grpc_web(engine, stub):
    request = json_format.ParseDict(ILLEGAL, api.ApplyMoveRequest())
    expected = _grpc_status(stub, request)
    payload, trailers = grpc_web(engine.http_port, "ApplyMove", request)
    assert payload is None and trailers["grpc-status"] == str(grpc.StatusCode.INVALID_ARGUMENT.value[0])
    assert status_pb2.Status.FromString(base64.b64decode(trailers["grpc-status-details-bin"])) == expected


def test_bad_input_names_the_field_in_a_bad_request(engine):
    status, error, _ = connect_json(engine.http_port, "ListLegalMoves",
                                    {"position": {"position_id": START}, "dice": [7, 1]})
    assert status == 400
    detail, localized = error["details"]
    assert localized["type"] == "google.rpc.LocalizedMessage"
    assert detail["type"] == "google.rpc.BadRequest"
    assert detail["debug"]["fieldViolations"][0]["field"] == "dice"


def test_unparsable_json_is_invalid_argument_on_request(engine):
    status, headers, body = http(engine.http_port, api.path("ListLegalMoves"), b'{"dice": [6,')
    error = json.loads(body)
    assert status == 400 and error["code"] == "invalid_argument"
    assert error["details"][0]["debug"]["fieldViolations"][0]["field"] == "request"
    # JSON that parses but is not of the message names the field
    status, headers, body = http(engine.http_port, api.path("ListLegalMoves"), b'{"dice": "six"}')
    assert status == 400 and json.loads(body)["details"][0]["debug"]["fieldViolations"][0]["field"] == "dice"


def test_snake_and_camel_case_are_read_and_unknown_fields_refused(engine):
    for request in ({"position": {"positionId": START}, "dice": [3, 1]},
                    {"position": {"position_id": START}, "dice": [3, 1]}):
        status, answer, _ = connect_json(engine.http_port, "ListLegalMoves", request)
        assert status == 200 and len(answer["moves"]) == 16
    # a misspelt field silently read as its default is refused, naming it
    status, error, _ = connect_json(engine.http_port, "ListLegalMoves",
                                    {"position": {"position_id": START}, "dice": [3, 1], "not_a_field": 1})
    assert status == 400 and error["details"][0]["debug"]["fieldViolations"][0]["field"] == "not_a_field"


def test_empty_body_is_the_empty_request(engine):
    status, answer, _ = connect_json(engine.http_port, "GetInitialPosition", {})
    assert status == 200 and answer["position"]["ids"]["positionId"] == START
    status, headers, body = http(engine.http_port, api.path("GetInitialPosition"), b"")
    assert status == 200 and json.loads(body)["position"]["onRoll"] == "SIDE_WHITE"


def test_unknown_method_and_media_type(engine):
    for path in ("/tavla.v1.RulesService/NoSuchThing", "/tavla.v1.EngineService/GetInitialPosition",
                 "/tavla.v1.MatchService/ApplyMove"):  # no 0.x paths, no RPC on another service's path
        status, error, _ = connect_json(engine.http_port, path, {})
        assert status == 501 and error["code"] == "unimplemented", path
    status, headers, _ = http(engine.http_port, api.path("ApplyMove"), b"{}", "text/plain")
    assert status == 415 and "application/json" in headers["accept-post"]


def test_request_id_is_echoed(engine):
    _, _, headers = connect_json(engine.http_port, "GetInitialPosition", {}, headers={"x-request-id": "abc-123"})
    assert headers["x-request-id"] == "abc-123"


def test_health_and_readiness(engine):
    assert http(engine.http_port, "/healthz", method="GET")[0::2] == (200, b"SERVING\n")
    assert http(engine.http_port, "/readyz", method="GET")[0::2] == (200, b"SERVING\n")
    status, _, body = http(engine.http_port, "/grpc.health.v1.Health/Check",
                           json.dumps({"service": "tavla.v1.RulesService"}).encode())
    assert status == 200 and json.loads(body) == {"status": "SERVING"}
    status, _, body = http(engine.http_port, "/grpc.health.v1.Health/Check", b'{"service": "nope"}')
    assert status == 404 and json.loads(body)["code"] == "not_found"


# --- CORS -------------------------------------------------------------------------------------


def test_cors_preflight_for_an_allowed_origin(engine):
    status, headers, _ = http(engine.http_port, api.path("ApplyMove"), method="OPTIONS", headers={
        "origin": ORIGIN, "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, connect-protocol-version, x-tavla-locale, x-evil"})
    assert status == 204
    assert headers["access-control-allow-origin"] == ORIGIN
    assert headers["access-control-allow-methods"] == "POST, GET"
    # x-tavla-locale: the language of the players' error messages (the web board sends it)
    assert headers["access-control-allow-headers"] == "content-type, connect-protocol-version, x-tavla-locale"
    _, _, headers = connect_json(engine.http_port, "GetInitialPosition", {}, headers={"origin": ORIGIN})
    assert headers["access-control-allow-origin"] == ORIGIN
    assert "grpc-status-details-bin" in headers["access-control-expose-headers"]


def test_cors_refuses_other_origins_and_is_off_by_default(engine):
    status, headers, _ = http(engine.http_port, api.path("ApplyMove"), method="OPTIONS",
                              headers={"origin": "https://evil.example", "access-control-request-method": "POST"})
    assert status == 204 and "access-control-allow-origin" not in headers
    off = app.build(Config(host="127.0.0.1", port=0, http_port=0))
    app.start(off)
    try:
        _, _, headers = connect_json(off.http_port, "GetInitialPosition", {}, headers={"origin": ORIGIN})
        assert "access-control-allow-origin" not in headers  # the browser will refuse to read it
    finally:
        app.stop(off, 0.1)


# --- deadlines and limits ----------------------------------------------------------------------


class _Held(RulesService):
    """GetInitialPosition holds the one slot until the test lets it go: a call that outlasts any
    deadline without the test depending on how long it takes."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def GetInitialPosition(self, request, context):
        self.entered.set()
        self.release.wait(60)  # a bound in case the test never releases it, not a timing
        return super().GetInitialPosition(request, context)


@pytest.fixture()
def held() -> _Held:
    return _Held()


@pytest.fixture()
def held_engine(held: _Held) -> Iterator[app.Engine]:
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, max_concurrent_rpcs=1, max_message_bytes=1024),
                  by_service=by_service(held))
    app.start(e)
    yield e
    held.release.set()
    app.stop(e, 0.1)


def test_connect_timeout_header_is_the_deadline(held_engine):
    # the handler waits until teardown: a 504 rather than its answer shows that the 100 ms applied
    status, error, _ = connect_json(held_engine.http_port, "GetInitialPosition", {},
                                    headers={"connect-timeout-ms": "100"})
    assert status == 504 and error["code"] == "deadline_exceeded"
    status, error, _ = connect_json(held_engine.http_port, "GetInitialPosition", {},
                                    headers={"connect-timeout-ms": "soon"})
    assert status == 400 and error["code"] == "invalid_argument"


def test_grpc_web_timeout_header_is_the_deadline(held_engine):
    data = struct.pack(">BI", 0, 0)
    status, _, body = http(held_engine.http_port, api.path("GetInitialPosition"), data,
                           "application/grpc-web+proto", headers={"grpc-timeout": "100m"})
    assert status == 200 and b"grpc-status: 4" in body


def test_concurrency_limit_is_shared_with_grpc(held_engine, held):
    with grpc.insecure_channel(f"127.0.0.1:{held_engine.port}") as channel:
        stub = api.AnyStub(channel)
        answers: list[object] = []
        busy = threading.Thread(target=lambda: answers.append(stub.GetInitialPosition(api.GetInitialPositionRequest())))
        busy.start()
        assert held.entered.wait(30), "the gRPC call never reached the handler"
        status, error, _ = connect_json(held_engine.http_port, "GetInitialPosition", {})
        held.release.set()
        busy.join()
    assert status == 429 and error["code"] == "resource_exhausted"
    assert len(answers) == 1  # the call that held the slot was answered once let go


def test_request_larger_than_the_limit_is_resource_exhausted(held_engine):
    status, error, _ = connect_json(held_engine.http_port, "ListLegalMoves", {"position": {"position_id": "x" * 2000}})
    assert status == 429 and error["code"] == "resource_exhausted"


def test_http_metrics_are_labelled_by_protocol(engine):
    from prometheus_client import REGISTRY

    def handled(protocol: str) -> float:
        return REGISTRY.get_sample_value("tavla_http_rpcs_handled_total", {
            "protocol": protocol, "grpc_service": "tavla.v1.RulesService", "grpc_method": "ScoreGame",
            "grpc_code": "OK"}) or 0.0

    before = handled("connect"), handled("grpc-web")
    connect_json(engine.http_port, "ScoreGame", {"position": {"position_id": START}})
    grpc_web(engine.http_port, "ScoreGame", api.ScoreGameRequest(position=pb.Position(position_id=START)))
    assert (handled("connect") - before[0], handled("grpc-web") - before[1]) == (1.0, 1.0)


def test_draining_turns_readiness_off_but_still_serves():
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0))
    app.start(e)
    during: list[int] = []

    def drain(seconds: float) -> None:  # stands in for the drain period: ask while still up
        during.append(seconds)
        during.append(http(e.http_port, "/readyz", method="GET")[0])
        during.append(connect_json(e.http_port, "GetInitialPosition", {})[0])

    app.stop(e, 0.5, 7, drain=drain)
    assert during == [7, 503, 200]
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"http://127.0.0.1:{e.http_port}/healthz", timeout=2)


# --- framing, without a server ------------------------------------------------------------------


def test_timeout_headers_and_units():
    from tavla.server.http import protocols as wire

    connect, web = wire.protocol_of("application/json"), wire.protocol_of("application/grpc-web+proto")
    assert wire.timeout_seconds(connect, {"connect-timeout-ms": "1500"}) == 1.5
    assert wire.timeout_seconds(connect, {}) is None
    for text, seconds in (("2S", 2.0), ("250m", 0.25), ("1M", 60.0), ("1H", 3600.0), ("500u", 0.0005)):
        assert wire.timeout_seconds(web, {"grpc-timeout": text}) == pytest.approx(seconds)
    for bad in ("1.5S", "123456789S", "10", "10x"):
        with pytest.raises(wire.ProtocolError):
            wire.timeout_seconds(web, {"grpc-timeout": bad})


def test_grpc_web_frames_must_be_one_uncompressed_data_frame(engine):
    port = engine.http_port
    one = struct.pack(">BI", 0, 0)
    for body, code in ((one + one, grpc.StatusCode.INVALID_ARGUMENT), (struct.pack(">BI", 1, 0), grpc.StatusCode.UNIMPLEMENTED),
                       (b"\x00\x00", grpc.StatusCode.INVALID_ARGUMENT), (struct.pack(">BI", 0, 9) + b"x", grpc.StatusCode.INVALID_ARGUMENT)):
        status, _, answer = http(port, api.path("GetInitialPosition"), body, "application/grpc-web+proto")
        assert status == 200 and f"grpc-status: {code.value[0]}".encode() in answer, (body, answer)
    status, _, answer = http(port, api.path("GetInitialPosition"), b"not base64!", "application/grpc-web-text")
    assert b"grpc-status: 3" in base64.b64decode(answer)


def test_grpc_message_is_percent_encoded():
    from tavla.server.http import protocols as wire

    assert wire.percent_encode("şeşbeş 100%") == "%C5%9Fe%C5%9Fbe%C5%9F 100%25"


def test_static_files_stay_inside_the_web_dir(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>board</title>")
    (tmp_path / "app.js").write_text("export {}")
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, web_dir=str(tmp_path)))
    app.start(e)
    try:
        status, headers, body = http(e.http_port, "/", method="GET")
        assert status == 200 and headers["content-type"] == "text/html; charset=utf-8" and b"board" in body
        status, headers, _ = http(e.http_port, "/app.js", method="GET")
        assert status == 200 and headers["content-type"].startswith(("application/javascript", "text/javascript"))
        assert http(e.http_port, "/../../etc/passwd", method="GET")[0] == 400  # a ".." segment
        assert http(e.http_port, "/%2e%2e/%2e%2e/etc/passwd", method="GET")[0] == 400
    finally:
        app.stop(e, 0.1)


def test_the_stream_rpc_is_unimplemented_on_the_http_port(engine):
    """ValidateMatch is a bidirectional stream: the HTTP port (unary Connect and gRPC-Web) answers
    UNIMPLEMENTED naming the gRPC port, instead of failing inside the handler (a trial found 500)."""
    status, error, _ = connect_json(engine.http_port, "ValidateMatch", {"chunk": "AAAA"})
    assert status == 501 and error["code"] == "unimplemented" and "gRPC port" in error["message"]
