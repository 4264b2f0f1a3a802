from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BearOffStatus(_message.Message):
    __slots__ = ("side", "can_bear_off", "borne_off", "pip_count", "contact", "expected_rolls", "effective_pip_count", "rolls_distribution")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    CAN_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    BORNE_OFF_FIELD_NUMBER: _ClassVar[int]
    PIP_COUNT_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_ROLLS_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_PIP_COUNT_FIELD_NUMBER: _ClassVar[int]
    ROLLS_DISTRIBUTION_FIELD_NUMBER: _ClassVar[int]
    side: _types_pb2.Side
    can_bear_off: bool
    borne_off: int
    pip_count: int
    contact: bool
    expected_rolls: float
    effective_pip_count: float
    rolls_distribution: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, side: _Optional[_Union[_types_pb2.Side, str]] = ..., can_bear_off: _Optional[bool] = ..., borne_off: _Optional[int] = ..., pip_count: _Optional[int] = ..., contact: _Optional[bool] = ..., expected_rolls: _Optional[float] = ..., effective_pip_count: _Optional[float] = ..., rolls_distribution: _Optional[_Iterable[float]] = ...) -> None: ...

class RaceOdds(_message.Message):
    __slots__ = ("on_roll", "win", "win_gammon", "lose_gammon", "expected_points")
    ON_ROLL_FIELD_NUMBER: _ClassVar[int]
    WIN_FIELD_NUMBER: _ClassVar[int]
    WIN_GAMMON_FIELD_NUMBER: _ClassVar[int]
    LOSE_GAMMON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_POINTS_FIELD_NUMBER: _ClassVar[int]
    on_roll: _types_pb2.Side
    win: float
    win_gammon: float
    lose_gammon: float
    expected_points: float
    def __init__(self, on_roll: _Optional[_Union[_types_pb2.Side, str]] = ..., win: _Optional[float] = ..., win_gammon: _Optional[float] = ..., lose_gammon: _Optional[float] = ..., expected_points: _Optional[float] = ...) -> None: ...

class RankedMove(_message.Message):
    __slots__ = ("move", "expected_rolls")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_ROLLS_FIELD_NUMBER: _ClassVar[int]
    move: _types_pb2.Move
    expected_rolls: float
    def __init__(self, move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., expected_rolls: _Optional[float] = ...) -> None: ...
