"""The per-call plumbing around an answer: interceptors are applied once per
method, not per call; the access log looks nothing up for a line it does not write."""

from __future__ import annotations

import logging

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavla.server.pipeline import access_log
from tavla.server.process import app
from tavla.server.pipeline import logs
from tavla.server.admission.calls import CachedChain, UnaryInterceptor
from tavla.server.process.config import Config
import rpc_api as api
from tavla.v1 import types_pb2 as pb


class CountingInterceptor(UnaryInterceptor):
    """Counts how often it wraps a handler and how often the wrapped behaviour runs."""

    def __init__(self) -> None:
        self.wrapped: list[str] = []
        self.ran = 0

    def wrap(self, behaviour, full_method):  # type: ignore[no-untyped-def]
        self.wrapped.append(full_method)

        def run(request, context):  # type: ignore[no-untyped-def]
            self.ran += 1
            return behaviour(request, context)

        return run


class Details:
    def __init__(self, method: str) -> None:
        self.method = method
        self.invocation_metadata = ()


def _handler(behaviour):  # type: ignore[no-untyped-def]
    return grpc.unary_unary_rpc_method_handler(behaviour)


def test_cached_chain_wraps_once_per_method_and_runs_every_call() -> None:
    counting = CountingInterceptor()
    chain = CachedChain([counting])
    echo = _handler(lambda request, context: request)
    details = Details("/tavla.v1.RulesService/ListLegalMoves")
    handlers = [chain.intercept_service(lambda _d: echo, details) for _ in range(5)]
    assert all(h is handlers[0] for h in handlers)
    assert counting.wrapped == ["/tavla.v1.RulesService/ListLegalMoves"]
    assert [h.unary_unary(i, None) for i, h in enumerate(handlers)] == [0, 1, 2, 3, 4]
    assert counting.ran == 5


def test_cached_chain_wraps_again_when_the_inner_handler_changes() -> None:
    counting = CountingInterceptor()
    chain = CachedChain([counting])
    details = Details("/tavla.v1.RulesService/ListLegalMoves")
    first = chain.intercept_service(lambda _d: _handler(lambda r, c: "first"), details)
    second = chain.intercept_service(lambda _d: _handler(lambda r, c: "second"), details)
    assert first.unary_unary(None, None) == "first"
    assert second.unary_unary(None, None) == "second"
    assert len(counting.wrapped) == 2


def test_cached_chain_keeps_no_unknown_method() -> None:
    chain = CachedChain([CountingInterceptor()])
    for i in range(1000):
        assert chain.intercept_service(lambda _d: None, Details(f"/no.Such/M{i}")) is None
    assert chain._cache == {}


class PerCall(grpc.ServerInterceptor):  # type: ignore[misc]
    """A caller's interceptor: still runs for every call."""

    def __init__(self) -> None:
        self.calls = 0

    def intercept_service(self, continuation, details):  # type: ignore[no-untyped-def]
        self.calls += 1
        return continuation(details)


def test_server_runs_its_interceptors_per_method_and_callers_per_call() -> None:
    per_call = PerCall()
    engine = app.build(Config(host="127.0.0.1", port=0), interceptors=[per_call])
    app.start(engine)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
            stub = api.AnyStub(channel)
            request = api.ListLegalMovesRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[3, 1])
            for _ in range(3):
                assert len(stub.ListLegalMoves(request, timeout=10).moves) == 16  # R4: 3-1 from the start
            health = health_pb2_grpc.HealthStub(channel)
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=10).status == \
                health_pb2.HealthCheckResponse.SERVING
            # a bad request still gets INVALID_ARGUMENT through the cached error mapping
            bad = api.ListLegalMovesRequest(position=pb.Position(position_id="!!"), dice=[3, 1])
            try:
                stub.ListLegalMoves(bad, timeout=10)
                raise AssertionError("a bad position id was answered")
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert per_call.calls == 5
    finally:
        app.stop(engine, 1.0)


class Context:
    def __init__(self) -> None:
        self.peers = 0

    def peer(self) -> str:
        self.peers += 1
        return "ipv4:127.0.0.1:1"

    def details(self) -> str:
        return ""


def test_access_log_skips_a_line_below_the_level() -> None:
    try:
        logs.configure("warning", "json")
        context = Context()
        access_log._log_call("/tavla.v1.RulesService/ListLegalMoves", None, context, grpc.StatusCode.OK, 0.001,
                             False)
        assert context.peers == 0  # an info line at warning level: nothing looked up
        access_log._log_call("/tavla.v1.RulesService/ListLegalMoves", None, context,
                             grpc.StatusCode.RESOURCE_EXHAUSTED, 0.001, False)
        assert context.peers == 1  # a warning line is written, with its peer
    finally:
        logs.configure("info", "json")
        logging.getLogger().setLevel(logging.INFO)
