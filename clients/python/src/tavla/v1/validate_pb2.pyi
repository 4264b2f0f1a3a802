from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RecordFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RECORD_FORMAT_UNSPECIFIED: _ClassVar[RecordFormat]
    RECORD_FORMAT_MAT: _ClassVar[RecordFormat]
    RECORD_FORMAT_SGF: _ClassVar[RecordFormat]

class ValidationRules(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VALIDATION_RULES_UNSPECIFIED: _ClassVar[ValidationRules]
    VALIDATION_RULES_AUTO: _ClassVar[ValidationRules]
    VALIDATION_RULES_MATCH: _ClassVar[ValidationRules]
    VALIDATION_RULES_MONEY: _ClassVar[ValidationRules]
    VALIDATION_RULES_MONEY_JACOBY: _ClassVar[ValidationRules]
RECORD_FORMAT_UNSPECIFIED: RecordFormat
RECORD_FORMAT_MAT: RecordFormat
RECORD_FORMAT_SGF: RecordFormat
VALIDATION_RULES_UNSPECIFIED: ValidationRules
VALIDATION_RULES_AUTO: ValidationRules
VALIDATION_RULES_MATCH: ValidationRules
VALIDATION_RULES_MONEY: ValidationRules
VALIDATION_RULES_MONEY_JACOBY: ValidationRules

class ValidateMatchRequest(_message.Message):
    __slots__ = ("format", "rules", "source", "chunk", "event")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    format: RecordFormat
    rules: ValidationRules
    source: str
    chunk: bytes
    event: RecordEvent
    def __init__(self, format: _Optional[_Union[RecordFormat, str]] = ..., rules: _Optional[_Union[ValidationRules, str]] = ..., source: _Optional[str] = ..., chunk: _Optional[bytes] = ..., event: _Optional[_Union[RecordEvent, _Mapping]] = ...) -> None: ...

class RecordEvent(_message.Message):
    __slots__ = ("record", "game", "roll", "cube", "result")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    record: RecordStart
    game: RecordedGameStart
    roll: RecordedRoll
    cube: RecordedCube
    result: RecordedResult
    def __init__(self, record: _Optional[_Union[RecordStart, _Mapping]] = ..., game: _Optional[_Union[RecordedGameStart, _Mapping]] = ..., roll: _Optional[_Union[RecordedRoll, _Mapping]] = ..., cube: _Optional[_Union[RecordedCube, _Mapping]] = ..., result: _Optional[_Union[RecordedResult, _Mapping]] = ...) -> None: ...

class RecordStart(_message.Message):
    __slots__ = ("length", "white_player", "black_player", "headers")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    WHITE_PLAYER_FIELD_NUMBER: _ClassVar[int]
    BLACK_PLAYER_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    length: int
    white_player: str
    black_player: str
    headers: _containers.ScalarMap[str, str]
    def __init__(self, length: _Optional[int] = ..., white_player: _Optional[str] = ..., black_player: _Optional[str] = ..., headers: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RecordedGameStart(_message.Message):
    __slots__ = ("number", "white_score", "black_score")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    WHITE_SCORE_FIELD_NUMBER: _ClassVar[int]
    BLACK_SCORE_FIELD_NUMBER: _ClassVar[int]
    number: int
    white_score: int
    black_score: int
    def __init__(self, number: _Optional[int] = ..., white_score: _Optional[int] = ..., black_score: _Optional[int] = ...) -> None: ...

class RecordedRoll(_message.Message):
    __slots__ = ("player", "dice", "play")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    player: _types_pb2.Side
    dice: _containers.RepeatedScalarFieldContainer[int]
    play: str
    def __init__(self, player: _Optional[_Union[_types_pb2.Side, str]] = ..., dice: _Optional[_Iterable[int]] = ..., play: _Optional[str] = ...) -> None: ...

class RecordedCube(_message.Message):
    __slots__ = ("player", "action", "value")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    player: _types_pb2.Side
    action: str
    value: int
    def __init__(self, player: _Optional[_Union[_types_pb2.Side, str]] = ..., action: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class RecordedResult(_message.Message):
    __slots__ = ("player", "points", "loss", "match_won")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    MATCH_WON_FIELD_NUMBER: _ClassVar[int]
    player: _types_pb2.Side
    points: int
    loss: bool
    match_won: bool
    def __init__(self, player: _Optional[_Union[_types_pb2.Side, str]] = ..., points: _Optional[int] = ..., loss: _Optional[bool] = ..., match_won: _Optional[bool] = ...) -> None: ...

class ValidateMatchResponse(_message.Message):
    __slots__ = ("game", "record")
    GAME_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    game: GameVerdict
    record: RecordVerdict
    def __init__(self, game: _Optional[_Union[GameVerdict, _Mapping]] = ..., record: _Optional[_Union[RecordVerdict, _Mapping]] = ...) -> None: ...

class IllegalPlay(_message.Message):
    __slots__ = ("line", "play", "reason", "position_id")
    LINE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    line: int
    play: str
    reason: str
    position_id: str
    def __init__(self, line: _Optional[int] = ..., play: _Optional[str] = ..., reason: _Optional[str] = ..., position_id: _Optional[str] = ...) -> None: ...

class GameVerdict(_message.Message):
    __slots__ = ("record", "source", "game_number", "line", "plays_checked", "first_illegal", "points_agree", "score_agree", "disagreements", "notes", "finished", "capped", "drops", "resigned", "forfeits", "cube_actions", "crawford_game", "match_updates")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    PLAYS_CHECKED_FIELD_NUMBER: _ClassVar[int]
    FIRST_ILLEGAL_FIELD_NUMBER: _ClassVar[int]
    POINTS_AGREE_FIELD_NUMBER: _ClassVar[int]
    SCORE_AGREE_FIELD_NUMBER: _ClassVar[int]
    DISAGREEMENTS_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    CAPPED_FIELD_NUMBER: _ClassVar[int]
    DROPS_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    FORFEITS_FIELD_NUMBER: _ClassVar[int]
    CUBE_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_UPDATES_FIELD_NUMBER: _ClassVar[int]
    record: int
    source: str
    game_number: int
    line: int
    plays_checked: int
    first_illegal: IllegalPlay
    points_agree: bool
    score_agree: bool
    disagreements: _containers.RepeatedScalarFieldContainer[str]
    notes: _containers.RepeatedScalarFieldContainer[str]
    finished: int
    capped: int
    drops: int
    resigned: int
    forfeits: int
    cube_actions: int
    crawford_game: bool
    match_updates: int
    def __init__(self, record: _Optional[int] = ..., source: _Optional[str] = ..., game_number: _Optional[int] = ..., line: _Optional[int] = ..., plays_checked: _Optional[int] = ..., first_illegal: _Optional[_Union[IllegalPlay, _Mapping]] = ..., points_agree: _Optional[bool] = ..., score_agree: _Optional[bool] = ..., disagreements: _Optional[_Iterable[str]] = ..., notes: _Optional[_Iterable[str]] = ..., finished: _Optional[int] = ..., capped: _Optional[int] = ..., drops: _Optional[int] = ..., resigned: _Optional[int] = ..., forfeits: _Optional[int] = ..., cube_actions: _Optional[int] = ..., crawford_game: _Optional[bool] = ..., match_updates: _Optional[int] = ...) -> None: ...

class RecordVerdict(_message.Message):
    __slots__ = ("record", "source", "readable", "error", "length", "games", "plays_checked", "rules", "money_session", "unfinished", "white_score", "black_score", "match_winner", "disagreements", "notes", "unlisted")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    READABLE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    PLAYS_CHECKED_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    MONEY_SESSION_FIELD_NUMBER: _ClassVar[int]
    UNFINISHED_FIELD_NUMBER: _ClassVar[int]
    WHITE_SCORE_FIELD_NUMBER: _ClassVar[int]
    BLACK_SCORE_FIELD_NUMBER: _ClassVar[int]
    MATCH_WINNER_FIELD_NUMBER: _ClassVar[int]
    DISAGREEMENTS_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    UNLISTED_FIELD_NUMBER: _ClassVar[int]
    record: int
    source: str
    readable: bool
    error: str
    length: int
    games: int
    plays_checked: int
    rules: str
    money_session: bool
    unfinished: bool
    white_score: int
    black_score: int
    match_winner: _types_pb2.Side
    disagreements: _containers.RepeatedScalarFieldContainer[str]
    notes: _containers.RepeatedScalarFieldContainer[str]
    unlisted: int
    def __init__(self, record: _Optional[int] = ..., source: _Optional[str] = ..., readable: _Optional[bool] = ..., error: _Optional[str] = ..., length: _Optional[int] = ..., games: _Optional[int] = ..., plays_checked: _Optional[int] = ..., rules: _Optional[str] = ..., money_session: _Optional[bool] = ..., unfinished: _Optional[bool] = ..., white_score: _Optional[int] = ..., black_score: _Optional[int] = ..., match_winner: _Optional[_Union[_types_pb2.Side, str]] = ..., disagreements: _Optional[_Iterable[str]] = ..., notes: _Optional[_Iterable[str]] = ..., unlisted: _Optional[int] = ...) -> None: ...
