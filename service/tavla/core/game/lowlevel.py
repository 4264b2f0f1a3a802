"""The older single-purpose RPCs' requests as game states (docs/game-state.md, "The low-level
layer").

Each older RPC carries a part of a state: a position, dice and steps (ListLegalSteps,
ApplyMove, RollDice), or a match and a side (ListCubeActions, ApplyCubeAction, the resignation
RPCs, UpdateMatch). These functions build the :class:`GameState` such a request describes -- the
phase and the side to act follow from its fields -- so that the RPC calls the state machine's
function for its action (:mod:`tavla.core.game.machine`) and every rule is checked in one place.

The RPCs call the per-action functions, not :func:`~tavla.core.game.act`: a low-level request
names the acting side itself, and the rule it breaks (``NOT_YOUR_DECISION``,
``NO_DOUBLE_PENDING``, ...) is its answer, where ``act`` answers ``NOT_YOUR_TURN`` or
``WRONG_PHASE`` first.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla.core.errors import InvalidInputError
from tavla.core.game.state import GameState, Phase
from tavla.core.match.state import MatchState, check_match
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.position import Position, Side
from tavla.core.match.resign import ResignationOffer
from tavla.core.match.ruleset import Ruleset


def unscored_match(rules: Ruleset) -> MatchState:
    """The match of a request that gives none: money play at cube 1, or where the ruleset has no
    money play (turkish), a 1-point match; either way a game pays its kind x 1."""
    try:
        return check_match(MatchState(), rules)
    except InvalidInputError:
        return MatchState(length=1)


def moving(rules: Ruleset, position: Position, dice: Sequence[int], steps: Sequence[CheckerMove] = (),
           match: MatchState | None = None) -> GameState:
    """The side on roll of ``position`` moving with ``dice``, ``steps`` made so far (phase
    MOVING). The steps are checked when the state is used (:func:`~tavla.core.game.machine.turn`).

    :param match: the request's match, when it gives one (it prices a game's end).
    """
    variant = rules.variant_class  # the ruleset's variant plays the position
    if position.variant is not variant:
        position = Position(position.board, position.on_roll, variant)
    return GameState(ruleset=rules, match=match or unscored_match(rules), phase=Phase.MOVING,
                     position=position, dice=tuple(dice), steps=tuple(steps))


def deciding(rules: Ruleset, match: MatchState, side: Side) -> GameState:
    """The state a match describes for ``side``'s cube or resignation request: while a double
    is pending, phase CUBE_DECISION with the doubler on roll (the side to act answers it); else
    ROLL_OR_DOUBLE with ``side`` on roll; MATCH_OVER once the match is won."""
    pending = match.cube.roller
    phase = (Phase.MATCH_OVER if match.over else Phase.CUBE_DECISION if pending is not None
             else Phase.ROLL_OR_DOUBLE)
    return GameState(ruleset=rules, match=match, phase=phase, position=Position.initial(pending or side))


def answering(rules: Ruleset, match: MatchState, offer: ResignationOffer) -> GameState:
    """The state in which the other side answers ``offer`` (phase RESIGNATION_DECISION, made
    before the offerer rolled)."""
    return GameState(ruleset=rules, match=match, phase=Phase.RESIGNATION_DECISION,
                     position=Position.initial(offer.side), resignation=offer, resume=Phase.ROLL_OR_DOUBLE)
