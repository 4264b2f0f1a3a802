"""The gRPC port's side of the servicers: each registered for its tavla.v1 service, every call's
``grpc.ServicerContext`` adapted to the service layer's :class:`~tavla.server.api.context.CallContext`
(the interceptors around still see gRPC's own), and the answers of
:data:`tavla.server.api.encoded.ENCODED_METHODS` sent as the bytes they already are."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NoReturn

import grpc

from tavla.server.api import encoded, services
from tavla.server.api.context import CallContext, Metadata


class GrpcCallContext(CallContext):
    """A :class:`CallContext` over gRPC's context of the call."""

    __slots__ = ("_context",)

    def __init__(self, context: grpc.ServicerContext) -> None:
        self._context = context

    def metadata(self) -> Metadata:
        return tuple(self._context.invocation_metadata() or ())

    def time_remaining(self) -> float | None:
        left: float | None = self._context.time_remaining()
        return left

    def is_active(self) -> bool:
        return bool(self._context.is_active())

    def peer(self) -> str:
        return str(self._context.peer())

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        self._context.abort(code, details)
        raise AssertionError("grpc's abort returned")  # it raises; this line is never reached

    def abort_with_status(self, status: grpc.Status) -> NoReturn:
        self._context.abort_with_status(status)
        raise AssertionError("grpc's abort_with_status returned")

    def code(self) -> grpc.StatusCode | None:
        code: grpc.StatusCode | None = self._context.code()
        return code

    def details(self) -> str:
        raw = self._context.details()
        return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")


def _unary(method: Callable[[Any, CallContext], Any]) -> Callable[[Any, grpc.ServicerContext], Any]:
    def adapted(request: Any, context: grpc.ServicerContext) -> Any:
        return method(request, GrpcCallContext(context))
    return adapted


def _streaming(method: Callable[[Any, CallContext], Iterator[Any]]
               ) -> Callable[[Any, grpc.ServicerContext], Iterator[Any]]:
    def adapted(requests: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        return method(requests, GrpcCallContext(context))
    return adapted


class _Capture:
    """Stands in for the server while the generated code registers its handlers."""

    def __init__(self) -> None:
        self.service = ""
        self.handlers: dict[str, Any] = {}

    def add_generic_rpc_handlers(self, _handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        self.service = service
        self.handlers = dict(handlers)


def _adapted(handler: Any, name: str) -> Any:
    serializer = encoded.serialize if name in encoded.ENCODED_METHODS else handler.response_serializer
    options = {"request_deserializer": handler.request_deserializer, "response_serializer": serializer}
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(_unary(handler.unary_unary), **options)
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(_streaming(handler.unary_stream), **options)
    if handler.stream_unary is not None:
        return grpc.stream_unary_rpc_method_handler(_unary(handler.stream_unary), **options)
    return grpc.stream_stream_rpc_method_handler(_streaming(handler.stream_stream), **options)


def add_to_server(servicers: Mapping[str, Any], server: grpc.Server) -> None:
    """Register each tavla.v1 service's servicer (``servicers``: by the service's full name,
    :data:`tavla.server.api.services.SERVICES`) like the generated ``add_<Service>Servicer_to_server``, its methods called with a
    :class:`GrpcCallContext`, with :func:`tavla.server.api.encoded.serialize` as the response
    serializer of :data:`~tavla.server.api.encoded.ENCODED_METHODS`."""
    for service in services.SERVICES:
        capture = _Capture()
        service.add_to_server(servicers[service.name], capture)
        assert capture.service == service.name, capture.service
        handlers = {name: _adapted(handler, name) for name, handler in capture.handlers.items()}
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.name, handlers),))
        server.add_registered_method_handlers(service.name, handlers)
