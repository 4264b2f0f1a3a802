"""Errors raised by the rules core.

All are ``ValueError`` subclasses, so callers that only care about "bad input" catch one type;
the server maps :class:`InvalidInputError` to ``INVALID_ARGUMENT`` with a field violation and
:class:`IllegalMoveError` to ``INVALID_ARGUMENT`` with an ``ErrorInfo`` reason.
"""

from __future__ import annotations

import enum


class TavlaError(ValueError):
    """Base class of every error the rules core raises on purpose."""


class InvalidInputError(TavlaError):
    """Malformed input: wrong checker counts, dice out of range, a bad position ID or notation.

    :param field: dotted path of the offending input field, e.g. ``"position.board.white.points"``.
    :param reason: one sentence saying what is wrong, quoting the input.
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class IllegalReason(str, enum.Enum):
    """Why a well-formed move is not legal here (R4-R14 of RULES.md)."""

    MUST_ENTER_FROM_BAR = "MUST_ENTER_FROM_BAR"  # R8
    POINT_BLOCKED = "POINT_BLOCKED"  # R5, R9
    MUST_USE_BOTH_DICE = "MUST_USE_BOTH_DICE"  # R7
    MUST_USE_LARGER_DIE = "MUST_USE_LARGER_DIE"  # R7
    MUST_USE_MORE_DICE = "MUST_USE_MORE_DICE"  # R6, R7, R10
    BEAR_OFF_NOT_ALLOWED = "BEAR_OFF_NOT_ALLOWED"  # R11, R12, R14
    NO_CHECKER_THERE = "NO_CHECKER_THERE"  # R4
    WRONG_DICE = "WRONG_DICE"  # R4, R6
    AMBIGUOUS_MOVE = "AMBIGUOUS_MOVE"  # notation fits several legal moves


class RuleError(TavlaError):
    """A well-formed request that a rule forbids: the base of the sibling error classes
    :class:`IllegalMoveError` (checker moves), :class:`~tavla.core.match.violations.CubeError` (the
    cube), :class:`~tavla.core.match.violations.ClockError` (clocks) and
    :class:`~tavla.core.match.violations.IllegalActionError` (any other match-play action). The server
    answers every one ``INVALID_ARGUMENT`` with an ``ErrorInfo`` whose reason is ``reason.value``.

    :param reason: a ``str`` enum member naming the rule.
    :param message: a sentence naming what was asked and the rule.
    """

    def __init__(self, reason: enum.Enum, message: str) -> None:
        super().__init__(message)
        self.reason: enum.Enum = reason
        self.message = message


class IllegalMoveError(RuleError):
    """A move that parses but breaks a rule.

    :param reason: the :class:`IllegalReason`.
    :param message: a sentence naming the move and the rule.
    """

    def __init__(self, reason: IllegalReason, message: str) -> None:
        super().__init__(reason, message)
        self.reason: IllegalReason = reason


class GameOverError(TavlaError):
    """A move was asked for in a position where a side has already won or the game is drawn:
    borne off all its checkers (R15), or by the variant's rule (plakoto's mother).

    :param winner: the side that has won, ``None`` for a drawn game (plakoto's two mothers).
    :param why: how it ended, when not by bearing off (the mother rule, a draw).
    :param checkers: the variant's checkers a side (15; hypergammon 3).
    :param ending: ``borne_off``, ``mother_pinned`` or ``draw`` (what the player's message says).
    """

    def __init__(self, winner: object, why: str = "", checkers: int = 15, ending: str = "") -> None:
        if winner is None:
            text = f"the game is over: {why or 'a draw'}"
        else:
            name = getattr(winner, "name", str(winner)).lower()
            text = f"the game is over: {name} {why or f'has borne off all {checkers} checkers (R15)'}"
        super().__init__(text)
        self.winner = winner
        self.checkers = checkers
        self.ending = ending or ("draw" if winner is None else "borne_off" if not why else "")


class GameNotOverError(TavlaError):
    """Scoring was asked for a position in which neither side has borne off all its checkers (R15)."""
