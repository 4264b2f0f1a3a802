"""AnalysisService over gRPC on the session server: the answers, the errors (INVALID_ARGUMENT
naming the field), and the computer playing whole referee matches with SuggestAction + Act."""

from __future__ import annotations

import grpc
import pytest

import rpc_api as api
from google.rpc import error_details_pb2
from statuses import field_violations, rich_status, unpack
from tavla.v1 import game_pb2, match_pb2, types_pb2

pytest.importorskip("bgsage")

INITIAL_ID = "4HPwATDgc/ABMA"


def _position(pid: str = INITIAL_ID) -> types_pb2.Position:
    return types_pb2.Position(position_id=pid, on_roll=types_pb2.SIDE_WHITE)


def test_suggest_move_ranks_the_opening_six_five(engine):
    r = engine.SuggestMove(api.SuggestMoveRequest(position=_position(), dice=[6, 5],
                                                  level=api.ANALYSIS_LEVEL_EXPERT))
    assert r.moves[0].move.notation == "24/13"
    assert r.moves[0].equity_loss == 0.0 and r.moves[1].equity_loss > 0
    assert 0.5 < r.moves[0].probabilities.win < 0.6
    assert r.info.evaluator == api.EVALUATOR_NEURAL_NET and r.info.ply == 2
    assert r.info.level == api.ANALYSIS_LEVEL_EXPERT
    top = engine.SuggestMove(api.SuggestMoveRequest(position=_position(), dice=[6, 5], max_moves=2))
    assert len(top.moves) == 2


def test_suggest_move_for_tavla_uses_the_turkish_scoring(engine):
    r = engine.SuggestMove(api.SuggestMoveRequest(
        ruleset=types_pb2.Ruleset(preset="turkish"), position=_position(), dice=[3, 1],
        match=match_pb2.MatchState(length=5), level=api.ANALYSIS_LEVEL_ADVANCED))
    best = min(r.moves, key=lambda m: m.equity_loss)  # the level's noise may choose another
    assert best.move.notation == "8/5 6/5"
    assert r.info.ply == 1


def test_evaluate_and_cube_of_the_opening(engine):
    e = engine.EvaluatePosition(api.EvaluatePositionRequest(position=_position(), level=api.ANALYSIS_LEVEL_ADVANCED))
    assert 0.5 < e.probabilities.win < 0.56 and 0 < e.equity < 0.2
    c = engine.SuggestCubeAction(api.SuggestCubeActionRequest(position=_position(), level=api.ANALYSIS_LEVEL_ADVANCED))
    assert c.advice == api.CUBE_ADVICE_NO_DOUBLE and c.double_available and not c.should_double
    assert c.should_take and c.no_double_equity > c.double_take_equity
    tavla = engine.SuggestCubeAction(api.SuggestCubeActionRequest(ruleset=types_pb2.Ruleset(preset="turkish"),
                                                                  position=_position(),
                                                                  match=match_pb2.MatchState(length=5)))
    assert not tavla.double_available and tavla.double_denied_reason == "CUBE_DISABLED"


@pytest.mark.parametrize(("request_", "field"), [
    (api.SuggestMoveRequest(position=_position(), dice=[6]), "dice"),
    (api.SuggestMoveRequest(dice=[6, 5]), "position"),
    (api.SuggestMoveRequest(position=_position(), dice=[6, 5], level=99), "level"),
    (api.SuggestMoveRequest(position=_position(), dice=[6, 5], max_moves=100000), "max_moves"),
])
def test_bad_requests_name_the_field(engine, request_, field):
    status = rich_status(engine, "SuggestMove", request_)
    assert field in [f.split(".")[0] for f, _ in field_violations(status)]


def test_analyze_match_reviews_a_real_match(engine):
    with open("tests/data/matches/match0000.mat", encoding="utf-8") as f:
        text = f.read()
    r = engine.AnalyzeMatch(api.AnalyzeMatchRequest(mat=text, level=api.ANALYSIS_LEVEL_ADVANCED))
    assert r.games == 3 and [p.name for p in r.players] == ["PlayerA", "PlayerB"]
    for p in r.players:
        assert p.moves > 40 and p.error_rate > 0
        assert p.performance_rating == pytest.approx(p.error_rate / 2)
    kinds = {d.kind for d in r.decisions}
    assert api.DECISION_KIND_MOVE in kinds and api.DECISION_KIND_TAKE in kinds
    assert all(d.error >= 0 for d in r.decisions)
    with pytest.raises(grpc.RpcError) as info:
        engine.AnalyzeMatch(api.AnalyzeMatchRequest(mat="7 point match\n Game 1\n nonsense"))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "mat" in info.value.details()


def _play(engine, request: api.NewMatchRequest, levels: dict[int, int], limit: int = 4000) -> game_pb2.GameView:
    """SuggestAction + Act until the match is over; ``levels`` by side."""
    answer = engine.NewMatch(request)
    state, view = answer.state, answer.view
    for _ in range(limit):
        if view.phase == game_pb2.GAME_PHASE_MATCH_OVER:
            return view
        level = levels.get(view.side_to_act, api.ANALYSIS_LEVEL_ADVANCED)
        action = engine.SuggestAction(api.SuggestActionRequest(state=state, level=level)).action
        acted = engine.Act(api.ActRequest(state=state, action=action))
        state, view = acted.state, acted.view
    raise AssertionError("the match did not end")


def test_the_computer_plays_a_whole_turkish_match_against_itself(engine):
    view = _play(engine, api.NewMatchRequest(ruleset=types_pb2.Ruleset(preset="turkish"), length=3),
                 {types_pb2.SIDE_WHITE: api.ANALYSIS_LEVEL_BEGINNER, types_pb2.SIDE_BLACK: api.ANALYSIS_LEVEL_ADVANCED})
    assert view.match.winner in (types_pb2.SIDE_WHITE, types_pb2.SIDE_BLACK)
    assert max(view.match.white_score, view.match.black_score) >= 3


def test_the_computer_doubles_and_answers_in_a_backgammon_match(engine):
    view = _play(engine, api.NewMatchRequest(ruleset=types_pb2.Ruleset(preset="international"), length=3), {})
    assert view.match.winner in (types_pb2.SIDE_WHITE, types_pb2.SIDE_BLACK)


def test_suggest_action_after_the_match_is_a_rule_error(engine):
    answer = engine.NewMatch(api.NewMatchRequest(ruleset=types_pb2.Ruleset(preset="turkish"), length=1))
    state, view = answer.state, answer.view
    while view.phase != game_pb2.GAME_PHASE_MATCH_OVER:
        action = engine.SuggestAction(api.SuggestActionRequest(state=state, level=api.ANALYSIS_LEVEL_ADVANCED)).action
        acted = engine.Act(api.ActRequest(state=state, action=action))
        state, view = acted.state, acted.view
    status = rich_status(engine, "SuggestAction", api.SuggestActionRequest(state=state))
    assert [i.reason for i in unpack(status, error_details_pb2.ErrorInfo)] == ["WRONG_PHASE"]


def test_the_computer_accepts_a_resignation_worth_more_than_playing_on(engine):
    answer = engine.NewMatch(api.NewMatchRequest(ruleset=types_pb2.Ruleset(preset="turkish"), length=5))
    acted = engine.Act(api.ActRequest(state=answer.state, action=game_pb2.GameAction(kind=game_pb2.ACTION_KIND_START_GAME)))
    state, view = acted.state, acted.view
    if view.phase == game_pb2.GAME_PHASE_MOVING:  # the Turkish start rolled the first dice: play them
        while view.phase == game_pb2.GAME_PHASE_MOVING:
            action = engine.SuggestAction(api.SuggestActionRequest(state=state, level=api.ANALYSIS_LEVEL_ADVANCED)).action
            acted = engine.Act(api.ActRequest(state=state, action=action))
            state, view = acted.state, acted.view
    assert view.phase == game_pb2.GAME_PHASE_ROLL_OR_DOUBLE
    # the side on roll offers to lose a single game near the start: worth more than playing on
    offer = game_pb2.GameAction(kind=game_pb2.ACTION_KIND_RESIGN, resign_kind=types_pb2.RESULT_KIND_SINGLE)
    acted = engine.Act(api.ActRequest(state=state, action=offer))
    assert acted.view.phase == game_pb2.GAME_PHASE_RESIGNATION_DECISION
    reply = engine.SuggestAction(api.SuggestActionRequest(state=acted.state, level=api.ANALYSIS_LEVEL_ADVANCED)).action
    assert reply.kind == game_pb2.ACTION_KIND_ACCEPT_RESIGNATION
    assert reply.side == acted.view.side_to_act


def test_analyze_match_reads_an_sgf_record_as_its_mat(engine):
    from tavla.formats.matreader import read_match
    from tavla.formats.sgfwriter import write_sgf

    sgf = write_sgf(read_match("tests/data/matches/match0000.mat"))
    with open("tests/data/matches/match0000.mat", encoding="utf-8") as f:
        mat = f.read()
    from_sgf = engine.AnalyzeMatch(api.AnalyzeMatchRequest(sgf=sgf.encode(), level=api.ANALYSIS_LEVEL_ADVANCED))
    from_mat = engine.AnalyzeMatch(api.AnalyzeMatchRequest(mat=mat, level=api.ANALYSIS_LEVEL_ADVANCED))
    assert from_sgf.games == from_mat.games == 3
    assert [(p.moves, p.cube_decisions) for p in from_sgf.players] == [(p.moves, p.cube_decisions)
                                                                        for p in from_mat.players]
    assert [p.error_rate for p in from_sgf.players] == pytest.approx([p.error_rate for p in from_mat.players])
    status = rich_status(engine, "AnalyzeMatch", api.AnalyzeMatchRequest(sgf=b"(;nonsense"))
    assert "sgf" in [f for f, _ in field_violations(status)]


def test_a_variants_position_is_read_as_that_variant(engine):
    """The position is read under the request's ruleset, as the rules RPCs read it: plakoto's
    Family ID is accepted (the search player answers), and backgammon's 15 checkers a side are
    not a hypergammon position (3 a side)."""
    from tavla.core import Position, Side, find_variant
    from tavla.core.ids import family_id

    start = Position.initial(Side.WHITE, find_variant("plakoto"))
    plakoto = types_pb2.Position(family_id=family_id.encode(start), on_roll=types_pb2.SIDE_WHITE)
    e = engine.EvaluatePosition(api.EvaluatePositionRequest(position=plakoto, ruleset=types_pb2.Ruleset(preset="plakoto")))
    assert e.info.evaluator == api.EVALUATOR_SEARCH and 0 < e.probabilities.win < 1
    c = engine.SuggestCubeAction(api.SuggestCubeActionRequest(position=plakoto,
                                                              ruleset=types_pb2.Ruleset(preset="plakoto")))
    assert not c.double_available and c.double_denied_reason == "CUBE_DISABLED"
    request = api.EvaluatePositionRequest(position=_position(), ruleset=types_pb2.Ruleset(preset="hypergammon"))
    assert [f for f, _ in field_violations(rich_status(engine, "EvaluatePosition", request))] == ["position.position_id"]
