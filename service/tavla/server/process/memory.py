"""Giving memory back after a burst.

A burst of the costliest calls (280 KB answers, many cancelled mid-work) leaves glibc's heap full
of freed blocks it keeps for reuse: RSS stays near the peak long after the burst. Two bounds:

* :data:`ARENAS`: workers start with ``MALLOC_ARENA_MAX=2`` unless it is set (glibc makes up to
  8 x cores arenas for a process with many threads, the handler and call-pool threads here, and
  memory freed in one arena is not reused by the others); a server of one process caps its own
  with ``mallopt`` at start (:func:`limit_arenas`): without it, it kept 81-95 MiB over its
  baseline after the costliest storm, most of it in six arenas, against 30 MiB with the cap;
* :class:`Trimmer`: a daemon thread that calls ``malloc_trim(0)`` once the worker has been idle
  (no call running) for :data:`IDLE_SECONDS` after calls were made, so freed memory goes back to
  the system. On a C library without ``malloc_trim`` (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from collections.abc import Callable

ARENAS_ENV = "MALLOC_ARENA_MAX"
#: glibc arenas for a worker (set before it starts: glibc reads it once).
ARENAS = "2"
_M_ARENA_MAX = -8  # mallopt's parameter for MALLOC_ARENA_MAX (glibc malloc.h)
#: Seconds with no call running (after some) before the heap is trimmed.
IDLE_SECONDS = 1.0
_PERIOD = 0.5


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def limit_arenas() -> bool:
    """Cap this process's glibc arenas at :data:`ARENAS` unless ``MALLOC_ARENA_MAX`` is set, and
    set it for the processes this one starts. Call it before threads start: arenas made before
    stay. True when it capped them; False on a C library without ``mallopt`` (musl, macOS)."""
    if os.environ.get(ARENAS_ENV):
        return False
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    if mallopt(_M_ARENA_MAX, int(ARENAS)) != 1:
        return False
    os.environ[ARENAS_ENV] = ARENAS
    return True


class Trimmer:
    """Trims the heap after bursts: ``activity()`` counts calls seen so far, ``busy()`` says
    whether one runs now (both cheap; read every half second)."""

    def __init__(self, activity: Callable[[], int], busy: Callable[[], bool],
                 trimmed: Callable[[], None] = lambda: None) -> None:
        """:param trimmed: called after each trim (the metric ``tavla_memory_trims_total``)."""
        self._activity, self._busy, self._trimmed = activity, busy, trimmed
        self._trim = _malloc_trim()
        self._stop = threading.Event()
        self._trimmed_at = activity()
        self._idle = 0.0
        self.trims = 0

    def start(self) -> None:
        if self._trim is not None:
            threading.Thread(target=self._run, name="tavla-malloc-trim", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def tick(self, seconds: float) -> bool:
        """One look, ``seconds`` after the last: trims when no call runs, none has run for
        :data:`IDLE_SECONDS` and calls came since the last trim. True when it trimmed. The
        thread calls it every ``_PERIOD``; tests call it with their own seconds (no clock)."""
        if self._busy():
            self._idle = 0.0
            return False
        self._idle += seconds
        seen = self._activity()
        if seen == self._trimmed_at or self._idle < IDLE_SECONDS or self._trim is None:
            return False
        self._trim(0)
        self.trims += 1
        self._trimmed_at = seen
        self._trimmed()
        return True

    def _run(self) -> None:
        while not self._stop.wait(_PERIOD):
            self.tick(_PERIOD)
