"""Start a live tavla-engine server for client tests, wait until it is healthy, stop it with SIGTERM.

Every client's conformance test starts the server through this script, so the start-up, the
health wait and the shutdown are the same for Go, TypeScript, Java and Python. Run it with an
interpreter that has the service installed: the Makefile's ``.venv-test/bin/python``, or another one
named by ``TAVLA_SERVER_PYTHON`` (the client tests read it), which also runs the server:

``live_server.py``
    picks a free port on 127.0.0.1, runs ``python -m tavla serve`` there, waits until
    ``grpc.health.v1.Health/Check`` answers SERVING for ``tavla.v1.RefereeService`` (every
    tavla.v1 service turns SERVING at once), prints
    ``READY 127.0.0.1:<port>`` on stdout, then waits until its standard input closes (the test
    finished or died) or it gets SIGTERM/SIGINT, and stops the server with SIGTERM.

``live_server.py -- COMMAND [ARG...]``
    the same, but runs COMMAND with ``TAVLA_TARGET=127.0.0.1:<port>`` in its environment instead
    of printing READY, stops the server when it ends, and exits with its exit code (the README
    examples are run this way).

``TAVLA_TEST_WITHOUT_BGSAGE=1`` in the environment starts the server as on a machine without
bgsage (no Linux aarch64 wheel, docs/analysis.md): ``import bgsage`` fails in it, so its analysis
is the search player's (``EVALUATOR_SEARCH``) for every variant, and the client tests skip what only
the net judges.

Python tests import :func:`start` and :func:`stop` directly.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

SERVICE_NAME = "tavla.v1.RefereeService"  # the services turn SERVING together
READY_TIMEOUT = 60.0  # seconds; a readiness wait on a loaded 2-core CI machine, not a speed test
STOP_TIMEOUT = 20.0  # the server's own grace is 10 s
START_TRIES = 3  # a free port can be taken between choosing it and binding it
WITHOUT_BGSAGE = "TAVLA_TEST_WITHOUT_BGSAGE"
# Its sitecustomize.py makes bgsage unimportable in the server and the workers it spawns.
_HIDE_BGSAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "without_bgsage")


def _server_env() -> dict[str, str]:
    """The server's environment: ours, with :data:`_HIDE_BGSAGE` first on PYTHONPATH when
    ``TAVLA_TEST_WITHOUT_BGSAGE`` is 1."""
    env = dict(os.environ)
    if env.get(WITHOUT_BGSAGE) == "1":
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_HIDE_BGSAGE, env.get("PYTHONPATH")) if p)
    return env


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _healthy(target: str) -> bool:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(target) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=1.0)
        except grpc.RpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


def start(python: str = sys.executable) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``python -m tavla serve`` on a free port, a test server (``--test-inputs``: the referee
    tests give dice by request metadata), and wait for health SERVING; bgsage hidden from it when
    ``TAVLA_TEST_WITHOUT_BGSAGE`` is 1.

    :returns: the server process and its ``127.0.0.1:<port>`` target.
    :raises RuntimeError: the server exited or did not become healthy in time.
    """
    last = "no attempt"
    for _ in range(START_TRIES):
        port = free_port()
        target = f"127.0.0.1:{port}"
        # stdout would mix with READY; the server logs to stderr, which is passed through.
        # The asyncio runner sends every scenario at once, more than the default admission limits
        # (engine and analysis calls; queued calls count; docs/configuration.md, Limits) let one
        # connection have. A test server: the referee tests give dice by the x-tavla-test-dice
        # metadata (state mode off).
        proc = subprocess.Popen([python, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
                                 "--max-concurrent-rpcs", "1024", "--max-analysis-rpcs", "64", "--test-inputs", "true",
                                 "--metrics-port", "0"],
                                stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(), env=_server_env())
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                last = f"server exited with {proc.returncode} on port {port}"
                break
            if _healthy(target):
                return proc, target
            time.sleep(0.1)
        else:
            stop(proc)
            raise RuntimeError(f"server on {target} not SERVING after {READY_TIMEOUT:.0f} s")
    raise RuntimeError(f"could not start the server: {last}")


def stop(proc: subprocess.Popen[bytes]) -> int:
    """SIGTERM the server, wait for its graceful stop (SIGKILL after :data:`STOP_TIMEOUT`)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def main(argv: list[str]) -> int:
    proc, target = start()
    try:
        if argv and argv[0] == "--":
            return subprocess.call(argv[1:], env={**os.environ, "TAVLA_TARGET": target})
        done = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: done.set())
        print(f"READY {target}", flush=True)
        # stdin closes when the test that started us ends, however it ends
        threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
        while not done.wait(0.5):
            if proc.poll() is not None:
                print(f"live_server: server exited with {proc.returncode}", file=sys.stderr)
                return 1
        return 0
    finally:
        stop(proc)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
