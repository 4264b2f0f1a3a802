"""The rules core: pure Python, no gRPC or protobuf (a test checks the imports).

Entry points: :class:`Position`, :func:`legal_moves`, :func:`resolve` (a named move to a legal
one), :func:`score_game`, :mod:`position_id`, :mod:`notation`, :class:`Ruleset`.
"""

from tavla.core import notation, position_id
from tavla.core.errors import (
    GameNotOverError,
    IllegalMoveError,
    IllegalReason,
    InvalidInputError,
    TavlaError,
)
from tavla.core.legality import resolve
from tavla.core.moves import CheckerMove, Move, check_dice, legal_moves
from tavla.core.position import CHECKERS, Position, Side, SideView
from tavla.core.ruleset import KatmerliMarsRule, Ruleset, StartRule, preset
from tavla.core.scoring import GameResult, ResultKind, score_game

__all__ = [
    "CHECKERS", "CheckerMove", "GameNotOverError", "GameResult", "IllegalMoveError",
    "IllegalReason", "InvalidInputError", "KatmerliMarsRule", "Move", "Position", "ResultKind",
    "Ruleset", "Side", "SideView", "StartRule", "TavlaError", "check_dice", "legal_moves",
    "notation", "position_id", "preset", "resolve", "score_game",
]
