"""Oracles for the referee's hand-written wire bytes (:mod:`tavla.server.convert.game`): the same
``GameState``, ``GameView``, ``GameEvents`` and ``ActionRecord`` built as protobuf messages, for the library to
serialize, and a record entry read back from its message. The server never builds these messages
(it writes their bytes field by field); the tests compare the two. Not a test module."""

from __future__ import annotations

from collections.abc import Sequence

from tavla.core.game import GameState, Record, Transition, side_to_act
from tavla.core.rules.steps import StepState
from tavla.server.convert import common as convert
from tavla.server.convert import game as cg
from tavla.server.convert import match as cm
from tavla.server.convert.enums import ACTION_KINDS as _KINDS
from tavla.server.convert.enums import PHASES as _PHASES
from tavla.v1 import game_pb2
from tavla.v1 import types_pb2 as pb

_side_in = convert.optional_side_from_proto
_side_out = convert.optional_side_to_proto


def state_to_proto(state: GameState, preset: str) -> game_pb2.GameState:
    """The state's GameState message (format version 2): only what the rules need to go on,
    nothing derived: what :func:`tavla.server.convert.game.state_to_bytes` writes."""
    msg = game_pb2.GameState(
        version=cg.FORMAT_VERSION, match_id=state.match_id, sequence=state.sequence,
        ruleset=pb.Ruleset.FromString(cg._ruleset_out(state.ruleset, preset)), match=cg._match_out(state.match),
        phase=_PHASES.to_proto(state.phase), position=cg.position_key(state.position),
        on_roll=convert.side_to_proto(state.position.on_roll), dice=state.dice, steps=cg._steps_out(state.steps),
        resume_phase=_PHASES.to_proto(state.resume) if state.resume else game_pb2.GAME_PHASE_UNSPECIFIED,
        turn=state.turn, dice_commitment=state.dice_commitment, record_digest=state.record_digest,
    )
    _offer_clock_outcome(msg, state)
    return msg


def view_to_proto(state: GameState, preset: str, analysis: StepState | None, revealed_seed: bytes = b"") -> game_pb2.GameView:
    """The ``GameView`` of a state: what it shows, derived from it (what
    :func:`tavla.server.convert.game.view_bytes` writes). Its ruleset and match are merged in
    from the message bytes the server keeps per value; its positions are the codec's messages
    (tavla.server.convert.wire, checked against the core elsewhere).

    :param analysis: the MOVING state's turn analysis (:func:`tavla.core.game.machine.turn`);
        ``None`` outside phase MOVING (a resignation offered while moving shows the dice only).
    :param revealed_seed: at a game's end, the secret of the game just finished.
    """
    position = state.position
    current = analysis.position if analysis is not None and analysis.steps else position
    msg = game_pb2.GameView(
        match_id=state.match_id, sequence=state.sequence,
        phase=_PHASES.to_proto(state.phase), side_to_act=_side_out(side_to_act(state)),
        dice=state.dice, steps=cg._steps_out(state.steps),
        resume_phase=_PHASES.to_proto(state.resume) if state.resume else game_pb2.GAME_PHASE_UNSPECIFIED,
        turn=state.turn, dice_commitment=state.dice_commitment.hex(), revealed_seed=revealed_seed.hex(),
        record_digest=state.record_digest.hex(),
    )
    msg.ruleset.MergeFromString(cg._ruleset_out(state.ruleset, preset))
    msg.match.MergeFromString(cg._match_view_bytes(state.match))
    msg.position.CopyFrom(convert.position_to_proto(position))
    msg.current.CopyFrom(convert.position_to_proto(current))
    _offer_clock_outcome(msg, state)
    if analysis is not None:
        msg.dice_left.extend(analysis.dice_left)
        msg.move_complete = analysis.complete
        msg.no_legal_move = analysis.complete and not analysis.steps
        msg.forced_move = analysis.forced
        msg.forced_steps.extend(cg._steps_out(analysis.forced_steps))
    else:
        msg.dice_left.extend(state.dice)
    return msg


def _offer_clock_outcome(msg: game_pb2.GameState | game_pb2.GameView, state: GameState) -> None:
    # the three message fields the signed state and its view carry alike
    if state.resignation is not None:
        msg.resignation.CopyFrom(cm.offer_to_proto(state.resignation))
    if state.clock is not None:
        msg.clock.CopyFrom(cg._clock_out(state.clock))
    if state.outcome is not None:
        msg.outcome.CopyFrom(cm.outcome_to_proto(state.outcome, state.outcome_points))


def events_to_proto(t: Transition, records: Sequence[game_pb2.ActionRecord] = ()) -> game_pb2.GameEvents:
    """A ``GameEvents`` message of what an action did, with its record entries: ``outcome`` set
    exactly when the action ended the game (what :func:`tavla.server.convert.game.events_bytes`
    writes)."""
    msg = game_pb2.GameEvents(rolled=t.rolled, roll_off=cg._roll_off(t.roll_off), hit=t.hit,
                              no_legal_move=t.no_legal_move, records=records)
    if t.game_over is not None:
        msg.outcome.CopyFrom(cm.outcome_to_proto(t.game_over, t.points))
    if t.forfeit is not None:
        msg.forfeit.CopyFrom(cm.forfeit_to_proto(t.forfeit))
    return msg


def record_to_proto(r: Record, points: int = 0) -> game_pb2.ActionRecord:
    """An ``ActionRecord`` message, what :func:`tavla.server.convert.game.record_bytes` writes;
    ``points``: what the game paid, when the entry ended it."""
    msg = game_pb2.ActionRecord(
        sequence=r.sequence, side=_side_out(r.side), kind=_KINDS.to_proto(r.kind), dice=r.dice,
        roll_off=cg._roll_off(r.roll_off), notation=r.notation, checker_moves=cg._steps_out(r.steps),
        cube_value=r.cube_value, roll_tag=r.roll_tag,
    )
    if r.elapsed_ms:
        msg.elapsed.CopyFrom(cm.ms_to_duration(min(r.elapsed_ms, cm.MAX_MS)))
    if r.resign_kind is not None:
        msg.resign_kind = cm.kind_to_proto(r.resign_kind)
    if r.outcome is not None:
        msg.outcome.CopyFrom(cm.outcome_to_proto(r.outcome, points))
    return msg


def record_from_proto(msg: game_pb2.ActionRecord, field: str = "record") -> Record:
    """A core :class:`Record` of an entry a client kept (GameEvents.records).

    :raises InvalidInputError: no or an unknown kind, an unknown side or result kind, a bad
        outcome or elapsed time.
    """
    kind = _KINDS.from_proto(msg.kind, f"{field}.kind")
    return Record(
        sequence=msg.sequence, side=_side_in(msg.side, f"{field}.side"), kind=kind, dice=tuple(msg.dice),
        roll_off=tuple((t.white_die, t.black_die) for t in msg.roll_off),
        steps=tuple(cg._step(m) for m in msg.checker_moves), notation=msg.notation, cube_value=msg.cube_value,
        resign_kind=(None if msg.resign_kind == pb.RESULT_KIND_UNSPECIFIED
                     else cm.kind_from_proto(msg.resign_kind, f"{field}.resign_kind")),
        elapsed_ms=cm.duration_to_ms(msg.elapsed, f"{field}.elapsed"), roll_tag=msg.roll_tag,
        outcome=cm.outcome_from_proto(msg.outcome, f"{field}.outcome") if msg.HasField("outcome") else None,
    )
