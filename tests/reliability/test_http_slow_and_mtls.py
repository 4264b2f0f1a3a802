"""The HTTP port (Connect, gRPC-Web) resists what the gRPC port resists:

* clients that send headers and then only part of the body are answered ``CANCELLED`` (Connect:
  HTTP 499) and their connection closed within the body timeout (5 s, the gRPC port's watchdog),
  while health stays answered over gRPC and HTTP;
* headers that never complete are cut off in the same time;
* with ``--tls-client-allowed-names`` a client certificate from the client CA that names none of
  the allowed names cannot call the HTTP port (the handshake fails), a named one can;
* a request over ``--max-request-bytes`` is refused as over gRPC (``RESOURCE_EXHAUSTED``).

Raw sockets, so that the test controls exactly what is sent and when; the server runs in process.
"""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from harness import report
from certs import make_ca, make_leaf

from tavla.server.process import app
from tavla.server.admission.policy import BODY_SECONDS
from tavla.server.process.config import Config

#: seconds to wait for a cut-off: a bound on a hang, under Hypercorn's own 60 s default so it
#: still tells our body timeout from that one; how soon it comes is the report's figure
CUT_OFF_BOUND = 40.0
ENGINE = "/tavla.v1.RulesService/GetInitialPosition"


@pytest.fixture(scope="module")
def engine() -> Iterator[app.Engine]:
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, max_request_bytes=4096))
    app.start(e)
    yield e
    app.stop(e, 0.5)


def _health_sampler(engine: app.Engine, stop: threading.Event, worst: list[float], failures: list[str]) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while not stop.is_set():
            t = time.monotonic()
            try:
                assert stub.Check(health_pb2.HealthCheckRequest(), timeout=10).status == \
                    health_pb2.HealthCheckResponse.SERVING
                conn = http.client.HTTPConnection("127.0.0.1", engine.http_port, timeout=10)  # a hang bound
                conn.request("GET", "/healthz")
                answer = conn.getresponse()
                assert answer.status == 200 and answer.read() == b"SERVING\n"
                conn.close()
            except Exception as exc:  # noqa: BLE001 - any failure is the finding
                failures.append(repr(exc))
            worst[0] = max(worst[0], time.monotonic() - t)
            time.sleep(0.1)


def _closed_after(sock: socket.socket, limit: float) -> tuple[bool, bytes]:
    """Whether the server closed ``sock`` within ``limit`` seconds (:data:`CUT_OFF_BOUND`, not a
    speed target), and everything it sent until then."""
    data = b""
    sock.settimeout(limit)
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return True, data
        except socket.timeout:
            return False, data
        if not chunk:
            return True, data
        data += chunk


def test_partial_bodies_are_cut_off_and_health_stays_answered(engine):
    # finding: 80 calls that send headers and then nothing took every handler thread
    body = json.dumps({}).encode()
    sockets = []
    for _ in range(80):
        s = socket.create_connection(("127.0.0.1", engine.http_port), timeout=5)
        s.sendall(f"POST {ENGINE} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body) + 100}\r\n\r\n".encode() + body)  # 100 bytes never come
        sockets.append(s)
    stop, worst, failures = threading.Event(), [0.0], []
    sampler = threading.Thread(target=_health_sampler, args=(engine, stop, worst, failures))
    sampler.start()
    start = time.monotonic()
    try:
        results = [_closed_after(s, CUT_OFF_BOUND) for s in sockets]
        slowest = time.monotonic() - start  # a figure for the report, not asserted
    finally:
        stop.set()
        sampler.join()
        for s in sockets:
            s.close()
    report(f"HTTP port: 80 partial bodies all answered and closed, the slowest after {slowest:.1f} s "
           f"(limit {BODY_SECONDS:g} s); health over gRPC and HTTP worst {worst[0] * 1000:.0f} ms")
    for closed, data in results:
        assert closed, "the server did not close a partial body's connection"
        head = data.split(b"\r\n\r\n", 1)[0].lower()
        assert head.startswith(b"http/1.1 499"), data[:200]
        assert b"connection: close" in head
        assert b'"code": "canceled"' in data
    assert not failures, failures[:3]  # every health call answered within its 2 s timeout


def test_http2_partial_bodies_are_cut_off_and_the_connection_keeps_serving(engine):
    # h2c with prior knowledge, as an ingress or gRPC-Web proxy talks to the port
    import h2.config
    import h2.connection
    import h2.events

    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    stuck = conn.get_next_available_stream_id()
    conn.send_headers(stuck, [(":method", "POST"), (":path", ENGINE), (":scheme", "http"), (":authority", "t"),
                              ("content-type", "application/json"), ("content-length", "102")])
    conn.send_data(stuck, b"{}")  # 100 bytes never come, and no END_STREAM
    answers: dict[int, dict] = {}
    with socket.create_connection(("127.0.0.1", engine.http_port), timeout=CUT_OFF_BOUND) as s:
        s.sendall(conn.data_to_send())
        ended: list[int] = []  # stream ids in the order they ended
        healthy = None

        def pump() -> None:
            for event in conn.receive_data(s.recv(65536) or b""):
                if isinstance(event, h2.events.ResponseReceived):
                    answers[event.stream_id] = {"status": dict(event.headers)[b":status"], "body": b""}
                elif isinstance(event, h2.events.DataReceived):
                    answers[event.stream_id]["body"] += event.data
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    answers[event.stream_id]["ended"] = len(ended)
                    ended.append(event.stream_id)
            s.sendall(conn.data_to_send())

        # a health check on the same connection while the stuck stream waits
        healthy = conn.get_next_available_stream_id()
        conn.send_headers(healthy, [(":method", "GET"), (":path", "/healthz"), (":scheme", "http"),
                                    (":authority", "t")], end_stream=True)
        s.sendall(conn.data_to_send())
        while "ended" not in answers.get(stuck, {}):
            pump()
    # the health check was answered while the stuck stream still waited (the socket's timeout
    # bounds the wait for the cut-off)
    assert answers[healthy]["status"] == b"200" and ended == [healthy, stuck]
    assert answers[stuck]["status"] == b"499", answers[stuck]
    assert b'"code": "canceled"' in answers[stuck]["body"]


def test_headers_that_never_complete_are_cut_off(engine):
    with socket.create_connection(("127.0.0.1", engine.http_port), timeout=5) as s:
        s.sendall(f"POST {ENGINE} HTTP/1.1\r\nHost: t\r\n".encode())  # no blank line, ever
        closed, data = _closed_after(s, CUT_OFF_BOUND)
    assert closed, "the server did not cut off headers that never complete"
    assert not data.startswith(b"HTTP/1.1 200")


def test_a_complete_slow_body_within_the_timeout_is_served(engine):
    # the cut-off is for bodies that do not arrive, not for a body sent in pieces
    body = b"{}"
    with socket.create_connection(("127.0.0.1", engine.http_port), timeout=10) as s:
        s.sendall(f"POST {ENGINE} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body[:1])
        time.sleep(1.0)
        s.sendall(body[1:])
        closed, data = _closed_after(s, 10)
    assert closed
    assert data.startswith(b"HTTP/1.1 200"), data[:200]
    assert b"4HPwATDgc/ABMA" in data


def test_http_requests_over_the_request_limit_are_refused_like_grpc(engine):
    big = json.dumps({"positionId": "x" * 5000}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", engine.http_port, timeout=10)
    conn.request("POST", "/tavla.v1.RulesService/ListLegalMoves", big, {"content-type": "application/json"})
    answer = conn.getresponse()
    assert (answer.status, json.loads(answer.read())["code"]) == (429, "resource_exhausted")
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
        call = channel.unary_unary("/tavla.v1.RulesService/ListLegalMoves")
        with pytest.raises(grpc.RpcError) as info:
            call(b"\x0a" + bytes([0x88, 0x27]) + b"x" * 5000, timeout=10)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


# --- mTLS identity allow-list on the HTTP port ----------------------------------------------------

@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    if shutil.which("openssl") is None:  # as tests/server/test_ops_tls.py (README: prerequisites)
        pytest.skip("needs the openssl command")
    d = tmp_path_factory.mktemp("http-pki")
    for ca in ("ca", "other-ca"):
        make_ca(d, ca)
    make_leaf(d, "ca", "server", "serverAuth")
    make_leaf(d, "ca", "client", "clientAuth")
    make_leaf(d, "ca", "intruder", "clientAuth")  # from the client CA, not on the allow-list
    make_leaf(d, "other-ca", "stranger", "clientAuth")
    return d


def _https(port: int, pki: Path, client: str | None) -> tuple[int, bytes]:
    context = ssl.create_default_context(cafile=str(pki / "ca.pem"))
    context.check_hostname = False
    if client:
        context.load_cert_chain(str(pki / f"{client}.pem"), str(pki / f"{client}.key"))
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
    try:
        conn.request("POST", ENGINE, b"{}", {"content-type": "application/json"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def _refused(port: int, pki: Path, client: str | None) -> Exception:
    with pytest.raises((ssl.SSLError, ConnectionError, http.client.RemoteDisconnected, OSError)) as info:
        _https(port, pki, client)
    return info.value


def test_mtls_allow_list_applies_to_the_http_port(pki):
    # finding: mTLS admitted any certificate of the CA; the gRPC port has the allow-list since,
    # the HTTP port now too
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, tls_cert=str(pki / "server.pem"),
                         tls_key=str(pki / "server.key"), tls_client_ca=str(pki / "ca.pem"),
                         tls_client_allowed_names="client, frontend.games.svc").check())
    app.start(e)
    try:
        status, body = _https(e.http_port, pki, "client")
        assert status == 200 and b"4HPwATDgc/ABMA" in body
        _refused(e.http_port, pki, "intruder")  # signed by the CA, but not named
        _refused(e.http_port, pki, "stranger")  # another CA
        _refused(e.http_port, pki, None)  # no certificate
        assert _https(e.http_port, pki, "client")[0] == 200  # the refusals left the port working
    finally:
        app.stop(e, 0.5)


def test_tls_handshakes_that_never_complete_are_cut_off(pki):
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, tls_cert=str(pki / "server.pem"),
                         tls_key=str(pki / "server.key")).check())
    app.start(e)
    try:
        with socket.create_connection(("127.0.0.1", e.http_port), timeout=5) as s:
            s.sendall(b"\x16\x03\x01")  # the first bytes of a ClientHello, then nothing
            closed, _ = _closed_after(s, CUT_OFF_BOUND)
        assert closed, "the server did not cut off the handshake (Hypercorn's default waits 60 s)"
        assert _https(e.http_port, pki, None)[0] == 200
    finally:
        app.stop(e, 0.5)


def test_mtls_without_an_allow_list_admits_every_client_of_the_ca_on_http(pki):
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, tls_cert=str(pki / "server.pem"),
                         tls_key=str(pki / "server.key"), tls_client_ca=str(pki / "ca.pem")).check())
    app.start(e)
    try:
        assert _https(e.http_port, pki, "intruder")[0] == 200
        _refused(e.http_port, pki, "stranger")
    finally:
        app.stop(e, 0.5)
