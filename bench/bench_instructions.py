"""Instructions the server process runs per call of Health, Act step and ListActions, counted by
valgrind: a figure that a shared VM's speed does not move, for comparing code where
``bench_act.py``'s throughput ratios drift by more than the change. Prints figures; asserts
nothing.

    PYTHONPATH=service python bench/bench_instructions.py [--calls 1000] [--warm 200]

Each figure is the difference between two runs of ``tavla-engine serve`` under
``valgrind --tool=cachegrind --cache-sim=no`` (one worker, state mode require, as bench_act's
server): one answered ``--warm`` calls of each kind, the other those and ``--calls`` more of one
kind, one at a time from a client in its own process, so that start-up, imports and the
warm-up cancel. The calls are bench_act's: Act of one checker step in a fresh game, ListActions
of that state, a health check, and ``act, played``: Acts of whole games, every call a new state
(the NewMatch calls between games are counted with them: one per some 300 Acts). Under valgrind SHA-256 runs without the CPU's SHA extensions, so
the MAC counts for more than it costs; the counts rank code, they are not seconds. Needs valgrind
(Debian: ``apt-get install valgrind``); without it the script says so and exits 0. About four
minutes with the defaults.
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

from bench_act import DICE_KEY, STATE_KEY, choose, free_port
from tavla.v1 import game_pb2 as G
from tavla.v1 import referee_service_pb2 as api
from tavla.v1 import referee_service_pb2_grpc as api_grpc

KINDS = ("health", "act step", "list actions", "act, played")
PLAYED = "act, played"
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def calls_of(channel: grpc.Channel) -> dict[str, tuple[object, bytes]]:
    """The three calls, each a raw callable and its serialized request (answers left as bytes)."""
    engine = api_grpc.RefereeServiceStub(channel)
    first = engine.NewMatch(api.NewMatchRequest(length=7))
    started = engine.Act(api.ActRequest(state=first.state, action=G.GameAction(kind=G.ACTION_KIND_START_GAME)))
    step = next(a for a in started.actions if a.kind == G.ACTION_KIND_STEP)
    raw = lambda path: channel.unary_unary(path, request_serializer=bytes, response_deserializer=bytes)  # noqa: E731
    return {"health": (raw("/grpc.health.v1.Health/Check"), health_pb2.HealthCheckRequest().SerializeToString()),
            "act step": (raw("/tavla.v1.RefereeService/Act"),
                         api.ActRequest(state=started.state, action=step).SerializeToString()),
            "list actions": (raw("/tavla.v1.RefereeService/ListActions"),
                             api.ListActionsRequest(state=started.state).SerializeToString())}


def played(channel: grpc.Channel, calls: int) -> None:
    """``calls`` Acts of whole 7-point matches played one after another, each click the next
    Act of its game (bench_act's ``act, played``: every call a new state), the same seed each run."""
    engine = api_grpc.RefereeServiceStub(channel)
    rng = random.Random(1)
    answer = engine.NewMatch(api.NewMatchRequest(length=7))
    signed, actions = answer.state, list(answer.actions)
    for _ in range(calls):
        if not actions:
            answer = engine.NewMatch(api.NewMatchRequest(length=7))
            signed, actions = answer.state, list(answer.actions)
        act = engine.Act(api.ActRequest(state=signed, action=choose(actions, rng, 0.1)), timeout=60)
        signed, actions = act.state, list(act.actions)


def counted_run(warm: int, kind: str | None, calls: int) -> int:
    """Instructions of a whole server process that answered ``warm`` calls of each kind, then
    ``calls`` of ``kind`` (none when ``kind`` is ``None``)."""
    port = free_port()
    env = dict(os.environ, TAVLA_STATE_KEYS=f"bench:{base64.b64encode(STATE_KEY).decode()}",
               TAVLA_DICE_KEY=DICE_KEY, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "service"))
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "valgrind.log"
        server = subprocess.Popen(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
             f"--log-file={log}", sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", "1", "--state-mode", "require", "--metrics-port", "0", "--log-level", "warning",
             "--drain-seconds", "0"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                grpc.channel_ready_future(channel).result(timeout=600)
                calls_by_kind = calls_of(channel)
                for call, request in calls_by_kind.values():
                    for _ in range(warm):
                        call(request, timeout=60)  # type: ignore[operator]
                if kind == PLAYED:
                    played(channel, calls)
                elif kind is not None:
                    call, request = calls_by_kind[kind]
                    for _ in range(calls):
                        call(request, timeout=60)  # type: ignore[operator]
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=600)
        found = _REFS.search(log.read_text())
    if found is None:
        raise RuntimeError("valgrind printed no instruction count")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="calls of each kind counted")
    parser.add_argument("--warm", type=int, default=200, help="calls of each kind before counting")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("instructions per call: valgrind is not installed (Debian: apt-get install valgrind); skipped")
        return
    base = counted_run(args.warm, None, 0)
    per_call = {kind: (counted_run(args.warm, kind, args.calls) - base) / args.calls for kind in KINDS}
    print(f"server instructions per call (valgrind, one worker, state mode require; {args.calls} calls "
          f"one at a time after {args.warm} of each kind):")
    for kind in KINDS:
        print(f"{kind:>16}: {per_call[kind] / 1000:8.0f}k  health / {kind} {per_call['health'] / per_call[kind]:4.2f}")


if __name__ == "__main__":
    main()
