"""Process plumbing shared by a server (:mod:`~tavla.server.process.app`) and the worker supervisor
(:mod:`~tavla.server.process.workers`): stop signals, dying with the parent, and listen addresses
resolved and printed."""

from __future__ import annotations

import os
import signal
import socket
import threading
from typing import Any


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


def die_with_parent(parent: int) -> None:
    """Ask Linux to SIGTERM this process when its parent (``parent``, its pid) dies; no-op
    elsewhere. The parent is the *thread* that started this process: it must outlive the child."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the call above
        os.kill(os.getpid(), signal.SIGTERM)


def address(host: str, port: int) -> str:
    """``host:port``, with an IPv6 literal in brackets."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def resolve(host: str, port: int) -> tuple[int, int, int, tuple[Any, ...]]:
    """``(family, type, proto, sockaddr)`` of a TCP socket listening on ``host:port`` (``host``
    may be a bracketed IPv6 literal).

    :raises OSError: the host does not resolve.
    """
    family, kind, proto, _, sockaddr = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
    return family, kind, proto, sockaddr
