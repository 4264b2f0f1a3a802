"""Print the unsigned GameState bytes (base64) that scenarios/game.json sends, built with the rules
core as a server in state mode off would (the live test server runs in mode off).

    .venv-test/bin/python clients/conformance/game_states.py
"""

from __future__ import annotations

import base64

from tavla.core import dice, preset
from tavla.core.game import Action, ActionKind, act, new_match
from tavla.server.convert_game import state_to_bytes


def encode(state, name: str) -> str:
    return base64.b64encode(state_to_bytes(state, name)).decode()


def states() -> dict[str, str]:
    """start: a new 7-point international match; moving: white to play 6-1 after a 6-1 roll-off."""
    start = new_match(preset("international"), 7, match_id="conformance")
    moving = act(start, Action(ActionKind.START_GAME), dice=dice.given_dice([6, 1])).state
    return {"start": encode(start, "international"), "moving": encode(moving, "international")}


if __name__ == "__main__":
    for name, text in states().items():
        print(name, text)
