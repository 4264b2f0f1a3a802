"""Limits: concurrent engine calls beyond the limit get RESOURCE_EXHAUSTED (health still answers),
a call past its deadline stops before doing the work, the server's own time budget, and the
message size limit."""

from __future__ import annotations

import queue
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavla import core
from tavla.server.process import app
from tavla.server.admission import limits
from tavla.server.api import deadline
from tavla.server.admission.calls import final_code
from tavla.server.process.config import Config
from tavla.server.api.generator import MoveGenerator
from tavla.server.api.engine import Engine
from tavla.server.api.rules import RulesService
from tavla.server.api.servicers import for_engine
from engine_servicers import by_service
import rpc_api as api
from tavla.v1 import types_pb2 as pb

START_ID = "4HPwATDgc/ABMA"
TIMEOUT = 30
LIST_REQUEST = api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[6, 6])


class Outcomes(grpc.ServerInterceptor):
    """Records each engine call's final code as the server sees it (runs inside the access log,
    outside the limits), so a test can wait for the server to be done with a call."""

    def __init__(self) -> None:
        self.codes: queue.Queue[tuple[str, grpc.StatusCode]] = queue.Queue()

    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None or handler.unary_unary is None or not details.method.startswith("/tavla.v1."):
            return handler
        behaviour = handler.unary_unary

        def recorded(request, context):
            raised = True
            try:
                response = behaviour(request, context)
                raised = False
                return response
            finally:
                self.codes.put((details.method.rsplit("/", 1)[1], final_code(context, raised=raised)))

        return grpc.unary_unary_rpc_method_handler(recorded, request_deserializer=handler.request_deserializer,
                                                   response_serializer=handler.response_serializer)


def serve(options: Config, servicers=None, interceptors=()):
    engine = app.build(options, by_service=servicers, interceptors=interceptors)
    app.start(engine)
    return engine


# --- concurrency ------------------------------------------------------------------------------


class Holding(RulesService):
    """GetInitialPosition waits until released, so calls pile up."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Semaphore(0)
        self.release = threading.Event()

    def GetInitialPosition(self, request, context):
        self.entered.release()
        self.release.wait(TIMEOUT)
        return super().GetInitialPosition(request, context)


def test_calls_beyond_the_limit_get_resource_exhausted_and_health_still_answers():
    servicer = Holding()
    engine = serve(Config(host="127.0.0.1", port=0, max_concurrent_rpcs=2), by_service(servicer))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
            stub = api.AnyStub(channel)
            held = [stub.GetInitialPosition.future(api.GetInitialPositionRequest(), timeout=TIMEOUT)
                    for _ in range(2)]
            for _ in held:
                assert servicer.entered.acquire(timeout=TIMEOUT)
            with pytest.raises(grpc.RpcError) as info:
                stub.ListLegalMoves(LIST_REQUEST, timeout=TIMEOUT)
            assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "retry with backoff" in info.value.details()
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            servicer.release.set()
            assert all(f.result().position.ids.position_id == START_ID for f in held)
            assert len(stub.ListLegalMoves(LIST_REQUEST, timeout=TIMEOUT).moves) > 0  # slots freed
    finally:
        servicer.release.set()
        engine.server.stop(None)


# --- deadlines --------------------------------------------------------------------------------


class Late(RulesService):
    """ListLegalMoves is slow to start: it waits until the call's time is up, then goes on."""

    def ListLegalMoves(self, request, context):
        while deadline.remaining(context) > 0:
            time.sleep(0.01)
        return super().ListLegalMoves(request, context)


@pytest.fixture
def counted_generation(monkeypatch):
    generated = []
    real = core.legal_moves

    def counting(*args, **kwargs):
        generated.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(core, "legal_moves", counting)
    yield generated
    MoveGenerator.from_env().install()  # the pure engines below took the core's generator


PURE = MoveGenerator.pure()  # the pure-Python path, whose generation is counted (not the compiled one)


def test_call_past_its_deadline_stops_before_move_generation(counted_generation):
    outcomes = Outcomes()
    engine = serve(Config(host="127.0.0.1", port=0), by_service(Late(Engine(generator=PURE))), [outcomes])
    counted_generation.clear()  # the start-up self-check generated once
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
            stub = api.AnyStub(channel)
            with pytest.raises(grpc.RpcError) as info:
                stub.ListLegalMoves(LIST_REQUEST, timeout=0.5)
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            method, code = outcomes.codes.get(timeout=TIMEOUT)  # the server is done with it
        assert (method, code) == ("ListLegalMoves", grpc.StatusCode.DEADLINE_EXCEEDED)
        assert counted_generation == []  # no move was generated for it
    finally:
        engine.server.stop(None)


@pytest.mark.parametrize("path", ["python", "compiled"])
def test_server_budget_applies_when_the_client_sets_no_deadline(path, request):
    # "compiled": ListLegalMoves' fast path (a Position ID answered in one compiled call) checks
    # the budget after its answer, so a call that ran out of time is not answered OK either
    counted = request.getfixturevalue("counted_generation") if path == "python" else None
    outcomes = Outcomes()
    engine = serve(Config(host="127.0.0.1", port=0, max_call_seconds=0.2), by_service(Late()), [outcomes])
    if counted is not None:
        counted.clear()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
            stub = api.AnyStub(channel)
            with pytest.raises(grpc.RpcError) as info:
                stub.ListLegalMoves(LIST_REQUEST)  # no deadline
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            assert "max_call_seconds" in info.value.details()
            assert outcomes.codes.get(timeout=TIMEOUT)[1] == grpc.StatusCode.DEADLINE_EXCEEDED
            if counted is not None:
                assert counted == []
            # other methods are not slow, and are answered within the same budget
            assert stub.GetInitialPosition(api.GetInitialPositionRequest()).position.ids.position_id == START_ID
    finally:
        engine.server.stop(None)


def test_deadline_checked_while_encoding_many_moves(monkeypatch, counted_generation):
    # A spread position with 1-1 has over a thousand legal moves: the time runs out part way.
    from tavla.server.api import rules as servicer_module

    white = pb.SideCheckers(points=[1] * 15 + [0] * 9)
    black = pb.SideCheckers(points=[1] + [0] * 23, borne_off=14)
    request = api.ListLegalMovesRequest(position=pb.Position(on_roll=pb.SIDE_WHITE,
                                                             board=pb.Board(white=white, black=black)),
                                        dice=[1, 1])
    encoded = []
    real = servicer_module.convert.moves_to_wire
    expire_after = 2 * servicer_module._DEADLINE_CHECK_EVERY  # moves: two chunks between deadline checks

    def encode(moves, view):
        encoded.extend(moves)
        if len(encoded) == expire_after:
            deadline.BUDGET_END.set(time.monotonic() - 1)  # the server's budget runs out here
        return real(moves, view)

    outcomes = Outcomes()
    # the pure-Python path: the compiled one answers the largest position in about 1 ms, at once
    engine = serve(Config(host="127.0.0.1", port=0), for_engine(Engine(generator=PURE)), [outcomes])
    monkeypatch.setattr(servicer_module.convert, "moves_to_wire", encode)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
            stub = api.AnyStub(channel)
            with pytest.raises(grpc.RpcError) as info:
                stub.ListLegalMoves(request, timeout=TIMEOUT)
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        total = len(core.legal_moves(servicer_module.convert.position_from_proto(request.position), (1, 1)))
        assert total > expire_after + 64  # (1157)
        assert len(encoded) == expire_after  # stopped at the next check, before the next chunk
    finally:
        engine.server.stop(None)


# --- message size -----------------------------------------------------------------------------


def test_message_larger_than_the_limit_is_refused():
    engine = serve(Config(host="127.0.0.1", port=0, max_message_bytes=1024))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
            stub = api.AnyStub(channel)
            big = api.ApplyMoveRequest(position=pb.Position(position_id=START_ID), dice=[5, 1],
                                       move=pb.Move(notation="x" * 2000))
            with pytest.raises(grpc.RpcError) as info:
                stub.ApplyMove(big, timeout=TIMEOUT)
            assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            # a response over the limit is refused too: 1-1 from the start lists 42 moves (> 1 KiB)
            with pytest.raises(grpc.RpcError) as info:
                stub.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID),
                                                              dice=[1, 1]), timeout=TIMEOUT)
            assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        engine.server.stop(None)


def test_grpc_backstop_leaves_room_for_a_flood_of_shed_calls():
    """gRPC's own cap (which refuses health checks too) stays far above the admission limit, with
    a floor, so a flood the admission sheds never reaches it (CI: --max-concurrent-rpcs 4 had a
    backstop of 32, and a flood of 384 shed calls made gRPC refuse a health check)."""
    from tavla.server.process import app
    assert app.backstop(4) == 1024
    assert app.backstop(64) == 1024
    assert app.backstop(1000) == (1000 + app.MAX_STREAMS) * 4
