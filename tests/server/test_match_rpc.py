"""Whole matches played by a simulated frontend that calls only tavla.v1.MatchService and
RulesService and keeps no engine state of its own beyond the messages it is handed back:
StartGame, RollDice, ListLegalSteps checker by checker, ListCubeActions / ApplyCubeAction,
OfferResignation / AnswerResignation, AdvanceClock, UpdateMatch (R3, R18-R26). Then the error statuses of the
match-play RPCs, and a fuzz test that accepts only OK or INVALID_ARGUMENT with rich details."""

from __future__ import annotations

import random

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from google.protobuf.duration_pb2 import Duration

import rpc_api as api
from tavla.v1 import clock_pb2, dice_pb2, match_pb2
from tavla.v1 import types_pb2 as pb

TIMEOUT = 30
U32 = st.integers(0, 2**32 - 1)


def _ms(n: int) -> Duration:
    return Duration(seconds=n // 1000, nanos=n % 1000 * 10**6)


class Frontend:
    """A frontend: random but legal choices, every rule decided by the service."""

    def __init__(self, engine, ruleset: pb.Ruleset, length: int, seed: int) -> None:
        self.engine, self.ruleset, self.rng = engine, ruleset, random.Random(seed)
        self.match = match_pb2.MatchState(length=length)
        self.clock_settings = clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_RESERVE)
        self.clock = None
        self.log: list[tuple] = []  # (game, points paid, scores after, crawford) per game

    def call(self, name: str, request):
        return getattr(self.engine, name)(request, timeout=TIMEOUT)

    def play_match(self, max_games: int = 40) -> api.UpdateMatchResponse:
        update = None
        for _ in range(max_games):
            outcome = self.play_game()
            update = self.call("UpdateMatch", api.UpdateMatchRequest(ruleset=self.ruleset, match=self.match,
                                                                     outcome=outcome))
            self.log.append((outcome, update.outcome.points, (update.match.white_score, update.match.black_score),
                             self.match.crawford))
            self.match = update.match
            if update.match.winner != pb.SIDE_UNSPECIFIED:  # the match is over
                return update
        raise AssertionError("the match did not end")

    def tick(self, side: int) -> match_pb2.GameOutcome | None:
        """Advance the clock for a move of a random length; a forfeit ends the game."""
        request = api.AdvanceClockRequest(settings=self.clock_settings, side=side,
                                          elapsed=_ms(self.rng.choice([500, 3_000, 13_000])))
        if self.clock is not None:
            request.state.CopyFrom(self.clock)
        response = self.call("AdvanceClock", request)
        self.clock = response.state
        return response.forfeit.outcome if response.HasField("forfeit") else None

    def play_game(self) -> match_pb2.GameOutcome:
        start = self.call("StartGame", api.StartGameRequest(ruleset=self.ruleset, match=self.match))
        assert start.dice_name.turkish
        position, dice = start.position, list(start.dice)
        while True:
            side = position.on_roll
            if not dice:  # a turn after the first: cube first, then roll
                ended = self.cube_turn(side)
                if ended is not None:
                    return ended
                if self.rng.random() < 0.003:
                    ended = self.resign(side)
                    if ended is not None:
                        return ended
                roll = self.call("RollDice", api.RollDiceRequest(position=position))
                dice = list(roll.dice)
            forfeit = self.tick(side)
            if forfeit is not None:
                return forfeit
            move = self.checker_by_checker(position, dice)
            dice = []
            if move.result.board.white.borne_off == 15 or move.result.board.black.borne_off == 15:
                score = self.call("ScoreGame", api.ScoreGameRequest(ruleset=self.ruleset, position=move.result))
                return score.outcome
            position = move.result

    def checker_by_checker(self, position: pb.Position, dice: list[int]) -> pb.Move:
        steps: list[pb.CheckerMove] = []
        while True:
            response = self.call("ListLegalSteps", api.ListLegalStepsRequest(
                ruleset=self.ruleset, position=position, dice=dice, steps=steps))
            if response.complete:
                return response.move
            if steps and self.rng.random() < 0.1:  # take a step back (001 Özet)
                steps.pop()
                continue
            steps.append(self.rng.choice(list(response.next_steps)))

    def cube_turn(self, side: int) -> match_pb2.GameOutcome | None:
        actions = self.call("ListCubeActions", api.ListCubeActionsRequest(
            ruleset=self.ruleset, match=self.match, side=side)).actions
        if match_pb2.CUBE_ACTION_DOUBLE not in actions or self.rng.random() > 0.15:
            return None
        offered = self.call("ApplyCubeAction", api.ApplyCubeActionRequest(
            ruleset=self.ruleset, match=self.match, side=side, action=match_pb2.CUBE_ACTION_DOUBLE)).match
        other = 3 - side
        answers = self.call("ListCubeActions", api.ListCubeActionsRequest(
            ruleset=self.ruleset, match=offered, side=other)).actions
        answer = self.rng.choice(list(answers))
        response = self.call("ApplyCubeAction", api.ApplyCubeActionRequest(
            ruleset=self.ruleset, match=offered, side=other, action=answer))
        self.match = response.match
        return response.outcome if response.HasField("outcome") else None

    def resign(self, side: int) -> match_pb2.GameOutcome | None:
        offer = match_pb2.ResignationOffer(side=side, kind=self.rng.choice([1, 2, 3]))
        value = self.call("OfferResignation", api.OfferResignationRequest(
            ruleset=self.ruleset, match=self.match, offer=offer)).outcome.points
        assert value >= 1
        response = self.call("AnswerResignation", api.AnswerResignationRequest(
            ruleset=self.ruleset, match=self.match, offer=offer, accept=self.rng.random() < 0.5))
        return response.outcome if response.HasField("outcome") else None


@pytest.mark.parametrize("preset, length, seed", [("international", 5, 1), ("international", 3, 7),
                                                  ("turkish", 5, 2), ("turkish", 3, 3)])
def test_a_frontend_plays_a_whole_match_through_the_service(engine, preset, length, seed):
    frontend = Frontend(engine, pb.Ruleset(preset=preset), length, seed)
    final = frontend.play_match()
    assert final.match.winner in (pb.SIDE_WHITE, pb.SIDE_BLACK)
    scores = (final.match.white_score, final.match.black_score)
    assert max(scores) == length and scores[final.match.winner - 1] == length
    paid = {1: 0, 2: 0}
    crawford_games = 0
    for outcome, points, after, crawford in frontend.log:
        paid[outcome.winner] += points
        assert after[0] <= paid[1] and after[1] <= paid[2]  # never more than the games paid
        crawford_games += crawford
    assert crawford_games <= 1
    if preset == "turkish":
        assert crawford_games == 0  # no cube, no Crawford


# --- errors -----------------------------------------------------------------------------------


def _status(engine, method, request):
    with pytest.raises(grpc.RpcError) as info:
        getattr(engine, method)(request, timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    status = rpc_status.from_call(info.value)
    assert status is not None and status.details
    return status


def _reason(status) -> str:
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            assert info.domain == "tavla.v1"
            return info.reason
    return ""


def _field(status) -> str:
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return bad.field_violations[0].field
    return ""


CRAWFORD = match_pb2.MatchState(length=9, white_score=8, black_score=3, crawford=True)
OVER = match_pb2.MatchState(length=3, white_score=3, winner=pb.SIDE_WHITE)


@pytest.mark.parametrize("method, request_, reason", [
    ("ApplyCubeAction", api.ApplyCubeActionRequest(match=CRAWFORD, side=2, action=1), "CRAWFORD_GAME"),
    ("ApplyCubeAction", api.ApplyCubeActionRequest(match=match_pb2.MatchState(length=7), side=1, action=2),
     "NO_DOUBLE_PENDING"),
    ("ApplyCubeAction", api.ApplyCubeActionRequest(ruleset=pb.Ruleset(preset="tavla"),
                                                   match=match_pb2.MatchState(length=5), side=1, action=1),
     "CUBE_DISABLED"),
    ("ApplyCubeAction", api.ApplyCubeActionRequest(match=match_pb2.MatchState(
        length=7, white_score=5, cube=match_pb2.CubeState(value=2, owner=1)), side=1, action=1), "DEAD_CUBE"),
    ("UpdateMatch", api.UpdateMatchRequest(match=OVER, outcome=match_pb2.GameOutcome(winner=2, ending=1)),
     "MATCH_OVER"),
    ("StartGame", api.StartGameRequest(match=OVER), "MATCH_OVER"),
    ("AnswerResignation", api.AnswerResignationRequest(match=OVER, offer=match_pb2.ResignationOffer(side=1, kind=1)),
     "MATCH_OVER"),
    ("AdvanceClock", api.AdvanceClockRequest(side=1, event=clock_pb2.CLOCK_EVENT_BREAK, state=clock_pb2.ClockState(
        white=clock_pb2.SideClock(extensions_left=3), black=clock_pb2.SideClock(extensions_left=3))),
     "BREAK_ALREADY_TAKEN"),
    ("ListLegalSteps", api.ListLegalStepsRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[5, 1],
                                                 steps=[pb.CheckerMove(from_point=22, to_point=17)]),
     "NO_CHECKER_THERE"),
])
def test_rule_violations_are_error_infos(engine, method, request_, reason):
    assert _reason(_status(engine, method, request_)) == reason


@pytest.mark.parametrize("method, request_, field", [
    ("UpdateMatch", api.UpdateMatchRequest(match=match_pb2.MatchState(length=7)), "outcome.winner"),
    ("UpdateMatch", api.UpdateMatchRequest(outcome=match_pb2.GameOutcome(winner=1)), "outcome.ending"),
    ("UpdateMatch", api.UpdateMatchRequest(match=match_pb2.MatchState(length=7, white_score=9),
                                           outcome=match_pb2.GameOutcome(winner=1, ending=1)), "match.white_score"),
    ("UpdateMatch", api.UpdateMatchRequest(ruleset=pb.Ruleset(preset="turkish"), match=match_pb2.MatchState(length=4),
                                           outcome=match_pb2.GameOutcome(winner=1, ending=1)), "match.length"),
    ("ListCubeActions", api.ListCubeActionsRequest(match=match_pb2.MatchState(length=7)), "side"),
    ("ListCubeActions", api.ListCubeActionsRequest(side=1, match=match_pb2.MatchState(
        cube=match_pb2.CubeState(value=3, owner=1))), "match.cube.value"),
    ("ApplyCubeAction", api.ApplyCubeActionRequest(side=1), "action"),
    ("OfferResignation", api.OfferResignationRequest(offer=match_pb2.ResignationOffer(side=1)), "offer.kind"),
    ("RollDice", api.RollDiceRequest(seed=dice_pb2.DiceSeed(token="nope", client_seed="x")), "seed.token"),
    ("StartGame", api.StartGameRequest(given=api.GivenStartDice(
        roll_off=[dice_pb2.RollOffThrow(white_die=3, black_die=3)])), "given.roll_off"),
    ("StartGame", api.StartGameRequest(ruleset=pb.Ruleset(preset="turkish"), match=match_pb2.MatchState(length=5),
                                       given=api.GivenStartDice(
                                           roll_off=[dice_pb2.RollOffThrow(white_die=3, black_die=1)])), "given.dice"),
    ("StartGame", api.StartGameRequest(seed=dice_pb2.DiceSeed(token="t", client_seed="c")), "seed.token"),
    ("NameRoll", api.NameRollRequest(dice=[7, 1]), "dice"),
    ("AdvanceClock", api.AdvanceClockRequest(side=1, settings=clock_pb2.ClockSettings(preset=9)), "settings.preset"),
    ("ListLegalSteps", api.ListLegalStepsRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[5, 1],
                                                 steps=[pb.CheckerMove(from_point=3, to_point=9)]), "steps"),
])
def test_malformed_input_names_the_field(engine, method, request_, field):
    assert _field(_status(engine, method, request_)) == field


# --- fuzz -------------------------------------------------------------------------------------

sides = st.integers(0, 3)
kinds = st.integers(0, 4)
cubes = st.builds(match_pb2.CubeState, value=st.sampled_from([0, 1, 2, 4, 3, 64, 128, 2**31]), owner=sides,
                  offered_by=sides)
matches = st.builds(match_pb2.MatchState, length=st.sampled_from([0, 1, 3, 5, 7, 13, 2**32 - 1]),
                    white_score=st.integers(0, 14), black_score=st.integers(0, 14), crawford=st.booleans(),
                    post_crawford=st.booleans(), cube=cubes, previous_winner=sides, games_played=st.integers(0, 9),
                    winner=st.sampled_from([0, 0, 0, 1, 2, 5]))
rulesets = st.builds(pb.Ruleset, preset=st.sampled_from(["", "turkish", "tavla", "x"]),
                     cube=st.one_of(st.none(), st.booleans()), crawford=st.one_of(st.none(), st.booleans()),
                     beavers=st.one_of(st.none(), st.booleans()), jacoby=st.one_of(st.none(), st.booleans()),
                     cube_limit=st.one_of(st.none(), st.sampled_from([0, 2, 64, 1024, 100])))
outcomes = st.builds(match_pb2.GameOutcome, winner=sides, ending=st.integers(0, 6), kind=kinds, points=U32)
offers = st.builds(match_pb2.ResignationOffer, side=sides, kind=kinds)
# Durations: valid ones up to past the 2**32 - 1 ms bound, negative ones, sub-millisecond ones and
# nanos out of range
durations = st.one_of(st.builds(lambda ms: Duration(seconds=ms // 1000, nanos=ms % 1000 * 10**6), st.integers(0, 2**33)),
                      st.builds(Duration, seconds=st.integers(-2, 2**34), nanos=st.integers(-2, 10**9 + 1)))
side_clocks = st.builds(clock_pb2.SideClock, extensions_left=st.integers(0, 5), reserve=durations,
                        breaks_left=st.integers(0, 2))
clock_settings = st.builds(clock_pb2.ClockSettings, preset=st.integers(0, 3),
                           move_time=st.one_of(st.none(), durations), extensions=st.one_of(st.none(), st.integers(0, 5)),
                           extension_time=st.one_of(st.none(), durations), reserve=st.one_of(st.none(), durations))
steps = st.lists(st.builds(pb.CheckerMove, from_point=st.integers(0, 30), to_point=st.integers(0, 30),
                           die=st.integers(0, 8)), max_size=5)
positions = st.sampled_from([pb.Position(position_id="4HPwATDgc/ABMA"), pb.Position(position_id="4PPgASjgc/ABMA",
                                                                                       on_roll=2),
                             pb.Position(position_id="!!"), pb.Position()])
dice = st.lists(st.integers(0, 7), max_size=3)
requests = st.one_of(
    st.builds(lambda r, p, d, s: ("ListLegalSteps", api.ListLegalStepsRequest(ruleset=r, position=p, dice=d, steps=s)),
              rulesets, positions, dice, steps),
    st.builds(lambda r, m, t: ("StartGame", api.StartGameRequest(ruleset=r, match=m, given=api.GivenStartDice(
        roll_off=[dice_pb2.RollOffThrow(white_die=a, black_die=b) for a, b in t]))),
        rulesets, matches, st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=3)),
    st.builds(lambda s: ("RollDice", api.RollDiceRequest(seed=s)),
              st.builds(dice_pb2.DiceSeed, token=st.text(max_size=60), client_seed=st.text(max_size=300))),
    st.builds(lambda d: ("NameRoll", api.NameRollRequest(dice=d)), dice),
    st.builds(lambda r, m, s: ("ListCubeActions", api.ListCubeActionsRequest(ruleset=r, match=m, side=s)),
              rulesets, matches, sides),
    st.builds(lambda r, m, s, a: ("ApplyCubeAction", api.ApplyCubeActionRequest(ruleset=r, match=m, side=s,
                                                                               action=a)),
              rulesets, matches, sides, st.integers(0, 5)),
    st.builds(lambda r, m, o: ("OfferResignation", api.OfferResignationRequest(ruleset=r, match=m, offer=o)),
              rulesets, matches, offers),
    st.builds(lambda r, m, o, a: ("AnswerResignation", api.AnswerResignationRequest(ruleset=r, match=m, offer=o,
                                                                                   accept=a)),
              rulesets, matches, offers, st.booleans()),
    st.builds(lambda r, m, o: ("UpdateMatch", api.UpdateMatchRequest(ruleset=r, match=m, outcome=o)),
              rulesets, matches, outcomes),
    st.builds(lambda c, w, b, s, e, t: ("AdvanceClock", api.AdvanceClockRequest(
        settings=c, state=clock_pb2.ClockState(white=w, black=b), side=s, event=e, elapsed=t)),
        clock_settings, side_clocks, side_clocks, sides, st.integers(0, 6), durations),
    st.builds(lambda r: ("ResolveRuleset", api.ResolveRulesetRequest(ruleset=r)), rulesets),
)


def test_fuzzed_match_play_requests_get_ok_or_invalid_argument(engine):
    codes: dict[str, int] = {}

    @settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
    @given(requests)
    def check(named):
        method, request = named
        try:
            response = getattr(engine, method)(request, timeout=TIMEOUT)
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, err.code(), err.details())
            status = rpc_status.from_call(err)
            assert status is not None and status.details, err.details()
            codes["INVALID_ARGUMENT"] = codes.get("INVALID_ARGUMENT", 0) + 1
            return
        codes["OK"] = codes.get("OK", 0) + 1
        if method == "UpdateMatch":
            assert response.points_scored <= response.outcome.points
            m = response.match
            assert m.winner or max(m.white_score, m.black_score) < m.length or m.length == 0

    check()
    assert codes.get("OK") and codes.get("INVALID_ARGUMENT")
