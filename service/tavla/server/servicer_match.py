"""The match-play RPCs of tavla.v1.EngineService (R3, R18-R26): each converts the request, calls
the core, converts back, exactly like :mod:`tavla.server.servicer`, which inherits them.

Stateless: the match, cube, clock and dice commitment travel in every request. The one piece of
configuration is the dice key that seals commitments (:mod:`tavla.core.dice_commit`), read from
``TAVLA_DICE_KEY`` when the servicer is made; without it each process has its own random key.
"""

from __future__ import annotations

import os

import grpc

from tavla import core
from tavla.core import IllegalMoveError, Position, dice
from tavla.core.cube import CubeAction, apply_cube_action, cube_options
from tavla.core.dice_commit import DiceKey
from tavla.core.match import update_match
from tavla.core.outcome import points_paid
from tavla.core.resign import answer, offer_value
from tavla.core.ruleset import PRESET_INFO, preset_name
from tavla.server import convert
from tavla.server import convert_match as cm
from tavla.server.errors import GameOver, IllegalMove
from tavla.v1 import engine_service_pb2 as api
from tavla.v1 import engine_service_pb2_grpc as api_grpc
from tavla.v1 import types_pb2 as pb


class DiceKeyed(api_grpc.EngineServiceServicer):
    """The dice key of the servicers that seal commitments or roll: the match-play RPCs and the
    referee (:class:`tavla.server.servicer_game.GamePlayServicer`)."""

    dice_key: DiceKey | None = None

    def _key(self) -> DiceKey:
        # a subclass that skips __init__ still gets a key (read once; racing readers agree or
        # each seal with its own random key, which only matters without TAVLA_DICE_KEY)
        if self.dice_key is None:
            self.dice_key = DiceKey.from_env(os.environ)
        return self.dice_key


class MatchPlayServicer(DiceKeyed):
    """Checker-by-checker play, start, dice, cube, resignation, match score, clocks, rulesets.

    :param dice_key: the key sealing dice commitments; by default read from ``TAVLA_DICE_KEY``
        (a random per-process key when unset), so a bad value stops the server at start.
    :raises ValueError: ``TAVLA_DICE_KEY`` is set but too short.
    """

    def __init__(self, dice_key: DiceKey | None = None) -> None:
        super().__init__()
        self.dice_key = dice_key if dice_key is not None else DiceKey.from_env(os.environ)

    def ListLegalSteps(self, request: api.ListLegalStepsRequest,
                       context: grpc.ServicerContext) -> api.ListLegalStepsResponse:
        """The legal next single-die steps after ``steps``, and whether the move is complete.

        :raises InvalidInputError: bad ruleset, position, dice or steps.
        :raises GameOver: a side has already borne off all 15.
        :raises IllegalMove: a step no legal move starts with (reason per R4-R14).
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        position = playable(request.position)
        roll = convert.dice_from_proto(request.dice)
        core.check_dice(roll)
        done = cm.steps_from_proto(request.steps)
        try:
            state = core.legal_steps(position, roll, done)
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
            if state.move.result.winner is not None:
                response.game_over = True
                response.outcome.CopyFrom(cm.borne_off_outcome(core.score_game(state.move.result, rules),
                                                               request, rules))
        return response

    def StartGame(self, request: api.StartGameRequest, context: grpc.ServicerContext) -> api.StartGameResponse:
        """Who starts and the first turn's dice (R3): given dice, a committed seed, or the server's.

        :raises InvalidInputError: bad ruleset, match or dice, or both given dice and a seed.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        # no match is a money session, which a ruleset without money play (turkish) refuses
        state = cm.checked_match_from_proto(request.match, rules)
        given = bool(request.roll_off or request.dice)
        response = api.StartGameResponse()
        if given and request.HasField("seed"):
            raise core.InvalidInputError("seed", "give dice rolled elsewhere or a seed, not both")
        if given:
            start = core.start_with_given_dice(rules, state, cm.roll_off_from_proto(request.roll_off),
                                               convert.dice_from_proto(request.dice))
        elif request.HasField("seed"):
            stream, proof = self._key().stream(request.seed.token, request.seed.client_seed)
            start = core.start_game(rules, state, stream)
            response.proof.CopyFrom(cm.proof_to_proto(proof))
        else:
            start = core.start_game(rules, state, dice.secure_dice())
        response.MergeFrom(cm.start_to_proto(start))
        response.position.CopyFrom(convert.position_to_proto(Position.initial(start.starter)))
        return response

    def CommitDice(self, request: api.CommitDiceRequest, context: grpc.ServicerContext) -> api.CommitDiceResponse:
        """A commitment to a fresh secret seed and the token that seals it with the client seed's
        hash and an expiry (R22, docs/dice.md).

        :raises InvalidInputError: ``client_seed_sha256`` is not 64 hex characters.
        """
        commitment = self._key().commit(request.client_seed_sha256)
        response = api.CommitDiceResponse(commitment=commitment.commitment, token=commitment.token,
                                          scheme=dice.SCHEME)
        response.expire_time.FromSeconds(commitment.expires)
        return response

    def RollDice(self, request: api.RollDiceRequest, context: grpc.ServicerContext) -> api.RollDiceResponse:
        """Two dice: from a commitment with its proof, else from the OS's CSPRNG (R22).

        :raises InvalidInputError: a bad token, client seed or position.
        """
        response = api.RollDiceResponse()
        if request.HasField("seed"):
            stream, proof = self._key().stream(request.seed.token, request.seed.client_seed)
            response.proof.CopyFrom(cm.proof_to_proto(proof))
        else:
            stream = dice.secure_dice()
        roll = dice.roll(stream)
        response.dice.extend(sorted(roll, reverse=True))  # one order for every roll: larger first
        response.name.CopyFrom(cm.roll_name_to_proto(*roll))
        if request.HasField("position"):
            position = playable(request.position)
            response.gele = bool(position.board[25]) and core.legal_moves(position, roll)[0].dice_used == 0
        return response

    def NameRoll(self, request: api.NameRollRequest, context: grpc.ServicerContext) -> api.NameRollResponse:
        """The Turkish name of a roll (R26).

        :raises InvalidInputError: not two dice 1-6.
        """
        d1, d2 = core.check_dice(convert.dice_from_proto(request.dice))
        return api.NameRollResponse(name=cm.roll_name_to_proto(d1, d2))

    def ListCubeActions(self, request: api.ListCubeActionsRequest,
                        context: grpc.ServicerContext) -> api.ListCubeActionsResponse:
        """The cube actions ``side`` may take now, and why it may not double (R19-R21).

        :raises InvalidInputError: bad ruleset or match, or no side.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        side = convert.side_from_proto(request.side, "side")
        options = cube_options(state, rules, side)
        return api.ListCubeActionsResponse(actions=[cm.cube_action_to_proto(a) for a in options.actions],
                                           double_denial=cm.denial_to_proto(options.denial))

    def ApplyCubeAction(self, request: api.ApplyCubeActionRequest,
                        context: grpc.ServicerContext) -> api.ApplyCubeActionResponse:
        """The match after a cube action; a drop ends the game (R19).

        :raises InvalidInputError: bad ruleset, match, side or action.
        :raises IllegalActionError: the action is not legal now.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        side = convert.side_from_proto(request.side, "side")
        action: CubeAction = cm.cube_action_from_proto(request.action)
        result = apply_cube_action(state, rules, side, action)
        response = api.ApplyCubeActionResponse(match=cm.match_to_proto(result.state))
        if result.outcome is not None:
            response.game_over = True
            response.outcome.CopyFrom(cm.outcome_to_proto(result.outcome,
                                                          points_paid(result.outcome, result.state, rules)))
        return response

    def OfferResignation(self, request: api.OfferResignationRequest,
                         context: grpc.ServicerContext) -> api.OfferResignationResponse:
        """What a resignation offer pays if accepted: kind x cube.

        :raises InvalidInputError: bad ruleset, match or offer.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        offer = cm.offer_from_proto(request.offer)
        points = offer_value(state, rules, offer)
        return api.OfferResignationResponse(outcome=cm.outcome_to_proto(offer.outcome(), points))

    def AnswerResignation(self, request: api.AnswerResignationRequest,
                          context: grpc.ServicerContext) -> api.AnswerResignationResponse:
        """Accepting ends the game with the offer's kind; rejecting lets play go on.

        :raises InvalidInputError: bad ruleset, match or offer.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.checked_match_from_proto(request.match, rules)
        offer = cm.offer_from_proto(request.offer)
        outcome = answer(state, rules, offer, request.accept)
        if outcome is None:
            return api.AnswerResignationResponse(game_over=False)
        return api.AnswerResignationResponse(
            game_over=True, outcome=cm.outcome_to_proto(outcome, points_paid(outcome, state, rules)))

    def UpdateMatch(self, request: api.UpdateMatchRequest,
                    context: grpc.ServicerContext) -> api.UpdateMatchResponse:
        """The match after a finished game (R18, R20, R21; R3 for the next starter).

        :raises InvalidInputError: bad ruleset, match or outcome.
        :raises IllegalActionError: ``MATCH_OVER``.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        state = cm.match_from_proto(request.match, rules=rules)
        outcome = cm.outcome_from_proto(request.outcome)
        update = update_match(state, rules, outcome)
        after = update.state
        return api.UpdateMatchResponse(
            match=cm.match_to_proto(after), outcome=cm.outcome_to_proto(outcome, update.points_paid),
            points_scored=update.points_scored, match_over=after.over,
            winner=pb.SIDE_UNSPECIFIED if after.winner is None else convert.side_to_proto(after.winner),
            crawford_game=after.crawford,
            next_starter=(pb.SIDE_UNSPECIFIED if update.next_starter is None
                          else convert.side_to_proto(update.next_starter)),
        )

    def AdvanceClock(self, request: api.AdvanceClockRequest,
                     context: grpc.ServicerContext) -> api.AdvanceClockResponse:
        """The clock after a move, a disconnect, a break or a new game, or a forfeit (R23-R25).

        :raises InvalidInputError: bad settings, state, side or event.
        :raises IllegalActionError: ``BREAK_ALREADY_TAKEN``.
        """
        settings = core.clock.check_settings(cm.clock_settings_from_proto(request.settings))
        state = (cm.clock_state_from_proto(request.state) if request.HasField("state")
                 else core.clock.initial_state(settings))
        side = convert.side_from_proto(request.side, "side")
        event = cm.clock_event_from_proto(request.event)
        result = core.clock.advance(settings, state, side, event, request.elapsed_ms)
        response = api.AdvanceClockResponse(
            state=cm.clock_state_to_proto(result.state), charged_ms=result.charged_ms,
            extensions_used=result.extensions_used, time_left_ms=result.time_left_ms,
        )
        if result.forfeit is not None:
            response.forfeit.CopyFrom(cm.forfeit_to_proto(result.forfeit))
        return response

    def GetRuleset(self, request: api.GetRulesetRequest, context: grpc.ServicerContext) -> api.GetRulesetResponse:
        """The ruleset with its preset's canonical name and every option resolved.

        :raises InvalidInputError: bad ruleset.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        name = preset_name(request.ruleset.preset or convert.DEFAULT_PRESET)
        return api.GetRulesetResponse(ruleset=cm.ruleset_to_proto(rules, name))

    def ListRulesets(self, request: api.ListRulesetsRequest,
                     context: grpc.ServicerContext) -> api.ListRulesetsResponse:
        """The named presets with their options."""
        return api.ListRulesetsResponse(presets=[cm.preset_to_proto(info) for info in PRESET_INFO])


def playable(msg: pb.Position) -> Position:
    """The request position, refused with :class:`GameOver` when the game has ended (R15)."""
    position = convert.position_from_proto(msg)
    if position.winner is not None:
        raise GameOver(position.winner)
    return position

