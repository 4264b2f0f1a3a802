"""The rules core: pure Python, no gRPC or protobuf (a test checks the imports).

Entry points: :class:`Position`, :func:`legal_moves`, :func:`resolve` (a named move to a legal
one), :func:`score_game`, :mod:`position_id`, :mod:`notation`, :class:`Ruleset`; the variants
(:class:`Variant`, :func:`find_variant`, :func:`register`; docs/variants.md).
"""

from tavla.core import notation, position_id
from tavla.core.errors import (
    GameNotOverError,
    GameOverError,
    RuleError,
    IllegalMoveError,
    IllegalReason,
    InvalidInputError,
    TavlaError,
)
from tavla.core.legality import resolve
from tavla.core.movegen import CheckerMove
from tavla.core.moves import Move, check_dice, legal_moves
from tavla.core.position import CHECKERS, Position, Side, SideView
from tavla.core.ruleset import KatmerliMarsRule, Ruleset, StartRule, preset
from tavla.core.backgammon import Backgammon, TurkishTavla
from tavla.core.variant import CodecError, Contact, Direction, Variant, find_variant, register, variants
from tavla.core.scoring import GameResult, ResultKind, score_game

# Match play (R3, R18-R26): steps, start, dice, cube, resignation, match score, clocks, names.
from tavla.core import clock, dice, dice_commit, names
from tavla.core.cube import CubeAction, CubeOptions, apply_cube_action, cube_options
from tavla.core.match import MatchUpdate, update_match
from tavla.core.match_state import Cube, MatchState, check_match
from tavla.core.outcome import GameEnding, GameOutcome, points_paid
from tavla.core.resign import ResignationOffer
from tavla.core.ruleset import PRESET_INFO, PresetInfo
from tavla.core.start import Start, start_game, start_with_given_dice
from tavla.core.steps import StepState, legal_steps
from tavla.core.violations import ActionReason, ClockError, CubeError, IllegalActionError

__all__ = [
    "CHECKERS", "CheckerMove", "ClockError", "CubeError", "GameNotOverError", "GameOverError", "RuleError", "GameResult", "IllegalMoveError",
    "IllegalReason", "InvalidInputError", "KatmerliMarsRule", "Move", "Position", "ResultKind",
    "Ruleset", "Side", "SideView", "StartRule", "TavlaError", "check_dice", "legal_moves",
    "notation", "position_id", "preset", "resolve", "score_game",
    # variants
    "Backgammon", "CodecError", "Contact", "Direction", "TurkishTavla", "Variant", "find_variant", "register",
    "variants",
    # match play
    "ActionReason", "Cube", "CubeAction", "CubeOptions", "GameEnding", "GameOutcome",
    "IllegalActionError", "MatchState", "MatchUpdate", "PRESET_INFO", "PresetInfo",
    "ResignationOffer", "Start", "StepState", "apply_cube_action", "check_match",
    "clock", "cube_options", "dice", "dice_commit", "legal_steps", "names", "points_paid",
    "start_game", "start_with_given_dice", "update_match",
]
