"""The BearOff RPC (R11-R14): figures per side, race odds, ranked moves, errors."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from boards import position
from tavla.core import Side
from tavla.core.ids import position_id
import rpc_api as api
from tavla.v1 import types_pb2 as pb


def _pos(p) -> pb.Position:
    return pb.Position(position_id=position_id.encode(p), on_roll=int(p.on_roll))


def test_both_sides_home_gives_race_odds(engine):
    # white: 1 checker on its 1 point; black: 15 on its 6 point; white on roll wins at once
    p = position(mover={1: 1}, other={6: 15})
    r = engine.BearOff(api.BearOffRequest(position=_pos(p)))
    assert r.white.can_bear_off and r.white.expected_rolls == 1.0
    assert r.white.rolls_distribution == [0.0, 1.0]
    assert r.black.borne_off == 0 and r.black.pip_count == 90
    assert r.black.expected_rolls == pytest.approx(12.2662, abs=1e-4)
    assert r.black.effective_pip_count == pytest.approx(r.black.expected_rolls * 49 / 6)
    assert r.race.on_roll == pb.SIDE_WHITE
    assert r.race.win == 1.0 and r.race.win_gammon == 1.0 and r.race.expected_points == 2.0


def test_side_not_home_has_no_database_figures(engine):
    p = position(mover={8: 1, 6: 14}, other={6: 15})
    r = engine.BearOff(api.BearOffRequest(position=_pos(p)))
    assert not r.white.can_bear_off and not r.white.HasField("expected_rolls")
    assert r.black.HasField("expected_rolls")
    assert not r.HasField("race")


def test_dice_rank_the_moves_best_first(engine):
    # R12: 6-1 with checkers on 2, 3, 4: the 6 bears off from 4, the 1 moves inside
    p = position(mover={2: 2, 3: 2, 4: 2}, other={6: 15})
    r = engine.BearOff(api.BearOffRequest(position=_pos(p), dice=[6, 1]))
    assert {m.move.notation for m in r.moves} == {"4/off 4/3", "4/off 3/2", "4/off 2/1"}
    rolls = [m.expected_rolls for m in r.moves]
    assert rolls == sorted(rolls) and rolls[0] < rolls[-1]
    assert r.best_move.notation == r.moves[0].move.notation


def test_dice_when_not_bearing_off_lists_moves_unranked(engine):
    r = engine.BearOff(api.BearOffRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                                          dice=[5, 1]))
    assert len(r.moves) == 8 and not r.HasField("best_move")


def test_one_die_is_invalid(engine):
    with pytest.raises(grpc.RpcError) as err:
        engine.BearOff(api.BearOffRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                                          dice=[5]))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    detail = rpc_status.from_call(err.value).details[0]
    bad = error_details_pb2.BadRequest()
    detail.Unpack(bad)
    assert bad.field_violations[0].field == "dice"


def test_black_on_roll(engine):
    p = position(mover={1: 1}, other={6: 15}, on_roll=Side.BLACK)
    r = engine.BearOff(api.BearOffRequest(position=_pos(p)))
    assert r.race.on_roll == pb.SIDE_BLACK and r.black.expected_rolls == 1.0
