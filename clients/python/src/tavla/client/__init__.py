"""Client of the tavla.v1 services (RulesService, MatchService, RefereeService, RecordsService):
:class:`Client` (blocking) and :class:`AsyncClient` (asyncio).

Both open a channel with the default service config (:data:`SERVICE_CONFIG`, the same in every
language's client; docs/clients.md): each call's deadline is at most 30 s, and a call that fails
with ``UNAVAILABLE`` is retried up to four more times with exponential backoff. Every RPC is
stateless, so a retry is always safe.

    >>> from tavla.client import Client
    >>> with Client("localhost:50051") as engine:                 # doctest: +SKIP
    ...     start = engine.get_initial_position()
    ...     moves = engine.list_legal_moves(start, (5, 1))
    ...     print(engine.apply_move(start, (5, 1), moves[0]).move.result.ids.position_id)
    4PPgASjgc/ABMA

Every RPC has a helper (:data:`HELPERS`), its name in snake case, as every tavla client names it
in its own case: ``list_legal_steps``, ``start_game``, ``roll_dice``, ``list_cube_actions``,
``apply_cube_action``, ``update_match``, ``advance_clock``, ... (the 1.0 names
``initial_position``, ``legal_moves``, ``legal_steps`` and ``cube_actions`` stay, deprecated,
for 1.x). Their keyword arguments are the
request's fields, with conveniences: a position may be a Position ID string, a move its notation,
a message a ``dict``, an enum its name in any case without the prefix (``"white"``,
``"double"``, ``"gammon"``; Turkish ``"mars"`` and ``"katmerli mars"`` too). Each returns the
response message, except ``get_initial_position`` (a ``Position``) and ``list_legal_moves`` (a list
of ``Move``). ``ruleset=`` on a call overrides the client's. ``client.stubs`` holds the generated
stub of each service by its full name (``client.stubs["tavla.v1.RulesService"]``).

Failed calls raise :class:`EngineError`, which carries the status code, the rich error details
(``ErrorInfo`` reason, ``BadRequest`` fields) and the message for players (``localized``) in the
client's ``locale`` (``"en"`` or ``"tr"``, sent as the ``x-tavla-locale`` metadata).

This module and the stubs :mod:`tavla.v1` are the distribution ``tavla-engine-client``
(clients/python), which needs only grpcio, protobuf and googleapis-common-protos: import nothing
here from the rest of ``tavla`` (the server), which a client-only install does not have.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from types import TracebackType
from typing import Any, TypeVar, cast

import grpc
import grpc.aio
from google.rpc import error_details_pb2, status_pb2

from google.protobuf import duration_pb2

from tavla.v1 import (analysis_service_pb2, analysis_service_pb2_grpc, clock_pb2, dice_pb2, game_pb2, match_pb2,
                      match_service_pb2, match_service_pb2_grpc,
                      records_service_pb2, records_service_pb2_grpc, referee_service_pb2, referee_service_pb2_grpc,
                      render_pb2, rules_service_pb2, rules_service_pb2_grpc, types_pb2, validate_pb2)

from tavla.client.variants import VariantTable

__all__ = [
    "DEFAULT_TARGET", "HELPERS", "LOCALE_METADATA", "SERVICE_CONFIG", "SERVICE_OF", "START_POSITION_ID",
    "AsyncClient", "Client", "EngineError", "TEST_DICE_METADATA", "TEST_NOW_METADATA", "VariantTable",
    "channel_options", "enum_value", "match_state", "position", "record_matches",
]

DEFAULT_TARGET = "localhost:50051"
START_POSITION_ID = "4HPwATDgc/ABMA"  # the starting position (R2), either side on roll

# The default service config of every tavla client (clients/service_config.json; a test checks
# they agree). Timeout: the deadline of a call that sets none, and the longest one any call gets.
SERVICE_CONFIG: dict[str, Any] = {
    "methodConfig": [
        {
            "name": [{"service": "tavla.v1.RulesService"}, {"service": "tavla.v1.MatchService"},
                     {"service": "tavla.v1.RefereeService"}, {"service": "tavla.v1.RecordsService"},
                     {"service": "tavla.v1.AnalysisService"}],
            "timeout": "30s",
            "retryPolicy": {
                "maxAttempts": 5,
                "initialBackoff": "0.1s",
                "maxBackoff": "2s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"],
            },
        },
        # ValidateMatch streams a whole archive: no timeout and no retry (a retry would resend it)
        {"name": [{"service": "tavla.v1.RecordsService", "method": "ValidateMatch"}]},
    ]
}

_STATUS_DETAILS_KEY = "grpc-status-details-bin"
LOCALE_METADATA = "x-tavla-locale"  # the request metadata that picks the language of player messages
TEST_DICE_METADATA = "x-tavla-test-dice"  # a test server's dice for Act (docs/game-state.md)
TEST_NOW_METADATA = "x-tavla-test-now-ms"  # a test server's time for Act

# Every RPC and its helper; a new RPC is one entry here and one short method on _Helpers.
HELPERS: dict[str, str] = {
    "GetInitialPosition": "get_initial_position", "ListLegalMoves": "list_legal_moves", "ApplyMove": "apply_move",
    "ScoreGame": "score_game", "BearOff": "bear_off", "ListLegalSteps": "list_legal_steps",
    "StartGame": "start_game", "CommitDice": "commit_dice", "RollDice": "roll_dice", "NameRoll": "name_roll",
    "ListCubeActions": "list_cube_actions", "ApplyCubeAction": "apply_cube_action",
    "OfferResignation": "offer_resignation", "AnswerResignation": "answer_resignation",
    "UpdateMatch": "update_match", "AdvanceClock": "advance_clock", "ResolveRuleset": "resolve_ruleset",
    "ListRulesets": "list_rulesets", "RenderPosition": "render_position",
    "NewMatch": "new_match", "ListActions": "list_actions", "Act": "act",
    "ValidateMatch": "validate_match", "ExportMatch": "export_match",
    "SuggestMove": "suggest_move", "EvaluatePosition": "evaluate_position",
    "SuggestCubeAction": "suggest_cube_action", "AnalyzeMatch": "analyze_match", "SuggestAction": "suggest_action",
    "StreamAnalyzeMatch": "stream_analyze_match",
}

# Each service's generated stub class, by the service's full name; every RPC by its service.
_STUBS: dict[str, Any] = {
    module.DESCRIPTOR.services_by_name[name].full_name: getattr(grpc_module, f"{name}Stub")
    for module, grpc_module, name in (
        (rules_service_pb2, rules_service_pb2_grpc, "RulesService"),
        (match_service_pb2, match_service_pb2_grpc, "MatchService"),
        (referee_service_pb2, referee_service_pb2_grpc, "RefereeService"),
        (records_service_pb2, records_service_pb2_grpc, "RecordsService"),
        (analysis_service_pb2, analysis_service_pb2_grpc, "AnalysisService"),
    )
}
#: The full name of the service of every RPC, by the RPC's name.
SERVICE_OF: dict[str, str] = {
    method.name: service.full_name
    for module in (rules_service_pb2, match_service_pb2, referee_service_pb2, records_service_pb2,
                   analysis_service_pb2)
    for service in module.DESCRIPTOR.services_by_name.values() for method in service.methods
}

PositionLike = types_pb2.Position | str
MoveLike = types_pb2.Move | str


def channel_options(extra: Iterable[tuple[str, Any]] = ()) -> list[tuple[str, Any]]:
    """Channel options that install :data:`SERVICE_CONFIG` with retries on, then ``extra``."""
    return [("grpc.service_config", json.dumps(SERVICE_CONFIG)), ("grpc.enable_retries", 1), *extra]


def position(value: PositionLike, on_roll: int = types_pb2.SIDE_UNSPECIFIED) -> types_pb2.Position:
    """A ``Position`` from a Position ID (``on_roll`` unset means white), an XGID (``XGID=...``),
    a GNUBG ID (``POSITION_ID:MATCH_ID``), or the message itself."""
    if isinstance(value, types_pb2.Position):
        return value
    on_roll = cast("types_pb2.Side", on_roll)  # an enum is its number on the wire
    if value.startswith("XGID="):
        return types_pb2.Position(xgid=value, on_roll=on_roll)
    if ":" in value:
        return types_pb2.Position(gnubg_id=value, on_roll=on_roll)
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
    :ivar localized: ``LocalizedMessage.message``: the error worded for players, else ``""``.
    :ivar locale: ``LocalizedMessage.locale`` (``"en"``, ``"tr"``), else ``""``.
    """

    code: grpc.StatusCode
    message: str
    reason: str = ""
    domain: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    fields: tuple[str, ...] = ()
    localized: str = ""
    locale: str = ""

    def __str__(self) -> str:
        why = f" [{self.reason}]" if self.reason else ""
        return f"{self.code.name}{why}: {self.message}"

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> EngineError:
        """Read the code, message and ``google.rpc.Status`` details of a failed call (sync or aio)."""
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        message = error.details() if hasattr(error, "details") else str(error)
        trailers = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
        reason = domain = localized = locale = ""
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
                elif detail.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR):
                    text = error_details_pb2.LocalizedMessage()
                    detail.Unpack(text)
                    localized, locale = text.message, text.locale
        return cls(code, message or "", reason, domain, metadata, tuple(fields), localized, locale)


RulesetLike = str | types_pb2.Ruleset | Mapping[str, Any]
MatchLike = match_pb2.MatchState | Mapping[str, Any]
EnumLike = int | str
T = TypeVar("T")
E = TypeVar("E", bound=int)  # a generated protobuf enum (the stubs make each a subclass of int)

# Turkish names of the result kinds (tavla.core.i18n.names), accepted wherever a kind is
_KIND_ALIASES = {"MARS": "GAMMON", "KATMERLI_MARS": "BACKGAMMON"}


def _ruleset(preset: RulesetLike | None) -> types_pb2.Ruleset | None:
    if preset is None or isinstance(preset, types_pb2.Ruleset):
        return preset
    if isinstance(preset, str):
        return types_pb2.Ruleset(preset=preset)
    return types_pb2.Ruleset(**preset)


def enum_value(enum: type[E], value: EnumLike | None) -> E:
    """The number of an enum value given as a number, its full name or its name without the
    enum's prefix, in any case: ``enum_value(types_pb2.Side, "white") == SIDE_WHITE``.

    :raises ValueError: not a value of ``enum``.
    """
    wrapper: Any = enum  # at run time an EnumTypeWrapper, with keys() and Value()
    if value is None:
        return cast(E, 0)
    if isinstance(value, int):
        return cast(E, value)
    prefix = next(iter(wrapper.keys())).removesuffix("UNSPECIFIED")  # "SIDE_", "CUBE_ACTION_", ...
    key = value.strip().upper().replace(" ", "_").replace("-", "_").replace("İ", "I")
    key = _KIND_ALIASES.get(key, key)
    for name in (key, prefix + key):
        if name in wrapper.keys():
            return cast(E, int(wrapper.Value(name)))
    raise ValueError(f"{value!r} is not one of {', '.join(wrapper.keys())}")


def match_state(length: int = 0, **fields: Any) -> match_pb2.MatchState:
    """A ``MatchState``: a new match of ``length`` points (0: money play), or any field set."""
    return match_pb2.MatchState(length=length, **fields)


def _msg(cls: type[T], value: T | Mapping[str, Any] | None) -> T | None:
    if value is None or isinstance(value, cls):
        return value
    return cls(**value)  # type: ignore[arg-type]


def _step(value: types_pb2.CheckerMove | Sequence[int] | Mapping[str, Any]) -> types_pb2.CheckerMove:
    if isinstance(value, types_pb2.CheckerMove):
        return value
    if isinstance(value, Mapping):
        return types_pb2.CheckerMove(**value)
    return types_pb2.CheckerMove(from_point=value[0], to_point=value[1], die=value[2] if len(value) > 2 else 0)


def _throw(value: dice_pb2.RollOffThrow | Sequence[int] | Mapping[str, Any]) -> dice_pb2.RollOffThrow:
    if isinstance(value, dice_pb2.RollOffThrow):
        return value
    if isinstance(value, Mapping):
        return dice_pb2.RollOffThrow(**value)
    return dice_pb2.RollOffThrow(white_die=value[0], black_die=value[1])


def _offer(value: match_pb2.ResignationOffer | Mapping[str, Any] | Sequence[EnumLike]) -> match_pb2.ResignationOffer:
    if isinstance(value, match_pb2.ResignationOffer):
        return value
    if isinstance(value, Mapping):
        return match_pb2.ResignationOffer(side=enum_value(types_pb2.Side, value.get("side")),
                                          kind=enum_value(types_pb2.ResultKind, value.get("kind")))
    return match_pb2.ResignationOffer(side=enum_value(types_pb2.Side, value[0]),
                                      kind=enum_value(types_pb2.ResultKind, value[1]))


def _outcome(value: match_pb2.GameOutcome | Mapping[str, Any]) -> match_pb2.GameOutcome:
    if isinstance(value, match_pb2.GameOutcome):
        return value
    return match_pb2.GameOutcome(
        winner=enum_value(types_pb2.Side, value.get("winner")),
        ending=enum_value(match_pb2.GameEnding, value.get("ending", "borne_off")),
        kind=enum_value(types_pb2.ResultKind, value.get("kind")), points=value.get("points", 0))


def _validate_requests(first: validate_pb2.ValidateMatchRequest, record: Any,
                       chunk_bytes: int) -> Iterator[validate_pb2.ValidateMatchRequest]:
    """The request stream of ValidateMatch: ``first`` carries the settings and the first piece."""
    if isinstance(record, str):
        record = record.encode()
    pieces: Iterable[Any] = ([record[i:i + chunk_bytes] for i in range(0, len(record), chunk_bytes)]
                             if isinstance(record, bytes) else record)
    for piece in pieces:
        if isinstance(piece, validate_pb2.RecordEvent):
            first.event.CopyFrom(piece)
        else:
            first.chunk = bytes(piece)
        yield first
        first = validate_pb2.ValidateMatchRequest()


class _Helpers:
    """Every RPC as a helper, written once: ``_call`` is blocking in :class:`Client` and returns
    a coroutine in :class:`AsyncClient`, and ``_then`` applies a function to what ``_call`` gave.
    The return annotations are the blocking client's: each helper casts what ``_call`` gave to it."""

    ruleset: types_pb2.Ruleset | None
    _variants: VariantTable | None = None  # the first ListRulesets answer's, kept

    def _call(self, rpc: str, request: Any, metadata: Sequence[tuple[str, str]] = ()) -> Any:
        raise NotImplementedError

    def _then(self, value: Any, fn: Callable[[Any], Any]) -> Any:
        raise NotImplementedError

    def _stream(self, rpc: str, requests: Any) -> Any:
        """A streaming RPC's answers: ``requests`` an iterator of messages (a client stream) or
        one message (a server stream)."""
        raise NotImplementedError

    def _ready(self, value: Any) -> Any:
        """``value`` as ``_call`` gives an answer: itself, or an awaitable of it."""
        raise NotImplementedError

    def _rules(self, ruleset: RulesetLike | None) -> types_pb2.Ruleset | None:
        return _ruleset(ruleset) if ruleset is not None else self.ruleset

    # --- moves ---------------------------------------------------------------------------------

    def get_initial_position(self, on_roll: EnumLike = types_pb2.SIDE_WHITE, *,
                             ruleset: RulesetLike | None = None) -> types_pb2.Position:
        """The starting position (R2) with ``on_roll`` on roll."""
        request = rules_service_pb2.GetInitialPositionRequest(ruleset=self._rules(ruleset),
                                                               on_roll=enum_value(types_pb2.Side, on_roll))
        return cast("types_pb2.Position",
                    self._then(self._call("GetInitialPosition", request), lambda r: r.position))

    def list_legal_moves(self, position: PositionLike, dice: Sequence[int], *, view: EnumLike | None = None,
                         ruleset: RulesetLike | None = None) -> list[types_pb2.Move]:
        """Every legal move for the roll (never empty: one empty move when nothing can be played);
        ``view="basic"``: only each move's notation and result Position ID (docs/performance.md)."""
        request = rules_service_pb2.ListLegalMovesRequest(ruleset=self._rules(ruleset), position=_position(position),
                                                           dice=dice, view=enum_value(rules_service_pb2.MoveView, view))
        return cast("list[types_pb2.Move]",
                    self._then(self._call("ListLegalMoves", request), lambda r: list(r.moves)))

    def apply_move(self, position: PositionLike, dice: Sequence[int], move: MoveLike, *,
                   match: MatchLike | None = None,
                   ruleset: RulesetLike | None = None) -> rules_service_pb2.ApplyMoveResponse:
        """Play ``move``: the next position, and ``outcome`` when it ends the game (its points with
        ``match``'s cube)."""
        request = rules_service_pb2.ApplyMoveRequest(ruleset=self._rules(ruleset), position=_position(position),
                                                      dice=dice, move=_move(move),
                                                      match=_msg(match_pb2.MatchState, match))
        return cast("rules_service_pb2.ApplyMoveResponse", self._call("ApplyMove", request))

    def score_game(self, position: PositionLike, *, match: MatchLike | None = None,
                   ruleset: RulesetLike | None = None) -> rules_service_pb2.ScoreGameResponse:
        """``outcome`` set when the game is over (one side has borne off all its checkers: 15, hypergammon 3)."""
        request = rules_service_pb2.ScoreGameRequest(ruleset=self._rules(ruleset), position=_position(position),
                                                      match=_msg(match_pb2.MatchState, match))
        return cast("rules_service_pb2.ScoreGameResponse", self._call("ScoreGame", request))

    def bear_off(self, position: PositionLike, dice: Sequence[int] = (), *,
                 ruleset: RulesetLike | None = None) -> rules_service_pb2.BearOffResponse:
        """Bear-off figures of both sides, race odds, and with ``dice`` the ranked moves."""
        request = rules_service_pb2.BearOffRequest(ruleset=self._rules(ruleset), position=_position(position),
                                                    dice=dice)
        return cast("rules_service_pb2.BearOffResponse", self._call("BearOff", request))

    def list_legal_steps(self, position: PositionLike, dice: Sequence[int],
                         steps: Iterable[types_pb2.CheckerMove | Sequence[int] | Mapping[str, Any]] = (), *,
                         match: MatchLike | None = None,
                         ruleset: RulesetLike | None = None) -> match_service_pb2.ListLegalStepsResponse:
        """The legal next steps after ``steps`` (each a ``CheckerMove`` or ``(from, to[, die])``),
        whether they make a complete ``move``, and its ``outcome`` when it ends the game."""
        request = match_service_pb2.ListLegalStepsRequest(
            ruleset=self._rules(ruleset), position=_position(position), dice=dice,
            steps=[_step(s) for s in steps], match=_msg(match_pb2.MatchState, match))
        return cast("match_service_pb2.ListLegalStepsResponse", self._call("ListLegalSteps", request))

    # --- a game's start and the dice -----------------------------------------------------------

    def start_game(self, match: MatchLike | None = None, *,
                   roll_off: Iterable[dice_pb2.RollOffThrow | Sequence[int] | Mapping[str, Any]] = (),
                   dice: Sequence[int] = (), seed: dice_pb2.DiceSeed | Mapping[str, Any] | None = None,
                   ruleset: RulesetLike | None = None) -> match_service_pb2.StartGameResponse:
        """Who starts, the first dice (larger first) and the roll-off (R3). Dice rolled elsewhere
        (``roll_off`` throws ``(white_die, black_die)``, and under the Turkish rule the starter's
        ``dice``) are sent as ``given``; a committed ``seed`` instead; neither: the server rolls.

        :raises ValueError: both dice rolled elsewhere and a seed (the request's oneof).
        """
        throws = [_throw(t) for t in roll_off]
        given = match_service_pb2.GivenStartDice(roll_off=throws, dice=dice) if throws or dice else None
        if given is not None and seed is not None:
            raise ValueError("give dice rolled elsewhere (roll_off, dice) or a seed, not both")
        request = match_service_pb2.StartGameRequest(
            ruleset=self._rules(ruleset), match=_msg(match_pb2.MatchState, match),
            given=given, seed=_msg(dice_pb2.DiceSeed, seed))
        return cast("match_service_pb2.StartGameResponse", self._call("StartGame", request))

    def commit_dice(self, client_seed_sha256: str = "", *,
                    client_seed: str | None = None) -> match_service_pb2.CommitDiceResponse:
        """A commitment and a token to roll verifiable dice with (docs/dice.md), bound to the
        client seed the players fixed first: give the seed (its SHA-256 is sent, never the seed)
        or the hex SHA-256 itself; the token then rolls only with that seed."""
        if client_seed is not None:
            client_seed_sha256 = hashlib.sha256(client_seed.encode("utf-8")).hexdigest()
        request = match_service_pb2.CommitDiceRequest(client_seed_sha256=client_seed_sha256)
        return cast("match_service_pb2.CommitDiceResponse", self._call("CommitDice", request))

    def roll_dice(self, *, seed: dice_pb2.DiceSeed | Mapping[str, Any] | None = None,
                  position: PositionLike | None = None,
                  ruleset: RulesetLike | None = None) -> match_service_pb2.RollDiceResponse:
        """Two dice, larger first, with their name; ``gele`` with ``position`` (read under the
        ruleset's variant); ``proof`` with ``seed``."""
        request = match_service_pb2.RollDiceRequest(seed=_msg(dice_pb2.DiceSeed, seed),
                                                     position=None if position is None else _position(position),
                                                     ruleset=None if position is None else self._rules(ruleset))
        return cast("match_service_pb2.RollDiceResponse", self._call("RollDice", request))

    def name_roll(self, dice: Sequence[int]) -> rules_service_pb2.NameRollResponse:
        """The Turkish name of a roll (R26)."""
        request = rules_service_pb2.NameRollRequest(dice=dice)
        return cast("rules_service_pb2.NameRollResponse", self._call("NameRoll", request))

    # --- cube, resignation, match, clock, rulesets ---------------------------------------------

    def list_cube_actions(self, match: MatchLike, side: EnumLike, *,
                          ruleset: RulesetLike | None = None) -> match_service_pb2.ListCubeActionsResponse:
        """The cube actions ``side`` may take now, and why it may not double (R19-R21)."""
        request = match_service_pb2.ListCubeActionsRequest(
            ruleset=self._rules(ruleset), match=_msg(match_pb2.MatchState, match),
            side=enum_value(types_pb2.Side, side))
        return cast("match_service_pb2.ListCubeActionsResponse", self._call("ListCubeActions", request))

    def apply_cube_action(self, match: MatchLike, side: EnumLike, action: EnumLike, *,
                          ruleset: RulesetLike | None = None) -> match_service_pb2.ApplyCubeActionResponse:
        """The match after ``action`` (``"double"``, ``"take"``, ``"drop"``, ``"beaver"``)."""
        request = match_service_pb2.ApplyCubeActionRequest(
            ruleset=self._rules(ruleset), match=_msg(match_pb2.MatchState, match),
            side=enum_value(types_pb2.Side, side), action=enum_value(match_pb2.CubeAction, action))
        return cast("match_service_pb2.ApplyCubeActionResponse", self._call("ApplyCubeAction", request))

    def offer_resignation(self, match: MatchLike, offer: match_pb2.ResignationOffer | Mapping[str, Any]
                          | Sequence[EnumLike], *,
                          ruleset: RulesetLike | None = None) -> match_service_pb2.OfferResignationResponse:
        """What ``offer`` (a message, or ``(side, kind)``) pays if accepted."""
        request = match_service_pb2.OfferResignationRequest(
            ruleset=self._rules(ruleset), match=_msg(match_pb2.MatchState, match), offer=_offer(offer))
        return cast("match_service_pb2.OfferResignationResponse", self._call("OfferResignation", request))

    def answer_resignation(self, match: MatchLike, offer: match_pb2.ResignationOffer | Mapping[str, Any]
                           | Sequence[EnumLike], accept: bool, *,
                           ruleset: RulesetLike | None = None) -> match_service_pb2.AnswerResignationResponse:
        """Accept (the game ends: ``outcome``) or reject ``offer``."""
        request = match_service_pb2.AnswerResignationRequest(
            ruleset=self._rules(ruleset), match=_msg(match_pb2.MatchState, match), offer=_offer(offer),
            accept=accept)
        return cast("match_service_pb2.AnswerResignationResponse", self._call("AnswerResignation", request))

    def update_match(self, match: MatchLike, outcome: match_pb2.GameOutcome | Mapping[str, Any], *,
                     ruleset: RulesetLike | None = None) -> match_service_pb2.UpdateMatchResponse:
        """The match after a game ended with ``outcome`` (any answer's ``outcome``, unchanged)."""
        request = match_service_pb2.UpdateMatchRequest(
            ruleset=self._rules(ruleset), match=_msg(match_pb2.MatchState, match), outcome=_outcome(outcome))
        return cast("match_service_pb2.UpdateMatchResponse", self._call("UpdateMatch", request))

    def advance_clock(self, side: EnumLike, elapsed: timedelta | duration_pb2.Duration = timedelta(0), *,
                      settings: clock_pb2.ClockSettings | Mapping[str, Any] | None = None,
                      state: clock_pb2.ClockState | Mapping[str, Any] | None = None,
                      event: EnumLike | None = None) -> match_service_pb2.AdvanceClockResponse:
        """The clock after ``side`` used ``elapsed`` (whole milliseconds) on ``event`` (default a
        move), or a forfeit."""
        request = match_service_pb2.AdvanceClockRequest(
            settings=_msg(clock_pb2.ClockSettings, settings), state=_msg(clock_pb2.ClockState, state),
            side=enum_value(types_pb2.Side, side), event=enum_value(clock_pb2.ClockEvent, event),
            elapsed=_duration(elapsed))
        return cast("match_service_pb2.AdvanceClockResponse", self._call("AdvanceClock", request))

    def resolve_ruleset(self, ruleset: RulesetLike | None = None) -> match_service_pb2.ResolveRulesetResponse:
        """The ruleset (default the client's) with every option resolved."""
        request = match_service_pb2.ResolveRulesetRequest(ruleset=self._rules(ruleset))
        return cast("match_service_pb2.ResolveRulesetResponse", self._call("ResolveRuleset", request))

    def list_rulesets(self) -> match_service_pb2.ListRulesetsResponse:
        """The named presets with their options."""
        request = match_service_pb2.ListRulesetsRequest()
        return cast("match_service_pb2.ListRulesetsResponse", self._call("ListRulesets", request))

    def variant_table(self) -> VariantTable:
        """Every variant's facts (direction, contact, bar, checkers, home, options), from one
        ListRulesets call made the first time and kept for the client's life."""
        if self._variants is not None:
            return cast(VariantTable, self._ready(self._variants))

        def keep(answer: match_service_pb2.ListRulesetsResponse) -> VariantTable:
            self._variants = VariantTable(answer.presets)
            return self._variants
        return cast(VariantTable, self._then(self._call("ListRulesets", match_service_pb2.ListRulesetsRequest()), keep))

    def variant_facts(self, name: str) -> match_pb2.VariantFacts:
        """The facts of the variant or preset called ``name`` (any alias; case, spaces and
        hyphens ignored), from :meth:`variant_table`.

        :raises KeyError: the server lists no variant or preset of that name.
        """
        return cast(match_pb2.VariantFacts, self._then(self.variant_table(), lambda table: table.facts(name)))

    # --- the referee API (docs/game-state.md): one signed state per match -----------------------

    def new_match(self, length: int = 0, clock: clock_pb2.ClockSettings | Mapping[str, Any] | None = None,
                  match_id: str = "", *, ruleset: RulesetLike | None = None) -> referee_service_pb2.NewMatchResponse:
        """The first state of a match (``length`` 0: money play); keep ``.state`` and send it back
        with the next action."""
        request = referee_service_pb2.NewMatchRequest(ruleset=self._rules(ruleset), length=length,
                                                     clock=_msg(clock_pb2.ClockSettings, clock), match_id=match_id)
        return cast("referee_service_pb2.NewMatchResponse", self._call("NewMatch", request))

    def list_actions(self, state: game_pb2.SignedGameState) -> referee_service_pb2.ListActionsResponse:
        """The legal actions of the side to act (``.actions``) and what the state shows
        (``.view``); ``act`` answers the same for the state it returns."""
        request = referee_service_pb2.ListActionsRequest(state=state)
        return cast("referee_service_pb2.ListActionsResponse", self._call("ListActions", request))

    def act(self, state: game_pb2.SignedGameState, action: game_pb2.GameAction | EnumLike, *,
            dice: Sequence[int] = (), now_ms: int | None = None, **fields: Any) -> referee_service_pb2.ActResponse:
        """The next state after ``action`` (``.state``), what it shows (``.view``), its legal
        actions (``.actions``) and what happened (``.events``, with the new record entries).
        ``action``: a ``GameAction`` (one the last answer listed), or an action kind (``"roll"``,
        ``ACTION_KIND_RESIGN``) with its fields as keywords, e.g. ``act(s, "resign",
        resign_kind="gammon")``. ``dice`` and ``now_ms`` only for a test server (``--test-inputs``,
        state mode off): they go as the metadata ``x-tavla-test-dice`` / ``x-tavla-test-now-ms``."""
        if not isinstance(action, game_pb2.GameAction):
            for name, value in list(fields.items()):
                if name == "resign_kind" and isinstance(value, str):
                    fields[name] = enum_value(types_pb2.ResultKind, value)
                elif name == "side" and isinstance(value, str):
                    fields[name] = enum_value(types_pb2.Side, value)
                elif name == "step" and not isinstance(value, types_pb2.CheckerMove):
                    fields[name] = _step(value)
            action = game_pb2.GameAction(kind=enum_value(game_pb2.ActionKind, action), **fields)
        request = referee_service_pb2.ActRequest(state=state, action=action)
        metadata = [(TEST_DICE_METADATA, ",".join(map(str, dice)))] if dice else []
        if now_ms is not None:
            metadata.append((TEST_NOW_METADATA, str(now_ms)))
        return cast("referee_service_pb2.ActResponse", self._call("Act", request, metadata))

    # --- analysis and the computer opponent (docs/analysis.md) -------------------------------------

    def suggest_move(self, position: PositionLike, dice: Sequence[int], *, match: MatchLike | None = None,
                     level: EnumLike | None = None, max_moves: int = 0,
                     ruleset: RulesetLike | None = None) -> analysis_service_pb2.SuggestMoveResponse:
        """The legal moves ranked for the side on roll (``.moves``, the level's choice first), each
        with its equity and chances; ``level``: ``"beginner"`` ... ``"expert"`` (the default)."""
        request = analysis_service_pb2.SuggestMoveRequest(
            ruleset=self._rules(ruleset), position=_position(position), dice=dice,
            match=_msg(match_pb2.MatchState, match), level=enum_value(analysis_service_pb2.AnalysisLevel, level),
            max_moves=max_moves)
        return cast("analysis_service_pb2.SuggestMoveResponse", self._call("SuggestMove", request))

    def evaluate_position(self, position: PositionLike, *, match: MatchLike | None = None,
                          level: EnumLike | None = None,
                          ruleset: RulesetLike | None = None) -> analysis_service_pb2.EvaluatePositionResponse:
        """The side on roll's chances and equity before it rolls."""
        request = analysis_service_pb2.EvaluatePositionRequest(
            ruleset=self._rules(ruleset), position=_position(position), match=_msg(match_pb2.MatchState, match),
            level=enum_value(analysis_service_pb2.AnalysisLevel, level))
        return cast("analysis_service_pb2.EvaluatePositionResponse", self._call("EvaluatePosition", request))

    def suggest_cube_action(self, position: PositionLike, *, match: MatchLike | None = None,
                            level: EnumLike | None = None,
                            ruleset: RulesetLike | None = None) -> analysis_service_pb2.SuggestCubeActionResponse:
        """Whether the side on roll should double and the other side take (R19-R21), with the
        no-double, double/take and double/pass equities."""
        request = analysis_service_pb2.SuggestCubeActionRequest(
            ruleset=self._rules(ruleset), position=_position(position), match=_msg(match_pb2.MatchState, match),
            level=enum_value(analysis_service_pb2.AnalysisLevel, level))
        return cast("analysis_service_pb2.SuggestCubeActionResponse", self._call("SuggestCubeAction", request))

    def analyze_match(self, mat: str, *, level: EnumLike | None = None,
                      ruleset: RulesetLike | None = None) -> analysis_service_pb2.AnalyzeMatchResponse:
        """A .mat record reviewed: each side's error rate and PR (``.players``) and every
        decision's error (``.decisions``)."""
        request = analysis_service_pb2.AnalyzeMatchRequest(
            mat=mat, ruleset=_ruleset(ruleset) if ruleset is not None else None,
            level=enum_value(analysis_service_pb2.AnalysisLevel, level))
        return cast("analysis_service_pb2.AnalyzeMatchResponse", self._call("AnalyzeMatch", request))

    def stream_analyze_match(self, mat: str, *, level: EnumLike | None = None,
                             ruleset: RulesetLike | None = None) -> Any:
        """:meth:`analyze_match` with its progress (StreamAnalyzeMatch): an iterator (an async
        one from :class:`AsyncClient`) of ``StreamAnalyzeMatchResponse``: ``.progress``
        (``decisions_done`` of ``decisions_total``, in ``game`` of ``games``) as the review goes,
        then ``.result``, the ``AnalyzeMatchResponse``, last."""
        request = analysis_service_pb2.StreamAnalyzeMatchRequest(
            mat=mat, ruleset=_ruleset(ruleset) if ruleset is not None else None,
            level=enum_value(analysis_service_pb2.AnalysisLevel, level))
        return self._stream("StreamAnalyzeMatch", request)

    def suggest_action(self, state: game_pb2.SignedGameState,
                       level: EnumLike | None = None) -> analysis_service_pb2.SuggestActionResponse:
        """The computer's action for the side to act in a referee state (``.action``): pass it to
        :meth:`act` with the same state, e.g. ``act(s, suggest_action(s, "beginner").action)``."""
        request = analysis_service_pb2.SuggestActionRequest(
            state=state, level=enum_value(analysis_service_pb2.AnalysisLevel, level))
        return cast("analysis_service_pb2.SuggestActionResponse", self._call("SuggestAction", request))

    # --- match records (docs/match-files.md) ----------------------------------------------------

    def validate_match(self, record: bytes | str | Iterable[bytes] | Iterable[validate_pb2.RecordEvent], *,
                       format: EnumLike | None = None, rules: EnumLike | None = None,  # noqa: A002
                       source: str = "", chunk_bytes: int = 32 << 10) -> Any:
        """Check whole match records on the server (ValidateMatch, a stream): an iterator of
        ``ValidateMatchResponse``, one per game as it completes, then one per record (an async
        iterator from :class:`AsyncClient`). ``record`` is the bytes or text of ``.mat``/``.sgf``
        records, an iterable of byte chunks (an open binary file), or of ``RecordEvent``;
        ``format`` (``"mat"``, ``"sgf"``; default sniffed) and ``rules`` (``"auto"``, ``"match"``,
        ``"money"``, ``"money_jacoby"``) are ``RecordFormat`` and ``ValidationRules`` names."""
        first = validate_pb2.ValidateMatchRequest(format=enum_value(validate_pb2.RecordFormat, format),
                                                  rules=enum_value(validate_pb2.ValidationRules, rules),
                                                  source=source)
        return self._stream("ValidateMatch", _validate_requests(first, record, chunk_bytes))

    def export_match(self, state: game_pb2.SignedGameState, records: Iterable[game_pb2.ActionRecord], *,
                     format: EnumLike | None = None, white_player: str = "", black_player: str = "",  # noqa: A002
                     headers: Mapping[str, str] | None = None) -> records_service_pb2.ExportMatchResponse:
        """A referee match as a file (ExportMatch): ``state`` its latest state, ``records`` every
        entry of its ``act(...).events.records`` in order (they must lead to the state's record
        digest: :func:`record_matches`); ``format`` ``"mat"`` (default) or ``"sgf"``. The answer
        has ``.content`` (the text), ``.file_name``, ``.media_type``, ``.games`` and
        ``.match_over`` (a match in play gives its games so far)."""
        request = records_service_pb2.ExportMatchRequest(
            state=state, records=list(records), format=enum_value(records_service_pb2.ExportFormat, format),
            white_player=white_player, black_player=black_player, headers=dict(headers or {}))
        return cast("records_service_pb2.ExportMatchResponse", self._call("ExportMatch", request))

    def render_position(self, position: PositionLike, dice: Sequence[int] = (), *,
                        match: MatchLike | None = None, options: render_pb2.RenderOptions | Mapping[str, Any] | None = None,
                        ruleset: RulesetLike | None = None) -> rules_service_pb2.RenderPositionResponse:
        """The board as an SVG document and as text (``svg``, ``text``), with the dice, the match
        score and cube when given (docs/formats.md)."""
        request = rules_service_pb2.RenderPositionRequest(
            ruleset=self._rules(ruleset), position=_position(position), dice=dice,
            match=_msg(match_pb2.MatchState, match), options=_msg(render_pb2.RenderOptions, options))
        return cast("rules_service_pb2.RenderPositionResponse", self._call("RenderPosition", request))

    # The 1.0 names of four helpers, before every helper took its RPC's own name; kept for 1.x.
    #: Deprecated: use :meth:`get_initial_position`.
    initial_position = get_initial_position
    #: Deprecated: use :meth:`list_legal_moves`.
    legal_moves = list_legal_moves
    #: Deprecated: use :meth:`list_legal_steps`.
    legal_steps = list_legal_steps
    #: Deprecated: use :meth:`list_cube_actions`.
    cube_actions = list_cube_actions


RECORD_LABEL = b"tavla-record-v1"  # the record digest's label (docs/game-state.md, "The record")


def record_matches(state: game_pb2.SignedGameState, records: Iterable[game_pb2.ActionRecord]) -> bool:
    """Whether ``records`` (every entry of the match's ``act(...).events.records``, in order)
    are the record the state's ``record_digest`` pins: SHA-256("tavla-record-v1" || digest ||
    entry) per entry from 32 zero bytes. Checks the chain only, not the server's signature."""
    digest = bytes(32)
    for entry in records:
        digest = hashlib.sha256(RECORD_LABEL + digest + entry.SerializeToString(deterministic=True)).digest()
    pinned: bytes = game_pb2.GameState.FromString(state.state).record_digest
    return digest == pinned


def _position(value: PositionLike) -> types_pb2.Position:
    return position(value)


def _duration(value: timedelta | duration_pb2.Duration) -> duration_pb2.Duration:
    if isinstance(value, duration_pb2.Duration):
        return value
    msg = duration_pb2.Duration()
    msg.FromTimedelta(value)
    return msg


def _metadata(locale: str | None) -> tuple[tuple[str, str], ...]:
    return ((LOCALE_METADATA, locale),) if locale else ()


class Client(_Helpers):
    """A blocking client. Use it as a context manager, or call :meth:`close`.

    :param target: ``host:port`` or any gRPC target URI.
    :param credentials: channel credentials for TLS; plaintext when ``None``.
    :param options: extra channel options, after the default service config (a later
        ``grpc.service_config`` replaces it).
    :param ruleset: the default ruleset of the helpers: a preset name, a ``Ruleset`` or a dict.
    :param locale: the language of the player messages of errors (``"en"``, ``"tr"``), sent as
        the ``x-tavla-locale`` metadata; ``None`` leaves it to the server (English).
    """

    def __init__(self, target: str = DEFAULT_TARGET, *, credentials: grpc.ChannelCredentials | None = None,
                 options: Iterable[tuple[str, Any]] = (), ruleset: RulesetLike | None = None,
                 locale: str | None = None) -> None:
        opts = channel_options(options)
        self.channel = (grpc.secure_channel(target, credentials, opts) if credentials
                        else grpc.insecure_channel(target, opts))
        #: The generated stub of each tavla.v1 service, by the service's full name.
        self.stubs = {name: stub(self.channel) for name, stub in _STUBS.items()}
        self.ruleset = _ruleset(ruleset)
        self.locale = locale

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, rpc: str, request: Any, timeout: float | None = None,
             metadata: Sequence[tuple[str, str]] = ()) -> Any:
        """Call any RPC by name (:data:`SERVICE_OF`) with its request message (and extra
        ``metadata``); raises :class:`EngineError` (KeyError for a name no service has)."""
        try:
            return getattr(self.stubs[SERVICE_OF[rpc]], rpc)(request, timeout=timeout,
                                                             metadata=_metadata(self.locale) + tuple(metadata))
        except grpc.RpcError as err:
            raise EngineError.from_rpc_error(err) from None

    def _call(self, rpc: str, request: Any, metadata: Sequence[tuple[str, str]] = ()) -> Any:
        return self.call(rpc, request, metadata=metadata)

    def _then(self, value: Any, fn: Callable[[Any], Any]) -> Any:
        return fn(value)

    def _ready(self, value: Any) -> Any:
        return value

    def _stream(self, rpc: str, requests: Any) -> Iterator[Any]:
        try:
            yield from getattr(self.stubs[SERVICE_OF[rpc]], rpc)(requests, metadata=_metadata(self.locale))
        except grpc.RpcError as err:
            raise EngineError.from_rpc_error(err) from None


class AsyncClient(_Helpers):
    """The asyncio client: the same helpers as :class:`Client`, as coroutines.

    Create it inside a running event loop; ``async with`` closes it.
    """

    def __init__(self, target: str = DEFAULT_TARGET, *, credentials: grpc.ChannelCredentials | None = None,
                 options: Iterable[tuple[str, Any]] = (), ruleset: RulesetLike | None = None,
                 locale: str | None = None) -> None:
        opts = channel_options(options)
        self.channel = (grpc.aio.secure_channel(target, credentials, opts) if credentials
                        else grpc.aio.insecure_channel(target, opts))
        #: The generated stub of each tavla.v1 service, by the service's full name.
        self.stubs = {name: stub(self.channel) for name, stub in _STUBS.items()}
        self.ruleset = _ruleset(ruleset)
        self.locale = locale

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def call(self, rpc: str, request: Any, timeout: float | None = None,
                   metadata: Sequence[tuple[str, str]] = ()) -> Any:
        """Call any RPC by name (:data:`SERVICE_OF`) with its request message (and extra
        ``metadata``); raises :class:`EngineError` (KeyError for a name no service has)."""
        try:
            return await getattr(self.stubs[SERVICE_OF[rpc]], rpc)(request, timeout=timeout,
                                                                   metadata=_metadata(self.locale) + tuple(metadata))
        except grpc.RpcError as err:
            raise EngineError.from_rpc_error(err) from None

    def _call(self, rpc: str, request: Any, metadata: Sequence[tuple[str, str]] = ()) -> Awaitable[Any]:
        return self.call(rpc, request, metadata=metadata)

    def _then(self, value: Awaitable[Any], fn: Callable[[Any], Any]) -> Awaitable[Any]:
        async def then() -> Any:
            return fn(await value)
        return then()

    def _ready(self, value: Any) -> Awaitable[Any]:
        async def ready() -> Any:
            return value
        return ready()

    async def _stream(self, rpc: str, requests: Any) -> AsyncIterator[Any]:
        try:
            async for response in getattr(self.stubs[SERVICE_OF[rpc]], rpc)(requests,
                                                                            metadata=_metadata(self.locale)):
                yield response
        except grpc.RpcError as err:
            raise EngineError.from_rpc_error(err) from None
