"""Client of ``tavla.v1.EngineService``: :class:`Client` (blocking) and :class:`AsyncClient` (asyncio).

Both open a channel with the default service config (:data:`SERVICE_CONFIG`, the same in every
language's client; docs/clients.md): each call's deadline is at most 30 s, and a call that fails
with ``UNAVAILABLE`` is retried up to four more times with exponential backoff. Every RPC is
stateless, so a retry is always safe.

    >>> from tavla.client import Client
    >>> with Client("localhost:50051") as engine:                 # doctest: +SKIP
    ...     start = engine.initial_position()
    ...     moves = engine.legal_moves(start, (5, 1))
    ...     print(engine.apply_move(start, (5, 1), moves[0]).position.position_id)
    4PPgASjgc/ABMA

The helpers accept a position as a ``Position`` message or a Position ID string, and a move as a
``Move`` message or its notation. ``client.stub`` is the generated stub, for every RPC with the
full request and response messages. Failed calls raise :class:`EngineError`, which carries the
status code and the rich error details (``ErrorInfo`` reason, ``BadRequest`` fields).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import grpc
import grpc.aio
from google.rpc import error_details_pb2, status_pb2

from tavla.v1 import engine_service_pb2, engine_service_pb2_grpc, types_pb2

__all__ = [
    "DEFAULT_TARGET", "SERVICE_CONFIG", "START_POSITION_ID", "AsyncClient", "Client", "EngineError",
    "channel_options", "position",
]

DEFAULT_TARGET = "localhost:50051"
START_POSITION_ID = "4HPwATDgc/ABMA"  # the starting position (R2), either side on roll

# The default service config of every tavla client (clients/service_config.json; a test checks
# they agree). Timeout: the deadline of a call that sets none, and the longest one any call gets.
SERVICE_CONFIG: dict[str, Any] = {
    "methodConfig": [
        {
            "name": [{"service": "tavla.v1.EngineService"}],
            "timeout": "30s",
            "retryPolicy": {
                "maxAttempts": 5,
                "initialBackoff": "0.1s",
                "maxBackoff": "2s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        },
        # ValidateMatch streams a whole archive: no timeout and no retry (a retry would resend it)
        {"name": [{"service": "tavla.v1.EngineService", "method": "ValidateMatch"}]},
    ]
}

_STATUS_DETAILS_KEY = "grpc-status-details-bin"

PositionLike = types_pb2.Position | str
MoveLike = types_pb2.Move | str


def channel_options(extra: Iterable[tuple[str, Any]] = ()) -> list[tuple[str, Any]]:
    """Channel options that install :data:`SERVICE_CONFIG` with retries on, then ``extra``."""
    return [("grpc.service_config", json.dumps(SERVICE_CONFIG)), ("grpc.enable_retries", 1), *extra]


def position(value: PositionLike, on_roll: int = types_pb2.SIDE_UNSPECIFIED) -> types_pb2.Position:
    """A ``Position`` from a Position ID (``on_roll`` unset means white), or the message itself."""
    if isinstance(value, types_pb2.Position):
        return value
    return types_pb2.Position(position_id=value, on_roll=on_roll)


def _move(value: MoveLike) -> types_pb2.Move:
    return value if isinstance(value, types_pb2.Move) else types_pb2.Move(notation=value)


@dataclass(eq=False)
class EngineError(Exception):
    """A failed call: the status code and message, and the rich details the server sent.

    :ivar code: the gRPC status code.
    :ivar message: the status message.
    :ivar reason: ``ErrorInfo.reason`` for a broken rule (``MUST_USE_BOTH_DICE``, ``GAME_OVER``, ...),
        else ``""``.
    :ivar domain: ``ErrorInfo.domain`` (``"tavla.v1"``), else ``""``.
    :ivar metadata: ``ErrorInfo.metadata`` (``move``, ``dice``, ``winner``).
    :ivar fields: the request fields named by ``BadRequest`` field violations, e.g. ``("dice",)``.
    """

    code: grpc.StatusCode
    message: str
    reason: str = ""
    domain: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    fields: tuple[str, ...] = ()

    def __str__(self) -> str:
        why = f" [{self.reason}]" if self.reason else ""
        return f"{self.code.name}{why}: {self.message}"

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> EngineError:
        """Read the code, message and ``google.rpc.Status`` details of a failed call (sync or aio)."""
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        message = error.details() if hasattr(error, "details") else str(error)
        trailers = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
        reason = domain = ""
        metadata: dict[str, str] = {}
        fields: list[str] = []
        for key, value in trailers or ():
            if key != _STATUS_DETAILS_KEY:
                continue
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
                elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    fields.extend(v.field for v in bad.field_violations)
        return cls(code, message or "", reason, domain, metadata, tuple(fields))


def _ruleset(preset: str | types_pb2.Ruleset | None) -> types_pb2.Ruleset | None:
    if preset is None or isinstance(preset, types_pb2.Ruleset):
        return preset
    return types_pb2.Ruleset(preset=preset)


class Client:
    """A blocking client. Use it as a context manager, or call :meth:`close`.

    :param target: ``host:port`` or any gRPC target URI.
    :param credentials: channel credentials for TLS; plaintext when ``None``.
    :param options: extra channel options, after the default service config (a later
        ``grpc.service_config`` replaces it).
    :param ruleset: the default ruleset of the helpers: a preset name or a ``Ruleset``.
    """

    def __init__(self, target: str = DEFAULT_TARGET, *, credentials: grpc.ChannelCredentials | None = None,
                 options: Iterable[tuple[str, Any]] = (), ruleset: str | types_pb2.Ruleset | None = None) -> None:
        opts = channel_options(options)
        self.channel = (grpc.secure_channel(target, credentials, opts) if credentials
                        else grpc.insecure_channel(target, opts))
        self.stub = engine_service_pb2_grpc.EngineServiceStub(self.channel)
        self.ruleset = _ruleset(ruleset)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, rpc: str, request: Any, timeout: float | None = None) -> Any:
        """Call any RPC by name with its request message; raises :class:`EngineError`."""
        try:
            return getattr(self.stub, rpc)(request, timeout=timeout)
        except grpc.RpcError as err:
            raise EngineError.from_rpc_error(err) from None

    def initial_position(self, on_roll: int = types_pb2.SIDE_WHITE) -> types_pb2.Position:
        """The starting position with ``on_roll`` on roll."""
        request = engine_service_pb2.GetInitialPositionRequest(ruleset=self.ruleset, on_roll=on_roll)
        return self.call("GetInitialPosition", request).position

    def legal_moves(self, pos: PositionLike, dice: Sequence[int]) -> list[types_pb2.Move]:
        """Every legal move for the roll (never empty: one empty move when nothing can be played)."""
        request = engine_service_pb2.ListLegalMovesRequest(ruleset=self.ruleset, position=position(pos), dice=dice)
        return list(self.call("ListLegalMoves", request).moves)

    def apply_move(self, pos: PositionLike, dice: Sequence[int], move: MoveLike) -> engine_service_pb2.ApplyMoveResponse:
        """Play ``move`` (notation or a ``Move``); the response holds the next position."""
        request = engine_service_pb2.ApplyMoveRequest(ruleset=self.ruleset, position=position(pos), dice=dice,
                                                      move=_move(move))
        return self.call("ApplyMove", request)

    def score_game(self, pos: PositionLike) -> engine_service_pb2.ScoreGameResponse:
        """``game_over`` and, when over, the result."""
        return self.call("ScoreGame", engine_service_pb2.ScoreGameRequest(ruleset=self.ruleset, position=position(pos)))

    def bear_off(self, pos: PositionLike, dice: Sequence[int] = ()) -> engine_service_pb2.BearOffResponse:
        """Bear-off figures of both sides, race odds, and with ``dice`` the ranked moves."""
        request = engine_service_pb2.BearOffRequest(ruleset=self.ruleset, position=position(pos), dice=dice)
        return self.call("BearOff", request)


class AsyncClient:
    """The asyncio client: the same helpers as :class:`Client`, as coroutines.

    Create it inside a running event loop; ``async with`` closes it.
    """

    def __init__(self, target: str = DEFAULT_TARGET, *, credentials: grpc.ChannelCredentials | None = None,
                 options: Iterable[tuple[str, Any]] = (), ruleset: str | types_pb2.Ruleset | None = None) -> None:
        opts = channel_options(options)
        self.channel = (grpc.aio.secure_channel(target, credentials, opts) if credentials
                        else grpc.aio.insecure_channel(target, opts))
        self.stub = engine_service_pb2_grpc.EngineServiceStub(self.channel)
        self.ruleset = _ruleset(ruleset)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def call(self, rpc: str, request: Any, timeout: float | None = None) -> Any:
        """Call any RPC by name with its request message; raises :class:`EngineError`."""
        try:
            return await getattr(self.stub, rpc)(request, timeout=timeout)
        except grpc.RpcError as err:
            raise EngineError.from_rpc_error(err) from None

    async def initial_position(self, on_roll: int = types_pb2.SIDE_WHITE) -> types_pb2.Position:
        request = engine_service_pb2.GetInitialPositionRequest(ruleset=self.ruleset, on_roll=on_roll)
        return (await self.call("GetInitialPosition", request)).position

    async def legal_moves(self, pos: PositionLike, dice: Sequence[int]) -> list[types_pb2.Move]:
        request = engine_service_pb2.ListLegalMovesRequest(ruleset=self.ruleset, position=position(pos), dice=dice)
        return list((await self.call("ListLegalMoves", request)).moves)

    async def apply_move(self, pos: PositionLike, dice: Sequence[int],
                         move: MoveLike) -> engine_service_pb2.ApplyMoveResponse:
        request = engine_service_pb2.ApplyMoveRequest(ruleset=self.ruleset, position=position(pos), dice=dice,
                                                      move=_move(move))
        return await self.call("ApplyMove", request)

    async def score_game(self, pos: PositionLike) -> engine_service_pb2.ScoreGameResponse:
        request = engine_service_pb2.ScoreGameRequest(ruleset=self.ruleset, position=position(pos))
        return await self.call("ScoreGame", request)

    async def bear_off(self, pos: PositionLike, dice: Sequence[int] = ()) -> engine_service_pb2.BearOffResponse:
        request = engine_service_pb2.BearOffRequest(ruleset=self.ruleset, position=position(pos), dice=dice)
        return await self.call("BearOff", request)

