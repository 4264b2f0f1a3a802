"""The game state machine in the core (tavla.core.game), no gRPC: phases and the side
to act, one function per action, and the inconsistencies once found between the RPCs, as core rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tavla.core import (
    ClockError,
    Cube,
    CubeError,
    GameOverError,
    IllegalActionError,
    IllegalMoveError,
    InvalidInputError,
    MatchState,
    Position,
    ResultKind,
    RuleError,
    Side,
    SideView,
    legal_moves,
    preset,
)
from tavla.core.match.clock import PRESETS, ClockPreset
from tavla.core.match.dice import given_dice
from tavla.core.game import Action, ActionKind, GameState, Phase, act, check_state, list_actions, new_match, side_to_act
from tavla.core.game import lowlevel, machine
from tavla.core.match.resign import ResignationOffer, answer
from tavla.core.match.violations import ActionReason

K = ActionKind
W, B = Side.WHITE, Side.BLACK
INTL = preset("international")


def started(rules=INTL, length=7, dice=(6, 1), **kw) -> GameState:
    return act(new_match(rules, length, **kw), Action(K.START_GAME), dice=given_dice(dice), now_ms=0).state


def kinds(state: GameState) -> set[ActionKind]:
    return {a.kind for a in list_actions(state)}


def play_turn(state: GameState) -> GameState:
    """Play the first listed step until the move is complete, then confirm."""
    while K.CONFIRM_MOVE not in kinds(state):
        step = next(a for a in list_actions(state) if a.kind is K.STEP)
        state = act(state, step).state
    return act(state, Action(K.CONFIRM_MOVE)).state


def test_error_classes_are_siblings():
    """Moves, cube and clock errors are siblings under RuleError, none a subclass of another."""
    classes = (IllegalMoveError, CubeError, ClockError, IllegalActionError)
    for cls in classes:
        assert issubclass(cls, RuleError)
        assert not any(issubclass(cls, other) for other in classes if other is not cls)


def test_legal_moves_on_a_finished_position_raises():
    """A finished game (R15) has no moves; legal_moves no longer lists 1/off(2)."""
    done = Position.from_sides(W, SideView((0,) * 24, 0, 15), SideView((1,) + (0,) * 23, 0, 14))
    with pytest.raises(GameOverError) as err:
        legal_moves(done, (2, 1))
    assert err.value.winner is W
    with pytest.raises(GameOverError):
        legal_moves(done.swap_turn(), (2, 1))


def test_a_new_match_waits_for_its_first_start():
    state = new_match(INTL, 7)
    assert (state.phase, side_to_act(state), state.sequence) == (Phase.START, None, 0)
    assert list_actions(state) == [Action(K.START_GAME)]
    with pytest.raises(InvalidInputError) as err:
        new_match(preset("turkish"), 4)
    assert err.value.field == "length"


def test_start_game_rolls_off_and_the_winner_moves_r3():
    begun = act(new_match(INTL, 7), Action(K.START_GAME), dice=given_dice((6, 1)), now_ms=0)
    state = begun.state
    assert (state.phase, side_to_act(state), state.dice) == (Phase.MOVING, W, (6, 1))
    assert begun.records[0].roll_off == ((6, 1),) and state.sequence == 1 and state.turn == 1
    turkish = started(preset("turkish"), 5, dice=(2, 5, 3, 3))  # black wins the roll-off, rolls 3-3
    assert (side_to_act(turkish), turkish.dice) == (B, (3, 3))


def test_the_turn_passes_and_the_doubled_side_decides_r19():
    after = play_turn(started())
    assert (after.phase, side_to_act(after)) == (Phase.ROLL_OR_DOUBLE, B)
    assert kinds(after) >= {K.ROLL, K.DOUBLE, K.RESIGN}
    doubled = act(after, Action(K.DOUBLE)).state
    assert (doubled.phase, side_to_act(doubled), doubled.position.on_roll) == (Phase.CUBE_DECISION, W, B)
    assert kinds(doubled) == {K.TAKE, K.DROP}  # no resignation while a double awaits its answer
    with pytest.raises(IllegalActionError) as err:
        act(doubled, Action(K.RESIGN, W, resign_kind=ResultKind.SINGLE))
    assert err.value.reason is ActionReason.NOT_YOUR_TURN or err.value.reason is ActionReason.WRONG_PHASE
    taken = act(doubled, Action(K.TAKE)).state
    assert taken.match.cube == Cube(2, W) and (taken.phase, side_to_act(taken)) == (Phase.ROLL_OR_DOUBLE, B)
    assert kinds(taken) == {K.ROLL, K.RESIGN}  # white owns the cube
    dropped = act(doubled, Action(K.DROP))
    assert dropped.game_over is not None and dropped.game_over.winner is B and dropped.points == 1
    assert dropped.state.phase is Phase.GAME_OVER and dropped.state.match.scores == (0, 1)


def test_resignation_while_a_double_is_pending_is_refused_by_the_core():
    """Match {length 7, cube offered by white}, black offers a single, white accepts: refused
    (DOUBLE_PENDING) rather than ending in an outcome UpdateMatch refuses (R19)."""
    match = MatchState(length=7, cube=Cube(offered_by=W))
    offer = ResignationOffer(B, ResultKind.SINGLE)
    offered = Action(K.RESIGN, B, resign_kind=ResultKind.SINGLE)  # OfferResignation's path
    for call in (lambda: answer(match, INTL, offer, True),
                 lambda: machine.resign(lowlevel.deciding(INTL, match, B), offered)):
        with pytest.raises(IllegalActionError) as err:
            call()
        assert err.value.reason is ActionReason.DOUBLE_PENDING


def test_beavers_in_the_state_machine():
    """Money play with beavers: double, beaver, the doubler decides (take, drop, raccoon)."""
    rules = replace(INTL, beavers=True)
    state = play_turn(started(rules, 0))
    doubled = act(state, Action(K.DOUBLE)).state
    assert kinds(doubled) == {K.TAKE, K.DROP, K.BEAVER}
    beavered = act(doubled, Action(K.BEAVER)).state
    assert (side_to_act(beavered), kinds(beavered)) == (B, {K.TAKE, K.DROP, K.RACCOON})
    raccooned = act(beavered, Action(K.RACCOON)).state
    assert (side_to_act(raccooned), kinds(raccooned)) == (W, {K.TAKE, K.DROP})
    taken = act(raccooned, Action(K.TAKE)).state
    assert taken.match.cube == Cube(8, W) and side_to_act(taken) is B


def test_steps_undo_and_confirm():
    state = started()
    assert K.CONFIRM_MOVE not in kinds(state) and K.UNDO not in kinds(state)
    with pytest.raises(IllegalActionError) as err:
        act(state, Action(K.CONFIRM_MOVE))
    assert err.value.reason is ActionReason.MOVE_INCOMPLETE
    one = act(state, Action(K.STEP, step=(13, 7, 0, False))).state
    assert one.steps == ((13, 7, 6, False),) and K.UNDO in kinds(one)
    assert act(one, Action(K.UNDO)).state.steps == ()
    with pytest.raises(IllegalMoveError):
        act(state, Action(K.STEP, step=(6, 0, 0, False)))  # bearing off with checkers out (R11)


def test_no_legal_move_is_explicit_r7():
    """A roll that cannot enter from the bar (gele): the state says so; confirm passes the turn."""
    white = SideView((0,) * 5 + (14,) + (0,) * 18, 1, 0)  # one on the bar
    black = SideView((2, 2, 2, 2, 2, 2) + (0,) * 18, 0, 3)  # black's home board closed
    position = Position.from_sides(W, white, black)
    state = replace(new_match(INTL, 7), phase=Phase.ROLL_OR_DOUBLE, position=position)
    rolled = act(state, Action(K.ROLL), dice=given_dice((6, 5)))
    assert rolled.no_legal_move and kinds(rolled.state) == {K.CONFIRM_MOVE, K.RESIGN}
    confirmed = act(rolled.state, Action(K.CONFIRM_MOVE))
    assert (side_to_act(confirmed.state), confirmed.records[-1].notation) == (B, "")


def test_resign_accept_and_reject():
    state = started()
    offered = act(state, Action(K.RESIGN, resign_kind=ResultKind.GAMMON)).state
    assert (offered.phase, side_to_act(offered)) == (Phase.RESIGNATION_DECISION, B)
    rejected = act(offered, Action(K.REJECT_RESIGNATION)).state
    assert (rejected.phase, rejected.dice, rejected.resignation) == (Phase.MOVING, (6, 1), None)
    accepted = act(offered, Action(K.ACCEPT_RESIGNATION))
    assert accepted.game_over.winner is B and accepted.points == 2 and accepted.state.match.scores == (0, 2)


def test_time_runs_from_the_turns_start_and_forfeits_r24():
    clock = PRESETS[ClockPreset.RESERVE]  # 12 s free, 2 min reserve, 60 s cap, loses the match
    state = act(new_match(INTL, 5, clock, now_ms=1000), Action(K.START_GAME), dice=given_dice((6, 1)),
                now_ms=5000).state
    assert state.clock.turn_started_ms == 5000
    one = act(state, Action(K.STEP, step=(13, 7, 0, False)), now_ms=20_000).state
    assert one.clock.turn_started_ms == 5000  # the same turn: nothing charged yet
    done = act(one, Action(K.STEP, step=(8, 7, 0, False)), now_ms=25_000).state
    confirming = act(done, Action(K.CONFIRM_MOVE), now_ms=35_000)
    confirmed = confirming.state
    assert confirmed.clock.state.white.reserve_ms == 120_000 - 18_000  # 30 s, 12 free
    assert confirming.records[-1].elapsed_ms == 30_000 and confirmed.clock.turn_started_ms == 35_000
    with pytest.raises(IllegalActionError) as err:
        act(confirmed, Action(K.CLAIM_TIMEOUT), now_ms=35_000 + 60_000)
    assert err.value.reason is ActionReason.NOT_TIMED_OUT
    assert K.CLAIM_TIMEOUT in {a.kind for a in list_actions(confirmed, now_ms=35_000 + 60_001)}
    late = act(confirmed, Action(K.ROLL), dice=given_dice((1, 2)), now_ms=35_000 + 60_001)
    assert late.forfeit is not None and late.state.phase is Phase.MATCH_OVER and late.state.match.winner is W


@pytest.mark.parametrize("change, field", [
    (lambda s: replace(s, dice=(7, 1)), "state.dice"),
    (lambda s: replace(s, phase=Phase.ROLL_OR_DOUBLE), "state.dice"),
    (lambda s: replace(s, phase=Phase.MATCH_OVER), "state.phase"),
    (lambda s: replace(s, steps=((24, 18, 6, False), (24, 18, 6, False), (24, 18, 6, False))), "steps"),
    (lambda s: replace(s, match=replace(s.match, cube=Cube(offered_by=W))), "state.match.cube.offered_by"),
    (lambda s: replace(s, resignation=ResignationOffer(W, ResultKind.SINGLE)), "state.resignation"),
])
def test_inconsistent_states_are_bad_input(change, field):
    with pytest.raises((InvalidInputError, IllegalMoveError)) as err:
        check_state(change(started()))
    if isinstance(err.value, InvalidInputError):
        assert err.value.field == field
