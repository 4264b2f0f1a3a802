from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor
BOUNDS_FIELD_NUMBER: _ClassVar[int]
bounds: _descriptor.FieldDescriptor

class FieldBounds(_message.Message):
    __slots__ = ("min", "max", "max_len", "max_items", "max_seconds", "unbounded")
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MAX_LEN_FIELD_NUMBER: _ClassVar[int]
    MAX_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MAX_SECONDS_FIELD_NUMBER: _ClassVar[int]
    UNBOUNDED_FIELD_NUMBER: _ClassVar[int]
    min: int
    max: int
    max_len: int
    max_items: int
    max_seconds: int
    unbounded: str
    def __init__(self, min: _Optional[int] = ..., max: _Optional[int] = ..., max_len: _Optional[int] = ..., max_items: _Optional[int] = ..., max_seconds: _Optional[int] = ..., unbounded: _Optional[str] = ...) -> None: ...
