"""The tavla.v1.RefereeService RPCs: NewMatch, ListActions, Act, each a thin wrapper of
:class:`tavla.referee.Referee` (which opens, acts and seals; the rules are the core's).

What this module adds: the engine's referee (:class:`tavla.server.api.engine.Engine`, built
once from its signer and dice key), the request fields converted, and the test inputs of a test server (``--test-inputs``, state mode
off): the request metadata ``x-tavla-test-dice`` (comma-separated dice, e.g. ``6,1``) and
``x-tavla-test-now-ms`` (docs/game-state.md). Any other server refuses them
(``CLIENT_DICE_REFUSED``, ``CLIENT_TIME_REFUSED``).
"""

from __future__ import annotations


from tavla.core import IllegalMoveError, InvalidInputError
from tavla.core.match.ruleset import preset_name
from tavla.server.api.context import CallContext
from tavla.server.convert import answers
from tavla.server.convert import common as convert
from tavla.server.convert import game as cg
from tavla.server.convert import match as cm
from tavla.server.convert.status import IllegalMove
from tavla.server.api.engine import EngineServicer
from tavla.referee.keys import Signed
from tavla.v1 import referee_service_pb2 as api
from tavla.v1 import referee_service_pb2_grpc
from tavla.v1 import game_pb2

TEST_DICE = "x-tavla-test-dice"
TEST_NOW = "x-tavla-test-now-ms"
_MAX_TEST_DICE = 16


def _signed(msg: game_pb2.SignedGameState) -> Signed:
    return Signed(msg.state, msg.key_id, msg.signature)


def _signed_out(signed: Signed) -> game_pb2.SignedGameState:
    return game_pb2.SignedGameState(state=signed.state, key_id=signed.key_id, signature=signed.signature)


def given_inputs(context: CallContext) -> tuple[list[int] | None, int | None]:
    """The dice and the time a test request gives in its metadata (``None`` when absent).

    :raises InvalidInputError: a value that is not comma-separated dice, or not a time in
        milliseconds (field: the metadata key).
    """
    dice = now = None
    for key, value in context.metadata() or ():
        if key == TEST_DICE:
            parts = [p.strip() for p in str(value).split(",")]
            if not 0 < len(parts) <= _MAX_TEST_DICE or not all(p.isdigit() for p in parts):
                raise InvalidInputError(TEST_DICE, f"{str(value)[:40]!r} is not 1-{_MAX_TEST_DICE} comma-separated "
                                                   "dice, e.g. 6,1")
            dice = [int(p) for p in parts]
        elif key == TEST_NOW:
            text = str(value).strip()
            if not text.isdigit() or len(text) > 19:
                raise InvalidInputError(TEST_NOW, f"{text[:40]!r} is not milliseconds since the Unix epoch")
            now = int(text)
    return dice, now


class RefereeService(EngineServicer, referee_service_pb2_grpc.RefereeServiceServicer):
    """tavla.v1.RefereeService: NewMatch, ListActions and Act over one signed game state, on the
    engine's referee (which honours the test metadata only on a test engine, state mode off).

    :param engine: the engine (default: one built from the environment).
    """

    def NewMatch(self, request: api.NewMatchRequest, context: CallContext) -> api.NewMatchResponse:
        """The first state of a match: phase START (R3, R18).

        :raises InvalidInputError: bad ruleset, length, clock settings or match id.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        preset = preset_name(request.ruleset.preset or convert.DEFAULT_PRESET)
        clock = cm.clock_settings_from_proto(request.clock, "clock") if request.HasField("clock") else None
        answer = self.engine.referee.new_match(rules, preset, request.length, clock, request.match_id)
        assert answer.signed is not None
        return api.NewMatchResponse(state=_signed_out(answer.signed), view=answer.view, actions=answer.actions)

    def ListActions(self, request: api.ListActionsRequest, context: CallContext) -> bytes:
        """The legal actions of the side to act (and a timeout claim once its time has run out),
        and the view: a serialized ``ListActionsResponse`` (:mod:`tavla.server.api.encoded`).

        :raises StateError: a state refused by the signing mode; test metadata without test inputs.
        :raises InvalidInputError: a malformed or inconsistent state.
        """
        referee = self.engine.referee
        _, now = given_inputs(context)
        answer = referee.list_actions(referee.open(_signed(request.state)), now_ms=now)
        return answers.list_actions_response(answer.legal, answer.view_bytes)

    def Act(self, request: api.ActRequest, context: CallContext) -> bytes:
        """The next state after an action, signed, its view, its legal actions and what happened:
        a serialized ``ActResponse`` (:mod:`tavla.server.api.encoded`).

        :raises StateError: a state refused by the signing mode; test metadata without test inputs.
        :raises InvalidInputError: a malformed state or action.
        :raises RuleError: the action is not legal now (moves, cube, actions; reason per rule).
        """
        referee = self.engine.referee
        dice, now = given_inputs(context)
        opened = referee.open(_signed(request.state))
        action = cg.action_from_proto(request.action)
        try:
            answer = referee.act(opened, action, dice=dice, now_ms=now)
        except IllegalMoveError as exc:  # name the step and the dice, as ApplyMove and ListLegalSteps do
            step = action.step
            played = "" if step is None else f"{_point(step[0], 'bar')}/{_point(step[1], 'off')}"
            raise IllegalMove(exc, played, opened.state.dice) from None
        assert answer.signed is not None
        assert answer.events_bytes is not None
        signed = answer.signed
        return answers.act_response(signed.state, signed.key_id, signed.signature, answer.view_bytes,
                                    answer.events_bytes, answer.legal)


def _point(number: int, edge: str) -> str:
    return edge if number in (0, 25) else str(number)
