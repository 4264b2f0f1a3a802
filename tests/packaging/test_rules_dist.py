"""The rules distribution alone (tavla-rules, service/pyproject.toml): its wheel, installed into a
fresh virtual environment outside the source tree, offline (``--no-index --no-deps``: it needs
nothing else), runs docs/library.md's example as written and prints what that page says it
prints, with no gRPC, protobuf, numpy, analysis engine or server importable there.

The wheel is ``TAVLA_RULES_WHEEL`` (``make test-dist``: the abi3 one ``make dist`` built, with the
accelerator, which the library then switches on) or, without it, one built here from a copy of
service/ with ``TAVLA_ACCEL_BUILD=0`` (pure Python: the install without a Rust toolchain; no
network, seconds). An editable install of that copy is checked the same way.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "service"
LIBRARY_DOC = ROOT / "docs" / "library.md"
ABSENT = ("grpc", "google.protobuf", "numpy", "bgsage", "tavla.server", "tavla.referee", "tavla.client")

# Run by the fresh environment's python: what is importable, where tavla.core comes from, and
# whether the compiled generator switches on.
PROBE = r'''
import importlib.util, json, sys
import tavla.core
from tavla.core.rules import movegen
def found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent package is absent
        return False
print(json.dumps({"found": {n: found(n) for n in sys.argv[1:]}, "core": tavla.core.__file__,
                  "accelerator": movegen.use_accelerator()}))
'''


def example() -> tuple[str, str]:
    """docs/library.md's example (the python block of "In ten lines") and the text block after it,
    what it prints."""
    section = LIBRARY_DOC.read_text().split("## In ten lines", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    printed = re.search(r"```text\n(.*?)```", section, re.S)
    assert code and printed, "docs/library.md: no python block and text block under 'In ten lines'"
    return code.group(1), printed.group(1)


def _copy_project(dest: Path) -> Path:
    """What the rules distribution is built from, copied, so build/ and egg-info stay out of the tree."""
    project = dest / "service"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy2(RULES_DIR / name, project / name)
    shutil.copytree(RULES_DIR / "tavla" / "core", project / "tavla" / "core",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(RULES_DIR / "accel", project / "accel", ignore=shutil.ignore_patterns("target"))
    return project


@pytest.fixture(scope="module")
def rules_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("TAVLA_RULES_WHEEL")
    if given:
        return Path(given)
    project = _copy_project(tmp_path_factory.mktemp("rules-build"))
    out = tmp_path_factory.mktemp("rules-wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--no-build-isolation", "--no-index", "--wheel-dir", str(out), str(project)], check=True,
                   env={**os.environ, "TAVLA_ACCEL_BUILD": "0"})
    (wheel,) = out.glob("tavla_rules-*.whl")
    return wheel


def _venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    return where / "bin" / "python"


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "TAVLA_ACCEL")}


def _run(python: Path, *args: str, cwd: Path) -> str:
    done = subprocess.run([str(python), *args], cwd=cwd, env=_clean_env(), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_wheel_holds_the_rules_alone_and_requires_nothing(rules_wheel: Path) -> None:
    names = zipfile.ZipFile(rules_wheel).namelist()
    shipped = {n.split("/")[0] if "/" in n else n for n in names if ".dist-info/" not in n}
    assert shipped <= {"tavla", "tavla_accel.abi3.so"}, shipped
    # tavla/__init__.py is the service's: `tavla` is a namespace shared with it and the client
    assert "tavla/core/__init__.py" in names and "tavla/core/game/machine.py" in names
    assert "tavla/core/py.typed" in names and "tavla/__init__.py" not in names
    assert not [n for n in names if n.startswith("tavla/") and not n.startswith("tavla/core/")]
    meta = zipfile.ZipFile(rules_wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Name: tavla-rules" in meta.splitlines()
    assert [line for line in meta.splitlines() if line.startswith("Requires-Dist:")] == []
    if os.environ.get("TAVLA_RULES_WHEEL"):  # make dist: TAVLA_ACCEL_BUILD=1, one abi3 wheel
        assert "-cp310-abi3-" in rules_wheel.name and "tavla_accel.abi3.so" in names
    else:
        assert rules_wheel.name.endswith("-py3-none-any.whl") and "tavla_accel.abi3.so" not in shipped


def test_the_library_example_runs_from_the_wheel_offline(rules_wheel: Path, tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv")
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", "--no-deps",
         str(rules_wheel), cwd=tmp_path)
    code, printed = example()
    assert _run(python, "-c", code, cwd=tmp_path) == printed
    probe = json.loads(_run(python, "-c", PROBE, *ABSENT, cwd=tmp_path))
    assert probe["found"] == dict.fromkeys(ABSENT, False)
    assert probe["core"].startswith(str(tmp_path / "venv")) and not probe["core"].startswith(str(ROOT))
    holds_accelerator = "tavla_accel.abi3.so" in zipfile.ZipFile(rules_wheel).namelist()
    assert probe["accelerator"] is holds_accelerator


def test_an_editable_install_serves_tavla_core_from_the_source(tmp_path: Path) -> None:
    # the editable wheel pip would make for `pip install -e ./service` (the PEP 660 hook, here, since
    # the fresh environment has no build tools), installed offline
    project = _copy_project(tmp_path)
    out = tmp_path / "editable-wheel"
    hook = ("import sys, setuptools.build_meta as backend; "
            "print(backend.build_editable(sys.argv[1]))")
    subprocess.run([sys.executable, "-c", hook, str(out)], cwd=project, check=True, capture_output=True,
                   env={**os.environ, "TAVLA_ACCEL_BUILD": "0"})
    (wheel,) = out.glob("tavla_rules-*.whl")
    python = _venv(tmp_path / "venv")
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", "--no-deps",
         str(wheel), cwd=tmp_path)
    code, printed = example()
    assert _run(python, "-c", code, cwd=tmp_path) == printed
    probe = json.loads(_run(python, "-c", PROBE, *ABSENT[:3], cwd=tmp_path))
    assert probe["core"] == str(project / "tavla" / "core" / "__init__.py")
    assert probe["found"] == dict.fromkeys(ABSENT[:3], False)
