"""End of game and scoring (R15-R17), and the katmerli-mars option."""

from __future__ import annotations

import pytest

from boards import position
from tavla.core import (
    GameNotOverError,
    KatmerliMarsRule,
    Position,
    ResultKind,
    Ruleset,
    Side,
    legal_moves,
    score_game,
)

COUNTED = Ruleset()
AS_MARS = Ruleset(katmerli_mars=KatmerliMarsRule.AS_MARS)


def finished(loser: dict, loser_bar: int = 0) -> Position:
    """White has borne off all 15 and black (``loser``, own numbering) is on roll."""
    return position(mover=loser, other={}, mover_bar=loser_bar, on_roll=Side.BLACK)


@pytest.mark.parametrize(
    "loser, bar, kind, counted, as_mars",
    [
        ({6: 3, 1: 2}, 0, ResultKind.SINGLE, 1, 1),  # R15: the loser has borne off 10
        ({6: 10, 5: 5}, 0, ResultKind.GAMMON, 2, 2),  # R15: none off, all home: mars
        ({12: 15}, 0, ResultKind.GAMMON, 2, 2),  # none off, none in white's home
        ({6: 14, 19: 1}, 0, ResultKind.BACKGAMMON, 3, 2),  # R16: one in white's home board
        ({6: 14}, 1, ResultKind.BACKGAMMON, 3, 2),  # R16: one on the bar
        ({6: 13, 19: 1}, 0, ResultKind.SINGLE, 1, 1),  # one off: single even with a checker back
        ({6: 14, 18: 1}, 0, ResultKind.GAMMON, 2, 2),  # white's 7 point is outside its home board
        ({6: 14, 24: 1}, 0, ResultKind.BACKGAMMON, 3, 2),  # R16: white's 1 point is in it
    ],
)
def test_score_kinds(loser, bar, kind, counted, as_mars):
    pos = finished(loser, bar)
    result = score_game(pos, COUNTED)
    assert (result.winner, result.kind, result.points) == (Side.WHITE, kind, counted)
    assert score_game(pos, AS_MARS).points == as_mars  # R17


def test_not_over():
    with pytest.raises(GameNotOverError):
        score_game(Position.initial(), COUNTED)


def test_last_checker_off_ends_the_game():
    # white bears off its last checker with a 6 (R12: highest point), black never bore off
    pos = position(mover={2: 1}, other={6: 10, 1: 5})
    (move,) = [m for m in legal_moves(pos, (6, 5)) if m.notation == "2/off"]
    result = move.result
    assert result.winner is Side.WHITE and result.on_roll is Side.BLACK
    assert score_game(result, COUNTED).kind is ResultKind.GAMMON
