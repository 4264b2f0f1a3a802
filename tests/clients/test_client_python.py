"""tavla.client beyond the conformance scenarios: its default service config (the one every
client shares), retries of UNAVAILABLE and CANCELLED and nothing else, deadlines, the typed helpers and the
error details, against small in-process servers that fail on purpose and the session server."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from tavla import client as tavla_client
from tavla.client import START_POSITION_ID, AsyncClient, Client, EngineError, position
import rpc_api as api
from tavla.v1 import rules_service_pb2_grpc
from tavla.v1 import types_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]


def test_service_config_is_the_shared_one() -> None:
    shared = json.loads((ROOT / "clients" / "service_config.json").read_text(encoding="utf-8"))
    assert tavla_client.SERVICE_CONFIG == shared


class _Flaky(rules_service_pb2_grpc.RulesServiceServicer):
    """GetInitialPosition fails with ``code`` ``failures`` times, then answers; ScoreGame holds until the test ends."""

    def __init__(self, code: grpc.StatusCode, failures: int) -> None:
        self.code, self.failures, self.calls = code, failures, 0
        self.lock = threading.Lock()
        self.release = threading.Event()

    def GetInitialPosition(self, request, context):
        with self.lock:
            self.calls += 1
            failing = self.calls <= self.failures
        if failing:
            context.abort(self.code, "failing on purpose")
        return api.GetInitialPositionResponse(position=pb.Position(ids=pb.PositionIds(position_id=START_POSITION_ID)))

    def ScoreGame(self, request, context):
        self.release.wait(60)  # until the test ends: longer than any deadline it sets
        return api.ScoreGameResponse()


@pytest.fixture
def flaky_server() -> Iterator[callable]:
    servers, servicers = [], []

    def start(code: grpc.StatusCode, failures: int) -> tuple[str, _Flaky]:
        servicer = _Flaky(code, failures)
        servicers.append(servicer)
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        rules_service_pb2_grpc.add_RulesServiceServicer_to_server(servicer, server)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        servers.append(server)
        return f"127.0.0.1:{port}", servicer

    yield start
    for servicer in servicers:
        servicer.release.set()
    for server in servers:
        server.stop(None)


@pytest.mark.parametrize("code", [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED])
def test_unavailable_and_cancelled_are_retried(flaky_server, code) -> None:
    # CANCELLED without response headers: a call the server never started (its shutdown dropped
    # it); every RPC is a pure function of its request, so asking again is safe
    target, servicer = flaky_server(code, 2)
    with Client(target) as c:
        assert c.initial_position().ids.position_id == START_POSITION_ID
    assert servicer.calls == 3


def test_unavailable_gives_up_after_five_attempts(flaky_server) -> None:
    target, servicer = flaky_server(grpc.StatusCode.UNAVAILABLE, 10)
    with Client(target) as c, pytest.raises(EngineError) as info:
        c.initial_position()
    assert info.value.code == grpc.StatusCode.UNAVAILABLE
    assert servicer.calls == 5


@pytest.mark.parametrize("code", [grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.INTERNAL,
                                  grpc.StatusCode.DEADLINE_EXCEEDED])
def test_other_codes_are_not_retried(flaky_server, code) -> None:
    target, servicer = flaky_server(code, 1)
    with Client(target) as c, pytest.raises(EngineError) as info:
        c.initial_position()
    assert info.value.code == code
    assert servicer.calls == 1


def test_asyncio_client_retries_too(flaky_server) -> None:
    target, servicer = flaky_server(grpc.StatusCode.UNAVAILABLE, 2)

    async def run() -> str:
        async with AsyncClient(target) as c:
            return (await c.initial_position()).ids.position_id

    assert asyncio.run(run()) == START_POSITION_ID
    assert servicer.calls == 3


def test_a_call_deadline_shorter_than_the_default_wins(flaky_server) -> None:
    target, _ = flaky_server(grpc.StatusCode.OK, 0)
    with Client(target) as c, pytest.raises(EngineError) as info:
        c.call("ScoreGame", api.ScoreGameRequest(), timeout=0.2)
    assert info.value.code == grpc.StatusCode.DEADLINE_EXCEEDED


def test_helpers_against_the_server(server_address: str) -> None:
    with Client(server_address) as c:
        start = c.initial_position(pb.SIDE_BLACK)
        assert (start.ids.position_id, start.on_roll) == (START_POSITION_ID, pb.SIDE_BLACK)
        moves = c.legal_moves(START_POSITION_ID, [5, 1])
        assert moves[0].notation == "24/23 13/8"
        after = c.apply_move(START_POSITION_ID, (5, 1), "24/23 13/8")
        assert after.move.result.ids.position_id == "4PPgASjgc/ABMA" == moves[0].result.ids.position_id
        assert c.apply_move(position(START_POSITION_ID), (5, 1), moves[0]).move == after.move
        assert not c.score_game(START_POSITION_ID).HasField("outcome")
        assert c.bear_off(START_POSITION_ID).white.pip_count == 167
        with pytest.raises(EngineError) as info:
            c.apply_move(START_POSITION_ID, (5, 1), "13/8")
        err = info.value
        assert (err.code, err.reason, err.domain) == (grpc.StatusCode.INVALID_ARGUMENT, "MUST_USE_BOTH_DICE", "tavla.v1")
        assert err.metadata == {"move": "13/8", "dice": "5-1"} and err.fields == ()
        assert "MUST_USE_BOTH_DICE" in str(err)
        with pytest.raises(EngineError) as info:
            c.legal_moves(START_POSITION_ID, [7, 1])
        assert info.value.fields == ("dice",) and info.value.reason == ""


def test_ruleset_preset_applies_to_every_helper(server_address: str) -> None:
    with Client(server_address, ruleset="turkish") as c:
        # katmerli mars pays 2 under the turkish preset: white all off, black 13:14 and one on the bar
        outcome = c.score_game("APD/A0AAAAAAAA").outcome
        assert (outcome.kind, outcome.points) == (pb.RESULT_KIND_BACKGAMMON, 2)


def test_referee_helpers_play_a_game(server_address: str) -> None:
    """new_match / list_actions / act (docs/game-state.md), sync and asyncio."""
    from tavla.v1 import game_pb2

    with Client(server_address, ruleset="turkish") as c:
        first = c.new_match(3)
        assert first.view.phase == game_pb2.GAME_PHASE_START and first.view.ruleset.preset == "turkish"
        started = c.act(first.state, game_pb2.ACTION_KIND_START_GAME)
        assert started.view.phase == game_pb2.GAME_PHASE_MOVING and len(started.events.rolled) == 2
        listed = c.list_actions(started.state)
        step = next(a for a in listed.actions if a.kind == game_pb2.ACTION_KIND_STEP)
        assert c.act(started.state, step).view.steps[0].from_point == step.step.from_point
        resigned = c.act(started.state, game_pb2.ACTION_KIND_RESIGN, resign_kind=pb.RESULT_KIND_SINGLE)
        assert resigned.view.phase == game_pb2.GAME_PHASE_RESIGNATION_DECISION
        with pytest.raises(EngineError) as info:
            c.act(started.state, game_pb2.ACTION_KIND_CONFIRM_MOVE)
        assert info.value.reason == "MOVE_INCOMPLETE"

    async def run() -> None:
        async with AsyncClient(server_address) as c:
            first = await c.new_match(5)
            started = await c.act(first.state, game_pb2.ACTION_KIND_START_GAME)
            assert (await c.list_actions(started.state)).actions

    asyncio.run(run())


def test_record_matches_checks_a_kept_record_against_the_state(server_address):
    """The client keeps the record from the events; record_matches checks it against the state's
    digest (docs/game-state.md, "The record"), and a changed entry does not match."""
    from tavla.client import record_matches

    with Client(server_address) as c:
        answer = c.act(c.new_match(3).state, "start_game", dice=[6, 1])  # the session server takes test dice
        record = list(answer.events.records)
        answer = c.act(answer.state, "step", step=(13, 7))
        answer = c.act(answer.state, "step", step=(8, 7))
        answer = c.act(answer.state, "confirm_move")
        record += list(answer.events.records)
    assert len(record) == 2 and record_matches(answer.state, record)
    assert not record_matches(answer.state, record[:1]) and not record_matches(answer.state, record[::-1])


def test_export_match_writes_the_kept_record_as_a_file(server_address):
    """export_match (ExportMatch) turns the kept record into .mat text with the one move played;
    a record that does not lead to the state's digest is an EngineError on ``records``."""
    with Client(server_address) as c:
        answer = c.act(c.new_match(3).state, "start_game", dice=[6, 1])
        record = list(answer.events.records)
        for step in ((13, 7), (8, 7)):
            answer = c.act(answer.state, "step", step=step)
        answer = c.act(answer.state, "confirm_move")
        record += list(answer.events.records)
        exported = c.export_match(answer.state, record, white_player="Ann", headers={"Event": "client test"})
        assert exported.games == 1 and not exported.match_over and exported.file_name.endswith(".mat")
        assert " 3 point match" in exported.content and '; [Event "client test"]' in exported.content
        assert "  1) 61: 13/7 8/7" in exported.content and " Ann : 0" in exported.content
        sgf = c.export_match(answer.state, record, format="sgf")
        assert sgf.content.startswith("(;FF[4]GM[6]") and sgf.media_type == "application/x-go-sgf"
        with pytest.raises(EngineError) as info:
            c.export_match(answer.state, record[:1])
        assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT and "records" in info.value.fields
