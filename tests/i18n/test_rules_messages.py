"""What a player is told when a move or a step is refused: the reason and the exact sentence.

The reason (``IllegalReason``) and the message of an illegal move are what a user sees (the
server sends them in ``ErrorInfo`` and the status details), so each diagnosis is pinned here with
its full text, one case per path: the rule broken (R4-R14, each cited), the dice that do not make
the distance, too many checkers, R7's three "use more dice" cases, ambiguity, input out of range.
Points are named as in notation: ``bar`` for 25, ``off`` for 0 (R1). Together with
tests/rules/test_rules_pins.py these kill the message mutants of the rules core (docs/reliability.md).
"""

from __future__ import annotations

import pytest

from boards import position
from tavla.core import (
    GameNotOverError,
    GameOverError,
    IllegalMoveError,
    IllegalReason,
    InvalidInputError,
    Position,
    Side,
    CheckerMove,
    legal_moves,
    legal_steps,
    preset,
    resolve,
    score_game,
)
from tavla.core.rules import notation
from tavla.core.rules.notation import Leg

R = IllegalReason
START = Position.initial()
# one white checker on the bar; black holds its 6 and 5 points (our 19 and 20)
ON_BAR = position(mover={13: 5, 8: 3, 6: 5, 24: 1}, other={6: 5, 5: 2, 8: 3, 13: 5}, mover_bar=1)
# gele (R26): on the bar, black holds our 24, 22, 21, 20, 19: 5-3 enters nowhere
GELE = position(mover={13: 5, 8: 3, 6: 5, 11: 1}, other={6: 2, 5: 2, 4: 2, 3: 2, 1: 2, 13: 5}, mover_bar=1)
# nothing can move and nothing is on the bar: 24/18 and 24/19 land on held points (R5)
STUCK = position(mover={24: 1}, other={7: 2, 6: 2, 2: 11})
# one checker on 24; 24/18 or 24/19 but not both (our 13 held): only one die plays, the larger (R7)
LARGER = position(mover={24: 1}, other={12: 2, 2: 13})
# 003's 6-1: a lone checker on 24 behind black's 18 and 22: the 1 must go first (24/23/17)
LONE = position(mover={24: 1, 6: 14}, other={7: 2, 3: 13})
# a blot of black's on our 16 and on our 19: 22/13 with 6-3 hits on either way
TWO_BLOTS = position(mover={22: 1, 13: 4, 8: 5, 6: 5}, other={9: 1, 6: 1, 13: 5, 8: 3, 5: 5})
# all home: two checkers on 6, three on 4, two on 2
HOME = position(mover={6: 2, 4: 3, 2: 2}, other={1: 15})
# thirteen home and two outside, on 8 and 7 (R11)
NOT_HOME = position(mover={8: 1, 7: 1, 6: 4, 5: 3, 4: 3, 3: 3}, other={1: 15})
# black holds our 18 and 19: 24/13 with 6-5 is blocked whichever die goes first
BOTH_BLOCKED = position(mover={24: 2, 13: 5, 8: 3, 6: 5}, other={7: 2, 6: 2, 13: 5, 8: 3, 2: 3})


def _refused(call, *args):
    with pytest.raises(IllegalMoveError) as err:
        call(*args)
    return err.value.reason, str(err.value)


def _steps(pos, dice, *done):
    return legal_steps(pos, dice, [CheckerMove(*d) for d in done])


# --- ListLegalSteps: a step that no legal move starts with ----------------------------------------


@pytest.mark.parametrize("pos, dice, done, reason, message", [
    # R5: the step lands on a point black holds
    (START, (5, 2), [(24, 19)], R.POINT_BLOCKED,
     "step 1 (24/19) with a 5: point 19 is held by two or more opposing checkers (R5, R9)"),
    # R9: entering on a held point; R8: another checker moves while one is on the bar
    (ON_BAR, (6, 4), [(25, 19)], R.POINT_BLOCKED,
     "step 1 (bar/19) with a 6: point 19 is held by two or more opposing checkers (R5, R9)"),
    (ON_BAR, (3, 4), [(13, 10)], R.MUST_ENTER_FROM_BAR,
     "step 1 (13/10) with a 3: a checker on the bar must enter before 13 moves (R8)"),
    # R11 with two dice that could bear off from 3: the larger is named
    (NOT_HOME, (6, 5), [(3, 0)], R.BEAR_OFF_NOT_ALLOWED,
     "step 1 (3/off) with a 6: no checker may bear off before all 15 are home (R11, R14)"),
    # R12: a 6 bears off from 4 only when nothing stands higher (the 6 point is not empty)
    (HOME, (6, 1), [(4, 0)], R.BEAR_OFF_NOT_ALLOWED,
     "step 1 (4/off) with a 6: a 6 bears off from 4 only when no checker stands higher (R12)"),
    # R4: no checker of the mover there
    (START, (5, 1), [(22, 17)], R.NO_CHECKER_THERE,
     "step 1 (22/17) with a 5: no checker of the side on roll on 22 (R4)"),
    (START, (5, 1), [(25, 20)], R.NO_CHECKER_THERE,
     "step 1 (bar/20) with a 5: no checker of the side on roll on bar (R4)"),
    # ... also where the one legal move is the last checker borne off by one die (R15)
    (position(mover={3: 1}, other={1: 15}), (1, 4), [(24, 20)], R.NO_CHECKER_THERE,
     "step 1 (24/20) with a 4: no checker of the side on roll on 24 (R4)"),
    # R4: no die left and no sum of the dice makes the distance
    (START, (5, 1), [(24, 20)], R.WRONG_DICE,
     "step 1 (24/20): no die left (5-1) or dice in turn move a checker 24/20"),
    (ON_BAR, (3, 4), [(25, 16)], R.WRONG_DICE,
     "step 1 (bar/16): no die left (4-3) or dice in turn move a checker bar/16"),
    (HOME, (2, 1), [(6, 0)], R.WRONG_DICE,
     "step 1 (6/off): no die left (2-1) or dice in turn move a checker 6/off"),
    # R7: the turn is over once the dice a legal move uses are played
    (START, (5, 1), [(24, 23), (23, 18), (13, 8)], R.WRONG_DICE,
     "step 3 (13/8): the move is already complete with 2 dice; no more can be played (R7)"),
    # R15: the last checker borne off by the 4 ends the turn (and the game) after one die
    (position(mover={3: 1}, other={1: 15}), (1, 4), [(3, 0, 4), (5, 3)], R.WRONG_DICE,
     "step 2 (5/3): the move is already complete with 1 dice; no more can be played (R7)"),
    # a complete (empty) move still names the rule a step after it breaks: gele (R8, R26) ...
    (GELE, (5, 3), [(13, 8)], R.MUST_ENTER_FROM_BAR,
     "step 1 (13/8) with a 5: a checker on the bar must enter before 13 moves (R8)"),
    # ... and nothing can move without a bar checker (R5)
    (STUCK, (6, 5), [(24, 18)], R.POINT_BLOCKED,
     "step 1 (24/18) with a 6: point 18 is held by two or more opposing checkers (R5, R9)"),
    # R7: a legal single step after which the other die cannot be played
    (LONE, (6, 1), [(6, 5)], R.MUST_USE_BOTH_DICE,
     "step 1 (6/5) with a 1 leaves the other die unplayable; both can be played (R7)"),
    # R7: only one die can be played: the larger, whichever order the dice are given in
    (LARGER, (5, 6), [(24, 19)], R.MUST_USE_LARGER_DIE,
     "step 1 (24/19) plays the 5; only one die can be played, so the larger 6 (R7)"),
    (LARGER, (6, 5), [(24, 19)], R.MUST_USE_LARGER_DIE,
     "step 1 (24/19) plays the 5; only one die can be played, so the larger 6 (R7)"),
    # a drag of two dice through a blocked point: the rule, as ApplyMove names it (R5)
    (START, (3, 3), [(24, 12)], R.POINT_BLOCKED,
     "step 1 (24/12): point 12 is held by two or more opposing checkers (R5, R9)"),
    # a drag while a checker on the bar cannot enter (gele: nothing can be played, R8)
    (GELE, (6, 6), [(13, 1)], R.MUST_ENTER_FROM_BAR,
     "step 1 (13/1): a checker on the bar must enter before 13 moves (R8)"),
    # a bear-off drag before every checker is home (R11)
    (START, (3, 3), [(6, 0)], R.BEAR_OFF_NOT_ALLOWED,
     "step 1 (6/off): no checker may bear off before all 15 are home (R11, R14)"),
    # one checker dragged 22->13 hits on either route (R5): the steps must be given
    (TWO_BLOTS, (6, 3), [(22, 13)], R.AMBIGUOUS_MOVE,
     "step 1 (22/13): 22/16/13, 22/19/13 end differently; give the steps one by one"),
])
def test_refused_step_names_the_step_the_die_and_the_rule(pos, dice, done, reason, message):
    assert _refused(_steps, pos, dice, *done) == (reason, message)


@pytest.mark.parametrize("done, message", [
    ([(13, 13)], "step 1 (13/13): from must be 1-24 or 25 (bar), to 0 (off) or 1-24, and forward (R4)"),
    ([(8, 13)], "step 1 (8/13): from must be 1-24 or 25 (bar), to 0 (off) or 1-24, and forward (R4)"),
    ([(26, 20)], "step 1 (26/20): from must be 1-24 or 25 (bar), to 0 (off) or 1-24, and forward (R4)"),
    ([(0, 0)], "step 1 (off/off): from must be 1-24 or 25 (bar), to 0 (off) or 1-24, and forward (R4)"),
    ([(24, 18), (13, -1)], "step 2 (13/-1): from must be 1-24 or 25 (bar), to 0 (off) or 1-24, and forward (R4)"),
    ([(24, 18, 7)], "step 1 (24/18): die 7 is not 1-6"),
])
def test_step_outside_the_board_is_bad_input_r1_r4(done, message):
    with pytest.raises(InvalidInputError) as err:
        _steps(START, (6, 5), *done)
    assert (err.value.field, err.value.reason) == ("steps", message)


def test_a_step_from_the_bar_is_on_the_board_r8_r9():
    # the bar (25) is a legal start: bar/22 with the 3, then the 4 is left
    s = _steps(ON_BAR, (3, 4), (25, 22))
    assert s.steps == ((25, 22, 3, False),) and s.dice_left == (4,)


def test_die_6_is_a_die():
    assert _steps(START, (6, 5), (24, 18, 6)).dice_left == (5,)


# --- ApplyMove: a named move no legal move fits ---------------------------------------------------


@pytest.mark.parametrize("pos, dice, text, reason, message", [
    # R4: more checkers than dice
    (START, (5, 1), "24/18 13/8 6/5", R.WRONG_DICE, "'24/18 13/8 6/5' moves 3 checkers with 5-1"),
    # R7: complete, but with fewer dice than a legal move uses
    (START, (6, 5), "24/18", R.MUST_USE_BOTH_DICE, "'24/18' plays one die of 6-5; both can be played (R7)"),
    (LARGER, (5, 6), "24/19", R.MUST_USE_LARGER_DIE,
     "'24/19' plays the smaller die of 5-6; only one can be played, so the larger (R7)"),
    (START, (4, 4), "13/9 13/9", R.MUST_USE_MORE_DICE, "'13/9 13/9' plays 2 of the dice; 4 can be played (R6, R7)"),
    # one checker's hop of two 2s (13/11/9) with two 2s left over (R6)
    (START, (2, 2), "13/9", R.MUST_USE_MORE_DICE, "'13/9' plays 2 of the dice; 4 can be played (R6, R7)"),
    (position(mover={1: 2}, other={1: 15}), (1, 1), "1/off", R.MUST_USE_MORE_DICE,
     "'1/off' plays 1 of the dice; 2 can be played (R6, R7)"),
    # R4: the named points, point by point
    (HOME, (2, 1), "6/off", R.WRONG_DICE, "'6/off' with 2-1: 6/off: the dice do not move a checker 6/off"),
    (START, (6, 5), "24/18/13/8", R.WRONG_DICE, "'24/18/13/8' with 6-5: more movement than the dice give"),
    (START, (5, 2), "bar/20/18", R.NO_CHECKER_THERE,
     "'bar/20/18' with 5-2: bar/20/18: no checker of the side on roll on bar (R4)"),
    (position(mover={1: 1}, other={1: 15}), (1, 5), "1/off 3/off", R.NO_CHECKER_THERE,
     "'1/off 3/off' with 1-5: 3/off: no checker of the side on roll on 3 (R4)"),
    # R11 for a leg off that the dice overshoot: 5/1/off or 5/3/off, with 9 still outside
    (position(mover={9: 1, 5: 1}, other={1: 15}), (4, 2), "5/off", R.BEAR_OFF_NOT_ALLOWED,
     "'5/off' with 4-2: 5/off: no checker may bear off before all 15 are home (R11, R14)"),
    # the larger die is tried first: both 18 and 19 are held, the 6's failure is named
    (BOTH_BLOCKED, (6, 5), "24/13", R.POINT_BLOCKED,
     "'24/13' with 6-5: 24/13: point 18 is held by two or more opposing checkers (R5, R9)"),
    (BOTH_BLOCKED, (5, 6), "24/13", R.POINT_BLOCKED,
     "'24/13' with 5-6: 24/13: point 18 is held by two or more opposing checkers (R5, R9)"),
    # the failure after the most steps: 23/17 is held, 23/18 is open and 18/12 then held
    (position(mover={23: 1, 24: 1, 13: 5, 8: 3, 6: 5}, other={24: 2, 13: 5, 8: 3, 6: 5}), (6, 5), "23/12",
     R.POINT_BLOCKED, "'23/12' with 6-5: 23/12: point 12 is held by two or more opposing checkers (R5, R9)"),
    # a finished leg written first: the second leg fails after it (R9 after entering), not before
    (position(mover={13: 5, 8: 3, 6: 5, 24: 1}, other={6: 2, 16: 2, 13: 5, 8: 4}, mover_bar=1), (3, 4),
     "bar/22 13/9", R.POINT_BLOCKED,
     "'bar/22 13/9' with 3-4: 13/9: point 9 is held by two or more opposing checkers (R5, R9)"),
    # R8: two on the bar, both must enter before 24/23
    (position(mover={13: 5, 8: 3, 6: 5}, other={6: 2, 5: 2, 4: 2, 13: 5, 8: 4}, mover_bar=2), (1, 1),
     "bar/24 bar/24 24/23", R.MUST_USE_MORE_DICE, "'bar/24 bar/24 24/23' plays 3 of the dice; 4 can be played (R6, R7)"),
    # ambiguity: 22/13 fits two legal moves, each hitting on the way
    (TWO_BLOTS, (6, 3), "22/13", R.AMBIGUOUS_MOVE, "'22/13' fits 2 legal moves: 22/19*/13, 22/16*/13"),
])
def test_refused_move_names_the_move_the_dice_and_the_rule(pos, dice, text, reason, message):
    assert _refused(resolve, pos, dice, notation.parse(text)) == (reason, message)


def test_a_double_moves_at_most_four_checkers_r6():
    # legs given directly (not parsed, which stops at four): five checkers with 1-1
    assert _refused(resolve, START, (1, 1), [Leg((6, 5))] * 5) == (
        R.WRONG_DICE, "'6/5 6/5 6/5 6/5 6/5' moves 5 checkers with 1-1")


# --- notation, game over ----------------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("13/bar", "a checker cannot move to the bar in '13/bar'"),
    ("24/20/bar", "a checker cannot move to the bar in '24/20/bar'"),
    ("26/20", "point 26 is out of range in '26/20'"),
    ("13/25", "point 25 is out of range in '13/25'"),
    ("6/2 x", "cannot read 'x' in '6/2 x'"),
])
def test_notation_errors_quote_the_input_r1(text, message):
    with pytest.raises(InvalidInputError) as err:
        notation.parse(text)
    assert (err.value.field, err.value.reason) == ("move.notation", message)


def test_a_finished_game_has_no_moves_r15():
    won = position(mover={1: 1}, other={})  # black has borne off all 15
    with pytest.raises(GameOverError) as err:
        legal_moves(won, (2, 1))
    assert str(err.value) == "the game is over: black has borne off all 15 checkers (R15)"
    assert err.value.winner is Side.BLACK


def test_scoring_an_unfinished_game_says_how_many_are_off_r15():
    pos = position(mover={6: 13}, other={6: 12})  # white has 2 off, black 3
    with pytest.raises(GameNotOverError) as err:
        score_game(pos, preset("backgammon"))
    assert str(err.value) == "the game is not over: 2 white and 3 black checkers are off, a win needs 15 (R15)"
