"""SIGTERM while clients that ignore health keep calling: every call the server started is
answered OK, and any it did not take fails UNAVAILABLE before it started (no ``x-request-id``
sent, none logged), which the clients' retry policy retries; never CANCELLED, INTERNAL or
UNKNOWN. Before, 15 of 22,314 calls were lost at the moment the server stopped accepting."""

from __future__ import annotations

import collections
import threading

import grpc
import pytest
from harness import START_ID, Server, report

import rpc_api as api
from tavla.server.api import services
from tavla.v1 import types_pb2 as pb

_SERVICE = services.METHODS["ListLegalMoves"].containing_service
PATH = f"/{_SERVICE.full_name}/ListLegalMoves"
REQUEST = api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[3, 1])


def _loop(target: str, out: list, answered: threading.Semaphore, stop: threading.Event) -> None:
    with grpc.insecure_channel(target) as channel:
        call = channel.unary_unary(PATH, request_serializer=lambda m: m.SerializeToString(),
                                   response_deserializer=api.ListLegalMovesResponse.FromString)
        while not stop.is_set():
            rid = f"t{threading.get_ident()}-{len(out)}"
            try:
                call(REQUEST, timeout=30, metadata=[("x-request-id", rid)])
                out.append((rid, grpc.StatusCode.OK, True))
                answered.release()
            except grpc.RpcError as err:
                started = any(k == "x-request-id" for k, _ in (err.initial_metadata() or ()))
                out.append((rid, err.code(), started))
                if err.code() == grpc.StatusCode.UNAVAILABLE and not started:
                    stop.wait(0.01)  # the server has gone: keep knocking a little
                if len([o for o in out if o[1] != grpc.StatusCode.OK]) > 50:
                    return


@pytest.mark.xfail(reason="open: calls gRPC's core took but had not handed over when stop() began are "
                          "cancelled by its shutdown (CANCELLED, never started); docs/reliability.md, SIGTERM")
def test_sigterm_answers_every_call_it_took():
    server = Server("--drain-seconds", "0.3", "--grace-seconds", "5", workers=1)
    stop = threading.Event()
    answered = threading.Semaphore(0)
    results: list[list] = [[] for _ in range(6)]
    threads = [threading.Thread(target=_loop, args=(server.target, out, answered, stop)) for out in results]
    for t in threads:
        t.start()
    for _ in range(300):  # the loop is running on every channel
        assert answered.acquire(timeout=60)
    code = server.stop()
    stop.set()
    for t in threads:
        t.join(60)
    calls = [c for out in results for c in out]
    codes = collections.Counter(c[1].name for c in calls)
    logged = {e.get("request_id") for e in server.lines() if e.get("event") == "rpc"}
    report(f"SIGTERM under {len(threads)} channels ignoring health: {len(calls)} calls, {dict(codes)}")
    assert code == 0
    bad = [c for c in calls if c[1] not in (grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE)]
    assert bad == []
    refused = [c for c in calls if c[1] == grpc.StatusCode.UNAVAILABLE]
    assert [c for c in refused if c[2] or c[0] in logged] == []
    assert all(c[0] in logged for c in calls if c[1] == grpc.StatusCode.OK)
