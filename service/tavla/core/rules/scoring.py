"""End of game and scoring (R15-R17, R20 of RULES.md).

The kind of a win is the position's variant's (``Variant.classify``); what a kind pays comes
from the :class:`~tavla.core.match.ruleset.Ruleset` (R17: katmerli mars counted or paid as mars).
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core.errors import GameNotOverError
from tavla.core.rules.position import Position, Side
from tavla.core.match.ruleset import KatmerliMarsRule, Ruleset
from tavla.core.rules.variant import ResultKind

__all__ = ["GameResult", "ResultKind", "classify", "points_for", "score_game"]


_BASE_POINTS = {ResultKind.SINGLE: 1, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 3}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: who won, how, and the points before the cube (1, 2 or 3)."""

    winner: Side
    kind: ResultKind
    points: int


def points_for(kind: ResultKind, ruleset: Ruleset) -> int:
    """Points a result of ``kind`` pays with the cube at 1 (R15-R17)."""
    if kind is ResultKind.BACKGAMMON and ruleset.katmerli_mars is KatmerliMarsRule.AS_MARS:
        return 2
    return _BASE_POINTS[kind]


def classify(position: Position, winner: Side) -> ResultKind:
    """The kind of win for ``winner`` against the other side as the checkers stand, by the
    position's variant (``Variant.classify``; backgammon: R15 single if the loser has borne off
    a checker, else gammon (mars); R16 backgammon (katmerli mars) if the loser has borne off
    none and has a checker on the bar or in the winner's home board)."""
    return position.variant.classify(position, winner)


def score_game(position: Position, ruleset: Ruleset) -> GameResult:
    """Score a finished game.

    :raises GameNotOverError: neither side has won (borne off all its checkers, R15).
    """
    winner = position.winner
    if winner is None:
        white, black = (position.borne_off(side) for side in (Side.WHITE, Side.BLACK))
        raise GameNotOverError(
            f"the game is not over: {white} white and {black} black checkers are off, a win needs "
            f"{position.variant.checkers} (R15)"
        )
    kind = classify(position, winner)
    return GameResult(winner, kind, points_for(kind, ruleset))
