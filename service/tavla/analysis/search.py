"""A search player of our own for the variants bgsage has no net for (docs/analysis.md#variants):
marked as such in every answer (``EVALUATOR_SEARCH``).

It uses only the rules core: :func:`tavla.core.legal_moves` for the moves of any registered
variant and :meth:`Position.side <tavla.core.rules.position.Position.side>` for each side's
checkers in its own numbering, so it plays whatever variant the core has.

**Evaluation** (:func:`evaluate`), from one side's view, in rough points-per-game units:

* the race: the pip-count lead, relative to the pips left (a lead of 10 in 100 is worth more
  than in 300), and checkers borne off;
* the board: points made (two or more checkers), more for points in the home board, a bonus
  for six in a row at most once (a prime); checkers on the bar cost;
* exposure: single checkers (blots) cost where a variant's contact rule punishes them: under
  hitting (``Contact.HIT``) in proportion to the pips a hit loses (a blot on the side's point
  ``p`` goes back to the bar, 25 - p pips), under pinning (``Contact.PIN``) a flat cost, and
  nothing where a single checker is safe (``Contact.NONE``).

A finished game is worth its result (1, 2 or 3 points for the winner's side, from the core's
scoring of the variant).

**Search.** Ply 1 plays the move whose result evaluates best. Ply 2 is an expectimax: the best
:data:`CANDIDATES` moves by ply 1 are each scored by the average over the 21 rolls (doubles 1/36,
others 2/36) of the opponent's best reply (the one worst for us). Equities reported are these
scores; probabilities are a logistic estimate of the win chance from the score (no gammon
estimate: zero), so callers can tell them apart from a net's only by the evaluator field.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tavla.analysis.equity import Probabilities
from tavla.core.rules.moves import Move, legal_moves
from tavla.core.rules.position import Position, Side
from tavla.core.rules.variant import Contact, ResultKind

#: Moves ply 2 looks past the first ply.
CANDIDATES = 3
#: The 21 distinct rolls and their weights out of 36.
ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))

_PIP_WEIGHT = 1.2
_OFF_WEIGHT = 0.04
_POINT_WEIGHT = 0.025
_HOME_POINT_WEIGHT = 0.035
_PRIME_WEIGHT = 0.15
_BLOT_WEIGHT = 0.03
_BAR_WEIGHT = 0.12
_LOGISTIC = 2.5  # score -> win chance slope


def _side_score(position: Position, side: Side) -> float:
    view = position.side(side)
    variant = position.variant
    home = variant.home
    contact = variant.contact
    score = _OFF_WEIGHT * view.off - _BAR_WEIGHT * view.bar
    run = best_run = 0
    for i, n in enumerate(view.points):
        point = i + 1
        if n >= 2:
            score += _HOME_POINT_WEIGHT if point <= home else _POINT_WEIGHT
            run += 1
            best_run = max(best_run, run)
        else:
            run = 0
            if n == 1 and contact is Contact.HIT:
                score -= _BLOT_WEIGHT * 2.0 * (25 - point) / 24.0
            elif n == 1 and contact is Contact.PIN:
                score -= _BLOT_WEIGHT
    if best_run >= 6:
        score += _PRIME_WEIGHT
    return score


def evaluate(position: Position, side: Side) -> float:
    """The worth of ``position`` to ``side`` (module docstring), whoever is on roll."""
    winner = position.winner
    if winner is not None:
        kind = position.variant.classify(position, winner)
        points = {ResultKind.SINGLE: 1.0, ResultKind.GAMMON: 2.0, ResultKind.BACKGAMMON: 3.0}[kind]
        return points if winner is side else -points
    mine, theirs = position.pip_count(side), position.pip_count(side.other)
    race = _PIP_WEIGHT * (theirs - mine) / max(40.0, (mine + theirs) / 2.0)
    return race + _side_score(position, side) - _side_score(position, side.other)


def win_estimate(score: float) -> Probabilities:
    """A logistic estimate of the win chance for a score (gammon chances not estimated: 0)."""
    win = 1.0 / (1.0 + math.exp(-_LOGISTIC * max(-20.0, min(20.0, score))))
    return Probabilities(win, 0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Scored:
    """A move and its score for the mover at the depth searched."""

    move: Move
    score: float
    ply: int


def _reply_value(position: Position, me: Side) -> float:
    """Expected worth to ``me`` of ``position`` with the opponent on roll, each roll answered by
    its best reply (for the opponent) at ply 1."""
    if position.winner is not None:
        return evaluate(position, me)
    total = 0.0
    for dice, weight in ROLLS:
        replies = legal_moves(position, dice)
        total += weight * min(evaluate(m.result, me) for m in replies)
    return total / 36.0


def rank(position: Position, dice: Sequence[int], ply: int = 1) -> list[Scored]:
    """The legal moves of ``position`` with ``dice``, best first for the side on roll.

    :param ply: 1 (greedy) or 2 (expectimax over the opponent's 21 rolls for the best
        :data:`CANDIDATES`; the rest keep their ply-1 score and follow).
    :raises InvalidInputError: bad dice.
    :raises GameOverError: the game is over.
    """
    me = position.on_roll
    moves = legal_moves(position, dice)
    first = sorted((Scored(m, evaluate(m.result, me), 1) for m in moves), key=lambda s: -s.score)
    if ply < 2 or len(first) == 1:
        return first
    deep = [Scored(s.move, _reply_value(s.move.result, me), 2) for s in first[:CANDIDATES]]
    deep.sort(key=lambda s: -s.score)
    return deep + first[CANDIDATES:]


def pre_roll(position: Position) -> float:
    """The side on roll's expected score before its roll: the average over the 21 rolls of its
    best ply-1 move."""
    me = position.on_roll
    total = 0.0
    for dice, weight in ROLLS:
        total += weight * max(evaluate(m.result, me) for m in legal_moves(position, dice))
    return total / 36.0
