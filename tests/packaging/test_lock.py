"""The hashed dependency locks (requirements.lock for the service and its image,
requirements-test.lock for the tests) agree with pyproject.toml: every requirement is pinned to a
version its range allows, with hashes, so a changed range without `make lock` fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")
requirements = pytest.importorskip("packaging.requirements")
canonical = pytest.importorskip("packaging.utils").canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def pins(path: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    text = path.read_text()
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = PIN.match(block)
        if match:
            assert "--hash=sha256:" in block, f"{path.name}: {match.group(1)} has no hash"
            out.setdefault(canonical(match.group(1)), set()).add(match.group(2))
    return out


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


@pytest.mark.parametrize("lock, extras", [("requirements.lock", ("otel",)),
                                          ("requirements-test.lock", ("otel", "test"))])
def test_every_requirement_is_pinned_within_its_range(lock: str, extras: tuple[str, ...]) -> None:
    locked = pins(ROOT / lock)
    wanted = list(project()["dependencies"])
    for extra in extras:
        wanted += project()["optional-dependencies"][extra]
    for line in wanted:
        req = requirements.Requirement(line)
        if canonical(req.name) in ("tavla-engine", "tavla-rules", "tavla-engine-client"):
            continue  # the project itself (tavla-engine[otel]), its rules and its client, installed from the tree
        versions = locked.get(canonical(req.name))
        assert versions, f"{lock}: {req.name} is not locked: run `make lock`"
        for version in versions:
            assert req.specifier.contains(version, prereleases=True), (
                f"{lock}: {req.name}=={version} is outside {req.specifier}: run `make lock`")


def test_the_image_and_the_venvs_install_from_the_locks() -> None:
    containerfile = (ROOT / "Containerfile").read_text()
    assert "--require-hashes --only-binary=:all: --requirement requirements.lock" in containerfile
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements.lock" in makefile
    assert "--require-hashes -r requirements-test.lock" in makefile
    assert "!requirements.lock" in (ROOT / ".dockerignore").read_text()
