"""Code, tests, data and docs speak of the project, not of the tracker it was built from: no
tracked file but CHANGELOG.md (which is history) cites an issue by its number, since a reader of
the repository cannot open it. Say what the citation meant instead (the finding, the measured
figure, the rule) in a few words.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# "issue" or "issues" (not the end of a longer word), then a number, with up to two of space,
# "#", "-" or "_" between: in prose, in a test's name or id
CITATION = re.compile(r"(?<![a-z])issues?[ #_-]{0,2}[0-9]+", re.IGNORECASE)
ALLOWED = {"CHANGELOG.md"}


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60,
                         check=True).stdout
    return [name for name in out.decode().split("\0") if name]


def test_the_pattern_finds_citations() -> None:
    number = "22"
    for text in (f"(issue {number}, item 8)", f"issues {number[0]} and 12", f"issue-{number}",
                 f"Issue #{number}", f"def test_bugs_of_issue_{number}"):
        assert CITATION.search(text), text
    for text in ("GitHub issue templates", "the issue's vector", f"tissue {number[0]}-ply", f"R{number}"):
        assert not CITATION.search(text), text


def test_no_tracked_file_cites_an_issue_number() -> None:
    found = []
    for name in tracked_files():
        if name in ALLOWED or "node_modules/" in name:
            continue
        path = ROOT / name
        if not path.is_file():  # deleted in the work tree, not yet committed
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # images, binary descriptor sets
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if CITATION.search(line):
                found.append(f"{name}:{number}: {line.strip()[:120]}")
    assert not found, "issue numbers cited (say what they meant instead):\n" + "\n".join(found)
