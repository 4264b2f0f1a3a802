from tavla.v1 import bounds_pb2 as _bounds_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Side(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIDE_UNSPECIFIED: _ClassVar[Side]
    SIDE_WHITE: _ClassVar[Side]
    SIDE_BLACK: _ClassVar[Side]

class StartRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    START_RULE_UNSPECIFIED: _ClassVar[StartRule]
    START_RULE_INTERNATIONAL: _ClassVar[StartRule]
    START_RULE_TURKISH: _ClassVar[StartRule]

class KatmerliMarsRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KATMERLI_MARS_RULE_UNSPECIFIED: _ClassVar[KatmerliMarsRule]
    KATMERLI_MARS_RULE_COUNTED: _ClassVar[KatmerliMarsRule]
    KATMERLI_MARS_RULE_AS_MARS: _ClassVar[KatmerliMarsRule]

class ResultKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESULT_KIND_UNSPECIFIED: _ClassVar[ResultKind]
    RESULT_KIND_SINGLE: _ClassVar[ResultKind]
    RESULT_KIND_GAMMON: _ClassVar[ResultKind]
    RESULT_KIND_BACKGAMMON: _ClassVar[ResultKind]
SIDE_UNSPECIFIED: Side
SIDE_WHITE: Side
SIDE_BLACK: Side
START_RULE_UNSPECIFIED: StartRule
START_RULE_INTERNATIONAL: StartRule
START_RULE_TURKISH: StartRule
KATMERLI_MARS_RULE_UNSPECIFIED: KatmerliMarsRule
KATMERLI_MARS_RULE_COUNTED: KatmerliMarsRule
KATMERLI_MARS_RULE_AS_MARS: KatmerliMarsRule
RESULT_KIND_UNSPECIFIED: ResultKind
RESULT_KIND_SINGLE: ResultKind
RESULT_KIND_GAMMON: ResultKind
RESULT_KIND_BACKGAMMON: ResultKind

class Ruleset(_message.Message):
    __slots__ = ("preset", "start", "katmerli_mars", "cube", "crawford", "jacoby", "beavers", "cube_limit", "match_lengths", "variant", "prime_rule", "head_three_three", "koks")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    KATMERLI_MARS_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_FIELD_NUMBER: _ClassVar[int]
    JACOBY_FIELD_NUMBER: _ClassVar[int]
    BEAVERS_FIELD_NUMBER: _ClassVar[int]
    CUBE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    MATCH_LENGTHS_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PRIME_RULE_FIELD_NUMBER: _ClassVar[int]
    HEAD_THREE_THREE_FIELD_NUMBER: _ClassVar[int]
    KOKS_FIELD_NUMBER: _ClassVar[int]
    preset: str
    start: StartRule
    katmerli_mars: KatmerliMarsRule
    cube: bool
    crawford: bool
    jacoby: bool
    beavers: bool
    cube_limit: int
    match_lengths: MatchLengths
    variant: str
    prime_rule: bool
    head_three_three: bool
    koks: bool
    def __init__(self, preset: _Optional[str] = ..., start: _Optional[_Union[StartRule, str]] = ..., katmerli_mars: _Optional[_Union[KatmerliMarsRule, str]] = ..., cube: _Optional[bool] = ..., crawford: _Optional[bool] = ..., jacoby: _Optional[bool] = ..., beavers: _Optional[bool] = ..., cube_limit: _Optional[int] = ..., match_lengths: _Optional[_Union[MatchLengths, _Mapping]] = ..., variant: _Optional[str] = ..., prime_rule: _Optional[bool] = ..., head_three_three: _Optional[bool] = ..., koks: _Optional[bool] = ...) -> None: ...

class MatchLengths(_message.Message):
    __slots__ = ("lengths", "money_play")
    LENGTHS_FIELD_NUMBER: _ClassVar[int]
    MONEY_PLAY_FIELD_NUMBER: _ClassVar[int]
    lengths: _containers.RepeatedScalarFieldContainer[int]
    money_play: bool
    def __init__(self, lengths: _Optional[_Iterable[int]] = ..., money_play: _Optional[bool] = ...) -> None: ...

class SideCheckers(_message.Message):
    __slots__ = ("points", "bar", "borne_off", "pip_count", "pinned")
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BAR_FIELD_NUMBER: _ClassVar[int]
    BORNE_OFF_FIELD_NUMBER: _ClassVar[int]
    PIP_COUNT_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    bar: int
    borne_off: int
    pip_count: int
    pinned: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, points: _Optional[_Iterable[int]] = ..., bar: _Optional[int] = ..., borne_off: _Optional[int] = ..., pip_count: _Optional[int] = ..., pinned: _Optional[_Iterable[int]] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ("white", "black")
    WHITE_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    white: SideCheckers
    black: SideCheckers
    def __init__(self, white: _Optional[_Union[SideCheckers, _Mapping]] = ..., black: _Optional[_Union[SideCheckers, _Mapping]] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("on_roll", "board", "position_id", "gnubg_id", "xgid", "family_id", "ids")
    ON_ROLL_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    GNUBG_ID_FIELD_NUMBER: _ClassVar[int]
    XGID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ID_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    on_roll: Side
    board: Board
    position_id: str
    gnubg_id: str
    xgid: str
    family_id: str
    ids: PositionIds
    def __init__(self, on_roll: _Optional[_Union[Side, str]] = ..., board: _Optional[_Union[Board, _Mapping]] = ..., position_id: _Optional[str] = ..., gnubg_id: _Optional[str] = ..., xgid: _Optional[str] = ..., family_id: _Optional[str] = ..., ids: _Optional[_Union[PositionIds, _Mapping]] = ...) -> None: ...

class PositionIds(_message.Message):
    __slots__ = ("position_id", "gnubg_id", "xgid", "family_id")
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    GNUBG_ID_FIELD_NUMBER: _ClassVar[int]
    XGID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ID_FIELD_NUMBER: _ClassVar[int]
    position_id: str
    gnubg_id: str
    xgid: str
    family_id: str
    def __init__(self, position_id: _Optional[str] = ..., gnubg_id: _Optional[str] = ..., xgid: _Optional[str] = ..., family_id: _Optional[str] = ...) -> None: ...

class CheckerMove(_message.Message):
    __slots__ = ("from_point", "to_point", "die", "hit")
    FROM_POINT_FIELD_NUMBER: _ClassVar[int]
    TO_POINT_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    HIT_FIELD_NUMBER: _ClassVar[int]
    from_point: int
    to_point: int
    die: int
    hit: bool
    def __init__(self, from_point: _Optional[int] = ..., to_point: _Optional[int] = ..., die: _Optional[int] = ..., hit: _Optional[bool] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("notation", "checker_moves", "result")
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    CHECKER_MOVES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    notation: str
    checker_moves: _containers.RepeatedCompositeFieldContainer[CheckerMove]
    result: Position
    def __init__(self, notation: _Optional[str] = ..., checker_moves: _Optional[_Iterable[_Union[CheckerMove, _Mapping]]] = ..., result: _Optional[_Union[Position, _Mapping]] = ...) -> None: ...
