"""The ID fields over gRPC: Position.gnubg_id / xgid (members of the oneof ``checkers``) and
MatchState.match_id / gnubg_id / xgid (the oneof ``id``) are accepted wherever a position or match
is, returned with every position (in ``Position.ids``) and match, and malformed or contradicting
values are INVALID_ARGUMENT with a BadRequest naming the field."""

from __future__ import annotations

import pytest

from statuses import field_violations, rich_status
from tavla.core import Position, Side
from tavla.core.ids import match_id
from tavla.core.ids import position_id
from tavla.core.ids import xgid
import rpc_api as api
from tavla.v1 import match_pb2
from tavla.v1 import types_pb2 as pb

TIMEOUT = 10
START_X = "XGID=-b----E-C---eE---c-e----B-"
START_WHITE_XGID = f"{START_X}:0:0:-1:00:0:0:0:0:10"  # O (white) on roll
START_BLACK_XGID = f"{START_X}:0:0:1:00:0:0:0:0:10"  # X (black) on roll


def test_initial_position_has_every_id(engine):
    for side, number, gnubg_id, text in (
        (Side.WHITE, pb.SIDE_WHITE, "4HPwATDgc/ABMA:MAEAAAAAAAAE", START_WHITE_XGID),
        (Side.BLACK, pb.SIDE_BLACK, "4HPwATDgc/ABMA:cAkAAAAAAAAE", START_BLACK_XGID),
    ):
        pos = engine.GetInitialPosition(api.GetInitialPositionRequest(on_roll=number), timeout=TIMEOUT).position
        assert pos.ids == pb.PositionIds(position_id="4HPwATDgc/ABMA", gnubg_id=gnubg_id, xgid=text)
        assert pos.WhichOneof("checkers") == "board"


def test_every_move_result_carries_ids_that_decode_to_it(engine):
    request = api.ListLegalMovesRequest(position=pb.Position(xgid=START_WHITE_XGID), dice=[6, 6])
    moves = engine.ListLegalMoves(request, timeout=TIMEOUT).moves
    by_id = engine.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                                                            dice=[6, 6]), timeout=TIMEOUT).moves
    assert [m.notation for m in moves] == [m.notation for m in by_id]
    assert len(moves) > 1
    for m in moves:
        r = m.result
        assert r.on_roll == pb.SIDE_BLACK
        expected = position_id.decode(r.ids.position_id, Side.BLACK)
        assert xgid.decode(r.ids.xgid).position == expected
        assert match_id.decode_gnubg_id(r.ids.gnubg_id)[0] == expected


def test_gnubg_id_gives_the_side_on_roll(engine):
    # black on roll after white's 31 (8/5 6/5): gnubg's player 1 holds the dice
    after = engine.ApplyMove(api.ApplyMoveRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[3, 1],
                                                  move=pb.Move(notation="8/5 6/5")), timeout=TIMEOUT).move.result
    assert after.on_roll == pb.SIDE_BLACK
    back = engine.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(gnubg_id=after.ids.gnubg_id),
                                                           dice=[2, 1]), timeout=TIMEOUT)
    assert back.moves[0].result.on_roll == pb.SIDE_WHITE
    # the same through the XGID (without on_roll: the ID's), and the answer sent back as it is
    for position in (pb.Position(xgid=after.ids.xgid), after):
        listed = engine.ListLegalMoves(api.ListLegalMovesRequest(position=position, dice=[2, 1]), timeout=TIMEOUT)
        assert listed == back


def test_xgid_with_rolled_dice_and_match_fields_is_accepted(engine):
    text = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:3:2:0:7:10"
    moves = engine.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(xgid=text), dice=[5, 2]),
                                  timeout=TIMEOUT).moves
    assert moves[0].result.on_roll == pb.SIDE_WHITE  # X (black) moved


@pytest.mark.parametrize("position, field, words", [
    (pb.Position(xgid="XGID=nonsense"), "position.xgid", "an XGID has 10"),
    (pb.Position(xgid=START_WHITE_XGID.replace("E-C", "F-C")), "position.xgid", "16 checkers"),
    (pb.Position(gnubg_id="4HPwATDgc/ABMA"), "position.gnubg_id", "POSITION_ID:MATCH_ID"),
    (pb.Position(gnubg_id="4HPwATDgc/ABMA:MAEAAAAAAA"), "position.gnubg_id", "12 base64"),
    (pb.Position(xgid=START_WHITE_XGID, on_roll=pb.SIDE_BLACK), "position.xgid", "white on roll"),
    (pb.Position(gnubg_id="4HPwATDgc/ABMA:MAEAAAAAAAAE", on_roll=pb.SIDE_BLACK), "position.gnubg_id",
     "white on roll"),
    (pb.Position(gnubg_id="4HPwATDgc/ABMA:MAEAAAAAAAAE", on_roll=7), "position.on_roll", "unknown value 7"),
])
def test_bad_or_contradicting_position_ids(engine, position, field, words):
    status = rich_status(engine, "ListLegalMoves", api.ListLegalMovesRequest(position=position, dice=[3, 1]))
    violations = field_violations(status)
    assert [f for f, _ in violations] == [field]
    assert words in violations[0][1]


# ---------------------------------------------------------------------------------------------
# MatchState


def _match_id(**kw) -> str:
    return match_id.encode(match_id.MatchKey(**kw))


def test_match_state_from_match_id_and_back(engine):
    # 7-point match, white 4 black 2, black owns a 2-cube; black on roll considers a redouble
    mid = _match_id(cube_value=2, cube_owner=Side.BLACK, on_roll=Side.BLACK, turn=Side.BLACK, length=7, scores=(4, 2))
    actions = engine.ListCubeActions(api.ListCubeActionsRequest(match=match_pb2.MatchState(match_id=mid),
                                                                side=pb.SIDE_BLACK), timeout=TIMEOUT)
    assert list(actions.actions) == [match_pb2.CUBE_ACTION_DOUBLE]
    denied = engine.ListCubeActions(api.ListCubeActionsRequest(match=match_pb2.MatchState(match_id=mid),
                                                               side=pb.SIDE_WHITE), timeout=TIMEOUT)
    assert denied.double_denial == match_pb2.CUBE_DENIAL_CUBE_OWNED_BY_OPPONENT
    doubled = engine.ApplyCubeAction(api.ApplyCubeActionRequest(match=match_pb2.MatchState(match_id=mid),
                                                                side=pb.SIDE_BLACK, action=match_pb2.CUBE_ACTION_DOUBLE),
                                     timeout=TIMEOUT).match
    assert (doubled.length, doubled.white_score, doubled.black_score, doubled.cube.value) == (7, 4, 2, 2)
    key = match_id.decode(doubled.match_id)
    assert key.doubled and key.on_roll is Side.BLACK and key.turn is Side.WHITE and key.cube_value == 2
    taken = engine.ApplyCubeAction(api.ApplyCubeActionRequest(match=match_pb2.MatchState(match_id=doubled.match_id),
                                                              side=pb.SIDE_WHITE, action=match_pb2.CUBE_ACTION_TAKE),
                                   timeout=TIMEOUT).match
    assert taken.cube.value == 4 and taken.cube.owner == pb.SIDE_WHITE
    assert match_id.decode(taken.match_id).cube_owner is Side.WHITE


def test_match_id_post_crawford_follows_the_ruleset(engine):
    mid = _match_id(length=5, scores=(4, 1))  # not the Crawford game: post-Crawford (R21)
    offer = api.OfferResignationRequest(match=match_pb2.MatchState(match_id=mid),
                                        offer=match_pb2.ResignationOffer(side=pb.SIDE_BLACK, kind=pb.RESULT_KIND_GAMMON))
    assert engine.OfferResignation(offer, timeout=TIMEOUT).outcome.points == 2
    turkish = api.OfferResignationRequest(ruleset=pb.Ruleset(preset="turkish"), match=offer.match, offer=offer.offer)
    assert engine.OfferResignation(turkish, timeout=TIMEOUT).outcome.points == 2


def test_update_match_returns_match_id_and_keeps_plain_fields(engine):
    mid = _match_id(length=5, scores=(3, 1))
    request = api.UpdateMatchRequest(match=match_pb2.MatchState(match_id=mid, games_played=4,
                                                                previous_winner=pb.SIDE_BLACK),
                                     outcome=match_pb2.GameOutcome(winner=pb.SIDE_WHITE,
                                                                   ending=match_pb2.GAME_ENDING_BORNE_OFF))
    response = engine.UpdateMatch(request, timeout=TIMEOUT)
    assert response.match.crawford and response.match.white_score == 4 and response.match.games_played == 5
    key = match_id.decode(response.match.match_id)
    assert key.crawford and key.scores == (4, 1) and key.length == 5


def test_match_from_xgid_and_gnubg_id(engine):
    # X (black) has doubled O (white) to 4 at 2-4 (white 4) in a 7-point match
    text = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:D:2:4:0:7:10"
    actions = engine.ListCubeActions(api.ListCubeActionsRequest(match=match_pb2.MatchState(xgid=text),
                                                                side=pb.SIDE_WHITE), timeout=TIMEOUT)
    assert list(actions.actions) == [match_pb2.CUBE_ACTION_TAKE, match_pb2.CUBE_ACTION_DROP]
    gid = "4HPwATDgc/ABMA:" + _match_id(length=7, scores=(4, 2))
    both = match_pb2.MatchState(gnubg_id=gid, length=7, white_score=4)  # plain fields agreeing with the ID
    assert engine.ListCubeActions(api.ListCubeActionsRequest(match=both, side=pb.SIDE_WHITE),
                                  timeout=TIMEOUT).actions == [match_pb2.CUBE_ACTION_DOUBLE]


@pytest.mark.parametrize("match, field, words", [
    (match_pb2.MatchState(match_id="bad"), "match.match_id", "12 base64"),
    (match_pb2.MatchState(match_id=_match_id(length=7), length=5), "match.match_id", "length 7"),
    (match_pb2.MatchState(match_id=_match_id(length=7, scores=(1, 2)), black_score=3), "match.match_id",
     "black_score 2"),
    (match_pb2.MatchState(match_id=_match_id(cube_value=2, cube_owner=Side.WHITE, length=7),
                          cube=match_pb2.CubeState(value=2, owner=pb.SIDE_BLACK)), "match.match_id", "cube.owner white"),
    (match_pb2.MatchState(xgid=f"{START_X}:1:1:-1:B:0:0:0:0:10"), "match.xgid", "beaver"),
    (match_pb2.MatchState(gnubg_id="4HPwATDgc/ABMA:"), "match.gnubg_id", "12 base64"),
    # a valid ID whose state the ruleset refuses: check_match names the plain field
    (match_pb2.MatchState(match_id=_match_id(length=7, scores=(6, 2), crawford=True, cube_value=2,
                                             cube_owner=Side.WHITE)), "match.cube", "Crawford"),
])
def test_bad_or_contradicting_match_ids(engine, match, field, words):
    status = rich_status(engine, "ListCubeActions", api.ListCubeActionsRequest(match=match, side=pb.SIDE_WHITE))
    violations = field_violations(status)
    assert [f for f, _ in violations] == [field]
    assert words in violations[0][1]


def test_python_client_takes_any_id(server_address):
    from tavla.client import Client

    with Client(server_address) as c:
        by_xgid = c.legal_moves(START_BLACK_XGID, [6, 5])
        by_gnubg = c.legal_moves("4HPwATDgc/ABMA:cAkAAAAAAAAE", [6, 5])
        assert [m.notation for m in by_xgid] == [m.notation for m in by_gnubg]
        assert by_xgid[0].result.on_roll == pb.SIDE_WHITE


def test_match_id_is_empty_when_the_format_cannot_hold_the_match(engine):
    # money play keeps any score; a Match ID holds 15 bits
    request = api.ApplyCubeActionRequest(match=match_pb2.MatchState(white_score=40000), side=pb.SIDE_WHITE,
                                         action=match_pb2.CUBE_ACTION_DOUBLE)
    response = engine.ApplyCubeAction(request, timeout=TIMEOUT)
    assert response.match.white_score == 40000 and response.match.WhichOneof("id") is None
