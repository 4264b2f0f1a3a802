"""The server process: build the gRPC server, run it, stop it gracefully.

One server carries the tavla.v1 services (:mod:`~tavla.server.api.services`: RulesService,
MatchService, RefereeService, RecordsService, AnalysisService), each answered by its servicer over
the one :class:`~tavla.server.api.engine.Engine` built here (:mod:`~tavla.server.api.servicers`), gRPC health
(``grpc.health.v1.Health``, SERVING for ``""`` and each tavla.v1 service name once started and
the engine has answered a self-check) and, unless turned off, server reflection. With
``http_port`` set, the same servicers, health and concurrency limit also answer Connect and gRPC-Web
on that port (:mod:`~tavla.server.http.app`), and it drains and stops with the gRPC port.

Calls pass through these interceptors, outermost first: tracing (when configured), the access log
(:mod:`~tavla.server.pipeline.access_log`), metrics (:mod:`~tavla.server.pipeline.metrics`), any passed to
:func:`build`, the limits (:mod:`~tavla.server.admission.limits`) and the error mapping
(:class:`~tavla.server.pipeline.errors.ErrorInterceptor`), so the outer ones see every call's final status,
including calls turned away by the limits.

Shutdown (SIGTERM or SIGINT) follows podinfo's order: health goes NOT_SERVING, the server keeps
serving for the drain period so load balancers and readiness probes move traffic away, then
``server.stop(grace)`` refuses new calls and lets in-flight ones finish; the process exits 0.
With several workers (:mod:`~tavla.server.process.workers`, which also holds ``serve``: one
process or several) each worker does this on its own.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from tavla import core
from tavla.server.process import config as config_module
from tavla.server.process import grpc_calls, heartbeat, warmup
from tavla.server.admission import policy as admission
from tavla.server.pipeline import logs
from tavla.server.process import memory
from tavla.server.pipeline import metrics
from tavla.server.process import plumbing as process
from tavla.server.api import services
from tavla.server.pipeline.access_log import AccessLogInterceptor
from tavla.server.admission.calls import CachedChain
from tavla.server.pipeline.errors import ErrorInterceptor
from tavla.server.admission.limits import MAX_STREAMS, ArrivalInterceptor, LimitsInterceptor, StreamLimitInterceptor
from tavla.server.pipeline.metrics import MetricsInterceptor
from tavla.server.api import engine as engines
from tavla.server.api.generator import MoveGenerator
from tavla.server.api import servicers
from tavla.server.api.engine import EngineServicer
from tavla.server.process.tls import CertificateFiles, ClientNameInterceptor, parse_names, server_credentials
from tavla.server.pipeline.tracing import Tracing

log = structlog.get_logger("tavla.server")

Config = config_module.Config
#: The options of one server; the earlier name of :class:`~tavla.server.process.config.Config`.
ServerOptions = Config

DEFAULT_HOST = config_module.DEFAULTS.host
DEFAULT_PORT = config_module.DEFAULTS.port
DEFAULT_MAX_MESSAGE_BYTES = config_module.DEFAULTS.max_message_bytes
DEFAULT_GRACE_SECONDS = config_module.DEFAULTS.grace_seconds
# gRPC's own cap on calls accepted at once (any service, shed ones included); past it gRPC answers
# RESOURCE_EXHAUSTED itself, health checks too. A backstop against floods far beyond the limit:
# the admission executor (tavla.server.admission.policy) sheds engine calls long before. Shed calls
# still count until answered, so a small limit gets a floor: with --max-concurrent-rpcs 4 the
# backstop was 32 and a flood of 384 made gRPC refuse a health check.
BACKSTOP_FACTOR = 4
BACKSTOP_FLOOR = 1024
# stop(grace) waits this much longer than the grace for gRPC to finish, then gives up waiting.
STOP_MARGIN = 2.0

# Slow and silent clients on the gRPC port are bounded as on the HTTP port (Hypercorn: 5 s keep-
# alive, 5 s TLS handshake) and as Envoy's edge guidance does (a per-connection stream limit):
#: seconds to complete the TCP/TLS handshake and send the HTTP/2 preface and SETTINGS.
HANDSHAKE_SECONDS = 5.0
#: seconds a connection with no call open is kept (then a GOAWAY; clients reconnect on the next call).
IDLE_CONNECTION_SECONDS = 5.0
#: calls one connection may have open at once: half of gRPC's own cap (the backstop floor), so
#: one connection never takes all of it and health checks on another still get in. Past it a
#: client waits, or its stream is refused (REFUSED_STREAM) if it ignores the SETTINGS. Not tied
#: to the admission limit (Envoy's edge guidance is 100): grpc clients share one connection per
#: target and send a burst before they have the SETTINGS, which would then be refused rather
#: than shed; header-only calls are bounded by the admission's eviction and body timeout instead.
MAX_STREAMS_PER_CONNECTION = BACKSTOP_FLOOR // 2

#: calls gRPC's core queues while its one Python thread is behind handing calls over (its default
#: hard limit is 3,000, past which it cancels newcomers: a flood of header-only streams then
#: cancelled real calls before the server saw them); a queued call is a few KiB of core memory.
PENDING_CALLS = 64 * MAX_STREAMS_PER_CONNECTION


def backstop(max_concurrent_rpcs: int) -> int:
    """gRPC's own cap on calls accepted at once for an admission limit of ``max_concurrent_rpcs``."""
    return max(BACKSTOP_FLOOR, (max_concurrent_rpcs + MAX_STREAMS) * BACKSTOP_FACTOR)


#: The health service names set SERVING together: "" is the whole server, as probes ask by
#: default, then each tavla.v1 service.
HEALTH_NAMES = ("", *services.NAMES)
_WAKE_SECONDS = 0.5  # see run()


@dataclass(frozen=True, slots=True)
class Engine:
    """A built server: the gRPC server, the port it is bound to, and its health servicer (the
    servicers' own engine is :class:`tavla.server.api.engine.Engine`)."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    executor: admission.AdmissionExecutor | None = None
    #: The HTTP port (Connect, gRPC-Web) when ``http_port`` is set.
    http: Any = None
    #: The stream slots and idle limits of the gRPC port.
    streams: StreamLimitInterceptor | None = None
    #: The analysis processes (:class:`~tavla.analysis.isolation.EnginePool`), killed at stop.
    analysis: Any = None
    #: The servicer's move generator (the start-up log, ``tavla_accelerator_active``).
    generator: MoveGenerator | None = None

    @property
    def http_port(self) -> int | None:
        return None if self.http is None else self.http.port


def build(
    options: Config,
    *,
    by_service: Mapping[str, EngineServicer] | None = None,
    interceptors: Sequence[grpc.ServerInterceptor] = (),
    tracing: Tracing | None = None,
    reuse_port: bool = False,
) -> Engine:
    """Create and bind the server without starting it; health starts as NOT_SERVING.

    :param options: host, port, TLS files, limits and reflection are used; the process-level
        settings (workers, logs, metrics port, drain) are :func:`run`'s.
    :param by_service: the servicer of every tavla.v1 service, by the service's full name, all
        over one engine (:func:`tavla.server.api.servicers.for_engine`; tests replace one with a
        failing subclass); default: the engine built from ``options`` and one servicer per service.
    :param interceptors: more interceptors, run inside the access log and metrics.
    :param tracing: trace every call with this provider.
    :param reuse_port: share the port with other processes (SO_REUSEPORT), for workers.
    :raises OSError: the address cannot be bound.
    :raises tavla.server.process.tls.TlsError: the TLS files cannot be used.
    """
    logs.ensure_configured()
    executor = admission.AdmissionExecutor(options.max_concurrent_rpcs, MAX_STREAMS,
                                           max_analysis=options.max_analysis_rpcs,
                                           analysis_threads=options.analysis_processes)
    grpc_options: list[tuple[str, int]] = [
        # requests are small (under 2 KB): a larger one is refused before it is buffered whole
        ("grpc.max_receive_message_length", options.request_limit),
        ("grpc.max_send_message_length", options.max_message_bytes),
        # alone, a second server on a taken port must fail rather than silently share it
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
        ("grpc.server_handshake_timeout_ms", int(HANDSHAKE_SECONDS * 1000)),
        ("grpc.max_connection_idle_ms", int(IDLE_CONNECTION_SECONDS * 1000)),
        ("grpc.server.max_pending_requests", PENDING_CALLS),
        ("grpc.server.max_pending_requests_hard_limit", PENDING_CALLS),
    ]
    if options.max_connection_age_seconds > 0:
        grpc_options += [
            ("grpc.max_connection_age_ms", int(options.max_connection_age_seconds * 1000)),
            ("grpc.max_connection_age_grace_ms", int(options.grace_seconds * 1000)),
        ]
    limits = LimitsInterceptor(options.max_concurrent_rpcs, options.max_call_seconds,  # shared with HTTP
                               max_analysis=options.max_analysis_rpcs,
                               analysis_call_seconds=options.analysis_call_seconds)
    if by_service is not None:
        engine = servicers.engine_of(by_service)
    else:  # the engine, built once, and one servicer per service over it
        engine = engines.Engine(signer=options.state_signer(), test_inputs=options.test_inputs,
                                analysis_processes=options.analysis_processes, generator=MoveGenerator.from_env(),
                                observer=metrics.ENGINE)
        by_service = servicers.for_engine(engine)
    outer: list[grpc.ServerInterceptor] = [AccessLogInterceptor(), MetricsInterceptor()]
    if options.tls_client_allowed_names:
        outer.append(ClientNameInterceptor(parse_names(options.tls_client_allowed_names)))
    if tracing is not None:
        outer.insert(0, tracing.interceptor)
    # Ours are applied once per method (CachedChain); interceptors passed in run per call as usual.
    streams = StreamLimitInterceptor()
    inner = CachedChain([streams, limits, ErrorInterceptor()])
    chain = ([CachedChain([ArrivalInterceptor(), *outer, *interceptors, inner])] if not interceptors
             else [CachedChain([ArrivalInterceptor(), *outer]), *interceptors, inner])
    server = grpc.server(
        executor,
        interceptors=chain,
        options=grpc_options,
        maximum_concurrent_rpcs=backstop(options.max_concurrent_rpcs),
    )
    # as the generated add_<Service>Servicer_to_server, but ListLegalMoves' bytes go out as they are
    grpc_calls.add_to_server(by_service, server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in HEALTH_NAMES:
        health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    if options.reflection:
        reflection.enable_server_reflection((*services.NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME),
                                            server)
    address = process.address(options.host, options.port)
    try:
        if options.tls_cert is not None and options.tls_key is not None:
            files = CertificateFiles(options.tls_cert, options.tls_key, options.tls_client_ca)
            port = server.add_secure_port(address, server_credentials(files))
        else:
            port = server.add_insecure_port(address)
    except RuntimeError as exc:  # recent grpcio raises; older versions returned 0
        raise OSError(f"cannot listen on {address}: {_bind_error(options.host, options.port) or exc}") from None
    if port == 0:
        reason = _bind_error(options.host, options.port)
        raise OSError(f"cannot listen on {address}" + (f": {reason}" if reason else ""))
    http = _build_http(options, by_service, health_servicer, limits, reuse_port) if options.http_port is not None else None
    return Engine(server, port, health_servicer, executor=executor, http=http, streams=streams,
                  analysis=engine.analysis, generator=engine.generator)


HTTP_OPS_THREADS = 4  # HTTP health and refused calls, beside the engine calls


def _build_http(options: Config, by_service: Mapping[str, Any], health_servicer: health.HealthServicer,
                limits: LimitsInterceptor, reuse_port: bool) -> Any:
    # Imported only when the HTTP port is on: Hypercorn and the ASGI app are not needed otherwise.
    from concurrent.futures import ThreadPoolExecutor

    from tavla.server.http import app as http_app
    from tavla.server.http import server as http_server

    # one thread per call the shared limit admits, so a call waiting for a thread is already counted
    executor = ThreadPoolExecutor(max_workers=options.max_concurrent_rpcs + HTTP_OPS_THREADS,
                                  thread_name_prefix="tavla-http")
    app = http_app.build_app(by_service, health_servicer, limits, executor,
                             max_message_bytes=options.max_message_bytes,
                             max_request_bytes=options.request_limit,
                             cors_origins=options.cors_origins, web_dir=options.web_dir)
    sock = http_server.bind(options.host, options.http_port or 0, reuse_port=reuse_port)
    tls = (options.tls_cert, options.tls_key, options.tls_client_ca) if options.tls_cert and options.tls_key else None
    allowed = parse_names(options.tls_client_allowed_names) if options.tls_client_allowed_names else None
    return http_server.HttpServer(app, sock, tls=tls, grace_seconds=options.grace_seconds, allowed_names=allowed)


def start(engine: Engine) -> None:
    """Start serving, check the engine answers, and only then mark health SERVING."""
    engine.server.start()
    if engine.http is not None:
        engine.http.start()
    _self_check()
    for name in HEALTH_NAMES:
        engine.health.set(name, health_pb2.HealthCheckResponse.SERVING)


def stop(engine: Engine, grace: float, drain_delay: float = 0.0,
         drain: Callable[[float], object] = time.sleep) -> bool:
    """Graceful stop: NOT_SERVING, keep serving ``drain_delay`` seconds, then ``stop(grace)``.

    ``drain(drain_delay)`` waits out the drain period (tests pass their own to act within it).

    Always returns within ``drain_delay + grace`` and a few seconds: gRPC cancels the calls left
    after the grace, and if its shutdown still has not finished (a handler that ignores the
    cancellation), this stops waiting, logs it and abandons the handler threads.

    :returns: whether gRPC's shutdown finished in time.
    """
    engine.health.enter_graceful_shutdown()
    if engine.http is not None:
        engine.http.app.draining = True  # HTTP/1.1 clients are told to close after each answer
    if drain_delay > 0:
        drain(drain_delay)
    end = time.monotonic() + grace + STOP_MARGIN
    stopped = engine.server.stop(grace)
    if engine.http is not None:
        engine.http.stop(grace)
    finished = stopped.wait(timeout=max(0.0, end - time.monotonic()))
    if engine.analysis is not None:  # the grace is over: analysis still running is killed, not waited for
        engine.analysis.close()
    if engine.executor is not None:  # gRPC is done once calls are cancelled; handlers may not be
        finished = engine.executor.wait_idle(max(0.0, end - time.monotonic())) and finished
    if not finished:
        log.error("shutdown did not finish within the grace; abandoning the remaining calls",
                  grace_seconds=grace)
        engine.server.stop(None)
    if engine.executor is not None:
        engine.executor.shutdown(wait=False, cancel_futures=True)
    return bool(finished)


def _bind_error(host: str, port: int) -> str | None:
    """The operating system's reason a socket cannot bind ``host:port`` ("Address already in
    use"), or None: gRPC's own message ("Failed to bind to address ...") does not say why."""
    import socket

    try:
        family, kind, proto, sockaddr = process.resolve(host, port)
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC binds
            probe.bind(sockaddr)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def start_in_process(
    options: Config | None = None,
    *,
    by_service: Mapping[str, EngineServicer] | None = None,
    interceptors: Sequence[grpc.ServerInterceptor] = (),
) -> tuple[grpc.Server, int]:
    """Build and start a server in this process (default: localhost, a free port), for tests.

    :returns: (server, bound port). Stop it with ``server.stop(grace)``.
    """
    engine = build(options or Config(host="127.0.0.1", port=0), by_service=by_service,
                   interceptors=interceptors)
    start(engine)
    return engine.server, engine.port


def run(config: Config, *, serve_metrics: bool = False, reuse_port: bool = False,
        worker: int | None = None, heart: heartbeat.Heart | None = None) -> None:
    """Run one server until SIGTERM or SIGINT, then stop gracefully and return.

    Signal handlers are installed only when called from the main thread.

    :param serve_metrics: serve this process's metrics on ``config.metrics_port``.
    :param worker: this process's number among the workers, for the log.
    :param heart: the worker's heartbeat, beating "starting" already; default: one from the
        environment, when a supervisor started this process.
    :raises OSError: the address (or the metrics port) cannot be bound.
    """
    tracing = Tracing.to_endpoint(config.otlp_endpoint) if config.otlp_endpoint else None
    http = _start_metrics(config) if serve_metrics else None
    try:
        engine = build(config, tracing=tracing, reuse_port=reuse_port)
    except BaseException:
        if http is not None:
            http.shutdown()
        raise
    stopping = threading.Event()
    received: list[str] = []
    process.on_stop_signals(stopping, received)
    start(engine)
    accelerator = engine.generator.status if engine.generator is not None else "none"
    metrics.worker_started(engine.generator is not None and engine.generator.active)
    trimmer = _trimmer(engine)
    trimmer.start()
    address = process.address(config.host, engine.port)
    if worker is None:
        log.info(f"tavla-engine listening on {address}", address=address, workers=1, tls=config.tls,
                 mtls=config.tls_client_ca is not None, metrics_port=config.metrics_port if http else 0,
                 max_concurrent_rpcs=config.max_concurrent_rpcs, max_message_bytes=config.max_message_bytes,
                 http_port=engine.http_port, web=bool(config.web_dir), accelerator=accelerator)
    else:
        log.info(f"tavla-engine worker {worker} serving on {address}", address=address, worker=worker,
                 http_port=engine.http_port, accelerator=accelerator)
    warmup.warm_bearoff(metrics.bearoff_ready, command=warmup.child_command(config.log_level, config.log_format))
    heart = heart or heartbeat.Heart.from_env()
    if heart is not None and engine.executor is not None:
        probe = health_pb2.HealthCheckRequest(service="")
        heart.serving(engine.executor.health_pool.submit, lambda: engine.health.Check(probe, None))
        heart.start()
    # Python runs signal handlers in the main thread, and a blocked lock wait there is only
    # interrupted when the kernel delivers the signal to the main thread rather than to one of
    # gRPC's threads; waking now and then lets a handler that is pending either way run.
    while not stopping.wait(timeout=_WAKE_SECONDS):
        pass
    if heart is not None:
        heart.stop()
    log.info("draining: health NOT_SERVING, still serving", signal=received[0] if received else "signal",
             drain_seconds=config.drain_seconds, grace_seconds=config.grace_seconds)
    clean = stop(engine, config.grace_seconds, config.drain_seconds)
    if tracing is not None:
        tracing.shutdown()
    if http is not None:
        http.shutdown()
    log.info("tavla-engine stopped" if worker is None else f"tavla-engine worker {worker} stopped")
    if not clean and threading.current_thread() is threading.main_thread():
        _exit_now()


def _trimmer(engine: Engine) -> memory.Trimmer:
    """Gives the heap back after bursts of calls (:mod:`tavla.server.process.memory`)."""
    executor, http = engine.executor, engine.http

    def activity() -> int:
        return (sum(executor.seen.values()) if executor is not None else 0) + (http.app.calls if http else 0)

    return memory.Trimmer(activity, lambda: executor is not None and executor.running() > 0, metrics.memory_trimmed)


def _exit_now() -> None:
    # A handler thread that ignored the cancellation would keep the interpreter from exiting
    # (it joins executor threads at exit): flush the log and leave with the usual code.
    logs.flush()
    os._exit(0)


def _self_check() -> None:
    # One real move generation through the core, so SERVING means the rules answer.
    core.legal_moves(core.Position.initial(core.Side.WHITE), (3, 1))


def _start_metrics(config: Config):  # type: ignore[no-untyped-def]
    """:raises OSError: the metrics port is in use: start-up stops, as for the gRPC port."""
    if not config.metrics_port:
        return None
    server, _thread = metrics.serve(config.host, config.metrics_port)
    return server


