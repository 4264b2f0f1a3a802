from tavla.v1 import bearoff_pb2 as _bearoff_pb2
from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import dice_pb2 as _dice_pb2
from tavla.v1 import match_pb2 as _match_pb2
from tavla.v1 import render_pb2 as _render_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MoveView(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_VIEW_UNSPECIFIED: _ClassVar[MoveView]
    MOVE_VIEW_FULL: _ClassVar[MoveView]
    MOVE_VIEW_BASIC: _ClassVar[MoveView]
MOVE_VIEW_UNSPECIFIED: MoveView
MOVE_VIEW_FULL: MoveView
MOVE_VIEW_BASIC: MoveView

class GetInitialPositionRequest(_message.Message):
    __slots__ = ("ruleset", "on_roll")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ON_ROLL_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    on_roll: _types_pb2.Side
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., on_roll: _Optional[_Union[_types_pb2.Side, str]] = ...) -> None: ...

class GetInitialPositionResponse(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: _types_pb2.Position
    def __init__(self, position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice", "view")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    view: MoveView
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., view: _Optional[_Union[MoveView, str]] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "dice_used")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    DICE_USED_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    dice_used: int
    def __init__(self, moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., dice_used: _Optional[int] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice", "move", "match")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    move: _types_pb2.Move
    match: _match_pb2.MatchState
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("move", "outcome")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    move: _types_pb2.Move
    outcome: _match_pb2.GameOutcome
    def __init__(self, move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class ScoreGameRequest(_message.Message):
    __slots__ = ("ruleset", "position", "match")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    match: _match_pb2.MatchState
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ...) -> None: ...

class ScoreGameResponse(_message.Message):
    __slots__ = ("outcome",)
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: _match_pb2.GameOutcome
    def __init__(self, outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class BearOffRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ...) -> None: ...

class BearOffResponse(_message.Message):
    __slots__ = ("white", "black", "race", "moves", "best_move")
    WHITE_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    RACE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_FIELD_NUMBER: _ClassVar[int]
    white: _bearoff_pb2.BearOffStatus
    black: _bearoff_pb2.BearOffStatus
    race: _bearoff_pb2.RaceOdds
    moves: _containers.RepeatedCompositeFieldContainer[_bearoff_pb2.RankedMove]
    best_move: _types_pb2.Move
    def __init__(self, white: _Optional[_Union[_bearoff_pb2.BearOffStatus, _Mapping]] = ..., black: _Optional[_Union[_bearoff_pb2.BearOffStatus, _Mapping]] = ..., race: _Optional[_Union[_bearoff_pb2.RaceOdds, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[_bearoff_pb2.RankedMove, _Mapping]]] = ..., best_move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ...) -> None: ...

class RenderPositionRequest(_message.Message):
    __slots__ = ("ruleset", "position", "match", "dice", "options")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    match: _match_pb2.MatchState
    dice: _containers.RepeatedScalarFieldContainer[int]
    options: _render_pb2.RenderOptions
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., options: _Optional[_Union[_render_pb2.RenderOptions, _Mapping]] = ...) -> None: ...

class RenderPositionResponse(_message.Message):
    __slots__ = ("svg", "text", "position")
    SVG_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    svg: str
    text: str
    position: _types_pb2.Position
    def __init__(self, svg: _Optional[str] = ..., text: _Optional[str] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ...) -> None: ...

class NameRollRequest(_message.Message):
    __slots__ = ("dice",)
    DICE_FIELD_NUMBER: _ClassVar[int]
    dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, dice: _Optional[_Iterable[int]] = ...) -> None: ...

class NameRollResponse(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: _dice_pb2.RollName
    def __init__(self, name: _Optional[_Union[_dice_pb2.RollName, _Mapping]] = ...) -> None: ...
