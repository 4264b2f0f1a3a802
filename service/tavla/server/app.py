"""The server process: build the gRPC server, run it, stop it gracefully.

One server carries three services: ``tavla.v1.EngineService``, gRPC health
(``grpc.health.v1.Health``, SERVING for ``""`` and ``tavla.v1.EngineService`` once started) and
server reflection. Shutdown (SIGTERM or SIGINT) follows podinfo's order: health goes
NOT_SERVING, an optional drain delay lets readiness probes notice, then ``server.stop(grace)``
lets in-flight calls finish.

Interceptors passed to :func:`build` run outside :class:`~tavla.server.errors.ErrorInterceptor`,
so a logging or metrics interceptor added later sees the final status of every call.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from tavla.server.errors import ErrorInterceptor
from tavla.server.servicer import EngineServiceServicer
from tavla.v1 import engine_service_pb2, engine_service_pb2_grpc

log = logging.getLogger(__name__)

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 50051
DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024
# Handlers are CPU-bound Python, so more threads do not add throughput; a few spare threads keep
# health checks answered while long move generations run.
DEFAULT_MAX_WORKERS = 10
DEFAULT_GRACE_SECONDS = 10.0

ENGINE_SERVICE = engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"].full_name
HEALTH_NAMES = ("", ENGINE_SERVICE)  # "" is the whole server, as probes ask by default
_WAKE_SECONDS = 0.5  # see serve()


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """How to run the server.

    :ivar host: address to listen on; ``"0.0.0.0"`` for all IPv4, ``"::"`` for all IPv6.
    :ivar port: TCP port; 0 lets the OS pick a free one (the bound port is reported).
    :ivar max_workers: handler threads.
    :ivar max_message_bytes: largest request or response accepted (larger: RESOURCE_EXHAUSTED).
    :ivar grace: seconds in-flight calls get to finish on shutdown.
    :ivar drain_delay: seconds between NOT_SERVING and stopping, for readiness probes to see it.
    """

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    max_workers: int = DEFAULT_MAX_WORKERS
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    grace: float = DEFAULT_GRACE_SECONDS
    drain_delay: float = 0.0


@dataclass(frozen=True, slots=True)
class Engine:
    """A built server: the gRPC server, the port it is bound to, and its health servicer."""

    server: grpc.Server
    port: int
    health: health.HealthServicer


def build(
    options: ServerOptions,
    *,
    servicer: engine_service_pb2_grpc.EngineServiceServicer | None = None,
    interceptors: Sequence[grpc.ServerInterceptor] = (),
) -> Engine:
    """Create and bind the server without starting it; health starts as NOT_SERVING.

    :param servicer: the EngineService implementation (tests pass a failing one).
    :param interceptors: outer interceptors, run before the error mapping.
    :raises OSError: the address cannot be bound.
    """
    server = grpc.server(
        ThreadPoolExecutor(max_workers=options.max_workers, thread_name_prefix="tavla-rpc"),
        interceptors=[*interceptors, ErrorInterceptor()],
        options=[
            ("grpc.max_receive_message_length", options.max_message_bytes),
            ("grpc.max_send_message_length", options.max_message_bytes),
            # a second server on a taken port must fail, not silently share it
            ("grpc.so_reuseport", 0),
        ],
    )
    engine_service_pb2_grpc.add_EngineServiceServicer_to_server(servicer or EngineServiceServicer(), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in HEALTH_NAMES:
        health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    reflection.enable_server_reflection((ENGINE_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    address = _address(options.host, options.port)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:  # recent grpcio raises; older versions returned 0
        raise OSError(f"cannot listen on {address}: {exc}") from None
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    return Engine(server, port, health_servicer)


def start(engine: Engine) -> None:
    """Start serving and mark health SERVING (only now, so probes never see a dead port ready)."""
    engine.server.start()
    for name in HEALTH_NAMES:
        engine.health.set(name, health_pb2.HealthCheckResponse.SERVING)


def stop(engine: Engine, grace: float, drain_delay: float = 0.0) -> None:
    """Graceful stop: NOT_SERVING, wait ``drain_delay``, then ``server.stop(grace)`` and wait."""
    engine.health.enter_graceful_shutdown()
    if drain_delay > 0:
        time.sleep(drain_delay)
    engine.server.stop(grace).wait()


def start_in_process(
    options: ServerOptions | None = None,
    *,
    servicer: engine_service_pb2_grpc.EngineServiceServicer | None = None,
    interceptors: Sequence[grpc.ServerInterceptor] = (),
) -> tuple[grpc.Server, int]:
    """Build and start a server in this process (default: localhost, a free port), for tests.

    :returns: (server, bound port). Stop it with ``server.stop(grace)``.
    """
    engine = build(options or ServerOptions(host="127.0.0.1", port=0), servicer=servicer,
                   interceptors=interceptors)
    start(engine)
    return engine.server, engine.port


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    max_workers: int = DEFAULT_MAX_WORKERS,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    grace: float = DEFAULT_GRACE_SECONDS,
    drain_delay: float = 0.0,
    interceptors: Sequence[grpc.ServerInterceptor] = (),
) -> None:
    """Run the server until SIGTERM or SIGINT, then stop gracefully and return.

    Signal handlers are installed only when called from the main thread.

    :raises OSError: the address cannot be bound.
    """
    options = ServerOptions(host, port, max_workers, max_message_bytes, grace, drain_delay)
    engine = build(options, interceptors=interceptors)
    stopping = threading.Event()
    received: list[str] = []
    _on_signals(stopping, received)
    start(engine)
    log.info("tavla-engine listening on %s (workers %d, max message %d bytes)",
             _address(host, engine.port), max_workers, max_message_bytes)
    # Python runs signal handlers in the main thread, and a blocked lock wait there is only
    # interrupted when the kernel delivers the signal to the main thread rather than to one of
    # gRPC's threads; waking now and then lets a handler that is pending either way run.
    while not stopping.wait(timeout=_WAKE_SECONDS):
        pass
    log.info("tavla-engine stopping on %s (grace %.1f s)", received[0] if received else "signal", grace)
    stop(engine, grace, drain_delay)
    log.info("tavla-engine stopped")


def _on_signals(stopping: threading.Event, received: list[str]) -> None:
    # The handler only records and wakes the main thread; logging from a handler can deadlock.
    def handle(signum: int, _frame: object) -> None:
        received.append(signal.Signals(signum).name)
        stopping.set()

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, handle)


def _address(host: str, port: int) -> str:
    # an IPv6 literal needs brackets before the port
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"
