"""The tavla.v1.MatchService RPCs (R3, R18-R25): each converts the request, calls the core,
converts back, as :mod:`tavla.server.api.rules` does.

The low-level layer of the referee (docs/game-state.md): ListLegalSteps, RollDice's ``gele``,
ListCubeActions, ApplyCubeAction, OfferResignation, AnswerResignation and UpdateMatch build the
game state their request describes (:mod:`tavla.core.game.lowlevel`) and call the state
machine's function for the action (:mod:`tavla.core.game.machine`), as Act does, so no two RPCs
check a rule differently.

Stateless: the match, cube, clock and dice commitment travel in every request. The one piece of
configuration is the dice key that seals commitments (:mod:`tavla.core.match.dice_commit`), the
engine's (:class:`tavla.server.api.engine.Engine`).
"""

from __future__ import annotations

from dataclasses import replace


from tavla import core
from tavla.analysis.player import evaluator_for
from tavla.core import IllegalMoveError, Position
from tavla.core.match import dice
from tavla.core.match.cube import CubeAction
from tavla.core.game import Action, ActionKind, lowlevel
from tavla.core.game import machine as game
from tavla.core.game import GameState
from tavla.core.match.ruleset import PRESET_INFO, preset_name
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.moves import check_not_over
from tavla.core.rules.variant import Variant
from tavla.server.api.context import CallContext
from tavla.server.api.engine import EngineServicer
from tavla.server.convert import common as convert
from tavla.server.convert import match as cm
from tavla.server.convert.status import GameOver, IllegalMove
from tavla.v1 import match_pb2, match_service_pb2_grpc
from tavla.v1 import match_service_pb2 as api
from tavla.v1 import rules_service_pb2 as rules_api
from tavla.v1 import types_pb2 as pb


class MatchService(EngineServicer, match_service_pb2_grpc.MatchServiceServicer):
    """tavla.v1.MatchService: checker-by-checker play, start, dice, cube, resignation, match
    score, clocks, rulesets; commitments sealed with the engine's dice key.

    :param engine: the engine (default: one built from the environment).
    """

    def ListLegalSteps(self, request: api.ListLegalStepsRequest,
                       context: CallContext) -> api.ListLegalStepsResponse:
        """The legal next single-die steps after ``steps``, and whether the move is complete.

        :raises InvalidInputError: bad ruleset, position, dice or steps.
        :raises GameOver: the game is over (a side has won, R15).
        :raises IllegalMove: a step no legal move starts with (reason per R4-R14).
        :raises IllegalActionError: ``MATCH_OVER``: the steps end the game of a ``match`` already won.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        position = playable(request.position, rules.variant_class)
        roll = convert.dice_from_proto(request.dice)
        core.check_dice(roll)
        done = cm.steps_from_proto(request.steps)
        turn = lowlevel.moving(rules, position, roll, done)
        try:
            state = game.turn(turn)
        except IllegalMoveError as exc:
            text = " ".join(f"{s.from_point}/{s.to_point}" for s in done)
            raise IllegalMove(exc, text, roll) from exc
        response = api.ListLegalStepsResponse(
            next_steps=[cm.step_to_proto(s) for s in state.next_steps], complete=state.complete,
            position=convert.position_to_proto(state.position), dice_left=sorted(state.dice_left, reverse=True),
            steps=[cm.step_to_proto(s) for s in state.steps], gele=state.gele,
            combined_steps=[cm.combined_step_to_proto(c) for c in state.combined], forced=state.forced,
            forced_steps=[cm.step_to_proto(s) for s in state.forced_steps],
        )
        if state.move is not None:
            response.move.CopyFrom(convert.move_to_proto(state.move))
            ended = game_end(turn, state.move, request)
            if ended is not None:
                response.outcome.CopyFrom(ended)
        return response

    def StartGame(self, request: api.StartGameRequest, context: CallContext) -> api.StartGameResponse:
        """Who starts and the first turn's dice (R3): dice rolled elsewhere (``given``), a
        committed seed (``seed``), or, with neither, the server's (R22).

        :raises InvalidInputError: bad ruleset or match; given throws or dice that do not fit the
            start rule (``given.roll_off``, ``given.dice``); a bad token or client seed.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        # no match is a money session, which a ruleset without money play (turkish) refuses
        state = cm.checked_match_from_proto(request.match, rules)
        response = api.StartGameResponse()
        source = request.WhichOneof("dice_source")
        if source == "given":
            with convert.under("given"):
                start = core.start_with_given_dice(rules, state, cm.roll_off_from_proto(request.given.roll_off),
                                                   convert.dice_from_proto(request.given.dice))
        elif source == "seed":
            stream, proof = self.engine.dice_key.stream(request.seed.token, request.seed.client_seed)
            start = core.start_game(rules, state, stream)
            response.proof.CopyFrom(cm.proof_to_proto(proof))
        else:
            start = core.start_game(rules, state, dice.secure_dice())
        response.MergeFrom(cm.start_to_proto(start))
        response.position.CopyFrom(convert.position_to_proto(Position.initial(start.starter, rules.variant_class)))
        return response

    def CommitDice(self, request: api.CommitDiceRequest, context: CallContext) -> api.CommitDiceResponse:
        """A commitment to a fresh secret seed and the token that seals it with the client seed's
        hash and an expiry (R22, docs/dice.md).

        :raises InvalidInputError: ``client_seed_sha256`` is not 64 hex characters.
        """
        commitment = self.engine.dice_key.commit(request.client_seed_sha256)
        response = api.CommitDiceResponse(commitment=commitment.commitment, token=commitment.token,
                                          scheme=dice.SCHEME)
        response.expire_time.FromSeconds(commitment.expires)
        return response

    def RollDice(self, request: api.RollDiceRequest, context: CallContext) -> api.RollDiceResponse:
        """Two dice: from a commitment with its proof, else from the OS's CSPRNG (R22); with a
        position, whether the roll is ``gele`` for it (R8) under the request's ruleset and variant.

        :raises InvalidInputError: a bad token, client seed, ruleset or position (read as the
            ruleset's variant).
        :raises GameOver: the position's game has ended.
        """
        response = api.RollDiceResponse()
        if request.HasField("seed"):
            stream, proof = self.engine.dice_key.stream(request.seed.token, request.seed.client_seed)
            response.proof.CopyFrom(cm.proof_to_proto(proof))
        else:
            stream = dice.secure_dice()
        roll = dice.roll(stream)
        response.dice.extend(sorted(roll, reverse=True))  # one order for every roll: larger first
        response.name.CopyFrom(cm.roll_name_to_proto(*roll))
        if request.HasField("position"):
            rules = convert.ruleset_from_proto(request.ruleset)  # unset: the default preset
            position = playable(request.position, rules.variant_class)
            response.gele = game.turn(lowlevel.moving(rules, position, roll)).gele
        return response

    def ListCubeActions(self, request: api.ListCubeActionsRequest,
                        context: CallContext) -> api.ListCubeActionsResponse:
        """The cube actions ``side`` may take now, and why it may not double (R19-R21).

        :raises InvalidInputError: bad ruleset or match, or no side.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        side = convert.side_from_proto(request.side, "side")
        options = game.cube_choices(lowlevel.deciding(rules, state, side), side)
        return api.ListCubeActionsResponse(actions=[cm.cube_action_to_proto(a) for a in options.actions],
                                           double_denial=cm.denial_to_proto(options.denial))

    def ApplyCubeAction(self, request: api.ApplyCubeActionRequest,
                        context: CallContext) -> api.ApplyCubeActionResponse:
        """The match after a cube action; a drop ends the game (R19).

        :raises InvalidInputError: bad ruleset, match, side or action.
        :raises IllegalActionError: the action is not legal now.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        side = convert.side_from_proto(request.side, "side")
        action: CubeAction = cm.cube_action_from_proto(request.action)
        result = game.cube(lowlevel.deciding(rules, state, side), Action(_CUBE_KINDS[action], side))
        if result.game_over is None:
            return api.ApplyCubeActionResponse(match=cm.match_to_proto(result.state.match))
        assert result.ended_in is not None  # a drop: the match it ended, before UpdateMatch scores it
        return api.ApplyCubeActionResponse(match=cm.match_to_proto(result.ended_in),
                                           outcome=cm.outcome_to_proto(result.game_over, result.points))

    def OfferResignation(self, request: api.OfferResignationRequest,
                         context: CallContext) -> api.OfferResignationResponse:
        """What a resignation offer pays if accepted: kind x cube.

        :raises InvalidInputError: bad ruleset, match or offer.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        offer = cm.offer_from_proto(request.offer)
        if offer.kind not in rules.variant_class.kinds:  # portes: no backgammon to resign
            raise core.InvalidInputError("offer.kind", f"{rules.variant} has no {offer.kind.value}")
        offered = game.resign(lowlevel.deciding(rules, state, offer.side),
                              Action(ActionKind.RESIGN, offer.side, resign_kind=offer.kind))
        # what it pays is what accepting it would pay
        accepted = game.answer_resignation(offered.state, Action(ActionKind.ACCEPT_RESIGNATION, offer.side.other))
        assert accepted.game_over is not None
        return api.OfferResignationResponse(outcome=cm.outcome_to_proto(accepted.game_over, accepted.points))

    def AnswerResignation(self, request: api.AnswerResignationRequest,
                          context: CallContext) -> api.AnswerResignationResponse:
        """Accepting ends the game with the offer's kind; rejecting lets play go on.

        :raises InvalidInputError: bad ruleset, match or offer.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        offer = cm.offer_from_proto(request.offer)
        kind = ActionKind.ACCEPT_RESIGNATION if request.accept else ActionKind.REJECT_RESIGNATION
        result = game.answer_resignation(lowlevel.answering(rules, state, offer), Action(kind, offer.side.other))
        if result.game_over is None:
            return api.AnswerResignationResponse()
        return api.AnswerResignationResponse(outcome=cm.outcome_to_proto(result.game_over, result.points))

    def UpdateMatch(self, request: api.UpdateMatchRequest,
                    context: CallContext) -> api.UpdateMatchResponse:
        """The match after a finished game (R18, R20, R21; R3 for the next starter).

        :raises InvalidInputError: bad ruleset, match or outcome.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.match_from_proto(request.match, rules=rules)
        outcome = cm.outcome_from_proto(request.outcome)
        # a draw (plakoto) has no winner: the state it ends is either side's to roll
        update = game.end_game(lowlevel.deciding(rules, state, outcome.winner or core.Side.WHITE), outcome).scored
        assert update is not None
        after = update.state
        return api.UpdateMatchResponse(
            match=cm.match_to_proto(after), outcome=cm.outcome_to_proto(outcome, update.points_paid),
            points_scored=update.points_scored,
            next_starter=(pb.SIDE_UNSPECIFIED if update.next_starter is None
                          else convert.side_to_proto(update.next_starter)),
        )

    def AdvanceClock(self, request: api.AdvanceClockRequest,
                     context: CallContext) -> api.AdvanceClockResponse:
        """The clock after a move, a disconnect, a break or a new game, or a forfeit (R23-R25).

        :raises InvalidInputError: bad settings, state, side or event.
        :raises IllegalActionError: ``BREAK_ALREADY_TAKEN``.
        """
        settings = cm.clock_settings_from_proto(request.settings)
        state = (cm.clock_state_from_proto(request.state) if request.HasField("state")
                 else core.clock.initial_state(settings))
        side = convert.side_from_proto(request.side, "side")
        event = cm.clock_event_from_proto(request.event)
        elapsed = cm.duration_to_ms(request.elapsed, "elapsed") if request.HasField("elapsed") else 0
        with cm.api_clock_fields():
            result = core.clock.advance(settings, state, side, event, elapsed)
        response = api.AdvanceClockResponse(
            state=cm.clock_state_to_proto(result.state), charged=cm.ms_to_duration(result.charged_ms),
            extensions_used=result.extensions_used, time_left=cm.ms_to_duration(result.time_left_ms),
        )
        if result.forfeit is not None:
            response.forfeit.CopyFrom(cm.forfeit_to_proto(result.forfeit))
        return response

    def ResolveRuleset(self, request: api.ResolveRulesetRequest,
                       context: CallContext) -> api.ResolveRulesetResponse:
        """The ruleset with its preset's canonical name and every option resolved.

        :raises InvalidInputError: bad ruleset.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        name = preset_name(request.ruleset.preset or convert.DEFAULT_PRESET)
        return api.ResolveRulesetResponse(ruleset=cm.ruleset_to_proto(rules, name))

    def ListRulesets(self, request: api.ListRulesetsRequest,
                     context: CallContext) -> api.ListRulesetsResponse:
        """The named presets with their options and their variants' facts, what AnalysisService
        evaluates each with included (:func:`tavla.analysis.player.evaluator_for`)."""
        return api.ListRulesetsResponse(presets=[
            cm.preset_to_proto(info, evaluator_for(info.ruleset.variant_class).value) for info in PRESET_INFO])


_CUBE_KINDS = {CubeAction.DOUBLE: ActionKind.DOUBLE, CubeAction.TAKE: ActionKind.TAKE,
               CubeAction.DROP: ActionKind.DROP, CubeAction.BEAVER: ActionKind.BEAVER,
               CubeAction.RACCOON: ActionKind.RACCOON}


def game_end(turn: GameState, move: core.Move,
             request: rules_api.ApplyMoveRequest | api.ListLegalStepsRequest) -> match_pb2.GameOutcome | None:
    """The ``GameOutcome`` when ``move``, a whole legal move of the MOVING state ``turn``, bears
    off the last checker (R15-R17), priced with the request's optional ``match`` (else money
    play, cube 1) by the state machine's CONFIRM_MOVE; ``None`` when the game goes on (the
    request's match is then not looked at, and the move not checked again: ``move`` is one of
    ``legal_moves``').

    :raises InvalidInputError: the match does not fit the ruleset (field ``match``), or a double
        awaits its answer in it (``match.cube.offered_by``): UpdateMatch would refuse the game's end.
    :raises IllegalActionError: ``MATCH_OVER`` (the request's match is already won).
    """
    if move.result.winner is None:
        return None
    if request.HasField("match"):
        match = cm.checked_match_from_proto(request.match, turn.ruleset)
        if match.cube.offered_by is not None:  # as check_state: a side moves only once it is answered
            raise core.InvalidInputError("match.cube.offered_by", "a double awaits its answer: take or drop "
                                                                  "before the move that ends the game (R19)")
        turn = replace(turn, match=match)
    done = game.confirm_move(replace(turn, steps=move.steps), Action(ActionKind.CONFIRM_MOVE, turn.position.on_roll))
    if done.game_over is None:
        return None
    return cm.outcome_to_proto(done.game_over, done.points)


def playable(msg: pb.Position, variant: type[Variant] = Backgammon) -> Position:
    """The request position of ``variant``, refused with :class:`GameOver` when the game has
    ended (R15; plakoto's mother rule and draw)."""
    position = convert.position_from_proto(msg, variant)
    try:
        check_not_over(position)
    except core.GameOverError as exc:
        raise GameOver.of(exc) from None
    return position

