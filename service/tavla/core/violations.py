"""Rule violations of match play: cube actions, resignations, starts, clocks (R3, R18-R25).

An :class:`IllegalActionError` is an :class:`~tavla.core.IllegalMoveError` whose ``reason`` is an
:class:`ActionReason`, so the server answers it the same way: ``INVALID_ARGUMENT`` with a
``google.rpc.ErrorInfo`` whose ``reason`` is the name below.
"""

from __future__ import annotations

import enum

from tavla.core.errors import IllegalMoveError


class ActionReason(str, enum.Enum):
    """Why a well-formed match-play action is not allowed now."""

    CUBE_DISABLED = "CUBE_DISABLED"  # R19: the ruleset has no cube
    CRAWFORD_GAME = "CRAWFORD_GAME"  # R21: no cube in the Crawford game
    CUBE_OWNED_BY_OPPONENT = "CUBE_OWNED_BY_OPPONENT"  # R19: only the owner may redouble
    CUBE_AT_LIMIT = "CUBE_AT_LIMIT"  # R19: the cube goes up to the limit (64)
    DEAD_CUBE = "DEAD_CUBE"  # match play: a single win at this cube already wins the match
    DOUBLE_PENDING = "DOUBLE_PENDING"  # a double waits for its answer
    NO_DOUBLE_PENDING = "NO_DOUBLE_PENDING"  # take, drop or beaver without a double
    NOT_YOUR_DECISION = "NOT_YOUR_DECISION"  # the doubler cannot answer its own double
    BEAVER_NOT_ALLOWED = "BEAVER_NOT_ALLOWED"  # beavers off, match play, or over the limit
    MATCH_OVER = "MATCH_OVER"  # R18: the match has a winner
    BREAK_ALREADY_TAKEN = "BREAK_ALREADY_TAKEN"  # R25: one break per match


class IllegalActionError(IllegalMoveError):
    """A match-play action that is well formed but not allowed now.

    :param reason: the :class:`ActionReason`.
    :param message: a sentence naming the action and the rule.
    """

    def __init__(self, reason: ActionReason, message: str) -> None:
        super().__init__(reason, message)  # type: ignore[arg-type]  # same shape as IllegalReason
        self.reason = reason  # type: ignore[assignment]
