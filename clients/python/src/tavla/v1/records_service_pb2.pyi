from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import game_pb2 as _game_pb2
from tavla.v1 import validate_pb2 as _validate_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ExportFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EXPORT_FORMAT_UNSPECIFIED: _ClassVar[ExportFormat]
    EXPORT_FORMAT_MAT: _ClassVar[ExportFormat]
    EXPORT_FORMAT_SGF: _ClassVar[ExportFormat]
EXPORT_FORMAT_UNSPECIFIED: ExportFormat
EXPORT_FORMAT_MAT: ExportFormat
EXPORT_FORMAT_SGF: ExportFormat

class ExportMatchRequest(_message.Message):
    __slots__ = ("state", "records", "format", "white_player", "black_player", "headers")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    STATE_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    WHITE_PLAYER_FIELD_NUMBER: _ClassVar[int]
    BLACK_PLAYER_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    records: _containers.RepeatedCompositeFieldContainer[_game_pb2.ActionRecord]
    format: ExportFormat
    white_player: str
    black_player: str
    headers: _containers.ScalarMap[str, str]
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., records: _Optional[_Iterable[_Union[_game_pb2.ActionRecord, _Mapping]]] = ..., format: _Optional[_Union[ExportFormat, str]] = ..., white_player: _Optional[str] = ..., black_player: _Optional[str] = ..., headers: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ExportMatchResponse(_message.Message):
    __slots__ = ("content", "file_name", "media_type", "games", "match_over")
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    content: str
    file_name: str
    media_type: str
    games: int
    match_over: bool
    def __init__(self, content: _Optional[str] = ..., file_name: _Optional[str] = ..., media_type: _Optional[str] = ..., games: _Optional[int] = ..., match_over: _Optional[bool] = ...) -> None: ...
