"""A worker's heartbeat to its supervisor (:mod:`~tavla.server.process.workers`).

Every :data:`PERIOD` seconds a worker writes one byte to a pipe the supervisor reads: while it
starts (imports done, server not yet serving) :data:`STARTING`, which says only that the
process runs Python; once serving :data:`SERVING`, after answering its own health check on its
health threads (the same pool that answers probes). A worker that stops beating (the GIL held
by native code that never returns, a deadlock, SIGSTOP) is killed and replaced by the
supervisor (``--worker-health-seconds``); one that starts slowly, as on a loaded machine, keeps
beating and is given longer (``workers.START_LIMIT``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

#: The pipe's write end, from the supervisor; internal.
ENV_FD = "TAVLA_WORKER_HEARTBEAT_FD"
#: Seconds between heartbeats.
PERIOD = 1.0
#: The beat of a worker still starting.
STARTING = b"s"
#: The beat of a worker that has answered its own health check.
SERVING = b"."


class Heart:
    """Beats on the pipe ``fd``: :data:`STARTING` from :meth:`start`, :data:`SERVING` after
    :meth:`serving`, until :meth:`stop`."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._probe: Callable[[], Any] | None = None
        self._stopping = threading.Event()
        self.thread: threading.Thread | None = None

    @classmethod
    def from_env(cls) -> Heart | None:
        """The heart of a worker (:data:`ENV_FD` set by its supervisor); None otherwise."""
        fd_text = os.environ.get(ENV_FD)
        return cls(int(fd_text)) if fd_text else None

    def start(self) -> None:
        """Beat :data:`STARTING` from a daemon thread (once; later calls do nothing)."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="tavla-heartbeat", daemon=True)
            self.thread.start()

    def serving(self, submit: Callable[[Callable[[], Any]], Future[Any]], check: Callable[[], Any]) -> None:
        """From now on beat :data:`SERVING`, each time ``check`` has answered through ``submit``
        (the health pool) within 10 periods."""
        self._probe = lambda: submit(check).result(timeout=PERIOD * 10)

    def stop(self) -> None:
        self._stopping.set()

    def beat(self) -> bool:
        """One beat (the thread's loop; tests call it). False once the supervisor or the health
        pool is gone."""
        probe = self._probe
        try:
            if probe is not None:
                probe()
            os.write(self._fd, STARTING if probe is None else SERVING)
        except (BrokenPipeError, RuntimeError):  # the supervisor is gone, or the pool closed
            return False
        except Exception:  # noqa: BLE001 - a late answer: no beat this time
            pass
        return True

    def _run(self) -> None:
        while not self._stopping.wait(PERIOD):
            if not self.beat():
                return
