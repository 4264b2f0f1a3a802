"""How long the running call may still take, and stopping it when its time is up.

The client's deadline and the server's own budget per call, the earlier of the two; the budget
is set by the admission (``max_call_seconds``, ``analysis_call_seconds``) for the call's context.
Handlers call :func:`check_deadline` before costly work.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

import grpc

from tavla.server.api.context import CallContext

_NO_DEADLINE = 1e9  # seconds; gRPC reports a call without a deadline as one far in the future
#: When the server's own budget for the running call ends (monotonic seconds), set by the
#: admission (``tavla.server.admission.limits``); ``None``: the client's deadline only.
BUDGET_END: ContextVar[float | None] = ContextVar("tavla_budget_end", default=None)
PASSED = "the deadline passed before the work was done"


def remaining(context: CallContext | grpc.ServicerContext) -> float:
    """Seconds left for this call: the client's deadline or the server's budget, the earlier."""
    left: float | None = context.time_remaining()
    if left is None or left > _NO_DEADLINE:
        left = float("inf")
    end = BUDGET_END.get()
    if end is not None:
        left = min(left, end - time.monotonic())
    return max(left, 0.0)


def check_deadline(context: CallContext | grpc.ServicerContext) -> None:
    """Abort the call if its time is up or its client has gone; call before expensive work (the
    servicers with their :class:`CallContext`, the admission with gRPC's own)."""
    client_left = context.time_remaining()
    if client_left is not None and client_left <= 0:
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, PASSED)
    end = BUDGET_END.get()
    if end is not None and end <= time.monotonic():
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                      "the call ran past the server's time limit per call (max_call_seconds; "
                      "analysis_call_seconds for AnalysisService)")
    if not context.is_active():
        context.abort(grpc.StatusCode.CANCELLED, "the client cancelled the call")
