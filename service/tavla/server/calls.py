"""What every call wrapper needs to know about a unary call: its final status code.

The interceptors that observe calls (access log, metrics, tracing) run outside the error mapping,
so when the handler raises, the code it aborted with is already on the context; when it returns
but the client has gone (deadline passed or cancelled), the client never sees the response.
"""

from __future__ import annotations

import grpc

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
    if not context.is_active():
        return grpc.StatusCode.DEADLINE_EXCEEDED if context.time_remaining() <= 0 else grpc.StatusCode.CANCELLED
    return grpc.StatusCode.OK


def split_method(full: str) -> tuple[str, str]:
    """``"/pkg.Service/Method"`` -> ``("pkg.Service", "Method")``."""
    _, service, method = (full.split("/") + ["", ""])[:3]
    return service or "unknown", method or "unknown"
