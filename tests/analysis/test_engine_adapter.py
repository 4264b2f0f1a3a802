"""The bgsage adapter (tavla.analysis.engine): the board mapping, and the engine's answers on
positions whose right answer is known."""

from __future__ import annotations

import pytest

from tavla.analysis import engine, equity
from tavla.analysis.equity import Probabilities, Stakes
from tavla.core import Position, Side, SideView, legal_moves

bgsage = pytest.importorskip("bgsage")


def test_the_board_maps_with_one_sign_swapped_at_the_opponents_bar():
    # R1: white on roll, one black checker on the bar (our index 0 holds minus the count)
    white = SideView(tuple([0] * 5 + [5] + [0, 3] + [0] * 4 + [5] + [0] * 10 + [2]), 0, 0)
    black = SideView(tuple([0] * 5 + [5] + [0, 3] + [0] * 4 + [5] + [0] * 10 + [1]), 1, 0)
    pos = Position.from_sides(Side.WHITE, white, black)
    assert pos.board[0] == -1
    mapped = engine.to_engine(pos.board)
    assert mapped[0] == 1 and mapped[25] == 0 and mapped[1:25] == list(pos.board[1:25])
    assert engine.from_engine(mapped) == pos.board
    # bgsage's flip puts that checker on the flipped side's own bar (index 25)
    assert bgsage.flip_board(mapped)[25] == 1


def test_the_engine_lists_exactly_our_legal_moves():
    pos = Position.initial()
    for dice in [(6, 5), (3, 1), (2, 2), (6, 6)]:
        ours = {m.board_after for m in legal_moves(pos, dice)}
        theirs = {e.board_after for e in engine.shared().moves(pos, dice, Stakes(), 1)}
        assert theirs == ours, dice


def test_the_opening_six_five_runs_and_three_one_makes_the_five_point():
    e = engine.shared()
    pos = Position.initial()
    by_board = {m.board_after: m.notation for m in legal_moves(pos, (6, 5))}
    assert by_board[e.moves(pos, (6, 5), Stakes(), 1)[0].board_after] == "24/13"
    by_board = {m.board_after: m.notation for m in legal_moves(pos, (3, 1))}
    assert by_board[e.moves(pos, (3, 1), Stakes(), 1)[0].board_after] == "8/5 6/5"


def test_a_bearoff_position_is_a_sure_win_for_the_side_about_to_finish():
    # white has 1 checker on its 1 point, black 15 on its 19 point (white's 6): white rolls and wins
    white = SideView(tuple([1] + [0] * 23), 0, 14)
    black = SideView(tuple([0] * 18 + [15] + [0] * 5), 0, 0)
    pos = Position.from_sides(Side.WHITE, white, black)
    probs, cubeless, _ = engine.shared().pre_roll(pos, Stakes(cube=False), 1)
    assert probs.win == pytest.approx(1.0, abs=1e-3)
    assert probs.win_backgammon > 0.9  # black's checkers are all in white's home board (R16)
    assert cubeless == pytest.approx(3.0, abs=0.05)
    # R17: katmerli mars paid as mars: the same chances are worth 2
    assert equity.cubeless_equity(probs, Stakes(cube=False, backgammon_points=2)) == pytest.approx(2.0, abs=0.05)


def test_points_per_game_pays_a_backgammon_two_as_mars():
    p = Probabilities(0.6, 0.3, 0.1, 0.1, 0.0)
    assert equity.points_per_game(p, Stakes()) == pytest.approx(0.2 + 0.2 + 0.1)
    assert equity.points_per_game(p, Stakes(backgammon_points=2)) == pytest.approx(0.2 + 0.2)
    # the Jacoby rule with a centred cube: gammons pay single
    assert equity.points_per_game(p, Stakes(jacoby=True)) == pytest.approx(0.2)


def test_the_no_cube_match_table_is_symmetric_and_monotonic():
    assert equity.no_cube_met(5, 5) == pytest.approx(0.5)
    assert equity.no_cube_met(1, 5) > equity.no_cube_met(2, 5) > equity.no_cube_met(5, 5)
    assert equity.no_cube_met(3, 4) == pytest.approx(1 - equity.no_cube_met(4, 3))


def test_no_move_is_worth_a_gammon_the_rules_rule_out():
    # R16: black has borne off 5, so white cannot win a gammon; the race net still says ~0.17
    white = SideView((0, 2, 2, 2, 2, 2) + (0,) * 18, 0, 5)
    black = SideView((0,) * 5 + (2, 2, 2, 2, 2) + (0,) * 14, 0, 5)
    pos = Position.from_sides(Side.WHITE, white, black)
    for ply in (1, 2):
        moves = engine.shared().moves(pos, (6, 5), Stakes(), ply)
        assert all(m.probs.win_gammon == 0.0 and m.probs.win_backgammon == 0.0 for m in moves)
        assert all(m.equity <= 1.0 + 1e-6 for m in moves), [m.equity for m in moves]
