"""Health and shutdown: NOT_SERVING until ready, NOT_SERVING during the drain while calls still
succeed, and SIGTERM under load with zero failed calls and exit 0, for one worker and for two
workers sharing the port (both serving, both stopped)."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from tavla.server.process import app
from tavla.server.process.config import Config
import rpc_api as api
from tavla.v1 import types_pb2 as pb

START_ID = "4HPwATDgc/ABMA"
TIMEOUT = 30  # seconds per call or wait: generous, never a speed assertion
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
ROLLS = ([6, 6], [5, 1], [3, 1], [2, 2], [6, 4], [1, 1])


def list_request(n: int) -> api.ListLegalMovesRequest:
    return api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=ROLLS[n % len(ROLLS)])


# --- in process -------------------------------------------------------------------------------


def test_not_serving_until_started_and_self_checked(monkeypatch):
    engine = app.build(Config(host="127.0.0.1", port=0))
    seen = []
    real_check = app._self_check

    def check():  # runs after the port is open, before SERVING
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
            seen.append(health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT).status)
        real_check()

    monkeypatch.setattr(app, "_self_check", check)
    app.start(engine)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
            health = health_pb2_grpc.HealthStub(ch)
            assert app.HEALTH_NAMES == ("", "tavla.v1.RulesService", "tavla.v1.MatchService",
                                        "tavla.v1.RefereeService", "tavla.v1.RecordsService",
                                        "tavla.v1.AnalysisService")
            for service in app.HEALTH_NAMES:
                assert health.Check(health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT).status == SERVING
        assert seen == [NOT_SERVING]
    finally:
        engine.server.stop(None)


def test_drain_is_not_serving_but_still_serves_then_stop_refuses():
    engine = app.build(Config(host="127.0.0.1", port=0))
    app.start(engine)
    target = f"127.0.0.1:{engine.port}"
    during = []
    with grpc.insecure_channel(target) as ch:
        health = health_pb2_grpc.HealthStub(ch)
        stub = api.AnyStub(ch)

        def drain(seconds):  # stands in for the drain period: ask while still up
            during.append(seconds)
            for service in ("", "tavla.v1.RulesService"):
                during.append(health.Check(health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT).status)
            during.append(len(stub.ListLegalMoves(list_request(0), timeout=TIMEOUT).moves))

        expected = len(stub.ListLegalMoves(list_request(0), timeout=TIMEOUT).moves)
        app.stop(engine, grace=5, drain_delay=5, drain=drain)
        assert during == [5, NOT_SERVING, NOT_SERVING, expected]
        with pytest.raises(grpc.RpcError) as info:
            stub.ListLegalMoves(list_request(0), timeout=TIMEOUT)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE


# --- a real process under load ----------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``tavla-engine serve`` in a subprocess, its stderr JSON lines collected."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.metrics_port = _free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", "0",
             "--metrics-port", str(self.metrics_port), "--log-format", "json", *args],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        self.raw: list[str] = []
        self.events: queue.Queue[dict] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.target = self._wait_for_address()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.raw.append(line)
            try:
                self.events.put(json.loads(line))
            except ValueError:
                pass  # not ours (a gRPC core message)

    def _wait_for_address(self) -> str:
        while True:
            try:
                event = self.events.get(timeout=60)  # generous: interpreter start and imports
            except queue.Empty:
                pytest.fail(f"server did not start:\n{self.log()}")
            if event.get("event", "").startswith("tavla-engine listening on"):
                return event["address"]

    def lines(self) -> list[dict]:
        out = []
        for line in self.raw:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def log(self) -> str:
        return "".join(self.raw[-60:])

    def metrics(self) -> dict[str, list]:
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            text = response.read().decode()
        return {f.name: f.samples for f in text_string_to_metric_families(text)}

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class LoadClient(threading.Thread):
    """Calls ListLegalMoves in a loop on its own connection, checking health before each call;
    once health says NOT_SERVING it makes one more call (a client whose balancer has not caught up)
    and stops. Every RPC error is a failure."""

    def __init__(self, target: str, index: int) -> None:
        super().__init__(daemon=True)
        self.target, self.index = target, index
        self.ok = self.late_ok = 0
        self.failures: list[tuple[str, str]] = []

    def run(self) -> None:
        options = [("grpc.use_local_subchannel_pool", 1)]  # a connection of its own
        with grpc.insecure_channel(self.target, options=options) as ch:
            health = health_pb2_grpc.HealthStub(ch)
            stub = api.AnyStub(ch)
            n = 0
            try:
                while True:
                    meta = (("x-request-id", f"load-{self.index}-{n}"),)
                    status = health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT).status
                    if status != SERVING:
                        stub.ListLegalMoves(list_request(n), timeout=TIMEOUT, metadata=meta)
                        self.late_ok += 1
                        return
                    stub.ListLegalMoves(list_request(n), timeout=TIMEOUT, metadata=meta)
                    self.ok += 1
                    n += 1
            except grpc.RpcError as exc:
                self.failures.append((exc.code().name, exc.details() or ""))


def spread_calls(target: str, count: int) -> None:
    """``count`` calls, each on a new connection, tagged ``spread-k``."""
    for k in range(count):
        with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
            stub = api.AnyStub(ch)
            stub.ListLegalMoves(list_request(k), timeout=TIMEOUT, metadata=(("x-request-id", f"spread-{k}"),),
                                wait_for_ready=True)


def parent_pid(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("PPid:")).split()[1])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_under_load_fails_no_call_and_exits_0(subprocess_env, workers):
    server = Server(subprocess_env, "--workers", str(workers), "--drain-seconds", "2", "--grace-seconds", "5")
    try:
        with grpc.insecure_channel(server.target) as ch:  # every worker up: the parent logs first
            health = health_pb2_grpc.HealthStub(ch)
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT,
                                wait_for_ready=True).status == SERVING
        worker_pids: set[int] = set()
        if workers > 1:
            worker_pids = _wait_for_workers(server, workers)  # each one SERVING
            spread_calls(server.target, 32)  # new connections land on either worker
            assert {parent_pid(pid) for pid in worker_pids} == {server.proc.pid}
        clients = [LoadClient(server.target, i) for i in range(4)]
        for client in clients:
            client.start()
        deadline = time.monotonic() + 60
        while min(c.ok for c in clients) < 3 and time.monotonic() < deadline and all(c.is_alive() for c in clients):
            time.sleep(0.01)
        assert all(c.ok >= 3 for c in clients), ([c.failures for c in clients], server.log())

        server.proc.send_signal(signal.SIGTERM)
        for client in clients:
            client.join(timeout=60)
        code = server.proc.wait(timeout=60)
        server.reader.join(timeout=30)

        assert [f for c in clients for f in c.failures] == [], server.log()
        assert [c.late_ok for c in clients] == [1] * 4  # served during the drain, after the flip
        assert code == 0, server.log()
        lines = server.lines()
        assert lines[-1]["event"] == "tavla-engine stopped", server.log()
        served = [e for e in lines if e.get("event") == "rpc" and e["request_id"].startswith("load-")]
        assert all(e["code"] == "OK" for e in served)
        assert len(served) == sum(c.ok + c.late_ok for c in clients)
        if workers > 1:
            spread = {e["pid"] for e in lines if e.get("event") == "rpc" and e["request_id"].startswith("spread-")}
            assert spread == worker_pids  # both workers answered calls on the one port
            assert not any(alive(pid) for pid in worker_pids)
            stopped = [e for e in lines if e.get("event", "").startswith("tavla-engine worker")
                       and e["event"].endswith("stopped")]
            assert {e["pid"] for e in stopped} == worker_pids
    finally:
        server.close()


def _worker_pids(server: Server) -> set[int]:
    samples = server.metrics().get("tavla_worker_info", [])
    return {int(s.labels["pid"]) for s in samples if s.value == 1}


def _wait_for_workers(server: Server, count: int) -> set[int]:
    """The pids of the workers once ``count`` of them are serving (a worker sets its
    ``tavla_worker_info`` once SERVING)."""
    deadline = time.monotonic() + 60
    while len(pids := _worker_pids(server)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(pids) == count, server.log()
    return pids


def test_a_worker_that_dies_is_replaced(subprocess_env):
    server = Server(subprocess_env, "--workers", "2", "--drain-seconds", "0", "--grace-seconds", "5")
    try:
        before = _wait_for_workers(server, 2)
        victim = min(before)
        deadline = time.monotonic() + 60
        os.kill(victim, signal.SIGKILL)
        while time.monotonic() < deadline:
            after = _worker_pids(server)
            if len(after) == 2 and victim not in after:
                break
            time.sleep(0.1)
        assert len(after) == 2 and victim not in after and (before - {victim}) < after, server.log()
        assert {parent_pid(pid) for pid in after} == {server.proc.pid}
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=60) == 0, server.log()
        server.reader.join(timeout=30)
        died = [e for e in server.lines() if e.get("event") == "worker exited unexpectedly"]
        assert [(e["worker_pid"], e["status"]) for e in died] == [(victim, -signal.SIGKILL)]
    finally:
        server.close()


def _wait_for_event(server: Server, event: str, pids: set[int]) -> None:
    """Until each of ``pids`` has logged ``event``."""
    deadline = time.monotonic() + 300  # a hang, not a speed: the build takes 4 s idle, minutes loaded
    while time.monotonic() < deadline:
        if pids <= {e.get("pid") for e in server.lines() if e.get("event") == event}:
            return
        time.sleep(0.2)
    pytest.fail(f"not every worker logged {event!r}:\n{server.log()}")


def test_bearoff_database_warmed_in_the_background_and_built_once(subprocess_env, tmp_path):
    cache = tmp_path / "cache"  # empty: the tables must be built (about 4 s)
    # the default health bound: the build runs in a child process and cannot starve the heartbeat
    server = Server(subprocess_env, "--workers", "2", "--drain-seconds", "0", "--cache-dir", str(cache))
    try:
        pids = _wait_for_workers(server, 2)  # both SERVING, whether or not the tables are ready
        # each worker says so once its tables are loaded (the metric is set just before)
        _wait_for_event(server, "bear-off database ready", pids)
        ready = server.metrics().get("tavla_bearoff_database_ready", [])
        assert [s.value for s in ready] == [1.0], server.log()  # the minimum over the live workers
        # one table file and the builders' lock, no leftovers
        assert sorted(p.name for p in cache.iterdir()) == ["bearoff-os-6x15-v1.bin", "bearoff.lock"]
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=60) == 0, server.log()
        server.reader.join(timeout=30)
        events = [(e.get("pid"), e.get("event", "")) for e in server.lines()]
        assert sum(event.startswith("bear-off database built") for _, event in events) == 1  # by one worker
        for pid in pids:  # each served and loaded the tables, in whichever order they came
            mine = [event for p, event in events if p == pid]
            assert any(" serving on " in event for event in mine), mine
            assert mine.count("bear-off database ready") == 1, mine
    finally:
        server.close()
