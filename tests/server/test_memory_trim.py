"""The heap trimmer (tavla.server.process.memory): it trims once after calls stop, not
while a call runs, and not again until more calls came."""

from __future__ import annotations

import time

import pytest

from tavla.server.process import memory


def test_trims_once_after_a_burst_and_never_while_busy(monkeypatch):
    if memory._malloc_trim() is None:
        pytest.skip("no malloc_trim in this C library")
    monkeypatch.setattr(memory, "_PERIOD", 0.02)
    monkeypatch.setattr(memory, "IDLE_SECONDS", 0.1)
    state = {"calls": 0, "busy": True}
    trimmer = memory.Trimmer(lambda: state["calls"], lambda: state["busy"])
    trimmer.start()
    try:
        state["calls"] = 5
        time.sleep(0.4)
        assert trimmer.trims == 0  # a call is running
        state["busy"] = False
        time.sleep(0.4)
        assert trimmer.trims == 1  # idle after the burst: trimmed once
        time.sleep(0.3)
        assert trimmer.trims == 1  # no new calls: nothing to give back
        state["calls"] = 6
        time.sleep(0.4)
        assert trimmer.trims == 2
    finally:
        trimmer.stop()
