from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RenderOptions(_message.Message):
    __slots__ = ("bottom", "width", "home_left")
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    HOME_LEFT_FIELD_NUMBER: _ClassVar[int]
    bottom: _types_pb2.Side
    width: int
    home_left: bool
    def __init__(self, bottom: _Optional[_Union[_types_pb2.Side, str]] = ..., width: _Optional[int] = ..., home_left: _Optional[bool] = ...) -> None: ...
