"""The tavla.v1.RefereeService RPCs: NewMatch, ListActions, Act. Each opens the signed
state, converts, calls :mod:`tavla.core.game`, converts back and signs; the rules are the core's.

What the server adds, and only in this module: the signature (:mod:`tavla.server.state_keys`),
the dice (derived from the dice key, the match and the exact state bytes, so a state always rolls
the same dice; docs/security.md) and the time (the server's clock, never the client's, outside
mode off).
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace

import grpc
from google.protobuf.message import DecodeError

from tavla.core import IllegalMoveError, InvalidInputError, dice
from tavla.core.dice_commit import commitment_of
from tavla.core.game import GameState, Transition, act, check_state, list_actions, new_match
from tavla.core.ruleset import preset_name
from tavla.server import convert
from tavla.server import convert_game as cg
from tavla.server import convert_match as cm
from tavla.server.errors import IllegalMove
from tavla.server.servicer_match import DiceKeyed
from tavla.server.state_keys import MODE_ENV, Signed, StateMode, StateSigner, parse_mode, roll_tag
from tavla.v1 import referee_service_pb2 as api
from tavla.v1 import game_pb2

_MATCH_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
GIVEN = "given"  # the roll tag of dice a client gave (mode off)


def now_ms() -> int:
    """The server's clock: milliseconds since the Unix epoch (wall time, so every replica
    measures a turn the same way; keep replicas' clocks in sync with NTP)."""
    return time.time_ns() // 1_000_000


def _given(values: Sequence[int]) -> Iterator[int]:
    for value in dice.given_dice(values, "dice"):
        yield value
    raise InvalidInputError("dice", f"{len(values)} dice are not enough for this action")


class GamePlayServicer(DiceKeyed):
    """NewMatch, ListActions and Act over one signed game state.

    :param signer: signs and checks states; by default mode ``TAVLA_STATE_MODE`` (off unless
        set) with keys from ``TAVLA_STATE_KEYS``.
    """

    signer: StateSigner | None = None

    def _signer(self) -> StateSigner:
        if self.signer is None:
            mode = parse_mode(os.environ.get(MODE_ENV, ""))
            self.signer = StateSigner.from_settings(mode, os.environ)
        return self.signer

    # -- states in and out -------------------------------------------------------------------

    def _open(self, msg: game_pb2.SignedGameState) -> tuple[GameState, str, bytes]:
        """The checked core state, its preset name and its exact bytes.

        :raises StateError: the signature does not check out as the mode asks.
        :raises InvalidInputError: bytes that are not a GameState, or an inconsistent state.
        """
        raw = self._signer().open(Signed(msg.state, msg.key_id, msg.signature))
        if not raw:
            raise InvalidInputError("state.state", "is required: the state NewMatch or Act returned")
        try:
            decoded = game_pb2.GameState.FromString(raw)
        except (DecodeError, ValueError, RecursionError) as exc:
            raise InvalidInputError("state.state", f"is not a GameState: {exc}") from None
        state, preset = cg.state_from_proto(decoded)
        if self._signer().mode is not StateMode.OFF and msg.signature:
            return state, preset, raw  # verified: this service made it, and checked it then
        return check_state(state), preset, raw

    def _seal(self, state: GameState, preset: str) -> tuple[game_pb2.SignedGameState, game_pb2.GameState]:
        msg = cg.state_to_proto(state, preset)
        signed = self._signer().seal(msg.SerializeToString(deterministic=True))
        return (game_pb2.SignedGameState(state=signed.state, key_id=signed.key_id, signature=signed.signature),
                msg)

    def _commitment(self, match_id: str, game: int) -> str:
        return commitment_of(self._key().game_secret(match_id, game))

    # -- the RPCs ----------------------------------------------------------------------------

    def NewMatch(self, request: api.NewMatchRequest, context: grpc.ServicerContext) -> api.NewMatchResponse:
        """The first state of a match: phase START (R3, R18).

        :raises InvalidInputError: bad ruleset, length, clock settings or match id.
        """
        rules = convert.ruleset_from_proto(request.ruleset)
        preset = preset_name(request.ruleset.preset or convert.DEFAULT_PRESET)
        clock = (cm.clock_settings_from_proto(request.clock, "clock") if request.HasField("clock") else None)
        match_id = request.match_id
        if match_id and not _MATCH_ID.match(match_id):
            raise InvalidInputError("match_id", "is not 1-64 of letters, digits, '.', '_', ':' or '-'")
        if not match_id:
            match_id = secrets.token_hex(16)
        elif self._signer().mode is not StateMode.OFF:
            # the dice of a match depend on its id: a reused id must not replay another match's dice
            match_id = f"{match_id}~{secrets.token_hex(8)}"
        state = new_match(rules, request.length, clock, match_id=match_id, now_ms=now_ms())
        state = replace(state, dice_commitment=self._commitment(match_id, 0))
        signed, game = self._seal(state, preset)
        return api.NewMatchResponse(state=signed, game=game)

    def ListActions(self, request: api.ListActionsRequest, context: grpc.ServicerContext) -> api.ListActionsResponse:
        """The legal actions of the side to act (and a timeout claim once its time has run out).

        :raises StateError: a state refused by the signing mode.
        :raises InvalidInputError: a malformed or inconsistent state.
        """
        state, preset, _ = self._open(request.state)
        actions = list_actions(state, now_ms())
        return api.ListActionsResponse(actions=[cg.action_to_proto(a) for a in actions],
                                       game=cg.state_to_proto(state, preset))

    def Act(self, request: api.ActRequest, context: grpc.ServicerContext) -> api.ActResponse:
        """The next state after an action, signed, and what happened.

        :raises StateError: a state refused by the signing mode, or dice or a time given
            outside mode off.
        :raises InvalidInputError: a malformed state or action.
        :raises RuleError: the action is not legal now (moves, cube, actions; reason per rule).
        """
        signer = self._signer()
        signer.refuse_client_input(bool(request.dice), request.HasField("now_ms"))
        state, preset, raw = self._open(request.state)
        action = cg.action_from_proto(request.action)
        now = request.now_ms if request.HasField("now_ms") else now_ms()
        game = state.match.games_played
        secret = self._key().game_secret(state.match_id, game)
        if request.dice:
            tag, source = GIVEN, _given(tuple(request.dice))
        else:
            tag = roll_tag(raw)
            source = dice.seeded_dice(secret, tag)
        try:
            result = act(state, action, dice=source, now_ms=now, roll_tag=tag)
        except IllegalMoveError as exc:  # name the step and the dice, as ApplyMove and ListLegalSteps do
            step = action.step
            played = "" if step is None else f"{_point(step[0], 'bar')}/{_point(step[1], 'off')}"
            raise IllegalMove(exc, played, state.dice) from None
        after = self._reveal(result, secret)
        signed, msg = self._seal(after, preset)
        return api.ActResponse(state=signed, game=msg, events=cg.events_to_proto(replace(result, state=after)))

    def _reveal(self, result: Transition, secret: bytes) -> GameState:
        """At a game's end: reveal its dice secret and commit to the next game's."""
        after = result.state
        if result.game_over is None:
            return after
        following = "" if after.match.over else self._commitment(after.match_id, after.match.games_played)
        return replace(after, revealed_seed=secret.hex(), dice_commitment=following)


def _point(number: int, edge: str) -> str:
    return edge if number in (0, 25) else str(number)
