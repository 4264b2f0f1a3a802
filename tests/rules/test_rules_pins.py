"""Rule-stating tests that pin behaviour mutation testing found unpinned (docs/reliability.md).

Each test states the rule it pins; together with tests/support/rules_reference.py (a brute-force
statement of R4-R12) they kill the surviving mutants of the move-legality modules that are not
equivalent.
"""

from __future__ import annotations

import random

import pytest

from boards import position
from rules_reference import reference
from tavla.core import (
    CheckerMove,
    IllegalMoveError,
    IllegalReason,
    InvalidInputError,
    Position,
    Side,
    check_dice,
    legal_moves,
    legal_steps,
    resolve,
)
from tavla.core.rules import movegen
from tavla.core.rules import notation

START = Position.initial()


def _reachable(seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = START
    for _ in range(plies):
        after = rng.choice(legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))).result
        if after.winner is not None:
            break
        pos = after
    return pos


# 400 fixed (position, roll) pairs spread over a game: openings, contact, bar, bear-off
PAIRS = [(_reachable(seed, seed % 160), (1 + seed % 6, 1 + seed * 7 // 6 % 6)) for seed in range(400)]


def test_generator_matches_the_brute_force_reference_r4_r12():
    # R4-R12 and R6/R7 for the whole turn: the listed moves are exactly the reference's plays
    for pos, (d1, d2) in PAIRS:
        assert {m.board_after for m in legal_moves(pos, (d1, d2))} == reference(pos.board, d1, d2), \
            (pos, d1, d2)


# --- movegen: entering, landing on the 1 point, bearing off --------------------------------------


def test_entering_hits_a_blot_r9():
    # R9: a checker may hit a blot while entering; die 3 enters on 22, where black has a blot
    pos = position(mover={13: 5, 8: 3, 6: 6}, other={3: 1, 6: 5, 8: 3, 13: 5, 24: 1}, mover_bar=1)
    texts = {m.notation for m in legal_moves(pos, (3, 5))}
    assert "bar/22* 13/8" in texts


def test_moving_to_the_one_point_is_not_bearing_off_r4_r11():
    # a checker lands on point 1 (not off) while others are outside; a blot there is hit
    pos = position(mover={3: 1, 13: 14}, other={24: 1, 1: 14})
    moves = legal_moves(pos, (2, 6))
    assert "13/7 3/1*" in {m.notation for m in moves}
    (hit,) = [m for m in moves if m.notation == "13/7 3/1*"]
    assert hit.board_after[1] == 1 and hit.board_after[0] == -1  # one white there, black on the bar


def test_one_checker_higher_blocks_a_larger_bear_off_r12():
    # R12: a 6 bears off from 4 only when nothing stands on 5 or 6; a single checker on 5 does
    pos = position(mover={5: 1, 4: 3}, other={1: 15})
    for m in legal_moves(pos, (6, 1)):  # the checker on 5 moves first, or nothing is borne off
        assert m.board_after[5] == 0 or all(s[1] != 0 for s in m.steps), m.notation


def test_no_bear_off_with_a_checker_outside_r11():
    pos = position(mover={9: 1, 6: 14}, other={1: 15})
    assert all(s[1] != 0 for m in legal_moves(pos, (6, 1)) for s in m.steps)
    # a double: the checker on 10 needs all four 1s to come home, so nothing is borne off
    pos = position(mover={10: 1, 6: 2, 1: 12}, other={1: 15})
    assert all(s[1] != 0 for m in legal_moves(pos, (1, 1)) for s in m.steps)


@pytest.mark.parametrize("mover, dice, text", [
    ({7: 1, 6: 14}, (1, 6), "7/off"),   # the 1 brings the last checker home from 7, then the 6
    ({8: 1, 6: 14}, (2, 6), "8/off"),   # ... landing on 6
    ({7: 1, 1: 14}, (1, 1), "7/6 1/off(3)"),  # a double: after 7/6 the rest bear off
])
def test_the_last_checker_home_lets_the_next_die_bear_off_r11(mover, dice, text):
    assert text in {m.notation for m in legal_moves(position(mover=mover, other={1: 15}), dice)}


def test_a_double_that_cannot_move_is_one_empty_move_r7():
    # black holds white's entry points 19-24: a bar checker and 4-4 play nothing
    pos = position(mover={6: 14}, other={6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}, mover_bar=1)
    (move,) = legal_moves(pos, (4, 4))
    assert move.steps == () and move.board_after == pos.board


def test_partial_doubles_keep_every_play_of_the_most_dice_r6_r7():
    # 6-6 with checkers on 24, 20 and 13: 12 and 7 are held, so fewer than four 6s play, in
    # several ways; the reference lists them all
    pos = position(mover={24: 2, 20: 1, 13: 2, 6: 10}, other={13: 2, 18: 2, 6: 11})
    moves = legal_moves(pos, (6, 6))
    assert {m.board_after for m in moves} == reference(pos.board, 6, 6)
    assert len({m.dice_used for m in moves}) == 1


# --- legality: single-step rules and routes -------------------------------------------------------


def test_a_point_with_exactly_two_is_blocked_r5():
    # black's 24 point (our 1) holds exactly two: 6/1 is blocked, not a bear-off
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (5, 2), notation.parse("6/1 13/11"))
    assert err.value.reason is IllegalReason.POINT_BLOCKED


def test_a_leg_off_may_use_the_exact_sum_of_two_dice_r12():
    pos = position(mover={6: 1, 1: 14}, other={1: 15})
    assert resolve(pos, (4, 2), notation.parse("6/off")).dice_used == 2  # 6/2/off or 6/4/off


def test_a_leg_may_use_three_dice_of_a_double_r6():
    assert resolve(START, (3, 3), notation.parse("13/4 24/21")).notation == "24/21 13/4"


def test_messages_name_the_leg_and_the_rule():
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (5, 1), notation.parse("24/20 13/12"))
    assert str(err.value) == "'24/20 13/12' with 5-1: 24/20: the dice do not move a checker 24/20"
    on_bar = position(mover={13: 5, 8: 3, 6: 5, 24: 1}, other={6: 5, 5: 2, 8: 3, 13: 5}, mover_bar=1)
    with pytest.raises(IllegalMoveError) as err:
        resolve(on_bar, (6, 4), notation.parse("13/7 8/4"))
    assert str(err.value) == ("'13/7 8/4' with 6-4: 13/7: a checker on the bar must enter before 13 "
                              "moves (R8)")
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (5, 1), notation.parse(""))
    assert str(err.value) == "'(no move)' plays 0 of the dice; 2 can be played (R6, R7)"
    with pytest.raises(IllegalMoveError) as err:
        resolve(on_bar, (6, 4), notation.parse("bar/19 13/9"))
    assert "bar/19" in str(err.value) and "R5, R9" in str(err.value)


# --- steps --------------------------------------------------------------------------------------


def test_steps_hit_flags_r5():
    # bearing off never hits, even with a black checker on the bar; landing on a blot on 1 does
    pos = position(mover={3: 2, 2: 1}, other={24: 14}, other_bar=1)
    assert all(not s[3] for s in legal_steps(pos, (3, 6)).next_steps if s[1] == 0)
    pos = position(mover={3: 1, 13: 14}, other={24: 1, 1: 14})
    assert (3, 1, 2, True) in legal_steps(pos, (2, 6)).next_steps


def test_steps_position_is_the_board_after_the_steps():
    s = legal_steps(START, (6, 5), [CheckerMove(24, 18)])
    expected = list(START.board)
    expected[24], expected[18] = 1, 1
    assert s.position.board == tuple(expected)
    assert (s.position.board[24], s.position.board[18]) == (1, 1) and s.position.on_roll == START.on_roll


def test_combined_routes_to_off_and_from_the_one_point():
    pos = position(mover={3: 1}, other={1: 15})
    assert {(c.from_point, c.to_point, c.via) for c in legal_steps(pos, (1, 4)).combined} == {(3, 0, (2,))}
    pos = position(mover={2: 1}, other={1: 15})
    assert {(c.from_point, c.to_point, c.via) for c in legal_steps(pos, (1, 1)).combined} == {(2, 0, (1,))}


def test_forced_move_of_two_steps_003():
    # 003's 6-1: a lone checker on 24 behind black's 18 and 22: only 24/23/17 -- forced from the start
    pos = position(mover={24: 1, 6: 14}, other={7: 2, 3: 13})
    s = legal_steps(pos, (6, 1))
    assert s.forced and s.forced_steps == ((24, 23, 1, False), (23, 17, 6, False))


def test_drag_that_two_hitting_routes_make_is_ambiguous_r5():
    pos = position(mover={22: 1, 13: 4, 8: 5, 6: 5}, other={9: 1, 6: 1, 13: 5, 8: 3, 5: 5})
    with pytest.raises(IllegalMoveError) as err:
        legal_steps(pos, (6, 3), [CheckerMove(22, 13)])
    assert err.value.reason is IllegalReason.AMBIGUOUS_MOVE


# --- notation and dice input --------------------------------------------------------------------


def test_notation_input_bounds():
    with pytest.raises(InvalidInputError):
        notation.parse("13/13")  # not forward (R4)
    assert len(notation.parse("6/2(4)")) == 4  # a double moves up to four checkers (R6)
    with pytest.raises(InvalidInputError):
        notation.parse("6/2(5)")
    assert notation.parse("24/23" + " " * 195) == notation.parse("24/23")  # 200 characters: read
    with pytest.raises(InvalidInputError):
        notation.parse("24/23" + " " * 196)
    with pytest.raises(InvalidInputError) as err:
        notation.parse("0/3")
    assert err.value.field == "move.notation" and "out of range" in err.value.reason


def test_dice_bounds():
    with pytest.raises(InvalidInputError) as err:
        check_dice((7, 1))
    assert err.value.field == "dice" and "7" in err.value.reason
    with pytest.raises(InvalidInputError) as err:
        check_dice((1,))
    assert err.value.field == "dice" and "two dice" in err.value.reason
    assert check_dice((6, 1)) == (6, 1)


# --- the second mutation run: rules the first pins left open -----------------------------------


@pytest.mark.parametrize("mover, other, dice, used", [
    ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (6, 5), 2),  # the opening: both dice
    ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (3, 3), 4),  # a double: four (R6)
    ({24: 1}, {12: 2, 2: 13}, (6, 5), 1),  # only one die can be played (R7)
    ({24: 1}, {7: 2, 6: 2, 2: 11}, (6, 5), 0),  # nothing can be played
])
def test_the_generator_reports_the_dice_a_legal_move_uses_r6_r7(mover, other, dice, used):
    # movegen.generate's documented return: (dice used, {resulting board: steps})
    pos = position(mover=mover, other=other)
    count, results = movegen.generate(pos.board, *dice)
    assert count == used and all(len(steps) == used for steps in results.values())


def test_a_named_hit_is_preferred_to_an_unnamed_one_r5():
    # 8/2* with 5-1: via 3 (open) or via 7 (a blot, hit on the way); the written move names only
    # the hit on 2, so the route without the unnamed hit is meant; 8/7*/2* names both
    pos = position(mover={8: 1, 6: 14}, other={18: 1, 23: 1, 1: 13})
    assert resolve(pos, (5, 1), notation.parse("8/2*")).hits == {2}
    assert resolve(pos, (5, 1), notation.parse("8/7*/2*")).hits == {7, 2}


def test_a_leg_off_may_overshoot_with_its_last_die_r12():
    # 5/off with 4-2: 5/1/off or 5/3/off, the last die larger than the distance left
    pos = position(mover={5: 1}, other={1: 15})
    move = resolve(pos, (4, 2), notation.parse("5/off"))
    assert move.notation == "5/off" and move.dice_used == 2


def test_steps_keep_the_side_on_roll_and_name_no_move_before_the_end():
    # black on roll: the position after a step is still black's turn (R1: its own numbering)
    pos = position(mover={24: 2, 13: 5, 8: 3, 6: 5}, other={24: 2, 13: 5, 8: 3, 6: 5}, on_roll=Side.BLACK)
    s = legal_steps(pos, (6, 5), [CheckerMove(24, 18)])
    assert s.position.on_roll is Side.BLACK and not s.complete and s.move is None
    # 2/off with 2-1 reaches the board of a legal move, but the 1 can still play: not the end (R7)
    s = legal_steps(position(mover={2: 1, 1: 1}, other={1: 4}), (2, 1), [CheckerMove(2, 0, 2)])
    assert not s.complete and s.move is None


def test_steps_bear_off_only_after_the_last_checker_comes_home_r11():
    # 1-6 with one checker on 7: 6/off is not offered first, though 7/6 6/off ends on its board
    pos = position(mover={7: 1, 6: 14}, other={1: 15})
    s = legal_steps(pos, (1, 6))
    assert {s[:3] for s in s.next_steps} == {(7, 1, 6), (7, 6, 1), (6, 5, 1)}
    assert (6, 0, 6) in {s[:3] for s in legal_steps(pos, (1, 6), [CheckerMove(7, 6)]).next_steps}


def test_combined_destinations_after_entering_with_a_double_r6_r8():
    # black enters bar/19 with 6-6 (hitting); each checker outside can go on with two or three of
    # the three 6s left: 21/15/9(/3) and 19/13/7(/1) (seed 004: every destination is marked)
    pos = position(mover={1: 4, 2: 7, 6: 2, 21: 1}, mover_bar=1,
                   other={21: 1, 20: 4, 18: 1, 16: 1, 13: 1, 6: 1, 5: 1, 3: 1, 2: 3, 1: 1}, on_roll=Side.BLACK)
    s = legal_steps(pos, (6, 6), [CheckerMove(25, 19)])
    assert s.next_steps == ((21, 15, 6, False), (19, 13, 6, False)) and not s.forced
    assert {(c.from_point, c.to_point, c.via) for c in s.combined} == {
        (21, 9, (15,)), (21, 3, (15, 9)), (19, 7, (13,)), (19, 1, (13, 7))}


@pytest.mark.parametrize("dice", [(4, 6), (6, 4)])
def test_last_checker_off_with_either_die_takes_the_larger(dice):
    """R7, R15: black's last checker on its 1 point, dice 4 and 6: either die bears it off and ends
    the game, so a step that names no die is not ambiguous; it is played with the larger, whatever
    the order the dice are given in (moves and steps agree)."""
    from tavla.core.ids import position_id
    pos = position_id.decode("v34YAAABAAAAAA", Side.BLACK)
    state = legal_steps(pos, dice, [CheckerMove(1, 0)])
    assert state.complete
    assert [tuple(s[:3]) for s in state.steps] == [(1, 0, 6)]
