"""The engine calls' thread pool (service/tavla/server/admission/pool.py): a few threads taking queued calls,
and one more for each thread held by a call whose request has not arrived (a thread per
call cost more CPU than the answer; a few threads must not let slow clients stall the engine)."""

from __future__ import annotations

import threading
import time

import grpc
import pytest

from tavla.server.admission import policy as admission
from tavla.server.process import app
from tavla.server.admission import limits, pool
from tavla.server.process.config import Config
import rpc_api as api
from tavla.v1 import types_pb2 as pb

TIMEOUT = 30
LIST = "/tavla.v1.RulesService/ListLegalMoves"


def _wait(predicate, seconds: float = TIMEOUT) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_runs_calls_on_its_threads_and_hands_back_results_and_errors():
    engine = pool.CallPool(2, 8, held=lambda ident, now: False)
    names = set()

    def work(n):
        names.add(threading.current_thread().name)
        if n == 3:
            raise ValueError("three")
        return n * n

    futures = [engine.submit(work, n) for n in range(10)]
    assert [f.result(TIMEOUT) for f in futures if f is not futures[3]] == [n * n for n in range(10) if n != 3]
    with pytest.raises(ValueError, match="three"):
        futures[3].result(TIMEOUT)
    assert engine.size() == 2 and len(names) <= 2  # no thread per call
    assert engine.top_up() == 0  # nothing queued, nothing held
    engine.shutdown()
    with pytest.raises(RuntimeError):
        engine.submit(work, 1)


def test_a_held_thread_is_replaced_while_calls_queue_and_the_extra_thread_leaves(monkeypatch):
    monkeypatch.setattr(pool, "IDLE_SECONDS", 0.1)
    held_idents: set[int] = set()
    engine = pool.CallPool(2, 3, held=lambda ident, now: ident in held_idents)
    release = threading.Event()

    def slow_client():  # stands for a thread waiting for a request that does not come
        held_idents.add(threading.get_ident())
        release.wait(TIMEOUT)

    blockers = [engine.submit(slow_client) for _ in range(2)]
    _wait(lambda: len(held_idents) == 2)
    queued = [engine.submit(lambda n=n: n) for n in range(5)]
    assert not any(f.done() for f in queued)  # both threads held: nothing runs
    assert engine.top_up() == 1  # two held, but at most 3 threads
    assert [f.result(TIMEOUT) for f in queued] == list(range(5))
    assert engine.size() == 3
    release.set()
    for f in blockers:
        f.result(TIMEOUT)
    _wait(lambda: engine.size() == 2)  # the extra thread had nothing to do and left
    engine.shutdown()
    assert engine.size() == 0


def test_top_up_counts_only_held_threads():
    engine = pool.CallPool(2, 8, held=lambda ident, now: False)
    release = threading.Event()
    started = threading.Semaphore(0)

    def work() -> bool:  # working, not held
        started.release()
        return release.wait(TIMEOUT)

    busy = [engine.submit(work) for _ in range(2)]
    queued = engine.submit(lambda: "later")
    assert all(started.acquire(timeout=TIMEOUT) for _ in busy)  # both threads are in their calls
    assert engine.top_up() == 0 and not queued.done()  # busy threads are not replaced
    release.set()
    assert queued.result(TIMEOUT) == "later" and all(f.result(TIMEOUT) for f in busy)
    engine.shutdown()


def test_shutdown_can_cancel_queued_calls():
    engine = pool.CallPool(1, 1, held=lambda ident, now: False)
    release = threading.Event()
    running = engine.submit(release.wait, TIMEOUT)
    queued = engine.submit(lambda: "never")
    _wait(lambda: running.running())
    release.set()
    engine.shutdown(wait=True, cancel_futures=True)
    assert running.result(TIMEOUT) is True
    assert queued.cancelled() or queued.result(TIMEOUT) == "never"  # it may have been taken already


def test_engine_calls_are_answered_while_slow_clients_wait_without_threads():
    # More clients than engine threads send headers and no request: each is held until its request
    # arrives, without a thread (admission/arrivals.py), so a normal call is answered while they
    # are still open and the engine pool never grows for them (the watchdog cuts them later).
    engine = app.build(Config(port=0, host="127.0.0.1", metrics_port=None))
    app.start(engine)
    slow = admission.ENGINE_THREADS + 2
    hold = threading.Event()

    target = f"127.0.0.1:{engine.port}"
    channels = [grpc.insecure_channel(target) for _ in range(2)]
    try:
        hung = [channels[0].stream_unary(LIST, request_serializer=None, response_deserializer=None)
                .future(_silent(hold), timeout=TIMEOUT) for _ in range(slow)]
        executor = engine.executor
        _wait(lambda: executor.arrivals.count() >= slow)  # each held, waiting for its request
        stub = api.AnyStub(channels[1])
        answer = stub.ListLegalMoves(api.ListLegalMovesRequest(
            position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[6, 5]), timeout=TIMEOUT)
        # R4-R14 from the start with 6-5 (8 and 6 points given up or kept, the run 24/13)
        assert [m.notation for m in answer.moves] == ["24/13", "24/18 13/8", "24/18 8/3", "13/7 13/8",
                                                       "13/7 8/3", "13/2", "8/2 8/3"]
        assert not any(call.done() for call in hung)  # answered before any slow call was cut off
        assert executor.engine_pool.size() == admission.ENGINE_THREADS  # no thread taken by them
    finally:
        hold.set()
        for ch in channels:
            ch.close()
        app.stop(engine, grace=0)


def _silent(release: threading.Event):
    """A request stream that sends nothing until ``release`` is set (a client that went quiet)."""
    release.wait(TIMEOUT)
    return
    yield


def _server():
    engine = app.build(Config(port=0, host="127.0.0.1", metrics_port=None))
    app.start(engine)
    return engine, f"127.0.0.1:{engine.port}"


def test_validate_match_streams_do_not_take_the_engine_threads():
    # finding (fresh-user trial): two ValidateMatch streams whose client went quiet after
    # opening held both engine threads, and every other engine call waited; a stream now runs
    # on a thread of its own, still counted as an admitted engine call
    engine, target = _server()
    hold = threading.Event()

    channels = [grpc.insecure_channel(target) for _ in range(2)]
    try:
        stub = api.AnyStub(channels[0])

        def stream_threads() -> int:
            return sum(t.name.startswith("tavla-rpc-stream") for t in threading.enumerate())

        before = stream_threads()  # other tests' servers may have left some
        # as many quiet streams as a worker admits (MAX_STREAMS per kind)
        streams = [stub.ValidateMatch(_silent(hold), timeout=TIMEOUT) for _ in range(limits.MAX_STREAMS)]
        executor = engine.executor
        _wait(lambda: executor.admitted() == len(streams))  # admitted as engine calls
        _wait(lambda: stream_threads() >= before + len(streams))  # each on a thread of its own
        answer = api.AnyStub(channels[1]).ListLegalMoves(
            api.ListLegalMovesRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[6, 5]),
            timeout=TIMEOUT)
        assert len(answer.moves) == 7
        assert executor.engine_pool.size() == admission.ENGINE_THREADS  # no extra thread needed
    finally:
        hold.set()
        for ch in channels:
            ch.close()
        app.stop(engine, grace=0)


def test_health_checks_are_answered_while_slow_clients_hold_the_health_threads():
    # finding (fresh-user trial): 8 health checks sending headers only made a real one take 1.1 s
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    engine, target = _server()
    hold = threading.Event()

    channels = [grpc.insecure_channel(target) for _ in range(2)]
    try:
        hung = [channels[0].stream_unary("/grpc.health.v1.Health/Check", request_serializer=None,
                                         response_deserializer=None).future(_silent(hold), timeout=TIMEOUT)
                for _ in range(admission.HEALTH_THREADS + 2)]
        _wait(lambda: engine.executor.running() >= len(hung))
        reply = health_pb2_grpc.HealthStub(channels[1]).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        assert not any(call.done() for call in hung)  # answered before the watchdog cut them (1 s)
    finally:
        hold.set()
        for ch in channels:
            ch.close()
        app.stop(engine, grace=0)
