"""At match play every level chooses by match equity at the score, not by money points: at
one point (double match point) a gammon is worth no more than a single win
(docs/analysis.md#equity)."""

from __future__ import annotations

import pytest

from tavla.analysis import player
from tavla.analysis.levels import Level
from tavla.core import MatchState, Position, Side, preset
from tavla.core.rules.variant import find_variant

pytest.importorskip("bgsage")


@pytest.fixture(autouse=True)
def _fresh_costs(monkeypatch):
    """Each test starts with no measured 2-ply cost: a slow spell of the shared machine in an
    earlier test must not make EXPERT fall back to 1 ply here."""
    monkeypatch.setattr(player, "_cost", {})

# Black on roll with 5-5 and two checkers on the bar against a weak board: at money it enters
# and attacks (bar/20(2) 8/3(2)) for the gammon; at one point it enters and runs (bar/15(2)),
# the move with the higher win chance.
BOARD = (0, -2, 0, 0, 0, 0, 5, 0, 4, 0, 0, 0, -5, 4, 0, 0, 0, -3, 0, -4, 0, 0, 0, 0, -1, 2)
DICE = (5, 5)


@pytest.mark.parametrize("rules_name", ["international", "turkish"])
@pytest.mark.parametrize("ply", [1, 2])
def test_at_one_point_the_choice_is_the_best_win_chance_not_the_money_best(rules_name, ply):
    rules = preset(rules_name)
    pos = Position(BOARD, Side.BLACK, find_variant(rules.variant))
    money, _ = player.evaluate_moves(pos, DICE, rules, MatchState(), ply)
    dmp, _ = player.evaluate_moves(pos, DICE, rules, MatchState(length=1), ply)
    assert money[0].move.notation == "bar/20(2) 8/3(2)"
    assert dmp[0].move.notation == "bar/15(2)"
    top = [m for m in dmp if m.ply == dmp[0].ply]
    assert dmp[0].probs.win == max(m.probs.win for m in top)
    # the equity at one point is the match winning chance on the game's scale: 2 * win - 1
    assert dmp[0].equity == pytest.approx(2 * dmp[0].probs.win - 1, abs=0.02)


@pytest.mark.parametrize("rules_name", ["international", "turkish"])
def test_the_expert_plays_the_one_point_move(rules_name):
    rules = preset(rules_name)
    pos = Position(BOARD, Side.BLACK, find_variant(rules.variant))
    s = player.suggest_move(pos, DICE, rules, MatchState(length=1), Level.EXPERT)
    assert s.ply == 2 and s.moves[0].move.notation == "bar/15(2)"
    s = player.suggest_move(pos, DICE, rules, MatchState(), Level.EXPERT)
    assert s.moves[0].move.notation == "bar/20(2) 8/3(2)"
