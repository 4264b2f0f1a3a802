"""AnalysisService over the HTTP port (Connect JSON): the same answers as gRPC, errors naming
the field, and the analysis limits shared with the gRPC port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from http_calls import connect_json
from tavla.server.process import app
from tavla.server.process.config import Config

pytest.importorskip("bgsage")
START = "4HPwATDgc/ABMA"


@pytest.fixture(scope="module")
def engine() -> Iterator[app.Engine]:
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0))
    app.start(e)
    yield e
    app.stop(e, 0.5)


def test_suggest_move_over_connect_json(engine):
    status, answer, _ = connect_json(engine.http_port, "SuggestMove",
                                     {"position": {"position_id": START}, "dice": [6, 5],
                                      "level": "ANALYSIS_LEVEL_ADVANCED", "max_moves": 2})
    assert status == 200
    assert answer["moves"][0]["move"]["notation"] == "24/13" and len(answer["moves"]) == 2
    assert answer["info"] == {"evaluator": "EVALUATOR_NEURAL_NET", "level": "ANALYSIS_LEVEL_ADVANCED", "ply": 1}


def test_a_bad_level_is_invalid_argument_over_connect(engine):
    status, answer, _ = connect_json(engine.http_port, "SuggestMove",
                                     {"position": {"position_id": START}, "dice": [6, 5], "level": 42})
    assert status == 400 and answer["code"] == "invalid_argument" and "level" in answer["message"]
