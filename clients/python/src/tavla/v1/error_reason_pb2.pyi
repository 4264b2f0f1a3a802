from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    MUST_ENTER_FROM_BAR: _ClassVar[ErrorReason]
    POINT_BLOCKED: _ClassVar[ErrorReason]
    MUST_USE_BOTH_DICE: _ClassVar[ErrorReason]
    MUST_USE_LARGER_DIE: _ClassVar[ErrorReason]
    MUST_USE_MORE_DICE: _ClassVar[ErrorReason]
    BEAR_OFF_NOT_ALLOWED: _ClassVar[ErrorReason]
    NO_CHECKER_THERE: _ClassVar[ErrorReason]
    WRONG_DICE: _ClassVar[ErrorReason]
    AMBIGUOUS_MOVE: _ClassVar[ErrorReason]
    GAME_OVER: _ClassVar[ErrorReason]
    CUBE_DISABLED: _ClassVar[ErrorReason]
    CRAWFORD_GAME: _ClassVar[ErrorReason]
    CUBE_OWNED_BY_OPPONENT: _ClassVar[ErrorReason]
    CUBE_AT_LIMIT: _ClassVar[ErrorReason]
    DEAD_CUBE: _ClassVar[ErrorReason]
    DOUBLE_PENDING: _ClassVar[ErrorReason]
    NO_DOUBLE_PENDING: _ClassVar[ErrorReason]
    NOT_YOUR_DECISION: _ClassVar[ErrorReason]
    BEAVER_NOT_ALLOWED: _ClassVar[ErrorReason]
    RACCOON_NOT_ALLOWED: _ClassVar[ErrorReason]
    MATCH_OVER: _ClassVar[ErrorReason]
    BREAK_ALREADY_TAKEN: _ClassVar[ErrorReason]
    NOT_YOUR_TURN: _ClassVar[ErrorReason]
    WRONG_PHASE: _ClassVar[ErrorReason]
    MOVE_INCOMPLETE: _ClassVar[ErrorReason]
    NOTHING_TO_UNDO: _ClassVar[ErrorReason]
    NOT_TIMED_OUT: _ClassVar[ErrorReason]
    NO_CLOCK: _ClassVar[ErrorReason]
    STATE_SIGNATURE_INVALID: _ClassVar[ErrorReason]
    STATE_KEY_UNKNOWN: _ClassVar[ErrorReason]
    STATE_UNSIGNED: _ClassVar[ErrorReason]
    CLIENT_DICE_REFUSED: _ClassVar[ErrorReason]
    CLIENT_TIME_REFUSED: _ClassVar[ErrorReason]
ERROR_REASON_UNSPECIFIED: ErrorReason
MUST_ENTER_FROM_BAR: ErrorReason
POINT_BLOCKED: ErrorReason
MUST_USE_BOTH_DICE: ErrorReason
MUST_USE_LARGER_DIE: ErrorReason
MUST_USE_MORE_DICE: ErrorReason
BEAR_OFF_NOT_ALLOWED: ErrorReason
NO_CHECKER_THERE: ErrorReason
WRONG_DICE: ErrorReason
AMBIGUOUS_MOVE: ErrorReason
GAME_OVER: ErrorReason
CUBE_DISABLED: ErrorReason
CRAWFORD_GAME: ErrorReason
CUBE_OWNED_BY_OPPONENT: ErrorReason
CUBE_AT_LIMIT: ErrorReason
DEAD_CUBE: ErrorReason
DOUBLE_PENDING: ErrorReason
NO_DOUBLE_PENDING: ErrorReason
NOT_YOUR_DECISION: ErrorReason
BEAVER_NOT_ALLOWED: ErrorReason
RACCOON_NOT_ALLOWED: ErrorReason
MATCH_OVER: ErrorReason
BREAK_ALREADY_TAKEN: ErrorReason
NOT_YOUR_TURN: ErrorReason
WRONG_PHASE: ErrorReason
MOVE_INCOMPLETE: ErrorReason
NOTHING_TO_UNDO: ErrorReason
NOT_TIMED_OUT: ErrorReason
NO_CLOCK: ErrorReason
STATE_SIGNATURE_INVALID: ErrorReason
STATE_KEY_UNKNOWN: ErrorReason
STATE_UNSIGNED: ErrorReason
CLIENT_DICE_REFUSED: ErrorReason
CLIENT_TIME_REFUSED: ErrorReason
