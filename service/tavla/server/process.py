"""Process plumbing shared by a server (:mod:`~tavla.server.app`) and the worker supervisor
(:mod:`~tavla.server.workers`): stop signals and printable listen addresses."""

from __future__ import annotations

import signal
import threading


def on_stop_signals(stopping: threading.Event, received: list[str]) -> None:
    """On SIGTERM or SIGINT, record the signal's name in ``received`` and set ``stopping``.

    Only the main thread may install handlers; elsewhere (a server started in a test thread)
    this does nothing.
    """
    # The handler only records and wakes the main thread; logging from a handler can deadlock.
    def handle(signum: int, _frame: object) -> None:
        received.append(signal.Signals(signum).name)
        stopping.set()

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, handle)


def address(host: str, port: int) -> str:
    """``host:port``, with an IPv6 literal in brackets."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"
