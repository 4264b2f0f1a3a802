"""Portes, nackgammon and hypergammon (variants-rules.md; docs/variants.md): the variants on
backgammon's board, through the core and every RPC a ruleset goes to.

Boards in comments are drawn from the side on roll's view: its points 1..24 left to right as
``n`` (its checkers) and ``-n`` (the opponent's), as in tests/rules/test_variant.py.
"""

from __future__ import annotations

import random

import grpc
import pytest

from game_driver import DICE_SECRET, SIGNER, Checker, choose, play_match
import rpc_api as api
from tavla import core
from tavla.core import InvalidInputError, Position, Side, SideView
from tavla.core.ids import match_id, position_id, xgid
from tavla.core.match.ruleset import PRESET_INFO, preset
from tavla.core.rules.bearoff import bear_off_info, race_odds
from tavla.core.rules.bearoff_db import position_index
from tavla.core.rules.hypergammon import Hypergammon
from tavla.core.rules.nackgammon import Nackgammon
from tavla.core.rules.portes import Portes
from tavla.core.rules.scoring import score_game
from tavla.core.rules.variant import ResultKind, find_variant
from tavla.core.match.dice_commit import DiceKey
from tavla.server.api.engine import Engine
from tavla.server.api.servicers import for_engine
from tavla.server.process.app import start_in_process
from tavla.v1 import clock_pb2, game_pb2, match_pb2
from tavla.v1 import types_pb2 as pb

G = game_pb2
K = ResultKind


def view(points: dict[int, int], bar: int = 0, checkers: int = 15) -> SideView:
    """One side's view from {point: checkers}; the rest of its ``checkers`` are off."""
    counts = tuple(points.get(p, 0) for p in range(1, 25))
    return SideView(counts, bar, checkers - sum(counts) - bar)


# ---------------------------------------------------------------------------------------------
# Class data, names, presets


@pytest.mark.parametrize("name, cls", [("portes", Portes), ("Greek-Backgammon", Portes), ("nackgammon", Nackgammon),
                                       ("NACK", Nackgammon), ("hypergammon", Hypergammon), ("hyper", Hypergammon)])
def test_names_and_aliases_resolve(name, cls):
    assert find_variant(name) is cls
    assert core.Ruleset(variant=name, cube=cls.cube).variant_class is cls


def test_class_data_follows_variants_md():
    # Portes: backgammon's start, no cube, no backgammon kind (variants-rules.md "Portes")
    assert Portes.start == core.Backgammon.start and not Portes.cube
    assert Portes.kinds == (K.SINGLE, K.GAMMON)
    # Nackgammon: 2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6; the cube
    assert dict(Nackgammon.start) == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4} and Nackgammon.cube
    assert sum(n for _, n in Nackgammon.start) == Nackgammon.checkers == 15
    # Hypergammon: 3 checkers, one each on 24, 23, 22; every kind and the cube
    assert Hypergammon.checkers == 3 and dict(Hypergammon.start) == {24: 1, 23: 1, 22: 1}
    assert Hypergammon.kinds == tuple(K) and Hypergammon.cube
    for cls in (Portes, Nackgammon, Hypergammon):
        assert cls.title and cls.title_tr and cls.moves_as(core.Backgammon)  # the same moves (R4-R14)
        assert set(cls.codecs) == {"position_id", "gnubg_id", "xgid"}


def test_each_is_a_preset_of_list_rulesets_with_its_names():
    info = {p.name: p for p in PRESET_INFO}
    assert info["portes"].aliases == ("greek_backgammon",) and info["portes"].ruleset.variant == "portes"
    assert not info["portes"].ruleset.cube and not info["portes"].ruleset.crawford_in_play
    assert info["nackgammon"].ruleset.variant == "nackgammon" and info["nackgammon"].ruleset.cube
    assert info["hypergammon"].ruleset.variant == "hypergammon" and info["hypergammon"].ruleset.cube
    assert preset("nack") == preset("nackgammon") and preset("hyper") == preset("hypergammon")
    assert preset("Greek Backgammon") == preset("portes")
    for name in ("portes", "nackgammon", "hypergammon"):
        assert "Turkish" in info[name].description  # its Turkish name beside the English


def test_portes_refuses_the_cube():
    with pytest.raises(InvalidInputError) as err:
        core.Ruleset(variant="portes")  # cube defaults to on
    assert err.value.field == "ruleset.cube"


def test_start_positions():
    nack = Position.initial(variant=Nackgammon)
    assert nack.side(Side.WHITE) == nack.side(Side.BLACK) == view({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
    hyper = Position.initial(Side.BLACK, Hypergammon)
    assert hyper.side(Side.WHITE) == hyper.side(Side.BLACK) == view({24: 1, 23: 1, 22: 1}, checkers=3)
    assert hyper.pip_count(Side.WHITE) == 69


# ---------------------------------------------------------------------------------------------
# Checker counts (R1 with the variant's count)


def test_hypergammon_refuses_fifteen_checkers_naming_the_field():
    with pytest.raises(InvalidInputError) as err:
        Position.from_sides(Side.WHITE, view({6: 15}), view({6: 15}), Hypergammon)
    assert err.value.field == "position.board.white" and "exactly 3" in err.value.reason
    # and backgammon refuses three
    with pytest.raises(InvalidInputError):
        Position.from_sides(Side.WHITE, view({6: 3}, checkers=3), view({6: 3}, checkers=3))


def test_start_position_ids_are_gnubgs():
    # gnubg's own board display after `set variation ...` and `new match` (1.1.0a16) shows these
    # Position IDs for the starts (tests/data/variants/make_gnubg_records.py sets them up)
    assert position_id.encode(Position.initial(variant=Nackgammon)) == "4Dl4ADbgOXgANg"
    assert position_id.encode(Position.initial(variant=Hypergammon)) == "AACgAgAAKgAAAA"
    assert position_id.encode(Position.initial(variant=Portes)) == "4HPwATDgc/ABMA"  # backgammon's


def test_show_reads_an_id_as_the_variant(capsys):
    from tavla.cli import main

    assert main(["show", "AACgAgAAKgAAAA", "--variant", "hypergammon"]) == 0
    out = capsys.readouterr().out
    assert "pips  69  off  0" in out and "XGID=-aaa------------------AAA-" in out
    assert main(["show", "4HPwATDgc/ABMA", "--variant", "portes"]) == 0
    assert "no cube" in capsys.readouterr().out


def test_ids_round_trip_with_three_checkers():
    p = Position.from_sides(Side.BLACK, view({1: 1, 20: 1}, bar=1, checkers=3), view({4: 2}, checkers=3), Hypergammon)
    pid = position_id.encode(p)
    assert position_id.decode(pid, Side.BLACK, Hypergammon) == p
    # the ID has no checker count: read as backgammon, the same bits leave 12 and 13 off
    as_backgammon = position_id.decode(pid, Side.BLACK, core.Backgammon)
    assert (as_backgammon.borne_off(Side.BLACK), as_backgammon.borne_off(Side.WHITE)) == (13, 12)
    x = xgid.encode_position(p)
    assert xgid.decode(x, variant=Hypergammon).position == p
    with pytest.raises(InvalidInputError) as err:
        xgid.decode(xgid.encode_position(Position.initial()), variant=Hypergammon)
    assert err.value.field == "position.xgid"
    key = match_id.MatchKey(on_roll=Side.BLACK, turn=Side.BLACK)
    assert match_id.decode_gnubg_id(match_id.encode_gnubg_id(p, key), variant=Hypergammon)[0] == p


def test_bear_off_figures_follow_the_checker_count():
    # Hypergammon, white on roll: 1 1 1 on its points 1-3, none off; black: 2 on its 2, one off.
    p = Position.from_sides(Side.WHITE, view({1: 1, 2: 1, 3: 1}, checkers=3), view({2: 2}, checkers=3), Hypergammon)
    white = bear_off_info(p, Side.WHITE)
    assert white.can_bear_off and white.checkers_off == 0 and white.pip_count == 6
    # two dice bear off two at most: only the doubles 2-2 .. 6-6 take all three in one roll;
    # every other roll leaves one checker (1-1: 3/2 2/1 1/off 1/off leaves one on 1), off next
    assert white.distribution == pytest.approx((0.0, 5 / 36, 31 / 36))
    # Black (2 on its 2-point) misses only with a 1 and another number (10 of 36), and white
    # bears a checker off on its first roll: white never loses a gammon.
    odds = race_odds(p)
    assert odds.win == pytest.approx(5 / 36 + 31 / 36 * 10 / 36) and odds.lose_gammon == 0.0
    # White with 3 on its 6-point and none off, black with 1 on its 1-point: black wins next
    # roll unless white finishes now (6-6 only), and white is gammoned unless its roll bears a
    # checker off: a 6, or dice that land one checker exactly on 0 (5-1, 4-2, 3-3, 2-2, 4-4 by
    # 6/2 three times and 2/off). R12 stops 5-2 (6/1, then a 2 from 1 with 6 still held):
    # 1-1 and 16 other throws (1-2 1-3 1-4 2-3 2-5 3-4 3-5 4-5) bear nothing off.
    q = Position.from_sides(Side.WHITE, view({6: 3}, checkers=3), view({1: 1}, checkers=3), Hypergammon)
    odds = race_odds(q)
    assert odds.win == pytest.approx(1 / 36)
    assert odds.lose_gammon == pytest.approx(17 / 36)
    with pytest.raises(InvalidInputError) as err:
        position_index((4, 0, 0, 0, 0, 0), checkers=3)
    assert "at most 3" in err.value.reason


# ---------------------------------------------------------------------------------------------
# Scoring (R15-R17 as each variant has them)


def _won(variant, loser: SideView) -> Position:
    n = variant.checkers
    return Position.from_sides(Side.WHITE, SideView((0,) * 24, 0, n), loser, variant)


def test_portes_gammon_is_two_never_three():
    rules = preset("portes")
    # the loser has borne off nothing and has a checker on the bar: a backgammon elsewhere (R16)
    lost = _won(Portes, view({24: 1, 1: 13}, bar=1))
    assert score_game(lost, rules) == core.GameResult(Side.WHITE, K.GAMMON, 2)
    as_backgammon = Position(lost.board, lost.on_roll, core.Backgammon)  # the same checkers
    assert score_game(as_backgammon, preset("international")).points == 3
    assert score_game(_won(Portes, view({1: 14})), rules).points == 1


def test_hypergammon_and_nackgammon_keep_the_backgammon():
    hyper = _won(Hypergammon, view({20: 1, 1: 2}, checkers=3))  # a checker in the winner's home
    assert score_game(hyper, preset("hypergammon")) == core.GameResult(Side.WHITE, K.BACKGAMMON, 3)
    assert score_game(_won(Hypergammon, view({1: 3}, checkers=3)), preset("hypergammon")).points == 2
    assert score_game(_won(Hypergammon, view({1: 2}, checkers=3)), preset("hypergammon")).points == 1
    nack = _won(Nackgammon, view({19: 15}))
    assert score_game(nack, preset("nackgammon")).kind is K.BACKGAMMON


# ---------------------------------------------------------------------------------------------
# Every RPC a ruleset goes to


def rules_of(name: str) -> pb.Ruleset:
    return pb.Ruleset(preset=name)


def code_and_field(call, request) -> tuple[grpc.StatusCode, str]:
    from grpc_status import rpc_status
    from google.rpc import error_details_pb2

    with pytest.raises(grpc.RpcError) as err:
        call(request)
    field = ""
    status = rpc_status.from_call(err.value)
    for detail in status.details if status else ():
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            field = bad.field_violations[0].field
    return err.value.code(), field


def test_get_initial_position_per_variant(engine):
    got = engine.GetInitialPosition(api.GetInitialPositionRequest(ruleset=rules_of("hypergammon")))
    white = got.position.board.white
    assert list(white.points)[21:] == [1, 1, 1] and sum(white.points) == 3 and white.borne_off == 0
    assert white.pip_count == 69
    nack = engine.GetInitialPosition(api.GetInitialPositionRequest(ruleset=rules_of("nackgammon")))
    assert [nack.position.board.black.points[p - 1] for p in (24, 23, 13, 8, 6)] == [2, 2, 4, 3, 4]


def test_hypergammon_rpcs_refuse_fifteen_checkers(engine):
    start = engine.GetInitialPosition(api.GetInitialPositionRequest()).position  # backgammon's, 15
    for call, request in [
        (engine.ListLegalMoves, api.ListLegalMovesRequest(ruleset=rules_of("hypergammon"),
                                                          position=pb.Position(board=start.board, on_roll=pb.SIDE_WHITE), dice=[3, 1])),
        (engine.ListLegalMoves, api.ListLegalMovesRequest(ruleset=rules_of("hypergammon"),
                                                          position=pb.Position(position_id=start.ids.position_id), dice=[3, 1])),
        (engine.ScoreGame, api.ScoreGameRequest(ruleset=rules_of("hypergammon"), position=pb.Position(xgid=start.ids.xgid))),
        (engine.RenderPosition, api.RenderPositionRequest(ruleset=rules_of("hypergammon"),
                                                          position=pb.Position(gnubg_id=start.ids.gnubg_id))),
    ]:
        code, field = code_and_field(call, request)
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert field.startswith("position.")


def test_list_legal_moves_counts_three_checkers(engine):
    start = engine.GetInitialPosition(api.GetInitialPositionRequest(ruleset=rules_of("hypergammon"))).position
    for position in (pb.Position(board=start.board, on_roll=pb.SIDE_WHITE),
                     pb.Position(position_id=start.ids.position_id)):  # the ID fast path too
        moves = engine.ListLegalMoves(api.ListLegalMovesRequest(ruleset=rules_of("hypergammon"), position=position,
                                                               dice=[6, 5])).moves
        notations = {m.notation for m in moves}
        assert "24/13" in notations and "24/18 23/18" in notations
        for m in moves:
            for side in (m.result.board.white, m.result.board.black):
                assert sum(side.points) + side.bar + side.borne_off == 3
    nack = engine.GetInitialPosition(api.GetInitialPositionRequest(ruleset=rules_of("nackgammon"))).position
    moves = engine.ListLegalMoves(api.ListLegalMovesRequest(ruleset=rules_of("nackgammon"),
                                                           position=pb.Position(position_id=nack.ids.position_id), dice=[2, 1])).moves
    assert "24/21" in {m.notation for m in moves}  # 24/22/21 over the own 23 and 22


def test_apply_move_and_steps_and_score(engine):
    # Hypergammon, white on roll with its last checker on its 2-point, black none off: 6-1
    # bears it off, a gammon (2 points).
    position = pb.Position(on_roll=pb.SIDE_WHITE, board=pb.Board(
        white=pb.SideCheckers(points=[0, 1] + [0] * 22, borne_off=2),
        black=pb.SideCheckers(points=[0] * 12 + [3] + [0] * 11)))
    applied = engine.ApplyMove(api.ApplyMoveRequest(ruleset=rules_of("hypergammon"), position=position, dice=[6, 1],
                                                    move=pb.Move(notation="2/off")))
    assert applied.outcome.kind == pb.RESULT_KIND_GAMMON and applied.outcome.points == 2
    assert applied.move.result.board.white.borne_off == 3
    steps = engine.ListLegalSteps(api.ListLegalStepsRequest(ruleset=rules_of("hypergammon"), position=position,
                                                            dice=[6, 1]))
    assert {(s.from_point, s.to_point) for s in steps.next_steps} == {(2, 0), (2, 1)}
    scored = engine.ScoreGame(api.ScoreGameRequest(ruleset=rules_of("hypergammon"),
                                                   position=applied.move.result))
    assert scored.outcome.points == 2
    # Portes: the loser on the bar is a gammon, 2 points, never 3
    portes = pb.Position(on_roll=pb.SIDE_BLACK, board=pb.Board(
        white=pb.SideCheckers(borne_off=15, points=[0] * 24),
        black=pb.SideCheckers(points=[0] * 23 + [14], bar=1)))
    scored = engine.ScoreGame(api.ScoreGameRequest(ruleset=rules_of("portes"), position=portes))
    assert (scored.outcome.kind, scored.outcome.points) == (pb.RESULT_KIND_GAMMON, 2)
    scored = engine.ScoreGame(api.ScoreGameRequest(ruleset=rules_of("international"), position=portes))
    assert (scored.outcome.kind, scored.outcome.points) == (pb.RESULT_KIND_BACKGAMMON, 3)


def test_render_position_draws_three_checkers(engine):
    start = engine.GetInitialPosition(api.GetInitialPositionRequest(ruleset=rules_of("hypergammon"))).position
    picture = engine.RenderPosition(api.RenderPositionRequest(ruleset=rules_of("hypergammon"),
                                                              position=pb.Position(board=start.board, on_roll=pb.SIDE_WHITE)))
    assert picture.svg.startswith("<svg") and picture.position.board.white.borne_off == 0
    assert picture.svg.count("<circle") < 30  # 6 checkers (a backgammon start draws 30)


def test_cube_refused_in_portes(engine):
    code, field = code_and_field(engine.NewMatch, api.NewMatchRequest(ruleset=pb.Ruleset(preset="portes", cube=True),
                                                                    length=3))
    assert (code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "ruleset.cube")
    code, field = code_and_field(engine.ListCubeActions, api.ListCubeActionsRequest(
        ruleset=pb.Ruleset(variant="portes"), side=pb.SIDE_WHITE))
    assert (code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "ruleset.cube")
    started = engine.NewMatch(api.NewMatchRequest(ruleset=rules_of("portes"), length=3))
    answer = engine.Act(api.ActRequest(state=started.state, action=started.actions[0]))  # START_GAME
    assert answer.view.phase in (G.GAME_PHASE_MOVING, G.GAME_PHASE_ROLL_OR_DOUBLE)
    assert G.ACTION_KIND_DOUBLE not in {a.kind for a in answer.actions}


def test_portes_has_no_backgammon_to_resign_or_score(engine):
    match = match_pb2.MatchState(length=5)
    offer = match_pb2.ResignationOffer(side=pb.SIDE_WHITE, kind=pb.RESULT_KIND_BACKGAMMON)
    code, field = code_and_field(engine.OfferResignation, api.OfferResignationRequest(
        ruleset=rules_of("portes"), match=match, offer=offer))
    assert (code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "offer.kind")
    outcome = match_pb2.GameOutcome(winner=pb.SIDE_WHITE, kind=pb.RESULT_KIND_BACKGAMMON,
                                    ending=match_pb2.GAME_ENDING_BORNE_OFF)
    code, field = code_and_field(engine.UpdateMatch, api.UpdateMatchRequest(
        ruleset=rules_of("portes"), match=match, outcome=outcome))
    assert (code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "outcome.kind")
    offer.kind = pb.RESULT_KIND_GAMMON  # a gammon pays 2
    paid = engine.OfferResignation(api.OfferResignationRequest(ruleset=rules_of("portes"), match=match, offer=offer))
    assert paid.outcome.points == 2
    # the referee offers only the kinds portes has
    started = engine.NewMatch(api.NewMatchRequest(ruleset=rules_of("portes"), length=3))
    answer = engine.Act(api.ActRequest(state=started.state, action=started.actions[0]))
    kinds = {a.resign_kind for a in answer.actions if a.kind == G.ACTION_KIND_RESIGN}
    assert kinds == {pb.RESULT_KIND_SINGLE, pb.RESULT_KIND_GAMMON}


# ---------------------------------------------------------------------------------------------
# Whole matches through the referee: server dice, signed states, clocks


@pytest.fixture(scope="module")
def referee():
    """A server as the Helm chart runs it: states signed and required (k2 signs), a fixed dice
    key (as tests/referee/test_game_rpc.py)."""
    engine = Engine(dice_key=DiceKey(DICE_SECRET, shared=True), signer=SIGNER)
    server, port = start_in_process(by_service=for_engine(engine))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield api.AnyStub(channel)
    server.stop(None)


@pytest.mark.parametrize("name, length, seed", [("portes", 5, 1), ("nackgammon", 5, 2), ("hypergammon", 7, 3)])
def test_whole_match_through_the_referee(referee, name, length, seed):
    """NewMatch, ListActions (every state compared with Act's answer) and Act only, the
    server's dice checked against the revealed seeds, every state's signature (game_driver.Checker)."""
    checker = Checker(SIGNER)
    request = api.NewMatchRequest(ruleset=rules_of(name), length=length)
    game, kinds = play_match(referee, checker, request, seed=seed, list_every=1, double=0.15, drop=0.3)
    assert game.phase == G.GAME_PHASE_MATCH_OVER and game.ruleset.variant == name
    assert max(game.match.white_score, game.match.black_score) >= length
    assert checker.games == game.match.games_played >= 1
    assert (G.ACTION_KIND_DOUBLE in kinds) == (name != "portes")  # the cube where the variant has one
    n = find_variant(name).checkers
    for side in (game.position.board.white, game.position.board.black):
        assert sum(side.points) + side.bar + side.borne_off == n


@pytest.mark.parametrize("name", ["portes", "nackgammon", "hypergammon"])
def test_whole_match_on_the_clock(referee, name):
    """The same with the clock (extensions, R23): Act alone (a view's clock is read at the time
    of the call, so ListActions' view is not compared here), every view timed."""
    rng = random.Random(name)
    request = api.NewMatchRequest(ruleset=rules_of(name), length=3,
                                  clock=clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS))
    answer = referee.NewMatch(request)
    state, view, actions = answer.state, answer.view, list(answer.actions)
    for _ in range(20000):
        assert view.HasField("clock")
        if view.phase == G.GAME_PHASE_MATCH_OVER:
            break
        action = choose(actions, rng, double=0.1)
        answer = referee.Act(api.ActRequest(state=state, action=action))
        state, view, actions = answer.state, answer.view, list(answer.actions)
    assert view.phase == G.GAME_PHASE_MATCH_OVER and view.ruleset.variant == name
    assert max(view.match.white_score, view.match.black_score) >= 3
