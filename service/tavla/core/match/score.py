"""Match score (R18, R20, R21): the state after a finished game.

A game pays its kind x the cube (katmerli rule and Jacoby applied, :mod:`tavla.core.rules.outcome`).
In match play the winner scores what it paid, but never past the match length: points won in
excess do not carry (R18). When a side first reaches length - 1 the next game is the Crawford
game (R21, with the cube and the Crawford rule on); the games after it are post-Crawford.
Under the Turkish start rule the winner starts the next game (R3).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavla.core.errors import InvalidInputError
from tavla.core.match.state import Cube, MatchState, check_match, require_not_over
from tavla.core.rules.outcome import GameEnding, GameOutcome, points_paid
from tavla.core.rules.position import Side
from tavla.core.match.ruleset import Ruleset, StartRule


@dataclass(frozen=True, slots=True)
class MatchUpdate:
    """The match after a game.

    :ivar state: the state for the next game (cube centred), or the finished match.
    :ivar points_paid: what the game paid: kind x cube, a drop the cube, a match forfeit the
        points the winner needed.
    :ivar points_scored: what was added to the winner's score: ``points_paid`` capped at the
        points the winner needed (R18).
    :ivar next_starter: the side that starts the next game without a roll-off (Turkish start
        rule, R3), else ``None``.
    """

    state: MatchState
    points_paid: int
    points_scored: int
    next_starter: Side | None


def update_match(state: MatchState, rules: Ruleset, outcome: GameOutcome) -> MatchUpdate:
    """The match after a game that ended with ``outcome``.

    :raises InvalidInputError: an inconsistent ``state`` (:func:`check_match`).
    :raises IllegalActionError: ``MATCH_OVER``.
    """
    check_match(state, rules)
    require_not_over(state)
    _check_outcome(state, rules, outcome)
    paid = points_paid(outcome, state, rules)
    winner = outcome.winner
    if winner is None:  # a draw (plakoto): nothing scored, the cube centred, the game replayed
        if outcome.ending is not GameEnding.DRAW:
            raise InvalidInputError("outcome.winner", f"a game that ends by {outcome.ending.value} has a winner")
        # the replay is the next game: it counts as played (so its dice come from a new game's
        # secret, the drawn game's being revealed), the score and the last winner stay
        return MatchUpdate(replace(state, cube=Cube(), games_played=state.games_played + 1), 0, 0, None)
    if state.money:
        scored = paid
        over = outcome.ending is GameEnding.FORFEIT_MATCH
    else:
        scored = min(paid, state.away(winner))
        over = scored == state.away(winner)
    scores = list(state.scores)
    scores[0 if winner is Side.WHITE else 1] += scored
    crawford = False
    post_crawford = state.post_crawford or state.crawford
    if (not over and not post_crawford and rules.crawford_in_play and state.length > 1
            and state.length - 1 in scores):
        crawford = True  # R21: a side has just reached length - 1
    after = replace(
        state, scores=(scores[0], scores[1]), crawford=crawford, post_crawford=post_crawford and not over,
        cube=Cube(), previous_winner=winner, games_played=state.games_played + 1,
        winner=winner if over else None,
    )
    turkish = rules.start is StartRule.TURKISH
    return MatchUpdate(after, paid, scored, winner if turkish and not over else None)


def _check_outcome(state: MatchState, rules: Ruleset, outcome: GameOutcome) -> None:
    """A drop is won by the side that doubled (R19): the one that offered, or one that could
    double (the cube centred or its own; with beavers in money play a raccoon is doubled by the
    side that does not own the cube); a double awaiting its answer ends the game only by a
    drop or a forfeit.

    A game's kind must be one the ruleset's variant has (portes: no backgammon).

    :raises InvalidInputError: otherwise (field ``outcome.winner``, ``outcome.ending`` or
        ``outcome.kind``).
    """
    variant = rules.variant_class
    if outcome.kind not in variant.kinds:
        raise InvalidInputError("outcome.kind", f"{variant.name} has no {outcome.kind.value}: "
                                                f"{', '.join(k.value for k in variant.kinds)}")
    cube = state.cube
    if outcome.ending is GameEnding.DRAW and outcome.winner is not None:
        raise InvalidInputError("outcome.winner", "a draw has no winner")
    if outcome.ending in (GameEnding.DRAW, GameEnding.MOTHER_PINNED) and rules.variant_class.contact.value != "pin":
        raise InvalidInputError("outcome.ending", f"{outcome.ending.value} ends only a pinning game (plakoto), "
                                                  f"not {rules.variant}")
    if outcome.ending is GameEnding.DROP:
        doubler = cube.offered_by
        if doubler is not None and outcome.winner is not doubler:
            raise InvalidInputError("outcome.winner", f"{doubler.name.lower()} doubled, so a drop is "
                                                      f"won by {doubler.name.lower()} (R19)")
        raccoon = state.money and rules.beavers
        if doubler is None and cube.owner is not None and cube.owner is not outcome.winner and not raccoon:
            who = outcome.winner.name.lower() if outcome.winner else "nobody"
            raise InvalidInputError("outcome.winner", f"{cube.owner.name.lower()} owns the cube, so "
                                                      f"{who} cannot have doubled (R19)")
    elif cube.offered_by is not None and outcome.ending in (GameEnding.BORNE_OFF, GameEnding.RESIGNATION):
        raise InvalidInputError("outcome.ending", "a double awaits its answer: take or drop first (R19)")
