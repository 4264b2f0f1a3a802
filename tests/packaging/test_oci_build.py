"""deploy/oci_build.py, the Containerfile interpreter `make test-image` builds the image with:
its reading of Containerfile syntax and .dockerignore matches Docker's, and the project's
Containerfile uses only what it carries out (else the CI image would differ from docker build's).
The build itself runs in `make test-image` (root, chroot)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy"))

import oci_build  # noqa: E402


def test_continuations_and_comments_are_read_as_docker_reads_them():
    text = "ARG B=x\nFROM ${B} AS build\n# a comment\nRUN a \\\n    # inside\n && b\nENV K=v \\\n    L=\"w x\"\n"
    got = [(i.keyword, i.args, i.line) for i in oci_build.parse(text)]
    assert got == [("ARG", "B=x", 1), ("FROM", "${B} AS build", 2), ("RUN", "a && b", 4),
                   ("ENV", 'K=v L="w x"', 7)]


def test_variables_expand_and_pairs_keep_quoted_spaces():
    assert oci_build.expand("/opt/tavla/bin:$PATH ${X}-$Y", {"PATH": "/usr/bin", "X": "1"}) == "/opt/tavla/bin:/usr/bin 1-"
    assert oci_build.pairs('a="b c" d=$E', {"E": "e"}) == [("a", "b c"), ("d", "e")]
    assert oci_build.pairs("OLD form value", {}) == [("OLD", "form value")]


def test_dockerignore_whitelist_of_the_project(tmp_path):
    ignore = oci_build.Ignore(ROOT)
    kept = ["pyproject.toml", "MANIFEST.in", "build-requirements.txt", "requirements.lock",
            "README.md", "service", "service/pyproject.toml", "service/setup.py", "service/accel/Cargo.toml",
            "service/tavla/cli.py", "service/tavla/core/py.typed",
            "clients/python/pyproject.toml", "clients/python/README.md", "clients/python/src/tavla/client/__init__.py",
            "clients/python/src/tavla/v1/types_pb2.py"]
    dropped = ["tests", "tests/conftest.py", ".venv", "service/accel/target/release/x",
               "service/tavla/__pycache__/cli.cpython-311.pyc", "service/tavla_engine.egg-info/PKG-INFO",
               "service/build/lib/tavla/core/errors.py", "service/tavla_rules.egg-info/PKG-INFO",
               "service/tavla_accel.cpython-311-x86_64-linux-gnu.so", ".git", "clients/go/go.mod", "clients/typescript",
               "clients/python/build/lib/tavla/client/__init__.py", "clients/python/src/tavla_engine_client.egg-info/PKG-INFO",
               "clients/python/src/tavla/v1/__pycache__/types_pb2.cpython-311.pyc"]
    assert [p for p in kept if ignore.ignored(p)] == []
    assert [p for p in dropped if not ignore.ignored(p)] == []


def test_the_containerfile_uses_only_what_oci_build_carries_out():
    instructions = oci_build.parse((ROOT / "Containerfile").read_text())
    assert {i.keyword for i in instructions} <= oci_build.SUPPORTED
    froms = [i.args.split()[0] for i in instructions if i.keyword == "FROM"]
    assert froms and set(froms) == {"${PYTHON_BASE}"}
    for i in instructions:
        if i.keyword in ("ENTRYPOINT", "CMD"):
            oci_build.json_form(i.args, i)  # the exec form
        if i.keyword == "RUN":
            mounts = [w for w in i.args.split() if w.startswith("--mount=")]
            assert all("type=secret" in m or "type=cache" in m for m in mounts), mounts
    assert (ROOT / "Dockerfile").resolve() == (ROOT / "Containerfile").resolve()


def test_a_shell_form_entrypoint_is_refused():
    with pytest.raises(SystemExit, match="JSON array"):
        oci_build.json_form("tavla-engine serve", oci_build.Instruction("ENTRYPOINT", "tavla-engine serve", 9))
