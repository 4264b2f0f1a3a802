#!/usr/bin/env python3
"""`make test`: run every part, print which passed, fail when any failed.

    deploy/run_parts.py MAKE PART...

Each PART is a make target (TEST_TARGETS: test-python, test-image, ...), run as its own
`MAKE --no-print-directory PART` one after another, whatever the earlier ones gave: one failing
part does not hide the others. At the end a table (part, result, seconds) and the closing line
`parts: N passed, M failed`; the exit status is 1 when any part failed. The table is also written
to .ci/artifacts/test-parts.txt. PARTS=test-python,test-mypy runs only those.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.exit(__doc__)
    make, parts = argv[0], argv[1:]
    only = [p for p in os.environ.get("PARTS", "").split(",") if p]
    if only:
        unknown = sorted(set(only) - set(parts))
        if unknown:
            sys.exit(f"PARTS names no part of make test: {', '.join(unknown)} (parts: {' '.join(parts)})")
        parts = [p for p in parts if p in only]
    results: list[tuple[str, int, float]] = []
    for part in parts:
        print(f"\n======== make {part} ({len(results) + 1}/{len(parts)}) ========", flush=True)
        started = time.monotonic()
        code = subprocess.run([make, "--no-print-directory", part]).returncode
        results.append((part, code, time.monotonic() - started))
        print(f"======== make {part}: {'passed' if code == 0 else f'FAILED (status {code})'}", flush=True)
    width = max(len(p) for p in parts)
    lines = [f"{'part':<{width}}  result  seconds"]
    lines += [f"{p:<{width}}  {'passed' if c == 0 else 'FAILED':<6}  {s:7.0f}" for p, c, s in results]
    failed = [p for p, c, _ in results if c]
    lines.append(f"{'all':<{width}}  {'FAILED' if failed else 'passed':<6}  {sum(s for *_, s in results):7.0f}")
    table = "\n".join(lines)
    out = Path(".ci/artifacts/test-parts.txt")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table + "\n")
    print("\n" + table)
    if failed:
        print(f"failed: {' '.join(failed)} (each part's output is above its '======== make' line)")
    print(f"parts: {len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
