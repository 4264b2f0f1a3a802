"""A worker's budget of bytes held by streams for input not complete yet (a ValidateMatch
line or game tree): each stream is bounded by its own cap, and all of them together by this one,
so a few streams cannot make a worker hold many times one stream's cap."""

from __future__ import annotations

import threading

#: Bytes all of a worker's ValidateMatch streams may hold at once for unfinished lines and game
#: trees (one stream may hold up to one SGF game tree, 8 MiB; a .mat line, 64 KiB).
MAX_BUFFERED_BYTES = 16 << 20


class BufferFull(Exception):
    """Holding more would pass the worker's budget."""


class ByteBudget:
    """Bytes held now by every stream of a worker, at most ``cap``."""

    def __init__(self, cap: int = MAX_BUFFERED_BYTES) -> None:
        self.cap = cap
        self.held = 0
        self._lock = threading.Lock()

    def holder(self) -> Held:
        return Held(self)


class Held:
    """One stream's share of a :class:`ByteBudget`; :meth:`set` to 0 when the stream ends."""

    def __init__(self, budget: ByteBudget) -> None:
        self.budget = budget
        self.bytes = 0

    def set(self, n: int) -> None:
        """This stream now holds ``n`` bytes.

        :raises BufferFull: the worker's streams would hold more than the budget (nothing taken).
        """
        budget = self.budget
        with budget._lock:
            if n > self.bytes and budget.held + n - self.bytes > budget.cap:
                raise BufferFull(f"this worker's ValidateMatch streams already hold {budget.held} bytes of "
                                 f"unfinished lines and game trees; {budget.cap} is its limit")
            budget.held += n - self.bytes
            self.bytes = n
