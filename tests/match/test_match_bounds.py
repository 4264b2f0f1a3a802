"""Inputs that once reached INTERNAL or paid impossible drops (the break-it trial): each is now
INVALID_ARGUMENT with a BadRequest naming the field (R19, R23-R24)."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import rpc_api as api

BIG = 4294967295


def _field(engine, method: str, body: dict) -> str:
    request = json_format.ParseDict(body, getattr(api, f"{method}Request")())
    with pytest.raises(grpc.RpcError) as err:
        getattr(engine, method)(request, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
    bad = error_details_pb2.BadRequest()
    rpc_status.from_call(err.value).details[0].Unpack(bad)
    return bad.field_violations[0].field


@pytest.mark.parametrize("body, field", [
    ({"settings": {"preset": "CLOCK_PRESET_RESERVE", "reserve": f"{BIG // 1000}s", "move_time": f"{BIG // 1000}s"},
      "side": "SIDE_WHITE", "elapsed": f"{BIG // 1000}s"}, "settings.move_time"),
    ({"settings": {"preset": "CLOCK_PRESET_EXTENSIONS", "extensions": BIG, "extension_time": "60s"},
      "side": "SIDE_WHITE", "event": "CLOCK_EVENT_NEW_GAME"}, "settings.extensions"),
])
def test_clock_settings_that_would_overflow(engine, body, field):
    assert _field(engine, "AdvanceClock", body) == field


WHITE_BORNE_OFF = {"winner": "SIDE_WHITE", "ending": "GAME_ENDING_BORNE_OFF"}


@pytest.mark.parametrize("body, field", [
    ({"match": {"length": 7, "white_score": 3, "games_played": BIG}, "outcome": WHITE_BORNE_OFF},
     "match.games_played"),
    ({"match": {"length": 0, "white_score": BIG}, "outcome": WHITE_BORNE_OFF}, "match.white_score"),
    ({"match": {"length": 7, "cube": {"value": 2, "owner": "SIDE_BLACK"}},
      "outcome": {"winner": "SIDE_WHITE", "ending": "GAME_ENDING_DROP"}}, "outcome.winner"),
    ({"match": {"length": 7, "cube": {"offered_by": "SIDE_WHITE"}},
      "outcome": {"winner": "SIDE_BLACK", "ending": "GAME_ENDING_DROP"}}, "outcome.winner"),
    ({"match": {"length": 7, "cube": {"offered_by": "SIDE_WHITE"}}, "outcome": WHITE_BORNE_OFF},
     "outcome.ending"),
])
def test_impossible_match_updates(engine, body, field):
    assert _field(engine, "UpdateMatch", body) == field


def test_a_drop_by_the_doubled_side_pays_the_doubler(engine):
    request = json_format.ParseDict({"match": {"length": 7, "cube": {"value": 2, "owner": "SIDE_WHITE"}},
                                     "outcome": {"winner": "SIDE_WHITE", "ending": "GAME_ENDING_DROP"}},
                                    api.UpdateMatchRequest())
    assert engine.UpdateMatch(request, timeout=30).match.white_score == 2
