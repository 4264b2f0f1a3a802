"""What a referee keeps of the states it wrote lately, per their bytes: the next click of a game
sends back the state the last answer carried, so that call finds the state already parsed, a
ListActions of it finds the answer the Act gave with it (docs/game-state.md: the same view and
actions).

A cache, not state: every answer is byte-identical with and without it
(tests/referee/test_referee_cache.py), and a state comes back to any replica, which parses it.
Few are kept (:data:`KEPT_STATES`): live objects slow the garbage collector, and a game's next
click comes within a few calls of its last.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from tavla.core.game import Action, GameState
from tavla.core.rules.steps import StepState

#: States kept per referee: a few per game in play on a worker.
KEPT_STATES = 256


@dataclass(slots=True)
class Kept:
    """A state this referee wrote, with what it answered.

    :ivar state: the state, equal to its bytes parsed.
    :ivar preset: its ruleset's preset name.
    :ivar view: the view answered with it (serialized ``GameView``), as a caller it trusts sees it.
    :ivar actions: its legal actions; ``None`` in a timed match (a timeout claim depends on the time).
    :ivar key_id: the key it was signed with (empty when unsigned).
    :ivar signature: its signature, as the referee sealed it: a state sent back with the same
        key id and signature is the one signed, without computing the MAC again.
    :ivar analysis: a MOVING state's turn analysis, as the answer used it: the next click's
        step finds its own analysis kept on it (:attr:`StepState.memo`).
    """

    state: GameState
    preset: str
    view: bytes
    actions: tuple[Action, ...] | None
    key_id: str = ""
    signature: bytes = b""
    analysis: StepState | None = None


class KeptStates:
    """The last :data:`KEPT_STATES` states written, per bytes, oldest dropped first."""

    def __init__(self, size: int = KEPT_STATES) -> None:
        self._size = size
        self._kept: dict[bytes, Kept] = {}
        self._lock = threading.Lock()  # the server's threads share one referee

    def get(self, raw: bytes) -> Kept | None:
        """The entry of the state of bytes ``raw``, or ``None``."""
        return self._kept.get(raw)

    def keep(self, raw: bytes, entry: Kept) -> None:
        """Keep ``entry`` for the state of bytes ``raw`` (dropping the oldest beyond the size)."""
        with self._lock:
            if raw not in self._kept and len(self._kept) >= self._size:
                del self._kept[next(iter(self._kept))]
            self._kept[raw] = entry

    def clear(self) -> None:
        """Forget every kept state (tests and benchmarks compare answers without them)."""
        with self._lock:
            self._kept.clear()
