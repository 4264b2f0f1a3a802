from tavla.v1 import bounds_pb2 as _bounds_pb2
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
    __slots__ = ("state", "view", "actions")
    STATE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    view: _game_pb2.GameView
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ...) -> None: ...

class ListActionsRequest(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ...) -> None: ...

class ListActionsResponse(_message.Message):
    __slots__ = ("actions", "view")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    view: _game_pb2.GameView
    def __init__(self, actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ..., view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("state", "action")
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    action: _game_pb2.GameAction
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.GameAction, _Mapping]] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("state", "view", "events", "actions")
    STATE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    view: _game_pb2.GameView
    events: _game_pb2.GameEvents
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ..., events: _Optional[_Union[_game_pb2.GameEvents, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ...) -> None: ...
