"""Header-only HTTP/2 floods against a real server: every real call made meanwhile is answered.

Connections that open many gRPC streams with HEADERS and never a DATA frame, kept coming for as
long as real ListLegalMoves calls run on other connections. Before, 10 connections x 300 such
streams turned 35-52 % of the real calls into RESOURCE_EXHAUSTED: each stream was counted
against the admission limit before its request came. Raw HTTP/2 frames (``h2``).
"""

from __future__ import annotations

import socket
import threading
import time

import grpc
import pytest
from harness import START_ID, Server, report

import rpc_api as api
from tavla.server.api import services
from tavla.server.process import app
from tavla.v1 import types_pb2 as pb

_SERVICE = services.METHODS["ListLegalMoves"].containing_service
PATH = f"/{_SERVICE.full_name}/ListLegalMoves"
REQUEST = api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[3, 1])
_HEADERS = [(":method", "POST"), (":path", PATH), (":scheme", "http"), (":authority", "t"),
            ("content-type", "application/grpc"), ("te", "trailers")]


def _open(port: int, streams: int) -> socket.socket:
    """A connection that opened ``streams`` calls with headers and nothing else."""
    import h2.config
    import h2.connection

    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    for _ in range(streams):
        conn.send_headers(conn.get_next_available_stream_id(), _HEADERS)
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(conn.data_to_send())
    return sock


class Flood:
    """``connections`` x ``streams`` header-only streams, opened again and again until stopped
    (each round's connections stay open until the next round's are)."""

    def __init__(self, port: int, connections: int, streams: int) -> None:
        self.port, self.connections, self.streams = port, connections, streams
        self.rounds = 0
        self.first = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        held: list[socket.socket] = []
        try:
            while not self._stop.is_set():
                fresh = [_open(self.port, self.streams) for _ in range(self.connections)]
                for sock in held:
                    sock.close()
                held = fresh
                self.rounds += 1
                self.first.set()
                self._stop.wait(0.3)
        finally:
            for sock in held:
                sock.close()

    def __enter__(self) -> Flood:
        self._thread.start()
        assert self.first.wait(60), "the flood never opened its connections"
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(60)


def _real_calls(target: str, count: int, codes: list[grpc.StatusCode], gap: float = 0.04) -> None:
    with grpc.insecure_channel(target) as channel:
        call = channel.unary_unary(PATH, request_serializer=lambda m: m.SerializeToString(),
                                   response_deserializer=api.ListLegalMovesResponse.FromString)
        for _ in range(count):
            try:
                call(REQUEST, timeout=30)
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as err:
                codes.append(err.code())
            time.sleep(gap)  # spread over several rounds of the flood


@pytest.fixture(scope="module")
def server():
    s = Server(workers=1)
    yield s
    s.stop()


@pytest.mark.parametrize("connections,streams", [(10, 300), (20, app.MAX_STREAMS_PER_CONNECTION)],
                         ids=["10x300", "20x512"])
def test_header_only_flood_never_turns_real_calls_away(server, connections, streams):
    clients, per_client = 4, 25
    codes: list[grpc.StatusCode] = []
    with Flood(int(server.target.rsplit(":", 1)[1]), connections, streams) as flood:
        threads = [threading.Thread(target=_real_calls, args=(server.target, per_client, codes))
                   for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rounds = flood.rounds
    assert rounds >= 2  # the real calls ran through more than one wave of streams
    report(f"header-only flood {connections} connections x {streams} streams ({rounds} rounds): "
           f"real ListLegalMoves {codes.count(grpc.StatusCode.OK)}/{len(codes)} OK, "
           f"others {sorted({c.name for c in codes if c != grpc.StatusCode.OK})}")
    assert codes == [grpc.StatusCode.OK] * (clients * per_client)
    assert not server.errors()
