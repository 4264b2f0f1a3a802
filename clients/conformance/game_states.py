"""Print the unsigned GameState bytes (base64) that scenarios/game.json sends, built by the referee
(tavla.referee) in state mode off, as the live test server runs.

    .venv-test/bin/python clients/conformance/game_states.py
"""

from __future__ import annotations

import base64

from tavla.core import preset
from tavla.core.match.dice_commit import DiceKey
from tavla.core.game import Action, ActionKind
from tavla.referee import Referee
from tavla.referee.keys import StateMode, StateSigner

# Mode off: states go out unsigned, and the live server opens them without a key. The dice of
# the moving state are given (test inputs), so the state does not depend on any dice key.
REFEREE = Referee(StateSigner(StateMode.OFF, (("conformance", b"k" * 32),), shared=False),
                  DiceKey(b"conformance scenarios, not a secret", shared=True), test_inputs=True)


def encode(answer) -> str:
    return base64.b64encode(answer.signed.state).decode()


def states() -> dict[str, str]:
    """start: a new 7-point international match; moving: white to play 6-1 after a 6-1 roll-off."""
    start = REFEREE.new_match(preset("international"), "international", 7, match_id="conformance")
    moving = REFEREE.act(REFEREE.open(start.signed), Action(ActionKind.START_GAME), dice=[6, 1])
    return {"start": encode(start), "moving": encode(moving)}


if __name__ == "__main__":
    for name, text in states().items():
        print(name, text)
