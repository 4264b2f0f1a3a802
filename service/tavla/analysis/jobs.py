"""The analysis calls as a child of :class:`~tavla.analysis.isolation.EnginePool` runs them: each
takes core values and a ``deadline`` (``time.monotonic()``; the same clock in every process of
the machine) and returns core values, so that only plain picklable values cross.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence

from tavla.analysis import player, review
from tavla.analysis.isolation import Overrun, report
from tavla.analysis.levels import Level
from tavla.core.game.state import Action, GameState
from tavla.core.match.ruleset import Ruleset
from tavla.core.match.state import MatchState
from tavla.core.rules.position import Position

#: A test server's hook (``--test-inputs``): the file a child writes its pid to when it starts
#: the stuck call (:func:`hang`), so a test knows the call is stuck.
HANG_FILE_ENV = "TAVLA_TEST_HANG_FILE"


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic()) if math.isfinite(deadline) else math.inf


def suggest_move(position: Position, dice: Sequence[int], rules: Ruleset, match: MatchState, level: Level,
                 deadline: float) -> player.Suggestion:
    return player.suggest_move(position, dice, rules, match, level, _left(deadline))


def evaluate_position(position: Position, rules: Ruleset, match: MatchState, level: Level,
                      deadline: float) -> player.PositionEval:
    return player.evaluate_position(position, rules, match, level, _left(deadline))


def suggest_cube(position: Position, rules: Ruleset, match: MatchState, level: Level,
                 deadline: float) -> player.CubeDecision:
    return player.suggest_cube(position, rules, match, level, _left(deadline))


def analyze(which: str, record: str | bytes, level: Level, rules: Ruleset | None,
            deadline: float) -> review.Review:
    """``review.analyze_mat`` (``which`` ``"mat"``) or ``analyze_sgf`` of ``record``; stops
    with :class:`Overrun` between decisions once the deadline has passed. Reports a
    :class:`~tavla.analysis.review.Progress` after each decision
    (:func:`~tavla.analysis.isolation.report`)."""
    def check() -> None:
        if time.monotonic() >= deadline:
            raise Overrun("the match review ran past its deadline")

    def left() -> float:
        return _left(deadline)

    if which == "mat":
        return review.analyze_mat(str(record), level, rules=rules, check=check, time_left=left, progress=report)
    return review.analyze_sgf(record, level, rules=rules, check=check, time_left=left, progress=report)


def suggest_action(state: GameState, legal: Sequence[Action], level: Level,
                   deadline: float) -> player.ActionChoice:
    """The computer's action, what evaluated it and at which ply (the decision's own)."""
    return player.suggest_action(state, legal, level, _left(deadline))


def hang(*args: object) -> None:
    """Never return, as a native call stuck with the GIL held: signals blocked, in C (``pause``
    through ``PyDLL`` keeps the GIL). Only SIGKILL ends it. A test server's hook."""
    import ctypes
    import signal

    mark = os.environ.get(HANG_FILE_ENV)
    if mark:
        with open(mark, "w", encoding="ascii") as f:
            f.write(str(os.getpid()))
    signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals) - {signal.SIGKILL, signal.SIGSTOP})
    while True:
        ctypes.PyDLL(None).pause()
