"""Logs: one JSON line per call with method, code, duration, peer and request id; the request id
taken from ``x-request-id`` (or made up) and sent back; no position data at info level."""

from __future__ import annotations

import io
import json
import logging

import grpc
import pytest
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavla.server.process import app
from tavla.server.pipeline import logs
from tavla.server.pipeline.access_log import request_id_from
from tavla.server.process.config import Config
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
import rpc_api as api
from google.protobuf import json_format
from http_calls import connect_json
from tavla.v1 import types_pb2 as pb

START_ID = "4HPwATDgc/ABMA"
BAD_ID = "NotAPositionID"
TIMEOUT = 30


class _Broken(RulesService):
    def ScoreGame(self, request, context):
        raise RuntimeError("a bug")


@pytest.fixture(scope="module")
def built():
    engine = app.build(Config(host="127.0.0.1", port=0, http_port=0), by_service=by_service(_Broken()))
    app.start(engine)
    yield engine
    app.stop(engine, 0.5)


@pytest.fixture(scope="module")
def server(built):
    with grpc.insecure_channel(f"127.0.0.1:{built.port}") as channel:
        yield channel


def capture(level: str) -> io.StringIO:
    stream = io.StringIO()
    logs.configure(level, "json", stream)
    return stream


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    level = root.level
    yield
    for handler in [h for h in root.handlers if h.name == "tavla"]:
        root.removeHandler(handler)
    root.setLevel(level)
    structlog.reset_defaults()
    logs.ensure_configured()


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def rpc_lines(stream: io.StringIO, request_id: str) -> list[dict]:
    return [e for e in lines(stream) if e.get("event") == "rpc" and e.get("request_id") == request_id]


def calls(channel: grpc.Channel, request_id: str) -> None:
    """A successful call and two failing ones, all quoting positions or moves."""
    stub = api.AnyStub(channel)
    meta = (("x-request-id", request_id),)
    stub.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[5, 1]),
                        timeout=TIMEOUT, metadata=meta)
    for request in (
        api.ApplyMoveRequest(position=pb.Position(position_id=START_ID), dice=[5, 1],
                             move=pb.Move(notation="24/23")),  # breaks R7: the message quotes it
        api.ListLegalMovesRequest(position=pb.Position(position_id=BAD_ID), dice=[5, 1]),
    ):
        method = stub.ApplyMove if isinstance(request, api.ApplyMoveRequest) else stub.ListLegalMoves
        with pytest.raises(grpc.RpcError) as info:
            method(request, timeout=TIMEOUT, metadata=meta)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert meta[0] in info.value.initial_metadata()  # echoed on failures too


def test_one_json_line_per_call_with_the_callers_request_id(server, restore_logging):
    stream = capture("info")
    stub = api.AnyStub(server)
    response, call = stub.GetInitialPosition.with_call(
        api.GetInitialPositionRequest(), timeout=TIMEOUT, metadata=(("x-request-id", "req-42"),))
    assert response.position.ids.position_id == START_ID
    assert ("x-request-id", "req-42") in call.initial_metadata()
    [line] = rpc_lines(stream, "req-42")
    assert line["method"] == "/tavla.v1.RulesService/GetInitialPosition"
    assert line["code"] == "OK"
    assert line["level"] == "info"
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["peer"].startswith(("ipv4:127.0.0.1:", "ipv6:"))
    assert line["logger"] == "tavla.access"
    assert {"timestamp", "pid"} <= set(line)


def test_request_id_made_up_when_missing_or_unusable(server, restore_logging):
    stream = capture("info")
    stub = api.AnyStub(server)
    for sent in ((), (("x-request-id", "has spaces"),), (("x-request-id", "x" * 200),)):
        _, call = stub.GetInitialPosition.with_call(api.GetInitialPositionRequest(), timeout=TIMEOUT,
                                                    metadata=sent)
        [echoed] = [v for k, v in call.initial_metadata() if k == "x-request-id"]
        assert len(echoed) == 32 and echoed not in dict(sent).values()
        assert len(rpc_lines(stream, echoed)) == 1


def test_request_id_from_metadata():
    assert request_id_from((("other", "a"), ("x-request-id", "abc-123"))) == "abc-123"
    assert request_id_from(None) != request_id_from(None)


def test_failed_calls_logged_with_their_code_and_no_position_at_info(server, restore_logging):
    stream = capture("info")
    calls(server, "quiet-1")
    logged = rpc_lines(stream, "quiet-1")
    assert [(e["method"].rsplit("/", 1)[1], e["code"]) for e in logged] == [
        ("ListLegalMoves", "OK"), ("ApplyMove", "INVALID_ARGUMENT"), ("ListLegalMoves", "INVALID_ARGUMENT"),
    ]
    text = stream.getvalue()
    for secret in (START_ID, BAD_ID, "24/23", "13/8", "position_id", "board"):
        assert secret not in text


def test_debug_level_adds_request_and_details(server, restore_logging):
    stream = capture("debug")
    calls(server, "loud-1")
    logged = rpc_lines(stream, "loud-1")
    assert START_ID in logged[0]["request"] and "details" not in logged[0]
    assert "24/23" in logged[1]["request"] and "R7" in logged[1]["details"]
    assert BAD_ID in logged[2]["request"]


def test_both_ports_log_a_call_alike_but_for_the_protocol(built, server, restore_logging):
    stream = capture("debug")
    request = {"position": {"position_id": START_ID}, "dice": [5, 1], "move": {"notation": "24/23"}}
    with pytest.raises(grpc.RpcError):
        api.AnyStub(server).ApplyMove(json_format.ParseDict(request, api.ApplyMoveRequest()), timeout=TIMEOUT,
                                      metadata=(("x-request-id", "alike-grpc"),))
    status, _, _ = connect_json(built.http_port, "ApplyMove", request, headers={"x-request-id": "alike-http"})
    assert status == 400
    [by_grpc], [by_http] = rpc_lines(stream, "alike-grpc"), rpc_lines(stream, "alike-http")
    assert (by_grpc["protocol"], by_http["protocol"]) == ("grpc", "connect")
    assert by_grpc["code"] == "INVALID_ARGUMENT" and "R7" in by_grpc["details"]
    per_call = {"timestamp", "duration_ms", "peer", "request_id", "protocol"}
    assert ({k: v for k, v in by_grpc.items() if k not in per_call}
            == {k: v for k, v in by_http.items() if k not in per_call})


def test_health_checks_only_at_debug(server, restore_logging):
    stream = capture("info")
    health = health_pb2_grpc.HealthStub(server)
    health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT, metadata=(("x-request-id", "probe-1"),))
    assert rpc_lines(stream, "probe-1") == []
    stream = capture("debug")
    health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT, metadata=(("x-request-id", "probe-2"),))
    [line] = rpc_lines(stream, "probe-2")
    assert (line["method"], line["code"], line["level"]) == ("/grpc.health.v1.Health/Check", "OK", "debug")


def test_internal_error_logged_at_error_with_the_request_id_on_its_traceback(server, restore_logging):
    stream = capture("info")
    stub = api.AnyStub(server)
    with pytest.raises(grpc.RpcError) as info:
        stub.ScoreGame(api.ScoreGameRequest(position=pb.Position(position_id=START_ID)), timeout=TIMEOUT,
                       metadata=(("x-request-id", "bug-1"),))
    assert info.value.code() == grpc.StatusCode.INTERNAL
    tagged = [e for e in lines(stream) if e.get("request_id") == "bug-1"]
    traceback = [e for e in tagged if e["event"].startswith("unexpected error")]
    assert len(traceback) == 1 and "RuntimeError: a bug" in traceback[0]["exception"]
    assert traceback[0]["logger"] == "tavla.server.pipeline.errors"
    [rpc] = [e for e in tagged if e["event"] == "rpc"]
    assert (rpc["code"], rpc["level"]) == ("INTERNAL", "error")


def test_console_format_is_readable(restore_logging):
    stream = io.StringIO()
    logs.configure("info", "console", stream)
    structlog.get_logger("tavla.test").info("hello", answer=42)
    out = stream.getvalue()
    assert "hello" in out and "answer=42" in out and not out.lstrip().startswith("{")


def test_format_defaults_to_json_off_a_terminal():
    assert logs.resolve_format(None, io.StringIO()) == "json"
    assert logs.resolve_format("console", io.StringIO()) == "console"


def test_a_stalled_stderr_never_blocks_logging():
    import os
    import threading

    read_end, write_end = os.pipe()
    stream = os.fdopen(write_end, "w")
    writer = logs.BackgroundWriter(stream, capacity=100)
    line = "x" * 1000 + "\n"
    for _ in range(1000):  # 1 MB into a pipe nobody reads yet (its buffer is 64 KiB): no wait
        writer.write(line)
    assert writer.dropped > 0
    received = []

    def read():
        with os.fdopen(read_end, "rb") as f:
            while chunk := f.read(65536):
                received.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert writer.drain(timeout=TIMEOUT)
    stream.close()
    reader.join(timeout=TIMEOUT)
    lines = b"".join(received).decode().splitlines()
    assert lines and set(lines) == {line.strip()}  # whole lines only, none torn
    assert len(lines) == 1000 - writer.dropped
