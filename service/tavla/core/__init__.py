"""The rules core: pure Python, no gRPC or protobuf (a test checks the imports); the distribution
tavla-rules on its own (service/pyproject.toml; docs/library.md: the API in ten lines).

Entry points: :class:`Position`, :func:`legal_moves`, :func:`resolve` (a named move to a legal
one), :func:`score_game`, :mod:`position_id`, :mod:`notation`, :class:`Ruleset`; the variants
(:class:`Variant`, :func:`find_variant`, :func:`register`; docs/variants.md).
"""

from tavla.core.rules import notation
from tavla.core.ids import position_id
from tavla.core.errors import (
    GameNotOverError,
    GameOverError,
    RuleError,
    IllegalMoveError,
    IllegalReason,
    InvalidInputError,
    TavlaError,
)
from tavla.core.rules.legality import resolve
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.moves import Move, check_dice, legal_moves
from tavla.core.rules.position import CHECKERS, Position, Side, SideView
from tavla.core.match.ruleset import KatmerliMarsRule, Ruleset, StartRule, preset
from tavla.core.rules.backgammon import Backgammon, TurkishTavla
from tavla.core.rules.variant import CodecError, Contact, Direction, Variant, find_variant, register, variants
from tavla.core.rules.scoring import GameResult, ResultKind, score_game

# Match play (R3, R18-R26): steps, start, dice, cube, resignation, match score, clocks, names.
from tavla.core.match import clock
from tavla.core.match import dice
from tavla.core.match import dice_commit
from tavla.core.i18n import names
from tavla.core.match.cube import CubeAction, CubeOptions, apply_cube_action, cube_options
from tavla.core.match.score import MatchUpdate, update_match
from tavla.core.match.state import Cube, MatchState, check_match
from tavla.core.rules.outcome import GameEnding, GameOutcome, points_paid
from tavla.core.match.resign import ResignationOffer
from tavla.core.match.ruleset import PRESET_INFO, PresetInfo
from tavla.core.match.start import Start, start_game, start_with_given_dice
from tavla.core.rules.steps import StepState, legal_steps
from tavla.core.match.violations import ActionReason, ClockError, CubeError, IllegalActionError

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
