"""The referee's caches are caches, not state: every answer is byte-identical
with and without them, and the Act and ListActions bytes the servicer writes itself are the
bytes the protobuf library writes for the same response message.

Kept between calls: a turn's tree of steps and each analysis (:mod:`tavla.core.rules.steps`),
kept on each analysis (``StepState.memo``) the analysis of each next step and the turn's actions
(:mod:`tavla.core.game.machine`) and a view's steps (:mod:`tavla.server.convert.game`), a turn's
actions per turn, a state's bytes parsed, a view's Position bytes, a state's match bytes, the
actions' bytes, each step's bytes (:mod:`tavla.server.convert.game_wire`), the states a referee
wrote with its answers, their turn's parts and analyses (:mod:`tavla.referee.kept`). Whole games
are played with random legal actions (UNDO included) in state mode require; at every state the
same Act and ListActions are answered warm (the caches as play left them), then again with
every cache emptied, and the two answers compared byte for byte.
"""

from __future__ import annotations

import random

from tavla.core import preset
from tavla.core.game import ActionKind, evolve
from tavla.core.match.dice_commit import DiceKey
from tavla.core.rules import steps
from tavla.referee import Referee
from tavla.referee.keys import Signed
from game_driver import SIGNER
from tavla.server.api.context import LocalCall
from tavla.server.api.engine import Engine
from tavla.server.api.referee import RefereeService
from tavla.core.game import machine
from tavla.server.convert import game as cg
from tavla.server.convert import game_wire as gw
from tavla.v1 import game_pb2 as G
from tavla.v1 import referee_service_pb2 as api



def _empty_caches(referee: Referee) -> None:
    referee.kept.clear()
    steps.clear_cache()
    cg._position_bytes.cache_clear()
    cg._board_key.cache_clear()
    cg._match_state_bytes.cache_clear()
    cg._match_view_bytes.cache_clear()
    cg._action_field.cache_clear()
    gw._steps.clear()
    machine._moving.cache_clear()


def _servicer(referee: Referee) -> RefereeService:
    engine = Engine(dice_key=referee.dice_key, signer=referee.signer)
    engine.referee = referee  # the test's own, whose cache it inspects
    return RefereeService(engine)


def _act_bytes(servicer: RefereeService, signed: G.SignedGameState, action: G.GameAction) -> bytes:
    answer = servicer.Act(api.ActRequest(state=signed, action=action), LocalCall())
    assert isinstance(answer, bytes)
    return answer


def _list_bytes(servicer: RefereeService, signed: G.SignedGameState) -> bytes:
    answer = servicer.ListActions(api.ListActionsRequest(state=signed), LocalCall())
    assert isinstance(answer, bytes)
    return answer


def _choose(actions: list[G.GameAction], rng: random.Random) -> G.GameAction:
    """A random legal action that lets a game go on and end: steps and undos, whole moves
    confirmed, sometimes a double (taken)."""
    kinds = {a.kind: a for a in actions}
    for kind in (G.ACTION_KIND_START_GAME, G.ACTION_KIND_TAKE):
        if kind in kinds:
            return kinds[kind]
    if G.ACTION_KIND_CONFIRM_MOVE in kinds and rng.random() < 0.8:
        return kinds[G.ACTION_KIND_CONFIRM_MOVE]
    if G.ACTION_KIND_DOUBLE in kinds and rng.random() < 0.05:
        return kinds[G.ACTION_KIND_DOUBLE]
    if G.ACTION_KIND_ROLL in kinds:
        return kinds[G.ACTION_KIND_ROLL]
    if G.ACTION_KIND_UNDO in kinds and rng.random() < 0.15:
        return kinds[G.ACTION_KIND_UNDO]
    moves = [a for a in actions if a.kind in (G.ACTION_KIND_STEP, G.ACTION_KIND_CONFIRM_MOVE)]
    return rng.choice(moves)


def test_answers_are_the_same_with_and_without_the_caches():
    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True), clock=lambda: 0)
    servicer = _servicer(referee)
    compared = steps_compared = 0
    for game, name in enumerate(("international", "turkish", "international")):
        rng = random.Random(game)
        first = referee.new_match(preset(name), name, 3)
        assert first.signed is not None
        signed = G.SignedGameState(state=first.signed.state, key_id=first.signed.key_id,
                                   signature=first.signed.signature)
        actions = list(first.actions)
        while actions and compared < 900:
            action = _choose(actions, rng)
            warm_list = _list_bytes(servicer, signed)
            warm = _act_bytes(servicer, signed, action)
            _empty_caches(referee)
            cold = _act_bytes(servicer, signed, action)
            _empty_caches(referee)
            assert _list_bytes(servicer, signed) == warm_list
            assert cold == warm, (game, compared, action)
            compared += 1
            steps_compared += action.kind == G.ACTION_KIND_STEP
            answer = api.ActResponse.FromString(warm)
            signed, actions = answer.state, list(answer.actions)
    assert compared >= 300 and steps_compared >= 150  # real games, mostly steps


def test_the_written_bytes_are_the_librarys():
    """The servicer writes Act's and ListActions' responses field by field; the bytes are those
    of the response message built from the referee's answer and serialized by protobuf."""
    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True), clock=lambda: 0)
    servicer = _servicer(referee)
    rng = random.Random(7)
    first = referee.new_match(preset("international"), "international", 3)
    assert first.signed is not None
    signed = first.signed
    actions = list(first.actions)
    kinds = set()
    for _ in range(200):
        if not actions:
            break
        action = _choose(actions, rng)
        message = G.SignedGameState(state=signed.state, key_id=signed.key_id, signature=signed.signature)
        answer = referee.act(referee.open(Signed(signed.state, signed.key_id, signed.signature)),
                             cg.action_from_proto(action))
        assert answer.signed is not None
        expected = api.ActResponse(
            state=G.SignedGameState(state=answer.signed.state, key_id=answer.signed.key_id,
                                    signature=answer.signed.signature),
            view=answer.view, events=answer.events, actions=answer.actions).SerializeToString()
        assert _act_bytes(servicer, message, action) == expected
        listed = referee.list_actions(referee.open(Signed(signed.state, signed.key_id, signed.signature)))
        assert _list_bytes(servicer, message) == api.ListActionsResponse(
            actions=listed.actions, view=listed.view).SerializeToString()
        kinds.add(cg.action_from_proto(action).kind)
        signed, actions = answer.signed, list(answer.actions)
    assert {ActionKind.START_GAME, ActionKind.STEP, ActionKind.CONFIRM_MOVE, ActionKind.ROLL} <= kinds


def test_a_kept_state_is_the_state_its_bytes_parse_to():
    """The state an Act or NewMatch keeps with the bytes it wrote (the next call's parse) equals
    those bytes parsed afresh, and the view and actions kept with it (a ListActions' answer) equal
    those ListActions makes of them cold: in the variants of every geometry and under the clock
    (whose actions are not kept: a timeout claim depends on the time)."""
    from tavla.core.match import clock

    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True),
                      clock=lambda: 1_000)
    checked = 0
    for n, (name, timed) in enumerate((("international", False), ("turkish", True), ("plakoto", False),
                                        ("long_nardy", False), ("hypergammon", False))):
        rng = random.Random(n)
        settings = clock.PRESETS[clock.ClockPreset.RESERVE] if timed else None
        answer = referee.new_match(preset(name), name, 1, settings)
        while checked < 400 * (n + 1) and answer.actions:
            assert answer.signed is not None
            raw = answer.signed.state
            kept = referee.kept.get(raw)
            assert kept is not None
            assert (kept.state, kept.preset) == cg.state_from_bytes(raw)
            assert kept.view == answer.view_bytes
            assert kept.actions == (None if timed else answer.legal)
            signed = Signed(raw, answer.signed.key_id, answer.signed.signature)
            listed = referee.list_actions(referee.open(signed))  # from what was kept
            _empty_caches(referee)
            cold = referee.list_actions(referee.open(signed))
            assert (listed.view_bytes, listed.legal) == (cold.view_bytes, cold.legal)
            assert referee.kept.get(raw) is None  # a state parsed, not written, is not kept
            checked += 1
            action = _choose(answer.actions, rng)
            answer = referee.act(referee.open(signed), cg.action_from_proto(action))
    assert checked >= 1_000


def test_a_kept_state_is_opened_only_with_its_own_signature():
    """A state the referee just wrote is kept with the signature it sealed, and a call that sends
    those bytes back is checked against it instead of computing the MAC again: the same bytes
    with another signature, another key id or none are refused as a state not kept would be
    (docs/security.md)."""
    import pytest

    from tavla.referee.keys import StateError, StateReason

    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True), clock=lambda: 0)
    answer = referee.new_match(preset("international"), "international", 3)
    answer = referee.act(referee.open(answer.signed), cg.action_from_proto(answer.actions[0]))
    signed = answer.signed
    kept = referee.kept.get(signed.state)
    assert kept is not None and (kept.key_id, kept.signature) == (signed.key_id, signed.signature) != ("", b"")
    assert referee.open(signed).kept is kept  # its own signature: the kept state
    assert signed.key_id == "k2"  # game_driver.KEYS: k2 signs, k1 verifies too (the wrong key below)
    flipped = bytes([signed.signature[0] ^ 1]) + signed.signature[1:]
    refused = [(Signed(signed.state, signed.key_id, flipped), StateReason.STATE_SIGNATURE_INVALID),
               (Signed(signed.state, "k1", signed.signature), StateReason.STATE_SIGNATURE_INVALID),
               (Signed(signed.state, "k9", signed.signature), StateReason.STATE_KEY_UNKNOWN),
               (Signed(signed.state), StateReason.STATE_UNSIGNED)]
    for wrong, reason in refused:
        with pytest.raises(StateError) as caught:
            referee.open(wrong)
        assert caught.value.reason is reason, wrong


def test_evolve_is_dataclasses_replace():
    """The state machine copies a GameState or a Transition with some fields changed through a
    copier written per class and fields (evolve): the value is dataclasses.replace's,
    in any order of the fields, and a field the class lacks is refused as replace refuses it."""
    from dataclasses import dataclass, fields, replace

    import pytest

    from tavla.core.game import Transition

    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True), clock=lambda: 0)
    answer = referee.new_match(preset("turkish"), "turkish", 3)
    begun = referee.act(referee.open(answer.signed), cg.action_from_proto(answer.actions[0]))
    step = next(a for a in begun.legal if a.kind is ActionKind.STEP)
    state, later = begun.state, referee.act(referee.open(begun.signed), step).state
    # each value and another of its class, whose fields the copies take (at least two differ)
    pairs = [(state, later), (Transition(state, rolled=(6, 1), hit=True), Transition(later, points=2, analysis=None))]
    for value, other in pairs:
        names = [f.name for f in fields(value)]
        differ = [n for n in names if getattr(value, n) != getattr(other, n)]
        assert len(differ) >= 2, differ
        for changed in (names[:1], names[-2:], names[::-1][:5], differ, differ[::-1]):
            changes = {n: getattr(other, n) for n in changed}
            copied = evolve(value, **changes)
            assert copied == replace(value, **changes) and copied is not value
            assert all(getattr(copied, n) is (getattr(other, n) if n in changes else getattr(value, n)) for n in names)
        with pytest.raises(TypeError):
            evolve(value, no_such_field=1)
    assert evolve(state, sequence=41).sequence == 41 and state.sequence != 41

    @dataclass(frozen=True, slots=True)
    class Named:  # fields named as the copier's own names were once
        value: int
        new: int = 0
        cls: int = 1

    named = Named(5)
    assert evolve(named, new=3, value=9) == Named(9, 3, 1)
    assert evolve(named) == named and evolve(named) is not named


def test_a_step_finds_its_analysis_kept_on_the_state_before():
    """A step of a state whose turn analysis the caller has (the referee keeps it with the state
    it wrote) finds the next analysis kept on that one (StepState.memo): the same Transition as
    without it, the same analysis object the second time, and an illegal step refused each time
    with the rule it breaks (R4-R14), never kept. The memo is not part of an analysis's value."""
    import pytest

    from tavla.core import IllegalMoveError
    from tavla.core.game import Action, act
    from tavla.core.rules.movegen import CheckerMove

    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True), clock=lambda: 0)
    rng = random.Random(11)
    answer = referee.new_match(preset("turkish"), "turkish", 3)
    checked = 0
    while checked < 60:
        opened = referee.open(answer.signed)
        legal = [a for a in answer.legal if a.kind is ActionKind.STEP]
        if legal:
            analysis = opened.analysis
            assert analysis is not None and analysis is opened.kept.analysis  # kept with the state
            assert analysis == machine.turn(opened.state)
            for action in legal:
                once = act(opened.state, action, analysis=analysis)
                steps.clear_cache()  # the analyses kept by (board, dice, steps): the memo still has it
                again = act(opened.state, action, analysis=analysis)
                plain = act(opened.state, action)
                assert once == plain and once.analysis == plain.analysis
                assert analysis.memo[action.step[:3]] is once.analysis is again.analysis  # kept, then found
                checked += 1
            side, dice = legal[0].side, opened.state.dice
            made = {d * n for d in dice for n in range(1, 5 if dice[0] == dice[1] else 2)} | {sum(dice)}
            distance = min(d for d in range(1, 7) if d not in made)  # no die, nor dice, makes it
            wrong = Action(ActionKind.STEP, side, step=CheckerMove(24, 24 - distance, 0))
            for _ in range(2):
                with pytest.raises(IllegalMoveError) as caught:
                    act(opened.state, wrong, analysis=analysis)
                with pytest.raises(IllegalMoveError) as plainly:
                    act(opened.state, wrong)
                assert str(caught.value) == str(plainly.value)
            assert all(isinstance(k, str) or k[:2] != wrong.step[:2] for k in analysis.memo)
            twin = steps.StepState(**{f: getattr(analysis, f) for f in analysis.__dataclass_fields__ if f != "memo"})
            assert twin == analysis and hash(twin) == hash(analysis) and twin.memo == {} != analysis.memo
        action = _choose(answer.actions, rng)
        answer = referee.act(opened, cg.action_from_proto(action))
    assert checked >= 60
