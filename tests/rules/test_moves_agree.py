"""Moves and steps agree: ListLegalMoves, ListLegalSteps and ApplyMove give one answer.

A move's dice do not depend on the order the dice are given in (R7: when only one die can be
played it is the larger; a last checker borne off by either die is labelled with the larger), and
a route the player writes is checked point by point (R4), never re-routed around a blocked point.
"""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from boards import position
from tavla.core import IllegalMoveError, IllegalReason, Position, Side, CheckerMove, legal_moves, legal_steps
from tavla.core import resolve
from tavla.core.rules import notation
from tavla.core.ids import position_id
import rpc_api as api
from tavla.v1 import types_pb2 as pb

START = Position.initial()
# black on roll with one checker left, on its 1 point (where the RPCs once disagreed)
LAST = position_id.decode("v34YAAABAAAAAA", Side.BLACK)
TIMEOUT = 30


def test_last_is_one_checker_on_the_one_point():
    assert LAST.board[1] == 1 and sum(x for x in LAST.board[1:] if x > 0) == 1


@pytest.mark.parametrize("dice", [(4, 6), (6, 4), (1, 3), (3, 1)])
def test_last_checker_off_is_labelled_with_the_larger_die_r7(dice):
    # R7: either die bears the checker off and then nothing is left: only one die can be played,
    # so it is the larger, whatever the order the dice come in.
    (move,) = legal_moves(LAST, dice)
    assert move.steps == ((1, 0, max(dice), False),)
    # the listed move is a path of offered steps (the steps say the same)
    s = legal_steps(LAST, dice)
    assert (1, 0, max(dice), False) in s.next_steps and s.forced
    assert s.forced_steps == move.steps
    done = legal_steps(LAST, dice, [CheckerMove(1, 0, max(dice))])
    assert done.complete and done.move == move


@pytest.mark.parametrize("dice", [(4, 6), (6, 4), (1, 3), (3, 1)])
def test_the_smaller_die_ends_the_game_the_same_and_is_accepted_r15(dice):
    # ApplyMove has always accepted it (same final position); the steps accept it too now,
    # completing to the listed move labelled with the larger die.
    small = min(dice)
    done = legal_steps(LAST, dice, [CheckerMove(1, 0, small)])
    assert done.complete and done.steps == ((1, 0, small, False),)
    assert done.move.steps == ((1, 0, max(dice), False),)
    assert resolve(LAST, dice, notation.parse("1/off")).steps == ((1, 0, max(dice), False),)


@pytest.mark.parametrize("dice", [(6, 5), (5, 6), (5, 1), (1, 5), (2, 1), (1, 2)])
def test_moves_do_not_depend_on_dice_order(dice):
    # the same listed moves, with the same single-die steps, for both orders
    swapped = (dice[1], dice[0])
    mine = {m.board_after: m.steps for m in legal_moves(START, dice)}
    assert mine == {m.board_after: m.steps for m in legal_moves(START, swapped)}


def test_written_route_through_a_blocked_point_is_refused_r4_r5():
    # 24/19/13 with 6-5 lands on 19, black's 6 point (5 checkers): it is not 24/18/13.
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (6, 5), notation.parse("24/19/13"))
    assert err.value.reason is IllegalReason.POINT_BLOCKED and "19" in str(err.value)
    # the route written step by step is the same route
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (6, 5), notation.parse("24/19 19/13"))
    assert err.value.reason is IllegalReason.POINT_BLOCKED
    # the open route is still accepted, and the unwritten one is free
    assert resolve(START, (6, 5), notation.parse("24/18/13")).notation == "24/13"
    assert resolve(START, (6, 5), notation.parse("24/13")).notation == "24/13"
    # and the steps refuse the same first step
    with pytest.raises(IllegalMoveError) as err:
        legal_steps(START, (6, 5), [CheckerMove(24, 19)])
    assert err.value.reason is IllegalReason.POINT_BLOCKED


def test_written_intermediate_point_must_be_landed_on_r4():
    # 24/21/16 with 5-3 names 21 (the 3 first): fine; 24/22/16 names a point no die reaches
    assert resolve(START, (5, 3), notation.parse("24/21/16")).notation == "24/16"
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (5, 3), notation.parse("24/22/16"))
    assert err.value.reason is IllegalReason.WRONG_DICE


# --- over gRPC --------------------------------------------------------------------------------


def _pos(pos: Position) -> pb.Position:
    return pb.Position(position_id=position_id.encode(pos), on_roll=int(pos.on_roll))


def _apply(engine, pos, dice, **move):
    return engine.ApplyMove(api.ApplyMoveRequest(position=_pos(pos), dice=dice, move=pb.Move(**move)),
                            timeout=TIMEOUT)


def reason_of(error: grpc.RpcError) -> str:
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    info = error_details_pb2.ErrorInfo()
    (detail,) = [d for d in rpc_status.from_call(error).details if d.Is(info.DESCRIPTOR)]
    detail.Unpack(info)
    return info.reason


def test_rpc_route_by_checker_moves_through_a_blocked_point(engine):
    moves = [pb.CheckerMove(from_point=24, to_point=19), pb.CheckerMove(from_point=19, to_point=13)]
    with pytest.raises(grpc.RpcError) as info:
        _apply(engine, START, [6, 5], checker_moves=moves)
    assert reason_of(info.value) == "POINT_BLOCKED"
    with pytest.raises(grpc.RpcError) as info:
        _apply(engine, START, [6, 5], notation="24/19/13")
    assert reason_of(info.value) == "POINT_BLOCKED"


@pytest.mark.parametrize("dice", [[4, 6], [6, 4]])
def test_rpc_moves_steps_and_apply_agree_on_the_last_checker(engine, dice):
    listed = engine.ListLegalMoves(api.ListLegalMovesRequest(position=_pos(LAST), dice=dice), timeout=TIMEOUT)
    assert [(c.from_point, c.to_point, c.die) for c in listed.moves[0].checker_moves] == [(1, 0, 6)]
    for die in (4, 6):  # ApplyMove ignores the die on input; ListLegalSteps takes either
        applied = _apply(engine, LAST, dice, checker_moves=[pb.CheckerMove(from_point=1, to_point=0, die=die)])
        assert applied.HasField("outcome") and applied.move == listed.moves[0]
        steps = engine.ListLegalSteps(api.ListLegalStepsRequest(
            position=_pos(LAST), dice=dice, steps=[pb.CheckerMove(from_point=1, to_point=0, die=die)]),
            timeout=TIMEOUT)
        assert steps.complete and steps.move == listed.moves[0]


def test_one_checker_move_type_throughout():
    """Generated moves, the steps of a turn, the steps a frontend sends and a game's
    record use one type, CheckerMove (from, to, die, hit), which is still a plain tuple for the
    wire encoder's caches and the generator's speed."""
    from tavla.core import preset
    from tavla.core.game import Action, ActionKind, act, new_match
    from tavla.core.match.dice import given_dice
    from tavla.core.rules import movegen
    from tavla.core.rules import moves
    from tavla.core.rules import steps

    assert movegen.CheckerMove is CheckerMove and moves.CheckerMove is CheckerMove and steps.CheckerMove is CheckerMove
    for dice in ((6, 5), (3, 3)):
        for move in legal_moves(START, dice):
            assert all(type(s) is CheckerMove for s in move.steps) and not hasattr(move, "checker_moves")
    turn = legal_steps(START, (6, 5), [CheckerMove(24, 18)])
    assert turn.steps == (CheckerMove(24, 18, 6, False),) == ((24, 18, 6, False),)
    assert all(type(s) is CheckerMove for s in (*turn.steps, *turn.next_steps))
    state = act(new_match(preset("international"), 1), Action(ActionKind.START_GAME), dice=given_dice([6, 1])).state
    first = legal_steps(state.position, state.dice).next_steps[0]  # white's 6-1 from the roll-off
    state = act(state, Action(ActionKind.STEP, step=CheckerMove(first.from_point, first.to_point))).state
    assert state.steps == (first,) and type(state.steps[0]) is CheckerMove


def _random_game_positions(seed: int, count: int):
    """``count`` (position, dice) pairs of random games from the start (a finished game restarts)."""
    import random
    from tavla.core import GameOverError
    rng = random.Random(seed)
    pos = Position.initial()
    while count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        try:
            moves = legal_moves(pos, dice)
        except GameOverError:
            pos = Position.initial()
            continue
        yield pos, dice
        count -= 1
        pos = rng.choice(moves).result


def test_a_refused_drag_step_names_the_rule_apply_move_names_r4_r14():
    """A step of several dice (a drag: 24/12 with 3-3) refused by ListLegalSteps names the rule
    that stops it as ApplyMove does for the same leg written as a move (POINT_BLOCKED,
    BEAR_OFF_NOT_ALLOWED, ...), not only that no single die makes the distance."""
    compared = 0
    for pos, dice in _random_game_positions(7, 300):
        d1, d2 = dice
        sums = {d1 * k for k in (2, 3, 4)} if d1 == d2 else {d1 + d2}
        for f in range(1, 26):
            for dist in sums:
                t = max(f - dist, 0)
                try:
                    legal_steps(pos, dice, [CheckerMove(f, t)])
                    continue
                except IllegalMoveError as step_error:
                    refused = step_error.reason
                try:
                    resolve(pos, dice, notation.parse(f"{'bar' if f == 25 else f}/{t or 'off'}"))
                    continue
                except IllegalMoveError as move_error:
                    if move_error.reason in (IllegalReason.MUST_USE_BOTH_DICE, IllegalReason.MUST_USE_MORE_DICE,
                                             IllegalReason.MUST_USE_LARGER_DIE):
                        continue  # a whole move that is too short: not a step's question
                    assert refused is move_error.reason, (pos, dice, f, t, refused, move_error)
                    compared += 1
    assert compared > 200
