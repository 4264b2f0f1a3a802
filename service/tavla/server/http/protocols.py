"""The wire formats of calls over HTTP: Connect (JSON and binary) and gRPC-Web, unary and
server-streaming.

Pure functions, no I/O: :mod:`~tavla.server.http.app` reads a request, asks :func:`protocol_of`
which protocol its ``content-type`` names, decodes it here, runs the servicer, and encodes the
answer or the error here. Sources: the Connect protocol (https://connectrpc.com/docs/protocol,
unary requests and the error JSON; streaming: ``application/connect+json`` or ``+proto``, each
message in a 5-byte envelope, the end-of-stream envelope with flag 0x02 holding the error JSON) and
gRPC-Web (github.com/grpc/grpc, ``doc/PROTOCOL-WEB.md``: length-prefixed frames, trailers in a
final frame with flag 0x80, ``-text`` = base64, here each frame encoded on its own).
"""

from __future__ import annotations

import base64
import json
import re
import struct
from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2, json_format
from google.protobuf import message as pb_message
from google.protobuf import symbol_database
from google.rpc import error_details_pb2, status_pb2  # noqa: F401 (registers the detail types)

from tavla.server.http import json_check

CONNECT = "connect"
GRPC_WEB = "grpc-web"

# Connect's error code names and the HTTP status of each (protocol spec, "Error Codes").
CONNECT_CODES: dict[grpc.StatusCode, tuple[str, int]] = {
    grpc.StatusCode.CANCELLED: ("canceled", 499),
    grpc.StatusCode.UNKNOWN: ("unknown", 500),
    grpc.StatusCode.INVALID_ARGUMENT: ("invalid_argument", 400),
    grpc.StatusCode.DEADLINE_EXCEEDED: ("deadline_exceeded", 504),
    grpc.StatusCode.NOT_FOUND: ("not_found", 404),
    grpc.StatusCode.ALREADY_EXISTS: ("already_exists", 409),
    grpc.StatusCode.PERMISSION_DENIED: ("permission_denied", 403),
    grpc.StatusCode.RESOURCE_EXHAUSTED: ("resource_exhausted", 429),
    grpc.StatusCode.FAILED_PRECONDITION: ("failed_precondition", 400),
    grpc.StatusCode.ABORTED: ("aborted", 409),
    grpc.StatusCode.OUT_OF_RANGE: ("out_of_range", 400),
    grpc.StatusCode.UNIMPLEMENTED: ("unimplemented", 501),
    grpc.StatusCode.INTERNAL: ("internal", 500),
    grpc.StatusCode.UNAVAILABLE: ("unavailable", 503),
    grpc.StatusCode.DATA_LOSS: ("data_loss", 500),
    grpc.StatusCode.UNAUTHENTICATED: ("unauthenticated", 401),
}
STATUS_DETAILS_KEY = "grpc-status-details-bin"
_TIMEOUT_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}


class ProtocolError(Exception):
    """A request the protocol itself refuses (bad framing, bad timeout header): answered with
    ``code`` before any servicer runs."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Protocol:
    """What a request's ``content-type`` says: the protocol, the codec (``json`` or ``proto``)
    and, for gRPC-Web, whether frames are base64 text."""

    name: str
    codec: str
    text: bool = False
    #: Connect's streaming media type (``application/connect+...``): enveloped messages
    stream: bool = False

    @property
    def response_content_type(self) -> str:
        if self.name == CONNECT:
            return f"application/{'connect+' if self.stream else ''}{self.codec}"
        return "application/grpc-web-text+proto" if self.text else "application/grpc-web+proto"


def protocol_of(content_type: str) -> Protocol | None:
    """The protocol of a POST with this ``content-type``, or ``None`` when it names none we serve
    (gRPC-Web JSON, anything else)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media in ("application/json", "application/proto"):
        return Protocol(CONNECT, media.removeprefix("application/"))
    if media in ("application/connect+json", "application/connect+proto"):
        return Protocol(CONNECT, media.removeprefix("application/connect+"), stream=True)
    if media in ("application/grpc-web", "application/grpc-web+proto"):
        return Protocol(GRPC_WEB, "proto")
    if media in ("application/grpc-web-text", "application/grpc-web-text+proto"):
        return Protocol(GRPC_WEB, "proto", text=True)
    return None


def timeout_seconds(protocol: Protocol, headers: dict[str, str]) -> float | None:
    """The client's deadline in seconds from ``connect-timeout-ms`` or ``grpc-timeout``.

    :raises ProtocolError: a malformed header (INVALID_ARGUMENT).
    """
    if protocol.name == CONNECT:
        text = headers.get("connect-timeout-ms")
        if text is None:
            return None
        if not re.fullmatch(r"\d{1,10}", text):
            raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, f"connect-timeout-ms {text!r} is not 1-10 digits")
        return int(text) / 1000.0
    text = headers.get("grpc-timeout")
    if text is None:
        return None
    match = re.fullmatch(r"(\d{1,8})([HMSmun])", text)
    if match is None:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, f"grpc-timeout {text!r} is not 1-8 digits and a unit")
    return int(match.group(1)) * _TIMEOUT_UNITS[match.group(2)]


# --- requests ---------------------------------------------------------------------------------


def unframe(protocol: Protocol, body: bytes) -> bytes:
    """The request message's bytes in a unary or server-streaming call's body (Connect unary: the
    body itself; Connect streaming and gRPC-Web: the payload of its one data frame, base64-decoded
    first for ``-text``).

    :raises ProtocolError: an enveloped body that is not one uncompressed frame.
    """
    if protocol.name != GRPC_WEB:
        return _one_frame(body) if protocol.stream else body
    if protocol.text:
        try:
            body = base64.b64decode(body, validate=True)
        except ValueError:
            raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "a grpc-web-text body is not base64") from None
    return _one_frame(body)


def parse_json(data: bytes, message_type: type[pb_message.Message]) -> pb_message.Message:
    """A Connect JSON request: the protobuf JSON mapping (``position_id`` and ``positionId`` both
    read); an empty body is the empty message. Strict: an unknown field, an unknown enum name or a
    non-integer where an integer belongs is refused (:mod:`tavla.server.http.json_check`), as a
    misspelt field or enum silently read as its default would change what the call means.

    :raises JsonFieldError: a field that is not of this message or holds a bad enum or integer.
    :raises ValueError: not JSON of this message (json_format.ParseError, UnicodeDecodeError).
    """
    message = message_type()
    if data.strip():
        value = json_check.loads(data.decode("utf-8"))
        json_check.check(value, message.DESCRIPTOR)
        json_format.ParseDict(value, message)
    return message


def _one_frame(data: bytes) -> bytes:
    if len(data) < 5:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "a gRPC-Web request is one 5-byte-prefixed frame")
    flags, length = struct.unpack(">BI", data[:5])
    if flags & 0x01:
        raise ProtocolError(grpc.StatusCode.UNIMPLEMENTED, "compressed gRPC-Web frames are not supported")
    if flags != 0 or len(data) != 5 + length:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT,
                            "a gRPC-Web or Connect streaming request is exactly one data frame")
    return data[5:]


# --- answers ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP response: status, headers (lowercase names) and body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


def success(protocol: Protocol, response: pb_message.Message | bytes,
            response_type: type[pb_message.Message] | None = None) -> Answer:
    """The answer carrying ``response``: a message, or the bytes of a serialized one
    (:mod:`tavla.server.api.encoded`), sent as they are in the binary codecs and parsed as
    ``response_type`` (then only) for JSON.

    :raises TypeError: ``response`` is bytes, the codec JSON and ``response_type`` not given.
    """
    if protocol.codec == "json":  # only Connect has a JSON codec here
        if isinstance(response, bytes):
            if response_type is None:
                raise TypeError("a serialized response needs its response_type for JSON")
            response = response_type.FromString(response)
        body = json_format.MessageToJson(response, indent=None, ensure_ascii=False).encode("utf-8")
        return Answer(200, [("content-type", protocol.response_content_type)], body)
    data = response if isinstance(response, bytes) else response.SerializeToString()
    if protocol.name == CONNECT:
        return Answer(200, [("content-type", protocol.response_content_type)], data)
    return _grpc_web(protocol, _frame(0x00, data) + _trailer_frame(grpc.StatusCode.OK, "", None))


def failure(protocol: Protocol, code: grpc.StatusCode, message: str,
            details: status_pb2.Status | None = None) -> Answer:
    """The answer of a failed call: Connect's error JSON with its HTTP status, or a gRPC-Web
    trailers frame (HTTP 200) with ``grpc-status``, ``grpc-message`` and the rich details.

    :param details: the ``google.rpc.Status`` whose ``details`` (ErrorInfo, BadRequest) are sent.
    """
    if protocol.name == CONNECT:
        if protocol.stream:  # a stream's error is its end-of-stream message, with HTTP 200
            return Answer(200, [("content-type", stream_content_type(protocol))],
                          stream_end(protocol, code, message, details))
        error = _connect_error(code, message, details)
        return Answer(CONNECT_CODES.get(code, ("unknown", 500))[1], [("content-type", "application/json")],
                      json.dumps(error, ensure_ascii=False).encode("utf-8"))
    return _grpc_web(protocol, _trailer_frame(code, message, details))


def stream_message(protocol: Protocol, response: pb_message.Message | bytes,
                   response_type: type[pb_message.Message] | None = None) -> bytes:
    """One message of a server stream, in its envelope (base64 for gRPC-Web text): as
    :func:`success` reads ``response``."""
    if protocol.codec == "json":
        if isinstance(response, bytes):
            if response_type is None:
                raise TypeError("a serialized response needs its response_type for JSON")
            response = response_type.FromString(response)
        data = json_format.MessageToJson(response, indent=None, ensure_ascii=False).encode("utf-8")
    else:
        data = response if isinstance(response, bytes) else response.SerializeToString()
    return _stream_bytes(protocol, _frame(0x00, data))


def stream_end(protocol: Protocol, code: grpc.StatusCode, message: str = "",
               details: status_pb2.Status | None = None) -> bytes:
    """A server stream's last envelope: Connect's end-of-stream (flag 0x02: ``{}``, or
    ``{"error": ...}`` as a unary error's JSON), gRPC-Web's trailers frame."""
    if protocol.name == CONNECT:
        end: dict[str, object] = {}
        if code != grpc.StatusCode.OK:
            end["error"] = _connect_error(code, message, details)
        return _frame(0x02, json.dumps(end, ensure_ascii=False).encode("utf-8"))
    return _stream_bytes(protocol, _trailer_frame(code, message, details))


def stream_content_type(protocol: Protocol) -> str:
    """A server stream's ``content-type`` (Connect: ``application/connect+json`` or ``+proto``)."""
    if protocol.name == CONNECT:
        return f"application/connect+{protocol.codec}"
    return protocol.response_content_type


def _stream_bytes(protocol: Protocol, frame: bytes) -> bytes:
    return base64.b64encode(frame) if protocol.text else frame


def _connect_error(code: grpc.StatusCode, message: str, details: status_pb2.Status | None) -> dict[str, object]:
    error: dict[str, object] = {"code": CONNECT_CODES.get(code, ("unknown", 500))[0]}
    if message:
        error["message"] = message
    if details is not None and details.details:
        error["details"] = [connect_detail(d) for d in details.details]
    return error


def _grpc_web(protocol: Protocol, frames: bytes) -> Answer:
    # gRPC-Web answers are HTTP 200 whatever the call's status (it is in the trailers frame)
    return Answer(200, [("content-type", protocol.response_content_type)],
                  base64.b64encode(frames) if protocol.text else frames)


def connect_detail(detail: any_pb2.Any) -> dict[str, object]:
    """One Connect error detail: ``type`` (the full message name), ``value`` (base64, no
    padding) and ``debug`` (the message as JSON, for people; clients read ``value``)."""
    out: dict[str, object] = {"type": detail.TypeName(),
                              "value": base64.b64encode(detail.value).decode().rstrip("=")}
    try:
        cls = symbol_database.Default().GetSymbol(detail.TypeName())
        out["debug"] = json_format.MessageToDict(cls.FromString(detail.value))
    except (KeyError, pb_message.DecodeError):
        pass
    return out


def _frame(flags: int, data: bytes) -> bytes:
    return struct.pack(">BI", flags, len(data)) + data


def _trailer_frame(code: grpc.StatusCode, message: str, details: status_pb2.Status | None) -> bytes:
    lines = [f"grpc-status: {code.value[0]}"]
    if message:
        lines.append(f"grpc-message: {percent_encode(message)}")
    if details is not None and details.details:
        lines.append(f"{STATUS_DETAILS_KEY}: {base64.b64encode(details.SerializeToString()).decode()}")
    return _frame(0x80, ("\r\n".join(lines) + "\r\n").encode("ascii"))


def percent_encode(text: str) -> str:
    """``grpc-message`` encoding: UTF-8, every byte outside 0x20-0x7E and ``%`` as ``%XX``."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E and b != 0x25 else f"%{b:02X}" for b in text.encode("utf-8"))
