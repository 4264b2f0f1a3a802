"""The client distribution alone (tavla-engine-client, clients/python): its wheel, installed into a
fresh virtual environment outside the source tree with nothing but its declared dependencies,
calls a live server, and none of the server's dependencies come with it.

The wheel is ``TAVLA_CLIENT_WHEEL`` (``make test-dist``: the one ``make dist`` built) or, without
it, one built here from clients/python (``pip wheel --no-build-isolation``: pure Python, no
network). Its dependencies come from this test environment, not an index: every distribution the
wheel's ``Requires-Dist`` reaches (markers evaluated, recursively) is copied file by file from its
installed record, so the versions are the locked ones and the test runs offline; ``pip check`` in
the new environment then proves the wheel's declared requirements are met by exactly that set.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIR = ROOT / "clients" / "python"
SERVER_ONLY = ("hypercorn", "structlog", "prometheus_client", "grpc_health", "grpc_reflection")

# Run by the fresh environment's python with the server's address: what is importable, and two calls.
PROBE = r'''
import importlib.util, json, sys
import tavla, tavla.client, tavla.v1.types_pb2
from tavla.client import Client
found = {name: importlib.util.find_spec(name) is not None
         for name in ("hypercorn", "structlog", "prometheus_client", "grpc_health", "grpc_reflection")}
with Client(sys.argv[1]) as engine:
    start = engine.initial_position()
    moves = engine.legal_moves(start, (5, 1))
print(json.dumps({"tavla_path": list(tavla.__path__), "client": tavla.client.__file__,
                  "stubs": tavla.v1.types_pb2.__file__, "found": found,
                  "server_parts": [n for n in ("tavla.core", "tavla.server", "tavla.cli")
                                   if importlib.util.find_spec(n) is not None],
                  "start": start.ids.position_id, "on_roll": start.on_roll,
                  "moves": sorted(m.notation for m in moves)}))
'''


@pytest.fixture(scope="module")
def client_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("TAVLA_CLIENT_WHEEL")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("client-wheel")
    build = tmp_path_factory.mktemp("client-build")
    # a copy of the project, so the build's build/ and egg-info stay out of the tree
    shutil.copytree(CLIENT_DIR, build / "python", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(out), str(build / "python")], check=True)
    (wheel,) = out.glob("tavla_engine_client-*.whl")
    return wheel


def _requires(text: str) -> list[Requirement]:
    """The ``Requires-Dist`` of a METADATA text whose markers hold here (no extras asked for)."""
    reqs = [Requirement(v) for k, v in (line.split(": ", 1) for line in text.splitlines() if ": " in line)
            if k == "Requires-Dist"]
    return [r for r in reqs if r.marker is None or r.marker.evaluate({"extra": ""})]


def _closure(roots: list[Requirement]) -> list[metadata.Distribution]:
    """The installed distributions ``roots`` reach, each once."""
    seen: dict[str, metadata.Distribution] = {}
    todo = list(roots)
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        dist = metadata.distribution(req.name)
        assert req.specifier.contains(dist.version, prereleases=True), (req, dist.version)
        seen[name] = dist
        todo += _requires(dist.read_text("METADATA") or "")
    return list(seen.values())


def _copy_installed(dist: metadata.Distribution, site: Path) -> None:
    """Copy one installed distribution's files (its RECORD) into ``site``, as pip put them here."""
    for item in dist.files or ():
        if item.parts[0] == ".." or "__pycache__" in item.parts:
            continue  # console scripts outside site-packages; bytecode is rebuilt
        target = site / item
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(dist.locate_file(item), target)


def test_the_wheel_holds_the_client_and_the_stubs_only(client_wheel: Path) -> None:
    names = zipfile.ZipFile(client_wheel).namelist()
    assert client_wheel.name.endswith("-py3-none-any.whl")
    ours = sorted(n for n in names if ".dist-info/" not in n)
    assert {n.split("/")[1] for n in ours} == {"client", "v1"}, ours
    assert "tavla/__init__.py" not in names  # the namespace belongs to no one distribution
    assert {"tavla/client/__init__.py", "tavla/client/py.typed", "tavla/v1/py.typed", "tavla/v1/types_pb2.py",
            "tavla/v1/types_pb2.pyi", "tavla/v1/rules_service_pb2_grpc.py"} <= set(names)
    meta = zipfile.ZipFile(client_wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Name: tavla-engine-client" in meta and "Version: 1.0.0" in meta
    assert sorted(canonicalize_name(r.name) for r in _requires(meta)) == ["googleapis-common-protos", "grpcio",
                                                                          "protobuf"]


def test_the_client_alone_calls_a_live_server(client_wheel: Path, server_address: str, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    assert site.is_dir() and sysconfig.get_path("purelib") != str(site)
    meta = zipfile.ZipFile(client_wheel).read(
        next(n for n in zipfile.ZipFile(client_wheel).namelist() if n.endswith(".dist-info/METADATA"))).decode()
    deps = _closure(_requires(meta))
    assert not {canonicalize_name(d.metadata["Name"]) for d in deps} & {"hypercorn", "structlog", "prometheus-client"}
    for dist in deps:
        _copy_installed(dist, site)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run([*pip, "install", "--quiet", "--no-index", "--no-deps", str(client_wheel)], check=True,
                   cwd=tmp_path, env=env)
    check = subprocess.run([*pip, "check"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr

    probe = subprocess.run([str(python), "-c", PROBE, server_address], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr
    answer = json.loads(probe.stdout)
    assert answer["tavla_path"] == [str(site / "tavla")]  # the wheel's, not this checkout's
    assert answer["client"].startswith(str(site)) and answer["stubs"].startswith(str(site))
    assert answer["found"] == {name: False for name in SERVER_ONLY}, answer["found"]
    assert answer["server_parts"] == []
    # R2: the starting position, white on roll; 5-1 from it: 8 distinct plays (R4-R7)
    assert answer["start"] == "4HPwATDgc/ABMA" and answer["on_roll"] == 1
    assert len(answer["moves"]) == 8 and "24/23 13/8" in answer["moves"], answer["moves"]
