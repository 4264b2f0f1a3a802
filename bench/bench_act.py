"""Benchmark of the referee API: throughput side by side with health, the signed
state's size over whole matches, the bytes on the wire per click, and the core alone. Prints
figures; asserts nothing.

    PYTHONPATH=service python bench/bench_act.py [--seconds 6] [--rounds 24] [--in-flight 32] [--matches 200]

* ``health`` / ``act step`` / ``list actions``: calls per second from one run, ``--in-flight``
  calls outstanding at once (grpc.aio, requests serialized once, answers not decoded), against a
  server in its own process (``tavla-engine serve``, one worker, state mode require: every
  state's signature checked and made). With two CPUs or more the server runs on one and this
  client on another (``--no-pin``: both share every CPU): the client then cannot take the
  server's CPU, which it does by more for an Act (it handles 944 bytes of answer, not 2), and
  the figures stop drifting with the machine (on a 2-vCPU VM, unpinned runs minutes apart read
  Act from 0.53x to 0.75x; pinned, 0.64x to 0.65x for the same code). ``act step`` is Act of
  one checker step in a fresh game; ``list actions`` ListActions of that state. Each is measured ``--seconds`` in all, in ``--rounds`` short rounds of the
  kinds in turn: the rates are the rounds' medians, and each ratio is the median of the rounds'
  ratios to the health checks of the same round (a paired comparison: a shared VM's speed
  drifts over seconds), with the middle half of them. ``health again`` is health measured as
  the others are, the method's own noise: its ratio should be 1. (Rounds of 0.5 s, as this
  script had, read health against itself anywhere from 0.77x to 1.17x on a 2-vCPU VM; rounds
  of 0.25 s, 0.96x to 1.07x.)
* ``signed state``: the largest signed state over ``--matches`` whole matches played in process
  through :class:`tavla.referee.Referee` (a third each: Turkish 5-point, international 7-point
  with the cube, money play with beavers and raccoons), random legal actions; ``timed``: the
  same over a quarter as many timed matches (international 7-point with the cube, half under
  each clock preset), whose states also hold the clock (settings, both sides' clocks and the
  turn's start as a Timestamp).
* ``wire per click``: one whole 7-point match over gRPC, one Act per click (its answer carries
  the next actions): request and response bytes per Act.
* ``act, played``: ``--in-flight`` whole games at once over gRPC, each click the next Act of its
  game (the answer decoded, a random legal action chosen): every call a new state, as in play.
* ``core act step`` / ``referee act step``: in process, no gRPC, CPU time: the core's ``act``
  of one step, and the referee's whole Act (open, act, view, actions, seal): the same call again
  (what the process keeps answers it), after the roll's Act analysed the turn (as in play), and
  with nothing kept; ``referee, played``: per step Act over whole games in process;
  ``servicer, played``: per Act of every kind over whole games, as the server's handler runs it
  (the request parsed from its bytes, the input contract checked, ``RefereeService.Act``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

from tavla.server.api.context import LocalCall
from tavla.server.api.engine import Engine
from tavla.server.api.referee import RefereeService
from tavla.server.convert import contract
from tavla.core import preset
from tavla.core.match import clock
from tavla.core.match.dice_commit import DiceKey
from tavla.core.game import Action, ActionKind, act
from tavla.core.game.machine import turn
from tavla.referee import Referee
from tavla.server.convert import game as cg
from tavla.referee.keys import Signed, StateMode, StateSigner
from tavla.v1 import referee_service_pb2 as api
from tavla.v1 import referee_service_pb2_grpc as api_grpc
from tavla.v1 import game_pb2

G = game_pb2
STATE_KEY = b"b" * 32
DICE_KEY = "bench dice key, thirty-two characters"


REFEREES: list[Referee] = []  # the in-process referees, whose kept states empty_caches forgets too


def empty_caches() -> None:
    """Forget the turns, analyses, parsed states, position bytes and actions the process keeps
    (each looked up by name, so that the script also runs against an older tree, e.g. main's)."""
    from tavla.core.game import machine
    from tavla.core.rules import steps
    kept = [getattr(steps, "clear_cache", None), getattr(getattr(machine, "_moving", None), "cache_clear", None)]
    kept += [getattr(getattr(referee, "kept", None), "clear", None) for referee in REFEREES]
    kept += [getattr(getattr(machine, "_by_analysis", None), "clear", None),
             getattr(getattr(cg, "_steps_seen", None), "clear", None)]
    kept += [getattr(getattr(cg, name, None), "cache_clear", None)
             for name in ("_position_field", "_board_key", "_state_match_field", "_position_bytes",
                          "_match_state_bytes", "_match_view_bytes")]
    for cache in kept:
        if cache is not None:
            cache()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpus_apart() -> tuple[int, int] | None:
    """Two CPUs this process may use, one for the server and one for the client, or ``None``
    (one CPU, or no ``sched_setaffinity``: macOS, Windows)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    mine = sorted(os.sched_getaffinity(0))
    return (mine[0], mine[1]) if len(mine) >= 2 else None


def start_server(port: int, cpu: int | None = None) -> subprocess.Popen[bytes]:
    """``tavla-engine serve`` on ``port``: one worker, mode require, no metrics; on CPU ``cpu``
    alone when given (its threads inherit it)."""
    env = dict(os.environ, TAVLA_STATE_KEYS=f"bench:{base64.b64encode(STATE_KEY).decode()}",
               TAVLA_DICE_KEY=DICE_KEY, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "service"))
    command = [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
               "--state-mode", "require", "--metrics-port", "0", "--log-level", "warning"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if cpu is not None:  # while it imports, before it starts a thread: its threads inherit the CPU
        os.sched_setaffinity(server.pid, {cpu})
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    grpc.channel_ready_future(channel).result(timeout=60)
    channel.close()
    return server


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system, every thread) process ``pid`` has used so far; 0 where
    /proc is not there."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


BUSY: dict[str, list[float]] = {}  # per kind: the server's CPU seconds, wall seconds, calls, this client's CPU seconds


async def rate(call: Callable[[], Awaitable[object]], seconds: float, in_flight: int) -> tuple[float, float]:
    """(calls per second, mean milliseconds per call) with ``in_flight`` calls outstanding."""
    count = 0
    stop = time.perf_counter() + seconds

    async def loop() -> None:
        nonlocal count
        while time.perf_counter() < stop:
            await call()
            count += 1

    started = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(in_flight)))
    elapsed = time.perf_counter() - started
    return count / elapsed, 1000 * elapsed * in_flight / max(count, 1)


def choose(actions: list[G.GameAction], rng: random.Random, double: float) -> G.GameAction:
    """A random legal action that lets a game end: whole moves confirmed, doubles sometimes,
    every double beavered when it can be."""
    kinds = {a.kind: a for a in actions}
    for kind in (G.ACTION_KIND_START_GAME, G.ACTION_KIND_CONFIRM_MOVE, G.ACTION_KIND_BEAVER):
        if kind in kinds:
            return kinds[kind]
    if G.ACTION_KIND_TAKE in kinds:
        return kinds[G.ACTION_KIND_DROP if rng.random() < 0.3 else G.ACTION_KIND_TAKE]
    if G.ACTION_KIND_DOUBLE in kinds and rng.random() < double:
        return kinds[G.ACTION_KIND_DOUBLE]
    if G.ACTION_KIND_ROLL in kinds:
        return kinds[G.ACTION_KIND_ROLL]
    steps = [a for a in actions if a.kind == G.ACTION_KIND_STEP]
    if steps and rng.random() < 0.1 and G.ACTION_KIND_UNDO in kinds:
        return kinds[G.ACTION_KIND_UNDO]
    return rng.choice(steps) if steps else actions[0]


MATCHES = (("turkish", 5, 0.0), ("international", 7, 0.15), ("money-beavers", 0, 0.3))


def largest_states(referee: Referee, matches: int) -> tuple[int, int, int]:
    """(largest signed state in bytes, states seen, matches played) over whole matches."""
    largest = seen = 0
    for n in range(matches):
        name, length, double = MATCHES[n % len(MATCHES)]
        rules = replace(preset("international"), beavers=True) if name == "money-beavers" else preset(name)
        rng = random.Random(n)
        answer = referee.new_match(rules, "international" if length == 0 else name, length)
        games = 0
        while answer.actions and games < 4:  # money play: four games
            assert answer.signed is not None
            largest, seen = max(largest, len(answer.signed.state)), seen + 1
            action = cg.action_from_proto(choose(answer.actions, rng, double))
            answer = referee.act(referee.open(answer.signed), action)
            if length == 0 and answer.events is not None and answer.events.HasField("outcome"):
                games += 1
        assert answer.signed is not None
        largest, seen = max(largest, len(answer.signed.state)), seen + 1
    return largest, seen, matches


def largest_timed_states(referee: Referee, matches: int) -> tuple[int, int, int]:
    """:func:`largest_states` over timed international 7-point matches with the cube, half
    under each clock preset (the referee measures the time: the real clock)."""
    largest = seen = 0
    presets = (clock.ClockPreset.RESERVE, clock.ClockPreset.EXTENSIONS)
    for n in range(matches):
        rng = random.Random(10_000 + n)
        answer = referee.new_match(preset("international"), "international", 7, clock.PRESETS[presets[n % 2]])
        while answer.actions:
            assert answer.signed is not None
            largest, seen = max(largest, len(answer.signed.state)), seen + 1
            answer = referee.act(referee.open(answer.signed), cg.action_from_proto(choose(answer.actions, rng, 0.15)))
        assert answer.signed is not None
        largest, seen = max(largest, len(answer.signed.state)), seen + 1
    return largest, seen, matches


def wire_per_click(engine: api_grpc.RefereeServiceStub) -> tuple[float, float, int]:
    """(request bytes, response bytes) per Act over one whole 7-point match, and the Acts."""
    rng = random.Random(3)
    response = engine.NewMatch(api.NewMatchRequest(length=7))
    signed, actions = response.state, list(response.actions)
    sent = received = clicks = 0
    while actions:
        request = api.ActRequest(state=signed, action=choose(actions, rng, 0.15))
        answer = engine.Act(request)
        sent += request.ByteSize()
        received += answer.ByteSize()
        clicks += 1
        signed, actions = answer.state, list(answer.actions)
    return sent / clicks, received / clicks, clicks


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """CPU microseconds per call of ``fn``, in process (CPU time, so that other processes on a
    shared machine disturb it less)."""
    count, stop = 0, time.process_time() + seconds
    started = time.process_time()
    while time.process_time() < stop:
        fn()
        count += 1
    return 1e6 * (time.process_time() - started) / count


async def played_rate(channel: grpc.aio.Channel, act_call: Callable[[bytes], Awaitable[bytes]], seconds: float,
                      in_flight: int) -> tuple[float, float]:
    """(Acts per second, mean milliseconds per Act) of ``in_flight`` games played at once, each
    click the next Act of its game (a random legal action of the last answer: mostly steps,
    then confirm, roll, start), so that every call is a new state as in play: the server's
    kept turns and analyses help only as they would a real client's."""
    engine = api_grpc.RefereeServiceStub(channel)
    games = []
    for n in range(in_flight):
        first = await engine.NewMatch(api.NewMatchRequest(length=7))
        games.append((random.Random(n), first.state, list(first.actions)))
    count = 0
    stop = time.perf_counter() + seconds

    async def play(i: int) -> None:
        nonlocal count
        rng, signed, actions = games[i]
        while time.perf_counter() < stop:
            if not actions:
                first = await engine.NewMatch(api.NewMatchRequest(length=7))
                signed, actions = first.state, list(first.actions)
            request = api.ActRequest(state=signed, action=choose(actions, rng, 0.1)).SerializeToString()
            answer = api.ActResponse.FromString(await act_call(request))
            signed, actions = answer.state, list(answer.actions)
            count += 1

    started = time.perf_counter()
    await asyncio.gather(*(play(i) for i in range(in_flight)))
    elapsed = time.perf_counter() - started
    return count / elapsed, 1000 * elapsed * in_flight / max(count, 1)


async def busy(name: str, pid: int, measure: Awaitable[tuple[float, float]]) -> tuple[float, float]:
    """``measure``'s figures, adding the server's CPU and wall seconds meanwhile to :data:`BUSY`:
    a server below 100% busy is not what bounds the rate (the client or the network is)."""
    cpu, wall, mine = cpu_seconds(pid), time.perf_counter(), time.process_time()
    got = await measure
    spent = BUSY.setdefault(name, [0.0, 0.0, 0.0, 0.0])
    spent[0] += cpu_seconds(pid) - cpu
    wall = time.perf_counter() - wall
    spent[1] += wall
    spent[2] += got[0] * wall
    spent[3] += time.process_time() - mine
    return got


def cpu_per_call(name: str) -> float:
    """The server's CPU microseconds per call of kind ``name`` (0 where /proc is not there)."""
    cpu, _, calls, _ = BUSY.get(name, (0.0, 0.0, 0.0, 0.0))
    return 1e6 * cpu / calls if calls else 0.0


def busy_text(name: str) -> str:
    """How busy the server and this client were, and the server's CPU per call beside a health
    check's. A client near 100% (it has one CPU when pinned) bounds the rate, and then the
    server's CPU per call counts its waiting too: the figure says little about the server."""
    cpu, wall, _, client = BUSY.get(name, (0.0, 0.0, 0.0, 0.0))
    if not (cpu and wall):
        return ""
    per_call, health = cpu_per_call(name), cpu_per_call("health")
    return (f"  server {100 * cpu / wall:3.0f}% busy, {per_call:4.0f} us CPU a call ({health / per_call:4.2f}x health);"
            f" client {100 * client / wall:3.0f}% busy")


async def throughput(port: int, seconds: float, in_flight: int, rounds_of: int, pid: int) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        engine = api_grpc.RefereeServiceStub(channel)
        first = await engine.NewMatch(api.NewMatchRequest(length=7))
        started = await engine.Act(api.ActRequest(state=first.state, action=G.GameAction(kind=G.ACTION_KIND_START_GAME)))
        step = next(a for a in started.actions if a.kind == G.ACTION_KIND_STEP)
        # requests serialized once and answers left as bytes: the client's cost is the same
        # small one for every RPC, so the figures compare the server's work
        raw = lambda path: channel.unary_unary(path, request_serializer=bytes, response_deserializer=bytes)  # noqa: E731
        act_call, list_call = raw("/tavla.v1.RefereeService/Act"), raw("/tavla.v1.RefereeService/ListActions")
        health_call = raw("/grpc.health.v1.Health/Check")
        act_request = api.ActRequest(state=started.state, action=step).SerializeToString()
        list_request = api.ListActionsRequest(state=started.state).SerializeToString()
        health_request = health_pb2.HealthCheckRequest().SerializeToString()
        assert api.ActResponse.FromString(await act_call(act_request)).state.state
        print(f"server: one worker, state mode require; {in_flight} calls in flight, {seconds:g} s each "
              f"in {rounds_of} interleaved rounds; "
              f"step {step.step.from_point}/{step.step.to_point} of a {len(started.state.state)}-byte state")
        # rounds of the three, interleaved, so that each ratio compares calls made under the
        # same load (the machine is shared): the figures are the medians of the rounds
        # "health again" is the method's own noise: health against health, measured as the others
        calls = (("health", lambda: health_call(health_request)), ("act step", lambda: act_call(act_request)),
                 ("list actions", lambda: list_call(list_request)), ("health again", lambda: health_call(health_request)))
        rounds: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in calls}
        for _ in range(max(1, rounds_of)):
            for name, call in calls:
                rounds[name].append(await busy(name, pid, rate(call, seconds / rounds_of, in_flight)))
        figures = {name: (statistics.median(r for r, _ in got), statistics.median(ms for _, ms in got))
                   for name, got in rounds.items()}
        # each round's ratio to the health checks of the same round: a paired comparison, which
        # the machine's drifts (seconds long on a shared VM) disturb less than a ratio of medians
        ratios = {name: sorted(r / h for (r, _), (h, _) in zip(got, rounds["health"])) for name, got in rounds.items()}
        played = await busy("act, played", pid, played_rate(channel, act_call, seconds, in_flight))
        for name, (per_second, ms) in figures.items():
            spread = ""
            if name != "health":
                middle = ratios[name][len(ratios[name]) // 4:len(ratios[name]) - len(ratios[name]) // 4]
                spread = f"  (median of {rounds_of} rounds; half of them {middle[0]:.2f}-{middle[-1]:.2f})"
            print(f"{name:>16}: {per_second:8.0f} calls/s  {ms:6.2f} ms/call  "
                  f"{statistics.median(ratios[name]):4.2f}x health{spread}{busy_text(name)}")
        print(f"{'act, played':>16}: {played[0]:8.0f} calls/s  {played[1]:6.2f} ms/call  "
              f"{played[0] / figures['health'][0]:4.2f}x health  (every call a new state; against the health median)"
              f"{busy_text('act, played')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds of each kind of call in all")
    parser.add_argument("--rounds", type=int, default=24,
                        help="interleaved rounds of health, act step, list actions, health again")
    parser.add_argument("--in-flight", type=int, default=32)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--wire-only", action="store_true",
                        help="only the figures over gRPC (not the state sizes, nor the in-process ones)")
    parser.add_argument("--no-pin", action="store_true",
                        help="let the server and this client share every CPU (by default each has one of its own)")
    args = parser.parse_args()

    port = free_port()
    apart = None if args.no_pin else cpus_apart()
    server = start_server(port, None if apart is None else apart[0])
    if apart is not None:  # the client's threads (gRPC's, started later) inherit it
        os.sched_setaffinity(0, {apart[1]})
        print(f"pinned: the server on CPU {apart[0]}, this client on CPU {apart[1]} (--no-pin to share them)")
    try:
        asyncio.run(throughput(port, args.seconds, args.in_flight, args.rounds, server.pid))
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        sent, received, clicks = wire_per_click(api_grpc.RefereeServiceStub(channel))
        channel.close()
        print(f"{'wire per click':>16}: {sent:.0f} bytes sent, {received:.0f} received per Act "
              f"(protobuf), one whole 7-point match of {clicks} Acts")
    finally:
        server.terminate()
        server.wait(timeout=30)
    if args.wire_only:
        return

    signer = StateSigner(StateMode.REQUIRE, (("bench", STATE_KEY),), shared=True)
    # the server's engine in process (its referee and compiled move generator), no wire in between
    engine = Engine(signer=signer, dice_key=DiceKey(DICE_KEY.encode(), shared=True), analysis_processes=0)
    referee = engine.referee
    REFEREES.append(referee)
    started_at = time.perf_counter()
    largest, seen, played = largest_states(referee, args.matches)
    print(f"{'signed state':>16}: at most {largest} bytes over {played} whole matches ({seen} states; "
          f"Turkish 5, international 7 with the cube, money with beavers) in {time.perf_counter() - started_at:.0f} s")
    largest, seen, played = largest_timed_states(referee, max(1, args.matches // 4))
    print(f"{'timed':>16}: at most {largest} bytes over {played} whole timed matches ({seen} states; "
          "international 7 with the cube, the reserve and the extensions clocks)")

    first = referee.new_match(preset("international"), "international", 7)
    assert first.signed is not None
    begun = referee.act(referee.open(first.signed), Action(ActionKind.START_GAME))
    assert begun.signed is not None
    step_msg = next(a for a in begun.actions if a.kind == G.ACTION_KIND_STEP)
    step = cg.action_from_proto(step_msg)
    opened = referee.open(begun.signed)
    signed = Signed(begun.signed.state, begun.signed.key_id, begun.signed.signature)

    def core_cold() -> None:
        empty_caches()
        act(opened.state, step)

    def turn_alone() -> None:
        empty_caches()
        turn(opened.state)

    def turn_then_step() -> None:
        empty_caches()
        turn(opened.state)
        act(opened.state, step)

    def referee_cold() -> None:
        empty_caches()
        referee.act(referee.open(signed), step)

    def played_steps() -> float:
        """CPU microseconds per step Act over whole games played in process, every state new:
        each turn analysed by the Act that rolled it (kept), each step the referee's whole Act."""
        empty_caches()
        rng, spent, stepped = random.Random(5), 0.0, 0
        answer = referee.new_match(preset("international"), "international", 7)
        stop = time.process_time() + args.seconds
        while time.process_time() < stop:
            if not answer.actions:
                answer = referee.new_match(preset("international"), "international", 7)
            msg = choose(answer.actions, rng, 0.1)
            action = cg.action_from_proto(msg)
            assert answer.signed is not None
            started = time.process_time()
            answer = referee.act(referee.open(answer.signed), action)
            if msg.kind == G.ACTION_KIND_STEP:
                spent, stepped = spent + time.process_time() - started, stepped + 1
        return 1e6 * spent / max(stepped, 1)

    print(f"in process, CPU time, no gRPC; a step {step.step.from_point}/{step.step.to_point} of dice "
          f"{'-'.join(map(str, opened.state.dice))} at the start of a game:")
    core_us = per_call(lambda: act(opened.state, step), args.seconds)
    # the same Act again of a state this referee wrote (as the server's repeated request), before
    # the cold figures below empty what the process keeps
    referee_us = per_call(lambda: referee.act(referee.open(signed), step), args.seconds)
    cold_us = per_call(core_cold, args.seconds)
    after_roll_us = per_call(turn_then_step, args.seconds) - per_call(turn_alone, args.seconds)
    print(f"{'core act step':>16}: {core_us:8.1f} us/call the same step again (its analysis kept); "
          f"{after_roll_us:.1f} once the roll's Act analysed the turn (as in play); "
          f"{cold_us:.1f} with nothing kept")
    referee_cold_us = per_call(referee_cold, args.seconds)
    print(f"{'referee act step':>16}: {referee_us:8.1f} us/call the same again; {referee_cold_us:.1f} with "
          f"nothing kept (open, act, view, actions, seal)")
    print(f"{'referee, played':>16}: {played_steps():8.1f} us per step Act over whole games (every state new)")

    service = RefereeService(engine)

    def played_acts() -> float:
        """CPU microseconds per Act over whole games through the servicer, every state new: the
        request parsed from its bytes and checked by the input contract first, as a server does."""
        empty_caches()
        rng, spent, acts, call = random.Random(7), 0.0, 0, LocalCall()
        first = service.NewMatch(api.NewMatchRequest(length=7), call)
        signed, actions = first.state, list(first.actions)
        stop = time.process_time() + args.seconds
        while time.process_time() < stop:
            if not actions:
                first = service.NewMatch(api.NewMatchRequest(length=7), call)
                signed, actions = first.state, list(first.actions)
            raw = api.ActRequest(state=signed, action=choose(actions, rng, 0.1)).SerializeToString()
            started = time.process_time()
            request = api.ActRequest.FromString(raw)
            contract.check(request)
            answer = service.Act(request, call)
            spent, acts = spent + time.process_time() - started, acts + 1
            parsed = api.ActResponse.FromString(answer)
            signed, actions = parsed.state, list(parsed.actions)
        return 1e6 * spent / max(acts, 1)

    print(f"{'servicer, played':>16}: {played_acts():8.1f} us per Act of every kind over whole games (request "
          "parsed, contract checked)")


if __name__ == "__main__":
    main()
