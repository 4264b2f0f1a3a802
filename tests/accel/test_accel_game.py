"""The compiled writers of the referee's messages (service/accel/src/game.rs:
``tavla_accel.game_state_bytes``, ``game_view_bytes``, ``game_actions_bytes``,
``act_response_bytes``) against the protobuf library's serialization of the same message, on
edge values no played match reaches: sequences up to 2^64 - 1 and turns up to 2^32 - 1, empty
and non-ASCII match ids, 24-byte Family ID keys, every phase, offers, clocks and outcomes set
(also empty) or not, the dice of a double. tests/referee/test_game_wire.py checks them on every
answer of whole matches.

Not silently skipped: as tests/accel/test_accel.py, these FAIL without the extension unless
``TAVLA_ACCEL_EXPECTED=0``.
"""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavla.core import Position, Side
from tavla.core.game import Action, ActionKind
from tavla.core.ids import position_id
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.scoring import ResultKind
from tavla.server.convert import game as cg
from tavla.server.convert import match as cm
from tavla.server.convert import wire
from tavla.server.convert.enums import ACTION_KINDS
from tavla.v1 import game_pb2 as G
from tavla.v1 import match_pb2 as M
from tavla.v1 import referee_service_pb2 as api
from tavla.v1 import types_pb2 as pb
from test_accel import _extension_built, tavla_accel  # noqa: F401 (fixture)
from tavla.core import preset

SETTINGS = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
U64 = st.integers(0, 2**64 - 1)
U32 = st.integers(0, 2**32 - 1)
PHASES = st.sampled_from([v.number for v in G.GamePhase.DESCRIPTOR.values])
SIDES = st.sampled_from([Side.WHITE, Side.BLACK])
RULESETS = st.sampled_from([cg._ruleset_out(preset(name), name)
                            for name in ("international", "turkish", "plakoto", "long_nardy", "hypergammon")])
STEPS = st.builds(CheckerMove, st.integers(0, 25), st.integers(0, 25), st.integers(0, 6), st.booleans())


def _message(cls: Any) -> st.SearchStrategy[bytes | None]:
    """A nested message's bytes as the library writes them: not set, set and empty, or with
    values in every scalar field of the top level."""

    @st.composite
    def filled(draw: st.DrawFn) -> bytes:
        msg = cls()
        for f in cls.DESCRIPTOR.fields:
            if f.type == f.TYPE_ENUM:
                setattr(msg, f.name, draw(st.sampled_from([v.number for v in f.enum_type.values])))
            elif f.type in (f.TYPE_UINT32, f.TYPE_UINT64, f.TYPE_INT32, f.TYPE_INT64):
                setattr(msg, f.name, draw(st.integers(0, 2**31 - 1)))
            elif f.type == f.TYPE_BOOL:
                setattr(msg, f.name, draw(st.booleans()))
        return bytes(msg.SerializeToString(deterministic=True))

    return st.one_of(st.none(), st.just(b""), filled())


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, ...]:
    """A board of 15 checkers a side at most (some borne off), the side on roll's view."""
    board = [0] * 26
    for _ in range(draw(st.integers(1, 15))):
        board[draw(st.integers(1, 25))] += 1
    free = [p for p in range(0, 25) if p == 0 or board[p] == 0]
    for _ in range(draw(st.integers(1, 15))):
        board[draw(st.sampled_from(free))] -= 1
    return tuple(board)


def _set(msg: Any, name: str, payload: bytes | None) -> None:
    if payload is not None:
        getattr(msg, name).SetInParent()
        getattr(msg, name).MergeFromString(payload)


def _steps(steps: tuple[CheckerMove, ...]) -> list[pb.CheckerMove]:
    return [pb.CheckerMove(from_point=s[0], to_point=s[1], die=s[2], hit=s[3]) for s in steps]


def _key(board: tuple[int, ...], side: Side) -> bytes:
    """The Position ID's 10 bytes, by the core's encoder."""
    return base64.b64decode(position_id.encode(Position(board, side)) + "==")


STATES = st.fixed_dictionaries({
    "match_id": st.one_of(st.just(""), st.text(max_size=70)), "sequence": U64, "ruleset": RULESETS,
    "match": _message(M.MatchState).map(lambda b: b or b""), "phase": PHASES,
    "position": st.one_of(boards(), st.binary(min_size=24, max_size=24)), "on_roll": SIDES,
    "dice": st.lists(st.one_of(st.integers(1, 6), U32), max_size=4).map(tuple),
    "steps": st.lists(STEPS, max_size=4).map(tuple), "offer": _message(M.ResignationOffer), "resume": PHASES,
    "clock": _message(G.GameClock), "outcome": _message(M.GameOutcome), "turn": U32,
    "commitment": st.sampled_from([b"", bytes(range(32))]), "digest": st.binary(min_size=32, max_size=32),
})


@given(STATES)
@SETTINGS
def test_the_state_is_the_librarys(s: dict[str, Any]) -> None:
    out = tavla_accel.game_state_bytes(
        cg.FORMAT_VERSION, s["match_id"], s["sequence"], s["ruleset"], s["match"], s["phase"], s["position"],
        s["on_roll"], s["dice"], s["steps"], s["offer"], s["resume"], s["clock"], s["outcome"], s["turn"],
        s["commitment"], s["digest"])
    position = s["position"]
    msg = G.GameState(
        version=cg.FORMAT_VERSION, match_id=s["match_id"], sequence=s["sequence"],
        ruleset=pb.Ruleset.FromString(s["ruleset"]), match=M.MatchState.FromString(s["match"]), phase=s["phase"],
        position=position if isinstance(position, bytes) else _key(position, s["on_roll"]),
        on_roll=int(s["on_roll"]), dice=s["dice"], steps=_steps(s["steps"]), resume_phase=s["resume"],
        turn=s["turn"], dice_commitment=s["commitment"], record_digest=s["digest"])
    _set(msg, "resignation", s["offer"])
    _set(msg, "clock", s["clock"])
    _set(msg, "outcome", s["outcome"])
    assert out == msg.SerializeToString(deterministic=True)


@given(STATES, st.one_of(boards(), st.just(b"")), st.lists(st.integers(1, 6), max_size=4).map(tuple),
       st.integers(0, 7), st.lists(STEPS, max_size=4).map(tuple), st.one_of(st.none(), SIDES),
       st.sampled_from([b"", bytes(range(32))]))
@SETTINGS
def test_the_view_is_the_librarys(s: dict[str, Any], current: tuple[int, ...] | bytes, dice_left: tuple[int, ...],
                                  flags: int, forced: tuple[CheckerMove, ...], to_act: Side | None,
                                  seed: bytes) -> None:
    position = s["position"] if isinstance(s["position"], tuple) else b""  # a view's position: a message
    other = Side.BLACK if s["on_roll"] is Side.WHITE else Side.WHITE
    out = tavla_accel.game_view_bytes(
        s["match_id"], s["sequence"], s["ruleset"], s["match"], s["phase"], to_act, position, s["on_roll"],
        current, other, s["dice"], dice_left, s["steps"], flags, forced, s["offer"], s["resume"], s["clock"],
        s["outcome"], s["turn"], s["commitment"], seed, s["digest"])

    def shown(p: tuple[int, ...] | bytes, side: Side) -> pb.Position:
        if isinstance(p, bytes):
            return pb.Position.FromString(p)
        saved, wire._compiled_position = wire._compiled_position, None  # the Python writer's Position
        try:
            return cg.convert.position_to_proto(Position(p, side))
        finally:
            wire._compiled_position = saved

    msg = G.GameView(
        match_id=s["match_id"], sequence=s["sequence"], ruleset=pb.Ruleset.FromString(s["ruleset"]),
        match=M.MatchState.FromString(s["match"]), phase=s["phase"], side_to_act=int(to_act or 0),
        position=shown(position, s["on_roll"]), current=shown(current, other), dice=s["dice"], dice_left=dice_left,
        steps=_steps(s["steps"]), move_complete=bool(flags & 1), no_legal_move=bool(flags & 2),
        forced_move=bool(flags & 4), forced_steps=_steps(forced), resume_phase=s["resume"], turn=s["turn"],
        dice_commitment=s["commitment"].hex(), revealed_seed=seed.hex(), record_digest=s["digest"].hex())
    _set(msg, "resignation", s["offer"])
    _set(msg, "clock", s["clock"])
    _set(msg, "outcome", s["outcome"])
    msg.position.SetInParent()  # a set message field, written even when empty
    msg.current.SetInParent()
    assert out == msg.SerializeToString(deterministic=True)


ACTIONS = st.builds(Action, st.sampled_from(list(ActionKind)), st.one_of(st.none(), SIDES),
                    st.one_of(st.none(), STEPS), st.one_of(st.none(), st.sampled_from(list(ResultKind))))


@given(st.lists(ACTIONS, max_size=40).map(tuple), st.sampled_from([b"\x0a", b"\x22", b"\xfa\x01"]))
@SETTINGS
def test_the_actions_are_the_librarys(legal: tuple[Action, ...], key: bytes) -> None:
    out = tavla_accel.game_actions_bytes(key, legal, cg.KIND_NUMBERS, cg.RESULT_NUMBERS)
    expected = []
    for a in legal:
        msg = G.GameAction(kind=ACTION_KINDS.to_proto(a.kind), side=int(a.side or 0))
        if a.step is not None:
            msg.step.CopyFrom(_steps((a.step,))[0])
        if a.resign_kind is not None:  # a oneof member: set, and written, whatever its value
            msg.resign_kind = cm.kind_to_proto(a.resign_kind)
        body = msg.SerializeToString(deterministic=True)
        expected.append(key + bytes([len(body)]) + body)  # entries under 128 bytes
    assert out == b"".join(expected)


def test_what_it_refuses_is_a_value_or_type_error() -> None:
    """The codec writes in Python what the compiled writers refuse: a board no position has, a
    side that is not 1 or 2, a step that is not four values, an action without a kind's number."""
    args = [cg.FORMAT_VERSION, "m", 1, b"", b"", 1, (0,) * 26, 1, (), (), None, 0, None, None, 0, b"", b""]
    bad = [(6, (16,) + (0,) * 25), (6, (0,) * 25), (6, [0] * 26), (8, ("6",)), (9, (1, 2)), (9, ((1, 2, 3),))]
    for i, value in bad:
        try:
            tavla_accel.game_state_bytes(*args[:i], value, *args[i + 1:])
        except (ValueError, TypeError):
            continue
        raise AssertionError(f"argument {i} = {value!r} was not refused")
    try:
        tavla_accel.game_actions_bytes(b"\x22", (Action(ActionKind.ROLL),), {}, cg.RESULT_NUMBERS)
    except ValueError:
        pass
    else:
        raise AssertionError("an action kind without a number was not refused")


VIEWS = st.sampled_from([b"", G.GameView(match_id="m", sequence=300, dice=[6, 6]).SerializeToString()])
EVENTS = st.sampled_from([b"", G.GameEvents(rolled=[3, 1], hit=True).SerializeToString()])


@given(st.binary(max_size=300), st.text(max_size=20), st.binary(max_size=64), VIEWS, EVENTS,
       st.lists(ACTIONS, max_size=20).map(tuple))
@SETTINGS
def test_the_act_response_is_the_librarys(state: bytes, key_id: str, signature: bytes, view: bytes, events: bytes,
                                          legal: tuple[Action, ...]) -> None:
    out = tavla_accel.act_response_bytes(state, key_id, signature, view, events, legal, cg.KIND_NUMBERS,
                                         cg.RESULT_NUMBERS)
    msg = api.ActResponse(state=G.SignedGameState(state=state, key_id=key_id, signature=signature),
                          view=G.GameView.FromString(view), events=G.GameEvents.FromString(events),
                          actions=[cg.action_to_proto(a) for a in legal])
    assert out == msg.SerializeToString(deterministic=True)
