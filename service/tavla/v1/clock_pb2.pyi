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
    __slots__ = ("preset", "move_ms", "extensions", "extension_ms", "reserve_ms", "move_cap_ms", "reconnect_ms", "break_ms", "breaks")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    MOVE_MS_FIELD_NUMBER: _ClassVar[int]
    EXTENSIONS_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_MS_FIELD_NUMBER: _ClassVar[int]
    RESERVE_MS_FIELD_NUMBER: _ClassVar[int]
    MOVE_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    RECONNECT_MS_FIELD_NUMBER: _ClassVar[int]
    BREAK_MS_FIELD_NUMBER: _ClassVar[int]
    BREAKS_FIELD_NUMBER: _ClassVar[int]
    preset: ClockPreset
    move_ms: int
    extensions: int
    extension_ms: int
    reserve_ms: int
    move_cap_ms: int
    reconnect_ms: int
    break_ms: int
    breaks: int
    def __init__(self, preset: _Optional[_Union[ClockPreset, str]] = ..., move_ms: _Optional[int] = ..., extensions: _Optional[int] = ..., extension_ms: _Optional[int] = ..., reserve_ms: _Optional[int] = ..., move_cap_ms: _Optional[int] = ..., reconnect_ms: _Optional[int] = ..., break_ms: _Optional[int] = ..., breaks: _Optional[int] = ...) -> None: ...

class SideClock(_message.Message):
    __slots__ = ("extensions_left", "reserve_ms", "breaks_left")
    EXTENSIONS_LEFT_FIELD_NUMBER: _ClassVar[int]
    RESERVE_MS_FIELD_NUMBER: _ClassVar[int]
    BREAKS_LEFT_FIELD_NUMBER: _ClassVar[int]
    extensions_left: int
    reserve_ms: int
    breaks_left: int
    def __init__(self, extensions_left: _Optional[int] = ..., reserve_ms: _Optional[int] = ..., breaks_left: _Optional[int] = ...) -> None: ...

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
