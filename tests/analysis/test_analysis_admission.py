"""Analysis runs in its own admission pool (docs/analysis.md#cost-and-limits): a flood of
AnalysisService calls never queues a rules call behind it, the analysis admission sheds what it
cannot hold, and a call past its deadline ends with DEADLINE_EXCEEDED instead of running on.

No timing assertion: "not queued behind analysis" is shown by order (ListLegalMoves is answered
while analysis calls sent before it are still pending)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest

import rpc_api as api
from tavla.server.admission import policy
from tavla.server.process.app import start_in_process
from tavla.server.process.config import Config
from tavla.v1 import types_pb2

pytest.importorskip("bgsage")

TIMEOUT = 60  # seconds; a bound for a hang, not a speed assertion
START = types_pb2.Position(position_id="4HPwATDgc/ABMA", on_roll=types_pb2.SIDE_WHITE)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[api.AnyStub, grpc.Channel]]:
    srv, port = start_in_process(Config(host="127.0.0.1", port=0, max_analysis_rpcs=6))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        grpc.channel_ready_future(ch).result(timeout=TIMEOUT)
        yield api.AnyStub(ch), ch
    srv.stop(grace=None)


def _mat() -> str:
    with open("tests/data/matches/match0001.mat", encoding="utf-8") as f:
        return f.read()


def test_analysis_methods_have_their_own_admission_kind():
    assert policy.kind_of("/tavla.v1.AnalysisService/SuggestMove") == policy.ANALYSIS
    assert policy.kind_of("/tavla.v1.AnalysisService/SuggestAction") == policy.ANALYSIS
    assert policy.kind_of("/tavla.v1.RulesService/ListLegalMoves") == policy.ENGINE


def test_rules_calls_answer_while_a_flood_of_analysis_is_pending(server):
    engine, _ = server
    request = api.AnalyzeMatchRequest(mat=_mat(), level=api.ANALYSIS_LEVEL_EXPERT)
    flood = [engine.AnalyzeMatch.future(request, timeout=TIMEOUT) for _ in range(10)]  # 6 admitted, 4 shed
    try:
        for _ in range(5):
            moves = engine.ListLegalMoves(api.ListLegalMovesRequest(position=START, dice=[6, 6]), timeout=TIMEOUT)
            assert len(moves.moves) > 1
        # the shed calls are answered at once, but under load their answers may not be back yet:
        # wait for one (a readiness wait) before cancelling, or it would end CANCELLED instead
        end = time.monotonic() + TIMEOUT
        while not any(f.done() for f in flood) and time.monotonic() < end:
            time.sleep(0.01)
        # a whole match at 2 ply keeps the one analysis thread busy for many seconds: the admitted
        # calls are still running or queued
        assert sum(not f.done() for f in flood) >= 2
    finally:
        for f in flood:
            f.cancel()
    codes = []
    for f in flood:
        try:
            f.result(timeout=TIMEOUT)
            codes.append(grpc.StatusCode.OK)
        except grpc.FutureCancelledError:
            codes.append(grpc.StatusCode.CANCELLED)
        except grpc.RpcError as exc:
            codes.append(exc.code())
    assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) >= 1  # beyond max_analysis_rpcs: shed at once
    _wait_for_room(engine)


def _wait_for_room(engine) -> None:
    """Wait until the cancelled calls have left the analysis admission (each stops at its next
    deadline check); a readiness wait, bounded by TIMEOUT."""
    end = time.monotonic() + TIMEOUT
    while True:
        try:
            engine.EvaluatePosition(api.EvaluatePositionRequest(position=START, level=api.ANALYSIS_LEVEL_ADVANCED),
                                    timeout=TIMEOUT)
            return
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or time.monotonic() > end:
                raise
            time.sleep(0.05)


def test_a_deadline_ends_an_analysis_with_deadline_exceeded(server):
    engine, _ = server
    with pytest.raises(grpc.RpcError) as info:
        engine.AnalyzeMatch(api.AnalyzeMatchRequest(mat=_mat(), level=api.ANALYSIS_LEVEL_EXPERT), timeout=0.5)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    # the analysis pool is free again: the next call is answered
    r = engine.SuggestMove(api.SuggestMoveRequest(position=START, dice=[6, 5], level=api.ANALYSIS_LEVEL_ADVANCED),
                           timeout=TIMEOUT)
    assert r.moves[0].move.notation == "24/13"


def test_the_servers_analysis_budget_stops_a_long_review():
    srv, port = start_in_process(Config(host="127.0.0.1", port=0, analysis_call_seconds=0.3))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            engine = api.AnyStub(ch)
            with pytest.raises(grpc.RpcError) as info:
                engine.AnalyzeMatch(api.AnalyzeMatchRequest(mat=_mat(), level=api.ANALYSIS_LEVEL_EXPERT),
                                    timeout=TIMEOUT)
            assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            assert "analysis_call_seconds" in info.value.details()
    finally:
        srv.stop(grace=None)
