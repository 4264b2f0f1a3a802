"""Engines for :mod:`tavla.replay.driver`: the rules core in process, or a live service.

Both play the match through the same calls: the core's match-play functions in process, the
match-play RPCs (StartGame, ListCubeActions, ApplyCubeAction, UpdateMatch) over gRPC.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from tavla.core import (
    CubeAction,
    GameEnding,
    GameOutcome,
    IllegalMoveError,
    MatchState,
    Position,
    ResultKind,
    Ruleset,
    Side,
    TavlaError,
    find_variant,
    legal_moves,
    preset,
    resolve,
    score_game,
    start_with_given_dice,
)
from tavla.core.rules import notation
from tavla.core.rules.variant import FAMILY_ID, POSITION_ID
from tavla.core.game import Action, ActionKind, lowlevel
from tavla.core.game import machine
from tavla.formats.match_rules import MatchRules
from tavla.replay.driver import Applied, EngineError, Ending, Updated

if TYPE_CHECKING:  # the service's messages are imported lazily: the core engine needs no protobuf
    from google.protobuf.message import Message

    from tavla.v1 import match_pb2, types_pb2

_SIDES = {1: Side.WHITE, 2: Side.BLACK}
_KINDS = {ResultKind.SINGLE: 1, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 3}
_KINDS_BY_NUMBER = {n: kind for kind, n in _KINDS.items()}
_ENDINGS = {e.value: e for e in GameEnding}
_CUBE_ACTIONS = {a.value: a for a in CubeAction}
_ACTION_KINDS = {a: ActionKind[a.name] for a in CubeAction}  # the state machine's cube actions


def _match_ruleset(rules: MatchRules) -> Ruleset:
    """The record's preset (its ``Ruleset`` header; international without one) with the record's
    cube limit, Crawford and Jacoby settings, and its variant (gnubg's ``Variation``:
    nackgammon, hypergammon; ExportMatch's: Tavla, Plakoto, ...)."""
    return replace(preset(rules.preset), cube_limit=rules.cube_limit, crawford=rules.crawford,
                   jacoby=rules.jacoby, variant=rules.variant)


def _pid(pos: Position) -> str:
    """The position's ID: gnubg's Position ID, or the Family ID of a variant without one
    (plakoto, fevga, long nardy)."""
    kind = POSITION_ID if POSITION_ID in pos.variant.codecs else FAMILY_ID
    return str(pos.variant.codec(kind).encode(pos))


def _key(pos: Position) -> str:
    return f"{_pid(pos)}:{pos.on_roll.name}"


@contextmanager
def _engine_errors() -> Iterator[None]:
    """Core errors as :class:`EngineError`, led by the rule's reason or the error's kind."""
    try:
        yield
    except IllegalMoveError as exc:
        raise EngineError(f"{exc.reason.value}: {exc}") from None
    except TavlaError as exc:
        raise EngineError(f"{type(exc).__name__}: {exc}") from None


class LocalEngine:
    """The rules core, called directly (no network)."""

    # resolve() picks the play among legal_moves(): listing them again would check nothing
    apply_is_legal = True

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        self.ruleset = ruleset or Ruleset()
        self._scoring = self.ruleset  # the game's: set by initial()

    def initial(self, on_roll: int, variant: str = "backgammon", preset_name: str = "international") -> Position:
        """The start of ``variant``; the game's results are scored under ``preset_name``'s
        options (R17: katmerli mars paid as mars under ``turkish``)."""
        self._scoring = replace(preset(preset_name), variant=find_variant(variant).name)
        # the position carries its variant: the moves and results after it are of that variant
        return Position.initial(_SIDES[on_roll], find_variant(variant))

    def on_roll(self, position: Position) -> int:
        return int(position.on_roll)

    def legal_keys(self, position: Position, dice: tuple[int, int]) -> set[str]:
        with _engine_errors():
            return {_key(m.result) for m in legal_moves(position, dice)}

    def apply(self, position: Position, dice: tuple[int, int], text: str) -> Applied:
        with _engine_errors():
            move = resolve(position, dice, notation.parse(text))
        result = move.result
        if result.winner is None:
            return Applied(move.notation, result, _key(result), False, 0, 0, drawn=result.drawn,
                           dice_used=move.dice_used)
        scored = score_game(result, self._scoring)
        return Applied(move.notation, result, _key(result), True, int(scored.winner), scored.points,
                       _KINDS[scored.kind], dice_used=move.dice_used)

    def same_turn(self, position: Position) -> Position:
        return position.swap_turn()

    # --- match play (R3, R18-R21) ---

    def new_match(self, rules: MatchRules, length: int) -> MatchState:
        return MatchState(length=length)

    def as_money(self, match: MatchState) -> MatchState:
        return replace(match, length=0, crawford=False, post_crawford=False)

    def position_id(self, position: Position) -> str:
        return _pid(position)

    def start(self, rules: MatchRules, match: MatchState, roll_off: tuple[int, int] | None,
              dice: tuple[int, int] | None = None) -> tuple[int, tuple[int, int]]:
        with _engine_errors():
            start = start_with_given_dice(_match_ruleset(rules), match, [roll_off] if roll_off else [], dice or ())
        return int(start.starter), start.dice

    def cube_actions(self, rules: MatchRules, match: MatchState, side: int) -> tuple[set[str], str]:
        options = machine.cube_choices(lowlevel.deciding(_match_ruleset(rules), match, _SIDES[side]), _SIDES[side])
        return {a.value for a in options.actions}, options.denial.value if options.denial else ""

    def apply_cube(self, rules: MatchRules, match: MatchState, side: int,
                   action: str) -> tuple[MatchState, Ending | None]:
        with _engine_errors():
            mover = _SIDES[side]
            result = machine.cube(lowlevel.deciding(_match_ruleset(rules), match, mover),
                                  Action(_ACTION_KINDS[_CUBE_ACTIONS[action]], mover))
        ended = result.game_over
        if ended is None:
            return result.state.match, None
        assert result.ended_in is not None  # a drop: the match before it is scored (update_match)
        return result.ended_in, Ending(int(ended.winner or 0), ended.ending.value)  # 0: a draw

    def update_match(self, rules: MatchRules, match: MatchState, ending: Ending) -> Updated:
        outcome = GameOutcome(_SIDES.get(ending.winner), _ENDINGS[ending.ending],  # winner 0: a draw
                              _KINDS_BY_NUMBER[ending.kind])
        with _engine_errors():
            update = machine.end_game(lowlevel.deciding(_match_ruleset(rules), match, outcome.winner or Side.WHITE),
                                      outcome).scored
        assert update is not None
        after = update.state
        return Updated(after, after.scores, update.points_paid, update.points_scored, after.over,
                       int(after.winner) if after.winner else 0, after.crawford)


class GrpcEngine:
    """A running tavla-engine at ``target`` (``host:port``): its tavla.v1 RulesService and
    MatchService."""

    def __init__(self, target: str, timeout: float = 10.0) -> None:
        import grpc

        from tavla.v1 import match_service_pb2_grpc, rules_service_pb2_grpc, types_pb2

        self._grpc = grpc
        self.channel = grpc.insecure_channel(target)
        # the generated *_pb2_grpc modules carry no annotations
        self.rules = rules_service_pb2_grpc.RulesServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.match = match_service_pb2_grpc.MatchServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.timeout = timeout
        self._variant = types_pb2.Ruleset()  # the game's variant, set by initial()

    def wait_ready(self, timeout: float) -> bool:
        """Whether the channel connects within ``timeout`` seconds."""
        try:
            self._grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except self._grpc.FutureTimeoutError:
            return False
        return True

    def close(self) -> None:
        self.channel.close()

    def _call(self, method: Callable[..., Any], request: Message) -> Any:
        try:
            return method(request, timeout=self.timeout)
        except self._grpc.RpcError as exc:
            raise EngineError(f"{exc.code().name}: {exc.details()}") from None

    def initial(self, on_roll: int, variant: str = "backgammon",
                preset_name: str = "international") -> types_pb2.Position:
        """The start of ``variant``, which the later ListLegalMoves and ApplyMove calls of the
        game name in their ruleset with ``preset_name`` (a position message does not carry its
        variant; the preset scores the results, R17)."""
        from tavla.v1 import rules_service_pb2 as pb
        from tavla.v1 import types_pb2

        self._variant = types_pb2.Ruleset(preset=preset_name, variant=variant)
        request = pb.GetInitialPositionRequest(on_roll=cast("types_pb2.Side", on_roll), ruleset=self._variant)
        response: pb.GetInitialPositionResponse = self._call(self.rules.GetInitialPosition, request)
        return response.position

    def on_roll(self, position: types_pb2.Position) -> int:
        return int(position.on_roll)

    @staticmethod
    def _key(position: types_pb2.Position) -> str:
        return f"{GrpcEngine._pid(position)}:{Side(position.on_roll).name}"

    @staticmethod
    def _pid(position: types_pb2.Position) -> str:
        # a returned position has its ID in ids (with the board), or alone (MOVE_VIEW_BASIC)
        return position.ids.position_id or position.position_id

    def legal_keys(self, position: types_pb2.Position, dice: tuple[int, int]) -> set[str]:
        from tavla.v1 import rules_service_pb2 as pb

        response: pb.ListLegalMovesResponse = self._call(
            self.rules.ListLegalMoves, pb.ListLegalMovesRequest(position=position, dice=dice,
                                                                ruleset=self._variant))
        return {self._key(m.result) for m in response.moves}

    def apply(self, position: types_pb2.Position, dice: tuple[int, int], text: str) -> Applied:
        from tavla.v1 import rules_service_pb2 as pb
        from tavla.v1 import types_pb2

        request = pb.ApplyMoveRequest(position=position, dice=dice, move=types_pb2.Move(notation=text),
                                      ruleset=self._variant)
        response: pb.ApplyMoveResponse = self._call(self.rules.ApplyMove, request)
        from tavla.v1 import match_pb2

        over = response.HasField("outcome")  # no match in the request: money play, cube 1
        if over and response.outcome.ending == match_pb2.GAME_ENDING_DRAW:  # plakoto: no winner
            return Applied(response.move.notation, response.move.result, self._key(response.move.result),
                           False, 0, 0, drawn=True)
        return Applied(
            response.move.notation,
            response.move.result,
            self._key(response.move.result),
            over,
            int(response.outcome.winner) if over else 0,
            response.outcome.points if over else 0,
            int(response.outcome.kind) if over else 0,  # RESULT_KIND_* numbers 1-3
            dice_used=len(response.move.checker_moves),  # one entry per die played
        )

    def same_turn(self, position: types_pb2.Position) -> types_pb2.Position:
        from tavla.v1 import types_pb2

        again = types_pb2.Position(board=position.board)  # the board alone: the IDs name the side on roll
        again.on_roll = types_pb2.SIDE_BLACK if position.on_roll == types_pb2.SIDE_WHITE else types_pb2.SIDE_WHITE
        return again

    # --- match play through the RPCs (R3, R18-R21) ---

    @staticmethod
    def _ruleset(rules: MatchRules) -> types_pb2.Ruleset:
        from tavla.v1 import types_pb2

        return types_pb2.Ruleset(preset=rules.preset, cube_limit=rules.cube_limit, crawford=rules.crawford,
                                 jacoby=rules.jacoby, variant=rules.variant)

    def new_match(self, rules: MatchRules, length: int) -> match_pb2.MatchState:
        from tavla.v1 import match_pb2

        return match_pb2.MatchState(length=length)

    def as_money(self, match: match_pb2.MatchState) -> match_pb2.MatchState:
        from tavla.v1 import match_pb2

        money = match_pb2.MatchState()
        money.CopyFrom(match)
        money.length, money.crawford, money.post_crawford = 0, False, False
        return money

    def position_id(self, position: types_pb2.Position) -> str:
        return self._pid(position)

    def start(self, rules: MatchRules, match: match_pb2.MatchState, roll_off: tuple[int, int] | None,
              dice: tuple[int, int] | None = None) -> tuple[int, tuple[int, int]]:
        from tavla.v1 import dice_pb2
        from tavla.v1 import match_service_pb2 as pb

        throws = [dice_pb2.RollOffThrow(white_die=roll_off[0], black_die=roll_off[1])] if roll_off else []
        request = pb.StartGameRequest(ruleset=self._ruleset(rules), match=match,
                                      given=pb.GivenStartDice(roll_off=throws, dice=list(dice or ())))
        response: pb.StartGameResponse = self._call(self.match.StartGame, request)
        return int(response.starter), (response.dice[0], response.dice[1])

    def cube_actions(self, rules: MatchRules, match: match_pb2.MatchState, side: int) -> tuple[set[str], str]:
        from tavla.v1 import match_pb2
        from tavla.v1 import match_service_pb2 as pb

        request = pb.ListCubeActionsRequest(ruleset=self._ruleset(rules), match=match,
                                            side=cast("types_pb2.Side", side))
        response: pb.ListCubeActionsResponse = self._call(self.match.ListCubeActions, request)
        actions = {match_pb2.CubeAction.Name(a).removeprefix("CUBE_ACTION_").lower() for a in response.actions}
        denial = match_pb2.CubeDenial.Name(response.double_denial).removeprefix("CUBE_DENIAL_")
        return actions, "" if denial == "UNSPECIFIED" else denial

    def apply_cube(self, rules: MatchRules, match: match_pb2.MatchState, side: int,
                   action: str) -> tuple[match_pb2.MatchState, Ending | None]:
        from tavla.v1 import match_pb2
        from tavla.v1 import match_service_pb2 as pb

        request = pb.ApplyCubeActionRequest(ruleset=self._ruleset(rules), match=match,
                                            side=cast("types_pb2.Side", side),
                                            action=match_pb2.CubeAction.Value(f"CUBE_ACTION_{action.upper()}"))
        response: pb.ApplyCubeActionResponse = self._call(self.match.ApplyCubeAction, request)
        if not response.HasField("outcome"):
            return response.match, None
        ending = match_pb2.GameEnding.Name(response.outcome.ending).removeprefix("GAME_ENDING_").lower()
        return response.match, Ending(int(response.outcome.winner), ending)

    def update_match(self, rules: MatchRules, match: match_pb2.MatchState, ending: Ending) -> Updated:
        from tavla.v1 import match_pb2
        from tavla.v1 import match_service_pb2 as pb

        outcome = match_pb2.GameOutcome(winner=cast("types_pb2.Side", ending.winner),
                                        kind=cast("types_pb2.ResultKind", ending.kind),
                                        ending=match_pb2.GameEnding.Value(f"GAME_ENDING_{ending.ending.upper()}"))
        request = pb.UpdateMatchRequest(ruleset=self._ruleset(rules), match=match, outcome=outcome)
        response: pb.UpdateMatchResponse = self._call(self.match.UpdateMatch, request)
        after = response.match
        return Updated(after, (after.white_score, after.black_score), response.outcome.points,
                       response.points_scored, after.winner != 0, int(after.winner), after.crawford)
