from tavla.v1 import clock_pb2 as _clock_pb2
from tavla.v1 import game_pb2 as _game_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class NewMatchRequest(_message.Message):
    __slots__ = ("ruleset", "length", "clock", "match_id")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    length: int
    clock: _clock_pb2.ClockSettings
    match_id: str
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., length: _Optional[int] = ..., clock: _Optional[_Union[_clock_pb2.ClockSettings, _Mapping]] = ..., match_id: _Optional[str] = ...) -> None: ...

class NewMatchResponse(_message.Message):
    __slots__ = ("state", "game")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    game: _game_pb2.GameState
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., game: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class ListActionsRequest(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ...) -> None: ...

class ListActionsResponse(_message.Message):
    __slots__ = ("actions", "game")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    game: _game_pb2.GameState
    def __init__(self, actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ..., game: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("state", "action", "dice", "now_ms")
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    action: _game_pb2.GameAction
    dice: _containers.RepeatedScalarFieldContainer[int]
    now_ms: int
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.GameAction, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., now_ms: _Optional[int] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("state", "game", "events")
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    game: _game_pb2.GameState
    events: _game_pb2.GameEvents
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., game: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., events: _Optional[_Union[_game_pb2.GameEvents, _Mapping]] = ...) -> None: ...
