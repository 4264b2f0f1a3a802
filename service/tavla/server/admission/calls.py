"""What every call wrapper needs to know about a unary call: its final status code.

The interceptors that observe calls (access log, metrics, tracing) run outside the error mapping,
so when the handler raises, the code it aborted with is already on the context; when it returns
but the client has gone (deadline passed or cancelled), the client never sees the response.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from tavla.server.api.context import CallContext
from tavla.server.api import services

# Services for the platform rather than the game: not limited, and logged at debug level.
OPS_SERVICES = frozenset({"grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection",
                          "grpc.reflection.v1.ServerReflection"})


def final_code(context: grpc.ServicerContext, *, raised: bool) -> grpc.StatusCode:
    """The status the client gets (or got) for this call, once the handler is done.

    :param raised: the handler raised rather than returned.
    """
    code = context.code()  # set by abort(), abort_with_status() or set_code()
    if isinstance(code, grpc.StatusCode):
        return code
    if raised:  # an exception no interceptor mapped: gRPC answers UNKNOWN
        return grpc.StatusCode.UNKNOWN
    if not context.is_active():  # no deadline (time_remaining None): the client cancelled or went away
        left = context.time_remaining()
        return grpc.StatusCode.DEADLINE_EXCEEDED if left is not None and left <= 0 else grpc.StatusCode.CANCELLED
    return grpc.StatusCode.OK


def protocol_of(context: Any) -> str:
    """The call's protocol, as the access log and the metrics label it: its call context's
    (:meth:`~tavla.server.api.context.CallContext.protocol`: the HTTP port's ``connect`` or
    ``grpc-web``), ``grpc`` for gRPC's own context."""
    return context.protocol() if isinstance(context, CallContext) else "grpc"


def split_method(full: str) -> tuple[str, str]:
    """``"/pkg.Service/Method"`` -> ``("pkg.Service", "Method")``."""
    _, service, method = (full.split("/") + ["", ""])[:3]
    return service or "unknown", method or "unknown"


Behaviour = Callable[[Any, grpc.ServicerContext], Any]


def observed(behaviour: Behaviour,
             record: Callable[[Any, grpc.ServicerContext, grpc.StatusCode, float], None]) -> Behaviour:
    """``behaviour``, calling ``record(request, context, code, seconds)`` when it ends: its
    :func:`final_code` and how long it took."""

    def run(request: Any, context: grpc.ServicerContext) -> Any:
        begin = time.perf_counter()
        raised = True
        try:
            response = behaviour(request, context)
            raised = False
            return response
        finally:
            record(request, context, final_code(context, raised=raised), time.perf_counter() - begin)

    return run


def observed_stream(behaviour: Behaviour,
                    record: Callable[[Any, grpc.ServicerContext, grpc.StatusCode, float], None]) -> Behaviour:
    """:func:`observed` for a server-streaming ``behaviour`` (a generator of responses): ``record``
    when the stream ends, however it ends (closed early: the client went away)."""

    def run(request: Any, context: grpc.ServicerContext) -> Any:
        begin = time.perf_counter()
        raised = True
        try:
            yield from behaviour(request, context)
            raised = False
        except GeneratorExit:  # closed by the server: the client is gone, not a failure of ours
            raised = False
            raise
        finally:
            record(request, context, final_code(context, raised=raised), time.perf_counter() - begin)

    return run


#: Server-streaming methods the unary interceptors also wrap (:meth:`UnaryInterceptor.wrap_stream`):
#: AnalysisService's streams (StreamAnalyzeMatch), admitted, limited, logged and mapped like the
#: unary call whose progress they stream.
WRAPPED_STREAMS = frozenset(
    services.path(name) for name, m in services.METHODS.items()
    if m.server_streaming and not m.client_streaming and m.containing_service.full_name == services.ANALYSIS)


_KINDS = (("unary_unary", grpc.unary_unary_rpc_method_handler),
          ("unary_stream", grpc.unary_stream_rpc_method_handler),
          ("stream_unary", grpc.stream_unary_rpc_method_handler),
          ("stream_stream", grpc.stream_stream_rpc_method_handler))


def wrap_any_handler(handler: Any, wrap: Callable[[Any], Any]) -> Any:
    """``handler`` (of any of the four call kinds) with its behaviour replaced by ``wrap(behaviour)``;
    ``None`` stays ``None``."""
    if handler is None:
        return None
    for kind, make in _KINDS:
        behaviour = getattr(handler, kind)
        if behaviour is not None:
            return make(wrap(behaviour), request_deserializer=handler.request_deserializer,
                        response_serializer=handler.response_serializer)
    return handler


class UnaryInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]  # grpc ships no stubs
    """Base of the server's interceptors: each wraps the behaviour of every unary-unary call.

    Streaming calls (health Watch, reflection, ValidateMatch) and unknown methods pass through
    untouched, but for the server streams of :data:`WRAPPED_STREAMS`, which :meth:`wrap_stream`
    wraps. Subclasses implement :meth:`wrap`; returning ``None`` leaves that method's handler as it is.
    """

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        handler = continuation(handler_call_details)
        if handler is None:
            return handler
        method = handler_call_details.method
        if handler.unary_stream is not None and method in WRAPPED_STREAMS:
            streamed = self.wrap_stream(handler.unary_stream, method)
            if streamed is None:
                return handler
            return grpc.unary_stream_rpc_method_handler(
                streamed, request_deserializer=self.deserializer(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_unary is None:
            return handler
        wrapped = self.wrap(handler.unary_unary, method)
        if wrapped is None:
            return handler
        return grpc.unary_unary_rpc_method_handler(
            wrapped, request_deserializer=self.deserializer(handler.request_deserializer),
            response_serializer=handler.response_serializer,
        )

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        """The behaviour to run instead of ``behaviour`` for ``full_method`` ("/pkg.Service/Method")."""
        raise NotImplementedError

    def wrap_stream(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        """For a server-streaming method of :data:`WRAPPED_STREAMS`: the generator behaviour to
        run instead; by default none (the handler is left as it is)."""
        return None

    def deserializer(self, deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
        """The request deserializer to use; by default the handler's own."""
        return deserializer


class CachedChain(grpc.ServerInterceptor):  # type: ignore[misc]  # grpc ships no stubs
    """``interceptors`` (outermost first) applied once per method instead of once per call.

    gRPC runs every server interceptor's ``intercept_service`` for every call, in its one thread
    that accepts calls, and ours build the same wrapped handler each time. They depend only on
    the method and on the handler they wrap (the call's metadata and peer are read when the call
    runs), so the wrapped handler is kept per method while the handler inside stays the same
    object. Only methods that have a handler are kept, so the cache cannot grow with the names
    clients send.
    """

    def __init__(self, interceptors: Sequence[grpc.ServerInterceptor]) -> None:
        self.interceptors = tuple(interceptors)
        self._cache: dict[str, tuple[Any, Any]] = {}

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        inner = continuation(handler_call_details)
        if inner is None:
            return None
        method = handler_call_details.method
        hit = self._cache.get(method)
        if hit is not None and hit[0] is inner:
            return hit[1]
        handler = inner
        for interceptor in reversed(self.interceptors):
            handler = interceptor.intercept_service(_constant(handler), handler_call_details)
        self._cache[method] = (inner, handler)
        return handler


def _constant(handler: Any) -> Callable[[Any], Any]:
    return lambda _details: handler
