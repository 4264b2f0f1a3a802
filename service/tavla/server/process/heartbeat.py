"""A worker's heartbeat to its supervisor (:mod:`~tavla.server.process.workers`).

Every :data:`PERIOD` seconds a worker answers its own health check on its health threads (the
same pool that answers probes) and writes one byte to a pipe the supervisor reads. A worker
that stops answering (the GIL held by native code that never returns, a deadlock, SIGSTOP)
stops beating, and the supervisor kills and replaces it (``--worker-health-seconds``).
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


def start(submit: Callable[[Callable[[], Any]], Future[Any]], check: Callable[[], Any],
          stopping: threading.Event) -> threading.Thread | None:
    """Beat on the supervisor's pipe while ``check`` answers through ``submit`` (the health pool);
    None when this process has no supervisor."""
    fd_text = os.environ.get(ENV_FD)
    if not fd_text:
        return None
    fd = int(fd_text)

    def beat() -> None:
        while not stopping.wait(PERIOD):
            try:
                submit(check).result(timeout=PERIOD * 10)
                os.write(fd, b".")
            except (BrokenPipeError, RuntimeError):  # the supervisor is gone, or the pool closed
                return
            except Exception:  # noqa: BLE001 - a late answer: no beat this time
                continue

    thread = threading.Thread(target=beat, name="tavla-heartbeat", daemon=True)
    thread.start()
    return thread
