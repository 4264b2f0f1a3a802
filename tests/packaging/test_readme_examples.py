"""The README's examples, run as written against a server this test starts (issue 24).

Read from README.md itself, so they follow it: every command of a ```sh block that starts with
``grpcurl``, ``curl``, ``tavla-engine`` or ``.venv/bin/tavla-engine`` (``make``, ``helm`` and
``serve`` lines are the reader's to run), shell assignments before them (``SEED=...``), and the
``$ command`` transcripts of ```text blocks. ``localhost:50051`` and ``localhost:8080`` become this
server's ports; ``tavla-engine`` is this checkout's; PORT is set as ``make serve`` would.

Checks: every command exits 0, except one whose printed answer in the README is an ``ERROR`` (then
grpcurl's error must carry the code shown); a ``# {...}`` answer's first keys appear in the
answer (JSON names compared without case and underscores: grpcurl prints lowerCamelCase); a
transcript's output is the one shown, ``...`` standing for anything. A placeholder in a request,
``{...}`` or a string ending in ``...``, is filled with the field of that name from the latest
earlier answer (the state of NewMatch for Act, the token of CommitDice for RollDice).

Needs grpcurl (GRPCURL, or on PATH; `make test-readme` installs the pinned one) and curl.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GRPCURL = os.environ.get("GRPCURL") or shutil.which("grpcurl")
RUNNABLE = re.compile(r"^(grpcurl|curl|tavla-engine|\.venv/bin/tavla-engine)\s")
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")
STARTUP_SECONDS = 60  # a wait bound for the server to listen, not a speed target

pytestmark = pytest.mark.skipif(not GRPCURL or not shutil.which("curl"),
                                reason="grpcurl or curl missing: `make test-readme` installs grpcurl")


@dataclass
class Example:
    """One command of the README: where, the shell text, and what the README shows after it."""

    line: int
    command: str
    shown: str  # a transcript's output, or the '# ...' comment lines after a command
    transcript: bool


def _complete(text: str) -> bool:
    """Whether shell text is a whole command: quotes closed, no trailing backslash."""
    if text.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(text, comments=False)
    except ValueError:
        return False
    return True


def examples(readme: str) -> list[Example]:
    """The runnable examples of ``readme`` in order, with the shell assignments among them."""
    out: list[Example] = []
    lines = readme.splitlines()
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence not in ("```sh", "```text"):
            i += 1
            continue
        transcript = fence == "```text"
        i += 1
        block: list[tuple[int, str]] = []
        while i < len(lines) and lines[i].strip() != "```":
            block.append((i + 1, lines[i]))
            i += 1
        j = 0
        while j < len(block):
            number, text = block[j]
            if transcript and not text.startswith("$ "):
                j += 1
                continue
            text = text[2:] if transcript else text
            if not (RUNNABLE.match(text) or ASSIGNMENT.match(text)):
                j += 1
                continue
            command = text
            while not _complete(command) and j + 1 < len(block):
                j += 1
                command += "\n" + block[j][1]
            j += 1
            shown: list[str] = []
            while j < len(block):
                following = block[j][1]
                if transcript and following.startswith("$ ") or not transcript and not following.startswith("#"):
                    break
                shown.append(following)
                j += 1
            if "serve" in shlex.split(command.replace("\\\n", " "))[:3]:
                continue  # a server of the reader's own
            out.append(Example(number, command, "\n".join(shown), transcript))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _normal(name: str) -> str:
    return name.replace("_", "").lower()


def _find(answers: list[object], key: str) -> object | None:
    """The value of ``key`` (any JSON naming) in the latest answer that has it."""
    def walk(node: object) -> object | None:
        if isinstance(node, dict):
            for k, v in node.items():
                if _normal(k) == _normal(key):
                    return v
            for v in node.values():
                found = walk(v)
                if found is not None:
                    return found
        elif isinstance(node, list):
            for v in node:
                found = walk(v)
                if found is not None:
                    return found
        return None

    for answer in reversed(answers):
        found = walk(answer)
        if found is not None:
            return found
    return None


def fill(command: str, answers: list[object]) -> str:
    """``command`` with its request's placeholders filled from earlier answers."""
    if "{...}" not in command and not re.search(r'\.\.\."', command):
        return command
    words = shlex.split(command.replace("\\\n", " "))
    data = words.index("-d") + 1
    hole = "\u0000placeholder"
    request = json.loads(words[data].replace("{...}", json.dumps(hole)))

    def walk(node: object) -> object:
        if isinstance(node, dict):
            filled = {}
            for k, v in node.items():
                if v == hole or (isinstance(v, str) and v.endswith("...")):
                    value = _find(answers, k)
                    assert value is not None, f"no earlier answer has {k!r} for {command!r}"
                    filled[k] = value
                else:
                    filled[k] = walk(v)
            return filled
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    words[data] = json.dumps(walk(request))
    return shlex.join(words)


def _top_keys(comment: str) -> list[str]:
    """The keys of the outermost object of a ``# {...}`` answer line (deeper ones may differ by
    mode, as the README says next to them)."""
    keys, depth = [], 0
    for match in re.finditer(r'[{}\[\]]|"(\w+)":', comment):
        token = match.group(0)
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif depth == 1:
            keys.append(match.group(1))
    return keys


def _matches(shown: str, actual: str) -> bool:
    """Whether ``actual`` is ``shown`` with whitespace ignored and ``...`` standing for anything."""
    pattern = ".*?".join(re.escape(re.sub(r"\s+", "", part)) for part in shown.split("..."))
    return re.fullmatch(pattern, re.sub(r"\s+", "", actual), flags=re.DOTALL) is not None


@pytest.fixture(scope="module")
def server(tmp_path_factory, subprocess_env):
    grpc_port, http_port = _free_port(), _free_port()
    log = tmp_path_factory.mktemp("readme") / "serve.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(grpc_port),
                                 "--http-port", str(http_port), "--metrics-port", "0", "--workers", "1"],
                                env=subprocess_env, stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + STARTUP_SECONDS
    while "listening on" not in log.read_text() and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.2)
    assert "listening on" in log.read_text(), log.read_text()
    yield grpc_port, http_port
    proc.terminate()
    proc.wait(60)


def test_the_readme_has_examples_of_each_kind():
    found = examples(README.read_text())
    kinds = {e.command.split()[0] for e in found}
    assert {"grpcurl", "curl"} <= kinds and any("tavla-engine" in k for k in kinds), kinds
    assert len([e for e in found if e.command.startswith("grpcurl")]) >= 10


def test_every_readme_example_runs_as_written(server, subprocess_env, tmp_path):
    grpc_port, http_port = server
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "tavla-engine"  # this checkout's CLI, wherever the README says it is
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tavla \"$@\"\n")
    shim.chmod(0o755)
    (bin_dir / "grpcurl").symlink_to(GRPCURL)
    env = {**subprocess_env, "PATH": f"{bin_dir}{os.pathsep}{subprocess_env['PATH']}", "PORT": str(grpc_port)}
    env.pop("TAVLA_PORT", None)
    assignments: list[str] = []
    answers: list[object] = []
    failures: list[str] = []
    for example in examples(README.read_text()):
        if ASSIGNMENT.match(example.command):
            assignments.append(example.command)
            continue
        command = fill(example.command, answers)
        command = command.replace("localhost:50051", f"127.0.0.1:{grpc_port}")
        command = command.replace("localhost:8080", f"127.0.0.1:{http_port}")
        command = re.sub(r"(^|\s)\.venv/bin/tavla-engine", r"\1tavla-engine", command)
        run = subprocess.run(["bash", "-c", "\n".join([*assignments, command])], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
        output = run.stdout + run.stderr
        where = f"README.md:{example.line}: {example.command.splitlines()[0][:90]}"
        if run.stdout.strip().startswith("{"):
            try:
                answers.append(json.loads(run.stdout))
            except json.JSONDecodeError:
                pass
        shown = example.shown
        error_shown = re.search(r"ERROR:?\s*(?:Code:\s*)?(\w+)", shown)
        if error_shown:
            if run.returncode == 0 or error_shown.group(1) not in output:
                failures.append(f"{where}: the README shows {error_shown.group(0)!r}, got: {output[:300]}")
            if not example.transcript:
                continue
        elif run.returncode != 0:
            failures.append(f"{where}: exit {run.returncode}: {output[:300]}")
            continue
        if example.transcript:
            if not _matches(shown, output):
                failures.append(f"{where}: the output is not the one shown:\n{output[:1500]}")
        elif shown.startswith("# {"):
            keys = _top_keys(shown.splitlines()[0])
            missing = [k for k in keys if f'"{_normal(k)}"' not in _normal(output)]
            if missing:
                failures.append(f"{where}: the answer lacks {missing} that the README shows: {output[:300]}")
    assert failures == [], "\n\n".join(failures)
