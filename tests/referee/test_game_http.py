"""The referee over the HTTP port (Connect JSON), as the web board calls it: one round trip per
click (the answer carries the view and the next actions), and the test metadata honoured by a
test server only (docs/game-state.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from http_calls import connect_json
from tavla.server.process import app
from tavla.server.process.config import Config


@pytest.fixture(scope="module", params=[True, False], ids=["test-server", "plain"])
def engine(request) -> Iterator[tuple[app.Engine, bool]]:
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, test_inputs=request.param))
    app.start(e)
    yield e, request.param
    app.stop(e, 0.5)


def test_act_over_connect_answers_the_view_and_the_next_actions(engine):
    e, testing = engine
    status, new, _ = connect_json(e.http_port, "NewMatch", {"length": 7})
    assert status == 200 and new["actions"] == [{"kind": "ACTION_KIND_START_GAME"}]
    assert new["view"]["phase"] == "GAME_PHASE_START" and len(new["view"]["diceCommitment"]) == 64
    body = {"state": new["state"], "action": {"kind": "ACTION_KIND_START_GAME"}}
    status, answer, _ = connect_json(e.http_port, "Act", body, headers={"x-tavla-test-dice": "6,1"})
    if not testing:
        assert status == 400 and answer["code"] == "invalid_argument"
        assert answer["details"][0]["debug"]["reason"] == "CLIENT_DICE_REFUSED"
        return
    assert status == 200, answer
    assert answer["events"]["rolled"] == [6, 1] and answer["events"]["records"][0]["rollTag"] == "given"
    assert answer["view"]["sideToAct"] == "SIDE_WHITE" and answer["view"]["diceLeft"] == [6, 1]
    steps = {(a["step"]["fromPoint"], a["step"]["toPoint"]) for a in answer["actions"] if a["kind"] == "ACTION_KIND_STEP"}
    assert (13, 7) in steps and (8, 7) in steps
