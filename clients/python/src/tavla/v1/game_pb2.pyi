import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import clock_pb2 as _clock_pb2
from tavla.v1 import dice_pb2 as _dice_pb2
from tavla.v1 import match_pb2 as _match_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GamePhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_PHASE_UNSPECIFIED: _ClassVar[GamePhase]
    GAME_PHASE_START: _ClassVar[GamePhase]
    GAME_PHASE_ROLL_OR_DOUBLE: _ClassVar[GamePhase]
    GAME_PHASE_CUBE_DECISION: _ClassVar[GamePhase]
    GAME_PHASE_MOVING: _ClassVar[GamePhase]
    GAME_PHASE_RESIGNATION_DECISION: _ClassVar[GamePhase]
    GAME_PHASE_GAME_OVER: _ClassVar[GamePhase]
    GAME_PHASE_MATCH_OVER: _ClassVar[GamePhase]

class ActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_KIND_UNSPECIFIED: _ClassVar[ActionKind]
    ACTION_KIND_START_GAME: _ClassVar[ActionKind]
    ACTION_KIND_ROLL: _ClassVar[ActionKind]
    ACTION_KIND_DOUBLE: _ClassVar[ActionKind]
    ACTION_KIND_TAKE: _ClassVar[ActionKind]
    ACTION_KIND_DROP: _ClassVar[ActionKind]
    ACTION_KIND_BEAVER: _ClassVar[ActionKind]
    ACTION_KIND_RACCOON: _ClassVar[ActionKind]
    ACTION_KIND_STEP: _ClassVar[ActionKind]
    ACTION_KIND_UNDO: _ClassVar[ActionKind]
    ACTION_KIND_CONFIRM_MOVE: _ClassVar[ActionKind]
    ACTION_KIND_RESIGN: _ClassVar[ActionKind]
    ACTION_KIND_ACCEPT_RESIGNATION: _ClassVar[ActionKind]
    ACTION_KIND_REJECT_RESIGNATION: _ClassVar[ActionKind]
    ACTION_KIND_CLAIM_TIMEOUT: _ClassVar[ActionKind]
GAME_PHASE_UNSPECIFIED: GamePhase
GAME_PHASE_START: GamePhase
GAME_PHASE_ROLL_OR_DOUBLE: GamePhase
GAME_PHASE_CUBE_DECISION: GamePhase
GAME_PHASE_MOVING: GamePhase
GAME_PHASE_RESIGNATION_DECISION: GamePhase
GAME_PHASE_GAME_OVER: GamePhase
GAME_PHASE_MATCH_OVER: GamePhase
ACTION_KIND_UNSPECIFIED: ActionKind
ACTION_KIND_START_GAME: ActionKind
ACTION_KIND_ROLL: ActionKind
ACTION_KIND_DOUBLE: ActionKind
ACTION_KIND_TAKE: ActionKind
ACTION_KIND_DROP: ActionKind
ACTION_KIND_BEAVER: ActionKind
ACTION_KIND_RACCOON: ActionKind
ACTION_KIND_STEP: ActionKind
ACTION_KIND_UNDO: ActionKind
ACTION_KIND_CONFIRM_MOVE: ActionKind
ACTION_KIND_RESIGN: ActionKind
ACTION_KIND_ACCEPT_RESIGNATION: ActionKind
ACTION_KIND_REJECT_RESIGNATION: ActionKind
ACTION_KIND_CLAIM_TIMEOUT: ActionKind

class GameAction(_message.Message):
    __slots__ = ("kind", "side", "step", "resign_kind")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    RESIGN_KIND_FIELD_NUMBER: _ClassVar[int]
    kind: ActionKind
    side: _types_pb2.Side
    step: _types_pb2.CheckerMove
    resign_kind: _types_pb2.ResultKind
    def __init__(self, kind: _Optional[_Union[ActionKind, str]] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ..., step: _Optional[_Union[_types_pb2.CheckerMove, _Mapping]] = ..., resign_kind: _Optional[_Union[_types_pb2.ResultKind, str]] = ...) -> None: ...

class ActionRecord(_message.Message):
    __slots__ = ("sequence", "side", "kind", "dice", "roll_off", "notation", "checker_moves", "cube_value", "resign_kind", "elapsed", "roll_tag", "outcome")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    ROLL_OFF_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    CHECKER_MOVES_FIELD_NUMBER: _ClassVar[int]
    CUBE_VALUE_FIELD_NUMBER: _ClassVar[int]
    RESIGN_KIND_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_FIELD_NUMBER: _ClassVar[int]
    ROLL_TAG_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    side: _types_pb2.Side
    kind: ActionKind
    dice: _containers.RepeatedScalarFieldContainer[int]
    roll_off: _containers.RepeatedCompositeFieldContainer[_dice_pb2.RollOffThrow]
    notation: str
    checker_moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    cube_value: int
    resign_kind: _types_pb2.ResultKind
    elapsed: _duration_pb2.Duration
    roll_tag: str
    outcome: _match_pb2.GameOutcome
    def __init__(self, sequence: _Optional[int] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ..., kind: _Optional[_Union[ActionKind, str]] = ..., dice: _Optional[_Iterable[int]] = ..., roll_off: _Optional[_Iterable[_Union[_dice_pb2.RollOffThrow, _Mapping]]] = ..., notation: _Optional[str] = ..., checker_moves: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., cube_value: _Optional[int] = ..., resign_kind: _Optional[_Union[_types_pb2.ResultKind, str]] = ..., elapsed: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., roll_tag: _Optional[str] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class GameClock(_message.Message):
    __slots__ = ("settings", "state", "turn_start_time")
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TURN_START_TIME_FIELD_NUMBER: _ClassVar[int]
    settings: _clock_pb2.ClockSettings
    state: _clock_pb2.ClockState
    turn_start_time: _timestamp_pb2.Timestamp
    def __init__(self, settings: _Optional[_Union[_clock_pb2.ClockSettings, _Mapping]] = ..., state: _Optional[_Union[_clock_pb2.ClockState, _Mapping]] = ..., turn_start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("version", "match_id", "sequence", "ruleset", "match", "phase", "position", "on_roll", "dice", "steps", "resignation", "resume_phase", "clock", "outcome", "turn", "dice_commitment", "record_digest")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ON_ROLL_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    RESIGNATION_FIELD_NUMBER: _ClassVar[int]
    RESUME_PHASE_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DICE_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    RECORD_DIGEST_FIELD_NUMBER: _ClassVar[int]
    version: int
    match_id: str
    sequence: int
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    phase: GamePhase
    position: bytes
    on_roll: _types_pb2.Side
    dice: _containers.RepeatedScalarFieldContainer[int]
    steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    resignation: _match_pb2.ResignationOffer
    resume_phase: GamePhase
    clock: GameClock
    outcome: _match_pb2.GameOutcome
    turn: int
    dice_commitment: bytes
    record_digest: bytes
    def __init__(self, version: _Optional[int] = ..., match_id: _Optional[str] = ..., sequence: _Optional[int] = ..., ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., phase: _Optional[_Union[GamePhase, str]] = ..., position: _Optional[bytes] = ..., on_roll: _Optional[_Union[_types_pb2.Side, str]] = ..., dice: _Optional[_Iterable[int]] = ..., steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., resignation: _Optional[_Union[_match_pb2.ResignationOffer, _Mapping]] = ..., resume_phase: _Optional[_Union[GamePhase, str]] = ..., clock: _Optional[_Union[GameClock, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., turn: _Optional[int] = ..., dice_commitment: _Optional[bytes] = ..., record_digest: _Optional[bytes] = ...) -> None: ...

class GameView(_message.Message):
    __slots__ = ("match_id", "sequence", "ruleset", "match", "phase", "side_to_act", "position", "current", "dice", "dice_left", "steps", "move_complete", "no_legal_move", "forced_move", "forced_steps", "resignation", "resume_phase", "clock", "outcome", "turn", "dice_commitment", "revealed_seed", "record_digest")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    SIDE_TO_ACT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    DICE_LEFT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    MOVE_COMPLETE_FIELD_NUMBER: _ClassVar[int]
    NO_LEGAL_MOVE_FIELD_NUMBER: _ClassVar[int]
    FORCED_MOVE_FIELD_NUMBER: _ClassVar[int]
    FORCED_STEPS_FIELD_NUMBER: _ClassVar[int]
    RESIGNATION_FIELD_NUMBER: _ClassVar[int]
    RESUME_PHASE_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DICE_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SEED_FIELD_NUMBER: _ClassVar[int]
    RECORD_DIGEST_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    sequence: int
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    phase: GamePhase
    side_to_act: _types_pb2.Side
    position: _types_pb2.Position
    current: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    dice_left: _containers.RepeatedScalarFieldContainer[int]
    steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    move_complete: bool
    no_legal_move: bool
    forced_move: bool
    forced_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    resignation: _match_pb2.ResignationOffer
    resume_phase: GamePhase
    clock: GameClock
    outcome: _match_pb2.GameOutcome
    turn: int
    dice_commitment: str
    revealed_seed: str
    record_digest: str
    def __init__(self, match_id: _Optional[str] = ..., sequence: _Optional[int] = ..., ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., phase: _Optional[_Union[GamePhase, str]] = ..., side_to_act: _Optional[_Union[_types_pb2.Side, str]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., current: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., dice_left: _Optional[_Iterable[int]] = ..., steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., move_complete: _Optional[bool] = ..., no_legal_move: _Optional[bool] = ..., forced_move: _Optional[bool] = ..., forced_steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., resignation: _Optional[_Union[_match_pb2.ResignationOffer, _Mapping]] = ..., resume_phase: _Optional[_Union[GamePhase, str]] = ..., clock: _Optional[_Union[GameClock, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., turn: _Optional[int] = ..., dice_commitment: _Optional[str] = ..., revealed_seed: _Optional[str] = ..., record_digest: _Optional[str] = ...) -> None: ...

class SignedGameState(_message.Message):
    __slots__ = ("state", "key_id", "signature")
    STATE_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    key_id: str
    signature: bytes
    def __init__(self, state: _Optional[bytes] = ..., key_id: _Optional[str] = ..., signature: _Optional[bytes] = ...) -> None: ...

class GameEvents(_message.Message):
    __slots__ = ("rolled", "roll_off", "hit", "outcome", "forfeit", "no_legal_move", "records")
    ROLLED_FIELD_NUMBER: _ClassVar[int]
    ROLL_OFF_FIELD_NUMBER: _ClassVar[int]
    HIT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    NO_LEGAL_MOVE_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    rolled: _containers.RepeatedScalarFieldContainer[int]
    roll_off: _containers.RepeatedCompositeFieldContainer[_dice_pb2.RollOffThrow]
    hit: bool
    outcome: _match_pb2.GameOutcome
    forfeit: _clock_pb2.ClockForfeit
    no_legal_move: bool
    records: _containers.RepeatedCompositeFieldContainer[ActionRecord]
    def __init__(self, rolled: _Optional[_Iterable[int]] = ..., roll_off: _Optional[_Iterable[_Union[_dice_pb2.RollOffThrow, _Mapping]]] = ..., hit: _Optional[bool] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., forfeit: _Optional[_Union[_clock_pb2.ClockForfeit, _Mapping]] = ..., no_legal_move: _Optional[bool] = ..., records: _Optional[_Iterable[_Union[ActionRecord, _Mapping]]] = ...) -> None: ...
