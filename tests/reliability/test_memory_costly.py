"""Memory under the costliest requests with cancellations and HTTP aborts.

A storm of the costliest ListLegalMoves (2,065 moves, 280 KB answers) from grpc.aio in batches
of 50 with short client deadlines, beside HTTP clients that send the same call over Connect and
close the connection before the answer: one worker with the chart's defaults (64 engine calls
admitted) must not grow by more than 136 MiB at its peak, and must give the memory back after the
burst (within 86 MiB of where it started: the earlier bounds, 200 and 150 MiB, over today's 64). Before, the workers rose from 84 to 350-420 MB and
kept 255-358 MB.

What is measured is the server process alone (it has no child: no analysis call is made), from
a baseline taken in that same process once it has started and loaded the bear-off tables, so the
bounds hold whatever the test process, xdist's other worker or another test's server use. What is
kept is measured once the server has trimmed its heap after the burst (its
``tavla_memory_trims_total`` went up), not after a fixed time.

Short by default (a few seconds of storm); ``TAVLA_RELIABILITY_LONG=1`` storms for a minute.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import urllib.request

import grpc
from harness import COSTLY, HANG_GUARD, LONG, START_ID, Server, report, rss_mib
from prometheus_client.parser import text_string_to_metric_families

import rpc_api as api
from tavla.server.api import services
from tavla.v1 import types_pb2

UNAVAILABLE: list[str] = []
# growth over the server's own baseline, 64 MiB with the bear-off tables (measured before: start
# 60-69 MiB, peak 119-148, 97-112 2 s after); the bounds were 200 MiB peak and 150 after, absolute
PEAK_GROWTH_MIB = 136.0
KEPT_MIB = 86.0
STORMS = 4
STORM_SECONDS = 60.0 if LONG else 15.0
_SERVICE = services.METHODS["ListLegalMoves"].containing_service
PATH = f"/{_SERVICE.full_name}/ListLegalMoves"
BODY = COSTLY.SerializeToString()


async def _storm(target: str, stop: threading.Event, codes: dict[str, int]) -> None:
    async with grpc.aio.insecure_channel(target) as channel:
        call = channel.unary_unary(PATH, request_serializer=lambda b: b, response_deserializer=lambda b: b)
        n = 0
        while not stop.is_set():
            n += 1
            limit = 0.05 if n % 2 else 2.0  # seconds: half are cancelled by their deadline mid-work
            batch = [call(BODY, timeout=limit) for _ in range(50)]
            for result in await asyncio.gather(*batch, return_exceptions=True):
                code = "OK" if isinstance(result, bytes) else result.code().name  # type: ignore[union-attr]
                codes[code] = codes.get(code, 0) + 1
                if code == "UNAVAILABLE":
                    UNAVAILABLE.append(result.details())  # type: ignore[union-attr]


def _aborter(port: int, stop: threading.Event, count: list[int]) -> None:
    request = (f"POST {PATH} HTTP/1.1\r\nhost: t\r\ncontent-type: application/proto\r\n"
               f"content-length: {len(BODY)}\r\n\r\n").encode() + BODY
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(request)
                time.sleep(0.005)  # the call is in the handler: go away without reading
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            count[0] += 1
        except OSError:
            time.sleep(0.01)


def _baseline(server: Server) -> float:
    """The server's RSS once it has loaded the bear-off tables (a warm-up of its own, not the storm's)."""
    server.wait_for_line(lambda e: e.get("event") == "bear-off database ready", "the bear-off tables loaded")
    return rss_mib(server.proc.pid)


def _trims(server: Server) -> float:
    """The server's ``tavla_memory_trims_total``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=HANG_GUARD) as r:
        text = r.read().decode()
    return sum(sample.value for family in text_string_to_metric_families(text)
               if family.name == "tavla_memory_trims" for sample in family.samples
               if sample.name == "tavla_memory_trims_total")


def _wait_for_trim(server: Server, before: float) -> float:
    """Until the server has trimmed its heap since ``before`` trims; seconds waited."""
    begin = time.monotonic()
    while _trims(server) <= before:
        assert time.monotonic() < begin + HANG_GUARD, f"waited for a heap trim after the burst: not within " \
                                                      f"{HANG_GUARD:g} s (a hang guard)\n{server.log()}"
        time.sleep(0.1)
    return time.monotonic() - begin


def test_a_worker_gives_back_what_the_costliest_storm_with_aborts_took():
    http_port = _free_port()
    server = Server("--http-port", str(http_port), metrics=True)
    pid = server.proc.pid
    stop = threading.Event()
    codes: dict[str, int] = {}
    aborted = [0]
    samples: list[float] = []
    threads = [threading.Thread(target=lambda: asyncio.run(_storm(server.target, stop, codes))) for _ in range(STORMS)]
    threads += [threading.Thread(target=_aborter, args=(http_port, stop, aborted)) for _ in range(4)]
    try:
        assert server.worker_pids() == [pid]  # one process, no child: its RSS is the server's
        baseline = _baseline(server)
        for t in threads:
            t.start()
        end = time.monotonic() + STORM_SECONDS
        while time.monotonic() < end:
            samples.append(rss_mib(pid))
            time.sleep(0.05)
        stop.set()
        for t in threads:
            t.join(HANG_GUARD)
            assert not t.is_alive(), "waited for the storm's clients to finish"
        # memory is given back once the worker has been idle (the trimmer): measured after a trim
        # that follows a call made after every storm call ended (an earlier trim may be counted)
        trims = _trims(server)
        with grpc.insecure_channel(server.target) as channel:
            api.AnyStub(channel).ListLegalMoves(
                api.ListLegalMovesRequest(position=types_pb2.Position(position_id=START_ID), dice=[3, 1]),
                timeout=HANG_GUARD)
        calm = _wait_for_trim(server, trims)
        after = rss_mib(pid)
        assert server.worker_pids() == [pid]
    finally:
        stop.set()
        server.stop()
    peak = max(samples)
    report(f"memory, costliest storm {STORM_SECONDS:g} s (grpc.aio batches of 50, half with 50 ms deadlines) "
           f"+ {aborted[0]} aborted HTTP calls: {codes}; server RSS {baseline:.0f} MiB before (bear-off loaded), "
           f"peak {peak:.0f}, {after:.0f} after its trim ({calm:.1f} s after the storm)")
    assert codes.get("OK", 0) > 0
    # UNAVAILABLE only for streams refused by the per-connection stream limit (REFUSED_STREAM: never
    # processed, retried by the service config): the server still counts the cancelled ones
    assert set(codes) <= {"OK", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "CANCELLED", "UNAVAILABLE"}, codes
    assert all("error code 7" in d for d in UNAVAILABLE), UNAVAILABLE[:3]
    assert peak - baseline < PEAK_GROWTH_MIB, f"peak {peak:.0f} MiB, {baseline:.0f} before"
    # memory is given back after the burst (tavla.server.process.memory: 97-112 MiB 2 s after here, 132
    # without the trim; 193 MiB kept by one worker was measured before)
    assert after - baseline < KEPT_MIB, f"{after:.0f} MiB after the burst, {baseline:.0f} before"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
