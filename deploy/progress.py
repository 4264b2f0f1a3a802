#!/usr/bin/env python3
"""Run a slow command and show that it is moving: no silent minute.

    deploy/progress.py LOG -- COMMAND...

The command's whole output goes to LOG. On the terminal: the lines that tell progress (cargo's
"Compiling ..." and "Finished", pip's "Building wheel ..." and "Successfully ...", any warning or
error line), every 15 s a line with the time so far and the last of those lines, and on failure
the last 30 lines of LOG. Exits with the command's status. Used by `make serve`, `make test`,
`make dist` around `pip install` (which builds the Rust accelerator: about a minute from clean).
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

SHOWN = re.compile(r"^\s*(Compiling |Finished |Building wheel|Created wheel|Successfully |WARNING: tavla-rules|"
                   r"\S+: optional Rust extension|error|ERROR)")
EVERY = 15.0


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.exit(__doc__)
    log, command = Path(argv[0]), argv[2:]
    log.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    last = [""]
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   errors="replace", bufsize=1)
        done = threading.Event()

        def heartbeat() -> None:
            while not done.wait(EVERY):
                print(f"  ... {time.monotonic() - started:.0f} s: {last[0][:100]}", flush=True)

        ticker = threading.Thread(target=heartbeat, daemon=True)
        ticker.start()
        assert process.stdout is not None
        for line in process.stdout:
            out.write(line)
            if SHOWN.match(line):
                last[0] = line.strip()
                print("  " + line.strip()[:400 if "WARNING" in line else 160], flush=True)
        code = process.wait()
        done.set()
    if code:
        print(f"failed with status {code} after {time.monotonic() - started:.0f} s; the end of {log}:")
        print("".join(log.read_text(errors="replace").splitlines(keepends=True)[-30:]), end="")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
