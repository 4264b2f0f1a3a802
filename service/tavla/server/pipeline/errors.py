"""The error interceptor: every unary call's exceptions mapped to statuses
(:mod:`tavla.server.convert.status`), bugs to ``INTERNAL``, and requests that do not parse or
are out of their declared bounds (:mod:`tavla.server.convert.contract`) refused before the handler.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import grpc
from grpc_status import rpc_status

from tavla.core.i18n import messages
from tavla.server.admission.calls import Behaviour, UnaryInterceptor
from tavla.server.convert import contract
from tavla.server.convert.status import bad_request, invalid_argument, locale_of, localized, status_for

log = logging.getLogger(__name__)


class _Undecodable:
    """Stands in for a request whose bytes did not parse, so the handler wrapper can reject it."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _out_of_range(exc: BaseException) -> bool:
    # protobuf's message when a response field is given a value its type cannot hold
    return isinstance(exc, (ValueError, TypeError)) and "out of range" in str(exc).lower()


def undecodable_status(request: Any, locale: str = messages.DEFAULT_LOCALE) -> Any:
    """The ``INVALID_ARGUMENT`` status (with the player's message in ``locale``) for a request
    that did not parse, else ``None``. The BadRequest names the field when the parser said which
    (a ``field`` attribute, as :class:`tavla.server.http.json_check.JsonFieldError` has), else
    ``request``."""
    if not isinstance(request, _Undecodable):
        return None
    field = getattr(request.error, "field", None) or "request"
    text = f"request does not parse: {request.error}"
    return rpc_status.to_status(localized(invalid_argument(text, bad_request(field, text)), locale))


def lenient_deserializer(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any]:
    """``deserializer``, returning a stand-in instead of raising (see :func:`undecodable_status`)."""
    # gRPC answers INTERNAL when the request deserializer raises; parsing is input validation,
    # so failures are passed to the handler wrapper as a value and answered INVALID_ARGUMENT.
    def deserialize(data: bytes) -> Any:
        if deserializer is None:
            return data
        try:
            return deserializer(data)
        except Exception as exc:  # DecodeError, invalid UTF-8, nesting too deep, ...
            return _Undecodable(exc)

    return deserialize


class ErrorInterceptor(UnaryInterceptor):
    """Wraps every unary-unary handler (and the analysis streams): maps errors by :func:`status_for`, bugs to INTERNAL.

    Put it last in the server's interceptor list (innermost), so that logging or metrics
    interceptors added before it see the final status code on the context.
    """

    def deserializer(self, deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any]:
        return lenient_deserializer(deserializer)

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        def guarded(request: Any, context: grpc.ServicerContext) -> Any:
            _refuse_undecodable(request, context)
            try:
                contract.check(request)  # the declared bounds, before any handler
                return behaviour(request, context)
            except Exception as exc:
                _abort_for(exc, context, full_method)

        return guarded

    def wrap_stream(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        def guarded(request: Any, context: grpc.ServicerContext) -> Any:
            _refuse_undecodable(request, context)
            try:
                contract.check(request)
                yield from behaviour(request, context)
            except Exception as exc:
                _abort_for(exc, context, full_method)

        return guarded


def _refuse_undecodable(request: Any, context: grpc.ServicerContext) -> None:
    if isinstance(request, _Undecodable):  # the locale is looked up only for a failure
        context.abort_with_status(undecodable_status(request, locale_of(context.invocation_metadata())))


def _abort_for(exc: Exception, context: grpc.ServicerContext, full_method: str) -> None:
    """Abort the call with ``exc``'s status (re-raise when the handler aborted on purpose)."""
    code = context.code()
    if code is not None and code != grpc.StatusCode.OK:
        raise exc  # the handler aborted on purpose: its status stands
    locale = locale_of(context.invocation_metadata())
    status = status_for(exc, locale)
    if status is None and _out_of_range(exc):
        # a bound is missing somewhere: still the input's fault, never INTERNAL
        log.warning("answer field out of range in %s: %s", full_method, exc)
        text = ("the answer to this request does not fit its fields (a value is out of "
                "range); the input is outside what the server can answer")
        status = localized(invalid_argument(text, bad_request("request", text)), locale)
    if status is None:  # a bug: keep the traceback, tell the client nothing internal
        log.exception("unexpected error in %s", full_method)
        context.abort(grpc.StatusCode.INTERNAL, "internal error")
    else:
        context.abort_with_status(rpc_status.to_status(status))
