"""The game state machine: one immutable :class:`GameState` holding what a match needs to go on
(not its record: :mod:`tavla.core.game.record` keeps a digest of it), the legal :class:`Action`
of the side to act (:func:`list_actions`) and the next state (:func:`act`), one function per
action. Pure: no gRPC, no wall clock, no randomness of its own; the caller passes the dice source
and the time (docs/game-state.md). The referee over it is :mod:`tavla.referee`.
"""

from tavla.core.game.machine import act, check_state, list_actions, new_match
from tavla.core.game.verify import verify_game_dice
from tavla.core.game.state import (
    Action,
    ActionKind,
    GameState,
    Phase,
    Record,
    Timing,
    Transition,
    side_to_act,
)
from tavla.core.values import evolve

__all__ = [
    "Action", "ActionKind", "GameState", "Phase", "Record", "Timing", "Transition", "act",
    "check_state", "evolve", "list_actions", "new_match", "side_to_act", "verify_game_dice",
]
