"""Tracing: one SERVER span per call, child of the caller's ``traceparent``, with the rpc
attributes and status code, and its trace id on the call's log line; a clear error when tracing
is configured without OpenTelemetry installed."""

from __future__ import annotations

import io
import json
import logging
import sys

import grpc
import pytest
import structlog

from tavla import cli
from tavla.server.process import app
from tavla.server.pipeline import logs
from tavla.server.process.config import Config
from tavla.server.pipeline.tracing import INSTALL_HINT, Tracing
import rpc_api as api
from tavla.v1 import types_pb2 as pb

TIMEOUT = 30
START_ID = "4HPwATDgc/ABMA"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


def test_otlp_endpoint_without_opentelemetry_is_a_clear_error(monkeypatch, capsys):
    for name in ("opentelemetry", "opentelemetry.sdk", "opentelemetry.sdk.trace"):
        monkeypatch.setitem(sys.modules, name, None)  # as if the otel extra were not installed
    monkeypatch.setenv("TAVLA_OTLP_ENDPOINT", "http://127.0.0.1:4317")
    with pytest.raises(SystemExit) as info:
        cli.main(["serve"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "OpenTelemetry is not installed" in err and INSTALL_HINT in err


@pytest.fixture
def traced():
    pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = Tracing.new_provider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing = Tracing(provider)
    engine = app.build(Config(host="127.0.0.1", port=0), tracing=tracing)
    app.start(engine)
    stream = io.StringIO()
    logs.configure("info", "json", stream)
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
        yield api.AnyStub(channel), exporter, stream
    engine.server.stop(None)
    tracing.shutdown()
    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.name == "tavla"]:
        root.removeHandler(handler)
    structlog.reset_defaults()
    logs.ensure_configured()


def test_spans_for_calls_child_of_the_callers_trace(traced):
    from opentelemetry.trace import SpanKind, StatusCode

    stub, exporter, stream = traced
    parent = (("traceparent", f"00-{TRACE_ID}-{PARENT_ID}-01"), ("x-request-id", "traced-1"))
    stub.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[3, 1]),
                        timeout=TIMEOUT, metadata=parent)
    with pytest.raises(grpc.RpcError):
        stub.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[9, 9]),
                            timeout=TIMEOUT)
    ok, bad = exporter.get_finished_spans()
    assert ok.name == "tavla.v1.RulesService/ListLegalMoves"
    assert ok.kind == SpanKind.SERVER
    assert format(ok.context.trace_id, "032x") == TRACE_ID
    assert format(ok.parent.span_id, "016x") == PARENT_ID
    assert dict(ok.attributes) == {"rpc.system": "grpc", "rpc.service": "tavla.v1.RulesService",
                                   "rpc.method": "ListLegalMoves", "rpc.grpc.status_code": 0}
    assert ok.resource.attributes["service.name"] == "tavla-engine"
    assert bad.attributes["rpc.grpc.status_code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert bad.status.status_code == StatusCode.UNSET  # a client's error is not the server's
    assert bad.parent is None and bad.context.trace_id != ok.context.trace_id
    [line] = [json.loads(x) for x in stream.getvalue().splitlines() if '"traced-1"' in x]
    assert line["trace_id"] == TRACE_ID


class _Context:
    """The parts of a servicer context the tracing interceptor reads."""

    def __init__(self) -> None:
        self._code = None

    def invocation_metadata(self):
        return ()

    def set_code(self, code) -> None:
        self._code = code

    def code(self):
        return self._code

    def is_active(self) -> bool:
        return True


@pytest.mark.parametrize(("code", "error"), [(grpc.StatusCode.INTERNAL, True), (grpc.StatusCode.UNAVAILABLE, True),
                                             (grpc.StatusCode.NOT_FOUND, False), (None, False)])
def test_server_errors_mark_the_span_as_error_and_client_errors_do_not(code, error):
    pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import StatusCode

    from tavla.server.pipeline.tracing import TracingInterceptor

    exporter = InMemorySpanExporter()
    provider = Tracing.new_provider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))

    def behaviour(request, context):
        if code is not None:
            context.set_code(code)
        return "answer"

    wrapped = TracingInterceptor(provider.get_tracer("test")).wrap(behaviour, "/tavla.v1.RulesService/Probe")
    assert wrapped("request", _Context()) == "answer"
    [span] = exporter.get_finished_spans()
    assert span.attributes["rpc.grpc.status_code"] == (code or grpc.StatusCode.OK).value[0]
    assert (span.status.status_code == StatusCode.ERROR) is error
    if error:
        assert span.status.description == code.name
