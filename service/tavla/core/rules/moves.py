"""Legal moves of a position and roll, as values (R4-R14 of RULES.md), by the position's variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from tavla.core.rules import movegen
from tavla.core.errors import GameOverError, InvalidInputError
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.notation import format_steps
from tavla.core.rules.position import Board, Position


@dataclass(frozen=True, slots=True)
class Move:
    """A legal play of a whole roll.

    :ivar steps: the single-die checker moves, in an order in which they can be played.
    :ivar board_after: the board after the move, still in the mover's view (internal key).
    :ivar mover: the position the move was played from.
    """

    steps: tuple[CheckerMove, ...]
    board_after: Board
    mover: Position = field(compare=False)

    @property
    def notation(self) -> str:
        """Standard notation, e.g. ``24/18 13/9*``; ``""`` for the empty move."""
        mover = self.mover
        return format_steps(self.steps, mover.variant.chains_as_played(mover.board))

    @property
    def result(self) -> Position:
        """The position after the move, with the opponent on roll."""
        mover = self.mover
        variant = mover.variant
        return Position(variant.flip(self.board_after), mover.on_roll.other, variant)

    @property
    def hits(self) -> frozenset[int]:
        """Points (mover's numbering) where this move hits."""
        return frozenset(s[1] for s in self.steps if s[3])

    @property
    def dice_used(self) -> int:
        return len(self.steps)


def check_dice(dice: Sequence[int], field_name: str = "dice") -> tuple[int, int]:
    """Validate a roll: exactly two values, each 1-6.

    :raises InvalidInputError: otherwise.
    """
    if len(dice) != 2:
        raise InvalidInputError(field_name, f"needs exactly two dice, got {len(dice)}")
    for d in dice:
        if not 1 <= d <= 6:
            raise InvalidInputError(field_name, f"die {d} is not 1-6 in {list(dice)}")
    return dice[0], dice[1]


def check_not_over(position: Position) -> None:
    """:raises GameOverError: a side has won: borne off all its checkers (R15), or by the
    variant's rule (plakoto's mother); or the game is drawn (plakoto: both mothers pinned)."""
    winner = position.winner
    if winner is not None:
        variant = position.variant
        if variant.ending(position, winner) == "mother_pinned":
            raise GameOverError(winner, "has won: the other side's mother is pinned on its start point",
                                variant.checkers, "mother_pinned")
        raise GameOverError(winner, checkers=variant.checkers)
    if position.drawn:
        raise GameOverError(None, "a draw: both mothers are pinned on their start points", position.variant.checkers)


def legal_moves(position: Position, dice: Sequence[int]) -> list[Move]:
    """Every legal move for ``position`` and ``dice``, one per distinct resulting position, by
    the rules of ``position.variant`` (:func:`tavla.core.rules.movegen.generate`).

    Never empty: when no die can be played (R7) the list holds one empty move whose result is
    the same board with the opponent on roll. The order is the generator's: deterministic,
    first dice played from the highest points first.

    :raises InvalidInputError: bad dice.
    :raises GameOverError: a side has already borne off all its checkers: nothing is left to play (R15).
    """
    d1, d2 = check_dice(dice)
    check_not_over(position)
    _, results = movegen.generate(position.board, d1, d2, position.variant)
    return [Move(steps, board, position) for board, steps in results.items()]
