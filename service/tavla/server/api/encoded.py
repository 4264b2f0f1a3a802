"""Answers the servicer returns already serialized, handed to gRPC as they are.

ListLegalMoves builds its whole answer as protobuf wire bytes (:mod:`tavla.server.convert.wire`, or the
compiled accelerator, :mod:`tavla.server.api.generator`); parsing them into the response message only for
gRPC to serialize it again cost about two thirds of an accelerated answer (docs/performance.md).
So the servicer returns the bytes of a serialized response for the methods in
:data:`ENCODED_METHODS`, and :func:`add_to_server` registers those methods with
:func:`serialize`, which passes ``bytes`` through and still serializes a message (a servicer
subclass, e.g. a test's, may return one). The HTTP port does the same (binary codecs send the
bytes, JSON parses them first: :mod:`tavla.server.http.protocols`).
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import message as pb_message

from tavla.server.api import services

#: Methods (bare names, :mod:`tavla.server.api.services`) whose servicer method returns the serialized
#: response.
ENCODED_METHODS = frozenset({"ListLegalMoves", "Act", "ListActions"})


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
        self.service = ""
        self.handlers: dict[str, Any] = {}

    def add_generic_rpc_handlers(self, _handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        self.service = service
        self.handlers = dict(handlers)


def add_to_server(servicer: Any, server: grpc.Server) -> None:
    """Register ``servicer`` for every tavla.v1 service (:data:`tavla.server.api.services.SERVICES`)
    like the generated ``add_<Service>Servicer_to_server``, with :func:`serialize` as the response
    serializer of :data:`ENCODED_METHODS`."""
    for service in services.SERVICES:
        capture = _Capture()
        service.add_to_server(servicer, capture)
        assert capture.service == service.name, capture.service
        handlers = capture.handlers
        for name in ENCODED_METHODS & handlers.keys():
            handler = handlers[name]
            handlers[name] = grpc.unary_unary_rpc_method_handler(
                handler.unary_unary, request_deserializer=handler.request_deserializer,
                response_serializer=serialize)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.name, handlers),))
        server.add_registered_method_handlers(service.name, handlers)
