"""The tavla.v1 services end to end over gRPC, plus health, reflection, the CLI and the process.

Positions are given as GNU Backgammon Position IDs (made with the core's ``position_id.encode``)
or as explicit ``Board`` messages. Point numbers are each side's own (RULES.md R1): white's point
p is black's point 25 - p. The opening counts (16, 15, 42) are the distinct resulting positions
of each roll from the start (R2), as GNU Backgammon lists them.
"""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading

import grpc
import pytest
from google.protobuf import descriptor_pool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from tavla import __version__, cli
from tavla.core import CHECKERS, Position, Side, SideView
from tavla.core.ids import position_id
from tavla.server.process import app
import rpc_api as api
from tavla.v1 import match_pb2
from tavla.v1 import types_pb2 as pb

START_ID = "4HPwATDgc/ABMA"
AFTER_51_ID = "4PPgASjgc/ABMA"  # 24/23 13/8 from the start, black on roll
TIMEOUT = 30  # seconds per call: generous, never a speed assertion


# --- helpers ----------------------------------------------------------------------------------


def side_checkers(points: dict[int, int], bar: int = 0) -> pb.SideCheckers:
    """One side in its own numbering ({point: checkers}); the rest are borne off."""
    counts = [points.get(p, 0) for p in range(1, 25)]
    return pb.SideCheckers(points=counts, bar=bar, borne_off=CHECKERS - sum(counts) - bar)


def board_position(white: dict[int, int], black: dict[int, int], *, white_bar: int = 0,
                   black_bar: int = 0, on_roll: int = pb.SIDE_WHITE) -> pb.Position:
    return pb.Position(on_roll=on_roll, board=pb.Board(white=side_checkers(white, white_bar),
                                                        black=side_checkers(black, black_bar)))


def core_position(white: dict[int, int], black: dict[int, int], *, white_bar: int = 0,
                  black_bar: int = 0, on_roll: Side = Side.WHITE) -> Position:
    def view(points: dict[int, int], bar: int) -> SideView:
        counts = tuple(points.get(p, 0) for p in range(1, 25))
        return SideView(counts, bar, CHECKERS - sum(counts) - bar)
    return Position.from_sides(on_roll, view(white, white_bar), view(black, black_bar))


def id_position(text: str, on_roll: int = pb.SIDE_WHITE) -> pb.Position:
    return pb.Position(position_id=text, on_roll=on_roll)


def list_moves(engine, position: pb.Position, dice, **ruleset) -> api.ListLegalMovesResponse:
    request = api.ListLegalMovesRequest(position=position, dice=dice, ruleset=pb.Ruleset(**ruleset))
    return engine.ListLegalMoves(request, timeout=TIMEOUT)


def by_notation(response: api.ListLegalMovesResponse) -> dict[str, pb.Move]:
    return {m.notation: m for m in response.moves}


# --- health and reflection --------------------------------------------------------------------


@pytest.mark.parametrize("service", ["", "tavla.v1.RulesService", "tavla.v1.MatchService", "tavla.v1.RefereeService",
                                     "tavla.v1.RecordsService", "tavla.v1.AnalysisService"])
def test_health_serving(channel, service):
    reply = health_pb2_grpc.HealthStub(channel).Check(
        health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT
    )
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_health_unknown_service_not_found(channel):
    with pytest.raises(grpc.RpcError) as info:
        health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service="tavla.v1.Nope"), timeout=TIMEOUT
        )
    assert info.value.code() == grpc.StatusCode.NOT_FOUND


# The 1.0 API: one service per concern, every RPC in exactly one.
SERVICE_RPCS = {
    "tavla.v1.RulesService": ["GetInitialPosition", "ListLegalMoves", "ApplyMove", "ScoreGame", "BearOff",
                              "RenderPosition", "NameRoll"],
    "tavla.v1.MatchService": ["ListLegalSteps", "StartGame", "CommitDice", "RollDice", "ListCubeActions",
                              "ApplyCubeAction", "OfferResignation", "AnswerResignation", "UpdateMatch",
                              "AdvanceClock", "ResolveRuleset", "ListRulesets"],
    "tavla.v1.RefereeService": ["NewMatch", "ListActions", "Act"],
    "tavla.v1.RecordsService": ["ValidateMatch", "ExportMatch"],
    "tavla.v1.AnalysisService": ["SuggestMove", "EvaluatePosition", "SuggestCubeAction", "AnalyzeMatch",
                                 "StreamAnalyzeMatch", "SuggestAction"],
}


def test_reflection_lists_and_describes_services(channel):
    database = ProtoReflectionDescriptorDatabase(channel)
    assert set(database.get_services()) == {
        *SERVICE_RPCS, "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection",
    }
    pool = descriptor_pool.DescriptorPool(database)
    for name, rpcs in SERVICE_RPCS.items():
        assert [m.name for m in pool.FindServiceByName(name).methods] == rpcs


def test_every_rpc_answers_on_its_own_service_only(channel):
    # an RPC called on another service's path is UNIMPLEMENTED: no old EngineService paths remain
    for path in ("/tavla.v1.EngineService/GetInitialPosition", "/tavla.v1.MatchService/GetInitialPosition"):
        with pytest.raises(grpc.RpcError) as info:
            channel.unary_unary(path)(b"", timeout=TIMEOUT)
        assert info.value.code() == grpc.StatusCode.UNIMPLEMENTED, path
    answer = channel.unary_unary("/tavla.v1.RulesService/GetInitialPosition")(b"", timeout=TIMEOUT)
    assert api.GetInitialPositionResponse.FromString(answer).position.ids.position_id == START_ID


# --- GetInitialPosition -----------------------------------------------------------------------


def test_initial_position_defaults_to_white(engine):
    position = engine.GetInitialPosition(api.GetInitialPositionRequest(), timeout=TIMEOUT).position
    assert position.ids.position_id == START_ID
    assert position.on_roll == pb.SIDE_WHITE
    for side in (position.board.white, position.board.black):  # R2, each in its own numbering
        assert list(side.points) == [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2]
        assert (side.bar, side.borne_off, side.pip_count) == (0, 0, 167)


def test_initial_position_black_on_roll(engine):
    request = api.GetInitialPositionRequest(on_roll=pb.SIDE_BLACK, ruleset=pb.Ruleset(preset="tavla"))
    position = engine.GetInitialPosition(request, timeout=TIMEOUT).position
    assert (position.on_roll, position.ids.position_id) == (pb.SIDE_BLACK, START_ID)


# --- ListLegalMoves ---------------------------------------------------------------------------


def test_opening_51_contains_24_23_13_8(engine):
    response = list_moves(engine, id_position(START_ID), [5, 1])
    assert response.dice_used == 2
    move = by_notation(response)["24/23 13/8"]
    assert move.result.ids.position_id == AFTER_51_ID
    assert move.result.on_roll == pb.SIDE_BLACK
    assert {(c.from_point, c.to_point, c.die, c.hit) for c in move.checker_moves} == {
        (24, 23, 1, False), (13, 8, 5, False),
    }
    # the result is a full position: white moved in white's numbering, black untouched
    assert move.result.board.white.points[22] == 1 and move.result.board.white.points[7] == 4
    assert move.result.board.white.pip_count == 161
    assert move.result.board.black.pip_count == 167


@pytest.mark.parametrize(("dice", "count"), [([3, 1], 16), ([1, 3], 16), ([2, 1], 15), ([1, 1], 42)])
def test_opening_move_counts(engine, dice, count):
    response = list_moves(engine, id_position(START_ID), dice)
    assert len(response.moves) == count
    assert len({m.result.ids.position_id for m in response.moves}) == count  # one per result
    assert response.dice_used == (4 if dice[0] == dice[1] else 2)


def test_black_on_roll_mirrors_white(engine):
    response = list_moves(engine, id_position(START_ID, pb.SIDE_BLACK), [5, 1])
    move = by_notation(response)["24/23 13/8"]
    assert move.result.on_roll == pb.SIDE_WHITE
    assert move.result.ids.position_id == AFTER_51_ID
    assert move.result.board.black.points[22] == 1  # black's own point 23


def test_board_and_position_id_inputs_agree(engine):
    board = board_position({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    both = pb.Position(on_roll=pb.SIDE_WHITE, board=board.board, position_id=START_ID)
    expected = list_moves(engine, id_position(START_ID), [6, 4])
    assert list_moves(engine, board, [6, 4]) == expected
    assert list_moves(engine, both, [6, 4]) == expected


def test_no_move_gives_one_empty_move(engine):
    # Black holds its points 1-6 (white's 19-24), so white's bar checker cannot enter (R8, R9).
    white, black = {6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}
    position = board_position(white, black, white_bar=1)
    response = list_moves(engine, position, [6, 5])
    assert response.dice_used == 0
    [move] = response.moves
    assert move.notation == "" and not move.checker_moves
    assert move.result.on_roll == pb.SIDE_BLACK
    assert _same_checkers(move.result.board, position.board)
    assert move.result.ids.position_id == position_id.encode(core_position(white, black, white_bar=1).swap_turn())


def _same_checkers(a: pb.Board, b: pb.Board) -> bool:
    return all(
        (list(x.points), x.bar, x.borne_off) == (list(y.points), y.bar, y.borne_off)
        for x, y in ((a.white, b.white), (a.black, b.black))
    )


# --- ApplyMove --------------------------------------------------------------------------------


def apply(engine, position: pb.Position, dice, move: pb.Move, **ruleset) -> api.ApplyMoveResponse:
    request = api.ApplyMoveRequest(position=position, dice=dice, move=move, ruleset=pb.Ruleset(**ruleset))
    return engine.ApplyMove(request, timeout=TIMEOUT)


def test_apply_by_notation(engine):
    response = apply(engine, id_position(START_ID), [5, 1], pb.Move(notation="13/8 24/23"))
    assert response.move.notation == "24/23 13/8"  # canonical form
    assert response.move.result.ids.position_id == AFTER_51_ID
    assert response.move.result.on_roll == pb.SIDE_BLACK
    assert not response.HasField("outcome")  # the game goes on
    assert [f.name for f, _ in response.ListFields()] == ["move"]  # 1.0: no position or game_over beside it


def test_apply_by_checker_moves(engine):
    move = pb.Move(checker_moves=[pb.CheckerMove(from_point=24, to_point=23),
                                  pb.CheckerMove(from_point=13, to_point=8)])
    response = apply(engine, id_position(START_ID), [5, 1], move)
    assert response.move.notation == "24/23 13/8"
    assert response.move.result.ids.position_id == AFTER_51_ID


def test_apply_one_checker_both_dice_by_checker_moves(engine):
    move = pb.Move(checker_moves=[pb.CheckerMove(from_point=13, to_point=7),
                                  pb.CheckerMove(from_point=7, to_point=6)])
    response = apply(engine, id_position(START_ID), [6, 1], move)
    assert response.move.notation == "13/6"
    assert [(c.from_point, c.to_point, c.die) for c in response.move.checker_moves] == [(13, 7, 6), (7, 6, 1)]


def test_apply_echoes_a_listed_move(engine):
    # a client may send back a Move from ListLegalMoves: notation, checker_moves and result
    listed = list_moves(engine, id_position(START_ID), [4, 2]).moves
    for move in listed:
        response = apply(engine, id_position(START_ID), [4, 2], move)
        assert response.move == move


def test_apply_empty_move_when_nothing_plays(engine):
    position = board_position({6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, white_bar=1)
    response = apply(engine, position, [6, 6], pb.Move())
    assert response.move.notation == "" and response.move.result.on_roll == pb.SIDE_BLACK


def test_apply_ending_the_game_returns_result(engine):
    # White's last checker on its 1 point; black has borne off none, all on black's 13: gammon.
    position = board_position({1: 1}, {13: 15})
    response = apply(engine, position, [2, 1], pb.Move(notation="1/off"))
    assert response.outcome == borne_off(pb.SIDE_WHITE, pb.RESULT_KIND_GAMMON, 2)
    assert response.move.result.board.white.borne_off == 15
    assert response.move.result.on_roll == pb.SIDE_BLACK


def test_apply_ending_with_backgammon_as_mars(engine):
    # Black's checker on its 20 is in white's home board (R16); turkish pays it 2 (R17).
    position = board_position({2: 1, 1: 1}, {20: 1, 13: 14}, on_roll=pb.SIDE_WHITE)
    response = apply(engine, position, [3, 2], pb.Move(notation="2/off 1/off"), preset="turkish")
    assert response.outcome == borne_off(pb.SIDE_WHITE, pb.RESULT_KIND_BACKGAMMON, 2)


# --- ScoreGame --------------------------------------------------------------------------------


def borne_off(winner: pb.Side, kind: pb.ResultKind, points: int) -> match_pb2.GameOutcome:
    """The outcome of a game won by bearing off, paying ``points`` (cube 1, R15-R17)."""
    return match_pb2.GameOutcome(winner=winner, ending=match_pb2.GAME_ENDING_BORNE_OFF, kind=kind, points=points)


def score(engine, position: pb.Position, **ruleset) -> api.ScoreGameResponse:
    request = api.ScoreGameRequest(position=position, ruleset=pb.Ruleset(**ruleset))
    return engine.ScoreGame(request, timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("black", "black_bar", "ruleset", "kind", "points"),
    [
        ({6: 14}, 0, {}, pb.RESULT_KIND_SINGLE, 1),  # R15: black bore one off
        ({13: 15}, 0, {}, pb.RESULT_KIND_GAMMON, 2),  # R15: none off
        ({13: 15}, 0, {"preset": "tavla"}, pb.RESULT_KIND_GAMMON, 2),
        ({13: 14, 20: 1}, 0, {}, pb.RESULT_KIND_BACKGAMMON, 3),  # R16: in white's home board
        ({13: 14}, 1, {}, pb.RESULT_KIND_BACKGAMMON, 3),  # R16: on the bar
        ({13: 14, 20: 1}, 0, {"katmerli_mars": pb.KATMERLI_MARS_RULE_AS_MARS},
         pb.RESULT_KIND_BACKGAMMON, 2),  # R17
        ({13: 14, 20: 1}, 0, {"preset": "turkish"}, pb.RESULT_KIND_BACKGAMMON, 2),
        ({13: 14, 20: 1}, 0, {"preset": "turkish", "katmerli_mars": pb.KATMERLI_MARS_RULE_COUNTED},
         pb.RESULT_KIND_BACKGAMMON, 3),
    ],
)
def test_score_game(engine, black, black_bar, ruleset, kind, points):
    response = score(engine, board_position({}, black, black_bar=black_bar, on_roll=pb.SIDE_BLACK), **ruleset)
    assert response.outcome == borne_off(pb.SIDE_WHITE, kind, points)


def test_score_game_black_wins_by_position_id(engine):
    # all of white on its 24 point, which is black's 1: inside the winner's home board (R16)
    position = core_position({24: 15}, {}, on_roll=Side.WHITE)
    response = score(engine, id_position(position_id.encode(position)))
    assert response.outcome == borne_off(pb.SIDE_BLACK, pb.RESULT_KIND_BACKGAMMON, 3)


def test_score_game_not_over(engine):
    response = score(engine, id_position(START_ID))
    assert not response.HasField("outcome")
    assert response.ByteSize() == 0


# --- graceful stop, CLI and process -----------------------------------------------------------


def test_stop_marks_not_serving_before_stopping():
    engine = app.build(app.ServerOptions(host="127.0.0.1", port=0))
    app.start(engine)
    seen = []
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
        stub = health_pb2_grpc.HealthStub(ch)

        def drain(_seconds):  # stands in for the drain delay: ask health while still up
            seen.append(stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT).status)

        app.stop(engine, grace=5, drain_delay=1, drain=drain)
    assert seen == [health_pb2.HealthCheckResponse.NOT_SERVING]


def test_cli_version(capsys):
    assert cli.main(["version"]) == 0
    assert capsys.readouterr().out.strip() == f"tavla-engine {__version__}"


def test_cli_serve_options_from_env(monkeypatch):
    monkeypatch.setenv("TAVLA_HOST", "127.0.0.1")
    monkeypatch.setenv("TAVLA_PORT", "6000")
    args = cli.build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 6000)
    args = cli.build_parser().parse_args(["serve", "--port", "0", "--host", "::"])
    assert (args.host, args.port) == ("::", 0)


def test_cli_rejects_bad_port(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["serve", "--port", "70000"])
    assert info.value.code == 2


def test_core_imports_no_grpc_or_protobuf(subprocess_env):
    code = (
        "import sys, tavla.core as c, tavla.core.game  # the referee's state machine too\n"
        "c.legal_moves(c.position_id.decode('4HPwATDgc/ABMA'), (6, 6))\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('grpc', 'google')))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=subprocess_env, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_server_with_exit_0(subprocess_env, signum):
    proc = subprocess.Popen(
        # a short drain: the drain itself is tests/server/test_ops_shutdown.py's; this is about the signal
        [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", "0", "--drain-seconds", "0.2",
         "--metrics-port", "0"],  # tests run side by side: no fixed port
        env=subprocess_env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []  # the server's stderr, shown if the test fails

    def read() -> None:
        for line in proc.stderr:
            log.append(line)
            lines.put(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        port = _wait_for_port(lines, log)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            reply = health_pb2_grpc.HealthStub(ch).Check(
                health_pb2.HealthCheckRequest(service="tavla.v1.RefereeService"), timeout=TIMEOUT,
                wait_for_ready=True,
            )
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        proc.send_signal(signum)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"no exit 60 s after {signum.name}; server log:\n{''.join(log)}")
        reader.join(timeout=30)  # the pipe closes when the process exits
        assert code == 0, "".join(log)
        assert "tavla-engine stopped" in log[-1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _wait_for_port(lines: queue.Queue[str], log: list[str]) -> int:
    while True:
        try:
            line = lines.get(timeout=60)  # generous: interpreter start and grpc import
        except queue.Empty:
            pytest.fail("no 'listening on' line within 60 s of the last line; server log:\n" + "".join(log))
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if match:
            return int(match.group(1))
