"""The final code a call is recorded with (metrics, access log) when its client is gone: a call
without a deadline is CANCELLED (it used to raise TypeError comparing None with 0), one past its
deadline DEADLINE_EXCEEDED."""

from __future__ import annotations

import grpc

from tavla.server.admission.calls import final_code
from tavla.server.http.app import HttpContext


def _gone(timeout: float | None) -> HttpContext:
    context = HttpContext("connect", {}, "ipv4:127.0.0.1:1", timeout)
    context.went_away()  # the client closed its connection while the handler ran
    return context


def test_a_call_without_deadline_whose_client_went_away_is_cancelled():
    assert final_code(_gone(None), raised=False) == grpc.StatusCode.CANCELLED


def test_a_call_past_its_deadline_is_deadline_exceeded():
    assert final_code(_gone(-1.0), raised=False) == grpc.StatusCode.DEADLINE_EXCEEDED


def test_a_call_cancelled_with_time_left_is_cancelled():
    assert final_code(_gone(60.0), raised=False) == grpc.StatusCode.CANCELLED


def test_an_active_call_that_returned_is_ok_and_one_that_raised_unknown():
    context = HttpContext("connect", {}, "ipv4:127.0.0.1:1", None)
    assert final_code(context, raised=False) == grpc.StatusCode.OK
    assert final_code(context, raised=True) == grpc.StatusCode.UNKNOWN
