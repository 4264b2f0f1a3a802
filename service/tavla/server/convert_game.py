"""Conversions of game.proto's messages to and from :mod:`tavla.core.game` values, and nothing
else. Input conversions raise :class:`~tavla.core.InvalidInputError` naming the field (under
``state.`` for a GameState); the state's consistency is the core's (:func:`check_state`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla.core import CheckerMove, InvalidInputError, legal_moves
from tavla.core.game import Action, ActionKind, GameState, Phase, Record, Timing, Transition, side_to_act
from tavla.core.game.machine import turn
from tavla.core.ruleset import Ruleset
from tavla.server import convert
from tavla.server import convert_match as cm
from tavla.v1 import dice_pb2, game_pb2
from tavla.v1 import types_pb2 as pb

FORMAT_VERSION = 1
_PHASES: dict[game_pb2.GamePhase, Phase] = {
    game_pb2.GAME_PHASE_START: Phase.START,
    game_pb2.GAME_PHASE_ROLL_OR_DOUBLE: Phase.ROLL_OR_DOUBLE,
    game_pb2.GAME_PHASE_CUBE_DECISION: Phase.CUBE_DECISION,
    game_pb2.GAME_PHASE_MOVING: Phase.MOVING,
    game_pb2.GAME_PHASE_RESIGNATION_DECISION: Phase.RESIGNATION_DECISION,
    game_pb2.GAME_PHASE_GAME_OVER: Phase.GAME_OVER,
    game_pb2.GAME_PHASE_MATCH_OVER: Phase.MATCH_OVER,
}
_PHASES_OUT = {phase: number for number, phase in _PHASES.items()}
_KINDS: dict[game_pb2.ActionKind, ActionKind] = {
    game_pb2.ACTION_KIND_START_GAME: ActionKind.START_GAME,
    game_pb2.ACTION_KIND_ROLL: ActionKind.ROLL,
    game_pb2.ACTION_KIND_DOUBLE: ActionKind.DOUBLE,
    game_pb2.ACTION_KIND_TAKE: ActionKind.TAKE,
    game_pb2.ACTION_KIND_DROP: ActionKind.DROP,
    game_pb2.ACTION_KIND_BEAVER: ActionKind.BEAVER,
    game_pb2.ACTION_KIND_RACCOON: ActionKind.RACCOON,
    game_pb2.ACTION_KIND_STEP: ActionKind.STEP,
    game_pb2.ACTION_KIND_UNDO: ActionKind.UNDO,
    game_pb2.ACTION_KIND_CONFIRM_MOVE: ActionKind.CONFIRM_MOVE,
    game_pb2.ACTION_KIND_RESIGN: ActionKind.RESIGN,
    game_pb2.ACTION_KIND_ACCEPT_RESIGNATION: ActionKind.ACCEPT_RESIGNATION,
    game_pb2.ACTION_KIND_REJECT_RESIGNATION: ActionKind.REJECT_RESIGNATION,
    game_pb2.ACTION_KIND_CLAIM_TIMEOUT: ActionKind.CLAIM_TIMEOUT,
}
_KINDS_OUT = {kind: number for number, kind in _KINDS.items()}
_MAX_U32 = 2**32 - 1


MAX_SEQUENCE = 2**63  # far beyond any match: one state per action


_side_in = convert.optional_side_from_proto
_side_out = convert.optional_side_to_proto
_enum = convert.enum_from_proto


def _step(m: pb.CheckerMove) -> CheckerMove:
    return CheckerMove(m.from_point, m.to_point, m.die, m.hit)


# ---------------------------------------------------------------------------------------------
# Requests -> core


def action_from_proto(msg: game_pb2.GameAction, field: str = "action") -> Action:
    """A core :class:`Action`.

    :raises InvalidInputError: no or an unknown kind, an unknown side, a STEP without its step,
        a RESIGN without its kind.
    """
    if msg.kind == game_pb2.ACTION_KIND_UNSPECIFIED:
        raise InvalidInputError(f"{field}.kind", "is required")
    kind = _enum(_KINDS, msg.kind, f"{field}.kind")
    side = _side_in(msg.side, f"{field}.side")
    step = None
    if kind is ActionKind.STEP:
        if not msg.HasField("step"):
            raise InvalidInputError(f"{field}.step", "a step needs from_point and to_point")
        step = _step(msg.step)
    resign_kind = None
    if kind is ActionKind.RESIGN:
        if msg.resign_kind == pb.RESULT_KIND_UNSPECIFIED:
            raise InvalidInputError(f"{field}.resign_kind", "is required: single, gammon or backgammon")
        resign_kind = cm.kind_from_proto(msg.resign_kind, f"{field}.resign_kind")
    return Action(kind, side, step, resign_kind)


def _record_from_proto(msg: game_pb2.ActionRecord, field: str) -> Record:
    kind = _enum(_KINDS, msg.kind, f"{field}.kind")
    return Record(
        sequence=msg.sequence, side=_side_in(msg.side, f"{field}.side"), kind=kind, dice=tuple(msg.dice),
        roll_off=tuple((t.white_die, t.black_die) for t in msg.roll_off),
        steps=tuple(_step(m) for m in msg.checker_moves), notation=msg.notation, cube_value=msg.cube_value,
        resign_kind=(None if msg.resign_kind == pb.RESULT_KIND_UNSPECIFIED
                     else cm.kind_from_proto(msg.resign_kind, f"{field}.resign_kind")),
        elapsed_ms=msg.elapsed_ms, roll_tag=msg.roll_tag,
        outcome=cm.outcome_from_proto(msg.outcome, f"{field}.outcome") if msg.HasField("outcome") else None,
    )


def state_from_proto(msg: game_pb2.GameState) -> tuple[GameState, str]:
    """A core :class:`GameState` (not yet checked: :func:`check_state`) and its preset's name.

    :raises InvalidInputError: an unknown version or enum number, a bad ruleset, position or
        clock settings.
    """
    if msg.version != FORMAT_VERSION:
        raise InvalidInputError("state.version", f"{msg.version} is not {FORMAT_VERSION}")
    if msg.sequence >= MAX_SEQUENCE:  # the next state's number must fit its uint64 field
        raise InvalidInputError("state.sequence", f"is not below {MAX_SEQUENCE}")
    rules = convert.ruleset_from_proto(msg.ruleset)
    phase = _enum(_PHASES, msg.phase, "state.phase")
    resume: Phase | None = None
    if msg.resume_phase != game_pb2.GAME_PHASE_UNSPECIFIED:
        resume = _enum(_PHASES, msg.resume_phase, "state.resume_phase")
    timing = None
    if msg.HasField("clock"):
        settings = cm.clock_settings_from_proto(msg.clock.settings, "state.clock.settings")
        timing = Timing(settings, cm.clock_state_from_proto(msg.clock.state), msg.clock.turn_started_ms)
    outcome = cm.outcome_from_proto(msg.outcome, "state.outcome") if msg.HasField("outcome") else None
    state = GameState(
        ruleset=rules, match=cm.match_from_proto(msg.match, "state.match", rules=rules), phase=phase,
        position=convert.position_from_proto(msg.position), dice=tuple(msg.dice),
        steps=tuple(_step(m) for m in msg.steps[:5]),
        resignation=(cm.offer_from_proto(msg.resignation, "state.resignation")
                     if msg.HasField("resignation") else None),
        resume=resume, clock=timing, outcome=outcome, outcome_points=msg.outcome.points,
        record=tuple(_record_from_proto(r, f"state.record[{i}]") for i, r in enumerate(msg.record)),
        sequence=msg.sequence, match_id=msg.match_id, dice_commitment=msg.dice_commitment,
        revealed_seed=msg.revealed_seed,
    )
    return state, msg.ruleset.preset or convert.DEFAULT_PRESET


# ---------------------------------------------------------------------------------------------
# Core -> responses


def action_to_proto(action: Action) -> game_pb2.GameAction:
    """A ``GameAction`` message."""
    msg = game_pb2.GameAction(kind=_KINDS_OUT[action.kind], side=_side_out(action.side))
    if action.step is not None:
        msg.step.CopyFrom(cm.step_to_proto(action.step))
    if action.resign_kind is not None:
        msg.resign_kind = cm.kind_to_proto(action.resign_kind)
    return msg


def _roll_off(throws: Sequence[tuple[int, int]]) -> list[dice_pb2.RollOffThrow]:
    return [dice_pb2.RollOffThrow(white_die=w, black_die=b, name=cm.roll_name_to_proto(w, b)) for w, b in throws]


def _record_to_proto(r: Record, rules: Ruleset, state: GameState) -> game_pb2.ActionRecord:
    msg = game_pb2.ActionRecord(
        sequence=r.sequence, side=_side_out(r.side), kind=_KINDS_OUT[r.kind], dice=r.dice,
        roll_off=_roll_off(r.roll_off), notation=r.notation,
        checker_moves=[cm.step_to_proto(s) for s in r.steps], cube_value=r.cube_value,
        elapsed_ms=min(r.elapsed_ms, _MAX_U32), roll_tag=r.roll_tag,
    )
    if r.resign_kind is not None:
        msg.resign_kind = cm.kind_to_proto(r.resign_kind)
    if r.outcome is not None:
        msg.outcome.CopyFrom(cm.outcome_to_proto(r.outcome, state.outcome_points if r.outcome == state.outcome else 0))
    return msg


def state_to_proto(state: GameState, preset: str) -> game_pb2.GameState:
    """A ``GameState`` message with the derived output fields filled in."""
    msg = game_pb2.GameState(
        version=FORMAT_VERSION, match_id=state.match_id, sequence=state.sequence,
        ruleset=cm.ruleset_to_proto(state.ruleset, preset), match=cm.match_to_proto(state.match),
        phase=_PHASES_OUT[state.phase], side_to_act=_side_out(side_to_act(state)),
        position=convert.position_to_proto(state.position), dice=state.dice,
        steps=[cm.step_to_proto(s) for s in state.steps],
        resume_phase=_PHASES_OUT[state.resume] if state.resume else game_pb2.GAME_PHASE_UNSPECIFIED,
        record=[_record_to_proto(r, state.ruleset, state) for r in state.record],
        dice_commitment=state.dice_commitment, revealed_seed=state.revealed_seed,
    )
    if state.resignation is not None:
        msg.resignation.CopyFrom(cm.offer_to_proto(state.resignation))
    if state.clock is not None:
        msg.clock.CopyFrom(game_pb2.GameClock(settings=cm.clock_settings_to_proto(state.clock.settings),
                                              state=cm.clock_state_to_proto(state.clock.state),
                                              turn_started_ms=state.clock.turn_started_ms))
    if state.outcome is not None:
        msg.outcome.CopyFrom(cm.outcome_to_proto(state.outcome, state.outcome_points))
    if state.dice:
        now = turn(state)
        msg.current.CopyFrom(convert.position_to_proto(now.position))
        msg.dice_left.extend(now.dice_left)
        msg.move_complete = now.complete
        msg.no_legal_move = now.complete and not now.steps
        msg.forced_move = len(legal_moves(state.position, state.dice)) == 1
    else:
        msg.current.CopyFrom(msg.position)
    return msg


def events_to_proto(t: Transition) -> game_pb2.GameEvents:
    """A ``GameEvents`` message of what an action did."""
    msg = game_pb2.GameEvents(rolled=t.rolled, roll_off=_roll_off(t.roll_off), hit=t.hit,
                              game_over=t.game_over is not None, match_over=t.match_over,
                              no_legal_move=t.no_legal_move)
    if t.game_over is not None:
        msg.outcome.CopyFrom(cm.outcome_to_proto(t.game_over, t.points))
    if t.match_over and t.state.match.winner is not None:
        msg.match_winner = convert.side_to_proto(t.state.match.winner)
    if t.forfeit is not None:
        msg.forfeit.CopyFrom(cm.forfeit_to_proto(t.forfeit))
    return msg
