"""The worked examples of the five seed documents (../shared/seeds), as RULES.md numbers them.

Seed 001 numbers one side's points from the other side's home in its pictures; here every point
is in the mover's own numbering (R1), so 001's "point 1" of the side moving 1 -> 24 is our 24.
"""

from __future__ import annotations

from boards import notations, position
from tavla.core import Position, legal_moves


def test_001_five_five_cannot_leave_the_back_point():
    # R5, R6: at the start 5-5 cannot move the back checkers: 24/19 lands on the opponent's
    # 6 point, which holds five checkers.
    moves = legal_moves(Position.initial(), (5, 5))
    assert all(step[0] != 24 for m in moves for step in m.steps)
    assert "13/3(2)" in notations(moves)


def test_001_five_three_with_one_checker_three_first():
    # R4, R7: 5-3 takes a back checker 24/21/16, playing the 3 first; the 5 first is blocked.
    moves = {m.notation: m for m in legal_moves(Position.initial(), (5, 3))}
    run = moves["24/16"]
    assert [(s[0], s[1], s[2]) for s in run.steps] == [(24, 21, 3), (21, 16, 5)]


def test_001_bar_entry_gele_and_entry_with_a_matching_die():
    # R8, R9, R26 "gele": the opponent's home is closed except its points 1 and 2 (our 24, 23).
    # 5-3 enters nowhere: the only move is the empty one. 2-4 enters with the 2, then the 4 is
    # played by any checker.
    pos = position(
        mover={13: 4, 8: 3, 6: 5, 11: 2},
        other={6: 2, 5: 2, 4: 2, 3: 2, 13: 5, 8: 2},
        mover_bar=1,
    )
    gele = legal_moves(pos, (5, 3))
    assert len(gele) == 1 and gele[0].steps == ()
    assert gele[0].result.board == pos.swap_turn().board
    enter = legal_moves(pos, (2, 4))
    assert all(m.steps[0][:3] == (25, 23, 2) for m in enter)
    assert {"bar/23 13/9", "bar/23 8/4", "bar/23 6/2", "bar/19"} & notations(enter) == {
        "bar/23 13/9", "bar/23 8/4", "bar/23 6/2"
    }


def test_001_bear_off_exact_dice():
    # R12: 3-1 with checkers on 1 and 3 bears one off from each.
    pos = position(mover={1: 2, 3: 3, 4: 3}, other={1: 15})
    assert "3/off 1/off" in notations(legal_moves(pos, (3, 1)))


def test_001_bear_off_empty_point_with_higher_checkers_moves_inside():
    # R12: a 2 with no checker on 2 but checkers above must move a checker inside.
    pos = position(mover={1: 2, 3: 3, 4: 3}, other={1: 15})
    for m in legal_moves(pos, (2, 1)):
        for frm, to, die, _ in m.steps:
            assert die != 2 or to > 0, m.notation


def test_001_six_one_bears_off_highest_then_moves_one():
    # R12, R13: 6-1 with checkers only on 2, 3, 4: the 6 bears off from 4 (the highest), the 1
    # moves a checker from 2, 3 or 4 one point.
    pos = position(mover={2: 2, 3: 2, 4: 2}, other={1: 15})
    assert notations(legal_moves(pos, (6, 1))) == {"4/off 4/3", "4/off 3/2", "4/off 2/1"}


def test_003_six_five_bears_off_two_from_the_five_point():
    # R12: no checker on 6, two on 5: 6-5 bears off both from the 5 point.
    pos = position(mover={5: 2, 3: 4, 1: 4}, other={1: 15})
    assert notations(legal_moves(pos, (6, 5))) == {"5/off(2)"}


def test_003_six_one_lower_die_first():
    # R7 (order matters), R12: with a checker on 6, 6-1 may play 6/5 and bear that checker off
    # from 5 with the 6; both dice are used by one checker.
    pos = position(mover={6: 1, 3: 2, 2: 3}, other={1: 15})
    moves = {m.notation: m for m in legal_moves(pos, (6, 1))}
    assert [(s[0], s[1], s[2]) for s in moves["6/off"].steps] == [(6, 5, 1), (5, 0, 6)]
    assert "6/off 3/2" in moves


def test_002_double_plays_as_many_as_possible():
    # R6, R7: a double is played four times, or as often as it can be. Here only two 6s fit.
    # 8/2 and 12/6 are blocked, so the back checker goes 24/18/12 and stops.
    pos = position(mover={24: 1, 8: 14}, other={23: 2, 19: 2, 10: 11})
    moves = legal_moves(pos, (6, 6))
    assert notations(moves) == {"24/12"}
    assert moves[0].dice_used == 2


def test_002_several_checkers_on_the_bar():
    # R10: two on the bar and only the 3 enters: one enters, the other waits, nothing else moves.
    pos = position(mover={13: 10, 6: 3}, other={6: 2, 5: 2, 4: 2, 2: 2, 1: 2, 13: 5}, mover_bar=2)
    moves = legal_moves(pos, (3, 5))
    assert notations(moves) == {"bar/22"}
    # 3-3 enters both, then must play the remaining two 3s (R7 after R10).
    both = legal_moves(pos, (3, 3))
    assert {m.dice_used for m in both} == {4}
    assert all(sum(1 for s in m.steps if s[0] == 25) == 2 for m in both)


def test_004_bearing_off_is_not_compulsory():
    # R13: the 5 may move 6/1 inside home instead of bearing off from 5.
    pos = position(mover={6: 1, 5: 1, 2: 13}, other={1: 15})
    assert notations(legal_moves(pos, (5, 6))) == {"6/off 5/off", "6/1 5/off"}
