"""Admission: which thread runs a call, how many engine calls a worker takes, and a watchdog for
calls whose request never arrives.

gRPC Python hands every call it accepts to the server's executor *before* the request message
is read, and a call waits in the executor's queue for a thread. A limit checked inside the
handler therefore never sees queued calls, and a client that sends headers and then nothing
holds a thread until it goes away. :class:`AdmissionExecutor` is that executor, and decides
when the call arrives:

* **Engine calls** (every tavla.v1 service, :mod:`tavla.server.api.services`): at most ``max_admitted`` per worker are
  admitted; they queue for ``engine_threads`` threads (:class:`~tavla.server.admission.pool.CallPool`,
  which adds a thread for each one held up by a call whose request is late), and at most
  ``engine_threads`` of them run the engine at once (:attr:`Ticket.slots`, taken by the limits
  interceptor). One more is *shed*: it runs on a small pool of its own, where the limits
  interceptor answers ``RESOURCE_EXHAUSTED`` at once (:func:`current`). Waiting calls count, so
  a flood of costly calls is turned away instead of piling up behind the GIL.
* **Analysis calls** (every AnalysisService method, docs/analysis.md#cost-and-limits): admitted
  apart, at most ``max_analysis`` per worker, each on a thread of the analysis pool waiting for one of
  :data:`ANALYSIS_THREADS` slots (a request out of bounds is refused before it waits),
  and shed (``RESOURCE_EXHAUSTED``) beyond that: a flood of analysis,
  each call hundreds of milliseconds of CPU, never takes an engine call's admission, thread or
  slot, so the rules RPCs answer as before.
* **Engine streams** (``ValidateMatch``): admitted as engine calls, but each on a thread of its
  own (a stream holds its thread while its client sends), never on the engine threads.
* **Health checks** (``grpc.health.v1.Health/Check``) run on their own threads, never queued
  behind engine calls, never shed.
* **Streams** (health ``Watch``, reflection): at most ``max_streams`` of each kind at once; more
  are shed and answered ``RESOURCE_EXHAUSTED`` (:class:`~tavla.server.admission.limits.StreamLimitInterceptor`,
  which also cancels quiet ones).
* **Held calls**: a unary engine or analysis call is not counted nor given a thread until its
  request has arrived (:mod:`~tavla.server.admission.arrivals` holds it meanwhile), so clients
  that send headers and nothing else never turn real calls away.
* **Watchdog**: a call whose thread has waited for the request message too long is cancelled (the
  client gets ``CANCELLED``): :data:`ENGINE_BODY_SECONDS` (0.5 s) for unary engine calls, 1 s for
  health checks and shed calls (clients send the message with the headers), ``body_seconds`` (5 s)
  for streams. When the engine admission is full, a newcomer first evicts the oldest admitted
  unary call whose request has not come after :data:`EVICT_AFTER`, so clients that send headers
  and nothing else never turn real calls away; the gRPC server's per-connection stream
  limit (:func:`tavla.server.process.app.streams_per_connection`) bounds how many one connection opens.

The executor learns the method from the call gRPC passes to ``submit`` (the ``rpc_event`` of
``grpc._server``); if a future grpcio passes something else, calls are still served, on the
engine pool, and ``tests/reliability`` fails.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import structlog

from tavla.server.admission import arrivals
from tavla.server.admission import pool as call_pool
from tavla.server.admission.calls import OPS_SERVICES, split_method
from tavla.server.api import services

log = structlog.get_logger("tavla.server.admission.policy")

HEALTH_CHECK = "/grpc.health.v1.Health/Check"
ENGINE, ENGINE_STREAM, HEALTH, STREAM, ANALYSIS = "engine", "engine-stream", "health", "stream", "analysis"
#: AnalysisService calls running at once per worker by default: one, as one analysis process
#: (``--analysis-processes``), so a worker's other core stays with the rules RPCs.
ANALYSIS_THREADS = 1
#: AnalysisService calls admitted (running or queued) per worker by default.
MAX_ANALYSIS = 8
HEALTH_THREADS = 4
SHED_THREADS = 8
#: Most threads the health and shed pools grow to while clients that send no request hold some.
MAX_EXTRA_THREADS = 64
_ENGINE_STREAMS = frozenset(
    services.path(name) for name, method in services.METHODS.items()
    if method.client_streaming or method.server_streaming)
_ANALYSIS_METHODS = frozenset(
    services.path(name) for name, method in services.METHODS.items()
    if method.containing_service.full_name == services.ANALYSIS)
# which admission count a kind takes (engine streams count as engine calls)
_COUNTED = {ENGINE: ENGINE, ENGINE_STREAM: ENGINE, STREAM: STREAM, ANALYSIS: ANALYSIS}
#: Engine calls running the engine at once per worker. The work is CPU-bound under one GIL, but
#: each call's thread also waits for gRPC's thread to hand it the request and take its answer,
#: so a few more threads than one keep the GIL busy: with the server on one CPU and 32 calls in
#: flight, Act of a step read 0.53x Health at 1 thread, 0.64x at 2, 0.71-0.73x at 4, 0.77x at 6
#: and 0.76x at 8 (docs/performance.md). More threads cost the health checks answered beside them
#: a little (median 1.5 ms at 2 threads, 3.5 ms at 6, under that load).
ENGINE_THREADS = 6
#: Seconds an engine *stream*'s thread, and the HTTP port, wait for the request (5 s, Hypercorn's
#: keep-alive and handshake bound).
BODY_SECONDS = 5.0
#: Seconds a unary engine call's thread waits for its request message before the call is
#: cancelled: clients send it with the headers, so a call without it after this is a client that
#: sends nothing (header-only streams once held the admission for the whole 5 s).
ENGINE_BODY_SECONDS = 0.5
#: When the admission is full, an admitted unary engine call whose request has not come this
#: long after its thread started waiting is cancelled to make room for the newcomer.
EVICT_AFTER = 0.2
#: Seconds a call over the admission limit waits for room while admitted calls wait for their
#: requests (the engine body timeout and one watchdog period): then it is shed.
READMIT_SECONDS = ENGINE_BODY_SECONDS + 0.25
_READMIT_POLL = 0.02
#: The same for health checks and shed calls.
QUICK_BODY_SECONDS = 1.0
#: Kinds of platform streams, each with its own ``max_streams`` (health Watch, reflection).
STREAM_KINDS = 2
_WATCH_PERIOD = 0.25
# the most one count of the waits adds: twice the top-up period it runs at
_MAX_STEP = 2 * call_pool.HELD_AFTER
# the call pools' threads held by late requests are replaced this often
_TOP_UP_PERIOD = call_pool.HELD_AFTER


@dataclass(eq=False)
class Ticket:
    """One call's admission: its kind, whether it was shed, and when its request arrived."""

    kind: str
    method: str
    call: Any = None
    shed: bool = False
    running_since: float | None = None
    arrived: bool = False
    cancelled: bool = False
    done: bool = field(default=False)
    body_seconds: float = BODY_SECONDS
    slots: Slots | None = None  # engine calls: take one to run the engine
    counted: str | None = None  # the admission count it took, if any
    #: seconds its thread has waited for the request, as the watchdog's ticks count them: time
    #: the worker was stalled (GC, CPU throttling) counts one tick, never the whole stall
    waited: float = 0.0


class Slots:
    """A counting semaphore whose waiters also wake when their call ends (cancelled, deadline).

    A lock and ints rather than ``threading.BoundedSemaphore``, which is Python code around a
    ``Condition``: every engine call takes and releases slots, so this is on the hot path.
    """

    def __init__(self, count: int) -> None:
        self._count = count
        self._free = count
        self._waiters = 0  # release() notifies only when someone waits (notify is Python code)
        # try_take and release hold the lock itself: a Condition's `with` is a Python call more
        # (0.17 us each; an engine call makes four)
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)

    def try_take(self) -> bool:
        """Take a slot if one is free now, without waiting; whether one was taken."""
        with self._lock:
            if self._free == 0:
                return False
            self._free -= 1
            return True

    def taken(self) -> int:
        """Slots taken now (read without the lock: a figure for a gauge)."""
        return self._count - self._free

    def take(self, alive: Callable[[], bool], timeout: Callable[[], float]) -> bool:
        """Wait for a slot while ``alive()`` and ``timeout()`` (seconds left) > 0; whether one was
        taken. Wake the waiters with :meth:`wake` when a call ends."""
        with self._cond:
            while self._free == 0:
                left = timeout()
                if left <= 0 or not alive():
                    return False
                self._waiters += 1
                try:
                    self._cond.wait(min(left, 1.0))
                finally:
                    self._waiters -= 1
            self._free -= 1
            return True

    def release(self) -> None:
        """:raises ValueError: more released than taken (a bug), as ``BoundedSemaphore`` does."""
        with self._lock:
            if self._free >= self._count:
                raise ValueError("released more slots than were taken")
            self._free += 1
            if self._waiters:
                self._cond.notify()

    def wake(self) -> None:
        with self._cond:
            self._cond.notify_all()


_local = threading.local()
# what submit returns for a call held until its request arrives (a done future adds no callbacks)
_HANDED_OVER: Future[Any] = Future()
_HANDED_OVER.set_result(None)


def current() -> Ticket | None:
    """The ticket of the call this thread is running, if it came through an executor here."""
    return getattr(_local, "ticket", None)


def mark_arrived() -> None:
    """The request has been read and the handler is starting: the watchdog leaves it alone."""
    ticket = current()
    if ticket is not None:
        ticket.arrived = True


_KINDS: dict[str, str] = {}  # kind_of per method seen, up to _MAX_KINDS methods (clients send any name)
_MAX_KINDS = 256


def kind_of(method: str) -> str:
    """``engine``, ``analysis`` (AnalysisService), ``engine-stream`` (ValidateMatch), ``health``
    (unary Check) or ``stream`` (the other platform services)."""
    kind = _KINDS.get(method)
    if kind is None:
        if method == HEALTH_CHECK:
            kind = HEALTH
        elif method in _ANALYSIS_METHODS:
            kind = ANALYSIS
        elif method in _ENGINE_STREAMS:
            kind = ENGINE_STREAM
        else:
            kind = STREAM if split_method(method)[0] in OPS_SERVICES else ENGINE
        if len(_KINDS) < _MAX_KINDS:
            _KINDS[method] = kind
    return kind


def _method_and_call(args: tuple[Any, ...]) -> tuple[str, Any]:
    # grpc._server passes the call's rpc_event; a registered method's name is its tag (the
    # call details then have no method), a generic handler's is in the call details
    for arg in args:
        details = getattr(arg, "call_details", None)
        if details is not None:
            method = details.method or getattr(arg, "tag", None) or ""
            if isinstance(method, bytes):
                method = method.decode("utf-8", "replace")
            return str(method), getattr(arg, "call", None)
    return "", None


class AdmissionExecutor(Executor):
    """The server's executor: see the module docstring.

    :param max_admitted: engine calls admitted (running or queued) at once.
    :param max_streams: streaming calls open at once.
    :param engine_threads: engine calls running the engine at once (at most ``max_admitted``).
    :param body_seconds: cancel a call whose request has not arrived this long after its thread
        started waiting for it; 0 turns the watchdog off.
    :param max_analysis: AnalysisService calls admitted (running or queued) at once.
    :param analysis_threads: AnalysisService calls running at once (one per analysis process).
    """

    def __init__(self, max_admitted: int, max_streams: int, *, engine_threads: int = ENGINE_THREADS,
                 body_seconds: float = BODY_SECONDS, max_analysis: int = MAX_ANALYSIS,
                 analysis_threads: int = ANALYSIS_THREADS) -> None:
        self.max_admitted = max_admitted
        self.max_streams = max_streams
        self.body_seconds = body_seconds
        self._lock = threading.Lock()
        self._admitted = {ENGINE: 0, STREAM: 0, ANALYSIS: 0}
        # the platform streams have a budget per kind (health Watch, reflection: limits.py)
        self._limits = {ENGINE: max_admitted, STREAM: max_streams * STREAM_KINDS, ANALYSIS: max(1, max_analysis)}
        self._running: dict[int, Ticket] = {}  # thread -> the call it runs (every running call)
        # Pools of a few threads that add one per thread held by a call whose request is late
        # (tavla.server.admission.pool); streams hold their thread for as long as they last: one each.
        self.engine_pool = call_pool.CallPool(max(1, min(engine_threads, max_admitted)), max(1, max_admitted),
                                              self._held, "tavla-rpc")
        health_pool = call_pool.CallPool(HEALTH_THREADS, MAX_EXTRA_THREADS, self._held, "tavla-health")
        self.health_pool = health_pool  # the worker's heartbeat answers its own health here too
        self._shed_pool = call_pool.CallPool(SHED_THREADS, MAX_EXTRA_THREADS, self._held, "tavla-shed")
        analysis_threads = max(1, analysis_threads)
        # a thread for every admitted analysis call: they wait for one of the analysis_threads
        # slots on it, where their deadline is watched and a bad request is refused at once
        analysis_admitted = max(analysis_threads, max_analysis)
        self.analysis_pool = call_pool.CallPool(analysis_admitted, analysis_admitted, self._held, "tavla-analysis")
        self._call_pools = (self.engine_pool, health_pool, self._shed_pool, self.analysis_pool)
        self._pools: dict[str, ThreadPoolExecutor | call_pool.CallPool] = {
            ENGINE: self.engine_pool,
            ANALYSIS: self.analysis_pool,
            ENGINE_STREAM: ThreadPoolExecutor(max(1, max_admitted), "tavla-rpc-stream"),
            HEALTH: health_pool,
            STREAM: ThreadPoolExecutor(max(1, max_streams * STREAM_KINDS), "tavla-stream"),
        }
        self.engine_slots = Slots(max(1, min(engine_threads, max_admitted)))
        self.analysis_slots = Slots(analysis_threads)
        self._closed = threading.Event()
        self.arrivals = arrivals.Arrivals()
        self.shed_total = 0
        self.seen: collections.Counter[str] = collections.Counter()  # calls per kind
        self.cut_off_total = 0
        self._last_count: float | None = None
        threading.Thread(target=self._watch, name="tavla-body-watchdog", daemon=True).start()

    def admitted(self, kind: str = ENGINE) -> int:
        """Calls of ``kind`` admitted now (running or queued)."""
        with self._lock:
            return self._admitted.get(kind, 0)

    def running(self) -> int:
        """Calls whose handler is running now (any kind)."""
        with self._lock:
            return len(self._running)

    def wait_idle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every running handler to return; whether they did."""
        end = time.monotonic() + timeout
        while self.running():
            if time.monotonic() >= end:
                return False
            time.sleep(0.02)
        return True

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        method, call = _method_and_call(args)
        ticket = Ticket(kind_of(method), method, call)
        self.seen[ticket.kind] += 1
        if ticket.kind == ENGINE or ticket.kind == ANALYSIS:
            ticket.slots = self.engine_slots if ticket.kind == ENGINE else self.analysis_slots
            ticket.body_seconds = min(self.body_seconds, ENGINE_BODY_SECONDS)
            if not kwargs and arrivals.holdable(args):
                if self._closed.is_set():
                    raise RuntimeError("cannot schedule new calls after shutdown")
                # held, it takes no thread nor admission: gRPC's one thread, behind a flood, may
                # read a request sent with its headers late, so it gets the streams' timeout
                ticket.body_seconds = self.body_seconds
                self.arrivals.hold(ticket, args, lambda held, arrived: self._arrived(fn, held, arrived))
                # gRPC's backstop counts a call until this future is done: a held call takes no
                # thread, and is bounded per connection (arrivals.PER_PEER) and by the admission
                return _HANDED_OVER
        elif ticket.kind != ENGINE_STREAM:
            ticket.body_seconds = min(self.body_seconds, QUICK_BODY_SECONDS)
        return self._admit(ticket, fn, args, kwargs)

    def _arrived(self, fn: Callable[..., Any], held: arrivals.Held, arrived: bool) -> None:
        # on gRPC's thread (the read's completion): nothing may escape into its loop
        ticket = held.ticket
        try:
            if arrived:
                ticket.arrived = True
                self._admit(ticket, fn, held.args, {})
            else:  # ended without a request (cancelled, evicted, half-closed): gRPC finishes it
                ticket.arrived, ticket.body_seconds = True, min(self.body_seconds, QUICK_BODY_SECONDS)
                self._shed_pool.submit(self._runner(ticket, fn, held.args, {}))
        except RuntimeError:  # shut down: gRPC's stop ends the call
            pass
        except Exception:
            log.exception("cannot dispatch a call", method=ticket.method)

    def _admit(self, ticket: Ticket, fn: Callable[..., Any], args: tuple[Any, ...],
               kwargs: dict[str, Any]) -> Future[Any]:
        pool: ThreadPoolExecutor | call_pool.CallPool = self._pools[ticket.kind]
        counted = _COUNTED.get(ticket.kind)
        evicted = None
        with self._lock:
            if counted is not None:
                if self._admitted[counted] >= self._limits[counted] and counted == ENGINE:
                    evicted = self._evict_locked()
                if self._admitted[counted] >= self._limits[counted]:
                    ticket.shed = True
                    ticket.body_seconds = min(self.body_seconds, QUICK_BODY_SECONDS)
                    self.shed_total += 1
                    pool = self._shed_pool
                else:
                    self._admitted[counted] += 1
                    ticket.counted = counted
        if evicted is not None:
            self._cancel(evicted, "admission full: a call whose request never came made room")
        try:
            return pool.submit(self._runner(ticket, fn, args, kwargs))
        except RuntimeError:  # shut down: give the admission back
            with self._lock:
                self._give_back(ticket)
            raise

    def _runner(self, ticket: Ticket, fn: Callable[..., Any], args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> Callable[[], Any]:
        def run() -> Any:
            _local.ticket = ticket
            ticket.running_since = time.monotonic()
            me = threading.get_ident()
            with self._lock:
                self._running[me] = ticket
            try:
                if ticket.shed and ticket.kind == ENGINE and not ticket.arrived:
                    self._readmit(ticket)
                return fn(*args, **kwargs)
            finally:
                _local.ticket = None
                with self._lock:
                    del self._running[me]
                    ticket.done = True
                    self._give_back(ticket)

        return run

    def _give_back(self, ticket: Ticket) -> None:
        # the admission ``ticket`` took in submit, if any; call with the lock held
        if ticket.counted is not None:
            self._admitted[ticket.counted] -= 1
            ticket.counted = None

    def _readmit(self, ticket: Ticket) -> None:
        # A shed unary call waits up to READMIT_SECONDS for room while admitted calls sit waiting
        # for requests that may never come (they are evicted or cut off by then); under a flood
        # of real calls none waits so, and the call is answered RESOURCE_EXHAUSTED at once.
        end = time.monotonic() + READMIT_SECONDS
        while True:
            evicted = None
            with self._lock:
                if self._admitted[ENGINE] >= self._limits[ENGINE]:
                    evicted = self._evict_locked()
                if self._admitted[ENGINE] < self._limits[ENGINE]:
                    self._admitted[ENGINE] += 1
                    ticket.counted, ticket.shed = ENGINE, False
                    ticket.body_seconds = min(self.body_seconds, ENGINE_BODY_SECONDS)
                    ticket.running_since, ticket.waited = time.monotonic(), 0.0
                # room may come only from admitted calls already waiting for their requests longer
                # than a client that sent one takes (HELD_AFTER): under a flood of real calls none
                now = time.monotonic()
                waiting = any(t.counted == ENGINE and not t.arrived and t.running_since is not None
                              and now - t.running_since > call_pool.HELD_AFTER
                              for t in self._running.values() if t is not ticket)
            if evicted is not None:
                self._cancel(evicted, "admission full: a call whose request never came made room")
            if not ticket.shed or not waiting or ticket.cancelled or time.monotonic() >= end:
                return
            time.sleep(_READMIT_POLL)

    def _evict_locked(self) -> Ticket | None:
        # the oldest admitted unary engine call still waiting for its request past EVICT_AFTER:
        # its admission is given back now, and the caller cancels it (call with the lock held)
        now = time.monotonic()
        stalled = [t for t in self._running.values()
                   if t.kind == ENGINE and t.counted == ENGINE and not t.arrived and not t.cancelled
                   and t.running_since is not None and t.waited > EVICT_AFTER]
        if not stalled:
            return None
        victim = min(stalled, key=lambda t: t.running_since or now)
        victim.cancelled = True
        self._give_back(victim)
        return victim

    def _cancel(self, ticket: Ticket, why: str) -> None:
        self.cut_off_total += 1
        log.warning(why, method=ticket.method, seconds=ticket.body_seconds)
        try:
            ticket.call.cancel()
        except Exception:  # already finished
            pass

    def _held(self, ident: int, now: float) -> bool:
        # the call pools' question: is that thread waiting too long for its call's request?
        ticket = self._running.get(ident)
        return (ticket is not None and not ticket.arrived and ticket.running_since is not None
                and now - ticket.running_since > call_pool.HELD_AFTER)

    def _watch(self) -> None:
        every = max(1, round(_WATCH_PERIOD / _TOP_UP_PERIOD))
        tick = 0
        while not self._closed.wait(_TOP_UP_PERIOD):
            for pool in self._call_pools:
                pool.top_up()
            tick += 1
            late = self.count_waits(time.monotonic(), cut=self.body_seconds > 0 and not tick % every)
            for ticket in late:
                self._cancel(ticket, "request message not received in time; call cancelled")

    def count_waits(self, now: float, *, cut: bool = True) -> list[Ticket]:
        """Add the time since the last count to each running call still waiting for its request,
        at most :data:`_MAX_STEP` (a stalled worker's watchdog wakes late: its stall is not the
        client's); with ``cut``, mark and return those past their ``body_seconds``."""
        last, self._last_count = self._last_count, now
        step = min(max(now - last, 0.0), _MAX_STEP) if last is not None else 0.0
        late = []
        with self._lock:
            for t in self._running.values():
                if t.arrived or t.cancelled or t.running_since is None:
                    continue
                t.waited += min(step, max(now - t.running_since, 0.0))
                if cut and t.waited > t.body_seconds:
                    t.cancelled = True
                    late.append(t)
        for held in self.arrivals.count_waits(now, step, cut=cut):  # calls still without a thread
            held.ticket.cancelled = True
            late.append(held.ticket)
        return late

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed.set()
        for pool in (*self._pools.values(), self._shed_pool):
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)
