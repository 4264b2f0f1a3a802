"""What the reliability tests share: a ``tavla-engine serve`` subprocess with its JSON log, its
RSS, the costliest known request, health sampling, and the figures each test reports.

Every server here listens on 127.0.0.1 only. Timing bounds are generous on purpose (a loaded
2-core machine): they catch a hang or a queue, never a slow machine.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import rpc_api as api
from tavla.v1 import types_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
LONG = os.environ.get("TAVLA_RELIABILITY_LONG", "") not in ("", "0", "false", "no")
#: The costliest request found (the break-it trial): 2,065 legal moves, a 280 KB answer, ~70 ms.
COSTLY_ID = "/38AAACUlBRVFQ"
COSTLY = api.ListLegalMovesRequest(position=pb.Position(position_id=COSTLY_ID), dice=[1, 1])
START_ID = "4HPwATDgc/ABMA"
#: Seconds a wait for a state or a log line may take before it is a hang: a guard, not a speed
#: (a server's start-up takes about a second idle and minutes on 2 cores at a load of 50).
HANG_GUARD = 600.0
REPORT: list[str] = []  # one line per figure, printed at the end of the session (conftest.py)
SERVERS: list[Server] = []  # every server started, killed at the end of the session if still up


def report(line: str) -> None:
    """Record a figure for the session summary (and docs/reliability.md)."""
    REPORT.append(line)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def subprocess_env() -> dict[str, str]:
    """The environment for servers: this test run's ``tavla`` first on the path, no TAVLA_*."""
    import tavla

    package_root = str(Path(tavla.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    for name in list(env):
        if name.startswith("TAVLA_") and name != "TAVLA_CACHE_DIR":
            env.pop(name)
    return env


class Server:
    """``tavla-engine serve`` in a subprocess on 127.0.0.1, stderr JSON lines collected."""

    def __init__(self, *args: str, workers: int = 1, port: int = 0, metrics: bool = False,
                 env: dict[str, str] | None = None) -> None:
        self.metrics_port = free_port() if metrics else 0
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--metrics-port", str(self.metrics_port), "--log-format", "json",
             *args],
            env={**subprocess_env(), **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        SERVERS.append(self)
        self.raw: list[str] = []
        self.events: queue.Queue[dict] = queue.Queue()
        self._written = threading.Condition()  # notified on each line, and at the end of the log
        self._ended = False
        threading.Thread(target=self._read, daemon=True).start()
        listening = self.wait_for_line(lambda e: e.get("event", "").startswith("tavla-engine listening on"),
                                       "the server's 'listening' line")
        self.target = str(listening["address"])
        wait_serving(self.target)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._written:
                self.raw.append(line)
                self._written.notify_all()
            try:
                self.events.put(json.loads(line))
            except ValueError:
                pass
        with self._written:
            self._ended = True
            self._written.notify_all()

    def wait_for_line(self, match: Callable[[dict], bool], what: str, guard: float = HANG_GUARD) -> dict:
        """The first JSON log line ``match`` accepts, waited for as the server writes it.

        :raises AssertionError: naming ``what``, when the log ends without it or after ``guard``
            seconds (a hang guard).
        """
        end = time.monotonic() + guard
        seen = 0
        with self._written:
            while True:
                for line in self.raw[seen:]:
                    try:
                        event = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(event, dict) and match(event):
                        return event
                seen = len(self.raw)
                left = end - time.monotonic()
                if self._ended or left <= 0:
                    why = "the server's log ended" if self._ended else f"not within {guard:g} s (a hang guard)"
                    raise AssertionError(f"waited for {what}: {why}\n{self.log()}")
                self._written.wait(left)

    def lines(self) -> list[dict]:
        out = []
        for line in list(self.raw):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def errors(self) -> list[dict]:
        """Log lines at error level (a traceback per bad input would show here)."""
        return [e for e in self.lines() if e.get("level") in ("error", "critical")]

    def log(self) -> str:
        return "".join(self.raw[-80:])

    def worker_pids(self) -> list[int]:
        """The server's worker processes (itself with one worker)."""
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True)
        pids = [int(p) for p in out.stdout.split()]
        return pids or [self.proc.pid]

    def rss_mib(self) -> float:
        """Resident memory of the server and its workers, MiB."""
        return sum(rss_mib(pid) for pid in {self.proc.pid, *self.worker_pids()})

    def stop(self, timeout: float = 60) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            return self.proc.wait(timeout)
        finally:
            self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            for pid in self.worker_pids():
                if pid != self.proc.pid:
                    try:
                        os.kill(pid, 9)
                    except OSError:
                        pass
            self.proc.kill()
            self.proc.wait()


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def wait_serving(target: str, timeout: float = HANG_GUARD) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            with grpc.insecure_channel(target) as ch:
                status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
            if status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.RpcError:
            pass
        if time.monotonic() > end:
            raise AssertionError(f"waited for {target} to answer health SERVING: not within {timeout:g} s")
        time.sleep(0.1)


_SAMPLER = r"""
import json, sys, time, grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
target, period = sys.argv[1], float(sys.argv[2])
out = {"seconds": [], "started": [], "failures": []}
with grpc.insecure_channel(target) as ch:
    stub = health_pb2_grpc.HealthStub(ch)
    grpc.channel_ready_future(ch).result(timeout=30)
    print("ready", flush=True)
    while True:
        begin = time.perf_counter()
        out["started"].append(time.monotonic())
        try:
            status = stub.Check(health_pb2.HealthCheckRequest(service="tavla.v1.RulesService"), timeout=10).status
            if status != health_pb2.HealthCheckResponse.SERVING:
                out["failures"].append(f"status {status}")
        except grpc.RpcError as exc:
            out["failures"].append(exc.code().name)
        out["seconds"].append(time.perf_counter() - begin)
        if sys.stdin in __import__("select").select([sys.stdin], [], [], period)[0]:
            break
print(json.dumps(out), flush=True)
"""


class HealthSampler:
    """Asks health every ``period`` seconds from a process of its own (so the test's own threads
    cannot delay it), and records how long each answer took (client side)."""

    def __init__(self, target: str, period: float = 0.1) -> None:
        self.target, self.period = target, period
        self.seconds: list[float] = []
        self.started: list[float] = []  # time.monotonic() of each check (same clock: Linux)
        self.failures: list[str] = []
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", _SAMPLER, self.target, str(self.period)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=subprocess_env())
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "ready"

    def finish(self) -> HealthSampler:
        assert self.proc is not None and self.proc.stdin is not None
        out, _ = self.proc.communicate("stop\n", timeout=60)
        data = json.loads(out.strip().splitlines()[-1])
        self.seconds, self.started, self.failures = data["seconds"], data["started"], data["failures"]
        return self

    @property
    def worst(self) -> float:
        return max(self.seconds, default=float("inf"))
