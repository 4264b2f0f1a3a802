"""Benchmark of the referee API (issue 9): Act throughput for one checker step beside the health
no-op, over gRPC on 127.0.0.1, in state mode require (signature checked and made on every call).
Prints figures; asserts nothing.

    PYTHONPATH=service python bench/bench_act.py [--seconds 3] [--threads 1]

Figures, each calls per second with its mean latency: ``health``: grpc.health.v1 Check (the no-op
floor of a call); ``act step``: Act of one checker step in a fresh game (open and verify the
signed state, re-check it, play the step with the rules, encode, sign); ``list actions``:
ListActions of the same state; and, in process without gRPC, the core's ``act`` alone.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavla.core.dice_commit import DiceKey
from tavla.server.app import start_in_process
from tavla.server.servicer import TavlaServicer
from tavla.server.state_keys import StateMode, StateSigner
from tavla.v1 import referee_service_pb2 as api
from tavla.v1 import referee_service_pb2_grpc as api_grpc
from tavla.v1 import game_pb2


def rate(call: Callable[[], object], seconds: float, threads: int) -> tuple[float, float]:
    """(calls per second, mean milliseconds per call) of ``call`` run by ``threads`` threads."""
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def run(i: int) -> None:
        while time.perf_counter() < stop:
            call()
            counts[i] += 1

    started = time.perf_counter()
    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - started
    total = sum(counts)
    return total / elapsed, 1000 * elapsed * threads / max(total, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    signer = StateSigner(StateMode.REQUIRE, (("bench", b"b" * 32),), shared=True)
    servicer = TavlaServicer(dice_key=DiceKey(b"bench dice key, thirty-two chars", shared=True), signer=signer)
    server, port = start_in_process(servicer=servicer)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    engine = api_grpc.RefereeServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    first = engine.NewMatch(api.NewMatchRequest(length=7)).state
    started = engine.Act(api.ActRequest(state=first, action=game_pb2.GameAction(kind=game_pb2.ACTION_KIND_START_GAME)))
    step = next(a for a in engine.ListActions(api.ListActionsRequest(state=started.state)).actions
                if a.kind == game_pb2.ACTION_KIND_STEP)
    act_request = api.ActRequest(state=started.state, action=step)
    list_request = api.ListActionsRequest(state=started.state)
    health_request = health_pb2.HealthCheckRequest()
    print(f"state: {len(started.state.state)} bytes signed; step {step.step.from_point}/{step.step.to_point}; "
          f"{args.threads} client thread(s), {args.seconds:g} s each")
    for name, call in (("health", lambda: health.Check(health_request)),
                       ("act step", lambda: engine.Act(act_request)),
                       ("list actions", lambda: engine.ListActions(list_request))):
        per_second, ms = rate(call, args.seconds, args.threads)
        print(f"{name:>14}: {per_second:8.0f} calls/s  {ms:6.2f} ms/call")

    from tavla.core.game import Action, ActionKind, act
    from tavla.server import convert_game as cg

    state, _ = cg.state_from_proto(started.game)
    core_step = Action(ActionKind.STEP, step=(step.step.from_point, step.step.to_point, step.step.die, False))
    per_second, ms = rate(lambda: act(state, core_step), args.seconds, 1)
    print(f"{'core act step':>14}: {per_second:8.0f} calls/s  {ms:6.3f} ms/call (in process, no gRPC)")
    channel.close()
    server.stop(None)


if __name__ == "__main__":
    main()
