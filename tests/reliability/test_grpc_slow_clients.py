"""The gRPC port against clients that send little or nothing.

* Header-only unary calls (HEADERS, never DATA) are held without a thread or admission until their
  request comes, cut off after the body timeout (5 s), and one connection can open at most its stream
  limit of them, so real calls on the same worker are served; before, 64 such streams on one
  connection turned every real call away with RESOURCE_EXHAUSTED for 5 s, and 60 connections x 3
  turned away 19 of 45.
* A TCP connection that sends nothing, or a TLS handshake stalled after 3 bytes, is closed in
  the HTTP port's 5 s (was 30-40 s); so is an HTTP/2 connection with no call open.
* Quiet streams (ValidateMatch sending one chunk then nothing, health Watch) are ended after an
  idle limit, and each kind has its own budget, so quiet Watch streams never block ValidateMatch
  nor the reverse.

Raw HTTP/2 frames (the ``h2`` package) so that the test controls exactly what is sent.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from harness import ROOT, report

from tavla.server.admission import policy as admission
from tavla.server.process import app
from tavla.server.admission import limits, pool
from tavla.server.process.config import Config
import rpc_api as api
from tavla.server.api import services
from tavla.v1 import validate_pb2

SLACK = 3.0  # seconds a loaded 2-core machine may add to a timeout
# the engine service is found from the descriptor (its name may change), by a method it has
_SERVICE = services.METHODS["GetInitialPosition"].containing_service
UNARY = f"/{_SERVICE.full_name}/GetInitialPosition"
COSTLY = f"/{_SERVICE.full_name}/ListLegalMoves"


@pytest.fixture(scope="module")
def engine() -> Iterator[app.Engine]:
    e = app.build(Config(host="127.0.0.1", port=0))  # the defaults: 64 engine calls per worker
    app.start(e)
    yield e
    app.stop(e, 0.5)


def _header_only(port: int, streams: int, path: str = COSTLY, *, settled: bool = False):
    """A socket and h2 connection that opened ``streams`` gRPC calls with headers and no DATA.

    ``settled``: first read and acknowledge the server's SETTINGS, then open the streams anyway,
    past the stream limit they announce (as a hostile client would); else send everything before
    reading anything."""
    import h2.config
    import h2.connection
    import h2.events
    import h2.settings

    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    if settled:
        sock.sendall(conn.data_to_send())
        while not any(isinstance(e, h2.events.RemoteSettingsChanged) for e in conn.receive_data(sock.recv(65536))):
            pass
        conn.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = 2**31 - 1  # ignore the limit
        conn.remote_settings.acknowledge()
    for _ in range(streams):
        conn.send_headers(conn.get_next_available_stream_id(),
                          [(":method", "POST"), (":path", path), (":scheme", "http"), (":authority", "t"),
                           ("content-type", "application/grpc"), ("te", "trailers")])
    sock.sendall(conn.data_to_send())
    return sock, conn


def _events(sock: socket.socket, conn, until: float, done=lambda events: False) -> list:
    """The h2 events received until ``done(events)``, the connection closes or ``until``
    (monotonic; a bound on a hang)."""
    import h2.exceptions

    events = []
    sock.settimeout(0.05)
    while time.monotonic() < until:
        try:
            data = sock.recv(65536)
        except (socket.timeout, BlockingIOError):
            continue
        except OSError:
            break
        if not data:
            break
        try:
            events += conn.receive_data(data)
        except h2.exceptions.ProtocolError:
            break
        if done(events):
            break
        out = conn.data_to_send()
        if out:
            try:
                sock.sendall(out)
            except OSError:
                break
    return events


def _ended(events: list) -> set[int]:
    """The streams the server reset or ended."""
    import h2.events

    return {e.stream_id for e in events if isinstance(e, (h2.events.StreamReset, h2.events.StreamEnded))}


def _real_calls(port: int, count: int, gap: float) -> list[grpc.StatusCode]:
    codes = []
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(UNARY, request_serializer=lambda m: m.SerializeToString(),
                                   response_deserializer=api.GetInitialPositionResponse.FromString)
        for _ in range(count):
            try:
                call(api.GetInitialPositionRequest(), timeout=10)
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as err:
                codes.append(err.code())
            time.sleep(gap)
    return codes


@pytest.mark.parametrize("settled", [False, True], ids=["before-settings", "after-settings"])
def test_header_only_streams_on_one_connection_do_not_lock_admission(engine, settled):
    import h2.events

    streams = app.MAX_STREAMS_PER_CONNECTION + 88
    sock, conn = _header_only(engine.port, streams, settled=settled)
    try:
        # as on many connections below: the server takes them first. A real call within
        # call_pool.HELD_AFTER (50 ms) of a full admission of fresh streams is still turned away:
        # a stream that has waited less is not yet told from a client about to send its request
        time.sleep(0.1)
        codes = _real_calls(engine.port, 20, 0.05)  # over the first second, while they are held
        # held without a thread until their request comes, they are cut off after the body timeout
        events = _events(sock, conn, time.monotonic() + admission.BODY_SECONDS + SLACK + 60,
                         lambda seen: len(_ended(seen)) == streams)
    finally:
        sock.close()
    ended = _ended(events)
    refused = {e.stream_id for e in events if isinstance(e, h2.events.StreamReset) and e.error_code == 7}
    report(f"{streams} header-only streams on one connection ({'after' if settled else 'before'} SETTINGS): "
           f"{len(refused)} refused by the stream limit, {len(ended - refused)} cut off; "
           f"real calls meanwhile: {codes.count(grpc.StatusCode.OK)}/20 OK")
    assert codes == [grpc.StatusCode.OK] * 20
    if settled:  # the announced limit holds once the client has it
        assert len(refused) == streams - app.MAX_STREAMS_PER_CONNECTION
    # every stream was ended (cut off or refused), none left open
    assert ended == set(range(1, 2 * streams, 2))


def test_header_only_streams_on_many_connections_do_not_turn_real_calls_away(engine):
    held = [_header_only(engine.port, 3) for _ in range(60)]
    try:
        end = time.monotonic() + 30  # the server holds them all (a bound on a hang)
        while engine.executor.arrivals.count() < 60 * 3:
            assert time.monotonic() < end, engine.executor.arrivals.count()
            time.sleep(0.01)
        time.sleep(2 * pool.HELD_AFTER)  # the server's own rule: held calls this fresh still count as busy
        codes = []
        threads = [threading.Thread(target=lambda: codes.extend(_real_calls(engine.port, 3, 0.02)))
                   for _ in range(15)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for sock, _ in held:
            sock.close()
    report(f"60 connections x 3 header-only streams: real calls {codes.count(grpc.StatusCode.OK)}/45 OK")
    assert codes == [grpc.StatusCode.OK] * 45


def _closed_after(sock: socket.socket, limit: float) -> tuple[float, bool]:
    """Seconds until the server closed ``sock`` (a figure for the report), and whether it did
    within ``limit`` (a bound on a hang: the server's timeout, not this one, must end it)."""
    start = time.monotonic()
    sock.settimeout(limit)
    try:
        while sock.recv(65536):
            pass
    except socket.timeout:
        return time.monotonic() - start, False
    except ConnectionResetError:
        pass
    return time.monotonic() - start, True


def test_idle_and_silent_connections_are_closed_like_the_http_port(engine):
    with socket.create_connection(("127.0.0.1", engine.port)) as s:  # TCP, then nothing
        silent, silent_closed = _closed_after(s, app.HANDSHAKE_SECONDS + SLACK + 60)
    with socket.create_connection(("127.0.0.1", engine.port)) as s:  # half a preface
        s.sendall(b"PRI * HTTP/2.0\r\n")
        partial, partial_closed = _closed_after(s, app.HANDSHAKE_SECONDS + SLACK + 60)
    sock, conn = _header_only(engine.port, 0)  # an HTTP/2 connection with no call
    with sock:
        start = time.monotonic()
        events = _events(sock, conn, start + app.IDLE_CONNECTION_SECONDS + SLACK + 60)
        idle = time.monotonic() - start
    import h2.events
    report(f"gRPC port: silent TCP closed after {silent:.1f} s, half a preface {partial:.1f} s, "
           f"an idle HTTP/2 connection {idle:.1f} s")
    assert silent_closed and partial_closed  # by the server's handshake timeout
    assert any(isinstance(e, h2.events.ConnectionTerminated) for e in events)  # a GOAWAY, not a reset


def test_a_stalled_tls_handshake_is_closed_like_the_http_port(tmp_path):
    from certs import make_ca, make_leaf

    make_ca(tmp_path, "ca")
    make_leaf(tmp_path, "ca", "server", "serverAuth")
    e = app.build(Config(host="127.0.0.1", port=0, tls_cert=str(tmp_path / "server.pem"),
                         tls_key=str(tmp_path / "server.key")).check())
    app.start(e)
    try:
        with socket.create_connection(("127.0.0.1", e.port)) as s:
            s.sendall(b"\x16\x03\x01")  # the first bytes of a ClientHello, then nothing
            stalled, closed = _closed_after(s, app.HANDSHAKE_SECONDS + SLACK + 60)
    finally:
        app.stop(e, 0.5)
    report(f"gRPC port: a TLS handshake stalled after 3 bytes closed after {stalled:.1f} s")
    assert closed  # by the server's handshake timeout, as silent ones above


# --- item 5: quiet streams ------------------------------------------------------------------

IDLE = 1.0  # the idle limit the stream tests run with (the defaults are 10 s and 60 s)
_VALIDATE_SERVICE = services.METHODS["ValidateMatch"].containing_service
VALIDATE = f"/{_VALIDATE_SERVICE.full_name}/ValidateMatch"
RECORD = (ROOT / "tests" / "data" / "matches" / "quirks" / "match1267.mat").read_bytes()


@pytest.fixture()
def quick_idle(monkeypatch) -> Iterator[app.Engine]:
    monkeypatch.setattr(limits, "STREAM_IDLE_SECONDS", {kind: IDLE for kind in limits.STREAM_IDLE_SECONDS})
    e = app.build(Config(host="127.0.0.1", port=0))
    app.start(e)
    yield e
    app.stop(e, 0.5)


def _validate(channel: grpc.Channel):
    return channel.stream_stream(VALIDATE, request_serializer=lambda m: m.SerializeToString(),
                                 response_deserializer=validate_pb2.ValidateMatchResponse.FromString)


def _hold_validate(port: int, release: threading.Event, out: list, opened: threading.Event) -> None:
    """A ValidateMatch stream that sends one chunk and then nothing until ``release``."""
    def requests():
        yield validate_pb2.ValidateMatchRequest(format=validate_pb2.RECORD_FORMAT_MAT, chunk=RECORD[:200])
        opened.set()
        release.wait(60)

    start = time.monotonic()
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        try:
            list(_validate(channel)(requests(), timeout=60))
            out.append((grpc.StatusCode.OK, time.monotonic() - start))
        except grpc.RpcError as err:
            out.append((err.code(), time.monotonic() - start))
        opened.set()


def _hold_watch(port: int, release: threading.Event, out: list, opened: threading.Event) -> None:
    start = time.monotonic()
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        try:
            for _ in health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=60):
                opened.set()
                if release.is_set():
                    break
            out.append((grpc.StatusCode.OK, time.monotonic() - start))
        except grpc.RpcError as err:
            out.append((err.code(), time.monotonic() - start))
        opened.set()


def _one_validation(port: int) -> grpc.StatusCode:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        try:
            answers = list(_validate(channel)(iter([validate_pb2.ValidateMatchRequest(
                format=validate_pb2.RECORD_FORMAT_MAT, chunk=RECORD)]), timeout=30))
        except grpc.RpcError as err:
            return err.code()
    assert answers[-1].WhichOneof("verdict") == "record"
    return grpc.StatusCode.OK


def _hold(target, port: int, count: int) -> tuple[threading.Event, list, list[threading.Thread]]:
    release, out, threads = threading.Event(), [], []
    for _ in range(count):
        opened = threading.Event()
        t = threading.Thread(target=target, args=(port, release, out, opened), daemon=True)
        t.start()
        assert opened.wait(30)
        threads.append(t)
    return release, out, threads


def test_quiet_validate_streams_are_ended_and_other_kinds_still_open(quick_idle):
    port = quick_idle.port
    release, out, threads = _hold(_hold_validate, port, limits.MAX_STREAMS)
    try:
        # the engine-stream budget is full; health Watch and reflection have their own
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            first = next(health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""),
                                                                  timeout=10))
            assert first.status == health_pb2.HealthCheckResponse.SERVING
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            listed = next(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
                                                    timeout=10))
            assert any(s.name == _VALIDATE_SERVICE.full_name for s in listed.list_services_response.service)
        for t in threads:
            t.join(90)  # each ends by the server's idle limit, else by its own 60 s deadline
    finally:
        release.set()
    report(f"{limits.MAX_STREAMS} quiet ValidateMatch streams: ended {sorted(round(s, 1) for _, s in out)} s "
           f"after opening (idle limit {IDLE:g} s)")
    assert [code for code, _ in out] == [grpc.StatusCode.CANCELLED] * limits.MAX_STREAMS
    assert _one_validation(port) == grpc.StatusCode.OK  # the budget is free again


def test_quiet_validate_streams_give_their_slot_to_a_real_one(quick_idle):
    port = quick_idle.port
    slots = quick_idle.streams.slots(VALIDATE)
    release, out, threads = _hold(_hold_validate, port, limits.MAX_STREAMS)
    try:
        end = time.monotonic() + 30
        while slots.evictable() < limits.MAX_STREAMS:  # each has waited for its client long enough
            assert time.monotonic() < end
            time.sleep(0.01)
        # was RESOURCE_EXHAUSTED until a quiet stream's idle limit: four held every slot
        assert _one_validation(port) == grpc.StatusCode.OK
        for t in threads:
            t.join(90)  # each ends by the server's idle limit, else by its own 60 s deadline
    finally:
        release.set()
    codes = sorted((code for code, _ in out), key=lambda c: c.name)
    assert codes == [grpc.StatusCode.CANCELLED] * (limits.MAX_STREAMS - 1) + [grpc.StatusCode.RESOURCE_EXHAUSTED]
    assert slots.evicted_total == 1


def test_quiet_watch_streams_do_not_block_validate_match(quick_idle):
    port = quick_idle.port
    release, out, threads = _hold(_hold_watch, port, limits.MAX_STREAMS)
    try:
        assert _one_validation(port) == grpc.StatusCode.OK
        for t in threads:
            t.join(90)  # each ends by the server's idle limit, else by its own 60 s deadline
    finally:
        release.set()
    assert [code for code, _ in out] == [grpc.StatusCode.CANCELLED] * limits.MAX_STREAMS
