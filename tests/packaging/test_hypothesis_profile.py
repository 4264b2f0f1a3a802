"""The suite's Hypothesis profile (tests/conftest.py): no deadline anywhere, derandomized in CI,
the reproduction blob printed on failure; and no test sets a deadline of its own."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_loaded_profile_has_no_deadline_and_prints_the_blob():
    profile = settings.default
    assert profile.deadline is None
    assert profile.print_blob is True
    assert profile.derandomize is bool(os.environ.get("CI"))


def test_no_test_sets_a_deadline_or_asserts_elapsed_time():
    # a per-test `deadline=` would override the profile; `assert elapsed < ...`, `sampler.worst < ...`
    # or `< LIMIT + SLACK` is a timing assertion (speed targets live in bench/)
    offenders = []
    for path in [*ROOT.glob("tests/**/*.py"), *ROOT.glob("clients/web/test/**/*.py")]:
        if path.name in (Path(__file__).name, "conftest.py"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bdeadline\s*=\s*(None|\d|timedelta)", line) or re.search(
                    r"assert\b.*\b(elapsed|took|seconds|slowest|p99|latency|idle|sampler\.worst|monotonic\(\) - \w+)\s*<",
                    line) or re.search(r"assert\b.*<[^#]*\b(SLACK|HEALTH_BOUND)\b", line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
