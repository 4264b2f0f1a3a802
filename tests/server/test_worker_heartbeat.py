"""The worker's heartbeat and how the supervisor judges it (workers._Beats, heartbeat.Heart), and
the bear-off warm-up that once starved it (warmup.py): fake clocks, pipes and gated builds."""

from __future__ import annotations

import fcntl
import os
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from tavla.server.process import heartbeat, warmup, workers

TIMEOUT = 60  # seconds: a hang guard, never a speed


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


PID = 4242  # the judged worker's pid: only passed to the fake CPU clock


@pytest.fixture
def beats():
    clock = FakeClock()
    cpu: dict[int, float | None] = {PID: 0.0}  # CPU seconds the worker has used
    judged = workers._Beats(clock, cpu.get)
    judged.cpu = cpu  # type: ignore[attr-defined]
    yield judged, clock
    judged.close()


def test_a_worker_that_beats_starting_is_not_late_while_it_starts_slowly(beats):
    judged, clock = beats
    w = judged.new(1)
    try:
        bound = 10.0
        # a start-up far past the first-beat allowance and the health bound, beating all along
        for _ in range(int(workers.START_SECONDS + bound) * 3):
            clock.now += heartbeat.PERIOD
            os.write(w, heartbeat.STARTING)
            assert judged.late(1, PID, bound) is None
        clock.now = 1000.0 + workers.START_LIMIT + 1  # beating, but never serving: a hang guard
        os.write(w, heartbeat.STARTING)
        assert judged.late(1, PID, bound) == "still starting"
    finally:
        os.close(w)


def test_a_worker_is_late_when_its_beats_stop_starting_or_serving(beats):
    judged, clock = beats
    bound = 10.0
    w = judged.new(1)
    try:
        os.write(w, heartbeat.STARTING)
        assert judged.late(1, PID, bound) is None
        clock.now += bound + 0.5  # frozen while starting (SIGSTOP, the GIL held by native code)
        assert judged.late(1, PID, bound) == "stopped starting (no beat, no CPU)"
    finally:
        os.close(w)
    w = judged.new(2)
    try:
        os.write(w, heartbeat.STARTING + heartbeat.SERVING)
        assert judged.late(2, PID, bound) is None
        clock.now += workers.START_LIMIT + 1  # serving: the start-up limit no longer applies
        os.write(w, heartbeat.SERVING)
        assert judged.late(2, PID, bound) is None
        clock.now += bound - 0.5
        assert judged.late(2, PID, bound) is None
        clock.now += 1.0
        assert judged.late(2, PID, bound) == "stopped answering its health"
    finally:
        os.close(w)


def test_a_starting_worker_that_uses_cpu_is_not_late_without_beats(beats):
    """On a loaded machine the starting beats can be 10 s apart: CPU used is progress too."""
    judged, clock = beats
    bound = 10.0
    w = judged.new(1)
    try:
        os.write(w, heartbeat.STARTING)
        assert judged.late(1, PID, bound) is None
        for _ in range(5):  # no beat for 5 bounds, but a little CPU each time it is looked at
            clock.now += bound
            judged.cpu[PID] += 0.01
            assert judged.late(1, PID, bound) is None
        clock.now += bound + 0.5  # then no CPU either: hung (a deadlock, SIGSTOP)
        assert judged.late(1, PID, bound) == "stopped starting (no beat, no CPU)"
    finally:
        os.close(w)
    w = judged.new(2)
    try:
        os.write(w, heartbeat.SERVING)
        assert judged.late(2, PID, bound) is None
        clock.now += bound + 0.5
        judged.cpu[PID] += 1.0  # serving: CPU is no beat (native code spinning with the GIL)
        assert judged.late(2, PID, bound) == "stopped answering its health"
    finally:
        os.close(w)


def test_cpu_seconds_of_a_process():
    import time as clock_module

    before = workers._cpu_seconds(os.getpid())
    end = clock_module.process_time() + 0.05
    while clock_module.process_time() < end:  # use some CPU: process_time is CPU, not wall time
        pass
    after = workers._cpu_seconds(os.getpid())
    assert before is not None and after is not None and after > before
    assert workers._cpu_seconds(2**22 + 1) is None  # no such process


def test_a_worker_that_never_beats_has_the_start_allowance_then_is_late(beats):
    judged, clock = beats
    bound = 10.0
    w = judged.new(1)
    try:
        clock.now += workers.START_SECONDS + bound - 0.5
        assert judged.late(1, PID, bound) is None
        clock.now += 1.0
        assert judged.late(1, PID, bound) == "stopped starting (no beat, no CPU)"
    finally:
        os.close(w)


def test_the_heart_beats_starting_then_only_when_its_health_answers():
    r, w = os.pipe()
    heart = heartbeat.Heart(w)
    try:
        assert heart.beat()
        assert os.read(r, 16) == heartbeat.STARTING
        answers: list[Future[str]] = []

        def submit(check):
            future: Future[str] = Future()
            future.set_result(check())
            answers.append(future)
            return future

        heart.serving(submit, lambda: "SERVING")
        assert heart.beat() and heart.beat()
        assert os.read(r, 16) == heartbeat.SERVING * 2 and len(answers) == 2

        def late(_check):  # the health check did not answer in time: no beat, but go on
            raise TimeoutError

        heart.serving(late, lambda: "SERVING")
        assert heart.beat()
        os.write(w, b"|")
        assert os.read(r, 16) == b"|"

        def closed(_check):  # the health pool is shut down: stop beating
            raise RuntimeError("cannot schedule new futures after shutdown")

        heart.serving(closed, lambda: "SERVING")
        assert not heart.beat()
    finally:
        os.close(r)
        os.close(w)


# --- the bear-off warm-up -------------------------------------------------------------------------


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache directory, and the database's parts replaced by recorders."""
    from tavla.core.rules import bearoff_db

    monkeypatch.setenv("TAVLA_CACHE_DIR", str(tmp_path / "cache"))
    loads: list[str] = []
    monkeypatch.setattr(bearoff_db, "get_database", lambda: loads.append("load"))
    return bearoff_db.cache_path(), loads


def _child(*lines: str) -> list[str]:
    return [sys.executable, "-c", "; ".join(("import os, sys", *lines))]


def test_the_warmup_builds_in_a_child_process_then_loads(cache, tmp_path):
    path, loads = cache
    pid_file = tmp_path / "pid"
    readied: list[list[str]] = []
    command = _child(f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))",
                     f"open({str(path)!r}, 'wb').close()")
    thread = warmup.warm_bearoff(lambda: readied.append(list(loads)), command=command)
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    assert int(pid_file.read_text()) != os.getpid()  # built elsewhere: the worker's GIL stays free
    assert readied == [["load"]]  # loaded after the child wrote the file, then ready


def test_the_warmup_does_not_hold_up_readiness(cache):
    """``run`` marks the worker SERVING, then calls ``warm_bearoff``: it must return while the
    tables still load, and say ready only once they have."""
    path, loads = cache
    from tavla.core.rules import bearoff_db

    loading, release = threading.Event(), threading.Event()

    def slow_load():
        loading.set()
        assert release.wait(TIMEOUT)

    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    bearoff_db.get_database = slow_load  # undone by the fixture's monkeypatch
    readied: list[bool] = []
    thread = warmup.warm_bearoff(lambda: readied.append(release.is_set()), command=_child("sys.exit(3)"))
    assert loading.wait(TIMEOUT)
    assert thread.is_alive() and readied == []  # returned during the load; not ready yet
    release.set()
    thread.join(TIMEOUT)
    assert not thread.is_alive() and readied == [True]


def _blocked_on(lock: Path) -> bool:
    """Whether a process waits for a lock on ``lock`` (/proc/locks marks waiters ``->``)."""
    inode = os.stat(lock).st_ino
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields and fields[fields.index("->") + 1] == "FLOCK" and fields[-3].endswith(f":{inode}"):
            return True
    return False


def test_a_worker_waits_for_the_one_building_rather_than_building_too(cache, tmp_path):
    path, loads = cache
    path.parent.mkdir(parents=True)
    lock = path.parent / warmup.LOCK_NAME
    ran = tmp_path / "ran"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another worker is building
        thread = warmup.warm_bearoff(lambda: None, command=_child(f"open({str(ran)!r}, 'w').close()"))
        deadline = time.monotonic() + TIMEOUT  # a hang guard: waiting for the warm-up to block
        while not _blocked_on(lock):
            assert time.monotonic() < deadline, "the warm-up never waited for the lock"
            thread.join(0.05)
        path.write_bytes(b"")  # the other worker's build is done
    finally:
        os.close(fd)
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    assert not ran.exists() and loads == ["load"]  # loaded what the other built


def test_a_failed_build_process_falls_back_to_building_in_the_worker(cache):
    path, loads = cache
    readied: list[bool] = []
    thread = warmup.warm_bearoff(lambda: readied.append(True), command=_child("sys.exit(3)"))
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    assert not path.exists() and loads == ["load"] and readied == [True]
