"""Prometheus metrics: the standard gRPC server series, the engine's own, and the HTTP endpoint.

The gRPC series use the names and labels of go-grpc-prometheus / py-grpc-prometheus, so existing
dashboards and alerts work unchanged: ``grpc_server_started_total``, ``grpc_server_handled_total``
(with ``grpc_code`` spelt as Go spells codes: ``OK``, ``InvalidArgument``, ...),
``grpc_server_msg_received_total``, ``grpc_server_msg_sent_total`` and the histogram
``grpc_server_handling_seconds`` (default Prometheus buckets), all labelled ``grpc_type``,
``grpc_service``, ``grpc_method``; the histogram also carries ``grpc_code``. Unary calls and
StreamAnalyzeMatch (``grpc_type="server_stream"``, timed as a whole, each message sent counted)
are counted; health ``Watch`` and reflection are not.

With several workers each process writes its values to files in ``PROMETHEUS_MULTIPROC_DIR``
(prometheus_client's multiprocess mode, chosen when the variable is set at import) and the
parent process serves their sum; see :mod:`tavla.server.process.workers`.
"""

from __future__ import annotations

import glob
import os
import threading
import weakref
from collections.abc import Callable
from typing import Any

import grpc
import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess

from tavla import __version__
from tavla.server.process.plumbing import address
from tavla.server.admission.calls import Behaviour, UnaryInterceptor, observed, observed_stream, protocol_of, split_method

# no *_created series: dashboards never use them (prometheus_client leaves these helpers unannotated)
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]

_LABELS = ("grpc_type", "grpc_service", "grpc_method")

STARTED = Counter("grpc_server_started_total", "RPCs started on the server.", _LABELS)
HANDLED = Counter("grpc_server_handled_total", "RPCs completed on the server, regardless of success or failure.",
                  (*_LABELS, "grpc_code"))
HANDLING_SECONDS = Histogram(
    "grpc_server_handling_seconds",
    "Response latency (seconds) of gRPC that had been application-level handled by the server.",
    (*_LABELS, "grpc_code"),
)
MSG_RECEIVED = Counter("grpc_server_msg_received_total", "RPC stream messages received on the server.", _LABELS)
MSG_SENT = Counter("grpc_server_msg_sent_total", "gRPC stream messages sent on the server.", _LABELS)

# Calls on the HTTP port (Connect, gRPC-Web): their own series, labelled by protocol, so the
# grpc_server_* series stay exactly those of the gRPC port.
_HTTP_LABELS = ("protocol", "grpc_service", "grpc_method", "grpc_code")
HTTP_HANDLED = Counter("tavla_http_rpcs_handled_total",
                       "RPCs completed on the HTTP port (Connect, gRPC-Web), by protocol and final code.",
                       _HTTP_LABELS)
HTTP_HANDLING_SECONDS = Histogram("tavla_http_rpc_handling_seconds",
                                  "Latency (seconds) of RPCs on the HTTP port, by protocol and final code.",
                                  _HTTP_LABELS)

LEGAL_MOVES = Histogram("tavla_legal_moves", "Legal moves returned by one ListLegalMoves call.",
                        buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000))
MOVE_GENERATION_SECONDS = Histogram(
    "tavla_move_generation_seconds",
    "Time to generate and encode the legal moves of one call (ListLegalMoves) or to find the move "
    "played among them (ApplyMove).",
    ("grpc_method",),
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
IN_FLIGHT = Gauge("tavla_rpcs_in_flight", "Engine calls being handled now.", multiprocess_mode="livesum")
# One worker: its own registry is scraped, so the gauge is the limits' admission counts, read at
# each scrape (counts_in_flight), and an engine call writes nothing (inc and dec cost it 1 us).
# Several workers (multiprocess mode): each call writes the gauge to its worker's file.
SHARED_FILES = "PROMETHEUS_MULTIPROC_DIR" in os.environ or "prometheus_multiproc_dir" in os.environ
_IN_FLIGHT_SOURCES: weakref.WeakSet[Any] = weakref.WeakSet()


def _in_flight_now() -> float:
    return float(sum(source.in_flight() for source in list(_IN_FLIGHT_SOURCES)))


if not SHARED_FILES:
    IN_FLIGHT.set_function(_in_flight_now)


def counts_in_flight(source: Any) -> bool:
    """Have ``tavla_rpcs_in_flight`` include ``source.in_flight()`` (calls admitted now) at each
    scrape, while ``source`` lives; whether it does. ``False`` with several workers: the caller
    then incs and decs :data:`IN_FLIGHT` around each call."""
    if SHARED_FILES:
        return False
    _IN_FLIGHT_SOURCES.add(source)
    return True


WORKER_INFO = Gauge("tavla_worker_info", "1 per running server process (with workers: labelled by pid).",
                    ("version",), multiprocess_mode="liveall")
ACCELERATOR = Gauge("tavla_accelerator_active",
                    "1 when ListLegalMoves runs on the compiled accelerator (tavla_accel) in this process, else 0.",
                    multiprocess_mode="livemin")
MEMORY_TRIMS = Counter("tavla_memory_trims_total",
                       "Heaps given back to the system (malloc_trim) after a burst of calls.")
BEAROFF_READY = Gauge("tavla_bearoff_database_ready", "1 once the bear-off database is loaded in this process.",
                      multiprocess_mode="livemin")

# grpc.StatusCode names as Go's codes.Code.String() spells them (and so the dashboards).
GO_CODE_NAMES = {code: "".join(part.capitalize() for part in code.name.split("_")) for code in grpc.StatusCode}
GO_CODE_NAMES[grpc.StatusCode.OK] = "OK"
GO_CODE_NAMES[grpc.StatusCode.CANCELLED] = "Canceled"


class MetricsInterceptor(UnaryInterceptor):
    """Counts and times every unary call, by its final code (:func:`~tavla.server.admission.calls.final_code`)."""

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        return self._counted(behaviour, full_method, "unary")

    def wrap_stream(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        """An analysis stream (grpc_type ``server_stream``): timed as a whole, each message it
        sends counted in ``grpc_server_msg_sent_total``."""
        return self._counted(behaviour, full_method, "server_stream")

    def _counted(self, behaviour: Behaviour, full_method: str, kind: str) -> Behaviour:
        service, method = split_method(full_method)
        labels = (kind, service, method)
        streams = kind != "unary"
        started, received, sent = STARTED.labels(*labels), MSG_RECEIVED.labels(*labels), MSG_SENT.labels(*labels)
        by_code: dict[grpc.StatusCode, tuple[Any, Any]] = {}  # the labelled children, looked up once

        def record(_request: Any, context: grpc.ServicerContext, status: grpc.StatusCode, seconds: float) -> None:
            children = by_code.get(status)
            if children is None:
                code = GO_CODE_NAMES[status]
                children = by_code[status] = (HANDLED.labels(*labels, code), HANDLING_SECONDS.labels(*labels, code))
            children[0].inc()
            children[1].observe(seconds)
            if status is grpc.StatusCode.OK and not streams:
                sent.inc()

        if streams:
            def sending(request: Any, context: grpc.ServicerContext) -> Any:
                stream = behaviour(request, context)
                try:
                    for message in stream:
                        sent.inc()  # each message, as go-grpc-prometheus counts a stream's
                        yield message
                finally:
                    stream.close()  # closed early: the client went away

            timed = observed_stream(sending, record)
        else:
            timed = observed(behaviour, record)

        def counted(request: Any, context: grpc.ServicerContext) -> Any:
            started.inc()
            received.inc()
            return timed(request, context)

        return counted


class HttpMetricsInterceptor(UnaryInterceptor):
    """Counts and times every call on the HTTP port by its ``protocol`` (``connect``,
    ``grpc-web``: :func:`~tavla.server.admission.calls.protocol_of`) and final code."""

    def _recorder(self, full_method: str) -> Callable[[Any, grpc.ServicerContext, grpc.StatusCode, float], None]:
        service, method = split_method(full_method)
        children: dict[tuple[str, grpc.StatusCode], tuple[Any, Any]] = {}  # looked up once per label set

        def record(_request: Any, context: grpc.ServicerContext, status: grpc.StatusCode, seconds: float) -> None:
            protocol = protocol_of(context)
            pair = children.get((protocol, status))
            if pair is None:
                labels = (protocol, service, method, GO_CODE_NAMES[status])
                pair = children[(protocol, status)] = (HTTP_HANDLED.labels(*labels),
                                                       HTTP_HANDLING_SECONDS.labels(*labels))
            pair[0].inc()
            pair[1].observe(seconds)

        return record

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        return observed(behaviour, self._recorder(full_method))

    def wrap_stream(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        return observed_stream(behaviour, self._recorder(full_method))


# --- the engine's own figures (tavla.server.api.observer) -------------------------------------


class EngineMetrics:
    """The :class:`~tavla.server.api.observer.EngineObserver` of this process's metrics:
    ``tavla_move_generation_seconds`` and ``tavla_legal_moves``."""

    def __init__(self) -> None:
        self._by_method: dict[str, Any] = {}  # the labelled children, looked up once per method

    def move_generation_seconds(self, method: str, seconds: float) -> None:
        """Record one ``tavla_move_generation_seconds{grpc_method=method}`` observation."""
        child = self._by_method.get(method)
        if child is None:
            child = self._by_method[method] = MOVE_GENERATION_SECONDS.labels(method)
        child.observe(seconds)

    def legal_moves_returned(self, count: int) -> None:
        LEGAL_MOVES.observe(count)


#: What the server hands its engine.
ENGINE = EngineMetrics()


def worker_started(accelerator_active: bool) -> None:
    """Mark this process as a running server (``tavla_worker_info``), its engine's move generator
    compiled or not (``tavla_accelerator_active``)."""
    WORKER_INFO.labels(__version__).set(1)
    ACCELERATOR.set(1 if accelerator_active else 0)


def bearoff_ready() -> None:
    BEAROFF_READY.set(1)


def memory_trimmed() -> None:
    MEMORY_TRIMS.inc()


# --- the HTTP endpoint ------------------------------------------------------------------------


def serve(host: str, port: int, *, aggregate_dir: str | None = None) -> tuple[Any, threading.Thread]:
    """Serve ``/metrics`` on ``host:port`` in a daemon thread.

    :param aggregate_dir: serve the sum of the workers' values in this multiprocess directory
        instead of this process's own registry.
    :returns: the HTTP server (``shutdown()`` it) and its thread.
    :raises OSError: the port cannot be bound: "cannot listen on HOST:PORT (metrics): Address
        already in use", as the gRPC and HTTP ports say it; start-up stops.
    """
    registry = prometheus_client.REGISTRY
    if aggregate_dir is not None:
        registry = CollectorRegistry()
        WorkerFiles(registry, path=aggregate_dir)  # type: ignore[no-untyped-call]
    try:
        server, thread = prometheus_client.start_http_server(port, addr=host, registry=registry)
    except OSError as exc:
        raise OSError(f"cannot listen on {address(host, port)} (metrics): {exc.strerror or exc}") from None
    return server, thread


class WorkerFiles(multiprocess.MultiProcessCollector):
    """The sum of the workers' files, leaving out a file a worker is still creating.

    prometheus_client creates a worker's file empty and sizes it afterwards; a scrape in between
    fails whole on the empty file (prometheus/client_python#1199), so a worker starting or being
    replaced would make ``/metrics`` answer 500. The file's values appear on the next scrape.
    """

    def collect(self) -> Any:
        files = [f for f in glob.glob(os.path.join(self._path, "*.db")) if _sized(f)]
        return self.merge(files, accumulate=True)  # type: ignore[no-untyped-call]


def _sized(path: str) -> bool:
    try:
        return os.path.getsize(path) >= 8  # the header: used bytes and padding
    except FileNotFoundError:  # a dead worker's live gauges, removed after the listing
        return False


def mark_process_dead(pid: int, directory: str) -> None:
    """Drop a dead worker's live gauges from the multiprocess directory."""
    multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
