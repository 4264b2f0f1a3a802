"""The game state machine: one immutable :class:`GameState` holding everything a game needs,
the legal :class:`Action` of the side to act (:func:`list_actions`) and the next state
(:func:`act`), one function per action. Pure: no gRPC, no wall clock, no randomness of its own;
the caller passes the dice source and the time (docs/game-state.md).
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

__all__ = [
    "Action", "ActionKind", "GameState", "Phase", "Record", "Timing", "Transition", "act",
    "check_state", "list_actions", "new_match", "side_to_act", "verify_game_dice",
]
