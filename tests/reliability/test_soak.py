"""Soak: a mix of every kind of call from several clients against two
workers for a while: no error, memory flat, latency stable, health answered throughout.

20 s by default (CI); ``TAVLA_RELIABILITY_LONG=1`` soaks 10 minutes (``TAVLA_SOAK_SECONDS``
sets any length).
"""

from __future__ import annotations

import hashlib
import os
import random
import statistics
import threading
import time
from collections import Counter

import grpc
from harness import LONG, START_ID, HealthSampler, Server, report

from google.protobuf.duration_pb2 import Duration

import rpc_api as api
from tavla.v1 import clock_pb2, dice_pb2, match_pb2
from tavla.v1 import types_pb2 as pb

SECONDS = float(os.environ.get("TAVLA_SOAK_SECONDS", "0") or 0) or (600.0 if LONG else 20.0)
CLIENTS = 4
POSITIONS = [START_ID, "4PPgASjgc/ABMA", "/38AAACUlBRVFQ", "sHPwATDgc/ABMA", "27YBBwDg6+ADQA"]


def _one_call(stub: api.AnyStub, rng: random.Random) -> None:
    pick = rng.random()
    position = pb.Position(position_id=rng.choice(POSITIONS))
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    if pick < 0.35:
        stub.ListLegalMoves(api.ListLegalMovesRequest(position=position, dice=dice), timeout=30)
    elif pick < 0.5:
        moves = stub.ListLegalMoves(api.ListLegalMovesRequest(position=position, dice=dice), timeout=30).moves
        stub.ApplyMove(api.ApplyMoveRequest(position=position, dice=dice, move=rng.choice(moves)), timeout=30)
    elif pick < 0.6:
        seed = f"soak-{rng.random()}"
        commit = stub.CommitDice(api.CommitDiceRequest(client_seed_sha256=hashlib.sha256(seed.encode()).hexdigest()),
                                 timeout=30)
        stub.RollDice(api.RollDiceRequest(seed=dice_pb2.DiceSeed(token=commit.token, client_seed=seed)), timeout=30)
    elif pick < 0.7:
        stub.RollDice(api.RollDiceRequest(position=position), timeout=30)
    elif pick < 0.8:
        stub.AdvanceClock(api.AdvanceClockRequest(
            settings=clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_RESERVE), side=pb.SIDE_BLACK,
            elapsed=Duration(nanos=rng.randint(0, 999) * 10**6, seconds=rng.randint(0, 70))), timeout=30)
    elif pick < 0.9:
        stub.UpdateMatch(api.UpdateMatchRequest(
            match=match_pb2.MatchState(length=7, white_score=rng.randint(0, 5), black_score=rng.randint(0, 5)),
            outcome=match_pb2.GameOutcome(winner=pb.SIDE_WHITE, ending=match_pb2.GAME_ENDING_BORNE_OFF,
                                          kind=pb.RESULT_KIND_GAMMON)), timeout=30)
    else:
        stub.ListLegalSteps(api.ListLegalStepsRequest(position=pb.Position(position_id=START_ID), dice=[3, 1]),
                            timeout=30)


def test_soak_mixed_load():
    server = Server(workers=2)
    sampler = HealthSampler(server.target, period=0.1)
    stop = threading.Event()
    latencies: list[tuple[float, float]] = []  # (when, seconds)
    errors: Counter[str] = Counter()
    lock = threading.Lock()

    def client(index: int) -> None:
        rng = random.Random(index)
        with grpc.insecure_channel(server.target) as ch:
            stub = api.AnyStub(ch)
            while not stop.is_set():
                begin = time.monotonic()
                try:
                    _one_call(stub, rng)
                except grpc.RpcError as exc:
                    with lock:
                        errors[f"{exc.code().name}: {exc.details()}"[:200]] += 1
                except Exception as exc:  # noqa: BLE001 - a broken client is an error too
                    with lock:
                        errors[f"client: {exc!r}"[:200]] += 1
                    time.sleep(0.1)
                with lock:
                    latencies.append((begin, time.monotonic() - begin))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    sampler.start()
    time.sleep(min(5.0, SECONDS / 4))  # warm-up: caches, bear-off database, arenas
    rss_start = server.rss_mib()
    began = time.monotonic()
    rss_samples = [rss_start]
    while time.monotonic() - began < SECONDS:
        time.sleep(min(5.0, SECONDS / 10))
        rss_samples.append(server.rss_mib())
    stop.set()
    for t in threads:
        t.join(60)
    sampler.finish()
    rss_end = server.rss_mib()
    log_errors = server.errors()
    code = server.stop()
    window = [(w, s) for w, s in latencies if w >= began]
    third = max(1, len(window) // 3)
    first = statistics.median(s for _, s in window[:third]) * 1000
    last = statistics.median(s for _, s in window[-third:]) * 1000
    health = sorted(sampler.seconds)
    p99 = health[int(0.99 * (len(health) - 1))] if health else float("inf")
    middle = rss_samples[len(rss_samples) // 2]
    report(f"soak: {SECONDS / 60:.1f} min, {CLIENTS} clients, 2 workers: {len(window):,} calls, errors "
           f"{sum(errors.values())}; RSS {rss_start:.0f} MiB at start, {middle:.0f} halfway, {rss_end:.0f} at end "
           f"(max {max(rss_samples):.0f}); median latency first third {first:.1f} ms, last third {last:.1f} ms; "
           f"health {len(health)} checks, p99 {p99 * 1000:.0f} ms, worst {sampler.worst * 1000:.0f} ms, "
           f"failed {len(sampler.failures)}")
    assert not errors, errors.most_common(5)
    assert code == 0 and not log_errors, log_errors[:3]
    assert len(window) > 100
    assert rss_end - rss_start < 40, (rss_start, rss_samples, rss_end)
    # health answered SERVING throughout, each within the sampler's 10 s (a hang bound); the
    # latencies above are figures (bench/bench_health_flood.py prints health's under a flood)
    assert not sampler.failures and len(health) > 0
