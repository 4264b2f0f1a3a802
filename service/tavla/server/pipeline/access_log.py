"""One log line per call, and the request id that ties a call's lines together.

The request id is the caller's ``x-request-id`` metadata when it is a sane token (visible ASCII,
at most 128 characters), else a new random one; it is sent back in the response's initial
metadata as ``x-request-id`` and bound to every log line written while the call runs.

The line (event ``rpc``) has ``method``, ``code``, ``duration_ms``, ``peer``, ``protocol``
(``grpc``, or ``connect`` / ``grpc-web`` on the HTTP port) and ``request_id``,
and ``trace_id`` when tracing is on. Nothing from the request or the error message (which quotes
the request) is logged at info level: positions and moves appear only at debug level, as
``request`` and ``details``, and even there dice tokens and client seeds are redacted
(:data:`SECRET_FIELDS`) and control characters escaped (:func:`safe_text`). Health checks and reflection are logged at debug level, so probes do
not flood the log; failed calls at warning (the client gave up, or was turned away) or error (a
bug on our side).
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

import grpc
import structlog
from structlog.contextvars import bind_contextvars, reset_contextvars
from google.protobuf import message as pb_message
from google.protobuf import text_format

from tavla.server.pipeline import tracing
from tavla.server.admission.calls import Behaviour, OPS_SERVICES, UnaryInterceptor, observed, observed_stream, protocol_of, split_method

REQUEST_ID = "x-request-id"
# Request fields never logged, even at debug level: a dice token with its client seed rolls the
# dice (docs/dice.md), so both are secrets until the roll.
SECRET_FIELDS = frozenset({"token", "client_seed", "client_seed_sha256"})
REDACTED = "<redacted>"
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SANE_ID = re.compile(r"[\x21-\x7e]{1,128}")
_DEBUG_TEXT = 2048  # characters of request or details at debug level
_WARNING = frozenset({grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED,
                      grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE})
_ERROR = frozenset({grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL, grpc.StatusCode.DATA_LOSS,
                    grpc.StatusCode.UNIMPLEMENTED})

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}

LOGGER = "tavla.access"
log = structlog.get_logger(LOGGER)
_stdlib_log = logging.getLogger(LOGGER)


def request_id_from(metadata: Any) -> str:
    """The caller's ``x-request-id`` if it is a sane token, else a new random id."""
    for key, value in metadata or ():
        if key == REQUEST_ID and isinstance(value, str) and _SANE_ID.fullmatch(value):
            return value
    return uuid.uuid4().hex


def _level(code: grpc.StatusCode, quiet: bool) -> str:
    if code in _ERROR:
        return "error"
    if code in _WARNING:
        return "warning"
    return "debug" if quiet else "info"


class AccessLogInterceptor(UnaryInterceptor):
    """Logs each unary call once, when it ends, and echoes its request id."""

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        timed = observed(behaviour, _recorder(full_method))

        def logged(request: Any, context: grpc.ServicerContext) -> Any:
            # structlog.contextvars.bound_contextvars without its context manager's cost per call
            tokens = bind_contextvars(request_id=_echo_request_id(context))
            try:
                return timed(request, context)
            finally:
                reset_contextvars(**tokens)

        return logged

    def wrap_stream(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        """An analysis stream: one line when it ends, as for a unary call."""
        timed = observed_stream(behaviour, _recorder(full_method))

        def logged(request: Any, context: grpc.ServicerContext) -> Any:
            tokens = bind_contextvars(request_id=_echo_request_id(context))
            try:
                yield from timed(request, context)
            finally:
                try:
                    reset_contextvars(**tokens)
                except ValueError:  # closed from another context than it ran in
                    pass

        return logged


def _recorder(full_method: str) -> Callable[[Any, grpc.ServicerContext, grpc.StatusCode, float], None]:
    quiet = split_method(full_method)[0] in OPS_SERVICES

    def record(request: Any, context: grpc.ServicerContext, code: grpc.StatusCode, seconds: float) -> None:
        try:
            _log_call(full_method, request, context, code, seconds, quiet)
        except Exception:  # a logging failure must never fail the call
            _stdlib_log.exception("cannot write the access log line")

    return record


def _echo_request_id(context: grpc.ServicerContext) -> str:
    """The call's request id (the client's, else a new one), sent back in the headers."""
    request_id = request_id_from(context.invocation_metadata())
    try:
        context.send_initial_metadata(((REQUEST_ID, request_id),))
    except Exception:  # the client has already gone; the call ends anyway
        pass
    return request_id


def _log_call(method: str, request: Any, context: grpc.ServicerContext, code: grpc.StatusCode,
              seconds: float, quiet: bool) -> None:
    level = _level(code, quiet)
    if not _stdlib_log.isEnabledFor(_LEVELS[level]):
        return  # the line would be dropped: skip the peer look-up and the formatting
    emit = getattr(log, level)
    fields: dict[str, Any] = {"method": safe_text(method), "code": code.name,
                              "duration_ms": round(seconds * 1000, 3), "peer": safe_text(context.peer() or ""),
                              "protocol": protocol_of(context)}
    trace_id = tracing.current_trace_id()
    if trace_id:
        fields["trace_id"] = trace_id
    if _stdlib_log.isEnabledFor(logging.DEBUG):  # the request and the message quote positions
        fields["request"] = _text(request)
        details = _details(context)
        if details:
            fields["details"] = details
    emit("rpc", **fields)


def safe_text(text: str) -> str:
    """``text`` with control characters (newlines included) escaped, so that a value from a
    client can never start a line of its own or move the cursor in a console log."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def redacted(message: pb_message.Message) -> pb_message.Message:
    """A copy of ``message`` with every :data:`SECRET_FIELDS` string replaced by :data:`REDACTED`."""
    copy = type(message)()
    copy.CopyFrom(message)
    _redact(copy)
    return copy


def _redact(message: pb_message.Message) -> None:
    for descriptor, value in message.ListFields():
        if descriptor.message_type is not None:
            items = value if descriptor.is_repeated else [value]
            if descriptor.message_type.GetOptions().map_entry:
                continue
            for item in items:
                _redact(item)
        elif descriptor.name in SECRET_FIELDS and descriptor.type == descriptor.TYPE_STRING:
            if descriptor.is_repeated:
                value[:] = [REDACTED] * len(value)
            else:
                setattr(message, descriptor.name, REDACTED)


def _text(request: Any) -> str:
    if isinstance(request, pb_message.Message):
        text = text_format.MessageToString(redacted(request), as_one_line=True)
    else:
        text = repr(request)
    text = safe_text(text)
    return text if len(text) <= _DEBUG_TEXT else text[:_DEBUG_TEXT] + "..."


def _details(context: grpc.ServicerContext) -> str:
    raw = context.details()  # gRPC's context: bytes; a call context of ours: str
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")
    return safe_text(text[:_DEBUG_TEXT])
