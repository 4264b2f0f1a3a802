from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameEnding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_ENDING_UNSPECIFIED: _ClassVar[GameEnding]
    GAME_ENDING_BORNE_OFF: _ClassVar[GameEnding]
    GAME_ENDING_DROP: _ClassVar[GameEnding]
    GAME_ENDING_RESIGNATION: _ClassVar[GameEnding]
    GAME_ENDING_FORFEIT_GAME: _ClassVar[GameEnding]
    GAME_ENDING_FORFEIT_MATCH: _ClassVar[GameEnding]
    GAME_ENDING_MOTHER_PINNED: _ClassVar[GameEnding]
    GAME_ENDING_DRAW: _ClassVar[GameEnding]

class CubeAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_ACTION_UNSPECIFIED: _ClassVar[CubeAction]
    CUBE_ACTION_DOUBLE: _ClassVar[CubeAction]
    CUBE_ACTION_TAKE: _ClassVar[CubeAction]
    CUBE_ACTION_DROP: _ClassVar[CubeAction]
    CUBE_ACTION_BEAVER: _ClassVar[CubeAction]
    CUBE_ACTION_RACCOON: _ClassVar[CubeAction]

class CubeDenial(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_DENIAL_UNSPECIFIED: _ClassVar[CubeDenial]
    CUBE_DENIAL_CUBE_DISABLED: _ClassVar[CubeDenial]
    CUBE_DENIAL_CRAWFORD_GAME: _ClassVar[CubeDenial]
    CUBE_DENIAL_CUBE_OWNED_BY_OPPONENT: _ClassVar[CubeDenial]
    CUBE_DENIAL_CUBE_AT_LIMIT: _ClassVar[CubeDenial]
    CUBE_DENIAL_DEAD_CUBE: _ClassVar[CubeDenial]
    CUBE_DENIAL_DOUBLE_PENDING: _ClassVar[CubeDenial]
    CUBE_DENIAL_MATCH_OVER: _ClassVar[CubeDenial]
GAME_ENDING_UNSPECIFIED: GameEnding
GAME_ENDING_BORNE_OFF: GameEnding
GAME_ENDING_DROP: GameEnding
GAME_ENDING_RESIGNATION: GameEnding
GAME_ENDING_FORFEIT_GAME: GameEnding
GAME_ENDING_FORFEIT_MATCH: GameEnding
GAME_ENDING_MOTHER_PINNED: GameEnding
GAME_ENDING_DRAW: GameEnding
CUBE_ACTION_UNSPECIFIED: CubeAction
CUBE_ACTION_DOUBLE: CubeAction
CUBE_ACTION_TAKE: CubeAction
CUBE_ACTION_DROP: CubeAction
CUBE_ACTION_BEAVER: CubeAction
CUBE_ACTION_RACCOON: CubeAction
CUBE_DENIAL_UNSPECIFIED: CubeDenial
CUBE_DENIAL_CUBE_DISABLED: CubeDenial
CUBE_DENIAL_CRAWFORD_GAME: CubeDenial
CUBE_DENIAL_CUBE_OWNED_BY_OPPONENT: CubeDenial
CUBE_DENIAL_CUBE_AT_LIMIT: CubeDenial
CUBE_DENIAL_DEAD_CUBE: CubeDenial
CUBE_DENIAL_DOUBLE_PENDING: CubeDenial
CUBE_DENIAL_MATCH_OVER: CubeDenial

class CubeState(_message.Message):
    __slots__ = ("value", "owner", "offered_by", "redoubles")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    OFFERED_BY_FIELD_NUMBER: _ClassVar[int]
    REDOUBLES_FIELD_NUMBER: _ClassVar[int]
    value: int
    owner: _types_pb2.Side
    offered_by: _types_pb2.Side
    redoubles: int
    def __init__(self, value: _Optional[int] = ..., owner: _Optional[_Union[_types_pb2.Side, str]] = ..., offered_by: _Optional[_Union[_types_pb2.Side, str]] = ..., redoubles: _Optional[int] = ...) -> None: ...

class MatchState(_message.Message):
    __slots__ = ("length", "white_score", "black_score", "crawford", "post_crawford", "cube", "previous_winner", "games_played", "winner", "match_id", "gnubg_id", "xgid")
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    WHITE_SCORE_FIELD_NUMBER: _ClassVar[int]
    BLACK_SCORE_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_FIELD_NUMBER: _ClassVar[int]
    POST_CRAWFORD_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_WINNER_FIELD_NUMBER: _ClassVar[int]
    GAMES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GNUBG_ID_FIELD_NUMBER: _ClassVar[int]
    XGID_FIELD_NUMBER: _ClassVar[int]
    length: int
    white_score: int
    black_score: int
    crawford: bool
    post_crawford: bool
    cube: CubeState
    previous_winner: _types_pb2.Side
    games_played: int
    winner: _types_pb2.Side
    match_id: str
    gnubg_id: str
    xgid: str
    def __init__(self, length: _Optional[int] = ..., white_score: _Optional[int] = ..., black_score: _Optional[int] = ..., crawford: _Optional[bool] = ..., post_crawford: _Optional[bool] = ..., cube: _Optional[_Union[CubeState, _Mapping]] = ..., previous_winner: _Optional[_Union[_types_pb2.Side, str]] = ..., games_played: _Optional[int] = ..., winner: _Optional[_Union[_types_pb2.Side, str]] = ..., match_id: _Optional[str] = ..., gnubg_id: _Optional[str] = ..., xgid: _Optional[str] = ...) -> None: ...

class GameOutcome(_message.Message):
    __slots__ = ("winner", "ending", "kind", "points")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    ENDING_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    winner: _types_pb2.Side
    ending: GameEnding
    kind: _types_pb2.ResultKind
    points: int
    def __init__(self, winner: _Optional[_Union[_types_pb2.Side, str]] = ..., ending: _Optional[_Union[GameEnding, str]] = ..., kind: _Optional[_Union[_types_pb2.ResultKind, str]] = ..., points: _Optional[int] = ...) -> None: ...

class ResignationOffer(_message.Message):
    __slots__ = ("side", "kind")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    side: _types_pb2.Side
    kind: _types_pb2.ResultKind
    def __init__(self, side: _Optional[_Union[_types_pb2.Side, str]] = ..., kind: _Optional[_Union[_types_pb2.ResultKind, str]] = ...) -> None: ...

class RulesetPreset(_message.Message):
    __slots__ = ("name", "aliases", "description", "ruleset", "title", "title_tr", "variant")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ALIASES_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TITLE_TR_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    name: str
    aliases: _containers.RepeatedScalarFieldContainer[str]
    description: str
    ruleset: _types_pb2.Ruleset
    title: str
    title_tr: str
    variant: VariantFacts
    def __init__(self, name: _Optional[str] = ..., aliases: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ..., ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., title: _Optional[str] = ..., title_tr: _Optional[str] = ..., variant: _Optional[_Union[VariantFacts, _Mapping]] = ...) -> None: ...

class VariantFacts(_message.Message):
    __slots__ = ("name", "aliases", "direction", "contact", "bar", "checkers", "home", "cube", "options", "doubles_cascade", "analysis")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ALIASES_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    BAR_FIELD_NUMBER: _ClassVar[int]
    CHECKERS_FIELD_NUMBER: _ClassVar[int]
    HOME_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DOUBLES_CASCADE_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    name: str
    aliases: _containers.RepeatedScalarFieldContainer[str]
    direction: str
    contact: str
    bar: bool
    checkers: int
    home: int
    cube: bool
    options: _containers.RepeatedCompositeFieldContainer[VariantOption]
    doubles_cascade: bool
    analysis: str
    def __init__(self, name: _Optional[str] = ..., aliases: _Optional[_Iterable[str]] = ..., direction: _Optional[str] = ..., contact: _Optional[str] = ..., bar: _Optional[bool] = ..., checkers: _Optional[int] = ..., home: _Optional[int] = ..., cube: _Optional[bool] = ..., options: _Optional[_Iterable[_Union[VariantOption, _Mapping]]] = ..., doubles_cascade: _Optional[bool] = ..., analysis: _Optional[str] = ...) -> None: ...

class VariantOption(_message.Message):
    __slots__ = ("name", "default_value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    default_value: bool
    def __init__(self, name: _Optional[str] = ..., default_value: _Optional[bool] = ...) -> None: ...
