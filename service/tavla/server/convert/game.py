"""Conversions of game.proto's messages to and from :mod:`tavla.core.game` values, and nothing
else: the compact state format (version 2, docs/game-state.md), the view computed beside it,
actions, record entries and events. Input conversions raise
:class:`~tavla.core.InvalidInputError` naming the field (under ``state.`` for a GameState); the
state's consistency is the core's (:func:`check_state`).
"""

from __future__ import annotations

import base64
import binascii
import functools
from collections.abc import Sequence

from google.protobuf.message import DecodeError

from tavla.core import CHECKERS, CheckerMove, InvalidInputError, Position, Side
from tavla.core.ids import family_id
from tavla.core.ids import position_id as pid
from tavla.core.rules.variant import FAMILY_ID, Variant
from tavla.core.game import Action, ActionKind, GameState, Phase, Record, Timing, Transition, side_to_act
from tavla.core.match.state import MatchState
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.steps import StepState
from tavla.core.rules.scoring import ResultKind
from tavla.server.convert import common as convert
from tavla.server.convert import family
from tavla.server.convert import match as cm
from tavla.server.convert import game_wire as gw
from tavla.server.convert import wire
from tavla.server.convert.enums import ACTION_KINDS as _KINDS
from tavla.server.convert.enums import PHASES as _PHASES
from tavla.v1 import dice_pb2, game_pb2, match_pb2
from tavla.v1 import types_pb2 as pb

FORMAT_VERSION = 2
POSITION_KEY_BYTES = 10  # a Position ID's 80 bits
DIGEST_BYTES = 32
MAX_STEPS = 4  # a double plays four steps at most (R6)
MAX_SEQUENCE = 2**63  # far beyond any match: one state per action

_side_in = convert.optional_side_from_proto
_side_out = convert.optional_side_to_proto


def _step(m: pb.CheckerMove) -> CheckerMove:
    return CheckerMove(m.from_point, m.to_point, m.die, m.hit)


def _steps_out(steps: Sequence[CheckerMove]) -> list[pb.CheckerMove]:
    return [pb.CheckerMove(from_point=s[0], to_point=s[1], die=s[2], hit=s[3]) for s in steps]


# ---------------------------------------------------------------------------------------------
# Requests -> core


def action_from_proto(msg: game_pb2.GameAction, field: str = "action") -> Action:
    """A core :class:`Action`, kept per message bytes and field name (a turn's few dozen
    actions recur in every game).

    :raises InvalidInputError: no or an unknown kind, an unknown side, a STEP without its step,
        a RESIGN without its kind (raised again each time, not kept).
    """
    return _action_from_bytes(msg.SerializeToString(), field)


@functools.lru_cache(maxsize=4096)
def _action_from_bytes(raw: bytes, field: str) -> Action:
    return _action_from_message(game_pb2.GameAction.FromString(raw), field)


def _action_from_message(msg: game_pb2.GameAction, field: str) -> Action:
    kind = _KINDS.from_proto(msg.kind, f"{field}.kind")
    side = _side_in(msg.side, f"{field}.side")
    step = None
    if kind is ActionKind.STEP:
        if not msg.HasField("step"):
            raise InvalidInputError(f"{field}.step", "a step needs from_point and to_point")
        _check_step(msg.step, f"{field}.step")
        step = _step(msg.step)
    resign_kind = None
    if kind is ActionKind.RESIGN:
        if msg.resign_kind == pb.RESULT_KIND_UNSPECIFIED:
            raise InvalidInputError(f"{field}.resign_kind", "is required: single, gammon or backgammon")
        resign_kind = cm.kind_from_proto(msg.resign_kind, f"{field}.resign_kind")
    return Action(kind, side, step, resign_kind)


def _check_step(msg: pb.CheckerMove, field: str) -> None:
    """:raises InvalidInputError: a point outside 0-25 or a die outside 0-6 (0: any), named by
    its field (the core's step check names the turn's ``steps``, not the request)."""
    for name, value, top in (("from_point", msg.from_point, 25), ("to_point", msg.to_point, 25), ("die", msg.die, 6)):
        if value > top:
            raise InvalidInputError(f"{field}.{name}", f"{value} is not 0-{top}")


@functools.lru_cache(maxsize=256)
def _ruleset(raw: bytes) -> tuple[Ruleset, str]:
    """A state's ruleset and preset name, by its bytes: the handful a deployment plays are
    resolved once."""
    msg = pb.Ruleset.FromString(raw)
    return convert.ruleset_from_proto(msg), msg.preset or convert.DEFAULT_PRESET


def stated_ruleset(rules: Ruleset, preset: str) -> Ruleset:
    """``rules`` as a state's bytes hold them (the Crawford rule only where the cube puts it in
    play, R21): the ruleset every state parsed from those bytes has."""
    return _ruleset(_ruleset_out(rules, preset))[0]


def position_key(position: Position) -> bytes:
    """The 10 bytes of ``position``'s Position ID (the side on roll is kept beside them); for
    plakoto, fevga and long nardy the 24 bytes of its Family ID (docs/variants.md)."""
    if len(position.board) == family.BOARD_SIZE:
        return family_id.encode_bytes(position)
    return _board_key(position.board)


@functools.lru_cache(maxsize=1024)
def _board_key(board: tuple[int, ...]) -> bytes:
    """Kept per board: every state of a turn holds the turn's start position."""
    return base64.b64decode(wire.position_id(board) + "==")


@functools.lru_cache(maxsize=4096)
def _position(key: bytes, on_roll: int, variant: type[Variant]) -> Position:
    """A state's position (cached: every step of a turn opens the same one), of ``variant``
    (the state's ruleset's): a Position ID's bytes, or a Family ID's for the variants with one."""
    if variant.codecs.get(FAMILY_ID):
        side = convert.side_from_proto(on_roll, "state.on_roll")
        return family_id.decode_bytes(key, side, variant, "state.position")
    if len(key) != POSITION_KEY_BYTES:
        raise InvalidInputError("state.position", f"has {len(key)} bytes; a Position ID has {POSITION_KEY_BYTES}")
    side = convert.side_from_proto(on_roll, "state.on_roll")
    text = base64.b64encode(key).decode("ascii")[:14]
    try:
        return pid.decode(text, side, variant)
    except InvalidInputError as exc:
        raise InvalidInputError("state.position", exc.reason) from None
    except (ValueError, binascii.Error):  # pragma: no cover - decode checks its input
        raise InvalidInputError("state.position", "is not a Position ID") from None


def _digest(raw: bytes, field: str) -> bytes:
    if len(raw) != DIGEST_BYTES:
        raise InvalidInputError(f"state.{field}", f"has {len(raw)} bytes; a SHA-256 has {DIGEST_BYTES}")
    return raw


def state_from_bytes(raw: bytes) -> tuple[GameState, str]:
    """A core :class:`GameState` (not yet checked: :func:`check_state`) and its preset's name,
    from a GameState message's bytes (format version 2). Parsed each call: in play every state
    is new (the referee keeps the states it wrote itself: :mod:`tavla.referee.kept`).

    :raises InvalidInputError: not a GameState, an unknown version or enum number, a bad
        ruleset, position, digest or clock settings (field ``state.<part>``).
    """
    try:
        msg = game_pb2.GameState.FromString(raw)
    except (DecodeError, ValueError, RecursionError) as exc:
        raise InvalidInputError("state.state", f"is not a GameState: {exc}") from None
    if msg.version != FORMAT_VERSION:
        raise InvalidInputError("state.version", f"{msg.version} is not {FORMAT_VERSION}")
    if msg.sequence >= MAX_SEQUENCE:  # the next state's number must fit its uint64 field
        raise InvalidInputError("state.sequence", f"is not below {MAX_SEQUENCE}")
    if len(msg.steps) > MAX_STEPS:
        raise InvalidInputError("state.steps", f"has {len(msg.steps)} steps; a turn has {MAX_STEPS} at most")
    rules, preset = _ruleset(msg.ruleset.SerializeToString())
    phase = _PHASES.from_proto(msg.phase, "state.phase")
    resume: Phase | None = None
    if msg.resume_phase != game_pb2.GAME_PHASE_UNSPECIFIED:
        resume = _PHASES.from_proto(msg.resume_phase, "state.resume_phase")
    timing = None
    if msg.HasField("clock"):
        settings = cm.clock_settings_from_proto(msg.clock.settings, "state.clock.settings")
        started = cm.timestamp_to_ms(msg.clock.turn_start_time, "state.clock.turn_start_time")
        timing = Timing(settings, cm.clock_state_from_proto(msg.clock.state), started)
    outcome = cm.outcome_from_proto(msg.outcome, "state.outcome") if msg.HasField("outcome") else None
    if msg.match.match_id or msg.match.gnubg_id or msg.match.xgid:
        raise InvalidInputError("state.match.match_id", "is not part of a state")
    commitment = b"" if not msg.dice_commitment else _digest(msg.dice_commitment, "dice_commitment")
    state = GameState(
        ruleset=rules, match=cm.match_from_proto(msg.match, "state.match", rules=rules), phase=phase,
        position=_position(msg.position, msg.on_roll, rules.variant_class),  # type: ignore[arg-type]
        dice=tuple(msg.dice),
        steps=tuple(_step(m) for m in msg.steps),
        resignation=(cm.offer_from_proto(msg.resignation, "state.resignation")
                     if msg.HasField("resignation") else None),
        resume=resume, clock=timing, outcome=outcome, outcome_points=msg.outcome.points,
        sequence=msg.sequence, match_id=msg.match_id, turn=msg.turn, dice_commitment=commitment,
        record_digest=_digest(msg.record_digest, "record_digest"),
    )
    return state, preset


# ---------------------------------------------------------------------------------------------
# Core -> responses


@functools.lru_cache(maxsize=256)
def _ruleset_out(rules: Ruleset, preset: str) -> bytes:
    """A ruleset's message bytes, kept per value: the handful a deployment plays."""
    return bytes(cm.ruleset_to_proto(rules, preset).SerializeToString(deterministic=True))


def _match_out(match: MatchState) -> match_pb2.MatchState:
    """The match as a state holds it: no Match ID (derived; the view carries it)."""
    cube = match.cube
    return match_pb2.MatchState(
        length=match.length, white_score=match.scores[0], black_score=match.scores[1],
        crawford=match.crawford, post_crawford=match.post_crawford,
        cube=match_pb2.CubeState(value=cube.value, owner=_side_out(cube.owner),
                                 offered_by=_side_out(cube.offered_by), redoubles=cube.redoubles),
        previous_winner=_side_out(match.previous_winner), games_played=match.games_played,
        winner=_side_out(match.winner),
    )


@functools.lru_cache(maxsize=1024)
def _match_state_bytes(match: MatchState) -> bytes:
    """The match's message as a state holds it, kept per value: a game's states share it."""
    return bytes(_match_out(match).SerializeToString(deterministic=True))


@functools.lru_cache(maxsize=1024)
def _match_view_bytes(match: MatchState) -> bytes:
    """The match's message as a view shows it (with its Match ID), kept per value."""
    return bytes(cm.match_to_proto(match).SerializeToString())


def _clock_out(timing: Timing) -> game_pb2.GameClock:
    return game_pb2.GameClock(settings=cm.clock_settings_to_proto(timing.settings),
                              state=cm.clock_state_to_proto(timing.state),
                              turn_start_time=cm.ms_to_timestamp(timing.turn_started_ms))


_PHASE_NUMBERS = {phase: int(_PHASES.to_proto(phase)) for phase in Phase}
_RESUME_NUMBERS: dict[Phase | None, int] = {None: 0, **{phase: n for phase, n in _PHASE_NUMBERS.items()}}
_SIDE_NUMBERS: dict[Side | None, int] = {None: 0, **{side: int(convert.side_to_proto(side)) for side in Side}}
# The compiled writers take a Side as its number: tavla.core.Side's values are tavla.v1.Side's.
assert all(int(side) == number for side, number in _SIDE_NUMBERS.items() if side is not None)


def state_to_bytes(state: GameState, preset: str) -> bytes:
    """The deterministic bytes of the state's GameState message (format version 2): the bytes
    the protobuf library's deterministic serialization of the same message gives
    (tests/support/proto_oracles.py), written by the compiled writer when the engine installed
    it (:func:`tavla.server.convert.game_wire.use_compiled`), else field by field in Python."""
    compiled = gw.compiled
    if compiled is not None:
        position = state.position
        board = position.board
        try:
            return compiled.state(
                FORMAT_VERSION, state.match_id, state.sequence, _ruleset_out(state.ruleset, preset),
                _match_state_bytes(state.match), _PHASE_NUMBERS[state.phase],
                board if len(board) != family.BOARD_SIZE else family_id.encode_bytes(position), position.on_roll,
                state.dice, state.steps, _offer_bytes(state), _RESUME_NUMBERS[state.resume], _clock_bytes(state),
                _outcome_bytes(state), state.turn, state.dice_commitment, state.record_digest)
        except (ValueError, TypeError, OverflowError):  # what it refuses: the Python writer's answer (or error)
            pass
    return b"".join((
        _STATE_VERSION, gw.text(b"\x12", state.match_id), gw.number(b"\x18", state.sequence),
        gw.field(b"\x22", _ruleset_out(state.ruleset, preset)), gw.field(b"\x2a", _match_state_bytes(state.match)),
        gw.number(b"\x30", _PHASE_NUMBERS[state.phase]), gw.field(b"\x3a", position_key(state.position)),
        gw.number(b"\x40", _SIDE_NUMBERS[state.position.on_roll]), gw.packed(b"\x4a", state.dice),
        gw.steps(b"\x52", state.steps), _message(b"\x5a", _offer_bytes(state)),
        gw.number(b"\x60", _RESUME_NUMBERS[state.resume]), _message(b"\x6a", _clock_bytes(state)),
        _message(b"\x72", _outcome_bytes(state)), gw.number(b"\x78", state.turn),
        gw.raw(b"\x82\x01", state.dice_commitment), gw.raw(b"\x8a\x01", state.record_digest)))


_STATE_VERSION = b"\x08" + wire.varint(FORMAT_VERSION)


def _message(key: bytes, payload: bytes | None) -> bytes:
    """A message field set when ``payload`` is not ``None`` (even when empty)."""
    return b"" if payload is None else gw.field(key, payload)


def _offer_bytes(state: GameState) -> bytes | None:
    if state.resignation is None:
        return None
    return bytes(cm.offer_to_proto(state.resignation).SerializeToString(deterministic=True))


def _clock_bytes(state: GameState) -> bytes | None:
    if state.clock is None:
        return None
    return bytes(_clock_out(state.clock).SerializeToString(deterministic=True))


def _outcome_bytes(state: GameState) -> bytes | None:
    if state.outcome is None:
        return None
    return bytes(cm.outcome_to_proto(state.outcome, state.outcome_points).SerializeToString(deterministic=True))


@functools.lru_cache(maxsize=1024)
def _position_bytes(board: tuple[int, ...], on_roll: Side, variant: type[Variant]) -> bytes:
    """A view's ``Position`` message, kept per board and side on roll: every click of a turn
    shows the turn's start position, and the same few after each step."""
    if len(board) == family.BOARD_SIZE:  # the variant says what the board means
        return bytes(family.position_to_proto(Position(board, on_roll, variant)).SerializeToString())
    return wire.position(board, on_roll, checkers=variant.checkers)


def _shown(position: Position) -> tuple[int, ...] | bytes:
    """What the compiled view writer takes for a ``Position`` field: the board, which it writes
    itself (15 checkers a side on 26 points), else the message's bytes."""
    board = position.board
    if len(board) != family.BOARD_SIZE and position.variant.checkers == CHECKERS:
        return board
    return _position_bytes(board, position.on_roll, position.variant)  # type: ignore[arg-type]


_NO_STEPS: tuple[CheckerMove, ...] = ()


def view_bytes(state: GameState, preset: str, analysis: StepState | None, revealed_seed: bytes = b"") -> bytes:
    """The bytes of the state's ``GameView`` (what it shows, derived from it): the compiled
    writer's when the engine installed it (:func:`tavla.server.convert.game_wire.use_compiled`),
    else written field by field in Python; its ruleset, match and positions from message bytes
    kept per value (they repeat from click to click).

    :param analysis: the MOVING state's turn analysis (:func:`tavla.core.game.machine.turn`);
        ``None`` outside phase MOVING (a resignation offered while moving shows the dice only).
    :param revealed_seed: at a game's end, the secret of the game just finished.
    """
    position = state.position
    if analysis is None:
        current, dice_left, flags, forced = position, state.dice, 0, _NO_STEPS
    else:
        current = analysis.position if analysis.steps else position
        dice_left, forced = analysis.dice_left, analysis.forced_steps
        flags = ((_COMPLETE | (0 if analysis.steps else _NO_LEGAL_MOVE) if analysis.complete else 0)
                 | (_FORCED if analysis.forced else 0))
    compiled = gw.compiled
    if compiled is not None:
        try:
            return compiled.view(
                state.match_id, state.sequence, _ruleset_out(state.ruleset, preset), _match_view_bytes(state.match),
                _PHASE_NUMBERS[state.phase], side_to_act(state), _shown(position), position.on_roll,
                _shown(current), current.on_roll, state.dice, dice_left, state.steps, flags, forced,
                _offer_bytes(state), _RESUME_NUMBERS[state.resume], _clock_bytes(state), _outcome_bytes(state),
                state.turn, state.dice_commitment, revealed_seed, state.record_digest)
        except (ValueError, TypeError, OverflowError):  # what it refuses: the Python writer's answer (or error)
            pass
    return b"".join((
        gw.text(b"\x0a", state.match_id), gw.number(b"\x10", state.sequence),
        gw.field(b"\x1a", _ruleset_out(state.ruleset, preset)), gw.field(b"\x22", _match_view_bytes(state.match)),
        gw.number(b"\x28", _PHASE_NUMBERS[state.phase]), gw.number(b"\x30", _SIDE_NUMBERS[side_to_act(state)]),
        gw.field(b"\x3a", _position_bytes(position.board, position.on_roll, position.variant)),  # type: ignore[arg-type]
        gw.field(b"\x42", _position_bytes(current.board, current.on_roll, current.variant)),  # type: ignore[arg-type]
        gw.packed(b"\x4a", state.dice), gw.packed(b"\x52", dice_left), gw.steps(b"\x5a", state.steps),
        gw.flag(b"\x60", bool(flags & _COMPLETE)), gw.flag(b"\x68", bool(flags & _NO_LEGAL_MOVE)),
        gw.flag(b"\x70", bool(flags & _FORCED)), gw.steps(b"\x7a", forced),
        _message(b"\x82\x01", _offer_bytes(state)), gw.number(b"\x88\x01", _RESUME_NUMBERS[state.resume]),
        _message(b"\x92\x01", _clock_bytes(state)), _message(b"\x9a\x01", _outcome_bytes(state)),
        gw.number(b"\xa0\x01", state.turn), _hex_field(b"\xaa\x01", state.dice_commitment),
        _hex_field(b"\xb2\x01", revealed_seed), _hex_field(b"\xba\x01", state.record_digest)))


# GameView's move_complete, no_legal_move and forced_move as bits (the compiled writer's `flags`)
_COMPLETE, _NO_LEGAL_MOVE, _FORCED = 1, 2, 4


@functools.lru_cache(maxsize=1024)
def _hex_field(key: bytes, raw: bytes) -> bytes:
    """A view's string field of a digest in hex, kept per digest: a turn's clicks show the same."""
    return gw.text(key, raw.hex())


def action_to_proto(action: Action) -> game_pb2.GameAction:
    """A ``GameAction`` message (a new one each call)."""
    msg: game_pb2.GameAction = game_pb2.GameAction.FromString(action_bytes(action))
    return msg


def action_bytes(action: Action) -> bytes:
    """The bytes of an action's message (an answer's entries are kept by :func:`_action_field`)."""
    msg = game_pb2.GameAction(kind=_KINDS.to_proto(action.kind), side=_side_out(action.side))
    if action.step is not None:
        s = action.step
        msg.step.CopyFrom(pb.CheckerMove(from_point=s[0], to_point=s[1], die=s[2], hit=s[3]))
    if action.resign_kind is not None:
        msg.resign_kind = cm.kind_to_proto(action.resign_kind)
    return bytes(msg.SerializeToString())


def actions_fields(key: bytes, legal: tuple[Action, ...]) -> bytes:
    """``legal`` as a response's ``repeated GameAction`` field (``key``: its tag): written by
    the compiled writer when the engine installed it
    (:func:`tavla.server.convert.game_wire.use_compiled`), else each entry's bytes kept per
    action (:func:`_action_field`)."""
    compiled = gw.compiled
    if compiled is not None:
        try:
            return compiled.actions(key, legal, KIND_NUMBERS, RESULT_NUMBERS)
        except (ValueError, TypeError, OverflowError):  # what it refuses: the Python writer's answer (or error)
            pass
    return b"".join([_action_field(key, a) for a in legal])


#: Each action kind's and result kind's proto number: what the compiled writers number them by.
KIND_NUMBERS = {kind: int(_KINDS.to_proto(kind)) for kind in ActionKind}
RESULT_NUMBERS = {kind: int(cm.kind_to_proto(kind)) for kind in ResultKind}


@functools.lru_cache(maxsize=8192)
def _action_field(key: bytes, action: Action) -> bytes:
    """One entry of a ``repeated GameAction`` field: the same few hundred actions recur in
    every game, so every answer's actions are found here."""
    return gw.field(key, action_bytes(action))


def _roll_off(throws: Sequence[tuple[int, int]]) -> list[dice_pb2.RollOffThrow]:
    return [dice_pb2.RollOffThrow(white_die=w, black_die=b, name=cm.roll_name_to_proto(w, b)) for w, b in throws]


def record_bytes(r: Record, points: int = 0) -> bytes:
    """The bytes of a record entry's ``ActionRecord`` message (what the record digest hashes),
    written field by field (:mod:`tavla.server.convert.game_wire`); the rare nested messages (a
    roll-off, the time taken, the game's outcome) by the protobuf library. ``points``: what the
    game paid, when the entry ended it. The library's deterministic serialization of the same
    message gives the same bytes (tests/referee/test_game_wire.py)."""
    parts = [gw.number(b"\x08", r.sequence), gw.number(b"\x10", _SIDE_NUMBERS[r.side]),
             gw.number(b"\x18", KIND_NUMBERS[r.kind]), gw.packed(b"\x22", r.dice)]
    if r.roll_off:
        parts += [gw.field(b"\x2a", m.SerializeToString(deterministic=True)) for m in _roll_off(r.roll_off)]
    parts += [gw.text(b"\x32", r.notation), gw.steps(b"\x3a", r.steps), gw.number(b"\x40", r.cube_value)]
    if r.resign_kind is not None:
        parts.append(gw.number(b"\x48", RESULT_NUMBERS[r.resign_kind]))
    if r.elapsed_ms:
        elapsed = cm.ms_to_duration(min(r.elapsed_ms, cm.MAX_MS))
        parts.append(gw.field(b"\x52", elapsed.SerializeToString(deterministic=True)))
    parts.append(gw.text(b"\x5a", r.roll_tag))
    if r.outcome is not None:
        parts.append(gw.field(b"\x62", cm.outcome_to_proto(r.outcome, points).SerializeToString(deterministic=True)))
    return b"".join(parts)


def events_bytes(t: Transition, records: Sequence[bytes] = ()) -> bytes:
    """The bytes of the ``GameEvents`` of what an action did (``outcome`` set exactly when it
    ended the game), written field by field (:mod:`tavla.server.convert.game_wire`);
    ``records``: each entry's ``ActionRecord`` bytes (as the record digest hashes them)."""
    if not (t.rolled or t.roll_off or records or t.game_over or t.forfeit):  # a step, an undo, a cube action
        return gw.flag(b"\x18", t.hit) + gw.flag(b"\x30", t.no_legal_move)
    parts = [gw.packed(b"\x0a", t.rolled)]
    if t.roll_off:
        parts += [gw.field(b"\x12", m.SerializeToString(deterministic=True)) for m in _roll_off(t.roll_off)]
    parts.append(gw.flag(b"\x18", t.hit))
    if t.game_over is not None:
        parts.append(gw.field(b"\x22", cm.outcome_to_proto(t.game_over, t.points).SerializeToString(deterministic=True)))
    if t.forfeit is not None:
        parts.append(gw.field(b"\x2a", cm.forfeit_to_proto(t.forfeit).SerializeToString(deterministic=True)))
    parts.append(gw.flag(b"\x30", t.no_legal_move))
    parts += [gw.field(b"\x3a", r) for r in records]
    return b"".join(parts)
