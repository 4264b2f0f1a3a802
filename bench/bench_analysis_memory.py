"""Memory of one server worker under analysis load (docs/analysis.md#cost-and-limits; the Helm
chart's resources are sized from it). Prints figures; asserts nothing.

    PYTHONPATH=service:clients/python/src python bench/bench_analysis_memory.py [--seconds 20] [--clients 6]
        [--sample-seconds 60] [--warm-up 300]

Starts ``tavla-engine serve --workers 1`` and reads the worker's resident size (VmRSS) idle,
after one call of each level (both nets loaded), and its peak (VmHWM) after ``--seconds`` of
``--clients`` threads calling SuggestMove, SuggestCubeAction and SuggestAction at every level
and AnalyzeMatch of a real 7-point match, while ListLegalMoves keeps being called beside them.

A soak (``--seconds 1200`` or more): every ``--sample-seconds`` a line with the worker's RSS and
its analysis processes' (the children, the engine and its nets; multiprocessing's resource
tracker apart), the analysis calls answered so far and the children started (recycled after
``isolation.MAX_CALLS`` calls). At the end the least-squares slope of each, in MiB per minute,
over the samples after ``--warm-up`` seconds.
"""

from __future__ import annotations

import argparse
import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

from bench_server_memory import status_kb
from tavla.v1 import analysis_service_pb2 as api
from tavla.v1 import analysis_service_pb2_grpc, referee_service_pb2, referee_service_pb2_grpc
from tavla.v1 import rules_service_pb2, rules_service_pb2_grpc, types_pb2

MAT = Path(__file__).resolve().parent.parent / "tests" / "data" / "matches" / "match0001.mat"
START = types_pb2.Position(position_id="4HPwATDgc/ABMA", on_roll=types_pb2.SIDE_WHITE)
LEVELS = (api.ANALYSIS_LEVEL_BEGINNER, api.ANALYSIS_LEVEL_INTERMEDIATE, api.ANALYSIS_LEVEL_ADVANCED,
          api.ANALYSIS_LEVEL_EXPERT)


def children(pid: int) -> list[int]:
    """The process's children (every thread's), by /proc."""
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                out.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return out


def analysis_children(pid: int) -> dict[int, int]:
    """The worker's analysis processes and their RSS (KiB); the resource tracker left out."""
    found: dict[int, int] = {}
    for c in children(pid):
        try:
            with open(f"/proc/{c}/cmdline", "rb") as f:
                cmd = f.read()
            if b"resource_tracker" not in cmd:
                found[c] = status_kb(c, "VmRSS")
        except (OSError, KeyError):
            continue
    return found


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (minutes, MiB)."""
    if len(points) < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--sample-seconds", type=float, default=60.0)
    parser.add_argument("--warm-up", type=float, default=300.0, help="seconds left out of the slope")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", "1", "--metrics-port", "0"], stderr=subprocess.DEVNULL)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            grpc.channel_ready_future(ch).result(timeout=120)
            time.sleep(3)
            idle = status_kb(proc.pid, "VmRSS")
            stub = analysis_service_pb2_grpc.AnalysisServiceStub(ch)
            for level in LEVELS:
                stub.SuggestMove(api.SuggestMoveRequest(position=START, dice=[6, 5], level=level), timeout=60)
            loaded = status_kb(proc.pid, "VmRSS")
            referee = referee_service_pb2_grpc.RefereeServiceStub(ch)
            rules = rules_service_pb2_grpc.RulesServiceStub(ch)
            mat = MAT.read_text()
            stop = time.monotonic() + args.seconds
            counts = {"analysis": 0, "calls": 0, "shed": 0, "late": 0, "rules": 0}
            lock = threading.Lock()

            def client(i: int) -> None:
                state = referee.NewMatch(referee_service_pb2.NewMatchRequest(length=7)).state
                for level in itertools.cycle(LEVELS[i % 4:] + LEVELS[:i % 4]):
                    if time.monotonic() > stop:
                        return
                    try:
                        if i == 0:
                            stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=mat, level=api.ANALYSIS_LEVEL_ADVANCED),
                                              timeout=120)
                        else:
                            stub.SuggestMove(api.SuggestMoveRequest(position=START, dice=[6, 6], level=level), timeout=60)
                            stub.SuggestCubeAction(api.SuggestCubeActionRequest(position=START, level=level), timeout=60)
                            action = stub.SuggestAction(api.SuggestActionRequest(state=state, level=level),
                                                        timeout=60).action
                            acted = referee.Act(referee_service_pb2.ActRequest(state=state, action=action))
                            state = acted.state if acted.view.phase != 7 else referee.NewMatch(
                                referee_service_pb2.NewMatchRequest(length=7)).state
                        with lock:
                            counts["analysis"] += 1
                            counts["calls"] += 1 if i == 0 else 3
                    except grpc.RpcError as exc:
                        # shed, or past its budget on a machine busy with other work: counted, the soak goes on
                        kind = {grpc.StatusCode.RESOURCE_EXHAUSTED: "shed",
                                grpc.StatusCode.DEADLINE_EXCEEDED: "late"}.get(exc.code())
                        if kind is None:
                            raise
                        with lock:
                            counts[kind] += 1
                        time.sleep(0.05)

            def rules_client() -> None:
                while time.monotonic() < stop:
                    rules.ListLegalMoves(rules_service_pb2.ListLegalMovesRequest(position=START, dice=[6, 6]), timeout=60)
                    with lock:
                        counts["rules"] += 1

            threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
            threads.append(threading.Thread(target=rules_client))
            for t in threads:
                t.start()
            began = time.monotonic()
            samples: list[tuple[float, float, float]] = []
            pids: set[int] = set()
            print("| minute | worker RSS (MiB) | analysis processes RSS (MiB) | analysis calls | children started |")
            print("| --- | --- | --- | --- | --- |")
            while any(t.is_alive() for t in threads):
                threads[-1].join(timeout=min(args.sample_seconds, max(0.0, stop - time.monotonic())) or None)
                kids = analysis_children(proc.pid)
                pids |= set(kids)
                minute = (time.monotonic() - began) / 60
                worker, engine = status_kb(proc.pid, "VmRSS") / 1024, sum(kids.values()) / 1024
                samples.append((minute, worker, engine))
                print(f"| {minute:.1f} | {worker:.1f} | {engine:.1f} | {counts['calls']} | {len(pids)} |", flush=True)
                if time.monotonic() >= stop:
                    break
            for t in threads:
                t.join()
            late = [s for s in samples if s[0] * 60 >= args.warm_up]
            print(f"slope after {args.warm_up:.0f} s ({len(late)} samples): worker "
                  f"{slope([(m, w) for m, w, _ in late]):+.3f} MiB/min, analysis processes "
                  f"{slope([(m, e) for m, _, e in late]):+.3f} MiB/min; analysis processes "
                  f"min {min((e for *_, e in late), default=float('nan')):.1f}, "
                  f"max {max((e for *_, e in late), default=float('nan')):.1f} MiB")
            print(f"worker RSS idle                        {idle / 1024:8.1f} MiB")
            print(f"worker RSS, every level used once      {loaded / 1024:8.1f} MiB")
            print(f"worker RSS after {args.seconds:.0f} s of analysis load   {status_kb(proc.pid, 'VmRSS') / 1024:8.1f} MiB")
            print(f"worker peak RSS (VmHWM)                {status_kb(proc.pid, 'VmHWM') / 1024:8.1f} MiB")
            print(f"calls: {counts['analysis']} analysis rounds answered, {counts['shed']} shed "
                  f"(RESOURCE_EXHAUSTED), {counts['late']} past their budget (DEADLINE_EXCEEDED), "
                  f"{counts['rules']} ListLegalMoves answered beside them")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
