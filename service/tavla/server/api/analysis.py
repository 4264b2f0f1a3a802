"""The tavla.v1.AnalysisService RPCs (docs/analysis.md): each converts its request, calls
:mod:`tavla.analysis` and converts the answer back.

The analysis runs in a child process of the servicer's
:class:`~tavla.analysis.isolation.EnginePool` (:mod:`tavla.analysis.jobs`), never in the serving
process: a call past its deadline has its child killed and answers DEADLINE_EXCEEDED, and the
rules RPCs and health never wait for it. The call's time left (the client's deadline or the
server's analysis budget, :func:`tavla.server.admission.deadline.remaining`) goes to the analysis,
which picks a shallower search rather than miss it.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Generator, Iterator
from typing import Any

import grpc

from tavla.analysis import isolation, jobs, player, review
from tavla.analysis.equity import Probabilities
from tavla.analysis.levels import Level
from tavla.core import InvalidInputError, MatchState, Position, Ruleset
from tavla.core.match.state import check_match
from tavla.referee.keys import Signed
from tavla.server.api.context import CallContext
from tavla.server.api import deadline
from tavla.server.api.engine import EngineServicer
from tavla.server.api.match import playable
from tavla.server.convert import common as convert
from tavla.server.convert import contract
from tavla.server.convert import game as cg
from tavla.server.convert import match as cm
from tavla.server.convert.enums import EnumMap
from tavla.v1 import analysis_service_pb2 as api
from tavla.v1 import analysis_service_pb2_grpc
from tavla.v1 import game_pb2

LEVELS = EnumMap(api.AnalysisLevel, Level)
_EVALUATORS = EnumMap(api.Evaluator, player.Evaluator)
_ADVICE = EnumMap(api.CubeAdvice, player.CubeAdvice)
_DECISIONS = EnumMap(api.DecisionKind, review.DecisionKind)
#: The most moves a SuggestMove answer lists (an early double has about 75 legal moves; a
#: variant's may have more): the bound ``max_moves`` declares.
MAX_MOVES = contract.declared(api.SuggestMoveRequest, "max_moves").max
#: The largest record AnalyzeMatch takes (a long .mat match is some 50 kB): ``mat``'s bound.
MAX_MAT_BYTES = contract.declared(api.AnalyzeMatchRequest, "mat").max_len


def level_from_proto(value: int, default: Level = Level.EXPERT) -> Level:
    """The level, ``default`` when unset.

    :raises InvalidInputError: an unknown number (field ``level``).
    """
    return default if value == api.ANALYSIS_LEVEL_UNSPECIFIED else LEVELS.from_proto(value, "level")


def _probs(p: Probabilities) -> api.Probabilities:
    return api.Probabilities(win=p.win, win_gammon=p.win_gammon, win_backgammon=p.win_backgammon,
                             lose_gammon=p.lose_gammon, lose_backgammon=p.lose_backgammon)


def _info(evaluator: player.Evaluator, level: Level, ply: int) -> api.AnalysisInfo:
    return api.AnalysisInfo(evaluator=_EVALUATORS.to_proto(evaluator), level=LEVELS.to_proto(level), ply=ply)


def _situation(request: api.SuggestMoveRequest | api.EvaluatePositionRequest | api.SuggestCubeActionRequest
               ) -> tuple[Ruleset, Position, MatchState]:
    rules = convert.ruleset_from_proto(request.ruleset)
    position = playable(request.position, rules.variant_class)  # read as the ruleset's variant
    if request.HasField("match"):
        match = check_match(cm.match_from_proto(request.match, rules=rules), rules)
    else:
        match = MatchState(length=0 if rules.money_play else 1)
    return rules, position, match


#: A test server's metadata (``--test-inputs``): ``hang`` makes the analysis child run
#: :func:`tavla.analysis.jobs.hang` instead of the call, to test that a deadline stops it.
TEST_ENGINE_METADATA = "x-tavla-test-engine"


def _deadline(context: CallContext) -> float:
    left = deadline.remaining(context)
    return time.monotonic() + left if math.isfinite(left) else math.inf


class AnalysisService(EngineServicer, analysis_service_pb2_grpc.AnalysisServiceServicer):
    """tavla.v1.AnalysisService: SuggestMove, EvaluatePosition, SuggestCubeAction, AnalyzeMatch,
    StreamAnalyzeMatch and SuggestAction, in the engine's analysis processes (SuggestAction on its referee).

    :param engine: the engine (default: one built from the environment).
    """

    def _isolated(self, context: CallContext, fn: Any, *args: Any) -> Any:
        """``fn(*args, deadline)`` in an analysis process, the call's deadline checked first.

        Its overrun is DEADLINE_EXCEEDED, its caller gone CANCELLED, its process dead UNAVAILABLE
        (a new one has been started: a retry is served).
        """
        fn = self._job(context, fn)
        with _engine_errors(context):
            return self.engine.analysis.call(fn, args, deadline=_deadline(context), active=context.is_active)

    def _isolated_stream(self, context: CallContext, fn: Any, *args: Any) -> Generator[Any, None, Any]:
        """:meth:`_isolated` yielding what ``fn`` reports as it comes; returns its result."""
        fn = self._job(context, fn)
        with _engine_errors(context):
            return (yield from self.engine.analysis.stream(fn, args, deadline=_deadline(context),
                                                           active=context.is_active))

    def _job(self, context: CallContext, fn: Any) -> Any:
        deadline.check_deadline(context)
        if self.engine.test_inputs and (TEST_ENGINE_METADATA, "hang") in tuple(context.metadata() or ()):
            return jobs.hang
        return fn

    def _judge(self, request: api.EvaluatePositionRequest | api.SuggestCubeActionRequest,
               context: CallContext, job: Any) -> tuple[Level, Any]:
        """The request's level and ``job(position, rules, match, level, deadline)`` of its
        situation, in an analysis process.

        :raises InvalidInputError: bad ruleset, position, match or level.
        :raises GameOver: the game is over.
        """
        rules, position, match = _situation(request)
        level = level_from_proto(request.level)
        return level, self._isolated(context, job, position, rules, match, level)

    def SuggestMove(self, request: api.SuggestMoveRequest, context: CallContext) -> api.SuggestMoveResponse:
        """The legal moves in the level's order (the first is what it plays), each with its
        equity and chances (R4-R14 for the moves).

        :raises InvalidInputError: bad ruleset, position, dice, match, level or max_moves.
        :raises GameOver: the game is over.
        """
        rules, position, match = _situation(request)
        dice = convert.dice_from_proto(request.dice)
        level = level_from_proto(request.level)
        if request.max_moves > MAX_MOVES:
            raise InvalidInputError("max_moves", f"is {request.max_moves}; at most {MAX_MOVES} (0: every move)")
        suggestion = self._isolated(context, jobs.suggest_move, position, dice, rules, match, level)
        moves = suggestion.moves[:request.max_moves] if request.max_moves else suggestion.moves
        return api.SuggestMoveResponse(
            moves=[api.AnalyzedMove(move=convert.move_to_proto(m.move), equity=m.equity, equity_loss=m.equity_loss,
                                    probabilities=_probs(m.probs), ply=m.ply) for m in moves],
            info=_info(suggestion.evaluator, level, suggestion.ply))

    def EvaluatePosition(self, request: api.EvaluatePositionRequest,
                         context: CallContext) -> api.EvaluatePositionResponse:
        """The side on roll's chances and equity before its roll.

        :raises InvalidInputError: bad ruleset, position, match or level.
        :raises GameOver: the game is over.
        """
        level, e = self._judge(request, context, jobs.evaluate_position)
        return api.EvaluatePositionResponse(probabilities=_probs(e.probs), cubeless_equity=e.cubeless_equity,
                                            equity=e.equity, info=_info(e.evaluator, level, e.ply))

    def SuggestCubeAction(self, request: api.SuggestCubeActionRequest,
                          context: CallContext) -> api.SuggestCubeActionResponse:
        """Double or not, take or drop (R19-R21), with the three equities.

        :raises InvalidInputError: bad ruleset, position, match or level.
        :raises GameOver: the game is over.
        """
        level, decision = self._judge(request, context, jobs.suggest_cube)
        c = decision.cube
        return api.SuggestCubeActionResponse(
            advice=_ADVICE.to_proto(decision.advice), double_available=decision.available,
            double_denied_reason="" if decision.denial is None else decision.denial.value,
            no_double_equity=c.no_double, double_take_equity=c.double_take, double_pass_equity=c.double_pass,
            should_double=c.should_double, should_take=c.should_take, should_beaver=c.beaver and c.should_take,
            probabilities=_probs(c.probs), info=_info(decision.evaluator, level, c.ply))

    def AnalyzeMatch(self, request: api.AnalyzeMatchRequest, context: CallContext) -> api.AnalyzeMatchResponse:
        """Each decision's error and each side's error rate and PR over a .mat or .sgf record.

        :raises InvalidInputError: no record, a record too large or not a .mat (field ``mat``,
            with the line), a play the rules refuse, a bad ruleset or level.
        """
        level, args = _review_args(request)
        return _review_to_proto(self._isolated(context, jobs.analyze, *args), level)

    def StreamAnalyzeMatch(self, request: api.StreamAnalyzeMatchRequest,
                           context: CallContext) -> Iterator[api.StreamAnalyzeMatchResponse]:
        """AnalyzeMatch's review with its progress: an ``AnalyzeMatchProgress`` per decision
        judged, in order (:class:`tavla.analysis.review.Progress`), then the whole
        ``AnalyzeMatchResponse``. The request is AnalyzeMatch's, field for field.

        :raises InvalidInputError: as AnalyzeMatch.
        """
        level, args = _review_args(api.AnalyzeMatchRequest.FromString(request.SerializeToString()))
        result = yield from _progress_messages(self._isolated_stream(context, jobs.analyze, *args))
        yield api.StreamAnalyzeMatchResponse(result=_review_to_proto(result, level))

    def SuggestAction(self, request: api.SuggestActionRequest,
                      context: CallContext) -> api.SuggestActionResponse:
        """The action the computer takes for the side to act: one ListActions lists.

        :raises StateError: a state refused by the signing mode.
        :raises InvalidInputError: a malformed state or level.
        :raises IllegalActionError: ``WRONG_PHASE``: the match is over, nothing is left to do.
        """
        level = level_from_proto(request.level)
        referee = self.engine.referee
        opened = referee.open(cg_signed(request.state))
        answer = referee.list_actions(opened)
        choice = self._isolated(context, jobs.suggest_action, answer.state, tuple(answer.legal), level)
        return api.SuggestActionResponse(action=cg.action_to_proto(choice.action),
                                         info=_info(choice.evaluator, level, choice.ply))


@contextlib.contextmanager
def _engine_errors(context: CallContext) -> Iterator[None]:
    """The analysis process's failures as the call's status (:meth:`AnalysisService._isolated`)."""
    try:
        yield
    except isolation.Overrun as exc:
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"{exc} (the client's deadline, or analysis_call_seconds)")
    except isolation.Cancelled:
        context.abort(grpc.StatusCode.CANCELLED, "the client cancelled the call")
    except isolation.EngineLost as exc:
        context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))


def _review_args(request: api.AnalyzeMatchRequest) -> tuple[Level, tuple[Any, ...]]:
    """The level and :func:`tavla.analysis.jobs.analyze`'s arguments of an AnalyzeMatch request.

    :raises InvalidInputError: no record, a record too large, a bad ruleset or level.
    """
    which = request.WhichOneof("record")
    if which is None:
        raise InvalidInputError("mat", "is required: the text of a .mat record (or `sgf`: a .sgf record)")
    record = request.mat if which == "mat" else request.sgf
    if len(record) > MAX_MAT_BYTES:
        raise InvalidInputError(which, f"is {len(record)} characters; at most {MAX_MAT_BYTES}")
    rules = convert.ruleset_from_proto(request.ruleset) if request.HasField("ruleset") else None
    level = level_from_proto(request.level, Level.ADVANCED)
    return level, (which, record, level, rules)


def _progress_messages(run: Generator[Any, None, Any]) -> Generator[api.StreamAnalyzeMatchResponse, None, Any]:
    """Each :class:`~tavla.analysis.review.Progress` ``run`` yields as a stream message; returns
    ``run``'s result."""
    try:
        while True:
            try:
                p = next(run)
            except StopIteration as done:
                return done.value
            yield api.StreamAnalyzeMatchResponse(progress=api.AnalyzeMatchProgress(
                decisions_done=p.decisions_done, decisions_total=p.decisions_total, game=p.game, games=p.games))
    finally:
        run.close()  # the stream closed early (the client went away): stop the analysis now


def _review_to_proto(result: review.Review, level: Level) -> api.AnalyzeMatchResponse:
    return api.AnalyzeMatchResponse(
        players=[api.PlayerReview(side=convert.side_to_proto(p.side), name=p.name, moves=p.moves,
                                  cube_decisions=p.cube_decisions, total_error=p.total_error,
                                  error_rate=p.error_rate, performance_rating=p.performance_rating,
                                  move_error_rate=p.move_error_rate, cube_error_rate=p.cube_error_rate)
                 for p in result.players],
        decisions=[api.ReviewedDecision(game=d.game, move_number=d.move_number, side=convert.side_to_proto(d.side),
                                        kind=_DECISIONS.to_proto(d.kind), position_id=d.position_id, dice=d.dice,
                                        played=d.played, best=d.best, error=d.error) for d in result.decisions],
        games=result.games, info=_info(result.evaluator, level, result.ply))


def cg_signed(msg: game_pb2.SignedGameState) -> Signed:
    """The referee's :class:`~tavla.referee.keys.Signed` of a request's state."""
    return Signed(msg.state, msg.key_id, msg.signature)
