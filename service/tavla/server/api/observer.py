"""What the engine reports about its own work, for whoever watches it: the transport's metrics
implement :class:`EngineObserver` (:class:`tavla.server.pipeline.metrics.EngineMetrics`) and
are handed to the engine at start-up; in-process users watch nothing (:data:`UNOBSERVED`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class EngineObserver(Protocol):
    """Receives the move-generation figures of ListLegalMoves and ApplyMove."""

    def move_generation_seconds(self, method: str, seconds: float) -> None:
        """One call's time (seconds) to generate and encode the moves (``method``: the RPC's bare name)."""

    def legal_moves_returned(self, count: int) -> None:
        """The number of moves one ListLegalMoves answer lists."""


class _Unobserved:
    def move_generation_seconds(self, method: str, seconds: float) -> None:
        pass

    def legal_moves_returned(self, count: int) -> None:
        pass


#: The observer that records nothing.
UNOBSERVED: EngineObserver = _Unobserved()


@contextmanager
def move_generation(observer: EngineObserver, method: str) -> Iterator[None]:
    """Report the block's time as ``method``'s move generation, if it completes."""
    begin = time.perf_counter()
    yield
    observer.move_generation_seconds(method, time.perf_counter() - begin)
