"""The admission watchdog's body timeout counts the time a call's thread waits for its request
as its ticks see it: a worker stalled past the timeout (GC, CPU throttling) does not cancel the
calls it had received when it wakes, and header-only calls are still cut off. Fake times."""

from __future__ import annotations

import threading

from tavla.server.admission import policy
from tavla.server.admission.policy import AdmissionExecutor, Ticket


class Call:
    def __init__(self) -> None:
        self.cancelled = 0

    def cancel(self, *args) -> None:
        self.cancelled += 1


def _executor() -> AdmissionExecutor:
    ex = AdmissionExecutor(4, 4, body_seconds=5.0)
    ex.shutdown(wait=True)  # its own watchdog stops: this test drives the clock
    return ex


def _waiting(ex: AdmissionExecutor, started: float) -> Ticket:
    ticket = Ticket(policy.ENGINE, "/tavla.v1.RulesService/ListLegalMoves", Call(),
                    running_since=started, body_seconds=policy.ENGINE_BODY_SECONDS)
    ex._running[threading.get_ident() + len(ex._running)] = ticket
    return ticket


def test_a_stall_longer_than_the_body_timeout_does_not_cancel_a_call():
    ex = _executor()
    ex.count_waits(100.0)
    ticket = _waiting(ex, 100.01)
    assert ex.count_waits(102.0) == []  # the worker stalled 2 s: its watchdog woke late
    ticket.arrived = True  # the request was there all along
    assert ex.count_waits(102.05) == [] and not ticket.cancelled


def test_a_call_whose_request_never_comes_is_still_cut_off():
    ex = _executor()
    now = 100.0
    ex.count_waits(now)
    ticket = _waiting(ex, now)
    cut = []
    while not cut:
        now += 0.05
        cut = ex.count_waits(now)
    assert cut == [ticket] and ticket.cancelled
    assert abs(now - 100.0 - policy.ENGINE_BODY_SECONDS) <= 0.06  # the timeout, not more
