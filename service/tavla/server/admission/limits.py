"""Limits on engine calls: how many run at once, and how long one may take.

* **Concurrency.** At most ``max_concurrent_rpcs`` engine calls run at once in a worker; one
  more is answered ``RESOURCE_EXHAUSTED`` at once instead of queueing behind CPU-bound work (a
  client should back off and retry, or go to another replica). Health checks and reflection are
  not counted, so a saturated worker still answers its probes.
* **Streams.** Streaming calls (ValidateMatch, health ``Watch``, reflection) each hold a server
  thread for as long as the client keeps them open, so at most :data:`MAX_STREAMS` of each kind
  run at once (one more of that kind is ``RESOURCE_EXHAUSTED``, other kinds are unaffected), and
  one quiet past its idle limit (:data:`STREAM_IDLE_SECONDS`) is cancelled. Without this, idle
  streams of one kind could take every stream slot.
* **Analysis.** AnalysisService calls (docs/analysis.md#cost-and-limits) do not count against
  ``max_concurrent_rpcs``: at most ``max_analysis`` run or wait at once (the admission executor
  queues them on a pool of their own), and their budget is ``analysis_call_seconds`` instead of
  ``max_call_seconds``. Their streams (StreamAnalyzeMatch) count as the unary call they stream,
  not as streams.
* **Deadlines.** A call's deadline is the client's, shortened to ``max_call_seconds`` after the
  call starts when that is set. A call that waited past it is not started, and handlers call
  :func:`check_deadline` before and during expensive work, which aborts with
  ``DEADLINE_EXCEEDED`` (or ``CANCELLED`` when the client has gone), so expired calls stop
  using the CPU.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, ContextManager

import grpc
import structlog

from tavla.server.admission import policy as admission
from tavla.server.admission.streams import OpenStream, StreamSlots
from tavla.server.api.deadline import BUDGET_END, PASSED, check_deadline, remaining
from tavla.server.convert import contract
from tavla.server.pipeline import metrics
from tavla.server.admission.calls import (Behaviour, OPS_SERVICES, UnaryInterceptor, WRAPPED_STREAMS, split_method,
                                          wrap_any_handler)
from tavla.server.pipeline.errors import lenient_deserializer, undecodable_status

log = structlog.get_logger("tavla.server.admission.limits")


def _wait_for_slot(slots: admission.Slots, context: grpc.ServicerContext) -> None:
    """Wait for one of the admission executor's slots to run the engine (none was free) until the
    call's time is up or it is gone (then abort). The caller releases it."""
    context.add_callback(slots.wake)  # a call that ends while waiting stops waiting at once
    if not slots.take(context.is_active, lambda: remaining(context)):
        check_deadline(context)  # aborts: the deadline passed or the client went away
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, PASSED)


class LimitsInterceptor(UnaryInterceptor):
    """Applies both limits to every unary call of the engine service (not to health/reflection).

    :param max_concurrent_rpcs: engine calls running at once.
    :param max_call_seconds: server-side budget of one call; 0 for the client's deadline only.
    :param max_analysis: AnalysisService calls at once (their own count).
    :param analysis_call_seconds: server-side budget of one AnalysisService call; 0: the client's.
    """

    def __init__(self, max_concurrent_rpcs: int, max_call_seconds: float = 0.0, *,
                 max_analysis: int = admission.MAX_ANALYSIS, analysis_call_seconds: float = 0.0) -> None:
        self.max_concurrent_rpcs = max_concurrent_rpcs
        self.max_call_seconds = max_call_seconds
        self.max_analysis = max_analysis
        self.analysis_call_seconds = analysis_call_seconds
        self._slots = admission.Slots(max_concurrent_rpcs)
        self._analysis_slots = admission.Slots(max(1, max_analysis))
        # calls from the HTTP port (no admission executor) run at most this many analyses at once
        self._analysis_running = admission.Slots(admission.ANALYSIS_THREADS)
        # tavla_rpcs_in_flight: read from the counts at each scrape, or written by each call
        self._gauge_each_call = not metrics.counts_in_flight(self)

    def in_flight(self) -> int:
        """Calls admitted now (running or waiting for a slot): engine and analysis calls."""
        return self._slots.taken() + self._analysis_slots.taken()

    def wrap(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        if split_method(full_method)[0] in OPS_SERVICES:
            return None
        admit = self._admission(full_method)

        def limited(request: Any, context: grpc.ServicerContext) -> Any:
            with admit(request, context):
                return behaviour(request, context)

        return limited

    def wrap_stream(self, behaviour: Behaviour, full_method: str) -> Behaviour | None:
        """An analysis stream: admitted, counted and budgeted as its unary call, for its whole life."""
        admit = self._admission(full_method)

        def limited(request: Any, context: grpc.ServicerContext) -> Any:
            with admit(request, context):
                yield from behaviour(request, context)

        return limited

    def _admission(self, full_method: str) -> Callable[[Any, grpc.ServicerContext], ContextManager[None]]:
        """What a call of ``full_method`` runs inside: its budget, its admission count and its
        slot to run the engine (module docstring); aborts when it may not run."""
        analysis = admission.kind_of(full_method) == admission.ANALYSIS
        budget = self.analysis_call_seconds if analysis else self.max_call_seconds
        counted = self._analysis_slots if analysis else self._slots
        limit = self.max_analysis if analysis else self.max_concurrent_rpcs
        what = "analysis calls (max_analysis_rpcs)" if analysis else "calls"
        gauge = self._gauge_each_call

        @contextlib.contextmanager
        def admitted(request: Any, context: grpc.ServicerContext) -> Iterator[None]:
            token = BUDGET_END.set(time.monotonic() + budget if budget > 0 else None)
            try:
                # It waited in the queue past its deadline: do nothing. Only the client's deadline
                # can have passed (the budget starts now), and a call whose client cancelled it while
                # it waited still runs: one call's work, less than asking each call (is_active, 0.3 us);
                # the handlers' own check_deadline stops a long one.
                left = context.time_remaining()
                if left is not None and left <= 0:
                    context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, PASSED)
                ticket = admission.current()
                if ticket is not None and ticket.shed:  # the executor counted it over the limit
                    context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  "the server is already handling its limit of calls (max_analysis_rpcs for "
                                  "AnalysisService, else max_concurrent_rpcs; queued ones included); retry "
                                  "with backoff")
                if not counted.try_take():
                    context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  f"the server is already handling {limit} {what}, "
                                  "its limit; retry with backoff")
                # admitted calls count as in flight while they wait for a slot too
                if gauge:
                    metrics.IN_FLIGHT.inc()
                try:
                    slots = ticket.slots if ticket is not None else None
                    if slots is None and analysis:  # the HTTP port: analysis still runs apart
                        slots = self._analysis_running
                    if slots is None:  # a call that did not come through the admission executor
                        yield
                        return
                    if not slots.try_take():
                        if not contract.within(request):  # refused inside at once: no slot to wait for
                            yield
                            return
                        _wait_for_slot(slots, context)
                    try:
                        yield
                    finally:
                        slots.release()
                finally:
                    if gauge:
                        metrics.IN_FLIGHT.dec()
                    counted.release()
            finally:
                try:
                    BUDGET_END.reset(token)
                except ValueError:  # a stream closed from another context than it ran in
                    BUDGET_END.set(None)

        return admitted


MAX_STREAMS = 4  # concurrent streaming calls per worker and kind; the server adds as many threads
#: Seconds a stream may stay quiet (no message from the client; health Watch: none either way)
#: before it is cancelled, per kind (a kind is the service: engine ValidateMatch, health,
#: reflection). ValidateMatch clients send a record's chunks back to back, reflection clients
#: ask and read; a health Watch sends only on a change, so it gets longer, and its client opens
#: a new one (grpc's health-checking clients do).
STREAM_IDLE_SECONDS: dict[str, float] = {"engine": 10.0, "grpc.health.v1.Health": 60.0,
                                          "grpc.reflection.v1alpha.ServerReflection": 10.0,
                                          "grpc.reflection.v1.ServerReflection": 10.0}
_OTHER_IDLE_SECONDS = 10.0
_IDLE_PERIOD = 0.25


def stream_kind(full_method: str) -> str:
    """The budget a streaming method counts against: its service, ``engine`` for the engine's."""
    service = split_method(full_method)[0]
    return service if service in OPS_SERVICES else "engine"


class _IdleWatch:
    """Cancels streams that have been quiet longer than their idle limit (one daemon thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[int, list[Any]] = {}  # id -> [last activity, limit, context, method]
        self._thread: threading.Thread | None = None
        self.cut_off_total = 0

    def add(self, context: Any, limit: float, method: str) -> int:
        key = id(context)
        with self._lock:
            self._streams[key] = [time.monotonic(), limit, context, method]
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tavla-stream-idle", daemon=True)
                self._thread.start()
        return key

    def touch(self, key: int) -> None:
        entry = self._streams.get(key)
        if entry is not None:
            entry[0] = time.monotonic()

    def remove(self, key: int) -> None:
        with self._lock:
            self._streams.pop(key, None)

    def _run(self) -> None:
        while True:
            time.sleep(_IDLE_PERIOD)
            now = time.monotonic()
            with self._lock:
                quiet = [k for k, (last, limit, _, _) in self._streams.items() if now - last > limit]
                entries = [self._streams.pop(k) for k in quiet]
            for _, limit, context, method in entries:
                self.cut_off_total += 1
                log.info("stream quiet past its idle limit; cancelled", method=method, seconds=limit)
                try:
                    context.cancel()
                except Exception:  # already over
                    pass


class StreamLimitInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]  # grpc ships no stubs
    """Caps concurrent streaming calls at ``max_streams`` *per kind* (:func:`stream_kind`: the
    engine's ValidateMatch, health Watch, reflection), so quiet streams of one kind never turn
    another kind away; cancels a stream quiet past its idle limit (:data:`STREAM_IDLE_SECONDS`,
    the client gets ``CANCELLED``); and answers request messages that do not parse with
    ``INVALID_ARGUMENT`` (gRPC would answer ``INTERNAL`` and log a traceback per message: a
    cheap way to flood the error log)."""

    def __init__(self, max_streams: int = MAX_STREAMS, idle_seconds: dict[str, float] | None = None) -> None:
        self.max_streams = max_streams
        self.idle_seconds = dict(STREAM_IDLE_SECONDS if idle_seconds is None else idle_seconds)
        self._slots: dict[str, StreamSlots] = {}
        self._slots_lock = threading.Lock()
        self.idle = _IdleWatch()

    def _budget(self, kind: str) -> StreamSlots:
        with self._slots_lock:
            slots = self._slots.get(kind)
            if slots is None:
                slots = self._slots[kind] = StreamSlots(self.max_streams)
            return slots

    def slots(self, method: str) -> StreamSlots:
        """The slots the streaming ``method`` counts against."""
        return self._budget(stream_kind(method))

    def evicted_total(self) -> int:
        """Streams that gave their slot up to a newcomer (:mod:`~tavla.server.admission.streams`)."""
        with self._slots_lock:
            return sum(slots.evicted_total for slots in self._slots.values())

    def intercept_service(self, continuation: Any, handler_call_details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is not None:
            return handler
        streaming = handler.unary_stream or handler.stream_stream
        if streaming is None:
            return handler  # client streaming only: none in this server
        if handler_call_details.method in WRAPPED_STREAMS:
            return handler  # an analysis stream: limited as its unary call (LimitsInterceptor)
        request_streaming = handler.stream_stream is not None
        method = handler_call_details.method
        kind = stream_kind(method)
        slots = self._budget(kind)
        idle_limit = self.idle_seconds.get(kind, _OTHER_IDLE_SECONDS)
        idle = self.idle

        def checked(requests: Any, context: grpc.ServicerContext, key: int, stream: OpenStream) -> Any:
            it = iter(requests)
            while True:
                slots.waiting(stream)  # time spent here is the client's: it ranks the idlest
                try:
                    request = next(it)
                except StopIteration:
                    return
                finally:
                    slots.received(stream)
                idle.touch(key)
                yield _parsed(request, context)

        def limited(request: Any, context: grpc.ServicerContext) -> Any:
            ticket = admission.current()
            full = f"the server already has {self.max_streams} streams of this kind open, its limit, none idle"
            if ticket is not None and ticket.shed:
                context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, full)
            stream = slots.open(_ender(context, ticket))
            if stream is None:
                context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, full)
                return  # abort raises; this tells the type checker too
            key = idle.add(context, idle_limit, method)
            try:
                request = checked(request, context, key, stream) if request_streaming else _parsed(request, context)
                for response in streaming(request, context):
                    if not request_streaming:
                        idle.touch(key)  # a server stream (Watch) is quiet when nothing is sent
                    yield response
            finally:
                idle.remove(key)
                slots.close(stream)

        make = (grpc.stream_stream_rpc_method_handler if request_streaming
                else grpc.unary_stream_rpc_method_handler)
        return make(limited, request_deserializer=lenient_deserializer(handler.request_deserializer),
                    response_serializer=handler.response_serializer)


def _ender(context: grpc.ServicerContext, ticket: admission.Ticket | None) -> Callable[[str], None]:
    """Ends the call from another thread with ``RESOURCE_EXHAUSTED`` and a message (the core
    call's cancel with a status; without the call, a plain cancel: ``CANCELLED``)."""

    def end(message: str) -> None:
        call = ticket.call if ticket is not None else None
        try:
            if call is None:
                raise LookupError("no core call")
            call.cancel(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0], message)
        except Exception:  # no core call here, or it is over
            context.cancel()

    return end


def _parsed(request: Any, context: grpc.ServicerContext) -> Any:
    """``request``, or abort with ``INVALID_ARGUMENT`` when it did not parse."""
    status = undecodable_status(request)
    if status is not None:
        context.abort_with_status(status)
    return request


class ArrivalInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]  # grpc ships no stubs
    """Tells the admission watchdog (:mod:`~tavla.server.admission.policy`) that a call's request has
    arrived: its handler is starting. Put it first, so it runs before any other work."""

    def intercept_service(self, continuation: Any, handler_call_details: grpc.HandlerCallDetails) -> Any:
        return wrap_any_handler(continuation(handler_call_details), _arrived)


def _arrived(behaviour: Behaviour) -> Behaviour:
    def run(request: Any, context: grpc.ServicerContext) -> Any:
        admission.mark_arrived()
        return behaviour(request, context)

    return run
