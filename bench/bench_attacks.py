"""Benchmark: what each known attack does to the real calls beside it. Prints figures; asserts
nothing.

    PYTHONPATH=service python bench/bench_attacks.py [--seconds 10] [--smoke]

One ``tavla-engine serve`` on 127.0.0.1 (one worker, the default limits, ``--test-inputs`` for
the analysis hang hook). A probe process of its own (so the attackers' threads cannot take its
GIL) calls ListLegalMoves one call at a time for ``--seconds``: alone, then during each attack:

* ``frozen engine``: 4 SuggestMove calls stuck in the analysis engine at once (the test hook
  ``x-tavla-test-engine: hang``), sent again as they end, beside SuggestMove of a 2^30 + 1
  point match every 0.2 s (refused before the engine: ``INVALID_ARGUMENT``);
* ``slow streams``: 10 ValidateMatch streams sending one byte every 2-8 s and 4 that send a
  chunk and go quiet, each opened again when the server ends it;
* ``header-only flood``: 10 HTTP/2 connections on the gRPC port, each opening 300 calls with
  headers and no DATA, again every second;
* ``whitespace streams``: 4 ValidateMatch streams in the default format sending spaces as fast
  as the server takes them.

Per phase: calls answered, non-OK calls, p50 and p99 latency and their ratios to the alone
figures; the attackers' own counts; the RSS of the server's processes before and after. Every
loop stops by itself at the end of its window (and by a count bound).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
START_ID = "4HPwATDgc/ABMA"
RULES = "/tavla.v1.RulesService/ListLegalMoves"
HANG = (("x-tavla-test-engine", "hang"),)
MAX_CALLS = 1_000_000  # a bound on every loop besides its window


# --- the probe (its own process) --------------------------------------------------------------

def probe(target: str, seconds: float) -> dict:
    import grpc

    from tavla.v1 import rules_service_pb2 as api
    from tavla.v1 import types_pb2

    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    requests = [api.ListLegalMovesRequest(position=types_pb2.Position(position_id=START_ID), dice=[a, b])
                .SerializeToString() for a, b in rolls]
    latencies: list[float] = []
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(target) as ch:
        call = ch.unary_unary(RULES, request_serializer=None, response_deserializer=None)
        call(requests[0], timeout=30)  # connected before the clock starts
        print("ready", flush=True)
        sys.stdin.readline()
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end and i < MAX_CALLS:
            begin = time.perf_counter()
            try:
                call(requests[i % len(requests)], timeout=5)
                codes["OK"] += 1
            except grpc.RpcError as exc:
                codes[exc.code().name] += 1
            latencies.append(time.perf_counter() - begin)
            i += 1
    latencies.sort()
    pick = (lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000) if latencies else (lambda q: 0.0)
    return {"calls": len(latencies), "ok": codes["OK"], "codes": dict(codes), "p50_ms": pick(0.50),
            "p99_ms": pick(0.99), "mean_ms": statistics.fmean(latencies) * 1000 if latencies else 0.0}


def run_probe(target: str, seconds: float, attack_started: Callable[[], None]) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (os.path.join(ROOT, "service"),
                                                                    os.environ.get("PYTHONPATH")))))
    proc = subprocess.Popen([sys.executable, __file__, "--probe", target, str(seconds)], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "ready"
        attack_started()
        proc.stdin.write("go\n")
        proc.stdin.flush()
        out = proc.stdout.read()
        proc.wait(timeout=seconds + 60)
        return json.loads(out)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --- the server -------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout
    children: dict[int, list[int]] = {}
    for line in out.splitlines():
        p, pp = (int(x) for x in line.split())
        children.setdefault(pp, []).append(p)
    found, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            found.append(c)
            todo.append(c)
    return found


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Server:
    def __init__(self, hang_file: str) -> None:
        self.port = free_port()
        self.target = f"127.0.0.1:{self.port}"
        env = dict(os.environ, TAVLA_TEST_HANG_FILE=hang_file)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (os.path.join(ROOT, "service"), env.get("PYTHONPATH"))))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", "1", "--metrics-port", "0", "--test-inputs"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_serving()

    def _wait_serving(self) -> None:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        end = time.monotonic() + 90
        while time.monotonic() < end:
            try:
                with grpc.insecure_channel(self.target) as ch:
                    if health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status \
                            == health_pb2.HealthCheckResponse.SERVING:
                        return
            except grpc.RpcError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise SystemExit("the server did not start")

    def rss(self) -> tuple[float, float]:
        """(the server process, the server and every process under it), MiB."""
        main = rss_mib(self.proc.pid)
        return main, main + sum(rss_mib(p) for p in descendants(self.proc.pid))

    def stop(self) -> None:
        family = descendants(self.proc.pid)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid in family:  # a stuck analysis child, should one outlive the server
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


# --- the attacks ------------------------------------------------------------------------------
# Each takes (target, port, stop event, counts) and returns when ``stop`` is set.

class Attack:
    def __init__(self, name: str, threads: list[Callable[[threading.Event, Counter[str]], None]]) -> None:
        self.name = name
        self.threads = threads
        self.stop = threading.Event()
        self.counts: Counter[str] = Counter()
        self.lock = threading.Lock()
        self._running: list[threading.Thread] = []

    def start(self) -> None:
        for fn in self.threads:
            t = threading.Thread(target=self._run, args=(fn,), daemon=True)
            t.start()
            self._running.append(t)

    def _run(self, fn: Callable[[threading.Event, Counter[str]], None]) -> None:
        local: Counter[str] = Counter()
        try:
            fn(self.stop, local)
        except Exception as exc:  # an attacker's own failure is a figure, not a crash of the bench
            local[f"attacker error {type(exc).__name__}"] += 1
        with self.lock:
            self.counts.update(local)

    def finish(self, bound: float = 40) -> None:
        self.stop.set()
        end = time.monotonic() + bound
        for t in self._running:
            t.join(max(0.1, end - time.monotonic()))
        self.counts["threads still running"] = sum(t.is_alive() for t in self._running)
        if not self.counts["threads still running"]:
            del self.counts["threads still running"]


def _code(exc: Exception) -> str:
    import grpc

    return exc.code().name if isinstance(exc, grpc.RpcError) else type(exc).__name__


def frozen_engine(target: str, port: int, window: float) -> Attack:
    import grpc

    from tavla.v1 import analysis_service_pb2 as api
    from tavla.v1 import match_pb2, types_pb2

    def suggest(length: int) -> api.SuggestMoveRequest:
        return api.SuggestMoveRequest(position=types_pb2.Position(position_id=START_ID), dice=[3, 1],
                                      match=match_pb2.MatchState(length=length), level=api.ANALYSIS_LEVEL_BEGINNER)

    def stuck(stop: threading.Event, counts: Counter[str]) -> None:
        with grpc.insecure_channel(target) as ch:
            call = ch.unary_unary("/tavla.v1.AnalysisService/SuggestMove",
                                  request_serializer=api.SuggestMoveRequest.SerializeToString,
                                  response_deserializer=api.SuggestMoveResponse.FromString)
            for _ in range(100):
                if stop.is_set():
                    break
                future = call.future(suggest(5), timeout=window + 5, metadata=HANG)
                counts["stuck calls sent"] += 1
                while not future.done() and not stop.wait(0.1):
                    pass
                future.cancel()
                try:
                    future.result(timeout=5)
                    counts["stuck call OK"] += 1
                except grpc.FutureCancelledError:
                    counts["stuck call cancelled at the end"] += 1
                except Exception as exc:
                    counts[f"stuck call {_code(exc)}"] += 1

    def huge(stop: threading.Event, counts: Counter[str]) -> None:
        with grpc.insecure_channel(target) as ch:
            call = ch.unary_unary("/tavla.v1.AnalysisService/SuggestMove",
                                  request_serializer=api.SuggestMoveRequest.SerializeToString,
                                  response_deserializer=api.SuggestMoveResponse.FromString)
            for _ in range(MAX_CALLS):
                if stop.wait(0.2):
                    break
                begin = time.monotonic()
                try:
                    call(suggest(2**30 + 1), timeout=window + 10)
                    counts["2^30+1 OK"] += 1
                except grpc.RpcError as exc:
                    counts[f"2^30+1 {exc.code().name}"] += 1
                # refused by its field, but only once it has an analysis thread: it waits behind stuck calls
                counts["2^30+1 slowest ms"] = max(counts["2^30+1 slowest ms"], round((time.monotonic() - begin) * 1000))

    return Attack("frozen engine", [stuck] * 4 + [huge])


def _validate_call(channel):  # type: ignore[no-untyped-def]
    from tavla.v1 import validate_pb2

    return channel.stream_stream("/tavla.v1.RecordsService/ValidateMatch",
                                 request_serializer=validate_pb2.ValidateMatchRequest.SerializeToString,
                                 response_deserializer=validate_pb2.ValidateMatchResponse.FromString)


def _streaming(target: str, name: str, requests: Callable[[threading.Event, threading.Event], Iterator]):
    """An attacker thread: a ValidateMatch stream of ``requests(stop, ended)``, opened again
    whenever the server ends it, until ``stop``."""
    import grpc

    def attacker(stop: threading.Event, counts: Counter[str]) -> None:
        with grpc.insecure_channel(target) as ch:
            call = _validate_call(ch)
            for _ in range(10_000):
                if stop.is_set():
                    break
                ended = threading.Event()
                counts[f"{name} opened"] += 1
                try:
                    for _answer in call(requests(stop, ended), timeout=120):
                        pass
                    counts[f"{name} OK"] += 1
                except grpc.RpcError as exc:
                    counts[f"{name} {exc.code().name}"] += 1
                ended.set()
                stop.wait(0.2)

    return attacker


def slow_streams(target: str, port: int, window: float) -> Attack:
    from tavla.v1 import validate_pb2

    record = open(os.path.join(ROOT, "tests", "data", "matches", "quirks", "match1267.mat"), "rb").read()

    def trickle(stop: threading.Event, ended: threading.Event) -> Iterator:
        rng = random.Random()
        yield validate_pb2.ValidateMatchRequest(format=validate_pb2.RECORD_FORMAT_MAT, chunk=record[:1])
        for i in range(1, len(record)):
            if stop.wait(rng.uniform(2, 8)) or ended.is_set():
                return
            yield validate_pb2.ValidateMatchRequest(chunk=record[i:i + 1])

    def quiet(stop: threading.Event, ended: threading.Event) -> Iterator:
        yield validate_pb2.ValidateMatchRequest(format=validate_pb2.RECORD_FORMAT_MAT, chunk=record[:200])
        stop.wait(window + 30)

    return Attack("slow streams", [_streaming(target, "trickle", trickle)] * 10 + [_streaming(target, "quiet", quiet)] * 4)


def header_flood(target: str, port: int, window: float) -> Attack:
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions
    import h2.settings

    headers = [(":method", "POST"), (":path", RULES), (":scheme", "http"), (":authority", "t"),
               ("content-type", "application/grpc"), ("te", "trailers")]

    def connection(stop: threading.Event, counts: Counter[str]) -> None:
        for _ in range(1000):  # connections, when the server closes one
            if stop.is_set():
                return
            conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
            conn.initiate_connection()
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                counts["connections"] += 1
                sock.settimeout(0.05)
                closed = False
                while not stop.is_set() and not closed:
                    # ignore the server's stream limit, as a hostile client would
                    conn.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = 2**31 - 1
                    for _ in range(300):
                        conn.send_headers(conn.get_next_available_stream_id(), headers)
                    counts["header-only streams"] += 300
                    try:
                        sock.sendall(conn.data_to_send())
                    except OSError:
                        break
                    until = time.monotonic() + 1.0
                    while time.monotonic() < until and not stop.is_set():
                        try:
                            data = sock.recv(65536)
                        except (socket.timeout, BlockingIOError):
                            continue
                        except OSError:
                            closed = True
                            break
                        if not data:
                            closed = True
                            break
                        try:
                            events = conn.receive_data(data)
                        except h2.exceptions.ProtocolError:
                            closed = True
                            break
                        for e in events:
                            if isinstance(e, h2.events.StreamReset):
                                counts["streams reset by the server"] += 1
                            elif isinstance(e, h2.events.StreamEnded):
                                counts["streams answered by the server"] += 1
                            elif isinstance(e, h2.events.ConnectionTerminated):
                                closed = True
                        out = conn.data_to_send()
                        if out:
                            try:
                                sock.sendall(out)
                            except OSError:
                                closed = True
                    if conn.state_machine.state.name == "CLOSED":
                        closed = True
                if closed:
                    counts["connections closed by the server"] += 1

    return Attack("header-only flood", [connection] * 10)


def whitespace_streams(target: str, port: int, window: float) -> Attack:
    from tavla.v1 import validate_pb2

    blank = b" \n\t " * 8192  # 32 KiB

    def spaces(stop: threading.Event, ended: threading.Event) -> Iterator:
        yield validate_pb2.ValidateMatchRequest(chunk=blank)  # the default format
        for _ in range(MAX_CALLS):
            if stop.is_set() or ended.is_set():
                return
            yield validate_pb2.ValidateMatchRequest(chunk=blank)

    attack = Attack("whitespace streams", [_streaming(target, "blank", spaces)] * 4)
    return attack


ATTACKS = [frozen_engine, slow_streams, header_flood, whitespace_streams]


# --- the run ----------------------------------------------------------------------------------

def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="the probe's window per phase")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds an attack runs before the probe starts")
    parser.add_argument("--smoke", action="store_true", help="3 s per phase, 1 s to settle")
    parser.add_argument("--probe", nargs=2, metavar=("TARGET", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        print(json.dumps(probe(args.probe[0], float(args.probe[1]))), flush=True)
        return
    window, settle = (3.0, 1.0) if args.smoke else (args.seconds, args.settle)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(os.path.join(tmp, "hang.pid"))
        try:
            rows = []
            rss0 = server.rss()
            alone = run_probe(server.target, window, lambda: None)
            rows.append(("alone", alone, None, rss0, server.rss()))
            for make in ATTACKS:
                attack = make(server.target, server.port, window + settle)
                before = server.rss()
                result = run_probe(server.target, window, lambda a=attack: (a.start(), time.sleep(settle)))
                after_window = server.rss()
                attack.finish()
                rows.append((attack.name, result, attack.counts, before, after_window))
                time.sleep(settle)  # the server ends what the attack left (eviction, idle limits)
            rss_end = server.rss()
        finally:
            server.stop()
    print(f"bench_attacks: one worker, default limits, --test-inputs; probe: ListLegalMoves one call at a time, "
          f"{window:.0f} s per phase (attack started {settle:.0f} s before)")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; "
          f"after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'phase':<20} {'calls':>7} {'non-OK':>7} {'p50 ms':>8} {'p99 ms':>8} {'calls/alone':>11} "
          f"{'p50/alone':>9} {'p99/alone':>9}  RSS MiB server (all processes) before -> after")
    base = rows[0][1]
    for name, r, _counts, before, after in rows:
        print(f"{name:<20} {r['calls']:>7,} {r['calls'] - r['ok']:>7} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} "
              f"{_ratio(r['calls'], base['calls']):>11} {_ratio(r['p50_ms'], base['p50_ms']):>9} "
              f"{_ratio(r['p99_ms'], base['p99_ms']):>9}  {before[0]:.0f} ({before[1]:.0f}) -> "
              f"{after[0]:.0f} ({after[1]:.0f})")
    for name, r, counts, _b, _a in rows:
        non_ok = {k: v for k, v in r["codes"].items() if k != "OK"}
        if counts is not None:
            print(f"  {name}: attackers {dict(sorted(counts.items()))}" + (f"; probe non-OK {non_ok}" if non_ok else ""))
    print(f"server RSS at the end: {rss_end[0]:.0f} MiB ({rss_end[1]:.0f} with every process under it)")


if __name__ == "__main__":
    main()
