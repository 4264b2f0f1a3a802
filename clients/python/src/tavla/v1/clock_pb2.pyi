import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import match_pb2 as _match_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ClockPreset(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLOCK_PRESET_UNSPECIFIED: _ClassVar[ClockPreset]
    CLOCK_PRESET_EXTENSIONS: _ClassVar[ClockPreset]
    CLOCK_PRESET_RESERVE: _ClassVar[ClockPreset]

class ClockEvent(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLOCK_EVENT_UNSPECIFIED: _ClassVar[ClockEvent]
    CLOCK_EVENT_MOVE: _ClassVar[ClockEvent]
    CLOCK_EVENT_DISCONNECT: _ClassVar[ClockEvent]
    CLOCK_EVENT_BREAK: _ClassVar[ClockEvent]
    CLOCK_EVENT_NEW_GAME: _ClassVar[ClockEvent]

class ForfeitReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FORFEIT_REASON_UNSPECIFIED: _ClassVar[ForfeitReason]
    FORFEIT_REASON_EXTENSIONS_EXHAUSTED: _ClassVar[ForfeitReason]
    FORFEIT_REASON_RESERVE_EXHAUSTED: _ClassVar[ForfeitReason]
    FORFEIT_REASON_MOVE_TIME_CAP: _ClassVar[ForfeitReason]
    FORFEIT_REASON_MOVE_TIME_EXPIRED: _ClassVar[ForfeitReason]
    FORFEIT_REASON_RECONNECT_EXPIRED: _ClassVar[ForfeitReason]
    FORFEIT_REASON_BREAK_OVERRUN: _ClassVar[ForfeitReason]
CLOCK_PRESET_UNSPECIFIED: ClockPreset
CLOCK_PRESET_EXTENSIONS: ClockPreset
CLOCK_PRESET_RESERVE: ClockPreset
CLOCK_EVENT_UNSPECIFIED: ClockEvent
CLOCK_EVENT_MOVE: ClockEvent
CLOCK_EVENT_DISCONNECT: ClockEvent
CLOCK_EVENT_BREAK: ClockEvent
CLOCK_EVENT_NEW_GAME: ClockEvent
FORFEIT_REASON_UNSPECIFIED: ForfeitReason
FORFEIT_REASON_EXTENSIONS_EXHAUSTED: ForfeitReason
FORFEIT_REASON_RESERVE_EXHAUSTED: ForfeitReason
FORFEIT_REASON_MOVE_TIME_CAP: ForfeitReason
FORFEIT_REASON_MOVE_TIME_EXPIRED: ForfeitReason
FORFEIT_REASON_RECONNECT_EXPIRED: ForfeitReason
FORFEIT_REASON_BREAK_OVERRUN: ForfeitReason

class ClockSettings(_message.Message):
    __slots__ = ("preset", "move_time", "extensions", "extension_time", "reserve", "move_cap", "reconnect_window", "break_time", "breaks")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXTENSIONS_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_TIME_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    MOVE_CAP_FIELD_NUMBER: _ClassVar[int]
    RECONNECT_WINDOW_FIELD_NUMBER: _ClassVar[int]
    BREAK_TIME_FIELD_NUMBER: _ClassVar[int]
    BREAKS_FIELD_NUMBER: _ClassVar[int]
    preset: ClockPreset
    move_time: _duration_pb2.Duration
    extensions: int
    extension_time: _duration_pb2.Duration
    reserve: _duration_pb2.Duration
    move_cap: _duration_pb2.Duration
    reconnect_window: _duration_pb2.Duration
    break_time: _duration_pb2.Duration
    breaks: int
    def __init__(self, preset: _Optional[_Union[ClockPreset, str]] = ..., move_time: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., extensions: _Optional[int] = ..., extension_time: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., reserve: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., move_cap: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., reconnect_window: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., break_time: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., breaks: _Optional[int] = ...) -> None: ...

class SideClock(_message.Message):
    __slots__ = ("extensions_left", "reserve", "breaks_left")
    EXTENSIONS_LEFT_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    BREAKS_LEFT_FIELD_NUMBER: _ClassVar[int]
    extensions_left: int
    reserve: _duration_pb2.Duration
    breaks_left: int
    def __init__(self, extensions_left: _Optional[int] = ..., reserve: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., breaks_left: _Optional[int] = ...) -> None: ...

class ClockState(_message.Message):
    __slots__ = ("white", "black")
    WHITE_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    white: SideClock
    black: SideClock
    def __init__(self, white: _Optional[_Union[SideClock, _Mapping]] = ..., black: _Optional[_Union[SideClock, _Mapping]] = ...) -> None: ...

class ClockForfeit(_message.Message):
    __slots__ = ("side", "reason", "outcome")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    side: _types_pb2.Side
    reason: ForfeitReason
    outcome: _match_pb2.GameOutcome
    def __init__(self, side: _Optional[_Union[_types_pb2.Side, str]] = ..., reason: _Optional[_Union[ForfeitReason, str]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...
