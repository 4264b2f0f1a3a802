"""How a game ended and what it pays (R15-R17, R19, R20; resignations and forfeits).

A game ends when a side bears off all 15 (the kind comes from :func:`tavla.core.score_game`),
when the variant's own rule ends it (plakoto: a pinned mother loses, two pinned mothers draw),
when a double is dropped, when a resignation is accepted, or on a forfeit (a clock ran out, a
player left). :func:`points_paid` is what the ending is worth before any cap at the match length.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavla.core.match.state import MatchState
from tavla.core.rules.position import Side
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.scoring import ResultKind, points_for


class GameEnding(enum.Enum):
    """How a game ended."""

    BORNE_OFF = "borne_off"  # the winner bore off all 15 (R15-R17)
    DROP = "drop"  # the doubled side dropped: the doubler wins the cube value (R19)
    RESIGNATION = "resignation"  # a resignation of a kind was accepted
    FORFEIT_GAME = "forfeit_game"  # the loser forfeited the game (clock preset A, R23): as a resignation
    FORFEIT_MATCH = "forfeit_match"  # the loser forfeited the match (clock preset B, R24; left the table)
    MOTHER_PINNED = "mother_pinned"  # plakoto: the loser's mother was pinned on its start point (2 points)
    DRAW = "draw"  # plakoto: both mothers pinned; no winner, nothing scored, the game is replayed


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The end of a game: the winner, how, and the kind (single, gammon, backgammon).

    For a drop the kind is single; for a forfeit it is the kind the loser gives up (single
    unless the caller says otherwise). ``winner`` is ``None`` exactly for a draw
    (:attr:`GameEnding.DRAW`), which pays nothing.
    """

    winner: Side | None
    ending: GameEnding
    kind: ResultKind = ResultKind.SINGLE


def kind_points(kind: ResultKind, state: MatchState, rules: Ruleset) -> int:
    """Points of ``kind`` with the cube at 1 under ``rules``: 1, 2 or 3 (R15-R17).

    The Jacoby rule (money play only) pays a gammon or backgammon as a single while the cube
    has not been turned: while it is centred (automatic doubles leave it centred, as GNU
    Backgammon counts them).
    """
    if rules.jacoby and state.money and state.cube.owner is None:
        return 1
    return points_for(kind, rules)


def points_paid(outcome: GameOutcome, state: MatchState, rules: Ruleset) -> int:
    """What ``outcome`` pays the winner (R20: result x cube).

    A drop pays the cube value before the double (R19). A match forfeit pays the points the
    winner still needs; in money play it pays as a resignation of its kind.
    """
    if outcome.winner is None:  # a draw: nothing is paid (plakoto's two mothers)
        return 0
    if outcome.ending is GameEnding.DROP:
        return state.cube.value
    if outcome.ending is GameEnding.FORFEIT_MATCH and not state.money:
        return state.away(outcome.winner)
    return kind_points(outcome.kind, state, rules) * state.cube.value
