"""Benchmark: how fast health answers while a server is flooded, and how soon calls that never
send their request are cut off. Prints figures beside their goals; asserts nothing (the tests in
tests/reliability/test_faults.py assert the behaviour: shed, cut off, health SERVING).

    PYTHONPATH=service:clients/python/src:tests/support python bench/bench_health_flood.py [--smoke]

One ``tavla-engine serve`` per phase on 127.0.0.1 (the reliability tests' harness), a health
sampler in a process of its own asking every 50 ms:

* ``flood``: 384 calls of the costliest request (2,065 legal moves, a 280 KB answer) at once
  against ``--max-concurrent-rpcs 4``; goal: every health check within 1 s;
* ``slow bodies``: 80 unary calls that send headers and then nothing; goal: all cut off by the
  body timeout (``tavla.server.admission.policy.BODY_SECONDS``), health within 1 s meanwhile.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path[:0] = [os.path.join(ROOT, "tests", "reliability"), os.path.join(ROOT, "tests", "support")]

import grpc  # noqa: E402
from harness import COSTLY, HealthSampler, Server  # noqa: E402

from tavla.server.admission import policy  # noqa: E402

HEALTH_GOAL = 1.0  # seconds: a health check answered within this, even under a flood
LIST = "/tavla.v1.RulesService/ListLegalMoves"


def _health(sampler: HealthSampler) -> str:
    seconds = sorted(sampler.seconds)
    if not seconds:
        return "health: no checks"
    p99 = seconds[int(0.99 * (len(seconds) - 1))]
    over = sum(1 for s in seconds if s >= HEALTH_GOAL)
    return (f"health: {len(seconds)} checks, p50 {statistics.median(seconds) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
            f"worst {seconds[-1] * 1000:.0f} ms, {over} over the {HEALTH_GOAL:g} s goal, "
            f"failed {len(sampler.failures)}")


def flood(calls: int) -> str:
    server = Server("--max-concurrent-rpcs", "4")
    sampler = HealthSampler(server.target, period=0.05)
    sampler.start()
    codes: dict[str, int] = {}
    channels = [grpc.insecure_channel(server.target) for _ in range(4)]
    try:
        begin = time.monotonic()
        raw = [channels[i % 4].unary_unary(LIST, request_serializer=None, response_deserializer=None)
               for i in range(4)]
        body = COSTLY.SerializeToString()
        futures = [raw[i % 4].future(body, timeout=120) for i in range(calls)]
        for f in futures:
            try:
                f.result()
                code = "OK"
            except grpc.RpcError as exc:
                code = exc.code().name
            codes[code] = codes.get(code, 0) + 1
        took = time.monotonic() - begin
    finally:
        sampler.finish()
        for ch in channels:
            ch.close()
        server.stop()
    return f"flood: {calls} costliest calls at once -> {codes} in {took:.1f} s; {_health(sampler)}"


def slow_bodies(calls: int) -> str:
    server = Server()
    sampler = HealthSampler(server.target, period=0.05)
    sampler.start()
    hold = threading.Event()

    def nothing():
        hold.wait(120)
        return
        yield  # a generator that sends no message

    channels = [grpc.insecure_channel(server.target) for _ in range(4)]
    ends: list[float] = []
    codes: dict[str, int] = {}
    try:
        begin = time.monotonic()
        hung = [channels[i % 4].stream_unary(LIST, request_serializer=None, response_deserializer=None)
                .future(nothing(), timeout=120) for i in range(calls)]
        for call in hung:
            try:
                call.result(timeout=120)
                code = "OK"
            except grpc.RpcError as exc:
                code = exc.code().name
            codes[code] = codes.get(code, 0) + 1
            ends.append(time.monotonic() - begin)
    finally:
        hold.set()
        sampler.finish()
        for ch in channels:
            ch.close()
        server.stop()
    return (f"slow bodies: {calls} calls that send only headers -> {codes}, the last cut off after "
            f"{max(ends):.1f} s (body timeout {policy.BODY_SECONDS:g} s); {_health(sampler)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a small flood: checks the script runs")
    args = parser.parse_args()
    print(flood(32 if args.smoke else 384), flush=True)
    print(slow_bodies(8 if args.smoke else 80), flush=True)


if __name__ == "__main__":
    main()
