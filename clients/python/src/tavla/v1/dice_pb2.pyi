from tavla.v1 import bounds_pb2 as _bounds_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RollName(_message.Message):
    __slots__ = ("turkish", "aliases", "numbers")
    TURKISH_FIELD_NUMBER: _ClassVar[int]
    ALIASES_FIELD_NUMBER: _ClassVar[int]
    NUMBERS_FIELD_NUMBER: _ClassVar[int]
    turkish: str
    aliases: _containers.RepeatedScalarFieldContainer[str]
    numbers: str
    def __init__(self, turkish: _Optional[str] = ..., aliases: _Optional[_Iterable[str]] = ..., numbers: _Optional[str] = ...) -> None: ...

class RollOffThrow(_message.Message):
    __slots__ = ("white_die", "black_die", "name")
    WHITE_DIE_FIELD_NUMBER: _ClassVar[int]
    BLACK_DIE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    white_die: int
    black_die: int
    name: RollName
    def __init__(self, white_die: _Optional[int] = ..., black_die: _Optional[int] = ..., name: _Optional[_Union[RollName, _Mapping]] = ...) -> None: ...

class DiceSeed(_message.Message):
    __slots__ = ("token", "client_seed")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SEED_FIELD_NUMBER: _ClassVar[int]
    token: str
    client_seed: str
    def __init__(self, token: _Optional[str] = ..., client_seed: _Optional[str] = ...) -> None: ...

class DiceProof(_message.Message):
    __slots__ = ("scheme", "commitment", "server_seed", "client_seed")
    SCHEME_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SERVER_SEED_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SEED_FIELD_NUMBER: _ClassVar[int]
    scheme: str
    commitment: str
    server_seed: str
    client_seed: str
    def __init__(self, scheme: _Optional[str] = ..., commitment: _Optional[str] = ..., server_seed: _Optional[str] = ..., client_seed: _Optional[str] = ...) -> None: ...
