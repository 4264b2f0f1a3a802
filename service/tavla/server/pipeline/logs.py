"""Logging setup: structlog, rendered as JSON (one object a line) or for a terminal.

Both structlog loggers and the standard library's (gRPC's, the rules core's, ``errors.py``'s) go
through the same processors, so every line has ``timestamp``, ``level``, ``logger``, ``pid`` and
whatever is bound in the context, such as the ``request_id`` of the call being handled.

Lines are formatted in the thread that logs them, then written to stderr by a background thread
(:class:`BackgroundWriter`), so a slow or stalled reader of stderr never holds up a call: when its
buffer of :data:`BUFFERED_LINES` is full, lines are dropped, and a warning says how many once it
catches up. :func:`flush` waits (a while) for the buffer to empty, at exit.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import sys
import threading
import time
from typing import IO, Any

import structlog

BUFFERED_LINES = 10_000
_writer: BackgroundWriter | None = None


class BackgroundWriter:
    """A write-only text stream that hands lines to a daemon thread writing them to ``stream``.

    ``write`` never blocks: with ``capacity`` lines waiting, more are dropped and counted. The
    thread writes with ``os.write`` on the stream's file descriptor when it has one, so that a
    write blocked on a full pipe holds none of Python's stream locks at exit.
    """

    def __init__(self, stream: IO[str], capacity: int = BUFFERED_LINES) -> None:
        self.stream = stream
        self.dropped = 0
        self._queue: queue.Queue[str] = queue.Queue(capacity)
        try:
            self._fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None
        self._thread = threading.Thread(target=self._run, name="tavla-log-writer", daemon=True)
        self._thread.start()

    def write(self, text: str) -> int:
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            self.dropped += 1
        return len(text)

    def flush(self) -> None:
        """Does nothing: the handler flushes after every line, and must not wait."""

    def isatty(self) -> bool:
        return self.stream.isatty()

    def drain(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every line to be written; whether they were."""
        end = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < end:
            time.sleep(0.005)
        return not self._queue.unfinished_tasks

    def _run(self) -> None:
        reported = 0
        while True:
            text = self._queue.get()
            try:
                self._write(text)
            except Exception:  # nowhere left to report it
                pass
            finally:
                self._queue.task_done()
            if self.dropped != reported and self._queue.empty():
                count, reported = self.dropped - reported, self.dropped
                logging.getLogger("tavla.logs").warning(
                    "dropped %d log lines: stderr was not read fast enough", count)

    def _write(self, text: str) -> None:
        if self._fd is None:
            self.stream.write(text)
            self.stream.flush()
            return
        data = text.encode("utf-8", "replace")
        while data:
            written = os.write(self._fd, data)
            data = data[written:]


def flush(timeout: float = 2.0) -> None:
    """Wait up to ``timeout`` seconds for buffered lines to reach stderr (at exit too: a reader
    that has stopped reading does not hold the process up for longer)."""
    if _writer is not None:
        _writer.drain(timeout)


atexit.register(flush)

_HANDLER_NAME = "tavla"  # our handler on the root logger; replaced when configured again


def resolve_format(log_format: str | None, stream: IO[str] | None = None) -> str:
    """``log_format``, or ``"console"`` when the stream is a terminal and ``"json"`` otherwise."""
    if log_format:
        return log_format
    stream = stream or sys.stderr
    try:
        return "console" if stream.isatty() else "json"
    except (AttributeError, ValueError):
        return "json"


def _add_pid(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    event.setdefault("pid", os.getpid())  # tells the workers apart
    return event


def _structlog_processors(shared: list[Any]) -> list[Any]:
    return [structlog.stdlib.filter_by_level, *shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter]


def ensure_configured() -> None:
    """If nobody has called :func:`configure`, send structlog's events to the standard library's
    loggers (whatever handlers they have) instead of structlog's default of printing to stdout."""
    if not structlog.is_configured():
        structlog.configure(
            processors=[structlog.stdlib.filter_by_level, structlog.contextvars.merge_contextvars,
                        structlog.processors.KeyValueRenderer(key_order=["event"])],
            logger_factory=structlog.stdlib.LoggerFactory(),
            wrapper_class=structlog.stdlib.BoundLogger,
        )


_FIRST = ("timestamp", "level", "event", "logger")


def _key_order(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    # timestamp, level and message first, for people reading the JSON
    ordered = {key: event.pop(key) for key in _FIRST if key in event}
    ordered.update(event)
    return ordered


def configure(level: str = "info", log_format: str | None = None, stream: IO[str] | None = None) -> None:
    """Route structlog and the standard library to ``stream`` at ``level``.

    :param log_format: ``"json"``, ``"console"``, or ``None`` to pick by :func:`resolve_format`.
    :param stream: written to directly (tests); by default stderr, through a
        :class:`BackgroundWriter`.
    """
    global _writer
    out: IO[str]
    if stream is not None:
        out = stream
    else:
        if _writer is None or _writer.stream is not sys.stderr:
            flush()
            _writer = BackgroundWriter(sys.stderr)
        out = _writer  # type: ignore[assignment]
    fmt = resolve_format(log_format, out)
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _add_pid,
    ]
    renderer: Any
    if fmt == "json":
        renderer = structlog.processors.JSONRenderer()
        shared += [structlog.processors.format_exc_info, _key_order]
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=_colors(out))
    structlog.configure(
        processors=_structlog_processors(shared),
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,  # tests configure more than once per process
    )
    handler = logging.StreamHandler(out)
    handler.name = _HANDLER_NAME
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
    ))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.name == _HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def _colors(stream: IO[str]) -> bool:
    try:
        return stream.isatty() and "NO_COLOR" not in os.environ
    except (AttributeError, ValueError):
        return False
