"""Answers the servicer returns already serialized, handed to gRPC as they are.

ListLegalMoves builds its whole answer as protobuf wire bytes (:mod:`tavla.server.convert.wire`, or the
compiled accelerator, :mod:`tavla.server.api.generator`); parsing them into the response message only for
gRPC to serialize it again cost about two thirds of an accelerated answer (docs/performance.md).
So the servicer returns the bytes of a serialized response for the methods in
:data:`ENCODED_METHODS`, and the gRPC port registers those methods with
:func:`serialize` (:func:`tavla.server.process.grpc_calls.add_to_server`), which passes ``bytes`` through and still serializes a message (a servicer
subclass, e.g. a test's, may return one). The HTTP port does the same (binary codecs send the
bytes, JSON parses them first: :mod:`tavla.server.http.protocols`).
"""

from __future__ import annotations

from google.protobuf import message as pb_message

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
