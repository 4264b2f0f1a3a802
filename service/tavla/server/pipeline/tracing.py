"""Optional OpenTelemetry tracing: one server span per unary call, exported over OTLP/gRPC.

Off unless an endpoint is configured (``--otlp-endpoint``, ``TAVLA_OTLP_ENDPOINT`` or the standard
``OTEL_EXPORTER_OTLP_ENDPOINT``). The OpenTelemetry packages are the ``otel`` extra
(``pip install 'tavla-engine[otel]'``) and are imported only when tracing is on. The caller's
W3C ``traceparent`` metadata makes the span a child of the caller's; the span is named
``tavla.v1.RulesService/ListLegalMoves`` and carries the ``rpc.*`` semantic attributes and the
status code. The other OpenTelemetry variables (``OTEL_SERVICE_NAME``,
``OTEL_RESOURCE_ATTRIBUTES``, ``OTEL_EXPORTER_OTLP_HEADERS``, ...) apply as usual; the service
name defaults to ``tavla-engine``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import grpc

from tavla.server.admission.calls import Behaviour, UnaryInterceptor, observed, split_method

INSTALL_HINT = "pip install 'tavla-engine[otel]'"
_MODULES = ("opentelemetry.sdk.trace", "opentelemetry.exporter.otlp.proto.grpc.trace_exporter")


class TracingUnavailable(RuntimeError):
    """Tracing was asked for but the OpenTelemetry packages are not installed."""


def check_installed() -> None:
    """:raises TracingUnavailable: a package of the ``otel`` extra is missing."""
    import importlib

    for name in _MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise TracingUnavailable(
                f"tracing is configured (an OTLP endpoint is set) but OpenTelemetry is not installed "
                f"({exc.name or name} is missing): {INSTALL_HINT}, or unset the endpoint"
            ) from None


def current_trace_id() -> str | None:
    """The hex trace id of the current span, when tracing is on (for log lines)."""
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:
        return None
    context = trace.get_current_span().get_span_context()
    return format(context.trace_id, "032x") if context.is_valid else None


class Tracing:
    """A tracer provider exporting to an OTLP endpoint, and the interceptor that uses it."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider
        self.interceptor = TracingInterceptor(provider.get_tracer("tavla.server"))

    @classmethod
    def to_endpoint(cls, endpoint: str) -> Tracing:
        """Export spans in batches to ``endpoint`` (``http://collector:4317``; http = plaintext).

        :raises TracingUnavailable: the ``otel`` extra is not installed.
        """
        check_installed()
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        provider = cls.new_provider()
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
        return cls(provider)

    @staticmethod
    def new_provider() -> Any:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider

        attributes = {} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": "tavla-engine"}
        return TracerProvider(resource=Resource.create(attributes))

    def shutdown(self) -> None:
        """Flush and stop the exporter."""
        self.provider.shutdown()


# Server errors per the OpenTelemetry RPC conventions (the span's status is ERROR); client errors
# such as INVALID_ARGUMENT are not.
SERVER_ERRORS = frozenset((grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL, grpc.StatusCode.DATA_LOSS,
                           grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.DEADLINE_EXCEEDED,
                           grpc.StatusCode.UNAVAILABLE))


class TracingInterceptor(UnaryInterceptor):
    """Runs each unary call in a SERVER span, a child of the caller's ``traceparent`` if any."""

    def __init__(self, tracer: Any) -> None:
        from opentelemetry import propagate, trace
        from opentelemetry.trace import SpanKind, Status, StatusCode

        self._tracer = tracer
        self._extract = propagate.extract
        self._use_span = trace.use_span
        self._current_span = trace.get_current_span
        self._kind = SpanKind.SERVER
        self._status, self._error = Status, StatusCode.ERROR

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        service, method = split_method(full_method)
        name = f"{service}/{method}"

        def record(request: Any, context: grpc.ServicerContext, code: grpc.StatusCode, seconds: float) -> None:
            span = self._current_span()  # traced's span: record runs inside it
            span.set_attribute("rpc.grpc.status_code", code.value[0])
            if code in SERVER_ERRORS:
                span.set_status(self._status(self._error, code.name))

        timed = observed(behaviour, record)  # the access log's and the metrics' timing wrapper

        def traced(request: Any, context: grpc.ServicerContext) -> Any:
            carrier = {k: v for k, v in context.invocation_metadata() or () if isinstance(v, str)}
            span = self._tracer.start_span(
                name, context=self._extract(carrier), kind=self._kind,
                attributes={"rpc.system": "grpc", "rpc.service": service, "rpc.method": method},
            )
            with self._use_span(span, end_on_exit=True, record_exception=False, set_status_on_exception=False):
                return timed(request, context)

        return traced
