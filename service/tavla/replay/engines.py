"""Engines for :mod:`tavla.replay.driver`: the rules core in process, or a live service."""

from __future__ import annotations

from tavla.core import (
    IllegalMoveError,
    Position,
    Ruleset,
    Side,
    TavlaError,
    legal_moves,
    notation,
    position_id,
    resolve,
    score_game,
)
from tavla.replay.driver import Applied, EngineError

_SIDES = {1: Side.WHITE, 2: Side.BLACK}


def _key(pos: Position) -> str:
    return f"{position_id.encode(pos)}:{pos.on_roll.name}"


class LocalEngine:
    """The rules core, called directly (no network)."""

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        self.ruleset = ruleset or Ruleset()

    def initial(self, on_roll: int) -> Position:
        return Position.initial(_SIDES[on_roll])

    def on_roll(self, position: Position) -> int:
        return int(position.on_roll)

    def legal_keys(self, position: Position, dice: tuple[int, int]) -> set[str]:
        try:
            return {_key(m.result) for m in legal_moves(position, dice)}
        except TavlaError as exc:
            raise EngineError(str(exc)) from None

    def apply(self, position: Position, dice: tuple[int, int], text: str) -> Applied:
        try:
            move = resolve(position, dice, notation.parse(text))
        except IllegalMoveError as exc:
            raise EngineError(f"{exc.reason.value}: {exc}") from None
        except TavlaError as exc:
            raise EngineError(f"{type(exc).__name__}: {exc}") from None
        result = move.result
        if result.winner is None:
            return Applied(move.notation, result, _key(result), False, 0, 0)
        scored = score_game(result, self.ruleset)
        return Applied(move.notation, result, _key(result), True, int(scored.winner), scored.points)


class GrpcEngine:
    """A running tavla.v1.EngineService at ``target`` (``host:port``)."""

    def __init__(self, target: str, timeout: float = 10.0) -> None:
        import grpc

        from tavla.v1 import engine_service_pb2_grpc

        self._grpc = grpc
        self.channel = grpc.insecure_channel(target)
        self.stub = engine_service_pb2_grpc.EngineServiceStub(self.channel)
        self.timeout = timeout

    def wait_ready(self, timeout: float) -> bool:
        """Whether the channel connects within ``timeout`` seconds."""
        try:
            self._grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except self._grpc.FutureTimeoutError:
            return False
        return True

    def close(self) -> None:
        self.channel.close()

    def _call(self, method, request):
        try:
            return method(request, timeout=self.timeout)
        except self._grpc.RpcError as exc:
            raise EngineError(f"{exc.code().name}: {exc.details()}") from None

    def initial(self, on_roll: int):
        from tavla.v1 import engine_service_pb2 as pb

        return self._call(self.stub.GetInitialPosition, pb.GetInitialPositionRequest(on_roll=on_roll)).position

    def on_roll(self, position) -> int:
        return int(position.on_roll)

    @staticmethod
    def _key(position) -> str:
        return f"{position.position_id}:{Side(position.on_roll).name}"

    def legal_keys(self, position, dice: tuple[int, int]) -> set[str]:
        from tavla.v1 import engine_service_pb2 as pb

        response = self._call(self.stub.ListLegalMoves, pb.ListLegalMovesRequest(position=position, dice=dice))
        return {self._key(m.result) for m in response.moves}

    def apply(self, position, dice: tuple[int, int], text: str) -> Applied:
        from tavla.v1 import engine_service_pb2 as pb
        from tavla.v1 import types_pb2

        request = pb.ApplyMoveRequest(position=position, dice=dice, move=types_pb2.Move(notation=text))
        response = self._call(self.stub.ApplyMove, request)
        return Applied(
            response.move.notation,
            response.position,
            self._key(response.position),
            response.game_over,
            int(response.result.winner) if response.game_over else 0,
            response.result.points if response.game_over else 0,
        )
