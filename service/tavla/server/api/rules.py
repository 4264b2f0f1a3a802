"""The tavla.v1.RulesService servicer (the others: :mod:`~tavla.server.api.match`,
:mod:`~tavla.server.api.referee`, :mod:`~tavla.server.api.records`, :mod:`~tavla.server.api.analysis`;
all of them: :mod:`tavla.server.api.servicers`). Each method converts the request, calls the core,
converts back.

Stateless: every request carries the whole position, so any replica answers any call. Errors
are raised, never set on the context; :class:`tavla.server.pipeline.errors.ErrorInterceptor` turns them
into statuses. The only other uses of the context are deadline checks around move
generation (:func:`tavla.server.api.deadline.check_deadline`). The move-generation figures go to
the servicer's observer (:mod:`tavla.server.api.observer`; the server's metrics).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence


from tavla import core
from tavla.core import IllegalMoveError, Position
from tavla.core.rules import bearoff
from tavla.core.rules.notation import Leg
from tavla.server.api.context import CallContext
from tavla.server.convert import common as convert
from tavla.server.api import deadline
from tavla.server.api import observer as observers
from tavla.server.api.generator import plays
from tavla.server.api import render as render_rpc
from tavla.server.convert import wire
from tavla.server.convert import match as cm
from tavla.server.convert.status import GameOver, IllegalMove
from tavla.core.game import lowlevel
from tavla.server.api.engine import EngineServicer
from tavla.server.api.match import game_end, playable
from tavla.v1 import bearoff_pb2
from tavla.v1 import rules_service_pb2 as api
from tavla.v1 import rules_service_pb2_grpc
from tavla.v1 import types_pb2 as pb


# ListLegalMoves checks the call's deadline (deadline.check_deadline) before generating and after
# every this many moves encoded (~1 ms), so a call whose client has given up stops using the CPU.
_DEADLINE_CHECK_EVERY = 256


class RulesService(EngineServicer, rules_service_pb2_grpc.RulesServiceServicer):
    """tavla.v1.RulesService (``proto/tavla/v1/rules_service.proto``): positions, moves (R4-R14),
    scoring (R15-R17), bear-off, pictures and roll names (R26), on the engine's move generator.

    :param engine: the engine (:class:`~tavla.server.api.engine.Engine`: keys, referee, move
        generator, analysis processes, observer); default: one built from the environment.
    """

    def GetInitialPosition(
        self, request: api.GetInitialPositionRequest, context: CallContext
    ) -> api.GetInitialPositionResponse:
        """The starting position of the ruleset's variant (R2 for backgammon and tavla;
        nackgammon's and hypergammon's own); ``on_roll`` unset means white.

        :raises InvalidInputError: bad ruleset or unknown ``on_roll``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)  # the variant's start (R2 for backgammon)
        on_roll = convert.side_from_proto(request.on_roll, "on_roll", core.Side.WHITE)
        return api.GetInitialPositionResponse(
            position=convert.position_to_proto(Position.initial(on_roll, rules.variant_class)))

    def ListLegalMoves(self, request: api.ListLegalMovesRequest, context: CallContext) -> bytes:
        """Every legal move (R4-R14), one per resulting position; never empty.

        Returns the serialized ``ListLegalMovesResponse``, which gRPC and the HTTP port send as
        they are (:mod:`tavla.server.api.encoded`); :meth:`list_legal_moves` gives the message.

        :raises InvalidInputError: bad ruleset, position or dice.
        :raises GameOver: the game is over (a side has won, R15).
        """
        from_id = self.engine.generator.response_from_id
        if from_id is not None:  # the common request, answered in one compiled call
            begin = time.perf_counter()
            whole = _answer_from_id(from_id, request)
            if whole is not None:
                # Checked after the work rather than before, so that a bad request gets its own
                # error as on the full path; the largest answer costs about 1 ms.
                deadline.check_deadline(context)
                self.engine.observer.move_generation_seconds("ListLegalMoves", time.perf_counter() - begin)
                self.engine.observer.legal_moves_returned(whole[0])
                return whole[1]
        rules = convert.ruleset_from_proto(request.ruleset)
        position = playable(request.position, rules.variant_class)
        dice = convert.dice_from_proto(request.dice)
        view = convert.move_view_from_proto(request.view)
        deadline.check_deadline(context)
        with observers.move_generation(self.engine.observer, "ListLegalMoves"):
            # The compiled path, when installed: the largest answer takes about 1 ms, so it has no
            # deadline checks of its own.
            whole = self.engine.generator.legal_moves_response(position, dice, view)  # the whole response
            if whole is None:
                moves = core.legal_moves(position, dice)
                # Encoded straight to wire bytes (server/convert/wire.py), in chunks between deadline checks.
                chunks = []
                for start in range(0, len(moves), _DEADLINE_CHECK_EVERY):
                    if start:
                        deadline.check_deadline(context)
                    chunks.append(convert.moves_to_wire(moves[start:start + _DEADLINE_CHECK_EVERY], view))
                whole = len(moves), wire.legal_moves_response(b"".join(chunks), moves[0].dice_used)
        count, response = whole
        self.engine.observer.legal_moves_returned(count)
        return response

    def list_legal_moves(
        self, request: api.ListLegalMovesRequest, context: CallContext
    ) -> api.ListLegalMovesResponse:
        """:meth:`ListLegalMoves` as a message, for callers in this process.

        :raises InvalidInputError: bad ruleset, position or dice.
        :raises GameOver: the game is over (a side has won, R15).
        """
        response: api.ListLegalMovesResponse = api.ListLegalMovesResponse.FromString(
            self.ListLegalMoves(request, context))
        return response

    def ApplyMove(self, request: api.ApplyMoveRequest, context: CallContext) -> api.ApplyMoveResponse:
        """Play ``move`` and return the legal move (with the position after it) and, when it ends
        the game, the outcome.

        :raises InvalidInputError: bad ruleset, position, dice or move syntax.
        :raises GameOver: the game is over (a side has won, R15).
        :raises IllegalMove: the move breaks a rule (reason per R4-R14) or is ambiguous.
        :raises IllegalActionError: ``MATCH_OVER``: the move ends the game of a ``match`` already won
            (a ``match`` with a double pending: InvalidInputError, ``match.cube.offered_by``).
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        position = playable(request.position, rules.variant_class)
        dice = convert.dice_from_proto(request.dice)
        core.check_dice(dice)  # bad dice are malformed input even when the move is also bad
        deadline.check_deadline(context)
        with observers.move_generation(self.engine.observer, "ApplyMove"):
            move = _resolve(position, dice, request.move)
        # a move that bears off the last checker ends the game by the state machine's CONFIRM_MOVE
        ended = game_end(lowlevel.moving(rules, position, dice), move, request)
        response = api.ApplyMoveResponse(move=convert.move_to_proto(move))
        if ended is not None:
            response.outcome.CopyFrom(ended)
        return response

    def ScoreGame(self, request: api.ScoreGameRequest, context: CallContext) -> api.ScoreGameResponse:
        """The outcome of a finished game (R15-R17); no outcome if nobody has 15 off.

        :raises InvalidInputError: bad ruleset or position.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        position = convert.position_from_proto(request.position, rules.variant_class)
        if position.drawn:  # plakoto's two pinned mothers: no winner, nothing paid
            return api.ScoreGameResponse(outcome=cm.outcome_to_proto(core.GameOutcome(None, core.GameEnding.DRAW), 0))
        if position.winner is None:
            return api.ScoreGameResponse()
        result = core.score_game(position, rules)
        ending = core.GameEnding(position.variant.ending(position, result.winner))
        return api.ScoreGameResponse(outcome=cm.borne_off_outcome(result, request, rules, ending))


    def BearOff(self, request: api.BearOffRequest, context: CallContext) -> api.BearOffResponse:
        """Bear-off figures of both sides, race odds, and ranked moves with dice (R11-R14).

        :raises InvalidInputError: bad ruleset, position or dice.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        if not rules.variant_class.bar:  # its tables and odds are backgammon's board's
            raise core.InvalidInputError("ruleset.variant", f"BearOff covers backgammon's board; "
                                                            f"{rules.variant} is not supported")
        position = convert.position_from_proto(request.position, rules.variant_class)
        response = api.BearOffResponse(
            white=convert.bear_off_status_to_proto(bearoff.bear_off_info(position, core.Side.WHITE)),
            black=convert.bear_off_status_to_proto(bearoff.bear_off_info(position, core.Side.BLACK)),
        )
        if response.white.HasField("expected_rolls") and response.black.HasField("expected_rolls"):
            response.race.CopyFrom(convert.race_odds_to_proto(bearoff.race_odds(position, rules)))
        if request.dice:
            dice = convert.dice_from_proto(request.dice)
            core.check_dice(dice)
            if position.winner is not None:
                raise GameOver(position.winner, checkers=position.variant.checkers)
            if bearoff.can_bear_off(position, position.on_roll):
                ranked = bearoff.rank_bear_off_moves(position, dice)
                response.best_move.CopyFrom(convert.move_to_proto(ranked[0][0]))
            else:
                ranked = [(m, 0.0) for m in core.legal_moves(position, dice)]
            response.moves.extend(
                bearoff_pb2.RankedMove(move=convert.move_to_proto(m), expected_rolls=e) for m, e in ranked
            )
        return response

    def NameRoll(self, request: api.NameRollRequest,
                 context: CallContext) -> api.NameRollResponse:
        """The Turkish name of a roll (R26).

        :raises InvalidInputError: not two dice 1-6.
        """
        d1, d2 = core.check_dice(convert.dice_from_proto(request.dice))
        return api.NameRollResponse(name=cm.roll_name_to_proto(d1, d2))

    def RenderPosition(self, request: api.RenderPositionRequest,
                       context: CallContext) -> api.RenderPositionResponse:
        """An SVG and a text board of a position (docs/formats.md, "Pictures").

        :raises InvalidInputError: bad ruleset, position, match, dice or options.
        """
        return render_rpc.render_position(request)


# request.view and position.on_roll numbers -> the extension's; UNSPECIFIED as convert reads it
_FAST_VIEWS = {api.MOVE_VIEW_UNSPECIFIED: wire.FULL, api.MOVE_VIEW_FULL: wire.FULL, api.MOVE_VIEW_BASIC: wire.BASIC}
_FAST_SIDES = {pb.SIDE_UNSPECIFIED: 1, pb.SIDE_WHITE: 1, pb.SIDE_BLACK: 2}


def _answer_from_id(
    from_id: Callable[[str, int, int, int, int], tuple[int, bytes]], request: api.ListLegalMovesRequest
) -> tuple[int, bytes] | None:
    """(number of moves, serialized response) of ListLegalMoves for a request of the common
    shape -- a position given by ``position_id`` alone, two dice, a known view and side -- from
    :attr:`~tavla.server.api.generator.MoveGenerator.response_from_id`; ``None`` for any other request, or one it refuses (bad ID
    or dice, a finished game): the full path then answers or raises the engine's error.

    :raises InvalidInputError: a bad ruleset, validated first as on the full path (the ruleset
        does not change the moves, R4-R14).
    """
    msg = request.position
    dice = request.dice
    if len(dice) != 2 or msg.WhichOneof("checkers") != "position_id":
        return None
    if request.ruleset.variant or request.ruleset.preset not in ("", "international", "backgammon", "turkish", "tavla"):
        return None  # another variant may move otherwise: the full path decides
    on_roll = _FAST_SIDES.get(msg.on_roll)
    view = _FAST_VIEWS.get(request.view)
    if on_roll is None or view is None:
        return None
    if request.HasField("ruleset"):
        rules = convert.ruleset_from_proto(request.ruleset)
        if not plays(rules.variant_class):  # hypergammon: the Python path counts its 3 checkers
            return None
    try:
        return from_id(msg.position_id, on_roll, dice[0], dice[1], view)
    except ValueError:
        return None


def _resolve(position: Position, dice: Sequence[int], msg: pb.Move) -> core.Move:
    """The legal move ``msg`` names, by notation, by checker moves, or by both if they agree.

    A client may echo a move from ListLegalMoves, which carries both forms; then they must
    name the same move.

    :raises InvalidInputError: unreadable notation or checker moves, or the two disagree.
    :raises IllegalMove: no legal move fits.
    """
    by_notation = convert.notation_legs(msg.notation) if msg.notation else None
    by_steps = convert.checker_move_legs(msg.checker_moves) if msg.checker_moves else None
    if by_notation is None or by_steps is None:
        return _resolve_legs(position, dice, by_notation or by_steps or (), msg)
    move = _resolve_legs(position, dice, by_notation, msg)
    if _resolve_legs(position, dice, by_steps, msg).board_after != move.board_after:
        raise core.InvalidInputError("move", "notation and checker_moves describe different moves")
    return move


def _resolve_legs(position: Position, dice: Sequence[int], legs: Sequence[Leg], msg: pb.Move) -> core.Move:
    try:
        return core.resolve(position, dice, legs)
    except IllegalMoveError as exc:
        raise IllegalMove(exc, convert.move_text(msg), dice) from exc

