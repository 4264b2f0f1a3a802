"""The findings of fuzzing, fault and soak runs, each a test that failed before its fix: clock
settings inside the bounds that overflowed a uint32 (INTERNAL), garbage bytes on the streaming
endpoints (INTERNAL and a traceback per call), a shutdown that hung after garbage streams, oversized
requests, secrets and control characters in the debug log, and a second server sharing a port in
use."""

from __future__ import annotations

import io
import itertools
import json
import logging
import socket
import subprocess
import sys
import threading

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from harness import ROOT, Server, free_port, report, subprocess_env

from tavla.core import TavlaError
from tavla.server.process import app
from tavla.server.pipeline import logs
from tavla.server.process.config import Config
from tavla.server.api.match import MatchService
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
from google.protobuf.duration_pb2 import Duration

import rpc_api as api
from tavla.v1 import clock_pb2
from tavla.v1 import types_pb2 as pb

IDENTITY = lambda b: b  # noqa: E731 - raw bytes in and out
TIMEOUT = 30


@pytest.fixture(scope="module")
def server():
    engine = app.build(Config(host="127.0.0.1", port=0))
    app.start(engine)
    yield engine
    engine.server.stop(None)


# --- AdvanceClock: every combination of settings inside the bounds answers -------------------

DURATIONS = (0, 1, 60_000, 86_400_000)  # 0, 1 ms, a minute, a day (the per-field bound)
COUNTS = (0, 1, 50, 100)  # the per-field bound is 100


def _ms(n: int) -> Duration:
    return Duration(seconds=n // 1000, nanos=n % 1000 * 10**6)


def test_every_clock_setting_combination_is_answered_or_invalid():
    # finding: 158 of 2,880 combinations inside the documented bounds overflowed time_left_ms
    servicer = MatchService()
    tried = failed = 0
    for preset, move, extensions, extension_ms, reserve, cap, event in itertools.product(
            (1, 2), DURATIONS, COUNTS, DURATIONS, DURATIONS, (0, 86_400_000), (1, 2, 3, 4)):
        settings = clock_pb2.ClockSettings(preset=preset, move_time=_ms(move), extensions=extensions,
                                           extension_time=_ms(extension_ms), reserve=_ms(reserve), move_cap=_ms(cap))
        request = api.AdvanceClockRequest(settings=settings, side=pb.SIDE_WHITE, event=event, elapsed=_ms(1000))
        tried += 1
        try:
            servicer.AdvanceClock(request, None)
        except TavlaError:
            pass  # INVALID_ARGUMENT (or a rule's refusal) through the error interceptor
        except Exception as exc:  # noqa: BLE001 - anything else is INTERNAL for the client
            failed += 1
            print(settings, exc)
    report(f"clock settings combinations tried: {tried:,}; INTERNAL: {failed}")
    assert tried == 2 * 4 * 4 * 4 * 4 * 2 * 4 and failed == 0


def test_the_reported_clock_overflow_is_invalid_argument(server):
    # the report's request (0.x sent extension_ms 86,400,000 as a uint32): 50 one-day extensions
    request = api.AdvanceClockRequest(settings=clock_pb2.ClockSettings(
        preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, extensions=50, extension_time=Duration(seconds=86_400)),
        side=pb.SIDE_WHITE)
    wire = request.SerializeToString()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        call = ch.unary_unary("/tavla.v1.MatchService/AdvanceClock", request_serializer=IDENTITY,
                              response_deserializer=IDENTITY)
        with pytest.raises(grpc.RpcError) as err:
            call(wire, timeout=TIMEOUT)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    bad = error_details_pb2.BadRequest()
    rpc_status.from_call(err.value).details[0].Unpack(bad)
    assert bad.field_violations[0].field == "settings.extension_time"


def test_an_answer_out_of_range_is_invalid_argument_not_internal(server):
    # the generic guard: a missing bound somewhere still answers INVALID_ARGUMENT
    class Overflowing(RulesService):
        def NameRoll(self, request, context):
            return api.AdvanceClockResponse(extensions_used=2**33)

    engine = app.build(Config(host="127.0.0.1", port=0), by_service=by_service(Overflowing()))
    app.start(engine)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
            with pytest.raises(grpc.RpcError) as err:
                api.AnyStub(ch).NameRoll(api.NameRollRequest(dice=[1, 2]),
                                                                       timeout=TIMEOUT)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        engine.server.stop(None)


# --- garbage on the streaming endpoints ------------------------------------------------------

REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
WATCH = "/grpc.health.v1.Health/Watch"


def _garbage_streams(target: str, count: int = 10) -> list[grpc.StatusCode]:
    codes = []
    with grpc.insecure_channel(target) as ch:
        reflection = ch.stream_stream(REFLECTION, request_serializer=IDENTITY, response_deserializer=IDENTITY)
        watch = ch.unary_stream(WATCH, request_serializer=IDENTITY, response_deserializer=IDENTITY)
        for _ in range(count):
            for call in (lambda: list(reflection(iter([b"\xff"]), timeout=TIMEOUT)),
                         lambda: list(watch(b"\xff", timeout=TIMEOUT))):
                try:
                    call()
                    codes.append(grpc.StatusCode.OK)
                except grpc.RpcError as exc:
                    codes.append(exc.code())
    return codes


def test_garbage_on_reflection_and_health_watch_is_invalid_argument_without_a_traceback(server):
    # finding: INTERNAL and an error-level traceback per call
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logging.getLogger().addHandler(handler)
    try:
        codes = _garbage_streams(f"127.0.0.1:{server.port}")
    finally:
        logging.getLogger().removeHandler(handler)
    assert codes == [grpc.StatusCode.INVALID_ARGUMENT] * 20
    assert "Traceback" not in stream.getvalue() and "Exception deserializing" not in stream.getvalue()


def _returns_within(seconds: float, call):
    """``call()``'s result, or a test failure when it has not returned after ``seconds`` (a bound
    for a hang, far above the grace and STOP_MARGIN it should take; not a speed target)."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pytest.fail(f"still running after {seconds} s: it hangs")
    return out[0]


def test_shutdown_after_garbage_streams_ends_within_its_grace():
    # finding: after ten garbage reflection streams, 5 of 7 shutdowns hung in stop(grace).wait()
    for _ in range(3):
        engine = app.build(Config(host="127.0.0.1", port=0))
        app.start(engine)
        _garbage_streams(f"127.0.0.1:{engine.port}")
        assert _returns_within(30, lambda: app.stop(engine, grace=1.0)) is True  # 30 s: a hang bound


def test_shutdown_ends_even_when_a_handler_ignores_cancellation():
    entered, release = threading.Event(), threading.Event()

    class Stuck(RulesService):
        def NameRoll(self, request, context):
            entered.set()
            release.wait(60)  # ignores its cancellation
            return api.NameRollResponse()

    engine = app.build(Config(host="127.0.0.1", port=0), by_service=by_service(Stuck()))
    app.start(engine)
    ch = grpc.insecure_channel(f"127.0.0.1:{engine.port}")
    future = api.AnyStub(ch).NameRoll.future(api.NameRollRequest(dice=[1, 2]),
                                                                          timeout=TIMEOUT)
    assert entered.wait(TIMEOUT), "the call never reached its handler"
    try:
        finished = _returns_within(30, lambda: app.stop(engine, grace=0.5))  # 30 s: a hang bound
    finally:
        release.set()
        ch.close()
    assert finished is False  # it gave up on the stuck handler instead of waiting for it
    future.cancel()


def test_the_executor_tells_health_engine_and_stream_calls_apart(server):
    # the admission executor reads the method from what grpc hands it: if a grpcio release
    # changes that, health checks would queue behind engine calls again
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from tavla.server.admission import policy as admission

    before = dict(server.executor.seen)
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
        api.AnyStub(ch).NameRoll(api.NameRollRequest(dice=[1, 2]), timeout=TIMEOUT)
    _garbage_streams(f"127.0.0.1:{server.port}", count=1)
    seen = {k: server.executor.seen[k] - before.get(k, 0) for k in (admission.HEALTH, admission.ENGINE,
                                                                    admission.STREAM)}
    assert seen == {admission.HEALTH: 1, admission.ENGINE: 1, admission.STREAM: 2}


# --- size limits -----------------------------------------------------------------------------


def test_a_4_mib_request_is_refused_before_it_is_read(server):
    # finding: one 4 MiB request of 4.19M dice cost ~75 MB; 16 at once passed the 512Mi limit
    big = api.NameRollRequest(dice=[1] * (4 * 1024 * 1024 - 16))  # packed: a byte a die
    assert big.ByteSize() > 4_000_000
    with grpc.insecure_channel(f"127.0.0.1:{server.port}",
                               options=[("grpc.max_send_message_length", 8 * 1024 * 1024)]) as ch:
        with pytest.raises(grpc.RpcError) as err:
            api.AnyStub(ch).NameRoll(big, timeout=TIMEOUT)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.mark.parametrize("method, body, field", [
    ("NameRoll", {"dice": [1] * 17}, "dice"),
    ("ListLegalMoves", {"position": {"position_id": "4HPwATDgc/ABMA"}, "dice": [1] * 1000}, "dice"),
    ("ResolveRuleset", {"ruleset": {"match_lengths": {"lengths": list(range(1, 70))}}},
     "ruleset.match_lengths.lengths"),
    ("StartGame", {"given": {"roll_off": [{"white_die": 3, "black_die": 3}] * 65}}, "given.roll_off"),
])
def test_repeated_fields_are_bounded_early(server, method, body, field):
    request = json_format.ParseDict(body, getattr(api, f"{method}Request")())
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        with pytest.raises(grpc.RpcError) as err:
            getattr(api.AnyStub(ch), method)(request, timeout=TIMEOUT)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    bad = error_details_pb2.BadRequest()
    rpc_status.from_call(err.value).details[0].Unpack(bad)
    assert bad.field_violations[0].field == field


# --- the debug log ---------------------------------------------------------------------------


def test_debug_log_redacts_dice_secrets_and_escapes_control_characters():
    # finding: debug logs contained dice tokens and client seeds
    from tavla.core.match import dice_commit

    stream = io.StringIO()
    logs.configure("debug", "console", stream=stream)
    engine = app.build(Config(host="127.0.0.1", port=0))
    app.start(engine)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
            stub = api.AnyStub(ch)
            seed = "alice-secret-seed"
            commit = stub.CommitDice(api.CommitDiceRequest(client_seed_sha256=dice_commit.client_seed_sha256(seed)),
                                     timeout=TIMEOUT)
            stub.RollDice(api.RollDiceRequest(seed={"token": commit.token, "client_seed": seed}), timeout=TIMEOUT)
            with pytest.raises(grpc.RpcError):
                stub.ApplyMove(api.ApplyMoveRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[3, 1],
                                                    move=pb.Move(notation="8/5\nFORGED level=error event=rpc")),
                               timeout=TIMEOUT)
    finally:
        engine.server.stop(None)
        logs.configure("info", "console", stream=io.StringIO())
    text = stream.getvalue()
    assert commit.token not in text and seed not in text and "<redacted>" in text
    assert "FORGED" in text  # the move was logged, on the line of its call
    assert not any(line.startswith("FORGED") for line in text.splitlines())


# --- a second server on a port in use --------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_a_second_server_on_a_used_port_fails_with_a_clear_message(workers):
    # finding: a second `make serve` on a used port started and shared it (SO_REUSEPORT)
    port = free_port()
    first = Server(workers=2, port=port)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--metrics-port", "0", "--log-format", "json"],
            env=subprocess_env(), capture_output=True, text=True, timeout=60)
        assert second.returncode != 0
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr, second.stderr[-2000:]
    finally:
        first.stop()
