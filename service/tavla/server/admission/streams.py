"""Stream slots of one kind, and which open stream gives its slot up when they are full.

A stream holds a thread while its client sends, so a few clients that send a byte every few
seconds, or a chunk and then nothing, held every ValidateMatch slot of a worker while staying
under the idle limit. When the slots are full a newcomer takes the slot of the *idlest* stream:
the one that has spent the most time waiting for its client's next message, if it is waiting
now, has waited :data:`EVICT_AFTER` in all and at least half of its life. A client that sends
back to back is almost never waited for, so only slow or quiet ones give way; the one evicted
is ended ``RESOURCE_EXHAUSTED`` with a message saying why.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds a stream must have waited for its client, in all, before a newcomer may evict it.
EVICT_AFTER = 0.25
EVICTED = ("evicted: every stream slot of this kind was taken and this stream was the idlest "
           "(waiting for its client); send a record's messages back to back")


@dataclass(eq=False)
class OpenStream:
    """One open stream: when it opened, how long it has waited for its client."""

    opened: float
    end: Callable[[str], None]  # ends the call RESOURCE_EXHAUSTED with this message
    waiting_since: float | None = None  # waiting for the client's next message since then
    waited: float = 0.0  # seconds waited before the current wait

    def idle(self, now: float) -> float:
        """Seconds this stream has waited for its client, the current wait included."""
        return self.waited + (now - self.waiting_since if self.waiting_since is not None else 0.0)

    def evictable(self, now: float) -> bool:
        idle = self.idle(now)
        return self.waiting_since is not None and idle >= EVICT_AFTER and 2 * idle >= now - self.opened


class StreamSlots:
    """At most ``size`` open streams; :meth:`open` evicts the idlest evictable one when full."""

    def __init__(self, size: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.clock = clock
        self.evicted_total = 0
        self._open: set[OpenStream] = set()
        self._lock = threading.Lock()

    def count(self) -> int:
        return len(self._open)

    def evictable(self) -> int:
        """Open streams a newcomer could evict now."""
        now = self.clock()
        with self._lock:
            return sum(1 for s in self._open if s.evictable(now))

    def open(self, end: Callable[[str], None]) -> OpenStream | None:
        """A slot for a new stream ended by ``end``, or ``None``: full, and none evictable."""
        now = self.clock()
        stream = OpenStream(now, end)
        with self._lock:
            victim = None
            if len(self._open) >= self.size:
                candidates = [s for s in self._open if s.evictable(now)]
                if not candidates:
                    return None
                victim = max(candidates, key=lambda s: s.idle(now))
                self._open.discard(victim)
                self.evicted_total += 1
            self._open.add(stream)
        if victim is not None:
            victim.end(EVICTED)
        return stream

    def close(self, stream: OpenStream) -> None:
        """The stream ended (an evicted one has already given its slot up)."""
        with self._lock:
            self._open.discard(stream)

    def waiting(self, stream: OpenStream) -> None:
        """The stream's handler now waits for its client's next message."""
        stream.waiting_since = self.clock()

    def received(self, stream: OpenStream) -> None:
        """The client's message came."""
        since = stream.waiting_since
        if since is not None:
            stream.waited += self.clock() - since
            stream.waiting_since = None
