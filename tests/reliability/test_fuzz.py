"""Fuzzing the boundary of a running server: random bytes, mutated valid
requests and hostile well-formed requests at every RPC, and garbage on the streaming endpoints.
Every answer must be OK or INVALID_ARGUMENT (never INTERNAL, UNKNOWN, a hang or a death), the
server must log no error, and its memory must stay bounded.

Short mode: a few thousand inputs with a fixed seed. ``TAVLA_RELIABILITY_LONG=1``: 100,000 with
a seed from the clock (printed; ``TAVLA_FUZZ_SEED`` repeats a run).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter

import fuzz
import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2
from harness import LONG, Server, report

ALLOWED = {"OK", "INVALID_ARGUMENT"}
CALL_TIMEOUT = 20  # seconds: a hang, not a slow answer
INPUTS = 100_000 if LONG else 10_000
THREADS = 4


def _inputs(rng: random.Random, count: int, seeds: dict[str, list[bytes]]):
    names = sorted(seeds)
    handmade = list(fuzz.handmade())
    classes = dict(fuzz.methods())
    for i in range(count):
        if i < len(handmade):
            yield ("handmade",) + handmade[i]
            continue
        name = rng.choice(names)
        kind = rng.random()
        if kind < 0.2:
            yield "random", name, rng.randbytes(rng.choice((0, 1, 2, 5, 20, 200, 2000)))
        elif kind < 0.55:
            yield "mutated", name, fuzz.mutate(rng.choice(seeds[name]), rng)
        else:
            data = fuzz.hostile(classes[name](), rng).SerializeToString()
            if len(data) > 60_000:  # over --max-request-bytes: refused by gRPC, tested elsewhere
                data = data[:60_000]
            yield "hostile", name, data


def _split(run, work: list) -> None:
    """``run`` over ``work`` dealt round-robin to THREADS threads, until all are done."""
    threads = [threading.Thread(target=run, args=(work[i::THREADS],)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_fuzz_every_rpc_against_a_running_server():
    seed = int(os.environ.get("TAVLA_FUZZ_SEED", "0") or 0) or (int(time.time()) if LONG else 14)
    rng = random.Random(seed)
    server = Server()
    _load_the_analysis_engine(server.target)  # its nets (about 130 MiB) are not a leak
    rss_start = server.rss_mib()
    seeds = fuzz.valid_seeds()
    work = list(_inputs(rng, INPUTS, seeds))
    codes: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    bad: list[str] = []
    lock = threading.Lock()

    def run(part: list) -> None:
        with grpc.insecure_channel(server.target) as ch:
            calls = {name: ch.unary_unary(name, request_serializer=None, response_deserializer=None)
                     for name in seeds}
            for kind, name, data in part:
                try:
                    calls[name](data, timeout=CALL_TIMEOUT)
                    code = "OK"
                except grpc.RpcError as exc:
                    code = exc.code().name
                with lock:
                    codes[code] += 1
                    by_kind[kind] += 1
                    if code not in ALLOWED and len(bad) < 20:
                        bad.append(f"{code} {kind} {name} {data.hex()[:400]}")

    begin = time.monotonic()
    _split(run, work)
    streams = _fuzz_streams(server.target, rng, 200 if not LONG else 5_000)
    took = time.monotonic() - begin
    rss_end = server.rss_mib()
    alive = server.proc.poll() is None
    errors = server.errors()
    exit_code = server.stop()
    total = sum(codes.values()) + sum(streams.values())
    report(f"fuzz (seed {seed}): {total:,} inputs in {took:.0f} s ({dict(by_kind)}, streams {sum(streams.values())}) "
           f"-> unary {dict(codes)}, streams {dict(streams)}; server RSS {rss_start:.0f} -> {rss_end:.0f} MiB; "
           f"error log lines {len(errors)}")
    assert not bad, "\n".join(bad)
    # a stream's slot is given back when its handler thread ends, a moment after the client has
    # its status: back-to-back streams may rarely find all 4 taken (1 in 5,000 in a long run)
    assert set(streams) <= ALLOWED | {"RESOURCE_EXHAUSTED"}, streams
    assert streams["RESOURCE_EXHAUSTED"] <= max(2, sum(streams.values()) // 500), streams
    assert alive and exit_code == 0 and not errors, errors[:3]
    assert sum(codes.values()) == INPUTS
    assert rss_end - rss_start < 100


def _load_the_analysis_engine(target: str) -> None:
    """One analysis call at each ply: the worker loads the analysis engine's nets once, on its
    first AnalysisService call (docs/analysis.md#cost-and-limits)."""
    from tavla.v1 import analysis_service_pb2 as api
    from tavla.v1 import analysis_service_pb2_grpc, types_pb2

    with grpc.insecure_channel(target) as ch:
        stub = analysis_service_pb2_grpc.AnalysisServiceStub(ch)
        for level in (api.ANALYSIS_LEVEL_ADVANCED, api.ANALYSIS_LEVEL_EXPERT):
            stub.SuggestMove(api.SuggestMoveRequest(position=types_pb2.Position(position_id=fuzz.START_ID),
                                                    dice=[6, 5], level=level), timeout=CALL_TIMEOUT)


WATCHED_SECONDS = 1.0  # how long a Watch of a request that happens to parse is followed


def _parses(data: bytes) -> bool:
    # random bytes ending in 0xff are garbage, but may still make a HealthCheckRequest (an
    # unknown field of length 3 holding the last bytes): the server then rightly watches it
    try:
        health_pb2.HealthCheckRequest.FromString(data)
    except DecodeError:
        return False
    return True


def _fuzz_streams(target: str, rng: random.Random, count: int) -> Counter[str]:
    """Health Check and Watch with garbage, reflection streams of random, garbage and hostile
    requests."""
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(target) as ch:
        check = ch.unary_unary("/grpc.health.v1.Health/Check", request_serializer=None, response_deserializer=None)
        watch = ch.unary_stream("/grpc.health.v1.Health/Watch", request_serializer=None, response_deserializer=None)
        reflect = ch.stream_stream("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                                   request_serializer=None, response_deserializer=None)
        for i in range(count):
            garbage = rng.randbytes(rng.choice((1, 3, 50))) + b"\xff"
            try:
                if i % 3 == 0:
                    check(garbage, timeout=CALL_TIMEOUT)
                elif i % 3 == 1:
                    if _parses(garbage):  # a real Watch (rare): it streams until the client's deadline
                        try:
                            list(watch(garbage, timeout=WATCHED_SECONDS))
                        except grpc.RpcError as exc:
                            if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                                raise
                    else:
                        list(watch(garbage, timeout=CALL_TIMEOUT))
                else:
                    requests = [fuzz.hostile(reflection_pb2.ServerReflectionRequest(), rng).SerializeToString()
                                for _ in range(rng.randint(0, 3))]
                    if rng.random() < 0.5:
                        requests.append(garbage)
                    list(reflect(iter(requests), timeout=CALL_TIMEOUT))
                codes["OK"] += 1
            except grpc.RpcError as exc:
                codes[exc.code().name] += 1
    return codes


# --- the declared contract, on every protocol -----------------------------------------------------

PROTOCOLS = ("grpc", "connect-proto", "connect-json", "grpc-web")
MAX_REQUEST_BYTES = 64 * 1024  # the server's default --max-request-bytes
NEVER = {"INTERNAL", "UNKNOWN", "DEADLINE_EXCEEDED", "CANCELLED", "UNAVAILABLE", "hang"}
_CODE_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}


class _Caller:
    """One thread's connections: a gRPC channel and an HTTP/1.1 connection to the HTTP port."""

    def __init__(self, target: str, http_port: int) -> None:
        import http.client

        self.channel = grpc.insecure_channel(target)
        self.http_port = http_port
        self.conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=CALL_TIMEOUT)

    def close(self) -> None:
        self.channel.close()
        self.conn.close()

    def call(self, protocol: str, name: str, request, streamed: bool) -> str:
        if protocol == "grpc":
            return self._grpc(name, request.SerializeToString(), streamed)
        return self._http(protocol, name, request)

    def _grpc(self, name: str, data: bytes, streamed: bool) -> str:
        try:
            if streamed:
                list(self.channel.stream_stream(name, request_serializer=None, response_deserializer=None)(
                    iter([data]), timeout=CALL_TIMEOUT))
            else:
                self.channel.unary_unary(name, request_serializer=None, response_deserializer=None)(
                    data, timeout=CALL_TIMEOUT)
            return "OK"
        except grpc.RpcError as exc:
            # the client's own deadline passing is a hang; the server answers far sooner
            return "hang" if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED else exc.code().name

    def _http(self, protocol: str, name: str, request) -> str:
        import http.client
        import json
        import socket
        import struct

        from google.protobuf import json_format

        if protocol == "connect-json":
            body = json_format.MessageToJson(request).encode()
            headers = {"content-type": "application/json", "connect-timeout-ms": str(CALL_TIMEOUT * 1000)}
        elif protocol == "connect-proto":
            body = request.SerializeToString()
            headers = {"content-type": "application/proto", "connect-timeout-ms": str(CALL_TIMEOUT * 1000)}
        else:
            data = request.SerializeToString()
            body = struct.pack(">BI", 0, len(data)) + data
            headers = {"content-type": "application/grpc-web+proto", "grpc-timeout": f"{CALL_TIMEOUT}S"}
        try:
            self.conn.request("POST", name, body=body, headers=headers)
            response = self.conn.getresponse()
            status, answer = response.status, response.read()
            grpc_status = response.getheader("grpc-status")
        except socket.timeout:
            self.conn.close()
            return "hang"
        except (http.client.HTTPException, OSError) as exc:
            self.conn.close()
            return f"connection {type(exc).__name__}"
        if protocol == "grpc-web":
            if grpc_status is None:  # the trailers in the last frame
                at = 0
                while at + 5 <= len(answer):
                    flags, size = struct.unpack(">BI", answer[at:at + 5])
                    if flags & 0x80:
                        for line in answer[at + 5:at + 5 + size].decode("latin-1").split("\r\n"):
                            if line.lower().startswith("grpc-status:"):
                                grpc_status = line.split(":", 1)[1].strip()
                    at += 5 + size
            return "no grpc-status" if grpc_status is None else _CODE_NAMES.get(int(grpc_status), grpc_status)
        if status == 200:
            return "OK"
        try:
            code = str(json.loads(answer)["code"]).upper()
        except (ValueError, KeyError, TypeError):
            return f"HTTP {status}"
        return {"CANCELED": "CANCELLED", "DEADLINE_EXCEEDED": "hang"}.get(code, code)


def test_every_declared_bound_at_and_just_past_on_every_protocol():
    """Values at each declared bound (proto/, ``(tavla.v1.bounds)``) and just past it, for every
    field of every RPC's request, alone and in a valid request: at a bound, any answer but
    INTERNAL/UNKNOWN or a hang; just past it, INVALID_ARGUMENT (RESOURCE_EXHAUSTED when the
    request is over the size limit). Short mode: each input on one protocol in turn; long mode:
    on all four (the streamed ValidateMatch and requests over the size limit on gRPC only: the
    HTTP port's streams and size refusal are tested elsewhere)."""
    seed = int(os.environ.get("TAVLA_FUZZ_SEED", "0") or 0) or (int(time.time()) if LONG else 14)
    rng = random.Random(seed)
    streamed = {name for name, _cls in fuzz.streamed_methods()}
    cases = fuzz.bound_cases(fuzz.valid_seeds())
    work = []
    for i, (name, kind, what, request) in enumerate(cases):
        oversized = request.ByteSize() > MAX_REQUEST_BYTES
        if name in streamed or oversized:
            protocols: tuple[str, ...] = ("grpc",)
        else:
            protocols = PROTOCOLS if LONG else (PROTOCOLS[i % len(PROTOCOLS)],)
        work += [(protocol, name, kind, what, request, oversized) for protocol in protocols]
    rng.shuffle(work)
    from harness import free_port

    server = Server("--http-port", str(free_port()))
    http_port = next(int(e["http_port"]) for e in server.lines() if "http_port" in e)
    _load_the_analysis_engine(server.target)
    rss_start = server.rss_mib()
    codes: Counter[tuple[str, str]] = Counter()
    bad: list[str] = []
    lock = threading.Lock()

    def run(part: list) -> None:
        caller = _Caller(server.target, http_port)
        try:
            for protocol, name, kind, what, request, oversized in part:
                code = caller.call(protocol, name, request, name in streamed)
                allowed = ({"INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"} if oversized else {"INVALID_ARGUMENT"}) \
                    if kind == fuzz.PAST else None
                wrong = code not in allowed if allowed is not None else (code in NEVER or " " in code)
                with lock:
                    codes[(kind, code)] += 1
                    if wrong and len(bad) < 30:
                        bad.append(f"{code} {protocol} {name} {kind} {what}: {str(request)[:200]!r}")
        finally:
            caller.close()

    begin = time.monotonic()
    _split(run, work)
    took = time.monotonic() - begin
    rss_end = server.rss_mib()
    alive = server.proc.poll() is None
    errors = server.errors()
    exit_code = server.stop()
    by_protocol = Counter(w[0] for w in work)
    for kind in (fuzz.AT, fuzz.PAST):
        report(f"declared bounds (seed {seed}), {kind} a bound: "
               f"{sum(n for (k, _c), n in codes.items() if k == kind):,} inputs -> "
               f"{dict(sorted((c, n) for (k, c), n in codes.items() if k == kind))}")
    report(f"declared bounds: {len(work):,} inputs ({len(cases):,} cases, {dict(by_protocol)}) in {took:.0f} s; "
           f"server RSS {rss_start:.0f} -> {rss_end:.0f} MiB; error log lines {len(errors)}")
    assert not bad, "\n".join(bad)
    assert sum(codes.values()) == len(work)
    assert alive and exit_code == 0 and not errors, errors[:3]
    assert rss_end - rss_start < 100
