"""Frontend ergonomics: one end-of-game type (GameOutcome) in every answer that can end
a game, one dice order (larger first) in every roll the server answers, and presets that say what
they do (turkish: no money play, so StartGame needs a match; Crawford reported as in effect)."""

from __future__ import annotations

import hashlib

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavla.v1 import dice_pb2, match_pb2
import rpc_api as api
from tavla.v1 import types_pb2 as pb

TIMEOUT = 10
# White has one checker left on its 1-point; black has 14 on its 13-point and one on the bar:
# white bearing it off wins a backgammon (katmerli mars, R16/R17).
LAST_CHECKER = pb.Position(position_id="APD/A0ABAAAAAA")
# White has borne off all 15; black the same checkers (R17: backgammon by the bar).
FINISHED = pb.Position(position_id="APD/A0AAAAAAAA")
CUBE_2 = match_pb2.MatchState(length=7, cube=match_pb2.CubeState(value=2, owner=pb.SIDE_WHITE))


def _fails(call, field: str) -> None:
    with pytest.raises(grpc.RpcError) as info:
        call()
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(info.value)
    fields = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [v.field for v in bad.field_violations]
    assert field in fields


# --- one end-of-game type ------------------------------------------------------------------


def test_apply_move_gives_the_game_outcome_with_the_cube(engine):
    request = api.ApplyMoveRequest(position=LAST_CHECKER, dice=[2, 1], move=pb.Move(notation="1/off"))
    plain = engine.ApplyMove(request, timeout=TIMEOUT)
    assert plain.outcome == match_pb2.GameOutcome(winner=pb.SIDE_WHITE, ending=match_pb2.GAME_ENDING_BORNE_OFF,
                                                  kind=pb.RESULT_KIND_BACKGAMMON, points=3)
    request.match.CopyFrom(CUBE_2)
    assert engine.ApplyMove(request, timeout=TIMEOUT).outcome.points == 6  # R20: 3 x cube 2


def test_apply_move_outcome_is_what_update_match_pays(engine):
    request = api.ApplyMoveRequest(ruleset=pb.Ruleset(preset="turkish"), position=LAST_CHECKER, dice=[2, 1],
                                   move=pb.Move(notation="1/off"), match=match_pb2.MatchState(length=5))
    outcome = engine.ApplyMove(request, timeout=TIMEOUT).outcome
    assert (outcome.kind, outcome.points) == (pb.RESULT_KIND_BACKGAMMON, 2)  # katmerli mars pays 2
    update = engine.UpdateMatch(api.UpdateMatchRequest(ruleset=pb.Ruleset(preset="turkish"),
                                                       match=match_pb2.MatchState(length=5), outcome=outcome),
                                timeout=TIMEOUT)
    assert update.outcome == outcome and update.match.white_score == 2


def test_score_game_gives_the_game_outcome(engine):
    response = engine.ScoreGame(api.ScoreGameRequest(ruleset=pb.Ruleset(preset="turkish"), position=FINISHED),
                                timeout=TIMEOUT)
    assert response.outcome == match_pb2.GameOutcome(winner=pb.SIDE_WHITE, ending=match_pb2.GAME_ENDING_BORNE_OFF,
                                                     kind=pb.RESULT_KIND_BACKGAMMON, points=2)
    response = engine.ScoreGame(api.ScoreGameRequest(position=FINISHED, match=CUBE_2), timeout=TIMEOUT)
    assert response.outcome.points == 6  # R20: backgammon 3 x cube 2
    assert not engine.ScoreGame(api.ScoreGameRequest(position=LAST_CHECKER), timeout=TIMEOUT).HasField("outcome")


def test_list_legal_steps_gives_the_outcome_of_a_winning_move(engine):
    request = api.ListLegalStepsRequest(position=LAST_CHECKER, dice=[2, 1], match=CUBE_2,
                                        steps=[pb.CheckerMove(from_point=1, to_point=0, die=2)])
    response = engine.ListLegalSteps(request, timeout=TIMEOUT)
    assert response.complete
    assert response.outcome == match_pb2.GameOutcome(winner=pb.SIDE_WHITE, ending=match_pb2.GAME_ENDING_BORNE_OFF,
                                                     kind=pb.RESULT_KIND_BACKGAMMON, points=6)
    first = engine.ListLegalSteps(api.ListLegalStepsRequest(position=LAST_CHECKER, dice=[2, 1]), timeout=TIMEOUT)
    assert not first.HasField("outcome")


def test_a_match_that_does_not_fit_the_ruleset_is_refused(engine):
    request = api.ScoreGameRequest(ruleset=pb.Ruleset(preset="turkish"), position=FINISHED, match=CUBE_2)
    _fails(lambda: engine.ScoreGame(request, timeout=TIMEOUT), "match.cube")  # turkish: no cube


# --- one dice order: larger first ----------------------------------------------------------


def test_roll_dice_answers_larger_first(engine):
    rolls = [tuple(engine.RollDice(api.RollDiceRequest(), timeout=TIMEOUT).dice) for _ in range(40)]
    assert all(a >= b for a, b in rolls)
    for i in range(10):
        digest = hashlib.sha256(f"c{i}".encode()).hexdigest()  # a token rolls only with its seed
        commit = engine.CommitDice(api.CommitDiceRequest(client_seed_sha256=digest), timeout=TIMEOUT)
        seed = dice_pb2.DiceSeed(token=commit.token, client_seed=f"c{i}")
        d = engine.RollDice(api.RollDiceRequest(seed=seed), timeout=TIMEOUT).dice
        assert d[0] >= d[1] and d[0] == int(engine.RollDice(api.RollDiceRequest(seed=seed)).name.numbers[0])


def test_start_game_turkish_first_roll_larger_first(engine):
    request = api.StartGameRequest(ruleset=pb.Ruleset(preset="turkish"), match=match_pb2.MatchState(length=5),
                                   given=api.GivenStartDice(roll_off=[dice_pb2.RollOffThrow(white_die=2, black_die=5)],
                                                            dice=[1, 3]))
    response = engine.StartGame(request, timeout=TIMEOUT)
    assert response.starter == pb.SIDE_BLACK
    assert list(response.dice) == [3, 1] and response.dice_name.numbers == "3-1"
    assert (response.roll_off[0].white_die, response.roll_off[0].black_die) == (2, 5)  # per side, as thrown


def test_dice_left_larger_first(engine):
    # white's 13/11 with the 2 of 2-5 leaves the 5; with no step, both dice, larger first
    first = engine.ListLegalSteps(api.ListLegalStepsRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                                                            dice=[2, 5]), timeout=TIMEOUT)
    assert list(first.dice_left) == [5, 2]


# --- presets agree with the docs -----------------------------------------------------------


def test_turkish_start_game_without_a_match_is_refused(engine):
    # the turkish preset has no money play (R18, seed 000), and no match means a money session
    request = api.StartGameRequest(ruleset=pb.Ruleset(preset="turkish"))
    _fails(lambda: engine.StartGame(request, timeout=TIMEOUT), "match.length")
    assert engine.StartGame(api.StartGameRequest(), timeout=TIMEOUT).starter != pb.SIDE_UNSPECIFIED


def test_crawford_is_reported_as_in_effect(engine):
    def crawford(**ruleset) -> bool:
        return engine.ResolveRuleset(api.ResolveRulesetRequest(ruleset=pb.Ruleset(**ruleset)), timeout=TIMEOUT).ruleset.crawford

    assert crawford(preset="turkish") is False  # no cube, so no Crawford game (R21)
    assert crawford(preset="turkish", cube=True) is True
    assert crawford(preset="international") is True
    assert crawford(preset="international", cube=False) is False
    presets = engine.ListRulesets(api.ListRulesetsRequest(), timeout=TIMEOUT).presets
    listed = {p.name: p.ruleset.crawford for p in presets}
    assert (listed["international"], listed["turkish"]) == (True, False)
    # the variants' presets: Crawford with the cube only (portes has none)
    assert (listed["portes"], listed["nackgammon"], listed["hypergammon"]) == (False, True, True)
    assert (listed["plakoto"], listed["fevga"], listed["long_nardy"]) == (False, False, False)
