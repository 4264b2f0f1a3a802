"""Streaming calls cannot starve the server: idle reflection streams beyond the cap are refused,
and health checks and engine calls keep answering (a finding of the fresh-user trial)."""

from __future__ import annotations

import threading

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tavla.server.admission.limits import MAX_STREAMS
import rpc_api as api


def _hold_reflection_stream(target: str, opened: threading.Event, release: threading.Event, codes: list):
    with grpc.insecure_channel(target) as ch:
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)

        def requests():
            yield reflection_pb2.ServerReflectionRequest(list_services="")
            release.wait(60)

        try:
            for _ in stub.ServerReflectionInfo(requests(), timeout=60):
                opened.set()
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as exc:
            codes.append(exc.code())
            opened.set()


def test_idle_reflection_streams_do_not_starve_the_server(server_address):
    release = threading.Event()
    codes: list = []
    threads, events = [], []
    for _ in range(3 * MAX_STREAMS):
        opened = threading.Event()
        t = threading.Thread(target=_hold_reflection_stream, args=(server_address, opened, release, codes))
        t.start()
        threads.append(t)
        events.append(opened)
    try:
        assert all(e.wait(30) for e in events)
        with grpc.insecure_channel(server_address) as ch:
            health = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
            engine = api.AnyStub(ch)
            assert engine.GetInitialPosition(api.GetInitialPositionRequest(), timeout=10).position.ids.position_id
    finally:
        release.set()
        for t in threads:
            t.join(60)
    assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 2 * MAX_STREAMS
