"""StreamAnalyzeMatch over gRPC (docs/analysis.md#progress): progress messages in order up to
the total, then the very answer AnalyzeMatch gives; AnalyzeMatch's errors and deadline; a
cancelled stream stops its analysis process and frees the analysis slot.

No timing assertion: order is shown by the messages, and the freed slot by the next call's
answer (it waits for that slot)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

import rpc_api as api
from statuses import field_violations
from grpc_status import rpc_status
from tavla.server.api.servicers import TavlaServicer
from tavla.server.convert import contract
from tavla.server.process.app import start_in_process
from tavla.server.process.config import Config

pytest.importorskip("bgsage")

TIMEOUT = 120  # seconds; a bound for a hang, not a speed assertion
MATCHES = Path(__file__).resolve().parent.parent / "data" / "matches"


def _mat(name: str) -> str:
    return (MATCHES / name).read_text(encoding="utf-8")


@contextlib.contextmanager
def _served() -> Iterator[tuple[api.AnyStub, TavlaServicer]]:
    servicer = TavlaServicer()
    srv, port = start_in_process(Config(host="127.0.0.1", port=0), servicer=servicer)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            grpc.channel_ready_future(ch).result(timeout=TIMEOUT)
            yield api.AnyStub(ch), servicer
    finally:
        srv.stop(grace=None)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[api.AnyStub, TavlaServicer]]:
    with _served() as pair:
        yield pair


def test_the_request_has_analyze_matchs_fields_numbers_and_bounds():
    def fields(message):
        return [(f.name, f.number, f.type, f.containing_oneof and f.containing_oneof.name)
                for f in message.DESCRIPTOR.fields]

    assert fields(api.StreamAnalyzeMatchRequest) == fields(api.AnalyzeMatchRequest)
    for name in ("mat", "sgf"):
        assert (contract.declared(api.StreamAnalyzeMatchRequest, name)
                == contract.declared(api.AnalyzeMatchRequest, name))
        assert contract.declared(api.AnalyzeMatchRequest, name).max_len == 2_000_000


def test_progress_counts_up_in_order_and_the_last_message_is_analyze_matchs_answer(served):
    stub, _ = served
    text = _mat("match0000.mat")  # 3 games
    messages = list(stub.StreamAnalyzeMatch(api.StreamAnalyzeMatchRequest(mat=text), timeout=TIMEOUT))
    *progress, last = messages
    assert all(m.WhichOneof("event") == "progress" for m in progress)
    assert last.WhichOneof("event") == "result"
    done = [m.progress.decisions_done for m in progress]
    total = progress[0].progress.decisions_total
    assert done == sorted(set(done)) and done[0] >= 1 and done[-1] == total > 100
    assert {m.progress.decisions_total for m in progress} == {total}
    assert {m.progress.games for m in progress} == {3}
    games = [m.progress.game for m in progress]
    assert games == sorted(games) and games[0] == 1 and games[-1] == 3
    unary = stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=text), timeout=TIMEOUT)
    assert last.result == unary and unary.games == 3 and len(unary.decisions) > 50


@pytest.mark.parametrize(("request_", "field"), [
    (api.StreamAnalyzeMatchRequest(), "mat"),
    (api.StreamAnalyzeMatchRequest(mat="7 point match\n Game 1\n nonsense"), "mat"),
    (api.StreamAnalyzeMatchRequest(sgf=b"(;nonsense"), "sgf"),
    (api.StreamAnalyzeMatchRequest(mat="x", level=99), "level"),
])
def test_bad_input_is_invalid_argument_naming_the_field_before_any_progress(served, request_, field):
    stub, _ = served
    call = stub.StreamAnalyzeMatch(request_, timeout=TIMEOUT)
    with pytest.raises(grpc.RpcError) as info:
        next(call)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(info.value)
    assert field in [f.split(".")[0] for f, _ in field_violations(status)]


def test_a_deadline_ends_the_stream_with_deadline_exceeded(served):
    stub, _ = served
    request = api.StreamAnalyzeMatchRequest(mat=_mat("match0001.mat"), level=api.ANALYSIS_LEVEL_EXPERT)
    with pytest.raises(grpc.RpcError) as info:
        list(stub.StreamAnalyzeMatch(request, timeout=0.5))
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_cancelling_mid_stream_stops_the_analysis_process_and_frees_the_slot():
    # a server of its own: another test's overrun may replace a process of the shared one late
    with _served() as (stub, servicer):
        _cancel_mid_stream(stub, servicer.engine.analysis)


def _cancel_mid_stream(stub: api.AnyStub, pool) -> None:
    before = pool.replaced
    request = api.StreamAnalyzeMatchRequest(mat=_mat("match0001.mat"), level=api.ANALYSIS_LEVEL_EXPERT)
    call = stub.StreamAnalyzeMatch(request, timeout=TIMEOUT)
    first = next(call)  # the review is under way in the analysis process
    assert first.progress.decisions_done == 1 and first.progress.decisions_total > 100
    call.cancel()
    # one analysis slot: this call runs only once the cancelled one has given its slot back,
    # which it does after its process was stopped
    after = stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=_mat("match0000.mat")), timeout=TIMEOUT)
    assert after.games == 3
    assert pool.replaced == before + 1
