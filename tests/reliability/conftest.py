"""The reliability suite (docs/reliability.md): fuzzing, soak and faults against real servers.

Short by default (CI); ``TAVLA_RELIABILITY_LONG=1`` runs the long versions. The figures each test
records (inputs fuzzed, minutes soaked, faults injected, errors seen, RSS) are printed at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    if harness.REPORT:
        terminalreporter.section(f"reliability figures ({'long' if harness.LONG else 'short'} mode)")
        for line in harness.REPORT:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
    for server in harness.SERVERS:  # a test that failed before its own cleanup
        server.close()
