"""Portes, Greek backgammon (variants-rules.md "Portes"): backgammon's board, start, moves, hitting,
bar and bear-off, but no doubling cube and no backgammon: a win is 1 point, or 2 for a gammon
(the loser has borne off nothing), never 3.

variants-rules.md notes Ludii's reading (2 points "if the opponent has pieces in their starting
quadrant"); ours is the gammon of R15: the loser has borne off no checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import ResultKind, register

if TYPE_CHECKING:
    from tavla.core.rules.position import Position, Side


@register
class Portes(Backgammon):
    """Portes: backgammon without the cube and without the 3-point backgammon. Its moves are
    backgammon's (the compiled generator plays it); only :meth:`classify` and the class data
    differ."""

    name = "portes"
    aliases: ClassVar[tuple[str, ...]] = ("greek_backgammon",)
    title = "Portes"
    title_tr: ClassVar[str] = "Portes (Yunan tavlası)"
    cube = False
    kinds = (ResultKind.SINGLE, ResultKind.GAMMON)
    kind_names = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon"}
    preset_aliases = ("greek_backgammon",)
    description = ("Portes (Greek backgammon; Turkish: Yunan tavlası): backgammon's start and moves, no cube, "
                   "a gammon pays 2 and there is no backgammon (never 3).")

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        """Single if the loser has borne off a checker, else gammon (R15); a loser with a
        checker on the bar or in the winner's home board is still a gammon (no R16)."""
        return ResultKind.SINGLE if position.side(winner.other).off else ResultKind.GAMMON
