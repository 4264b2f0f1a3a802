"""Error statuses of the tavla.v1 services (AIP-193): malformed input gives INVALID_ARGUMENT with
a google.rpc.BadRequest naming the field; an illegal move gives INVALID_ARGUMENT with a
google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule (RULES.md R4-R14); a bug gives
INTERNAL and the server carries on. A Hypothesis test throws random and garbage requests at the
live server and accepts only OK or INVALID_ARGUMENT.

Positions are drawn in each side's own numbering (R1): white's point p is black's 25 - p.
"""

from __future__ import annotations

import logging

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavla.core import CHECKERS, Position, Side, SideView
from tavla.core.ids import position_id
from tavla.server.process.app import start_in_process
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
import rpc_api as api
from tavla.v1 import types_pb2 as pb
from statuses import field_violations, rich_status, unpack

START_ID = "4HPwATDgc/ABMA"
START = {24: 2, 13: 5, 8: 3, 6: 5}  # R2, either side in its own numbering
TIMEOUT = 30
U32_MAX = 2**32 - 1


# --- helpers ----------------------------------------------------------------------------------


def side_checkers(points: dict[int, int], bar: int = 0, borne_off: int | None = None,
                  length: int = 24) -> pb.SideCheckers:
    counts = [points.get(p, 0) for p in range(1, length + 1)]
    off = CHECKERS - sum(counts) - bar if borne_off is None else borne_off
    return pb.SideCheckers(points=counts, bar=bar, borne_off=off)


def board(white: pb.SideCheckers, black: pb.SideCheckers, on_roll: int = pb.SIDE_WHITE) -> pb.Position:
    return pb.Position(on_roll=on_roll, board=pb.Board(white=white, black=black))


def start_board(**kwargs) -> pb.Position:
    return board(side_checkers(START), side_checkers(START), **kwargs)


def pid(white: dict[int, int], black: dict[int, int], *, white_bar: int = 0, black_bar: int = 0) -> pb.Position:
    """A Position message by ID, white on roll, made with the core's encoder."""
    def view(points: dict[int, int], bar: int) -> SideView:
        counts = tuple(points.get(p, 0) for p in range(1, 25))
        return SideView(counts, bar, CHECKERS - sum(counts) - bar)
    position = Position.from_sides(Side.WHITE, view(white, white_bar), view(black, black_bar))
    return pb.Position(position_id=position_id.encode(position), on_roll=pb.SIDE_WHITE)


def list_request(position: pb.Position, dice=(5, 1), **ruleset) -> api.ListLegalMovesRequest:
    return api.ListLegalMovesRequest(position=position, dice=dice, ruleset=pb.Ruleset(**ruleset))


def apply_request(position: pb.Position, dice=(5, 1), notation: str = "24/23 13/8",
                  checker_moves=()) -> api.ApplyMoveRequest:
    move = pb.Move(notation=notation, checker_moves=[
        pb.CheckerMove(from_point=f, to_point=t) for f, t in checker_moves
    ])
    return api.ApplyMoveRequest(position=position, dice=dice, move=move)


START_ID_POSITION = pb.Position(position_id=START_ID)


# --- malformed input: BadRequest ----------------------------------------------------------------


MALFORMED = [
    ("15 checkers but borne_off 1", "ListLegalMoves",
     list_request(board(side_checkers(START, borne_off=1), side_checkers(START))), "position.board.white"),
    ("14 checkers in all", "ListLegalMoves",
     list_request(board(side_checkers({24: 2, 13: 5, 8: 3, 6: 4}, borne_off=0), side_checkers(START))),
     "position.board.white"),
    ("16 black checkers", "ScoreGame",
     api.ScoreGameRequest(position=board(side_checkers(START), side_checkers({**START, 1: 1}, borne_off=0)))
     , "position.board.black"),
    ("both sides on one point", "ListLegalMoves",  # white's 24 is black's 1
     list_request(board(side_checkers(START), side_checkers({1: 1, 13: 5, 8: 3, 6: 5}))),
     "position.board.white.points"),
    ("both sides all off", "ScoreGame",
     api.ScoreGameRequest(position=board(side_checkers({}), side_checkers({}))), "position.board"),
    ("die 0", "ListLegalMoves", list_request(START_ID_POSITION, (0, 3)), "dice"),
    ("die 7", "ApplyMove", apply_request(START_ID_POSITION, (7, 1)), "dice"),
    ("die 2^32-1", "ListLegalMoves", list_request(START_ID_POSITION, (U32_MAX, 1)), "dice"),
    ("three dice", "ListLegalMoves", list_request(START_ID_POSITION, (1, 2, 3)), "dice"),
    ("one die", "ListLegalMoves", list_request(START_ID_POSITION, (4,)), "dice"),
    ("no dice", "ApplyMove", apply_request(START_ID_POSITION, ()), "dice"),
    ("position id not base64", "ListLegalMoves",
     list_request(pb.Position(position_id="not-an-id!!!!!")), "position.position_id"),
    ("position id too short", "ScoreGame",
     api.ScoreGameRequest(position=pb.Position(position_id="4HPwATDgc")), "position.position_id"),
    ("position id with too many checkers", "ListLegalMoves",
     list_request(pb.Position(position_id="//////////////")), "position.position_id"),
    ("notation unreadable", "ApplyMove", apply_request(START_ID_POSITION, notation="13-8 24-23"),
     "move.notation"),
    ("notation with five checkers", "ApplyMove",
     apply_request(START_ID_POSITION, notation="24/23 13/8 8/5 6/5 6/1"), "move.notation"),
    ("notation moving backwards", "ApplyMove", apply_request(START_ID_POSITION, notation="8/13"),
     "move.notation"),
    # the longest a request may be (--max-request-bytes, 64 KiB; a megabyte is RESOURCE_EXHAUSTED)
    ("notation of 60 KB", "ApplyMove", apply_request(START_ID_POSITION, notation="24/23 " * 10_000),
     "move.notation"),
    ("checker move from 26", "ApplyMove",
     apply_request(START_ID_POSITION, notation="", checker_moves=[(26, 20), (13, 8)]), "move.checker_moves"),
    ("checker move backwards", "ApplyMove",
     apply_request(START_ID_POSITION, notation="", checker_moves=[(8, 13)]), "move.checker_moves"),
    ("five checker moves", "ApplyMove",
     apply_request(START_ID_POSITION, (1, 1), notation="", checker_moves=[(8, 7)] * 5), "move.checker_moves"),
    ("notation and checker moves disagree", "ApplyMove",
     apply_request(START_ID_POSITION, notation="24/23 13/8", checker_moves=[(13, 8), (6, 5)]), "move"),
    ("board with 23 points", "ListLegalMoves",
     list_request(board(side_checkers(START, length=23), side_checkers(START))), "position.board.white.points"),
    ("board with 25 points", "ListLegalMoves",
     list_request(board(side_checkers(START), side_checkers(START, length=25))), "position.board.black.points"),
    ("board without black", "ListLegalMoves",
     list_request(pb.Position(on_roll=pb.SIDE_WHITE, board=pb.Board(white=side_checkers(START)))),
     "position.board.black.points"),
    ("on_roll missing with board", "ListLegalMoves", list_request(start_board(on_roll=pb.SIDE_UNSPECIFIED)),
     "position.on_roll"),
    ("on_roll unknown number", "ListLegalMoves",
     list_request(pb.Position(position_id=START_ID, on_roll=7)), "position.on_roll"),
    ("no position", "ListLegalMoves", list_request(pb.Position()), "position"),
    ("unknown preset", "ListLegalMoves", list_request(START_ID_POSITION, preset="chess"), "ruleset.preset"),
    ("unknown start rule", "ScoreGame",
     api.ScoreGameRequest(position=START_ID_POSITION, ruleset=pb.Ruleset(start=9)), "ruleset.start"),
    ("unknown katmerli rule", "ApplyMove",
     api.ApplyMoveRequest(position=START_ID_POSITION, dice=[5, 1], ruleset=pb.Ruleset(katmerli_mars=4)),
     "ruleset.katmerli_mars"),
    ("initial position, unknown side", "GetInitialPosition", api.GetInitialPositionRequest(on_roll=3),
     "on_roll"),
]


@pytest.mark.parametrize(("method", "request_", "field"), [m[1:] for m in MALFORMED],
                         ids=[m[0] for m in MALFORMED])
def test_malformed_input_names_the_field(engine, method, request_, field):
    status = rich_status(engine, method, request_)
    violations = field_violations(status)
    assert [f for f, _ in violations] == [field]
    assert violations[0][1]  # a description saying what is wrong
    assert not unpack(status, error_details_pb2.ErrorInfo)
    assert len(status.message) <= 512  # long input is not echoed whole into the trailers


# --- illegal moves: ErrorInfo -----------------------------------------------------------------


ILLEGAL = [
    # R8: a checker on the bar must enter first.
    ("MUST_ENTER_FROM_BAR", pid({24: 2, 13: 4, 8: 3, 6: 5}, START, white_bar=1), (5, 1), "13/8 6/5"),
    # R5: black's 6 point (white's 19) holds five.
    ("POINT_BLOCKED", START_ID_POSITION, (5, 2), "24/19"),
    # R7: both dice can be played.
    ("MUST_USE_BOTH_DICE", START_ID_POSITION, (5, 1), "13/8"),
    # R7: one checker on 13; 13/7/2 and 13/8/2 land on black's 23 (white's 2), held by two.
    ("MUST_USE_LARGER_DIE", pid({13: 1}, {23: 2, 1: 13}), (6, 5), "13/8"),
    # R6, R7: a double is played four times when it can be.
    ("MUST_USE_MORE_DICE", START_ID_POSITION, (6, 6), "24/18(2)"),
    ("MUST_USE_MORE_DICE", START_ID_POSITION, (6, 6), ""),
    # R11: not all fifteen are home.
    ("BEAR_OFF_NOT_ALLOWED", START_ID_POSITION, (6, 5), "6/off 6/1"),
    # R4: nothing of white's on 20.
    ("NO_CHECKER_THERE", START_ID_POSITION, (5, 1), "20/15 6/5"),
    # R4: 5-1 does not move a checker four pips.
    ("WRONG_DICE", START_ID_POSITION, (5, 1), "13/9 6/5"),
    ("WRONG_DICE", START_ID_POSITION, (5, 1), "13/8 6/5 8/3"),
    # Black blots on white's 11 and 9 (black's 14 and 16): 13/7 with 4-2 hits either.
    ("AMBIGUOUS_MOVE", pid(START, {24: 2, 13: 3, 16: 1, 14: 1, 8: 3, 6: 5}), (4, 2), "13/7"),
]


@pytest.mark.parametrize(("reason", "position", "dice", "notation"), ILLEGAL,
                         ids=[f"{r}:{n or 'empty'}" for r, _, _, n in ILLEGAL])
def test_illegal_move_reason(engine, reason, position, dice, notation):
    status = rich_status(engine, "ApplyMove", apply_request(position, dice, notation))
    [info] = unpack(status, error_details_pb2.ErrorInfo)
    assert (info.reason, info.domain) == (reason, "tavla.v1")
    assert dict(info.metadata) == {"move": notation, "dice": f"{dice[0]}-{dice[1]}"}
    assert not field_violations(status)


def test_illegal_move_by_checker_moves(engine):
    request = apply_request(START_ID_POSITION, (5, 2), notation="", checker_moves=[(24, 19), (24, 22)])
    [info] = unpack(rich_status(engine, "ApplyMove", request), error_details_pb2.ErrorInfo)
    assert info.reason == "POINT_BLOCKED"
    assert info.metadata["move"] == "24/19 24/22"


@pytest.mark.parametrize("method", ["ListLegalMoves", "ApplyMove"])
def test_game_over_position(engine, method):
    # White has borne off all 15 (R15); black is on roll.
    over = board(side_checkers({}), side_checkers({13: 15}), on_roll=pb.SIDE_BLACK)
    request = list_request(over) if method == "ListLegalMoves" else apply_request(over, notation="13/8 13/12")
    status = rich_status(engine, method, request)
    [info] = unpack(status, error_details_pb2.ErrorInfo)
    assert (info.reason, info.domain, info.metadata["winner"]) == ("GAME_OVER", "tavla.v1", "white")
    assert [f for f, _ in field_violations(status)] == ["position"]


# --- bytes that are not a request, and bugs -----------------------------------------------------


@pytest.mark.parametrize("payload", [
    b"\x12\xff",  # position: a length of 255 with nothing after it
    b"\x12\x04\x1a\x02\xff\xfe",  # position.position_id that is not UTF-8
    b"\x18",  # dice: a tag without its value
])
def test_undecodable_request_is_invalid_argument(channel, payload):
    call = channel.unary_unary("/tavla.v1.RulesService/ListLegalMoves")  # raw bytes both ways
    with pytest.raises(grpc.RpcError) as info:
        call(payload, timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "does not parse" in info.value.details()


class _Broken(RulesService):
    def ListLegalMoves(self, request, context):
        raise RuntimeError("secret internal detail")


def test_bug_gives_internal_logs_traceback_and_server_survives(caplog):
    server, port = start_in_process(by_service=by_service(_Broken()))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = api.AnyStub(ch)
            with caplog.at_level(logging.ERROR, logger="tavla.server.pipeline.errors"):
                with pytest.raises(grpc.RpcError) as info:
                    stub.ListLegalMoves(list_request(START_ID_POSITION), timeout=TIMEOUT)
            assert info.value.code() == grpc.StatusCode.INTERNAL
            assert info.value.details() == "internal error"  # nothing internal leaks
            [record] = [r for r in caplog.records if r.name == "tavla.server.pipeline.errors"]
            assert record.exc_info and "secret internal detail" in str(record.exc_info[1])
            assert "ListLegalMoves" in record.getMessage()
            # the same server still answers
            reply = stub.GetInitialPosition(api.GetInitialPositionRequest(), timeout=TIMEOUT)
            assert reply.position.ids.position_id == START_ID
    finally:
        server.stop(grace=None)


# --- fuzzing: only OK or INVALID_ARGUMENT, ever -------------------------------------------------

u32 = st.one_of(st.integers(0, 30), st.integers(0, U32_MAX))
good_dice = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(list)
dice_st = st.one_of(good_dice, good_dice, st.lists(st.one_of(st.integers(0, 7), u32), max_size=5))


@st.composite
def valid_sides(draw) -> tuple[dict[int, int], int, dict[int, int], int]:
    """Fifteen checkers a side anywhere (0 off, 25 bar), no point shared (R1)."""
    white = draw(st.lists(st.integers(0, 25), min_size=15, max_size=15))
    taken = {25 - p for p in white if 1 <= p <= 24}  # white's points in black's numbering
    black = [p if p not in taken else 0 for p in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15))]
    w = {p: white.count(p) for p in range(1, 25)}
    b = {p: black.count(p) for p in range(1, 25)}
    if white.count(0) == 15 and black.count(0) == 15:
        b[13] = 1
    return w, white.count(25), b, black.count(25)


@st.composite
def positions(draw) -> pb.Position:
    kind = draw(st.sampled_from(["valid-board", "valid-id", "valid-both", "garbage"]))
    sides = st.sampled_from([pb.SIDE_WHITE, pb.SIDE_BLACK])
    on_roll = draw(st.one_of(sides, sides, sides, st.integers(0, 5)))
    if kind != "garbage":
        w, wbar, b, bbar = draw(valid_sides())
        msg = board(side_checkers(w, wbar), side_checkers(b, bbar), on_roll)
        if kind != "valid-board" and on_roll in (pb.SIDE_WHITE, pb.SIDE_BLACK):
            views = [SideView(tuple(d.get(p, 0) for p in range(1, 25)), bar, CHECKERS - sum(d.values()) - bar)
                     for d, bar in ((w, wbar), (b, bbar))]
            msg.position_id = position_id.encode(Position.from_sides(Side(on_roll), *views))
        if kind == "valid-id":
            msg.ClearField("board")
        return msg
    sides = st.builds(pb.SideCheckers, points=st.lists(u32, max_size=30), bar=u32, borne_off=u32, pip_count=u32)
    return pb.Position(
        on_roll=on_roll,
        board=draw(st.one_of(st.none(), st.builds(pb.Board, white=sides, black=sides))),
        position_id=draw(st.one_of(st.text(max_size=20),
                                   st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
                                           min_size=14, max_size=14))),
    )


token = st.from_regex(r"(bar|[0-9]{1,2})(/([0-9]{1,2}|off|bar)\*?){1,3}(\([0-9]\))?", fullmatch=True)
notations = st.one_of(st.text(max_size=40), st.lists(token, max_size=5).map(" ".join))
checker_moves = st.lists(st.builds(pb.CheckerMove, from_point=u32, to_point=u32, die=u32, hit=st.booleans()),
                         max_size=6)
good_rulesets = st.builds(
    pb.Ruleset,
    preset=st.sampled_from(["", "international", "backgammon", "turkish", "TAVLA "]),
    start=st.integers(0, 2), katmerli_mars=st.integers(0, 2), cube=st.one_of(st.none(), st.booleans()),
)
rulesets = st.one_of(st.just(pb.Ruleset()), good_rulesets, st.builds(
    pb.Ruleset, preset=st.text(max_size=10), start=st.integers(0, U32_MAX // 2),
    katmerli_mars=st.integers(0, 4), cube=st.one_of(st.none(), st.booleans()),
))
requests = st.one_of(
    st.builds(lambda r, s: ("GetInitialPosition", api.GetInitialPositionRequest(ruleset=r, on_roll=s)),
              rulesets, st.integers(0, 5)),
    st.builds(lambda r, p, d: ("ListLegalMoves", api.ListLegalMovesRequest(ruleset=r, position=p, dice=d)),
              rulesets, positions(), dice_st),
    st.builds(lambda r, p, d, n, c: ("ApplyMove", api.ApplyMoveRequest(
        ruleset=r, position=p, dice=d, move=pb.Move(notation=n, checker_moves=c))),
        rulesets, positions(), dice_st, notations, checker_moves),
    st.builds(lambda r, p: ("ScoreGame", api.ScoreGameRequest(ruleset=r, position=p)), rulesets, positions()),
)


def test_fuzzed_requests_get_ok_or_invalid_argument(engine, channel):
    codes: dict[str, int] = {}

    @settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
    @given(requests, st.data())
    def check(named_request, data):
        method, request = named_request
        try:
            response = getattr(engine, method)(request, timeout=TIMEOUT)
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
            status = rpc_status.from_call(err)
            assert status is not None and status.details, err.details()  # always a rich status
            codes["INVALID_ARGUMENT"] = codes.get("INVALID_ARGUMENT", 0) + 1
            return
        codes["OK"] = codes.get("OK", 0) + 1
        if method == "ListLegalMoves":
            assert response.moves
            assert all(len(m.result.ids.position_id) == 14 for m in response.moves)
            # every listed move applies, by notation or by checker moves, to the same result
            move = data.draw(st.sampled_from(response.moves))
            sent = data.draw(st.sampled_from([
                pb.Move(notation=move.notation),
                pb.Move(checker_moves=move.checker_moves),
                move,
            ]))
            applied = engine.ApplyMove(api.ApplyMoveRequest(
                ruleset=request.ruleset, position=request.position, dice=request.dice, move=sent,
            ), timeout=TIMEOUT)
            assert applied.move == move
        elif method == "ApplyMove":
            assert len(response.move.result.ids.position_id) == 14  # the position after the move
            board = response.move.result.board
            assert response.HasField("outcome") == (15 in (board.white.borne_off, board.black.borne_off))

    check()
    assert codes.get("OK") and codes.get("INVALID_ARGUMENT")  # both paths were exercised
    reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
