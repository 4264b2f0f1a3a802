#!/usr/bin/env python3
"""`make test`: run every part, print which passed, fail when any failed.

    deploy/run_parts.py MAKE PART...

Each PART is a make target (TEST_TARGETS: test-python, test-image, ...), run as its own
`MAKE --no-print-directory PART` one after another, whatever the earlier ones gave: one failing
part does not hide the others. At the end a table (part, result, seconds) and the closing line
`parts: N passed, M failed, K skipped` (the form CI reads as a closing line); the exit status is 1 when any part failed. The table is
also written to .ci/artifacts/test-parts.txt. PARTS=test-python,test-mypy runs only those.

A part that succeeds without having checked what it is for (the vulnerability audit with no
advisories here) says so by writing one line, the reason, to the file named by the environment
variable RUN_PARTS_SKIPPED (set for each part; see :func:`report_skipped`): the table shows it as
`skipped` with that reason, and it does not fail `make test`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIPPED_ENV = "RUN_PARTS_SKIPPED"


def report_skipped(reason: str) -> None:
    """Tell run_parts, when it runs this part, that the part checked nothing: ``reason`` says why.

    Outside `make test` (no RUN_PARTS_SKIPPED) this does nothing; the part prints its own notice.
    """
    path = os.environ.get(SKIPPED_ENV)
    if path:
        Path(path).write_text(reason.strip().replace("\n", " ") + "\n")


def run_part(make: str, part: str) -> tuple[int, str]:
    """Run one part; its exit status and, when it reported itself skipped, the reason."""
    with tempfile.TemporaryDirectory(prefix="run-parts-") as tmp:
        marker = Path(tmp) / "skipped"
        code = subprocess.run([make, "--no-print-directory", part],
                              env={**os.environ, SKIPPED_ENV: str(marker)}).returncode
        reason = marker.read_text().strip() if marker.is_file() else ""
    return code, reason


def result_of(code: int, reason: str) -> str:
    if code:
        return "FAILED"
    return "skipped" if reason else "passed"


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
    results: list[tuple[str, int, str, float]] = []
    for part in parts:
        print(f"\n======== make {part} ({len(results) + 1}/{len(parts)}) ========", flush=True)
        started = time.monotonic()
        code, reason = run_part(make, part)
        results.append((part, code, reason, time.monotonic() - started))
        said = {"FAILED": f"FAILED (status {code})", "skipped": f"skipped: {reason}"}.get(result_of(code, reason),
                                                                                         "passed")
        print(f"======== make {part}: {said}", flush=True)
    width = max(len(p) for p in parts)
    lines = [f"{'part':<{width}}  result   seconds"]
    for p, c, r, s in results:
        row = f"{p:<{width}}  {result_of(c, r):<7}  {s:7.0f}"
        lines.append(f"{row}  {r}" if result_of(c, r) == "skipped" else row)
    failed = [p for p, c, _, _ in results if c]
    skipped = [p for p, c, r, _ in results if not c and r]
    lines.append(f"{'all':<{width}}  {'FAILED' if failed else 'passed':<7}  {sum(s for *_, s in results):7.0f}")
    table = "\n".join(lines)
    out = Path(".ci/artifacts/test-parts.txt")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table + "\n")
    print("\n" + table)
    if failed:
        print(f"failed: {' '.join(failed)} (each part's output is above its '======== make' line)")
    passed = len(results) - len(failed) - len(skipped)
    print(f"parts: {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
