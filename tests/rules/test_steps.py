"""Checker-by-checker play (ListLegalSteps; seeds 001 Özet and 004): the legal next single-die
steps, each a prefix of a legal move (R4-R14), and the property that every path of offered steps
ends in exactly one of ListLegalMoves' moves, and every legal move is such a path.

Positions are drawn in each side's own numbering (R1), white on roll unless stated.
"""

from __future__ import annotations

import random

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards import position
from tavla.core import IllegalMoveError, IllegalReason, Position, CheckerMove, legal_moves, legal_steps
from tavla.core.ids import position_id
import rpc_api as api
from tavla.v1 import types_pb2 as pb

START = Position.initial()
TIMEOUT = 30


def steps(pos, dice, *done):
    return legal_steps(pos, dice, [CheckerMove(*d) for d in done])


def pairs(state):
    return {(s[0], s[1], s[2]) for s in state.next_steps}


# --- rules by number --------------------------------------------------------------------------


def test_opening_six_five_marks_every_first_step():
    # R2, R4, R5: from the start 6-5 may move 24/18, 13/7, 8/2 (six) or 13/8, 8/3 (five);
    # 24/19 lands on black's 6 point and 6/1 or 6/0... on black's 24 point: both held.
    s = steps(START, (6, 5))
    assert pairs(s) == {(24, 18, 6), (13, 7, 6), (8, 2, 6), (13, 8, 5), (8, 3, 5)}
    assert not s.complete and s.move is None and s.dice_left == (6, 5)


def test_two_steps_complete_the_move_and_name_it():
    s = steps(START, (6, 5), (24, 18), (18, 13))
    assert s.complete and s.next_steps == ()
    assert s.move is not None and s.move.notation == "24/13"
    assert s.steps == ((24, 18, 6, False), (18, 13, 5, False))
    assert s.position.on_roll == START.on_roll  # the same side is still on roll mid-turn


def test_taking_a_step_back_is_the_shorter_list():
    # 001 Özet: moves may be tried until the dice are lifted; the frontend drops steps.
    assert pairs(steps(START, (6, 5), (24, 18))) == {(18, 13, 5), (13, 8, 5), (8, 3, 5)}
    assert pairs(steps(START, (6, 5))) == pairs(legal_steps(START, (6, 5)))


def test_order_matters_003_six_one():
    # R7 (003's 6-1): a lone checker on 24, black holding our 18 and 22 (its 7 and 3): 24/23/17
    # works only with the 1 first, so 24/18 is not offered, and neither is 6/5 with the 1, which
    # would leave the 6 unplayable (no bearing off with a checker on 24, R11).
    pos = position(mover={24: 1, 6: 14}, other={7: 2, 3: 13})
    s = steps(pos, (6, 1))
    assert pairs(s) == {(24, 23, 1)}
    assert steps(pos, (6, 1), (24, 23)).next_steps == ((23, 17, 6, False),)


def test_bar_first_r8_r9():
    # R8: with a checker on the bar only entering steps are offered; R9: die n enters on 25 - n.
    pos = position(mover={13: 5, 8: 3, 6: 5, 24: 1}, other={6: 5, 5: 2, 8: 3, 13: 5}, mover_bar=1)
    s = steps(pos, (3, 4))
    assert {p[0] for p in pairs(s)} == {25}
    assert pairs(s) == {(25, 22, 3), (25, 21, 4)}


def test_gele_when_no_die_enters_r26():
    # 001 "gele": black holds its 1, 3, 4, 5 and 6 points (our 24, 22, 21, 20, 19); with a
    # checker on the bar 5-3 enters nowhere.
    pos = position(mover={13: 5, 8: 3, 6: 5, 11: 1}, other={6: 2, 5: 2, 4: 2, 3: 2, 1: 2, 13: 5},
                   mover_bar=1)
    s = steps(pos, (5, 3))
    assert s.gele and s.complete and s.next_steps == () and s.move.notation == ""
    assert not steps(pos, (2, 4)).gele  # the 2 enters on 23


def test_larger_die_when_only_one_can_be_played_r7():
    # R7: one checker on 24; either die plays alone, not both: only the 6 is offered.
    pos = position(mover={24: 1}, other={12: 2, 2: 13})
    s = steps(pos, (6, 5))
    assert pairs(s) == {(24, 18, 6)}
    with pytest.raises(IllegalMoveError) as err:
        steps(pos, (6, 5), (24, 19))
    assert err.value.reason is IllegalReason.MUST_USE_LARGER_DIE


def test_both_dice_must_be_played_r7():
    with pytest.raises(IllegalMoveError) as err:
        steps(START, (5, 1), (24, 23), (23, 18), (13, 8))
    assert err.value.reason is IllegalReason.WRONG_DICE  # the move was complete after two
    s = steps(START, (5, 1), (24, 23))
    assert not s.complete and s.dice_left == (5,)


def test_double_four_steps_r6():
    s = steps(START, (3, 3), (24, 21), (21, 18), (13, 10))
    assert not s.complete and s.dice_left == (3,)
    done = steps(START, (3, 3), (24, 21), (21, 18), (13, 10), (13, 10))
    assert done.complete and done.move.notation in {m.notation for m in legal_moves(START, (3, 3))}


def test_bear_off_two_dice_fit_takes_the_larger_r7_r12():
    # R12: checkers on 3 and 2 only, dice 6-5: the 6 and the 5 each bear off the checker on 3 (the
    # highest), and the die left bears off the one on 2 either way: a step naming no die is played
    # with the larger (R7), one naming the 5 with the 5; both end with every checker off.
    pos = position(mover={3: 1, 2: 1}, other={1: 15})
    s = steps(pos, (6, 5))
    assert {(3, 0, 6), (3, 0, 5)} <= pairs(s)
    larger = steps(pos, (6, 5), (3, 0))
    assert [tuple(x[:3]) for x in larger.steps] == [(3, 0, 6)] and larger.dice_left == (5,)
    assert steps(pos, (6, 5), (3, 0, 5)).dice_left == (6,)
    for first in ((3, 0), (3, 0, 5)):
        assert steps(pos, (6, 5), first, (2, 0)).complete


def test_blocked_step_names_its_rule_r5():
    with pytest.raises(IllegalMoveError) as err:
        steps(START, (5, 2), (24, 19))
    assert err.value.reason is IllegalReason.POINT_BLOCKED


def test_bear_off_before_home_r11():
    pos = position(mover={8: 1, 6: 14}, other={1: 15})
    with pytest.raises(IllegalMoveError) as err:
        steps(pos, (6, 1), (6, 0))
    assert err.value.reason is IllegalReason.BEAR_OFF_NOT_ALLOWED


# --- dragging: combined destinations, forced moves, final positions -------------------------


def test_drag_of_one_checker_with_both_dice_r4():
    # R4: the same checker may use both dice; 24->13 with 6-5 is 24/18/13 (19 is blocked)
    s = steps(START, (6, 5), (24, 13))
    assert s.complete and s.move.notation == "24/13"
    assert s.steps == ((24, 18, 6, False), (18, 13, 5, False))


def test_combined_destinations_carry_the_points_passed_r4():
    s = steps(START, (6, 5))
    combined = {(c.from_point, c.to_point, c.via) for c in s.combined}
    assert combined == {(24, 13, (18,)), (13, 2, (7,))}  # 13/8/2 reaches the same position
    for c in s.combined:  # each is a path of offered steps
        assert steps(START, (6, 5), *[(f, t, d) for f, t, d, _ in c.steps]).steps == c.steps


def test_combined_destinations_with_a_double_r6():
    s = steps(START, (2, 2))
    from_24 = {c.to_point: c.via for c in s.combined if c.from_point == 24}
    assert from_24 == {20: (22,), 18: (22, 20), 16: (22, 20, 18)}
    done = steps(START, (2, 2), (24, 16))
    assert done.complete and done.move.notation == "24/16"


def test_drag_prefers_the_route_without_an_unnamed_hit_r5():
    # 22->13 with 6-3: via 16 hits a blot, via 19 does not; the drag takes the quiet route
    pos = position(mover={22: 1, 13: 4, 6: 5, 8: 5}, other={9: 1, 13: 5, 8: 3, 5: 5, 24: 1})
    s = steps(pos, (6, 3), (22, 13))
    assert s.complete and s.move.hits == frozenset()


def test_drag_with_two_dice_that_no_route_allows_is_wrong_dice_r4():
    # 24->20 with 5-1: no die and no sum of dice makes 4
    with pytest.raises(IllegalMoveError) as err:
        steps(START, (5, 1), (24, 20))
    assert err.value.reason is IllegalReason.WRONG_DICE


def test_forced_move_and_forced_remainder():
    # one checker left on 24, black holds our 13: only 24/18 can be played (R7)
    pos = position(mover={24: 1}, other={12: 2, 2: 13})
    s = steps(pos, (6, 5))
    assert s.forced and s.forced_steps == ((24, 18, 6, False),)
    # from the start 6-5 has many moves; after 24/18 the 5 still has three
    assert not steps(START, (6, 5)).forced and not steps(START, (6, 5), (24, 18)).forced
    # 6-1 with a lone checker behind a block (003's example): the 6 after the 1 is forced
    pos = position(mover={24: 1, 6: 14}, other={7: 2, 3: 13})
    after = steps(pos, (6, 1), (24, 23))
    assert after.forced and after.forced_steps == ((23, 17, 6, False),)
    assert not after.complete and not steps(pos, (6, 1), (24, 23), (23, 17)).forced  # complete


def test_last_checker_off_by_the_larger_die_alone_is_accepted_r15():
    # The last checker on 3 with 1-4 -- both dice can be played (3/2/off), but 3/off
    # by the 4 ends the game the same way; it is accepted and completes to the listed move.
    pos = position(mover={3: 1}, other={1: 15})
    s = steps(pos, (1, 4), (3, 0))
    assert s.complete and s.steps == ((3, 0, 4, False),) and s.dice_left == (1,)
    assert s.move.steps == ((3, 2, 1, False), (2, 0, 4, False))
    assert (3, 0, 4, False) in steps(pos, (1, 4)).next_steps


def test_die_is_ignored_except_for_a_bear_off():
    # proto CheckerMove.die: read by ListLegalSteps only to pick the die of a bear-off; a wrong
    # die on 24/18 is ignored (the distance is the die), not "no die left moves a checker 24/18"
    s = steps(START, (6, 5), (24, 18, 5))
    assert s.steps == ((24, 18, 6, False),) and s.dice_left == (5,)
    pos = position(mover={3: 1, 2: 1}, other={1: 15})
    assert steps(pos, (6, 5), (3, 0, 6)).dice_left == (5,)
    assert steps(pos, (6, 5), (3, 0, 5)).dice_left == (6,)


def test_steps_with_smaller_die_first_all_complete_r7():
    # dice given smaller first and only one can be played: every step offered
    # completes to a legal move, and only the 6 is offered.
    pos = position(mover={24: 1}, other={12: 2, 2: 13})
    for dice in ((5, 6), (6, 5)):
        s = steps(pos, dice)
        assert s.next_steps == ((24, 18, 6, False),)
        boards = {m.board_after for m in legal_moves(pos, dice)}
        for f, t, d, _ in s.next_steps:
            done = steps(pos, dice, (f, t, d))
            assert done.complete and done.move.board_after in boards
        with pytest.raises(IllegalMoveError) as err:
            steps(pos, dice, (24, 19))
        assert err.value.reason is IllegalReason.MUST_USE_LARGER_DIE


def test_no_move_without_a_bar_checker_is_not_gele_r26():
    # nothing can move (18 and 19 held), but no checker is on the bar: not gele
    pos = position(mover={24: 1}, other={7: 2, 6: 2, 2: 11})
    s = steps(pos, (6, 5))
    assert s.complete and s.move.notation == "" and s.next_steps == ()
    assert not s.gele


# --- the property -----------------------------------------------------------------------------


def random_position(seed: int, plies: int) -> Position:
    """A position reached by ``plies`` random legal moves from the start (test data only)."""
    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(plies):
        moves = legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))
        after = rng.choice(moves).result
        if after.winner is not None:
            break
        pos = after
    return pos


def all_paths(pos, dice, done=()):
    """The boards every path of offered steps ends in (exhaustive)."""
    s = legal_steps(pos, dice, done)
    if s.complete:
        return [s.move.board_after]
    ends = []
    for step in s.next_steps:
        ends += all_paths(pos, dice, (*done, CheckerMove(step[0], step[1], step[2])))
    return ends


positions_and_dice = st.tuples(st.integers(0, 2**32), st.integers(0, 160), st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(positions_and_dice, st.randoms(use_true_random=False))
def test_any_path_of_steps_ends_in_exactly_one_legal_move(case, rng):
    seed, plies, d1, d2 = case
    pos = random_position(seed, plies)
    boards = {m.board_after for m in legal_moves(pos, (d1, d2))}
    done: list[CheckerMove] = []
    while True:
        s = legal_steps(pos, (d1, d2), done)
        if s.complete:
            break
        assert s.next_steps, "an incomplete turn must offer a step"
        step = rng.choice(s.next_steps)
        done.append(CheckerMove(step[0], step[1], step[2]))
    matches = [b for b in boards if b == s.move.board_after]
    assert len(matches) == 1


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(positions_and_dice)
def test_every_legal_move_is_a_path_of_steps(case):
    seed, plies, d1, d2 = case
    pos = random_position(seed, plies)
    ends = all_paths(pos, (d1, d2))
    assert set(ends) == {m.board_after for m in legal_moves(pos, (d1, d2))}
    start = legal_steps(pos, (d1, d2))  # forced at the start exactly when every path ends alike
    assert start.forced == (not start.complete and len(set(ends)) == 1)


# --- over gRPC --------------------------------------------------------------------------------


def _request(pos: Position, dice, done=()):
    return api.ListLegalStepsRequest(
        position=pb.Position(position_id=position_id.encode(pos), on_roll=int(pos.on_roll)), dice=dice,
        steps=[pb.CheckerMove(from_point=f, to_point=t, die=d) for f, t, d in done],
    )


def test_rpc_walk_ends_in_the_listed_move(engine):
    pos = Position.initial()
    response = engine.ListLegalSteps(_request(pos, [6, 5]), timeout=TIMEOUT)
    assert {(s.from_point, s.to_point, s.die) for s in response.next_steps} == pairs(steps(pos, (6, 5)))
    done = [(24, 18, 6), (18, 13, 5)]
    response = engine.ListLegalSteps(_request(pos, [6, 5], done), timeout=TIMEOUT)
    assert response.complete and not response.next_steps and not response.gele
    listed = engine.ListLegalMoves(api.ListLegalMovesRequest(position=_request(pos, [6, 5]).position, dice=[6, 5]),
                                   timeout=TIMEOUT)
    assert response.move in list(listed.moves)
    assert [(s.from_point, s.to_point, s.die, s.hit) for s in response.steps] == [
        (24, 18, 6, False), (18, 13, 5, False)]


def test_rpc_illegal_step_is_an_error_info(engine):
    with pytest.raises(grpc.RpcError) as info:
        engine.ListLegalSteps(_request(Position.initial(), [5, 2], [(24, 19, 0)]), timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "R5" in info.value.details()


def test_rpc_gele(engine):
    pos = position(mover={13: 5, 8: 3, 6: 5, 11: 1}, other={6: 2, 5: 2, 4: 2, 3: 2, 1: 2, 13: 5},
                   mover_bar=1)
    response = engine.ListLegalSteps(_request(pos, [5, 3]), timeout=TIMEOUT)
    assert response.gele and response.complete and response.move.notation == ""


def test_a_die_left_that_can_play_must_play_even_where_fewer_dice_reach_a_legal_end():
    """R7: own checkers on 2 and 1, roll 2-1. 2/off leaves the board 2/1 1/off leaves, but the 1
    can still bear the last checker off, so the turn is not over: 1/off is offered (and forced),
    and 2/off 1/off, a listed move, is a path of steps (found by the property tests)."""
    pos = position({2: 1, 1: 1}, {1: 4})
    assert {tuple(m.steps) for m in legal_moves(pos, (2, 1))} == {
        ((2, 0, 2, False), (1, 0, 1, False)), ((2, 1, 1, False), (1, 0, 2, False))}
    after = legal_steps(pos, (2, 1), (CheckerMove(2, 0, 2),))
    assert not after.complete and after.next_steps == ((1, 0, 1, False),)
    assert after.forced and after.forced_steps == ((1, 0, 1, False),)
    both_off = next(m for m in legal_moves(pos, (2, 1)) if m.steps[0] == (2, 0, 2, False))
    done = legal_steps(pos, (2, 1), (CheckerMove(2, 0, 2), CheckerMove(1, 0, 1)))
    assert done.complete and done.move == both_off
