"""A thread pool for calls: a few threads that take queued calls, and more only while some of
them are held up by calls whose request has not arrived (the admission executor's engine, health
and shed pools).

gRPC Python hands a call to the executor before its request is read, and the thread that runs it
first waits for the request. A pool with a thread per call (what the server had) makes every call
a thread wake-up and every engine call a contender for the GIL; with 32 calls in flight a worker
spent more CPU switching threads than answering. A few threads that take calls from a queue
find the request already there and run calls back to back, as the health checks' pool does.

A client that sends headers and then nothing would hold such a thread until the admission
watchdog cuts its call (seconds), and a few such clients would stall every engine call. So the
pool counts a thread as *held* once its call has waited :data:`HELD_AFTER` seconds for its request
(:class:`~tavla.server.admission.policy.Ticket` says when it started and whether the request arrived),
and :meth:`CallPool.top_up` (called by the watchdog) starts a thread for each held one while
calls are queued, up to ``max_threads``. Threads beyond ``threads`` leave after
:data:`IDLE_SECONDS` without work.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

#: Seconds a thread may wait for its call's request before the pool stops counting it as working
#: (clients send a unary request with its headers; the watchdog cancels the call later).
HELD_AFTER = 0.05
#: Seconds an extra thread waits for work before it leaves.
IDLE_SECONDS = 2.0

_STOP = object()


class CallPool:
    """Runs submitted functions on ``threads`` threads, plus one for each thread held by a call
    whose request is late, up to ``max_threads``.

    :param threads: threads that always run (at least 1).
    :param max_threads: most threads at once, extra ones included.
    :param held: ``held(thread_ident, now)``: whether that thread's call has waited too long for
        its request (the admission executor's view of its tickets).
    """

    def __init__(self, threads: int, max_threads: int, held: Callable[[int, float], bool],
                 name: str = "tavla-rpc") -> None:
        self.threads = max(1, threads)
        self.max_threads = max(self.threads, max_threads)
        self._held = held
        self._name = name
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._workers: dict[int, threading.Thread] = {}  # ident -> thread
        self._starting = 0
        self._closed = False
        for _ in range(self.threads):
            self._start(extra=False)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Queue ``fn(*args, **kwargs)``; its future.

        :raises RuntimeError: the pool is shut down.
        """
        if self._closed:
            raise RuntimeError("cannot schedule new calls after shutdown")
        future: Future[Any] = Future()
        self._queue.put((future, fn, args, kwargs))
        return future

    def size(self) -> int:
        """Threads running now."""
        with self._lock:
            return len(self._workers) + self._starting

    def top_up(self) -> int:
        """Start a thread for each held thread while calls are queued; how many were started."""
        if self._closed or self._queue.empty():
            return 0
        now = time.monotonic()
        with self._lock:
            idents = list(self._workers)
            running = len(idents) + self._starting
        working = running - sum(1 for ident in idents if self._held(ident, now))
        want = min(self.threads - working, self._queue.qsize(), self.max_threads - running)
        for _ in range(max(0, want)):
            self._start(extra=True)
        return max(0, want)

    def _start(self, extra: bool) -> None:
        with self._lock:
            self._starting += 1
        thread = threading.Thread(target=self._work, args=(extra,), name=f"{self._name}-{self.size()}",
                                  daemon=True)
        thread.start()

    def _work(self, extra: bool) -> None:
        me = threading.get_ident()
        with self._lock:
            self._starting -= 1
            self._workers[me] = threading.current_thread()
        try:
            while True:
                try:
                    item = self._queue.get(timeout=IDLE_SECONDS) if extra else self._queue.get()
                except queue.Empty:
                    return  # an extra thread with nothing to do
                if item is _STOP:
                    return
                future, fn, args, kwargs = item
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:  # handed to the future, as ThreadPoolExecutor does
                    future.set_exception(exc)
                else:
                    future.set_result(result)
        finally:
            with self._lock:
                self._workers.pop(me, None)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls; queued ones still run unless ``cancel_futures``."""
        self._closed = True
        if cancel_futures:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not _STOP:
                    item[0].cancel()
        with self._lock:
            threads = list(self._workers.values())
        for _ in range(len(threads) + self._starting):
            self._queue.put(_STOP)
        if wait:
            for thread in threads:
                if thread is not threading.current_thread():
                    thread.join()
