"""deploy/apt-install-missing.sh installs only what is missing and never upgrades an installed
package (a fresh `make test` once upgraded the unrelated login and passwd): checked with a fake
apt-get that records its calls and answers the simulation."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "apt-install-missing.sh"
FAKE = """#!/bin/sh
echo "$*" >> "$CALLS"
case "$*" in
  *-s\\ install*) cat "$PLAN" ;;
esac
"""


def run(tmp_path: Path, plan: str, **env: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    fake = tmp_path / "apt-get"
    fake.write_text(FAKE)
    fake.chmod(0o755)
    (tmp_path / "plan").write_text(plan)
    calls = tmp_path / "calls"
    calls.write_text("")
    result = subprocess.run([str(SCRIPT), "buildah", "skopeo"], capture_output=True, text=True, timeout=30,
                            env={**os.environ, "APT_GET": str(fake), "CALLS": str(calls),
                                 "PLAN": str(tmp_path / "plan"), **env})
    return result, calls.read_text().splitlines()


def test_new_packages_are_installed_without_upgrades(tmp_path: Path) -> None:
    result, calls = run(tmp_path, "Inst buildah (1.39.3 Debian:13)\nInst skopeo (1.18 Debian:13)\n")
    assert result.returncode == 0, result.stderr
    assert calls[-1] == "install -y -qq --no-install-recommends --no-upgrade buildah skopeo"
    assert not any("dist-upgrade" in c or c.startswith("upgrade") for c in calls)


def test_an_install_that_would_upgrade_installed_packages_stops(tmp_path: Path) -> None:
    plan = "Inst login [1:4.13+dfsg1-1] (1:4.16.0-2 Debian:13)\nInst passwd [1:4.13] (1:4.16.0-2)\nInst buildah (1.39)\n"
    result, calls = run(tmp_path, plan)
    assert result.returncode == 1
    assert "login passwd" in result.stderr
    assert not any(c.startswith("install -y") for c in calls)
    result, calls = run(tmp_path, plan, ALLOW_APT_UPGRADES="1")
    assert result.returncode == 0 and calls[-1].startswith("install -y")
