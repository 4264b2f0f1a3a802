"""Resignations: a side offers to lose a single game, a gammon or a backgammon; the other
side accepts, ending the game with that kind at the cube's value, or rejects and play goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core.match.state import MatchState, require_not_over
from tavla.core.rules.outcome import GameEnding, GameOutcome
from tavla.core.rules.position import Side
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.scoring import ResultKind
from tavla.core.match.violations import ActionReason, IllegalActionError


@dataclass(frozen=True, slots=True)
class ResignationOffer:
    """``side`` offers to lose a game of ``kind``."""

    side: Side
    kind: ResultKind

    def outcome(self) -> GameOutcome:
        """The game's end if the offer is accepted."""
        return GameOutcome(self.side.other, GameEnding.RESIGNATION, self.kind)


def check_resignable(state: MatchState) -> None:
    """:raises IllegalActionError: ``MATCH_OVER``, or ``DOUBLE_PENDING``: while a double awaits
    its answer the only ways out of the game are take, drop (R19) or a forfeit, so a resignation
    can be neither offered nor accepted (else the game would end in an outcome the match score
    refuses)."""
    require_not_over(state)
    doubler = state.cube.offered_by
    if doubler is not None:
        raise IllegalActionError(ActionReason.DOUBLE_PENDING,
                                 f"{doubler.name.lower()}'s double awaits its answer: take or drop "
                                 "before resigning (R19)")


def answer(state: MatchState, rules: Ruleset, offer: ResignationOffer, accept: bool) -> GameOutcome | None:
    """The game's end when ``accept``, else ``None``: the offer lapses and play goes on.

    :raises IllegalActionError: ``MATCH_OVER``, ``DOUBLE_PENDING`` (:func:`check_resignable`).
    """
    check_resignable(state)
    return offer.outcome() if accept else None
