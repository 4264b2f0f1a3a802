"""Print the unsigned GameState bytes (base64) that scenarios/game.json and export_match.json send,
built by the referee (tavla.referee) in state mode off, as the live test server runs, and the
record entries (Connect JSON) of the moving state, which export_match.json sends.

    .venv-test/bin/python clients/conformance/game_states.py
"""

from __future__ import annotations

import base64
import json

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


def moving_record() -> str:
    """The record of the moving state: the START_GAME entry its Act returned, as JSON."""
    from google.protobuf import json_format

    start = REFEREE.new_match(preset("international"), "international", 7, match_id="conformance")
    moving = REFEREE.act(REFEREE.open(start.signed), Action(ActionKind.START_GAME), dice=[6, 1])
    return json.dumps([json_format.MessageToDict(r, preserving_proto_field_name=True) for r in moving.events.records],
                      ensure_ascii=False)


if __name__ == "__main__":
    for name, text in states().items():
        print(name, text)
    print("moving record", moving_record())
