"""The tavla.v1.RecordsService RPCs. ValidateMatch: match records streamed in, verdicts streamed
out (:mod:`tavla.replay.validate` does the work with the rules core in process). ExportMatch: a
referee match's kept record, checked against its signed state, written as a .mat or .sgf file
(:mod:`tavla.formats.referee_record`, :mod:`tavla.formats.matwriter`, :mod:`tavla.formats.sgfwriter`).

Bidirectional: each request carries the next bytes or recorded event; each game's verdict is
sent as soon as the game is complete, so the server holds one game whatever the archive's size.
Bad settings or a bad event are ``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest``; a record
that cannot be read is a verdict (``readable`` false), not an error.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator

import grpc
from grpc_status import rpc_status

from tavla.core import InvalidInputError
from tavla.core.game import Phase
from tavla.formats.matwriter import write_match
from tavla.formats.sgfwriter import SgfWriteError, write_sgf
from tavla.referee import Referee
from tavla.referee.keys import Signed
from tavla.server.api.context import CallContext
from tavla.server.convert import contract
from tavla.formats import referee_record as cr
from tavla.replay.driver import GameResult, Report
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import Double, Drop, Loss, Roll, Take, Win
from tavla.replay.validate import GameVerdict, RecordVerdict, StreamValidator, Verdict
from tavla.server.api.engine import EngineServicer
from tavla.server.api.buffers import BufferFull, ByteBudget, Held
from tavla.server.convert.status import status_for
from tavla.v1 import records_service_pb2 as rpb
from tavla.v1 import records_service_pb2_grpc
from tavla.v1 import types_pb2, validate_pb2 as pb

_FORMATS = {pb.RECORD_FORMAT_UNSPECIFIED: "auto", pb.RECORD_FORMAT_MAT: "mat", pb.RECORD_FORMAT_SGF: "sgf"}
_MODES = {pb.VALIDATION_RULES_UNSPECIFIED: "auto", pb.VALIDATION_RULES_AUTO: "auto",
          pb.VALIDATION_RULES_MATCH: "match", pb.VALIDATION_RULES_MONEY: "money",
          pb.VALIDATION_RULES_MONEY_JACOBY: "money-jacoby"}
_ENGINE = LocalEngine()
#: What all of this worker's streams hold for unfinished lines and game trees.
BUFFERS = ByteBudget()
log = logging.getLogger(__name__)


def game_to_proto(verdict: GameVerdict) -> pb.ValidateMatchResponse:
    r: GameResult = verdict.result
    game = pb.GameVerdict(
        record=verdict.record, source=verdict.source, game_number=r.number, line=r.line,
        plays_checked=r.counts["plays"], points_agree=r.points_agree, score_agree=r.score_agree,
        disagreements=r.problems, notes=r.notes, finished=r.counts["finished"], capped=r.counts["capped"],
        drops=r.counts["drops"], resigned=r.counts["resigned"], forfeits=r.counts["forfeits"],
        cube_actions=r.counts["cube_actions"], crawford_game=bool(r.counts["crawford_games"]),
        match_updates=r.counts["match_updates"])
    if r.illegal is not None:
        game.first_illegal.CopyFrom(pb.IllegalPlay(line=r.illegal.line, play=r.illegal.play,
                                                   reason=r.illegal.reason, position_id=r.illegal.position_id))
    return pb.ValidateMatchResponse(game=game)


def record_to_proto(verdict: RecordVerdict) -> pb.ValidateMatchResponse:
    record = pb.RecordVerdict(record=verdict.record, source=verdict.source, readable=verdict.readable,
                              error=verdict.error)
    report: Report | None = verdict.report
    if report is not None:
        record.length, record.games, record.plays_checked = report.length, report.games, report.plays
        record.rules, record.money_session, record.unfinished = report.rules, report.money, report.unfinished
        record.white_score, record.black_score = report.final_score
        record.match_winner = _SIDES_OUT.get(report.match_winner, types_pb2.SIDE_UNSPECIFIED)
        record.disagreements.extend(report.problems)
        record.notes.extend(report.notes)
        record.unlisted = report.dropped
    return pb.ValidateMatchResponse(record=record)


def to_proto(verdict: Verdict) -> pb.ValidateMatchResponse:
    return game_to_proto(verdict) if isinstance(verdict, GameVerdict) else record_to_proto(verdict)


# A record's players by number (1: white, the left column of a .mat; 2: black) <-> Side.
_PLAYERS: dict[int, int] = {types_pb2.SIDE_WHITE: 1, types_pb2.SIDE_BLACK: 2}
_SIDES_OUT: dict[int, types_pb2.Side] = {1: types_pb2.SIDE_WHITE, 2: types_pb2.SIDE_BLACK}


def _player(value: int, field: str) -> int:
    """The record's player number (1 or 2) of a ``Side``.

    :raises InvalidInputError: SIDE_UNSPECIFIED or an unknown number.
    """
    if value not in _PLAYERS:
        raise InvalidInputError(field, f"must be SIDE_WHITE (player 1) or SIDE_BLACK (player 2), not {value}")
    return _PLAYERS[value]


def _event(validator: StreamValidator, event: pb.RecordEvent) -> list[Verdict]:
    kind = event.WhichOneof("kind")
    if kind == "record":
        r = event.record
        return validator.start_record(r.length, (r.white_player, r.black_player), dict(r.headers))
    if kind == "game":
        return validator.start_game(event.game.number, (event.game.white_score, event.game.black_score))
    if kind == "roll":
        roll = event.roll
        player = _player(roll.player, "event.roll.player")
        if len(roll.dice) != 2 or not all(1 <= d <= 6 for d in roll.dice):
            raise InvalidInputError("event.roll.dice", f"must be two dice 1-6, not {list(roll.dice)}")
        dice = (roll.dice[0], roll.dice[1])
        return validator.action(lambda line: Roll(player, line, dice, roll.play))
    if kind == "cube":
        cube = event.cube
        player = _player(cube.player, "event.cube.player")
        makers = {"double": lambda line: Double(player, line, cube.value),
                  "take": lambda line: Take(player, line), "drop": lambda line: Drop(player, line)}
        if cube.action not in makers:
            raise InvalidInputError("event.cube.action", f"must be double, take or drop, not {cube.action!r}")
        return validator.action(makers[cube.action])
    if kind == "result":
        res = event.result
        player = _player(res.player, "event.result.player")
        if res.loss:
            return validator.action(lambda line: Loss(player, line, res.points))
        return validator.action(lambda line: Win(player, line, res.points, res.match_won))
    raise InvalidInputError("event", "empty event")


def validate_stream(requests: Iterable[pb.ValidateMatchRequest], context: CallContext | None = None,
                    budget: ByteBudget | None = None) -> Iterator[pb.ValidateMatchResponse]:
    """The responses of ValidateMatch for ``requests``; the bytes held count against ``budget``
    (the worker's :data:`BUFFERS` by default).

    :raises InvalidInputError: an unknown format or rules value, a bad event, or chunks and
        events mixed in one stream.
    :raises BufferFull: the worker's streams hold their limit of unfinished bytes.
    """
    held = (budget or BUFFERS).holder()
    try:
        yield from _validate(requests, context, held)
    finally:
        held.set(0)


def _validate(requests: Iterable[pb.ValidateMatchRequest], context: CallContext | None,
              held: Held) -> Iterator[pb.ValidateMatchResponse]:
    validator: StreamValidator | None = None
    piece_kind = ""
    for request in requests:
        contract.check(request)  # streamed messages pass no interceptor: each is checked here
        if validator is None:  # the contract has refused enum values outside these maps
            validator = StreamValidator(_ENGINE, request.source or "<stream>", _FORMATS[request.format],
                                        _MODES[request.rules])
        kind = request.WhichOneof("piece")
        if kind is None:
            continue
        if piece_kind and kind != piece_kind:
            raise InvalidInputError(kind, "a stream carries chunks or events, not both")
        piece_kind = kind
        try:
            if kind == "chunk":
                verdicts = validator.feed(request.chunk)
                held.set(validator.buffered())
            else:
                verdicts = _event(validator, request.event)
        except ValueError as exc:
            if isinstance(exc, InvalidInputError):
                raise
            raise InvalidInputError("event", str(exc)) from None
        for verdict in verdicts:
            yield to_proto(verdict)
        if context is not None and not context.is_active():
            return
    if validator is None:
        raise InvalidInputError("request", "no request: send the record in one or more messages")
    for verdict in validator.close():
        yield to_proto(verdict)


# format -> (file extension, media type)
_EXPORTS = {rpb.EXPORT_FORMAT_UNSPECIFIED: ("mat", "text/plain; charset=utf-8"),
            rpb.EXPORT_FORMAT_MAT: ("mat", "text/plain; charset=utf-8"),
            rpb.EXPORT_FORMAT_SGF: ("sgf", "application/x-go-sgf")}


def export_match(referee: Referee, request: rpb.ExportMatchRequest) -> rpb.ExportMatchResponse:
    """ExportMatch: ``request.records`` checked against ``request.state`` (its signature as Act
    checks it, then its record digest), written as the file ``request.format`` names. A match in
    play gives its games so far, the last without a result.

    :raises InvalidInputError: an unknown format, a bad player name or header, a record that does
        not lead to the state's record digest (field ``records``), an entry the file cannot hold
        (``records[i]``), or (SGF) a play the rules core does not accept (``format``).
    :raises StateError: a state the signing mode refuses.
    """
    if request.format not in _EXPORTS:
        raise InvalidInputError("format", f"unknown export format {request.format}")
    players = (cr.player_name(request.white_player, "White", "white_player"),
               cr.player_name(request.black_player, "Black", "black_player"))
    headers = cr.extra_headers(request.headers)
    signed = request.state
    opened = referee.open_record(Signed(signed.state, signed.key_id, signed.signature), request.records, "records")
    state = opened.state
    match = cr.match_from_records(request.records, state, opened.preset, players, headers)
    extension, media_type = _EXPORTS[request.format]
    if extension == "sgf":
        try:
            content = write_sgf(match)
        except SgfWriteError as exc:
            raise InvalidInputError("format", f"this match cannot be written as SGF: {exc}") from None
    else:
        content = write_match(match)
    return rpb.ExportMatchResponse(content=content, file_name=cr.file_name(state.match_id, extension),
                                   media_type=media_type, games=len(match.games),
                                   match_over=state.phase is Phase.MATCH_OVER)


class RecordsService(EngineServicer, records_service_pb2_grpc.RecordsServiceServicer):
    """tavla.v1.RecordsService: ValidateMatch, and ExportMatch (on the engine's referee).

    :param engine: the engine (default: one built from the environment).
    """

    def ExportMatch(self, request: rpb.ExportMatchRequest, context: CallContext) -> rpb.ExportMatchResponse:
        """A referee match as a .mat or .sgf file; see :func:`export_match`."""
        return export_match(self.engine.referee, request)

    def ValidateMatch(self, request_iterator: Iterator[pb.ValidateMatchRequest],
                      context: CallContext) -> Iterator[pb.ValidateMatchResponse]:
        """Verdicts per game and per record; see :func:`validate_stream`."""
        try:
            yield from validate_stream(request_iterator, context)
        except InvalidInputError as exc:
            status = status_for(exc, context.locale())
            assert status is not None
            context.abort_with_status(rpc_status.to_status(status))
        except BufferFull as exc:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, f"{exc}; retry with backoff")
        except Exception:  # a bug: keep the traceback, tell the client nothing internal
            code = context.code()
            if code is not None and code != grpc.StatusCode.OK:
                raise  # aborted on purpose (e.g. the stream cap): its status stands
            if not context.is_active():  # the client cancelled or went away: nobody to answer
                log.info("ValidateMatch stream ended by the client")
                return
            log.exception("unexpected error in ValidateMatch")
            context.abort(grpc.StatusCode.INTERNAL, "internal error")
