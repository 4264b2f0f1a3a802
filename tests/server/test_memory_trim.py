"""The heap trimmer (tavla.server.process.memory): it trims once after calls stop, not
while a call runs, and not again until more calls came. Driven by ``tick`` with stated
seconds, not by its thread's clock."""

from __future__ import annotations

import threading

import pytest

from tavla.server.process import memory


@pytest.fixture()
def trims(monkeypatch) -> list[int]:
    """Replaces malloc_trim with a recorder: the test runs on any C library."""
    calls: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: lambda pad: calls.append(pad) or 1)
    return calls


def test_trims_once_after_a_burst_and_never_while_busy(trims):
    state = {"calls": 0, "busy": True}
    trimmer = memory.Trimmer(lambda: state["calls"], lambda: state["busy"])
    step = memory.IDLE_SECONDS / 4
    state["calls"] = 5
    assert not any(trimmer.tick(step) for _ in range(20)) and trimmer.trims == 0  # a call is running
    state["busy"] = False
    assert [trimmer.tick(step) for _ in range(4)] == [False, False, False, True]  # idle long enough
    assert trimmer.trims == 1 and trims == [0]
    assert not any(trimmer.tick(step) for _ in range(20))  # no new calls: nothing to give back
    state["calls"] = 6
    assert trimmer.tick(step) and trimmer.trims == 2  # idle already: the new calls are trimmed at once


def test_a_call_resets_the_idle_time(trims):
    state = {"calls": 1, "busy": False}
    trimmer = memory.Trimmer(lambda: state["calls"], lambda: state["busy"])
    state["calls"] = 2
    almost = memory.IDLE_SECONDS * 0.75
    assert not trimmer.tick(almost)
    state["busy"] = True
    assert not trimmer.tick(almost)
    state["busy"] = False
    assert not trimmer.tick(almost)  # the idle time began again after the busy look
    assert trimmer.tick(almost) and trims == [0]


def test_the_thread_trims_and_stops(trims, monkeypatch):
    monkeypatch.setattr(memory, "_PERIOD", 0.01)
    monkeypatch.setattr(memory, "IDLE_SECONDS", 0.02)
    state = {"calls": 0}
    trimmer = memory.Trimmer(lambda: state["calls"], lambda: False)
    trimmed = threading.Event()
    real_tick = trimmer.tick

    def tick(seconds: float) -> bool:
        if real_tick(seconds):
            trimmed.set()
            return True
        return False

    trimmer.tick = tick  # type: ignore[method-assign]
    state["calls"] = 1
    trimmer.start()
    try:
        assert trimmed.wait(30), "the trimmer thread never trimmed"  # a wait, not a speed bound
    finally:
        trimmer.stop()
    assert trims == [0] and trimmer.trims == 1


def test_without_malloc_trim_the_thread_does_not_start(monkeypatch):
    monkeypatch.setattr(memory, "_malloc_trim", lambda: None)
    trimmer = memory.Trimmer(lambda: 1, lambda: False)
    trimmer.start()
    assert not trimmer.tick(memory.IDLE_SECONDS * 2) and trimmer.trims == 0


def test_a_single_process_caps_its_arenas_and_passes_the_cap_on():
    """``limit_arenas`` in a fresh interpreter without MALLOC_ARENA_MAX: capped, and its children
    inherit the setting; with it set, left alone."""
    import os
    import subprocess
    import sys

    code = ("import os; from tavla.server.process import memory; "
            "print(memory.limit_arenas(), os.environ.get('MALLOC_ARENA_MAX'))")
    env = {k: v for k, v in os.environ.items() if k != memory.ARENAS_ENV}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", memory.ARENAS], out.stderr
    out = subprocess.run([sys.executable, "-c", code], env={**env, memory.ARENAS_ENV: "4"},
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "4"], out.stderr


def test_each_trim_is_reported(trims):
    reported: list[int] = []
    state = {"calls": 1}
    trimmer = memory.Trimmer(lambda: state["calls"], lambda: False, lambda: reported.append(len(trims)))
    state["calls"] = 2
    assert trimmer.tick(memory.IDLE_SECONDS) and reported == [1]  # after the trim, once
    assert not trimmer.tick(memory.IDLE_SECONDS) and reported == [1]
