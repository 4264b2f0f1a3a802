"""Server memory: RSS of `tavla-engine serve` idle, and after replaying the 79 match records.

Prints figures (the target is under 150 MB per server process); asserts nothing. Run:
``python bench/bench_server_memory.py`` from the test environment (`make bench` does).
"""

from __future__ import annotations

import glob
import os
import signal
import socket
import subprocess
import sys
import time

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
MATCHES = sorted(glob.glob(os.path.join(HERE, "..", "tests", "data", "matches", "*.mat")))


def status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    target = f"127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--workers", "1", "--metrics-port", "0"],
                            stderr=subprocess.DEVNULL)
    try:
        with grpc.insecure_channel(target) as ch:
            grpc.channel_ready_future(ch).result(timeout=60)
        time.sleep(5)  # let the background bear-off database warm-up finish
        idle = status_kb(proc.pid, "VmRSS")
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "tavla", "replay", "--target", target, "--quiet",
                              *MATCHES], capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        print(out.stdout.strip().splitlines()[-1])
        print(f"server RSS idle            {idle / 1024:8.1f} MB")
        print(f"server RSS after replay    {status_kb(proc.pid, 'VmRSS') / 1024:8.1f} MB")
        print(f"server peak RSS (VmHWM)    {status_kb(proc.pid, 'VmHWM') / 1024:8.1f} MB  (target < 150 MB)")
        print(f"replay wall time           {seconds:8.1f} s")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


if __name__ == "__main__":
    main()
