"""Why a named move is illegal: one case per reason, each citing its rule (RULES.md)."""

from __future__ import annotations

import pytest

from boards import position
from tavla.core import IllegalMoveError, IllegalReason, Position, resolve
from tavla.core.rules import notation

START = Position.initial()
# one white checker on the bar; black holds its 6 and 5 points (our 19 and 20)
ON_BAR = position(mover={13: 5, 8: 3, 6: 5, 24: 1}, other={6: 5, 5: 2, 8: 3, 13: 5}, mover_bar=1)
# white has 13 home and two outside, on its 8 and 7 points
NOT_HOME = position(mover={8: 1, 7: 1, 6: 4, 5: 3, 4: 3, 3: 3}, other={1: 15})
# all home, checkers on 6 and lower
HOME = position(mover={6: 2, 4: 3, 2: 2}, other={1: 15})
# one checker left, on 24: 24/18 (6) or 24/19 (5) but then our 13 (black's 12) is held, so
# either die plays alone and not both (R7)
LARGER = position(mover={24: 1}, other={12: 2, 2: 13})


@pytest.mark.parametrize(
    "pos, dice, text, reason",
    [
        (ON_BAR, (3, 4), "13/10 13/9", IllegalReason.MUST_ENTER_FROM_BAR),  # R8
        (ON_BAR, (6, 4), "bar/19 13/9", IllegalReason.POINT_BLOCKED),  # R9: black's 6 point
        (START, (5, 2), "24/19 13/11", IllegalReason.POINT_BLOCKED),  # R5
        (START, (5, 1), "24/23", IllegalReason.MUST_USE_BOTH_DICE),  # R7
        (LARGER, (6, 5), "24/19", IllegalReason.MUST_USE_LARGER_DIE),  # R7
        (START, (4, 4), "13/9 13/9", IllegalReason.MUST_USE_MORE_DICE),  # R6, R7
        (START, (5, 1), "", IllegalReason.MUST_USE_MORE_DICE),  # R7: the empty move
        (NOT_HOME, (6, 1), "6/off 8/7", IllegalReason.BEAR_OFF_NOT_ALLOWED),  # R11
        (HOME, (5, 1), "4/off 2/1", IllegalReason.BEAR_OFF_NOT_ALLOWED),  # R12: 6 stands higher
        (START, (5, 1), "22/17 24/23", IllegalReason.NO_CHECKER_THERE),  # R4
        (START, (5, 1), "24/20 8/7", IllegalReason.WRONG_DICE),  # R4
        (START, (5, 1), "24/18 13/8 6/5", IllegalReason.WRONG_DICE),  # three checkers, two dice
    ],
)
def test_reasons(pos, dice, text, reason):
    with pytest.raises(IllegalMoveError) as err:
        resolve(pos, dice, notation.parse(text))
    assert err.value.reason is reason, str(err.value)


def test_larger_die_rule():
    # R7: the only legal move plays the 6
    assert resolve(LARGER, (6, 5), notation.parse("24/18")).notation == "24/18"


def test_resolve_accepts_match_file_spellings():
    # 25 for the bar, 0 for off, written-out repeats and chains all name the same moves
    assert resolve(ON_BAR, (3, 4), notation.parse("25/22 13/9")).notation == "bar/22 13/9"
    assert resolve(HOME, (6, 4), notation.parse("6/0 4/0")).notation == "6/off 4/off"
    assert resolve(START, (3, 3), notation.parse("8/5 8/5 6/3 6/3")).notation == "8/5(2) 6/3(2)"
    assert resolve(START, (5, 3), notation.parse("24/21/16")).notation == "24/16"


def test_unmarked_intermediate_point_prefers_no_hit():
    # 22/13 with 6-3 could pass 16 (a blot: hit) or 19 (open): unmarked means no hit; 22/16*/13
    # names the hit; with 19 blocked only the hitting path is left, and 22/13 takes it.
    pos = position(mover={22: 1, 13: 4, 6: 5, 8: 5}, other={9: 1, 13: 5, 8: 3, 5: 5, 24: 1})
    assert resolve(pos, (6, 3), notation.parse("22/13")).hits == frozenset()
    assert resolve(pos, (6, 3), notation.parse("22/16*/13")).hits == {16}
    blocked = position(mover={22: 1, 13: 4, 6: 5, 8: 5}, other={9: 1, 6: 5, 8: 3, 13: 4, 24: 2})
    assert resolve(blocked, (6, 3), notation.parse("22/13")).hits == {16}


# --- the first rule broken, in the order a player makes the move -------------------------------

# white's blots could be hit on the way from 22 to 13 with 6-3 at 16 or at 19 (black's 9 and 6)
TWO_BLOTS = position(mover={22: 1, 13: 4, 8: 5, 6: 5}, other={9: 1, 6: 1, 13: 5, 8: 3, 5: 5})
# five on the 5 point, three on the 4 point (the C.1 mutant: a checker exactly one point higher)
ONE_HIGHER = position(mover={5: 2, 4: 3}, other={1: 15})


@pytest.mark.parametrize(
    "pos, dice, text, reason",
    [
        # 24/20 uses no rolled die: the player fails there before 13/12 (blocked) is tried
        (START, (5, 1), "24/20 13/12", IllegalReason.WRONG_DICE),  # R4 before R5
        (START, (5, 1), "13/12 24/20", IllegalReason.POINT_BLOCKED),  # written first: R5
        (START, (6, 5), "24/19/13", IllegalReason.POINT_BLOCKED),  # R4: the route as written
        (ON_BAR, (6, 4), "13/7 8/4", IllegalReason.MUST_ENTER_FROM_BAR),  # R8: nothing enters
        (ON_BAR, (6, 4), "bar/19 13/9", IllegalReason.POINT_BLOCKED),  # R9: the entry fails first
        (NOT_HOME, (6, 1), "6/off 8/7", IllegalReason.BEAR_OFF_NOT_ALLOWED),  # R11 (8/7 first: still 7)
        # R12: the 6 may bear off from 4 only if nothing stands higher; 5 is one point higher
        (ONE_HIGHER, (6, 1), "4/off 4/3", IllegalReason.BEAR_OFF_NOT_ALLOWED),
        (ONE_HIGHER, (6, 1), "4/off 5/4", IllegalReason.BEAR_OFF_NOT_ALLOWED),
        (START, (5, 1), "20/15 24/23", IllegalReason.NO_CHECKER_THERE),  # R4
    ],
)
def test_diagnosis_follows_the_players_order(pos, dice, text, reason):
    with pytest.raises(IllegalMoveError) as err:
        resolve(pos, dice, notation.parse(text))
    assert err.value.reason is reason, str(err.value)


def test_diagnosis_names_the_leg_that_fails():
    with pytest.raises(IllegalMoveError) as err:
        resolve(START, (5, 1), notation.parse("24/20 13/12"))
    assert "24/20" in str(err.value) and "13/12" not in str(err.value).split(":", 1)[1]
    with pytest.raises(IllegalMoveError) as err:
        resolve(ONE_HIGHER, (6, 1), notation.parse("4/off 4/3"))
    assert "R12" in str(err.value)


def test_r7_reasons_after_a_complete_play():
    for pos, dice, text, reason in [
        (START, (6, 5), "24/18", IllegalReason.MUST_USE_BOTH_DICE),
        (LARGER, (5, 6), "24/19", IllegalReason.MUST_USE_LARGER_DIE),  # smaller die given first
        (START, (2, 2), "13/11 13/11 6/4", IllegalReason.MUST_USE_MORE_DICE),
    ]:
        with pytest.raises(IllegalMoveError) as err:
            resolve(pos, dice, notation.parse(text))
        assert err.value.reason is reason, (text, str(err.value))


def test_ambiguous_when_two_routes_hit_differently():
    # 22/13 with 6-3 hits at 16 or at 19 whichever way: two legal moves, neither named
    with pytest.raises(IllegalMoveError) as err:
        resolve(TWO_BLOTS, (6, 3), notation.parse("22/13"))
    assert err.value.reason is IllegalReason.AMBIGUOUS_MOVE
    assert "22/16*/13" in str(err.value) and "22/19*/13" in str(err.value)
    assert resolve(TWO_BLOTS, (6, 3), notation.parse("22/19*/13")).hits == {19}
    assert resolve(TWO_BLOTS, (6, 3), notation.parse("22/16/13")).hits == {16}


def test_game_over_is_refused_over_grpc(engine):
    import grpc
    from grpc_status import rpc_status
    from google.rpc import error_details_pb2
    from tavla.core.ids import position_id
    import rpc_api as api
    from tavla.v1 import types_pb2 as pb

    won = position(mover={1: 1}, other={})  # black has borne off all 15
    request = api.ApplyMoveRequest(position=pb.Position(position_id=position_id.encode(won)), dice=[2, 1],
                                   move=pb.Move(notation="1/off"))
    with pytest.raises(grpc.RpcError) as info:
        engine.ApplyMove(request, timeout=30)
    detail = error_details_pb2.ErrorInfo()
    [d.Unpack(detail) for d in rpc_status.from_call(info.value).details if d.Is(detail.DESCRIPTOR)]
    assert detail.reason == "GAME_OVER"
