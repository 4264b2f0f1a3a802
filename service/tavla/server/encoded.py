"""Answers the servicer returns already serialized, handed to gRPC as they are.

ListLegalMoves builds its whole answer as protobuf wire bytes (:mod:`tavla.server.wire`, or the
compiled accelerator, :mod:`tavla.server.accel`); parsing them into the response message only for
gRPC to serialize it again cost about two thirds of an accelerated answer (docs/performance.md).
So the servicer returns the bytes of a serialized response for the methods in
:data:`ENCODED_METHODS`, and :func:`add_to_server` registers those methods with
:func:`serialize`, which passes ``bytes`` through and still serializes a message (a servicer
subclass, e.g. a test's, may return one). The HTTP port does the same (binary codecs send the
bytes, JSON parses them first: :mod:`tavla.server.http_protocols`).
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import message as pb_message

from tavla.v1 import engine_service_pb2_grpc

SERVICE = "tavla.v1.EngineService"
#: Methods of ``tavla.v1.EngineService`` whose servicer method returns the serialized response.
ENCODED_METHODS = frozenset({"ListLegalMoves"})


def serialize(response: bytes | pb_message.Message) -> bytes:
    """The response's wire bytes: ``bytes`` as they are (already a serialized response), a
    message serialized as gRPC's generated code does."""
    if isinstance(response, bytes):
        return response
    data: bytes = response.SerializeToString()
    return data


def size(response: bytes | pb_message.Message) -> int:
    """The serialized size of a response in bytes, whichever form it has."""
    return len(response) if isinstance(response, bytes) else response.ByteSize()


class _Capture:
    """Stands in for the server while the generated code registers its handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}

    def add_generic_rpc_handlers(self, _handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        assert service == SERVICE, service
        self.handlers = dict(handlers)


def add_to_server(servicer: Any, server: grpc.Server) -> None:
    """Register ``servicer`` for ``tavla.v1.EngineService`` like the generated
    ``add_EngineServiceServicer_to_server``, with :func:`serialize` as the response serializer
    of :data:`ENCODED_METHODS`."""
    capture = _Capture()
    # The generated *_pb2_grpc modules carry no annotations.
    engine_service_pb2_grpc.add_EngineServiceServicer_to_server(servicer, capture)  # type: ignore[no-untyped-call]
    handlers = capture.handlers
    for name in ENCODED_METHODS:
        handler = handlers[name]
        handlers[name] = grpc.unary_unary_rpc_method_handler(
            handler.unary_unary, request_deserializer=handler.request_deserializer, response_serializer=serialize)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_registered_method_handlers(SERVICE, handlers)
