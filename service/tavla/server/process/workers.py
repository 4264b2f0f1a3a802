"""Several server processes on one port, the way gRPC Python recommends for CPU-bound services.

The GIL lets one Python process use about one CPU, so ``--workers N`` starts N worker processes
that each run a whole server (:func:`tavla.server.process.app.run`) bound to the same port with
``SO_REUSEPORT``; the kernel spreads new connections over them. Workers are fresh interpreters
(``python -m tavla.server.process.worker``), not forks, because gRPC must not be forked once started.

The parent process (the container's PID 1):

* reserves the port first (a bound, non-listening ``SO_REUSEPORT`` socket), so port 0 picks one
  port for all, and a process that does not share ports cannot take it;
* gives the workers a fresh ``PROMETHEUS_MULTIPROC_DIR`` under the temp dir and serves the sum of
  their metrics on the metrics port; the directory is removed at exit;
* on SIGTERM or SIGINT forwards SIGTERM to every worker, each of which drains and stops on its
  own, waits for them, and exits 0 when they all did;
* kills (SIGKILL) a worker whose heartbeat (:mod:`~tavla.server.process.heartbeat`: "starting",
  then its own health answered) is ``--worker-health-seconds`` late (:data:`START_SECONDS` more
  for its first; while it starts, CPU it uses counts as a beat), or that still starts
  :data:`START_LIMIT` seconds after it was spawned, which then counts as a death;
* restarts a worker that dies, unless they die more than :data:`MAX_RESTARTS` times within
  :data:`RESTART_WINDOW` seconds: then it stops the rest and exits 1 (the pod restarts).

A worker whose parent dies gets SIGTERM (``PR_SET_PDEATHSIG``), so none outlives it.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import structlog

import tavla
from tavla.core.match import dice_commit
from tavla.server.pipeline import logs
from tavla.server.process import app, cpus, heartbeat, memory
from tavla.server.pipeline import metrics
from tavla.server.process import plumbing as process
from tavla.server.process.config import Config

log = structlog.get_logger("tavla.server.process.workers")

ENV_CONFIG = "TAVLA_WORKER_CONFIG"  # the worker's Config as JSON; internal
ENV_INDEX = "TAVLA_WORKER_INDEX"
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0  # seconds
_WAKE_SECONDS = 0.5
_EXTRA_WAIT = 10.0  # seconds past drain + grace before a worker that has not exited is killed
#: Seconds a new worker has, beyond ``--worker-health-seconds``, to beat first (the interpreter's
#: start: it beats before importing the server).
START_SECONDS = 30.0
#: Seconds a worker that beats may take to serve (a hang guard: its start-up takes about a
#: second of CPU, half a minute on 2 cores at a load of 50).
START_LIMIT = 300.0


class _Beats:
    """The read ends of the workers' heartbeat pipes (:mod:`~tavla.server.process.heartbeat`),
    when each worker was started and last beat, and whether it has served.

    A serving worker is late when it has not beaten for ``bound`` seconds. A starting one (no
    :data:`~tavla.server.process.heartbeat.SERVING` beat yet) is late only when it has neither
    beaten nor used CPU for ``bound`` seconds (:data:`START_SECONDS` more before its first beat):
    on a loaded machine its start-up crawls but never stops, while a frozen or deadlocked one
    uses none; and when it still starts :data:`START_LIMIT` seconds after its spawn (a hang
    guard). ``clock`` is a monotonic clock in seconds, ``cpu_seconds(pid)`` a process's CPU time
    or None (tests pass their own).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 cpu_seconds: Callable[[int], float | None] = lambda pid: _cpu_seconds(pid)) -> None:
        self._clock, self._cpu_seconds = clock, cpu_seconds
        self._pipes: dict[int, _Pipe] = {}

    def new(self, index: int) -> int:
        """A pipe for worker ``index``; its write end (the caller closes it after the spawn)."""
        self.close(index)
        r, w = os.pipe()
        os.set_blocking(r, False)
        now = self._clock()
        self._pipes[index] = _Pipe(r, now, now + START_SECONDS)
        return w

    def late(self, index: int, pid: int, bound: float) -> str | None:
        """Read the beats of worker ``index`` (process ``pid``); why it is late (for the log), or
        None when it is not."""
        pipe = self._pipes.get(index)
        if pipe is None:
            return None
        try:
            while beats := os.read(pipe.fd, 512):
                pipe.last = self._clock()
                pipe.serving = pipe.serving or heartbeat.SERVING in beats
        except BlockingIOError:
            pass
        now = self._clock()
        if not pipe.serving:
            cpu = self._cpu_seconds(pid)
            if cpu is not None and pipe.cpu is not None and cpu != pipe.cpu:  # busy starting: progress
                pipe.last = max(pipe.last, now)
            pipe.cpu = cpu
            if now - pipe.spawned > START_LIMIT:
                return "still starting"
        if now - pipe.last > bound:
            return "stopped answering its health" if pipe.serving else "stopped starting (no beat, no CPU)"
        return None

    def close(self, index: int | None = None) -> None:
        for i in [index] if index is not None else list(self._pipes):
            pipe = self._pipes.pop(i, None)
            if pipe is not None:
                os.close(pipe.fd)


@dataclasses.dataclass(slots=True)
class _Pipe:
    fd: int
    spawned: float
    last: float  # the last sign of life (a beat, CPU used while starting), or the spawn + START_SECONDS
    serving: bool = False
    cpu: float | None = None  # CPU seconds at the last look while starting (the first is a baseline)


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime: fields 14 and 15
    except (OSError, IndexError, ValueError):
        return None


def supervise(config: Config, count: int) -> int:
    """Run ``count`` workers until a signal, then stop them; returns the exit code.

    :raises OSError: the address, the HTTP port or the metrics port cannot be bound.
    """
    reservation, port = _reserve(config.host, config.port)
    http_reservation = None
    http_port = config.http_port
    if http_port is not None:  # the HTTP port is shared by the workers the same way
        try:
            http_reservation, http_port = _reserve(config.host, http_port)
        except OSError:
            reservation.close()
            raise
    address = process.address(config.host, port)
    multiproc_dir = tempfile.mkdtemp(prefix="tavla-metrics-") if config.metrics_port else None
    worker_config = dataclasses.replace(config, port=port, workers=1, http_port=http_port)
    stopping = threading.Event()
    received: list[str] = []
    process.on_stop_signals(stopping, received)
    procs: dict[int, subprocess.Popen[bytes]] = {}
    restarts: collections.deque[float] = collections.deque()
    http = None
    code = 0
    beats = _Beats()
    bound = config.worker_health_seconds
    try:
        if multiproc_dir is not None:  # before any worker: a port in use stops start-up (OSError)
            http, _thread = metrics.serve(config.host, config.metrics_port, aggregate_dir=multiproc_dir)
        for index in range(1, count + 1):
            procs[index] = _spawn(worker_config, index, multiproc_dir, beats.new(index))
        log.info(f"tavla-engine listening on {address}", address=address, workers=count,
                 pids=[p.pid for p in procs.values()], tls=config.tls, mtls=config.tls_client_ca is not None,
                 metrics_port=config.metrics_port if http else 0, http_port=http_port)
        while not stopping.wait(timeout=_WAKE_SECONDS):
            for index, proc in list(procs.items()):
                status = proc.poll()
                why = beats.late(index, proc.pid, bound) if status is None else None
                if why is not None:
                    log.error(f"worker {why}; killing it", worker=index, worker_pid=proc.pid,
                              health_seconds=bound, start_limit_seconds=START_LIMIT)
                    proc.kill()
                    status = proc.wait()
                if status is None:
                    continue
                log.error("worker exited unexpectedly", worker=index, worker_pid=proc.pid, status=status)
                if multiproc_dir is not None:
                    metrics.mark_process_dead(proc.pid, multiproc_dir)
                now = time.monotonic()
                restarts.append(now)
                while restarts and restarts[0] < now - RESTART_WINDOW:
                    restarts.popleft()
                if len(restarts) > MAX_RESTARTS:
                    log.error("workers keep dying; stopping", restarts=len(restarts), window_seconds=RESTART_WINDOW)
                    code = 1
                    stopping.set()
                    break
                procs[index] = _spawn(worker_config, index, multiproc_dir, beats.new(index))
        log.info("stopping workers", signal=received[0] if received else None, workers=len(procs))
        code = max(code, _stop_all(procs, config))
    finally:
        for proc in procs.values():  # only after an error above: make sure none is left
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        beats.close()
        if http is not None:
            http.shutdown()
        if multiproc_dir is not None:
            shutil.rmtree(multiproc_dir, ignore_errors=True)
        reservation.close()
        if http_reservation is not None:
            http_reservation.close()
    log.info("tavla-engine stopped", exit_code=code)
    return code


def _stop_all(procs: dict[int, subprocess.Popen[bytes]], config: Config) -> int:
    """SIGTERM every worker, wait for each; 0 when all exited 0."""
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + config.drain_seconds + config.grace_seconds + _EXTRA_WAIT
    code = 0
    for index, proc in procs.items():
        try:
            status = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.error("worker did not stop in time; killing it", worker=index, worker_pid=proc.pid)
            proc.kill()
            status = proc.wait()
        # -SIGTERM: it was still starting, before its handler was installed; nothing was in flight
        if status not in (0, -signal.SIGTERM):
            log.error("worker stopped with an error", worker=index, worker_pid=proc.pid, status=status)
            code = 1
    return code


# Workers share one dice key when none is configured, so a dice commitment sealed by one
# worker opens on another (docs/dice.md); replicas still need TAVLA_DICE_KEY.
_SHARED_DICE_KEY = secrets.token_hex(32)


def _spawn(config: Config, index: int, multiproc_dir: str | None, beat_fd: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env[heartbeat.ENV_FD] = str(beat_fd)
    if not env.get(dice_commit.KEY_ENV):
        env[dice_commit.KEY_ENV] = _SHARED_DICE_KEY
    env[ENV_CONFIG] = config.to_json()
    env[ENV_INDEX] = str(index)
    env["TAVLA_WORKER_PARENT"] = str(os.getpid())
    env.setdefault(memory.ARENAS_ENV, memory.ARENAS)  # fewer glibc arenas: memory freed is reused
    if multiproc_dir is not None:
        env["PROMETHEUS_MULTIPROC_DIR"] = multiproc_dir
    else:
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    package_root = str(Path(tavla.__file__).resolve().parent.parent)  # this very tavla, installed or not
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    try:
        return subprocess.Popen([sys.executable, "-m", "tavla.server.process.worker"], env=env, pass_fds=(beat_fd,))
    finally:
        os.close(beat_fd)


def _reserve(host: str, port: int) -> tuple[socket.socket, int]:
    """A bound (not listening) SO_REUSEPORT socket on the address, and its port."""
    family, kind, proto, sockaddr = process.resolve(host, port)
    if port:
        _probe(family, kind, proto, sockaddr, host, port)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(sockaddr)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {process.address(host, port)}: {exc.strerror or exc}") from None
    return sock, sock.getsockname()[1]




def _probe(family: int, kind: int, proto: int, sockaddr: tuple[Any, ...], host: str, port: int) -> None:
    """Fail when anything already holds the port: a bind *without* SO_REUSEPORT conflicts with
    every socket bound there, another tavla-engine's SO_REUSEPORT ones included, which would
    otherwise silently share the port with this one."""
    probe = socket.socket(family, kind, proto)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT leftovers are fine
        probe.bind(sockaddr)
    except OSError as exc:
        raise OSError(f"cannot listen on {process.address(host, port)}: {exc.strerror or exc} "
                      "(another server is using the port)") from None
    finally:
        probe.close()


def serve(config: Config) -> int:
    """``tavla-engine serve``: configure logging, then run one server in this process
    (:func:`tavla.server.process.app.run`), or ``--workers`` of them (:func:`supervise`); returns
    the exit code once stopped by a signal.

    :raises OSError: the address cannot be bound.
    """
    memory.limit_arenas()  # before the log writer's and gRPC's threads; workers inherit it
    logs.configure(config.log_level, config.log_format)
    if config.cache_dir:
        os.environ["TAVLA_CACHE_DIR"] = config.cache_dir  # read by the bear-off database
    count = config.workers or cpus.available()
    if count > 1:
        return supervise(config, count)
    app.run(config, serve_metrics=True)
    return 0


def main(heart: heartbeat.Heart | None = None) -> int:
    """A worker: the configuration comes from the parent in :data:`ENV_CONFIG`.

    :param heart: its heartbeat, already beating "starting" (:mod:`~tavla.server.process.worker`);
        default: one started here.
    """
    config = Config.from_json(os.environ[ENV_CONFIG])
    index = int(os.environ.get(ENV_INDEX, "1"))
    logs.configure(config.log_level, config.log_format)
    parent = os.environ.get("TAVLA_WORKER_PARENT")
    if parent:
        process.die_with_parent(int(parent))
    heart = heart or heartbeat.Heart.from_env()
    if heart is not None:  # "starting" until the server answers its own health
        heart.start()
    try:
        app.run(config, reuse_port=True, worker=index, heart=heart)
    except OSError as exc:
        log.error("worker cannot start", worker=index, error=str(exc))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
