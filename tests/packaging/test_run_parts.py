"""deploy/run_parts.py, what `make test` runs: every part whatever the others gave, a table of
which passed (or said they checked nothing: skipped), and a failure when any failed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "run_parts.py"


def test_a_failing_part_does_not_hide_the_others(tmp_path):
    (tmp_path / "Makefile").write_text("good:\n\t@echo good ran\nbad:\n\t@echo bad ran; exit 3\nlast:\n\t@echo last ran\n")
    env = {k: v for k, v in os.environ.items() if k != "PARTS"}  # a `PARTS=... make test` running this
    out = subprocess.run([sys.executable, str(SCRIPT), "make", "good", "bad", "last"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 1
    assert "good ran" in out.stdout and "bad ran" in out.stdout and "last ran" in out.stdout
    rows = {line.split()[0]: line.split()[1] for line in out.stdout.splitlines()
            if line.split()[:1] and line.split()[0] in ("good", "bad", "last", "all") and len(line.split()) == 3}
    assert rows == {"good": "passed", "bad": "FAILED", "last": "passed", "all": "FAILED"}
    assert out.stdout.rstrip().endswith("parts: 2 passed, 1 failed, 0 skipped")
    assert (tmp_path / ".ci" / "artifacts" / "test-parts.txt").read_text().startswith("part")


def test_all_passing_exits_0_and_parts_picks_some(tmp_path):
    (tmp_path / "Makefile").write_text("a:\n\t@true\nb:\n\t@exit 1\n")
    out = subprocess.run([sys.executable, str(SCRIPT), "make", "a", "b"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "PARTS": "a"})
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.rstrip().endswith("parts: 1 passed, 0 failed, 0 skipped")


def test_a_part_that_checked_nothing_is_skipped_not_passed(tmp_path):
    # the way deploy/osv_audit.py says it: run_parts.report_skipped writes the reason to the file
    # RUN_PARTS_SKIPPED names; exit status 0, so `make test` does not fail
    say = f"{sys.executable} -c 'import sys; sys.path.insert(0, \"{SCRIPT.parent}\"); " \
          "import run_parts; run_parts.report_skipped(\"no advisories (make audit-refresh)\")'"
    (tmp_path / "Makefile").write_text(f"audit:\n\t@{say}\nok:\n\t@true\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PARTS", "RUN_PARTS_SKIPPED")}
    out = subprocess.run([sys.executable, str(SCRIPT), "make", "audit", "ok"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    table = (tmp_path / ".ci" / "artifacts" / "test-parts.txt").read_text().splitlines()
    audit = next(line for line in table if line.startswith("audit "))
    assert audit.split()[1] == "skipped" and audit.endswith("no advisories (make audit-refresh)")
    assert next(line for line in table if line.startswith("ok ")).split()[1] == "passed"
    assert "======== make audit: skipped: no advisories (make audit-refresh)" in out.stdout
    assert out.stdout.rstrip().endswith("parts: 1 passed, 0 failed, 1 skipped")


def test_a_failing_part_is_failed_even_if_it_said_skipped(tmp_path):
    say = f"{sys.executable} -c 'import sys; sys.path.insert(0, \"{SCRIPT.parent}\"); " \
          "import run_parts; run_parts.report_skipped(\"nothing\")'"
    (tmp_path / "Makefile").write_text(f"bad:\n\t@{say}; exit 1\n")
    out = subprocess.run([sys.executable, str(SCRIPT), "make", "bad"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env={"PATH": os.environ["PATH"]})
    assert out.returncode == 1
    assert out.stdout.rstrip().endswith("parts: 0 passed, 1 failed, 0 skipped")
