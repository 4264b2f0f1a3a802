"""The service under load: ghz against `tavla-engine serve` on 127.0.0.1, beside the health check.

Prints figures; asserts nothing about speed. Run: ``python bench/bench_service.py [--smoke]``
(``make bench`` runs it through bench/run_all.py, which writes bench/RESULTS.md). Needs ghz
(``make ghz`` builds it into .cache/bench; or set ``GHZ=/path/to/ghz``) and, for the profile
summaries, py-spy (the ``bench`` extra).

For each ``--workers`` count a fresh server is started (``--max-concurrent-rpcs 128`` so that the
highest concurrency is measured rather than turned away; the default is 64 per worker). Each
RPC is loaded for ``--seconds`` at each concurrency with ghz, which spreads the calls over
``min(concurrency, 8)`` connections: gRPC keeps one connection per channel and the kernel
spreads connections, not calls, over the workers (SO_REUSEPORT), so a single connection would
land on one worker. The requests are real: one per (position, roll) of the first match records
(position by Position ID and on_roll, as a lean client sends it), round-robin:

* ``Health``: ``grpc.health.v1.Health/Check``, the no-op baseline through the same interceptors;
* ``ListLegalMoves`` with the default full answer, and with ``view: MOVE_VIEW_BASIC``;
* ``ApplyMove``: the first legal move by notation;
* ``ListLegalSteps``: the next steps after the first step of the first legal move;
* ``Act``: the signed-state RPC, measured once it exists (:func:`act_requests` is the hook).

Per run: calls/s that succeeded, p50/p95/p99 latency, errors, and the CPU used by the server
processes and by ghz (so a reader can see what was saturated); per server, each worker's peak RSS
(VmHWM). With py-spy, a short profile per RPC at concurrency 32 with one worker gives the top
functions by own time.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavla import core
from tavla.server.convert import common as convert
from tavla.server.api import services
from tavla.v1 import match_service_pb2, referee_service_pb2, rules_service_pb2
from tavla.v1 import match_service_pb2 as match_api
from tavla.v1 import rules_service_pb2 as api
from tavla.v1 import types_pb2 as pb

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

HEALTH = "grpc.health.v1.Health.Check"
TICKS = os.sysconf("SC_CLK_TCK")
PROTOSET = ""  # written by run()


def ghz_path() -> str | None:
    for candidate in (os.environ.get("GHZ"), os.path.join(ROOT, ".cache", "bench", "ghz-v0.121.0"), shutil.which("ghz")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


# --- requests ----------------------------------------------------------------------------------

def _id_position(pos: core.Position) -> pb.Position:
    return pb.Position(position_id=core.position_id.encode(pos), on_roll=convert.side_to_proto(pos.on_roll))


def build_requests(matches: int) -> dict[str, list[bytes]]:
    """Serialized requests per RPC name, from every (position, roll) of the first match records."""
    from bench_movegen import match_pairs

    out: dict[str, list[bytes]] = collections.defaultdict(list)
    for pos, dice in match_pairs(matches):
        position = _id_position(pos)
        out["ListLegalMoves"].append(api.ListLegalMovesRequest(position=position, dice=dice).SerializeToString())
        out["ListLegalMoves/basic"].append(api.ListLegalMovesRequest(
            position=position, dice=dice, view=api.MOVE_VIEW_BASIC).SerializeToString())
        first = core.legal_moves(pos, dice)[0]
        out["ApplyMove"].append(api.ApplyMoveRequest(
            position=position, dice=dice, move=pb.Move(notation=first.notation)).SerializeToString())
        steps = [pb.CheckerMove(from_point=s[0], to_point=s[1], die=s[2]) for s in first.steps[:1]]
        out["ListLegalSteps"].append(match_api.ListLegalStepsRequest(
            position=position, dice=dice, steps=steps).SerializeToString())
    act = act_requests(matches)
    if act:
        out["Act"] = act
    return dict(out)


def act_requests(matches: int) -> list[bytes] | None:
    """Hook for the signed-state ``Act`` RPC: its requests, or None while it does not exist.

    bench/bench_act.py measures Act (RefereeService) beside Health; this ghz run leaves it out.
    """
    return None


def write_protoset(path: str) -> None:
    """A FileDescriptorSet of the tavla.v1 services and Health with every import, for ghz
    ``--protoset``.

    (ghz's reflection client does not find symbols on grpcio's reflection service.)
    """
    from google.protobuf import descriptor_pb2

    files: dict[str, descriptor_pb2.FileDescriptorProto] = {}

    def add(fd) -> None:  # dependencies first
        if fd.name in files:
            return
        for dep in fd.dependencies:
            add(dep)
        proto = descriptor_pb2.FileDescriptorProto()
        fd.CopyToProto(proto)
        files[fd.name] = proto

    for module in (rules_service_pb2, match_service_pb2, referee_service_pb2):
        add(module.DESCRIPTOR)
    add(health_pb2.DESCRIPTOR)
    with open(path, "wb") as f:
        f.write(descriptor_pb2.FileDescriptorSet(file=list(files.values())).SerializeToString())


def delimited(messages: list[bytes]) -> bytes:
    """Messages each prefixed with its varint length: ghz's ``--binary`` count-delimited input."""
    from tavla.server.convert.wire import varint

    return b"".join(varint(len(m)) + m for m in messages)


# --- the server --------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


@contextmanager
def server(workers: int, pythonpath: str | None = None) -> Iterator[tuple[str, list[int]]]:
    """A `tavla-engine serve` on a free port: yields (target, the PIDs that serve calls)."""
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = pythonpath or os.path.join(ROOT, "service")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--workers", str(workers), "--metrics-port", "0", "--max-concurrent-rpcs", "128",
         "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    target = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(target) as ch:
            stub = health_pb2_grpc.HealthStub(ch)
            deadline = time.monotonic() + 120
            while True:
                try:
                    if stub.Check(health_pb2.HealthCheckRequest(), timeout=5).status == 1:
                        break
                except grpc.RpcError:
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not become ready")
                time.sleep(0.2)
        pids = [proc.pid] if workers == 1 else _children(proc.pid)
        time.sleep(3 if workers == 1 else 5)  # the bear-off database warm-up, off the measured runs
        yield target, pids
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- load --------------------------------------------------------------------------------------

def ghz(ghz_bin: str, target: str, call: str, data_file: str | None, concurrency: int,
        seconds: float | None = None, total: int | None = None) -> dict:
    cmd = [ghz_bin, "--insecure", "--protoset", PROTOSET, "--call", call, "-c", str(concurrency),
           "--connections", str(min(concurrency, 8)), "-O", "json", "--timeout", "30s"]
    cmd += ["-z", f"{seconds}s"] if seconds else ["-n", str(total)]
    cmd += ["--binary", "--binary-file", data_file] if data_file else ["-d", "{}"]
    out = subprocess.run(cmd + [target], capture_output=True, text=True, check=False)
    if not out.stdout.strip():
        raise RuntimeError(f"ghz failed: {out.stderr.strip()[:500]}")
    return json.loads(out.stdout)


def _latency(report: dict, pct: int) -> float:
    for item in report.get("latencyDistribution") or []:
        if item["percentage"] == pct:
            return item["latency"] / 1e6  # ns -> ms
    return float("nan")


def load(ghz_bin: str, target: str, pids: list[int], call: str, data_file: str | None,
         concurrency: int, seconds: float | None, total: int | None) -> dict:
    """One ghz run with the CPU the server and ghz used during it."""
    before = {pid: _cpu_seconds(pid) for pid in pids}
    child_before = os.times()
    report = ghz(ghz_bin, target, call, data_file, concurrency, seconds, total)
    child_after = os.times()
    server_cpu = sum(_cpu_seconds(pid) - before[pid] for pid in pids)
    per_worker = [_cpu_seconds(pid) - before[pid] for pid in pids]
    wall = report["total"] / 1e9
    codes = report.get("statusCodeDistribution") or {}
    ok = codes.get("OK", 0)
    return {
        "ok_per_s": ok / wall if wall else 0.0,
        "calls": report["count"],
        "errors": report["count"] - ok,
        "error_kinds": {k: v for k, v in codes.items() if k != "OK"},
        "p50_ms": _latency(report, 50), "p95_ms": _latency(report, 95), "p99_ms": _latency(report, 99),
        "server_cpu_pct": 100 * server_cpu / wall if wall else 0.0,
        "worker_cpu_pct": [round(100 * c / wall) for c in per_worker] if wall else [],
        "ghz_cpu_pct": 100 * ((child_after.children_user + child_after.children_system)
                              - (child_before.children_user + child_before.children_system)) / wall if wall else 0.0,
    }


def profile(pid: int, seconds: float, top: int = 6) -> list[tuple[str, float]]:
    """py-spy's samples of ``pid`` for ``seconds`` while holding the GIL (so CPU spent in Python,
    not threads waiting): the functions with the most own time (%)."""
    spy = shutil.which("py-spy") or os.path.join(os.path.dirname(sys.executable), "py-spy")
    if not os.access(spy, os.X_OK):
        return []
    with tempfile.NamedTemporaryFile(suffix=".txt") as out:
        run = subprocess.run([spy, "record", "--pid", str(pid), "--duration", str(int(seconds)),
                              "--format", "raw", "--output", out.name, "--nonblocking", "--rate", "200", "--gil"],
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            return []
        own: collections.Counter[str] = collections.Counter()
        with open(out.name, encoding="utf-8", errors="replace") as f:
            for line in f:
                stack, _, count = line.rstrip().rpartition(" ")
                if not stack:
                    continue
                leaf = stack.split(";")[-1]
                name = leaf.split(" (")[0]
                where = leaf.split(" (")[1].rstrip(")") if " (" in leaf else ""
                where = where.replace(ROOT + "/service/", "").split(":")[0]
                where = where.split("site-packages/")[-1]
                own[f"{name} ({where})"] += int(count)
    total = sum(own.values()) or 1
    return [(k, 100 * v / total) for k, v in own.most_common(top)]


RPCS = ["Health", "ListLegalMoves", "ListLegalMoves/basic", "ApplyMove", "ListLegalSteps", "Act"]


def run(smoke: bool = False, seconds: float = 5.0, workers_list: tuple[int, ...] = (1, 2),
        concurrencies: tuple[int, ...] = (1, 8, 32, 128), matches: int = 10,
        pythonpath: str | None = None, profiles: bool = True,
        only: tuple[str, ...] | None = None) -> dict:
    """Every figure as a dict (bench/run_all.py formats it).

    :param pythonpath: serve another checkout's ``service/`` (the "before" figures).
    :param only: measure only these RPC names (of :data:`RPCS`).
    """
    ghz_bin = ghz_path()
    if ghz_bin is None:
        print("ghz not found: make ghz (or GHZ=/path/to/ghz)")
        return {"error": "ghz not found"}
    if smoke:
        workers_list, concurrencies, matches, profiles = (1,), (8,), 1, False
    requests = build_requests(matches)
    version = subprocess.run([ghz_bin, "--version"], capture_output=True, text=True, check=False)
    results: dict = {"ghz": "ghz " + (version.stdout + version.stderr).strip(),
                     "requests": {k: len(v) for k, v in requests.items()}, "runs": [], "rss_mb": {},
                     "profiles": {}, "seconds": seconds}
    with tempfile.TemporaryDirectory() as tmp:
        global PROTOSET
        PROTOSET = os.path.join(tmp, "tavla.protoset")
        write_protoset(PROTOSET)
        files = {}
        for name, msgs in requests.items():
            files[name] = os.path.join(tmp, name.replace("/", "-") + ".bin")
            with open(files[name], "wb") as f:
                f.write(delimited(msgs))
        calls = {name: f"{services.service_of(name.split('/')[0])}.{name.split('/')[0]}" for name in requests}
        calls["Health"] = HEALTH
        files["Health"] = None
        rpcs = [r for r in RPCS if r in calls and (only is None or r in only)]
        for workers in workers_list:
            with server(workers, pythonpath) as (target, pids):
                for rpc in rpcs:  # warm up: first calls build caches and connections
                    ghz(ghz_bin, target, calls[rpc], files[rpc], 8, total=200)
                for concurrency in concurrencies:
                    for rpc in rpcs:
                        row = load(ghz_bin, target, pids, calls[rpc], files[rpc], concurrency,
                                   None if smoke else seconds, 300 if smoke else None)
                        row.update(rpc=rpc, workers=workers, concurrency=concurrency)
                        results["runs"].append(row)
                        print(json.dumps(row), flush=True)
                if profiles and workers == 1:
                    for rpc in rpcs:
                        proc = subprocess.Popen(
                            [ghz_bin, "--insecure", "--protoset", PROTOSET, "--call", calls[rpc], "-c", "32", "--connections", "8",
                             "-z", "5s", "-O", "json"]
                            + (["--binary", "--binary-file", files[rpc]] if files[rpc] else ["-d", "{}"])
                            + [target], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                        time.sleep(0.5)
                        results["profiles"][rpc] = profile(pids[0], 3)
                        proc.wait()
                results["rss_mb"][workers] = [round(_status_kb(pid, "VmHWM") / 1024, 1) for pid in pids]
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one worker, concurrency 8, 300 calls each")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each load run")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32, 128])
    args = parser.parse_args()
    print(json.dumps(run(args.smoke, args.seconds, tuple(args.workers), tuple(args.concurrency)), indent=1))


if __name__ == "__main__":
    main()
