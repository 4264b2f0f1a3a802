"""Run every benchmark and write bench/RESULTS.md: figures, goal ratios, the machine, date, commit.

``make bench`` runs ``python bench/run_all.py`` (minutes); ``make bench-smoke`` runs it with
``--smoke`` (seconds, small sets, one worker, concurrency 8) and writes to
``.cache/bench-smoke.md`` so the committed RESULTS.md is left alone. Nothing here asserts a
speed: the goals are written down beside the figures, met or not.

``--before DIR`` also serves another checkout's ``service/`` (e.g. ``git archive <commit>``
unpacked in DIR) for Health and ListLegalMoves, for before/after figures from the same run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import bench_encode  # noqa: E402
import bench_service  # noqa: E402

OTHER_BENCHES = ["bench_movegen.py", "bench_bearoff.py", "bench_dice.py", "bench_server_memory.py", "bench_act.py",
                 "bench_instructions.py", "bench_validate.py", "bench_contract.py", "bench_attacks.py",
                 "bench_health_flood.py"]


def _git(*args: str) -> str:
    out = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=False)
    return out.stdout.strip()


def current_commit() -> str:
    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = " (with uncommitted changes)" if _git("status", "--porcelain", "--untracked-files=no") else ""
    return f"`{commit}`{dirty}"


def machine() -> list[str]:
    model = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            mem = f"{int(f.readline().split()[1]) / 1024 / 1024:.0f} GB RAM"
    except OSError:
        pass
    return [f"CPU: {model}, {os.cpu_count()} logical CPUs, {mem}",
            f"Python {platform.python_version()} ({platform.machine()}), {platform.system()} {platform.release()}"]


def _row(runs: list[dict], rpc: str, workers: int, concurrency: int) -> dict | None:
    for r in runs:
        if r["rpc"] == rpc and r["workers"] == workers and r["concurrency"] == concurrency:
            return r
    return None


def cpu_us(r: dict | None) -> float | None:
    """Server CPU microseconds per successful call: the cost of a call, little moved by other load."""
    if not r or not r["ok_per_s"]:
        return None
    return r["server_cpu_pct"] / 100 / r["ok_per_s"] * 1e6


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _fmt(x: float | None, spec: str = ".2f") -> str:
    return "n/a" if x is None else format(x, spec)


def goals(enc: dict, svc: dict) -> list[tuple[str, str, str, str]]:
    """(goal, target, measured, met) rows."""
    runs = svc.get("runs", [])
    rows = []

    def ok_rate(rpc: str, w: int, c: int) -> float | None:
        r = _row(runs, rpc, w, c)
        return r["ok_per_s"] if r else None

    c = 32 if _row(runs, "Health", 1, 32) else 8
    health = ok_rate("Health", 1, c)
    for rpc, target in (("ListLegalMoves/basic", 0.8), ("ListLegalMoves", 0.5)):
        ratio = _ratio(ok_rate(rpc, 1, c), health)
        rows.append((f"{rpc} / Health throughput, concurrency {c}, 1 worker", f">= {target}", _fmt(ratio),
                     "n/a" if ratio is None else ("yes" if ratio >= target else "no")))
        cost = _ratio(cpu_us(_row(runs, "Health", 1, c)), cpu_us(_row(runs, rpc, 1, c)))
        rows.append((f"the same from server CPU per call (Health us / {rpc} us): the ratio a saturated worker "
                     "would reach", f">= {target}", _fmt(cost),
                     "n/a" if cost is None else ("yes" if cost >= target else "no")))
    match = enc.get("match", {})
    ratio = _ratio(match.get("full"), match.get("gnubg"))
    rows.append(("in-process generation + full answer / gnubg find_best_moves 0-ply (match positions)",
                 ">= 1.0", _fmt(ratio), "n/a" if ratio is None else ("yes" if ratio >= 1.0 else "no")))
    ratio = _ratio(match.get("full_accel"), match.get("gnubg"))
    rows.append(("the same with the compiled accelerator (service/accel) / gnubg (match positions)",
                 ">= 10", _fmt(ratio), "n/a" if ratio is None else ("yes" if ratio >= 10 else "no")))
    worst = enc.get("worst_full_ms")
    rows.append(("worst (position, roll) full answer, in process", "< 20 ms", _fmt(worst, ".1f") + " ms",
                 "n/a" if worst is None else ("yes" if worst < 20 else "no")))
    r = _row(runs, "ListLegalMoves", 1, c)
    tail = r["p99_ms"] / r["p50_ms"] if r and r["p50_ms"] else None
    rows.append((f"ListLegalMoves p99 / p50, concurrency {c}, 1 worker", "< 4", _fmt(tail),
                 "n/a" if tail is None else ("yes" if tail < 4 else "no")))
    for rpc in ("ListLegalMoves", "Health"):
        best = None
        for cc in (32, 128, 8):
            s = _ratio(ok_rate(rpc, 2, cc), ok_rate(rpc, 1, cc))
            if s is not None:
                best = s if best is None else max(best, s)
        rows.append((f"{rpc}: 2 workers / 1 worker throughput (best of concurrency 8/32/128)", ">= 1.7" if rpc ==
                     "ListLegalMoves" else "(reference)", _fmt(best),
                     "n/a" if best is None or rpc == "Health" else ("yes" if best >= 1.7 else "no")))
    # ghz runs on the same 2 cores: 2 workers get at most 2 cores minus ghz's share, so the ratio
    # the machine allows is (2 cores / (server + ghz CPU per call, 2 workers)) / 1-worker throughput
    for rpc in ("ListLegalMoves/basic", "ListLegalMoves"):
        r2, one = _row(runs, rpc, 2, c), ok_rate(rpc, 1, c)
        allowed = None
        if r2 and one and cpu_us(r2) is not None:
            per_call = cpu_us(r2) + r2["ghz_cpu_pct"] / 100 / r2["ok_per_s"] * 1e6
            allowed = (os.cpu_count() or 2) * 1e6 / per_call / one
        rows.append((f"{rpc}: 2 workers / 1 worker the CPUs allow beside ghz, concurrency {c} (CPUs / (server + "
                     "ghz CPU per call, 2 workers) / 1-worker calls/s)",
                     "(reference)", _fmt(allowed), "n/a"))
    peak = max((mb for v in svc.get("rss_mb", {}).values() for mb in v), default=None)
    rows.append(("peak RSS per server process under the load above", "< 150 MB", _fmt(peak, ".0f") + " MB",
                 "n/a" if peak is None else ("yes" if peak < 150 else "no")))
    return rows


def render(enc: dict, svc: dict, before: dict | None, others: dict[str, str], started: float, smoke: bool,
           load: tuple[str, str], finished: float | None = None, commit: str | None = None) -> str:
    commit = commit or current_commit()
    lines = ["# Benchmark results", "",
             "Written by `bench/run_all.py` (`make bench`)" + (" in **smoke mode** (tiny sets: not figures to quote)"
                                                              if smoke else "") + "; see docs/performance.md.",
             "", f"* Date: {datetime.datetime.fromtimestamp(started, datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
             f"{(finished or time.time()) - started:.0f} s", f"* Commit: {commit}"]
    lines += [f"* {m}" for m in machine()]
    lines += [f"* Load average (1, 5, 15 min) before: {load[0]}; after: {load[1]}. The machine is shared: "
              "figures from a loaded machine are lower and noisier than on an idle one.", ""]
    lines += ["## Goals", "", "| Goal | Target | Measured | Met |", "| --- | --- | --- | --- |"]
    lines += [f"| {g} | {t} | {m} | {ok} |" for g, t, m, ok in goals(enc, svc)]
    lines += ["", "## In process: positions per CPU second", "",
              "Best of 3 runs, `time.process_time`. *full*: generation + the default answer as the server "
              "hands it to gRPC (the serialized response, passed through: no parse, no serialize); *basic*: MOVE_VIEW_BASIC; *reference*: the "
              "field-by-field protobuf builder used before (the \"before\" figure); *gnubg*: "
              "`find_best_moves` 0-ply; *(accel)*: the same answers from the compiled accelerator "
              f"(service/accel; this run: {enc.get('accelerator', 'n/a')}); *accel call*: its call alone "
              "(the response's bytes, not yet handed to gRPC); *accel, parsed (before)*: the accelerated full answer parsed into the "
              "response message and serialized again, as the server did before passing the bytes through.", "",
              "| Set | Pairs | Moves/pair | generate | full (pure) | basic (pure) | full (accel) | basic (accel) "
              "| accel call | accel, parsed (before) | reference (before) | gnubg | full / gnubg | accel / gnubg "
              "| full / reference |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
              "| ---: |"]
    for name in ("match", "random", "hardest"):
        e = enc.get(name)
        if not e:
            continue
        lines.append(f"| {name} | {e['pairs']:,} | {e['moves_per_pair']:.1f} | {e['generate']:,.0f} | "
                     f"{e['full']:,.0f} | {e['basic']:,.0f} | {_fmt(e.get('full_accel'), ',.0f')} | "
                     f"{_fmt(e.get('basic_accel'), ',.0f')} | {_fmt(e.get('accel_call'), ',.0f')} | "
                     f"{_fmt(e.get('full_accel_parsed'), ',.0f')} | "
                     f"{_fmt(e.get('reference'), ',.0f')} | "
                     f"{_fmt(e.get('gnubg'), ',.0f')} | {_fmt(_ratio(e['full'], e.get('gnubg')))} | "
                     f"{_fmt(_ratio(e.get('full_accel'), e.get('gnubg')))} | "
                     f"{_fmt(_ratio(e['full'], e.get('reference')), '.1f')} |")
    if "worst_full_ms" in enc:
        lines += ["", f"Slowest full answer of the hardest set: {enc['worst_full_ms']:.1f} ms ({enc['worst_pair']})."]
    if "worst_accel_ms" in enc:
        lines[-1] += f" With the accelerator: {enc['worst_accel_ms']:.2f} ms ({enc['worst_accel_pair']})."
    lines += ["", "## Service under load (ghz, 127.0.0.1)", ""]
    if "error" in svc:
        lines.append(f"Not measured: {svc['error']}.")
    else:
        lines += [f"{svc['ghz']}; {svc['seconds']} s per run (smoke: 300 calls); requests round-robin over "
                  f"{svc['requests'].get('ListLegalMoves', 0):,} (position, roll) pairs of real matches. "
                  "*ok/s*: calls that succeeded per second; CPU: % of one core used by the server "
                  "processes (per worker) and by ghz during the run.", "",
                  "*CPU us/call*: server CPU per successful call. *errors*: ghz stops a timed run by "
                  "cancelling the calls still in flight, so up to `concurrency` Canceled/Unavailable at the "
                  "end of a run are the stop, not failures.", "",
                  "| Workers | Conc. | RPC | ok/s | / Health | p50 ms | p95 ms | p99 ms | errors | server CPU % (per worker) | CPU us/call | ghz CPU % |",
                  "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
        for r in svc["runs"]:
            h = _row(svc["runs"], "Health", r["workers"], r["concurrency"])
            rel = _ratio(r["ok_per_s"], h["ok_per_s"] if h else None)
            errs = str(r["errors"]) + (f" {r['error_kinds']}" if r["errors"] else "")
            lines.append(f"| {r['workers']} | {r['concurrency']} | {r['rpc']} | {r['ok_per_s']:,.0f} | {_fmt(rel)} | "
                         f"{r['p50_ms']:.2f} | {r['p95_ms']:.2f} | {r['p99_ms']:.2f} | {errs} | "
                         f"{r['server_cpu_pct']:.0f} ({', '.join(map(str, r['worker_cpu_pct']))}) | "
                         f"{_fmt(cpu_us(r), '.0f')} | {r['ghz_cpu_pct']:.0f} |")
        lines += ["", "Peak RSS (VmHWM) per server process after all its runs: " + "; ".join(
            f"{w} worker(s): {', '.join(f'{mb} MB' for mb in v)}" for w, v in svc["rss_mb"].items()) + "."]
        if svc.get("profiles"):
            lines += ["", "### Where the server's Python time goes (py-spy --gil, 1 worker, concurrency 32, own time)", ""]
            for rpc, top in svc["profiles"].items():
                lines.append(f"* **{rpc}**: " + "; ".join(f"{name} {pct:.0f}%" for name, pct in top))
    if before and "runs" in before:
        lines += ["", "## Before (the previous server, same run)", "",
                  f"Served from `{before['path']}`.", "",
                  "| Workers | Conc. | RPC | ok/s | / Health | p50 ms | p99 ms | CPU us/call |",
                  "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
        for r in before["runs"]:
            h = _row(before["runs"], "Health", r["workers"], r["concurrency"])
            lines.append(f"| {r['workers']} | {r['concurrency']} | {r['rpc']} | {r['ok_per_s']:,.0f} | "
                         f"{_fmt(_ratio(r['ok_per_s'], h['ok_per_s'] if h else None))} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
                         f"{_fmt(cpu_us(r), '.0f')} |")
    for name, text in others.items():
        lines += ["", f"## {name}", "", "```", text.strip(), "```"]
    return "\n".join(lines) + "\n"


def _load() -> str:
    try:
        return " ".join(os.getloadavg().__repr__().strip("()").split(", "))
    except OSError:
        return "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="seconds, not minutes; writes .cache/bench-smoke.md")
    parser.add_argument("--output", help="where to write (default bench/RESULTS.md, smoke .cache/bench-smoke.md)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each load run")
    parser.add_argument("--before", help="a checkout of the previous version (its service/ is served)")
    parser.add_argument("--render", metavar="JSON", help="only write the page again from a saved .json")
    args = parser.parse_args()
    output = args.output or (os.path.join(ROOT, ".cache", "bench-smoke.md") if args.smoke
                             else os.path.join(HERE, "RESULTS.md"))
    if args.render:
        with open(args.render, encoding="utf-8") as f:
            saved = json.load(f)
        with open(output, "w", encoding="utf-8") as f:
            f.write(render(saved["encode"], saved["service"], saved["before"], saved["others"], saved["started"],
                           saved["smoke"], tuple(saved["load"]), saved.get("finished"), saved.get("commit")))
        print(f"wrote {output}")
        return
    started = time.time()
    commit = current_commit()
    load_before = _load()
    enc = bench_encode.run(smoke=args.smoke)
    svc = bench_service.run(smoke=args.smoke, seconds=args.seconds)
    before = None
    if args.before:
        before = bench_service.run(seconds=args.seconds, workers_list=(1,), concurrencies=(32,), profiles=False,
                                   pythonpath=os.path.join(args.before, "service"),
                                   only=("Health", "ListLegalMoves"))
        before["path"] = args.before
    others: dict[str, str] = {}
    if not args.smoke:
        for script in OTHER_BENCHES:
            out = subprocess.run([sys.executable, os.path.join(HERE, script)], capture_output=True, text=True,
                                 check=False)
            others[script] = out.stdout + (f"\n(exit {out.returncode}) {out.stderr[-500:]}" if out.returncode else "")
            print(others[script], flush=True)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    load = (load_before, _load())
    text = render(enc, svc, before, others, started, args.smoke, load, commit=commit)
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.splitext(output)[0] + ".json", "w", encoding="utf-8") as f:  # for --render
        json.dump({"encode": enc, "service": svc, "before": before, "others": others, "started": started,
                   "finished": time.time(), "smoke": args.smoke, "load": load, "commit": commit}, f, indent=1)
    print(f"wrote {output}")


if __name__ == "__main__":
    main()
