"""Analysis that never returns cannot take a worker with it (docs/analysis.md#isolation,
docs/reliability.md): real ``tavla-engine serve`` processes.

The stuck engine is a test server's hook (``--test-inputs`` and the metadata
``x-tavla-test-engine: hang``): the analysis child blocks every signal and waits in C with the
GIL held, as bgsage's native match equity code did for a side 2^30 away. The child writes its
pid to ``TAVLA_TEST_HANG_FILE`` when it is stuck, so the tests wait for that, never for time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest

import harness
import rpc_api as api
from grpc_health.v1 import health_pb2, health_pb2_grpc
from tavla.v1 import match_pb2, types_pb2

pytest.importorskip("bgsage")

BOUND = harness.HANG_GUARD  # seconds: a bound on a hang, not a speed assertion
START = types_pb2.Position(position_id="4HPwATDgc/ABMA", on_roll=types_pb2.SIDE_WHITE)
HANG = (("x-tavla-test-engine", "hang"),)


def _descendants(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout
    children: dict[int, list[int]] = {}
    for line in out.splitlines():
        p, pp = (int(x) for x in line.split())
        children.setdefault(pp, []).append(p)
    found, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            found.add(c)
            todo.append(c)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_for(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + BOUND
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"waited for {what}: not within {BOUND:g} s (a hang guard)")
        time.sleep(0.05)


def _stuck_pid(mark: Path) -> int:
    _wait_for(lambda: mark.exists() and mark.read_text().strip() != "", "the analysis child stuck")
    return int(mark.read_text())


def _suggest(length: int = 5) -> api.SuggestMoveRequest:
    return api.SuggestMoveRequest(position=START, dice=[3, 1], match=match_pb2.MatchState(length=length),
                                  level=api.ANALYSIS_LEVEL_BEGINNER)


def test_a_stuck_engine_is_killed_at_the_deadline_while_rules_and_health_answer(tmp_path: Path) -> None:
    mark = tmp_path / "hang.pid"
    server = harness.Server("--test-inputs", "--analysis-call-seconds", "8",
                            env={"TAVLA_TEST_HANG_FILE": str(mark)})
    try:
        with grpc.insecure_channel(server.target) as ch:
            stub = api.AnyStub(ch)
            health = health_pb2_grpc.HealthStub(ch)
            stuck = stub.SuggestMove.future(_suggest(), timeout=BOUND, metadata=HANG)
            child = _stuck_pid(mark)
            # the analysis is stuck in its child, GIL held there: the worker still serves
            moves = stub.ListLegalMoves(api.ListLegalMovesRequest(position=START, dice=[6, 6]), timeout=BOUND)
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=BOUND).status
            # a request out of bounds does not wait for the busy analysis slot: refused at once
            with pytest.raises(grpc.RpcError) as refused:
                stub.SuggestMove(_suggest(length=2**30 + 1), timeout=BOUND)
            answered_while_stuck = not stuck.done()
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert len(moves.moves) > 1
            assert status == health_pb2.HealthCheckResponse.SERVING
            assert answered_while_stuck

            with pytest.raises(grpc.RpcError) as err:
                stuck.result(timeout=BOUND)
            assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            _wait_for(lambda: not _alive(child), "the stuck child killed")

            # replaced: the next analysis call is answered (by a new child)
            answer = stub.SuggestMove(_suggest(), timeout=BOUND)
            assert len(answer.moves) > 1
            assert child not in _descendants(server.proc.pid)

            # the input that froze a worker is refused by field before the engine
            with pytest.raises(grpc.RpcError) as err:
                stub.SuggestMove(_suggest(length=2**30 + 1), timeout=BOUND)
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "match.length" in (err.value.details() or "")
        assert server.stop() == 0
        assert not [e for e in server.errors() if "INTERNAL" in str(e)]
    finally:
        server.close()
    harness.report(f"analysis isolation: stuck child {child} killed at the deadline; rules and health answered")


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_with_a_stuck_engine_ends_in_bound_and_leaves_no_process(tmp_path: Path, workers: int) -> None:
    mark = tmp_path / "hang.pid"
    drain, grace = 0.5, 1.0
    server = harness.Server("--test-inputs", "--drain-seconds", str(drain), "--grace-seconds", str(grace),
                            workers=workers, env={"TAVLA_TEST_HANG_FILE": str(mark)})
    try:
        with grpc.insecure_channel(server.target) as ch:
            stuck = api.AnyStub(ch).SuggestMove.future(_suggest(), timeout=BOUND, metadata=HANG)
            child = _stuck_pid(mark)
            family = _descendants(server.proc.pid) | {server.proc.pid}
            assert child in family
            begin = time.monotonic()
            server.proc.send_signal(signal.SIGTERM)
            code = server.proc.wait(timeout=drain + grace + 7)
            took = time.monotonic() - begin
            stuck.cancel()
        assert code == 0, server.log()
        _wait_for(lambda: not any(_alive(p) for p in family), "every process of the server gone")
    finally:
        server.close()
    harness.report(f"analysis isolation: SIGTERM with a stuck child, {workers} worker(s): exit 0 after "
                   f"{took:.1f} s (drain {drain} + grace {grace}), {len(family)} processes, none left")


def test_a_worker_that_stops_answering_its_health_is_replaced() -> None:
    # the default --worker-health-seconds: a shorter bound killed healthy workers on a loaded machine
    server = harness.Server(workers=2)
    try:
        before = server.worker_pids()
        assert len(before) == 2
        for pid in before:  # both serve: the frozen one is judged by its health, not its start-up
            server.wait_for_line(lambda e, pid=pid: e.get("pid") == pid and " serving on " in e.get("event", ""),
                                 f"worker {pid} serving")
        frozen = before[0]
        os.kill(frozen, signal.SIGSTOP)  # alive, answering nothing
        killed = server.wait_for_line(lambda e: e.get("worker_pid") == frozen
                                      and e.get("event", "").endswith("; killing it"),
                                      f"the supervisor killing the frozen worker {frozen}")
        new = server.wait_for_line(lambda e: e.get("pid") not in before and " serving on " in e.get("event", ""),
                                   "a new worker serving")
        _wait_for(lambda: not _alive(frozen), f"the frozen worker {frozen} gone")
        assert killed["event"] in ("worker stopped answering its health; killing it",
                                   "worker stopped starting (no beat, no CPU); killing it"), killed
        assert new["pid"] in server.worker_pids()
        harness.wait_serving(server.target)
        assert server.stop() == 0
    finally:
        server.close()
    harness.report(f"worker health: a SIGSTOPped worker was killed ({killed['event']!r}) and replaced")
