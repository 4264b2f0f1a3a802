"""Analysis in child processes that a deadline can stop (docs/analysis.md#isolation).

The engine is native code: a call that never returns (bgsage's match equity code for a side
2^30 away did) holds its thread and the GIL, and a thread cannot be stopped. A process can. So
a server runs every analysis call in one of ``processes`` children (:class:`EnginePool`), and
waits for the answer without the GIL; a call that passes its deadline has its child killed
(SIGKILL) and a new one started in its place, and the caller gets :class:`Overrun`.

The children are ``spawn``-ed (fresh interpreters: gRPC must not be forked), each by one
long-lived thread of the pool, and each asks Linux to SIGKILL it when that thread's process
ends (``PR_SET_PDEATHSIG``), so no child outlives its server, however the server ends. Work
crosses as pickled core values (positions, rulesets, levels), never protobufs.

A child is also replaced after :data:`MAX_CALLS` calls (recycled, as a web server recycles its
workers after N requests): whatever the native engine's heap keeps between calls cannot grow
without bound. A call can send progress to its caller while it runs (:func:`report`).

``processes=0`` runs the calls in the calling thread, as the CLI does: no isolation.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future
from multiprocessing.connection import Connection
from typing import Any

#: Seconds a child may take past its call's deadline to answer before it is killed: the
#: analysis checks its own deadline between decisions and stops with :class:`Overrun`, which
#: keeps the child (and its loaded nets).
DEADLINE_MARGIN = 0.5
#: Seconds between checks of the caller's ``active()`` while waiting for an answer.
_POLL = 0.1
#: Calls a child answers before it is replaced by a fresh one (bounds its memory; a start costs
#: about 1 s of CPU, once per this many calls: docs/analysis.md#isolation).
MAX_CALLS = 2000
_CONTEXT = multiprocessing.get_context("spawn")
_sink = threading.local()  # this thread's call's progress callback


def report(value: Any) -> None:
    """Send ``value`` to the running call's ``progress`` callback (:meth:`EnginePool.call`), from
    the function a child runs (or the caller's thread, without isolation); nothing when the
    call has none. ``value`` must pickle."""
    send = getattr(_sink, "send", None)
    if send is not None:
        send(value)


class Overrun(Exception):
    """The call's deadline passed before its answer (its child was killed if it ran on)."""


class Cancelled(Exception):
    """The caller went away while its call ran; the child was killed to stop the work."""


class EngineLost(Exception):
    """The child running the call died (a crash in native code, or the pool closed)."""


class _Child:
    def __init__(self, process: Any, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.calls = 0
        self._lock = threading.Lock()
        self._killed = False

    def stop(self) -> None:
        """Kill the process but leave its pipe open: a call's thread may be reading it, and sees
        it end (then it kills the child itself, closing the pipe)."""
        if self.process.is_alive():
            self.process.kill()

    def kill(self) -> None:
        """Kill the process, reap it and close its pipe, once: the pool's close and a call's
        thread may both get here, and a second close of the pipe's descriptor would close
        whatever reused its number (or raise EBADF in the stopping server)."""
        with self._lock:
            if self._killed:
                return
            self._killed = True
        self.stop()
        self.process.join(timeout=5.0)
        self.conn.close()


class EnginePool:
    """``processes`` children that run analysis calls one at a time each.

    :param processes: children (0: run calls in the caller's thread).
    :param max_calls: calls a child answers before it is replaced (:data:`MAX_CALLS`).
    """

    def __init__(self, processes: int = 1, max_calls: int = MAX_CALLS) -> None:
        self.processes = max(0, processes)
        self.max_calls = max(1, max_calls)
        self._free = threading.Semaphore(max(1, self.processes))
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a child became idle, or one died
        self._idle: list[_Child] = []
        self._all: set[_Child] = set()
        self._starting = 0
        self._closed = False
        self._spawns: queue.SimpleQueue[Future[_Child] | None] = queue.SimpleQueue()
        self._spawner: threading.Thread | None = None
        #: children killed so far (an overrun, a cancelled call, a crash), for logs and tests
        self.replaced = 0
        #: children retired after :attr:`max_calls` calls
        self.recycled = 0

    def pids(self) -> list[int]:
        """The running children's process ids."""
        with self._lock:
            return [c.process.pid for c in self._all if c.process.pid is not None]

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], *, deadline: float,
             active: Callable[[], bool] = lambda: True, progress: Callable[[Any], None] | None = None) -> Any:
        """``fn(*args, deadline)`` in a child; its result, or the exception it raised.

        :param fn: a module-level function (pickled by reference); ``deadline`` is a
            ``time.monotonic()`` value, ``math.inf`` for none.
        :param active: False once the caller has gone (then the call stops).
        :param progress: called, in the caller's thread and in order, with each value ``fn``
            sends by :func:`report` before its result.
        :raises Overrun: the deadline passed.
        :raises Cancelled: ``active()`` turned False.
        :raises EngineLost: the child died.
        """
        if self.processes == 0:
            _sink.send = progress
            try:
                return fn(*args, deadline)
            finally:
                _sink.send = None
        run = self.stream(fn, args, deadline=deadline, active=active, reports=progress is not None)
        while True:
            try:
                value = next(run)
            except StopIteration as done:
                return done.value
            if progress is not None:
                try:
                    progress(value)
                except BaseException:  # the caller gives up mid-call: its child is stopped
                    run.close()
                    raise

    def stream(self, fn: Callable[..., Any], args: tuple[Any, ...], *, deadline: float,
               active: Callable[[], bool] = lambda: True, reports: bool = True) -> Generator[Any, None, Any]:
        """:meth:`call` as a generator: yields each value ``fn`` reports (:func:`report`), in
        order, as it comes, and returns ``fn``'s result (``StopIteration.value``). Closing it
        before the end stops the call (its child is replaced). Without children, the reports come
        after ``fn`` has returned. Raises as :meth:`call`.

        :param reports: whether ``fn``'s reports are sent at all (False: none is yielded).
        """
        if self.processes == 0:
            told: list[Any] = []
            _sink.send = told.append if reports else None
            try:
                result = fn(*args, deadline)
            finally:
                _sink.send = None
            yield from told
            return result
        while not self._free.acquire(timeout=_POLL):  # every child busy: wait for one, in time
            if time.monotonic() >= deadline:
                raise Overrun("no analysis process became free before the deadline")
            if not active():
                raise Cancelled("the caller went away while waiting for an analysis process")
        try:
            child = self._take(deadline)
            try:
                child.conn.send((fn, args, deadline, reports))
                while True:
                    while not child.conn.poll(min(_POLL, max(0.0, deadline + DEADLINE_MARGIN - time.monotonic()))):
                        if time.monotonic() >= deadline + DEADLINE_MARGIN:
                            self._replace(child)
                            raise Overrun("the analysis ran past its deadline; its process was stopped")
                        if not active():
                            self._replace(child)
                            raise Cancelled("the caller went away; the analysis process was stopped")
                    kind, payload = child.conn.recv()
                    if kind != "progress":
                        break
                    try:
                        yield payload
                    except BaseException:  # closed or thrown into mid-call: its child is still busy
                        self._replace(child)
                        raise
            except (EOFError, OSError, BrokenPipeError):
                self._replace(child)
                raise EngineLost("the analysis process stopped unexpectedly; it has been replaced") from None
            child.calls += 1
            if child.calls >= self.max_calls:
                self._replace(child, recycled=True)
            else:
                self._park_child(child)
            if kind == "ok":
                return payload
            raise _rebuild(payload)
        finally:
            self._free.release()

    def start(self) -> None:
        """Start every child now rather than on the first calls."""
        with self._lock:
            missing = self.processes - len(self._all) - self._starting
            self._starting += max(0, missing)
        for future in [self._spawn() for _ in range(missing)]:
            self._park_child(future.result())

    def close(self) -> None:
        """Kill every child (the server is stopping); calls still waiting get :class:`EngineLost`.
        A child running a call is only stopped: the call's thread sees its pipe end and closes
        it, so no descriptor is closed under a thread still reading it."""
        with self._changed:
            self._closed = True
            idle = list(self._idle)
            busy = [child for child in self._all if child not in idle]
            self._all.clear()
            self._idle.clear()
            self._changed.notify_all()
        for child in idle:
            child.kill()
        for child in busy:
            child.stop()
        self._spawns.put(None)

    def _take(self, deadline: float) -> _Child:
        """An idle child; a new one while there are fewer than ``processes``; else wait for the
        one starting (a successor)."""
        with self._changed:
            while not self._idle:
                if self._closed:
                    raise EngineLost("the server is stopping")
                if len(self._all) + self._starting < self.processes:
                    self._starting += 1
                    break
                if time.monotonic() >= deadline:
                    raise Overrun("no analysis process was ready before the deadline")
                self._changed.wait(_POLL)
            else:
                return self._idle.pop()
        return self._spawn().result()

    def _replace(self, child: _Child, recycled: bool = False) -> None:
        """Kill ``child`` and start its successor at once (it is ready for the next call);
        ``recycled``: it was idle, at :attr:`max_calls`."""
        child.kill()
        with self._changed:
            self._all.discard(child)
            if recycled:
                self.recycled += 1
            else:
                self.replaced += 1
            if self._closed:
                return
            self._starting += 1
        self._spawn().add_done_callback(self._park)

    def _park(self, future: Future[_Child]) -> None:
        if future.exception() is None:
            self._park_child(future.result())

    def _park_child(self, child: _Child) -> None:
        with self._changed:
            if child in self._all:
                self._idle.append(child)
                self._changed.notify()

    def _spawn(self) -> Future[_Child]:
        """Start a child on the spawner thread; the caller has counted it in ``_starting``."""
        future: Future[_Child] = Future()
        with self._lock:
            if self._spawner is None:  # one thread for the pool's life: the children's death signal is tied to it
                self._spawner = threading.Thread(target=self._spawn_loop, name="tavla-analysis-spawner", daemon=True)
                self._spawner.start()
        self._spawns.put(future)
        return future

    def _spawn_loop(self) -> None:
        while (future := self._spawns.get()) is not None:
            try:
                ours, theirs = _CONTEXT.Pipe()
                process = _CONTEXT.Process(target=_child_main, args=(theirs, os.getpid()),
                                           name="tavla-analysis", daemon=True)
                process.start()
                theirs.close()
                child = _Child(process, ours)
                with self._changed:
                    self._starting -= 1
                    closed = self._closed
                    if not closed:
                        self._all.add(child)
                if closed:
                    child.kill()
                    future.set_exception(EngineLost("the server is stopping"))
                else:
                    future.set_result(child)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                with self._changed:
                    self._starting -= 1
                    self._changed.notify_all()
                future.set_exception(exc)


def _flatten(exc: BaseException) -> tuple[type[BaseException], tuple[Any, ...], dict[str, Any]]:
    # exceptions whose __init__ takes other arguments than args (InvalidInputError) do not
    # unpickle as themselves: send the class, args and attributes, rebuild without __init__
    return type(exc), exc.args, dict(getattr(exc, "__dict__", {}))


def _rebuild(flat: tuple[type[BaseException], tuple[Any, ...], dict[str, Any]]) -> BaseException:
    cls, args, state = flat
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(state)
    return exc


def _die_with_parent(parent: int) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the call above
        os._exit(1)


def _child_main(conn: Connection, parent: int) -> None:
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's ^C is the server's to handle
    import pickle

    def send_progress(value: Any) -> None:
        conn.send(("progress", value))

    while True:
        try:
            fn, args, deadline, wants_progress = conn.recv()
        except (EOFError, OSError):
            return
        _sink.send = send_progress if wants_progress else None
        try:
            answer: tuple[str, Any] = ("ok", fn(*args, deadline))
        except Exception as exc:  # noqa: BLE001 - the caller re-raises it
            answer = ("err", _flatten(exc))
        try:
            data = pickle.dumps(answer)
        except Exception as exc:  # noqa: BLE001
            data = pickle.dumps(("err", (RuntimeError, (f"unpicklable answer: {exc!r}",), {})))
        conn.send_bytes(data)
