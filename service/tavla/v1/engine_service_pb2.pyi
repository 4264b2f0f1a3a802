import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tavla.v1 import bearoff_pb2 as _bearoff_pb2
from tavla.v1 import clock_pb2 as _clock_pb2
from tavla.v1 import dice_pb2 as _dice_pb2
from tavla.v1 import game_pb2 as _game_pb2
from tavla.v1 import match_pb2 as _match_pb2
from tavla.v1 import render_pb2 as _render_pb2
from tavla.v1 import types_pb2 as _types_pb2
from tavla.v1 import validate_pb2 as _validate_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MoveView(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_VIEW_UNSPECIFIED: _ClassVar[MoveView]
    MOVE_VIEW_FULL: _ClassVar[MoveView]
    MOVE_VIEW_BASIC: _ClassVar[MoveView]
MOVE_VIEW_UNSPECIFIED: MoveView
MOVE_VIEW_FULL: MoveView
MOVE_VIEW_BASIC: MoveView

class GetInitialPositionRequest(_message.Message):
    __slots__ = ("ruleset", "on_roll")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ON_ROLL_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    on_roll: _types_pb2.Side
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., on_roll: _Optional[_Union[_types_pb2.Side, str]] = ...) -> None: ...

class GetInitialPositionResponse(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: _types_pb2.Position
    def __init__(self, position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice", "view")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    view: MoveView
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., view: _Optional[_Union[MoveView, str]] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "dice_used")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    DICE_USED_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    dice_used: int
    def __init__(self, moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., dice_used: _Optional[int] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice", "move", "match")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    move: _types_pb2.Move
    match: _match_pb2.MatchState
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("move", "position", "game_over", "result", "outcome")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    move: _types_pb2.Move
    position: _types_pb2.Position
    game_over: bool
    result: _types_pb2.GameResult
    outcome: _match_pb2.GameOutcome
    def __init__(self, move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., game_over: _Optional[bool] = ..., result: _Optional[_Union[_types_pb2.GameResult, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class ScoreGameRequest(_message.Message):
    __slots__ = ("ruleset", "position", "match")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    match: _match_pb2.MatchState
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ...) -> None: ...

class ScoreGameResponse(_message.Message):
    __slots__ = ("game_over", "result", "outcome")
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    game_over: bool
    result: _types_pb2.GameResult
    outcome: _match_pb2.GameOutcome
    def __init__(self, game_over: _Optional[bool] = ..., result: _Optional[_Union[_types_pb2.GameResult, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class BearOffRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ...) -> None: ...

class BearOffResponse(_message.Message):
    __slots__ = ("white", "black", "race", "moves", "best_move")
    WHITE_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    RACE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_FIELD_NUMBER: _ClassVar[int]
    white: _bearoff_pb2.BearOffStatus
    black: _bearoff_pb2.BearOffStatus
    race: _bearoff_pb2.RaceOdds
    moves: _containers.RepeatedCompositeFieldContainer[_bearoff_pb2.RankedMove]
    best_move: _types_pb2.Move
    def __init__(self, white: _Optional[_Union[_bearoff_pb2.BearOffStatus, _Mapping]] = ..., black: _Optional[_Union[_bearoff_pb2.BearOffStatus, _Mapping]] = ..., race: _Optional[_Union[_bearoff_pb2.RaceOdds, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[_bearoff_pb2.RankedMove, _Mapping]]] = ..., best_move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ...) -> None: ...

class ListLegalStepsRequest(_message.Message):
    __slots__ = ("ruleset", "position", "dice", "steps", "match")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    match: _match_pb2.MatchState
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ...) -> None: ...

class CombinedStep(_message.Message):
    __slots__ = ("from_point", "to_point", "via", "steps")
    FROM_POINT_FIELD_NUMBER: _ClassVar[int]
    TO_POINT_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    from_point: int
    to_point: int
    via: _containers.RepeatedScalarFieldContainer[int]
    steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    def __init__(self, from_point: _Optional[int] = ..., to_point: _Optional[int] = ..., via: _Optional[_Iterable[int]] = ..., steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ...) -> None: ...

class ListLegalStepsResponse(_message.Message):
    __slots__ = ("next_steps", "complete", "move", "position", "dice_left", "steps", "gele", "game_over", "outcome", "combined_steps", "forced", "forced_steps")
    NEXT_STEPS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_LEFT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    GELE_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    COMBINED_STEPS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    FORCED_STEPS_FIELD_NUMBER: _ClassVar[int]
    next_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    complete: bool
    move: _types_pb2.Move
    position: _types_pb2.Position
    dice_left: _containers.RepeatedScalarFieldContainer[int]
    steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    gele: bool
    game_over: bool
    outcome: _match_pb2.GameOutcome
    combined_steps: _containers.RepeatedCompositeFieldContainer[CombinedStep]
    forced: bool
    forced_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    def __init__(self, next_steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., complete: _Optional[bool] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice_left: _Optional[_Iterable[int]] = ..., steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., gele: _Optional[bool] = ..., game_over: _Optional[bool] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., combined_steps: _Optional[_Iterable[_Union[CombinedStep, _Mapping]]] = ..., forced: _Optional[bool] = ..., forced_steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("ruleset", "match", "roll_off", "dice", "seed")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ROLL_OFF_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    roll_off: _containers.RepeatedCompositeFieldContainer[_dice_pb2.RollOffThrow]
    dice: _containers.RepeatedScalarFieldContainer[int]
    seed: _dice_pb2.DiceSeed
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., roll_off: _Optional[_Iterable[_Union[_dice_pb2.RollOffThrow, _Mapping]]] = ..., dice: _Optional[_Iterable[int]] = ..., seed: _Optional[_Union[_dice_pb2.DiceSeed, _Mapping]] = ...) -> None: ...

class StartGameResponse(_message.Message):
    __slots__ = ("starter", "dice", "dice_name", "roll_off", "position", "proof")
    STARTER_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    DICE_NAME_FIELD_NUMBER: _ClassVar[int]
    ROLL_OFF_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    starter: _types_pb2.Side
    dice: _containers.RepeatedScalarFieldContainer[int]
    dice_name: _dice_pb2.RollName
    roll_off: _containers.RepeatedCompositeFieldContainer[_dice_pb2.RollOffThrow]
    position: _types_pb2.Position
    proof: _dice_pb2.DiceProof
    def __init__(self, starter: _Optional[_Union[_types_pb2.Side, str]] = ..., dice: _Optional[_Iterable[int]] = ..., dice_name: _Optional[_Union[_dice_pb2.RollName, _Mapping]] = ..., roll_off: _Optional[_Iterable[_Union[_dice_pb2.RollOffThrow, _Mapping]]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., proof: _Optional[_Union[_dice_pb2.DiceProof, _Mapping]] = ...) -> None: ...

class CommitDiceRequest(_message.Message):
    __slots__ = ("client_seed_sha256",)
    CLIENT_SEED_SHA256_FIELD_NUMBER: _ClassVar[int]
    client_seed_sha256: str
    def __init__(self, client_seed_sha256: _Optional[str] = ...) -> None: ...

class CommitDiceResponse(_message.Message):
    __slots__ = ("commitment", "token", "scheme", "expire_time")
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SCHEME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    commitment: str
    token: str
    scheme: str
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, commitment: _Optional[str] = ..., token: _Optional[str] = ..., scheme: _Optional[str] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RollDiceRequest(_message.Message):
    __slots__ = ("seed", "position")
    SEED_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    seed: _dice_pb2.DiceSeed
    position: _types_pb2.Position
    def __init__(self, seed: _Optional[_Union[_dice_pb2.DiceSeed, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ...) -> None: ...

class RollDiceResponse(_message.Message):
    __slots__ = ("dice", "name", "proof", "gele")
    DICE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    GELE_FIELD_NUMBER: _ClassVar[int]
    dice: _containers.RepeatedScalarFieldContainer[int]
    name: _dice_pb2.RollName
    proof: _dice_pb2.DiceProof
    gele: bool
    def __init__(self, dice: _Optional[_Iterable[int]] = ..., name: _Optional[_Union[_dice_pb2.RollName, _Mapping]] = ..., proof: _Optional[_Union[_dice_pb2.DiceProof, _Mapping]] = ..., gele: _Optional[bool] = ...) -> None: ...

class NameRollRequest(_message.Message):
    __slots__ = ("dice",)
    DICE_FIELD_NUMBER: _ClassVar[int]
    dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, dice: _Optional[_Iterable[int]] = ...) -> None: ...

class NameRollResponse(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: _dice_pb2.RollName
    def __init__(self, name: _Optional[_Union[_dice_pb2.RollName, _Mapping]] = ...) -> None: ...

class ListCubeActionsRequest(_message.Message):
    __slots__ = ("ruleset", "match", "side")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    side: _types_pb2.Side
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ...) -> None: ...

class ListCubeActionsResponse(_message.Message):
    __slots__ = ("actions", "double_denial")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_DENIAL_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedScalarFieldContainer[_match_pb2.CubeAction]
    double_denial: _match_pb2.CubeDenial
    def __init__(self, actions: _Optional[_Iterable[_Union[_match_pb2.CubeAction, str]]] = ..., double_denial: _Optional[_Union[_match_pb2.CubeDenial, str]] = ...) -> None: ...

class ApplyCubeActionRequest(_message.Message):
    __slots__ = ("ruleset", "match", "side", "action")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    side: _types_pb2.Side
    action: _match_pb2.CubeAction
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ..., action: _Optional[_Union[_match_pb2.CubeAction, str]] = ...) -> None: ...

class ApplyCubeActionResponse(_message.Message):
    __slots__ = ("match", "game_over", "outcome")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    match: _match_pb2.MatchState
    game_over: bool
    outcome: _match_pb2.GameOutcome
    def __init__(self, match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., game_over: _Optional[bool] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class OfferResignationRequest(_message.Message):
    __slots__ = ("ruleset", "match", "offer")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    offer: _match_pb2.ResignationOffer
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., offer: _Optional[_Union[_match_pb2.ResignationOffer, _Mapping]] = ...) -> None: ...

class OfferResignationResponse(_message.Message):
    __slots__ = ("outcome",)
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: _match_pb2.GameOutcome
    def __init__(self, outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class AnswerResignationRequest(_message.Message):
    __slots__ = ("ruleset", "match", "offer", "accept")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    offer: _match_pb2.ResignationOffer
    accept: bool
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., offer: _Optional[_Union[_match_pb2.ResignationOffer, _Mapping]] = ..., accept: _Optional[bool] = ...) -> None: ...

class AnswerResignationResponse(_message.Message):
    __slots__ = ("game_over", "outcome")
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    game_over: bool
    outcome: _match_pb2.GameOutcome
    def __init__(self, game_over: _Optional[bool] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class UpdateMatchRequest(_message.Message):
    __slots__ = ("ruleset", "match", "outcome")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    outcome: _match_pb2.GameOutcome
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

class UpdateMatchResponse(_message.Message):
    __slots__ = ("match", "outcome", "points_scored", "match_over", "winner", "crawford_game", "next_starter")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    POINTS_SCORED_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_GAME_FIELD_NUMBER: _ClassVar[int]
    NEXT_STARTER_FIELD_NUMBER: _ClassVar[int]
    match: _match_pb2.MatchState
    outcome: _match_pb2.GameOutcome
    points_scored: int
    match_over: bool
    winner: _types_pb2.Side
    crawford_game: bool
    next_starter: _types_pb2.Side
    def __init__(self, match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., points_scored: _Optional[int] = ..., match_over: _Optional[bool] = ..., winner: _Optional[_Union[_types_pb2.Side, str]] = ..., crawford_game: _Optional[bool] = ..., next_starter: _Optional[_Union[_types_pb2.Side, str]] = ...) -> None: ...

class AdvanceClockRequest(_message.Message):
    __slots__ = ("settings", "state", "side", "event", "elapsed_ms")
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    settings: _clock_pb2.ClockSettings
    state: _clock_pb2.ClockState
    side: _types_pb2.Side
    event: _clock_pb2.ClockEvent
    elapsed_ms: int
    def __init__(self, settings: _Optional[_Union[_clock_pb2.ClockSettings, _Mapping]] = ..., state: _Optional[_Union[_clock_pb2.ClockState, _Mapping]] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ..., event: _Optional[_Union[_clock_pb2.ClockEvent, str]] = ..., elapsed_ms: _Optional[int] = ...) -> None: ...

class AdvanceClockResponse(_message.Message):
    __slots__ = ("state", "forfeit", "charged_ms", "extensions_used", "time_left_ms")
    STATE_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    CHARGED_MS_FIELD_NUMBER: _ClassVar[int]
    EXTENSIONS_USED_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    state: _clock_pb2.ClockState
    forfeit: _clock_pb2.ClockForfeit
    charged_ms: int
    extensions_used: int
    time_left_ms: int
    def __init__(self, state: _Optional[_Union[_clock_pb2.ClockState, _Mapping]] = ..., forfeit: _Optional[_Union[_clock_pb2.ClockForfeit, _Mapping]] = ..., charged_ms: _Optional[int] = ..., extensions_used: _Optional[int] = ..., time_left_ms: _Optional[int] = ...) -> None: ...

class GetRulesetRequest(_message.Message):
    __slots__ = ("ruleset",)
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ...) -> None: ...

class GetRulesetResponse(_message.Message):
    __slots__ = ("ruleset",)
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ...) -> None: ...

class ListRulesetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListRulesetsResponse(_message.Message):
    __slots__ = ("presets",)
    PRESETS_FIELD_NUMBER: _ClassVar[int]
    presets: _containers.RepeatedCompositeFieldContainer[_match_pb2.RulesetPreset]
    def __init__(self, presets: _Optional[_Iterable[_Union[_match_pb2.RulesetPreset, _Mapping]]] = ...) -> None: ...

class RenderPositionRequest(_message.Message):
    __slots__ = ("ruleset", "position", "match", "dice", "options")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    position: _types_pb2.Position
    match: _match_pb2.MatchState
    dice: _containers.RepeatedScalarFieldContainer[int]
    options: _render_pb2.RenderOptions
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., options: _Optional[_Union[_render_pb2.RenderOptions, _Mapping]] = ...) -> None: ...

class RenderPositionResponse(_message.Message):
    __slots__ = ("svg", "text", "position")
    SVG_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    svg: str
    text: str
    position: _types_pb2.Position
    def __init__(self, svg: _Optional[str] = ..., text: _Optional[str] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ...) -> None: ...

class NewMatchRequest(_message.Message):
    __slots__ = ("ruleset", "length", "clock", "match_id")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    length: int
    clock: _clock_pb2.ClockSettings
    match_id: str
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., length: _Optional[int] = ..., clock: _Optional[_Union[_clock_pb2.ClockSettings, _Mapping]] = ..., match_id: _Optional[str] = ...) -> None: ...

class NewMatchResponse(_message.Message):
    __slots__ = ("state", "view", "actions")
    STATE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    view: _game_pb2.GameView
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ...) -> None: ...

class ListActionsRequest(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ...) -> None: ...

class ListActionsResponse(_message.Message):
    __slots__ = ("actions", "view")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    view: _game_pb2.GameView
    def __init__(self, actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ..., view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("state", "action")
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    action: _game_pb2.GameAction
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.GameAction, _Mapping]] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("state", "view", "events", "actions")
    STATE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.SignedGameState
    view: _game_pb2.GameView
    events: _game_pb2.GameEvents
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameAction]
    def __init__(self, state: _Optional[_Union[_game_pb2.SignedGameState, _Mapping]] = ..., view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ..., events: _Optional[_Union[_game_pb2.GameEvents, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.GameAction, _Mapping]]] = ...) -> None: ...
