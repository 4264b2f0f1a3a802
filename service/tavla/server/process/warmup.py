"""Loading the bear-off database (:mod:`tavla.core.rules.bearoff_db`) after start-up, without
starving the worker.

Building the tables is about 4 s of pure-Python loops (minutes on a loaded machine). Built in a
thread of the worker, it holds the GIL most of that time: on 2 cores at a load of 40 the worker's
heartbeat (:mod:`~tavla.server.process.heartbeat`) once went 17 s without a beat and the
supervisor replaced the worker, build and all, again and again. So the build runs in a child
process (``python -m tavla.server.process.warmup``) that writes the disk cache, and the worker
only loads the file (about 10 ms). An exclusive lock on a file beside the cache
(``fcntl.flock``) makes the workers of one server, and servers sharing the cache directory,
build it once: the others wait on the lock, not on a clock. A lock dies with its holder, so a
builder that is killed lets the next one in.

Where the cache cannot be written (or the child fails), the worker builds in memory as before.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import structlog

from tavla.server.pipeline import logs
from tavla.server.process import plumbing

log = structlog.get_logger("tavla.server.process.warmup")

#: The lock file's name, in the cache directory.
LOCK_NAME = "bearoff.lock"


def child_command(log_level: str = "info", log_format: str | None = None) -> list[str]:
    """The command that builds the cache in a child process which dies with this one and logs
    as it does."""
    return [sys.executable, "-m", "tavla.server.process.warmup", str(os.getpid()), log_level, log_format or ""]


def warm_bearoff(ready: Callable[[], None], *, command: Sequence[str] | None = None) -> threading.Thread:
    """Load the bear-off database in a daemon thread, building its cache in a child process
    first when there is none (:func:`child_command`); ``ready()`` once it is loaded. Returns at
    once: readiness does not wait for the tables.

    :param command: the child's command (tests); default :func:`child_command`.
    """
    def load() -> None:
        from tavla.core.rules import bearoff_db

        begin = time.perf_counter()
        try:
            _ensure_cache(bearoff_db.cache_path(), list(command or child_command()))
            bearoff_db.get_database()  # from the cache; builds in memory if there is still none
        except Exception:  # the engine works without it; a call that needs it will say why
            log.exception("cannot load the bear-off database")
            return
        ready()
        log.info("bear-off database ready", seconds=round(time.perf_counter() - begin, 3))

    thread = threading.Thread(target=load, name="tavla-bearoff-warmup", daemon=True)
    thread.start()
    return thread


def _ensure_cache(path: Path, command: list[str]) -> None:
    """Unless ``path`` exists: take the lock, and if it still does not exist, run ``command``."""
    if path.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.parent / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        log.warning("cannot lock the bear-off cache; building in this process", error=str(exc))
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # blocks this thread only (the GIL is released)
        if path.exists():  # another process built it while this one waited
            return
        # close_fds (the default) keeps the lock out of the child: it dies with its holder
        status = subprocess.run(command, stdin=subprocess.DEVNULL, check=False).returncode
        if status != 0 or not path.exists():
            log.warning("the bear-off build process failed; building in this process", status=status)
    finally:
        os.close(fd)  # releases the lock


def _main(argv: Sequence[str]) -> int:
    """The child: die with the worker (``argv``: its pid, log level and format), build and cache
    the tables."""
    parent, level, log_format = argv
    plumbing.die_with_parent(int(parent))
    logs.configure(level, log_format or None)
    from tavla.core.rules import bearoff_db

    try:
        bearoff_db.get_database()
    finally:
        logs.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
