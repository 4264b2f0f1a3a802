"""Unary calls held, without a thread, until their request message arrives.

gRPC Python hands a call to the executor before its request is read, and its code for a unary
call reads the request on the executor's thread. Counted and queued from then on, clients that
send HEADERS and never a DATA frame took admission and threads from real calls (10 connections
x 300 such streams turned 35-52 % of real calls away). So the executor starts the read itself
(:meth:`Arrivals.hold`): the read completes on gRPC's own thread, and only then is the call
dispatched to admission and a pool, its request already there.

Held calls are bounded apart from the admission: at most :data:`PER_PEER` per connection (the
peer address) before the oldest of that connection held past :data:`MIN_AGE` is cancelled, and
each is cancelled after its body timeout (the watchdog: :meth:`Arrivals.count_waits`). A
cancelled call's read completes empty, and it is dispatched to end (gRPC finishes it).

This reads gRPC's private server module (checked by :func:`holdable`); with a grpcio whose
hand-over differs, calls go to the pools as before and ``tests/reliability`` fails.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

try:
    from grpc import _server as _grpc_server
    from grpc._cython import cygrpc
except ImportError:  # pragma: no cover - a grpcio without them: nothing is held
    _grpc_server = None

#: Calls held at once per connection before the oldest is cancelled: a client's calls are held
#: only until gRPC's thread reads their request, which they send with the headers.
PER_PEER = 64
#: Seconds a held call is safe from being evicted by newer ones on its connection.
MIN_AGE = 0.05


@dataclass(eq=False)
class Held:
    """One call waiting for its request."""

    ticket: Any  # the admission's Ticket
    peer: str
    since: float
    dispatch: Callable[[Held, bool], None] = field(repr=False)
    args: tuple[Any, ...] = ()
    waited: float = 0.0  # as the watchdog's ticks count it
    gone: bool = False  # no longer held (arrived, evicted or late)
    dispatched: bool = False


def holdable(args: tuple[Any, ...]) -> bool:
    """Whether ``args`` (what gRPC passed to ``submit``) is a unary call whose read can start here."""
    return (_grpc_server is not None and len(args) == 7
            and args[0] is getattr(_grpc_server, "_unary_response_in_pool", None))


class Arrivals:
    """The calls held now, by connection."""

    def __init__(self, per_peer: int = PER_PEER, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_peer = per_peer
        self.clock = clock
        self._lock = threading.Lock()
        self._by_peer: dict[str, collections.OrderedDict[int, Held]] = {}
        self.evicted_total = 0

    def count(self) -> int:
        with self._lock:
            return sum(len(calls) for calls in self._by_peer.values())

    def hold(self, ticket: Any, args: tuple[Any, ...], dispatch: Callable[[Held, bool], None]) -> Held:
        """Start reading the request of the call in ``args`` (:func:`holdable`); once it is read,
        or the call ended without one, ``dispatch(held, arrived)`` runs on gRPC's thread, with
        ``held.args`` the arguments to run the call with (reading the request no longer blocks)."""
        rpc_event, state, deserializer = args[1], args[2], args[5]
        try:
            peer = rpc_event.call.peer()
            peer = peer.decode("utf-8", "replace") if isinstance(peer, bytes) else str(peer)
        except Exception:  # no peer: one bucket for them
            peer = ""
        held = Held(ticket, peer, self.clock(), dispatch, (*args[:4], _reader(rpc_event, state), *args[5:]))
        victim = self._add(held)
        if victim is not None:
            self.evicted_total += 1
            cancel(victim)
        on_message = _grpc_server._receive_message(state, rpc_event.call, deserializer)

        def received(event: Any) -> Any:
            result = on_message(event)
            arrived = self._remove(held) and state.request is not None
            _dispatch(held, arrived)
            return result

        with state.condition:
            if _grpc_server._is_rpc_state_active(state):
                rpc_event.call.start_server_batch(
                    (cygrpc.ReceiveMessageOperation(_grpc_server._EMPTY_FLAGS),), received)
                state.due.add(_grpc_server._RECEIVE_MESSAGE_TOKEN)
                return held
        self._remove(held)  # already over: let gRPC finish it
        _dispatch(held, False)
        return held

    def count_waits(self, now: float, step: float, *, cut: bool) -> list[Held]:
        """Add ``step`` seconds (a watchdog tick, at ``now``) to every held call's wait; with
        ``cut``, the calls past their ticket's ``body_seconds``, now no longer held (cancel them)."""
        late = []
        with self._lock:
            for calls in self._by_peer.values():
                for held in calls.values():
                    held.waited += min(step, max(now - held.since, 0.0))
                    if cut and held.waited > held.ticket.body_seconds:
                        late.append(held)
            for held in late:
                self._pop_locked(held)
        return late

    def _add(self, held: Held) -> Held | None:
        with self._lock:
            calls = self._by_peer.setdefault(held.peer, collections.OrderedDict())
            victim = None
            if len(calls) >= self.per_peer:
                oldest = next(iter(calls.values()))
                if held.since - oldest.since >= MIN_AGE:
                    victim = oldest
                    self._pop_locked(oldest)
            calls[id(held)] = held
            return victim

    def _remove(self, held: Held) -> bool:
        with self._lock:
            if held.gone:
                return False
            self._pop_locked(held)
            return True

    def _pop_locked(self, held: Held) -> None:
        held.gone = True
        calls = self._by_peer.get(held.peer)
        if calls is not None:
            calls.pop(id(held), None)
            if not calls:
                del self._by_peer[held.peer]


def cancel(held: Held) -> None:
    """End a call no longer held (evicted, late): its read completes empty on gRPC's thread,
    which dispatches it to end."""
    try:
        held.ticket.call.cancel()
    except Exception:  # already over
        pass


def _dispatch(held: Held, arrived: bool) -> None:
    # once per call (gRPC's thread only: no lock needed)
    if not held.dispatched:
        held.dispatched = True
        held.dispatch(held, arrived)


def _reader(rpc_event: Any, state: Any) -> Callable[[], Any]:
    """What gRPC's unary read does once the read has completed: take the request, or end the call."""

    def read() -> Any:
        with state.condition:
            while True:
                if state.request is not None:
                    request, state.request = state.request, None
                    return request
                if state.client is _grpc_server._CANCELLED or not _grpc_server._is_rpc_state_active(state):
                    return None
                if state.client is _grpc_server._CLOSED:  # half-closed without a request
                    _grpc_server._abort(state, rpc_event.call, cygrpc.StatusCode.unimplemented,
                                        b"a unary call requires exactly one request message")
                    return None
                state.condition.wait()

    return read
