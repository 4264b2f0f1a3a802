import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tavla.v1 import bounds_pb2 as _bounds_pb2
from tavla.v1 import clock_pb2 as _clock_pb2
from tavla.v1 import dice_pb2 as _dice_pb2
from tavla.v1 import match_pb2 as _match_pb2
from tavla.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    __slots__ = ("next_steps", "complete", "move", "position", "dice_left", "steps", "gele", "outcome", "combined_steps", "forced", "forced_steps")
    NEXT_STEPS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_LEFT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    GELE_FIELD_NUMBER: _ClassVar[int]
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
    outcome: _match_pb2.GameOutcome
    combined_steps: _containers.RepeatedCompositeFieldContainer[CombinedStep]
    forced: bool
    forced_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.CheckerMove]
    def __init__(self, next_steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., complete: _Optional[bool] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., dice_left: _Optional[_Iterable[int]] = ..., steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ..., gele: _Optional[bool] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., combined_steps: _Optional[_Iterable[_Union[CombinedStep, _Mapping]]] = ..., forced: _Optional[bool] = ..., forced_steps: _Optional[_Iterable[_Union[_types_pb2.CheckerMove, _Mapping]]] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("ruleset", "match", "given", "seed")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    match: _match_pb2.MatchState
    given: GivenStartDice
    seed: _dice_pb2.DiceSeed
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ..., match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., given: _Optional[_Union[GivenStartDice, _Mapping]] = ..., seed: _Optional[_Union[_dice_pb2.DiceSeed, _Mapping]] = ...) -> None: ...

class GivenStartDice(_message.Message):
    __slots__ = ("roll_off", "dice")
    ROLL_OFF_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    roll_off: _containers.RepeatedCompositeFieldContainer[_dice_pb2.RollOffThrow]
    dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, roll_off: _Optional[_Iterable[_Union[_dice_pb2.RollOffThrow, _Mapping]]] = ..., dice: _Optional[_Iterable[int]] = ...) -> None: ...

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
    __slots__ = ("seed", "position", "ruleset")
    SEED_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    seed: _dice_pb2.DiceSeed
    position: _types_pb2.Position
    ruleset: _types_pb2.Ruleset
    def __init__(self, seed: _Optional[_Union[_dice_pb2.DiceSeed, _Mapping]] = ..., position: _Optional[_Union[_types_pb2.Position, _Mapping]] = ..., ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("match", "outcome")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    match: _match_pb2.MatchState
    outcome: _match_pb2.GameOutcome
    def __init__(self, match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("outcome",)
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: _match_pb2.GameOutcome
    def __init__(self, outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("match", "outcome", "points_scored", "next_starter")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    POINTS_SCORED_FIELD_NUMBER: _ClassVar[int]
    NEXT_STARTER_FIELD_NUMBER: _ClassVar[int]
    match: _match_pb2.MatchState
    outcome: _match_pb2.GameOutcome
    points_scored: int
    next_starter: _types_pb2.Side
    def __init__(self, match: _Optional[_Union[_match_pb2.MatchState, _Mapping]] = ..., outcome: _Optional[_Union[_match_pb2.GameOutcome, _Mapping]] = ..., points_scored: _Optional[int] = ..., next_starter: _Optional[_Union[_types_pb2.Side, str]] = ...) -> None: ...

class AdvanceClockRequest(_message.Message):
    __slots__ = ("settings", "state", "side", "event", "elapsed")
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_FIELD_NUMBER: _ClassVar[int]
    settings: _clock_pb2.ClockSettings
    state: _clock_pb2.ClockState
    side: _types_pb2.Side
    event: _clock_pb2.ClockEvent
    elapsed: _duration_pb2.Duration
    def __init__(self, settings: _Optional[_Union[_clock_pb2.ClockSettings, _Mapping]] = ..., state: _Optional[_Union[_clock_pb2.ClockState, _Mapping]] = ..., side: _Optional[_Union[_types_pb2.Side, str]] = ..., event: _Optional[_Union[_clock_pb2.ClockEvent, str]] = ..., elapsed: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class AdvanceClockResponse(_message.Message):
    __slots__ = ("state", "forfeit", "charged", "extensions_used", "time_left")
    STATE_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    CHARGED_FIELD_NUMBER: _ClassVar[int]
    EXTENSIONS_USED_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_FIELD_NUMBER: _ClassVar[int]
    state: _clock_pb2.ClockState
    forfeit: _clock_pb2.ClockForfeit
    charged: _duration_pb2.Duration
    extensions_used: int
    time_left: _duration_pb2.Duration
    def __init__(self, state: _Optional[_Union[_clock_pb2.ClockState, _Mapping]] = ..., forfeit: _Optional[_Union[_clock_pb2.ClockForfeit, _Mapping]] = ..., charged: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., extensions_used: _Optional[int] = ..., time_left: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ResolveRulesetRequest(_message.Message):
    __slots__ = ("ruleset",)
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ruleset: _types_pb2.Ruleset
    def __init__(self, ruleset: _Optional[_Union[_types_pb2.Ruleset, _Mapping]] = ...) -> None: ...

class ResolveRulesetResponse(_message.Message):
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
