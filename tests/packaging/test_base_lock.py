"""The Debian package lock of the CI image base (deploy/base-packages.lock, deploy/base_lock.py):
well-formed, used by deploy/build-image.sh to install exact versions, and a base that differs
from it in any package or version is refused (by name), not used."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "deploy/base-packages.lock"
SCRIPT = ROOT / "deploy/base_lock.py"
sys.path.insert(0, str(ROOT / "deploy"))
import base_lock  # noqa: E402


def _tarball(path: Path, packages: dict[str, tuple[str, str]], extra: str = "") -> Path:
    status = "\n\n".join(f"Package: {name}\nStatus: install ok installed\nArchitecture: {arch}\n"
                         f"Version: {version}\nDescription: x\n more text: not a field"
                         for name, (version, arch) in packages.items()) + extra + "\n"
    data = status.encode()
    with tarfile.open(path, "w") as archive:
        info = tarfile.TarInfo("./var/lib/dpkg/status")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return path


def _check(tarball: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "check", str(LOCK), str(tarball)],
                          capture_output=True, text=True, timeout=60)


def test_the_lock_pins_the_base_packages_exactly():
    locked = base_lock.read_lock(str(LOCK))
    for name in ("python3", "python3-venv", "python3.13", "libc6", "libssl3t64", "ca-certificates", "apt"):
        assert name in locked, name
    assert locked["python3.13"][0].startswith("3.13.")
    lines = [line for line in LOCK.read_text().splitlines() if not line.startswith("#")]
    assert lines == sorted(lines)
    for line in lines:
        assert re.fullmatch(r"[a-z0-9][a-z0-9+.-]+ [0-9][A-Za-z0-9.+~:-]* (amd64|all)", line), line


def test_the_include_list_names_every_locked_version():
    out = subprocess.run([sys.executable, str(SCRIPT), "includes", str(LOCK)], capture_output=True,
                         text=True, check=True, timeout=60).stdout.strip()
    pins = dict(item.split("=", 1) for item in out.split(","))
    assert pins == {name: version for name, (version, _) in base_lock.read_lock(str(LOCK)).items()}


def test_a_base_as_locked_passes_and_one_that_moved_on_is_refused(tmp_path):
    locked = base_lock.read_lock(str(LOCK))
    same = _tarball(tmp_path / "same.tar", locked,
                    "\n\nPackage: removed-one\nStatus: deinstall ok config-files\nVersion: 1\n")
    assert _check(same).returncode == 0
    moved = dict(locked)
    moved["libssl3t64"] = ("9.9.9-1", "amd64")
    moved["new-dependency"] = ("1.0", "amd64")
    del moved["python3-venv"]
    result = _check(_tarball(tmp_path / "moved.tar", moved))
    assert result.returncode == 1
    for text in ("~ libssl3t64: locked", "installed 9.9.9-1", "+ new-dependency 1.0", "- python3-venv"):
        assert text in result.stderr
    assert "make base-lock" in result.stderr


def test_build_image_installs_and_checks_the_lock():
    script = (ROOT / "deploy/build-image.sh").read_text()
    assert "BASE_LOCK=${BASE_LOCK:-deploy/base-packages.lock}" in script
    assert 'includes=$(python3 deploy/base_lock.py includes "$BASE_LOCK")' in script
    assert '--include="$includes"' in script  # part of MM_ARGS, so of the base cache key too
    assert 'python3 deploy/base_lock.py check "$BASE_LOCK" "$base_tar"' in script
    assert "base-lock:" in (ROOT / "mk/image.mk").read_text()


def test_the_cached_base_matches_the_lock():
    bases = sorted((ROOT / ".cache/image").glob("base-*.tar"))
    if not bases:
        pytest.skip("no base built here yet (make test-image)")
    assert _check(bases[-1]).returncode == 0
