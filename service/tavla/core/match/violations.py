"""Rule violations of match play: cube actions, clocks, and the other match-play actions
(resignations, starts, the game state machine) (R3, R18-R25).

:class:`CubeError`, :class:`ClockError` and :class:`IllegalActionError` are siblings under
:class:`~tavla.core.errors.RuleError`, beside :class:`~tavla.core.errors.IllegalMoveError`: none
is a subclass of another, and the server answers each the same way: ``INVALID_ARGUMENT`` with a
``google.rpc.ErrorInfo`` whose ``reason`` is the name below.
"""

from __future__ import annotations

import enum

from tavla.core.errors import RuleError


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
    RACCOON_NOT_ALLOWED = "RACCOON_NOT_ALLOWED"  # no beaver to answer, or over the limit
    MATCH_OVER = "MATCH_OVER"  # R18: the match has a winner
    BREAK_ALREADY_TAKEN = "BREAK_ALREADY_TAKEN"  # R25: one break per match
    # the game state machine (tavla.core.game)
    NOT_YOUR_TURN = "NOT_YOUR_TURN"  # the action's side is not the side to act
    WRONG_PHASE = "WRONG_PHASE"  # the action does not exist in the state's phase
    MOVE_INCOMPLETE = "MOVE_INCOMPLETE"  # confirm before the steps make a whole move
    NOTHING_TO_UNDO = "NOTHING_TO_UNDO"  # undo with no step made this turn
    NOT_TIMED_OUT = "NOT_TIMED_OUT"  # a timeout claimed while the side to act still has time
    NO_CLOCK = "NO_CLOCK"  # a timeout claimed in an untimed match


class _ActionRuleError(RuleError):
    """The shared constructor of the three sibling classes below: ``reason`` is an
    :class:`ActionReason`. Private, so none of them is a subclass of another."""

    def __init__(self, reason: ActionReason, message: str) -> None:
        super().__init__(reason, message)
        self.reason: ActionReason = reason


class IllegalActionError(_ActionRuleError):
    """A match-play action (resignation, start, state-machine action) that is well formed but
    not allowed now.

    :param reason: the :class:`ActionReason`.
    :param message: a sentence naming the action and the rule.
    """


class CubeError(_ActionRuleError):
    """A cube action that is well formed but not allowed now (R19-R21).

    :param reason: the :class:`ActionReason`.
    :param message: a sentence naming the action and the rule.
    """


class ClockError(_ActionRuleError):
    """A clock event that is well formed but not allowed now (R25: ``BREAK_ALREADY_TAKEN``).

    :param reason: the :class:`ActionReason`.
    :param message: a sentence naming the event and the rule.
    """
