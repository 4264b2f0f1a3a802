"""The Python client's AnalysisService helpers against a live server (the session's): the
computer plays a whole Turkish match through suggest_action and act."""

from __future__ import annotations

import pytest

from tavla.client import START_POSITION_ID, Client
from tavla.v1 import analysis_service_pb2 as api
from tavla.v1 import game_pb2

pytest.importorskip("bgsage")


@pytest.fixture(scope="module")
def client(server_address: str):
    with Client(server_address) as c:
        yield c


def test_suggest_move_evaluate_and_cube(client: Client) -> None:
    r = client.suggest_move(START_POSITION_ID, [3, 1], level="advanced", max_moves=3)
    assert [m.move.notation for m in r.moves][:1] == ["8/5 6/5"] and len(r.moves) == 3
    assert r.info.level == api.ANALYSIS_LEVEL_ADVANCED
    e = client.evaluate_position(START_POSITION_ID, level="advanced")
    assert 0.5 < e.probabilities.win < 0.56
    c = client.suggest_cube_action(START_POSITION_ID, level="advanced")
    assert c.advice == api.CUBE_ADVICE_NO_DOUBLE


def test_a_turkish_match_against_the_computer_two_calls_per_action(client: Client) -> None:
    answer = client.new_match(3, ruleset="turkish")
    state, view = answer.state, answer.view
    for _ in range(4000):
        if view.phase == game_pb2.GAME_PHASE_MATCH_OVER:
            break
        action = client.suggest_action(state, "beginner" if view.side_to_act == 1 else "expert").action
        acted = client.act(state, action)
        state, view = acted.state, acted.view
    assert view.phase == game_pb2.GAME_PHASE_MATCH_OVER
    assert max(view.match.white_score, view.match.black_score) >= 3


def test_analyze_match(client: Client) -> None:
    with open("tests/data/matches/match0000.mat", encoding="utf-8") as f:
        r = client.analyze_match(f.read(), level="advanced")
    assert r.games == 3 and all(p.performance_rating > 0 for p in r.players)


def test_stream_analyze_match_gives_progress_then_analyze_matchs_answer(client: Client) -> None:
    with open("tests/data/matches/match0000.mat", encoding="utf-8") as f:
        text = f.read()
    *progress, last = client.stream_analyze_match(text, level="advanced")
    done = [m.progress.decisions_done for m in progress]
    assert done == sorted(set(done)) and done[-1] == progress[0].progress.decisions_total
    assert last.result == client.analyze_match(text, level="advanced") and last.result.games == 3
