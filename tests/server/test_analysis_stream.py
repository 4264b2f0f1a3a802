"""StreamAnalyzeMatch over gRPC and the HTTP port (docs/analysis.md#progress): progress messages in order up to
the total, then the very answer AnalyzeMatch gives; AnalyzeMatch's errors and deadline; a
cancelled stream stops its analysis process and frees the analysis slot.

No timing assertion: order is shown by the messages, and the freed slot by the next call's
answer (it waits for that slot)."""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import grpc
import prometheus_client
import pytest

import http_calls
import rpc_api as api
from statuses import field_violations
from google.protobuf import json_format
from grpc_status import rpc_status

from tavla.server.api import servicers
from tavla.server.api.engine import Engine
from tavla.server.convert import contract
from tavla.server.process import app
from tavla.server.process.app import start_in_process
from tavla.server.process.config import Config

pytest.importorskip("bgsage")

TIMEOUT = 120  # seconds; a bound for a hang, not a speed assertion
MATCHES = Path(__file__).resolve().parent.parent / "data" / "matches"


def _mat(name: str) -> str:
    return (MATCHES / name).read_text(encoding="utf-8")


@contextlib.contextmanager
def _served() -> Iterator[tuple[api.AnyStub, Engine]]:
    engine = Engine()
    srv, port = start_in_process(Config(host="127.0.0.1", port=0), by_service=servicers.for_engine(engine))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            grpc.channel_ready_future(ch).result(timeout=TIMEOUT)
            yield api.AnyStub(ch), engine
    finally:
        srv.stop(grace=None)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[api.AnyStub, Engine]]:
    with _served() as pair:
        yield pair


def test_the_request_has_analyze_matchs_fields_numbers_and_bounds():
    def fields(message):
        return [(f.name, f.number, f.type, f.containing_oneof and f.containing_oneof.name)
                for f in message.DESCRIPTOR.fields]

    assert fields(api.StreamAnalyzeMatchRequest) == fields(api.AnalyzeMatchRequest)
    for name in ("mat", "sgf"):
        assert (contract.declared(api.StreamAnalyzeMatchRequest, name)
                == contract.declared(api.AnalyzeMatchRequest, name))
        assert contract.declared(api.AnalyzeMatchRequest, name).max_len == 2_000_000


def _stream_metric(name: str, **labels: str) -> float:
    """This process's value of a gRPC series for StreamAnalyzeMatch (the server runs in it)."""
    wanted = {"grpc_type": "server_stream", "grpc_service": "tavla.v1.AnalysisService",
              "grpc_method": "StreamAnalyzeMatch", **labels}
    return prometheus_client.REGISTRY.get_sample_value(name, wanted) or 0.0


def test_progress_counts_up_in_order_and_the_last_message_is_analyze_matchs_answer(served):
    stub, _ = served
    text = _mat("match0000.mat")  # 3 games
    sent_before = _stream_metric("grpc_server_msg_sent_total")
    handled_before = _stream_metric("grpc_server_handled_total", grpc_code="OK")
    messages = list(stub.StreamAnalyzeMatch(api.StreamAnalyzeMatchRequest(mat=text), timeout=TIMEOUT))
    # each message sent is counted (go-grpc-prometheus's msg_sent), the call handled once
    assert _stream_metric("grpc_server_msg_sent_total") - sent_before == len(messages)
    assert _stream_metric("grpc_server_handled_total", grpc_code="OK") - handled_before == 1
    *progress, last = messages
    assert all(m.WhichOneof("event") == "progress" for m in progress)
    assert last.WhichOneof("event") == "result"
    done = [m.progress.decisions_done for m in progress]
    total = progress[0].progress.decisions_total
    assert done == sorted(set(done)) and done[0] >= 1 and done[-1] == total > 100
    assert {m.progress.decisions_total for m in progress} == {total}
    assert {m.progress.games for m in progress} == {3}
    games = [m.progress.game for m in progress]
    assert games == sorted(games) and games[0] == 1 and games[-1] == 3
    unary = stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=text), timeout=TIMEOUT)
    assert last.result == unary and unary.games == 3 and len(unary.decisions) > 50


@pytest.mark.parametrize(("request_", "field"), [
    (api.StreamAnalyzeMatchRequest(), "mat"),
    (api.StreamAnalyzeMatchRequest(mat="7 point match\n Game 1\n nonsense"), "mat"),
    (api.StreamAnalyzeMatchRequest(sgf=b"(;nonsense"), "sgf"),
    (api.StreamAnalyzeMatchRequest(mat="x", level=99), "level"),
])
def test_bad_input_is_invalid_argument_naming_the_field_before_any_progress(served, request_, field):
    stub, _ = served
    call = stub.StreamAnalyzeMatch(request_, timeout=TIMEOUT)
    with pytest.raises(grpc.RpcError) as info:
        next(call)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(info.value)
    assert field in [f.split(".")[0] for f, _ in field_violations(status)]


def test_a_deadline_ends_the_stream_with_deadline_exceeded(served):
    stub, _ = served
    request = api.StreamAnalyzeMatchRequest(mat=_mat("match0001.mat"), level=api.ANALYSIS_LEVEL_EXPERT)
    with pytest.raises(grpc.RpcError) as info:
        list(stub.StreamAnalyzeMatch(request, timeout=0.5))
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_cancelling_mid_stream_stops_the_analysis_process_and_frees_the_slot():
    # a server of its own: another test's overrun may replace a process of the shared one late
    with _served() as (stub, engine):
        _cancel_mid_stream(stub, engine.analysis)


def _cancel_mid_stream(stub: api.AnyStub, pool) -> None:
    before = pool.replaced
    request = api.StreamAnalyzeMatchRequest(mat=_mat("match0001.mat"), level=api.ANALYSIS_LEVEL_EXPERT)
    call = stub.StreamAnalyzeMatch(request, timeout=TIMEOUT)
    first = next(call)  # the review is under way in the analysis process
    assert first.progress.decisions_done == 1 and first.progress.decisions_total > 100
    call.cancel()
    # one analysis slot: this call runs only once the cancelled one has given its slot back,
    # which it does after its process was stopped
    after = stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=_mat("match0000.mat")), timeout=TIMEOUT)
    assert after.games == 3
    assert pool.replaced == before + 1


# --- the HTTP port: Connect streaming and gRPC-Web ---------------------------------------------

STREAM_PATH = api.path("StreamAnalyzeMatch")


def _envelopes(body: bytes) -> list[tuple[int, bytes]]:
    out = []
    while body:
        flags, length = struct.unpack(">BI", body[:5])
        out.append((flags, body[5:5 + length]))
        body = body[5 + length:]
    return out


def _enveloped(data: bytes) -> bytes:
    return struct.pack(">BI", 0, len(data)) + data


def http(port: int, path: str, body: bytes, content_type: str,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One POST, waiting up to TIMEOUT for a whole review."""
    return http_calls.http(port, path, body, content_type, headers=headers, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def http_port() -> Iterator[int]:
    with http_calls.http_server() as port:
        yield port


def test_connect_json_streams_progress_then_analyze_matchs_answer(http_port, served):
    stub, _ = served
    text = _mat("match0000.mat")
    status, headers, body = http(http_port, STREAM_PATH, _enveloped(json.dumps({"mat": text}).encode()),
                                 "application/connect+json")
    assert status == 200 and headers["content-type"] == "application/connect+json"
    *messages, (end_flags, end) = _envelopes(body)
    assert end_flags == 0x02 and json.loads(end) == {}
    assert {flags for flags, _ in messages} == {0}
    decoded = [json.loads(data) for _, data in messages]
    done = [m["progress"]["decisionsDone"] for m in decoded[:-1]]
    assert done == sorted(set(done)) and done[-1] == decoded[0]["progress"]["decisionsTotal"]
    result = json_format.ParseDict(decoded[-1]["result"], api.AnalyzeMatchResponse())
    assert result == stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=text), timeout=TIMEOUT)


def test_grpc_web_streams_frames_then_trailers(http_port):
    request = api.StreamAnalyzeMatchRequest(mat=_mat("match0000.mat")).SerializeToString()
    status, headers, body = http(http_port, STREAM_PATH, _enveloped(request), "application/grpc-web+proto",
                                 headers={"x-grpc-web": "1"})
    assert status == 200 and headers["content-type"] == "application/grpc-web+proto"
    *messages, (trailer_flags, trailers) = _envelopes(body)
    assert trailer_flags == 0x80 and b"grpc-status: 0" in trailers
    decoded = [api.StreamAnalyzeMatchResponse.FromString(data) for _, data in messages]
    assert [m.WhichOneof("event") for m in decoded] == ["progress"] * (len(decoded) - 1) + ["result"]
    assert decoded[-1].result.games == 3


def test_grpc_web_text_streams_each_frame_in_base64(http_port):
    request = api.StreamAnalyzeMatchRequest(mat=_mat("match0000.mat")).SerializeToString()
    status, headers, body = http(http_port, STREAM_PATH, base64.b64encode(_enveloped(request)),
                                 "application/grpc-web-text", headers={"x-grpc-web": "1"})
    assert status == 200 and headers["content-type"] == "application/grpc-web-text+proto"
    # each frame is base64 on its own (padded), so the body decodes four characters at a time
    assert len(body) % 4 == 0
    frames = b"".join(base64.b64decode(body[i:i + 4]) for i in range(0, len(body), 4))
    *messages, (trailer_flags, trailers) = _envelopes(frames)
    assert trailer_flags == 0x80 and b"grpc-status: 0" in trailers
    decoded = [api.StreamAnalyzeMatchResponse.FromString(data) for _, data in messages]
    assert [m.WhichOneof("event") for m in decoded] == ["progress"] * (len(decoded) - 1) + ["result"]
    assert decoded[-1].result.games == 3 and len(decoded) > 2


def test_connect_stream_errors_are_its_end_of_stream_message_naming_the_field(http_port):
    data = api.StreamAnalyzeMatchRequest(mat="7 point match\n Game 1\n nonsense").SerializeToString()
    status, _, body = http(http_port, STREAM_PATH, _enveloped(data), "application/connect+proto")
    assert status == 200
    [(flags, end)] = _envelopes(body)
    error = json.loads(end)["error"]
    assert flags == 0x02 and error["code"] == "invalid_argument"
    bad = [d for d in error["details"] if d["type"] == "google.rpc.BadRequest"]
    assert bad[0]["debug"]["fieldViolations"][0]["field"] == "mat"


def test_connect_unary_media_types_are_refused_for_the_stream(http_port):
    status, _, body = http(http_port, STREAM_PATH, b'{"mat": "x"}', "application/json")
    assert status == 415 and b"application/connect+json" in body


def test_a_client_that_goes_away_stops_the_analysis_over_http():
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0))
    app.start(e)
    try:
        before = e.analysis.replaced
        body = _enveloped(json.dumps({"mat": _mat("match0001.mat"), "level": "ANALYSIS_LEVEL_EXPERT"}).encode())
        head = (f"POST {STREAM_PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/connect+json\r\n"
                f"content-length: {len(body)}\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", e.http_port), timeout=TIMEOUT) as s:
            s.sendall(head + body)
            got = b""
            while b"decisionsDone" not in got:  # the first progress message: the review is under way
                chunk = s.recv(65536)
                assert chunk, got
                got += chunk
        # one analysis process: this call runs once the abandoned one has given it up, stopped
        with grpc.insecure_channel(f"127.0.0.1:{e.port}") as ch:
            after = api.AnyStub(ch).AnalyzeMatch(api.AnalyzeMatchRequest(mat=_mat("match0000.mat")), timeout=TIMEOUT)
        assert after.games == 3
        assert e.analysis.replaced == before + 1
    finally:
        app.stop(e, 0.5)
