"""The analysis processes (tavla.analysis.isolation, docs/analysis.md#isolation): a child is
recycled after its number of calls, and a match review sends its progress, decision by decision,
before its answer."""

from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path

import pytest

from tavla.analysis import isolation, jobs, review
from tavla.analysis.levels import Level

MATCHES = Path(__file__).resolve().parent.parent / "data" / "matches"
#: a real 7-point match of 7 games
SEVEN_POINT = MATCHES / "match0044.mat"


def child_pid(deadline: float) -> int:
    return os.getpid()


def two_reports(value: int, deadline: float) -> int:
    isolation.report(("first", value))
    isolation.report(("second", value))
    return value * 2


def test_a_child_is_replaced_after_its_calls_and_a_failed_one_counts_apart():
    pool = isolation.EnginePool(1, max_calls=3)
    try:
        pids = [pool.call(child_pid, (), deadline=math.inf) for _ in range(7)]
    finally:
        pool.close()
    assert pids[0] == pids[1] == pids[2] != pids[3] == pids[4] == pids[5] != pids[6]
    assert len(set(pids)) == 3 and os.getpid() not in pids
    assert (pool.recycled, pool.replaced) == (2, 0)


def test_progress_reaches_the_caller_in_order_before_the_answer_with_and_without_a_child():
    for processes in (1, 0):
        pool = isolation.EnginePool(processes)
        seen: list[object] = []
        try:
            answer = pool.call(two_reports, (21,), deadline=math.inf, progress=seen.append)
            assert pool.call(two_reports, (1,), deadline=math.inf) == 2  # no callback: reports go nowhere
        finally:
            pool.close()
        assert (answer, seen) == (42, [("first", 21), ("second", 21)])


def test_a_progress_callback_that_raises_ends_the_call_and_the_pool_serves_the_next():
    pool = isolation.EnginePool(1)

    def refuse(value: object) -> None:
        raise KeyError(value)

    try:
        with pytest.raises(KeyError):
            pool.call(two_reports, (5,), deadline=math.inf, progress=refuse)
        assert pool.call(two_reports, (4,), deadline=math.inf) == 8
    finally:
        pool.close()
    assert pool.replaced == 1


def test_a_seven_point_review_streams_each_decision_in_order_then_the_whole_review():
    pytest.importorskip("bgsage")
    text = SEVEN_POINT.read_text()
    pool = isolation.EnginePool(1)
    events: list[object] = []
    try:
        result = pool.call(jobs.analyze, ("mat", text, Level.ADVANCED, None), deadline=math.inf,
                           progress=lambda p: events.append(("progress", p)))
        events.append(("answer", result))
    finally:
        pool.close()
    games = 7
    told = [p for _, p in events[:-1]]
    assert [p.decisions_done for p in told] == list(range(1, len(told) + 1))  # one per decision, in order
    assert {p.decisions_total for p in told} == {len(told)} and {p.games for p in told} == {games}
    assert [p.game for p in told] == sorted(p.game for p in told) and told[-1].game == games
    kind, answer = events[-1]
    direct = review.analyze_mat(text, Level.ADVANCED)
    assert kind == "answer" and answer.games == games == direct.games
    assert answer.decisions == direct.decisions and len(answer.decisions) > 300
    assert [p.error_rate for p in answer.players] == [p.error_rate for p in direct.players]


def report_then_wait(deadline: float) -> None:
    isolation.report("started")  # the caller knows the child has the call
    time.sleep(60)  # stuck, as a native engine can be


def test_closing_the_pool_under_a_running_call_closes_its_pipe_once_from_the_calls_thread():
    """The server stops while a call runs: ``close`` stops the busy child but leaves its pipe to
    the call's thread (which reads it), and that thread gets EngineLost and closes the pipe; a
    pipe closed from both threads closed its descriptor twice (EBADF in the stopping worker,
    or a reused descriptor closed)."""
    pool = isolation.EnginePool(1)
    started, outcome = threading.Event(), []
    closes: list[str] = []

    def run() -> None:
        try:
            pool.call(report_then_wait, (), deadline=math.inf, progress=lambda _: started.set())
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            outcome.append(exc)

    caller = threading.Thread(target=run)
    caller.start()
    assert started.wait(60)
    (child,) = pool._all
    real_close = child.conn.close
    child.conn.close = lambda: (closes.append(threading.current_thread().name), real_close())[1]
    pool.close()
    assert closes == []  # not under the reading thread's feet
    caller.join(60)
    assert not caller.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], isolation.EngineLost), outcome
    assert closes == [caller.name] and child.conn.closed
    assert not child.process.is_alive()
    child.kill()  # once killed, a second kill closes nothing again
    assert closes == [caller.name]
