"""The examples of the README and of the reference pages it leads to, run exactly as written
against a server this test starts.

Read from the pages themselves (PAGES), so they follow them: every command of a ```sh block that
starts with ``grpcurl``, ``curl`` or ``.venv/bin/tavla-engine`` (``make``, ``helm`` and ``serve``
lines are the reader's to run), the shell assignments among them (``SEED=...``,
``STATE=$(grpcurl ... | jq -c .state)``: a later call takes what an earlier one answered, as a
reader's shell does), and the ``$ command`` transcripts of ```text blocks. Nothing in a command is
filled in: the only change is that ``localhost:50051`` and ``localhost:8080`` become this server's
ports. The commands run in a directory whose ``.venv/bin/tavla-engine`` is this checkout's CLI
and whose ``tests`` is this checkout's; a bare ``tavla-engine`` (not on PATH in a plain shell) is
a failure. PORT is set as ``make serve`` would.

Checks: every command and assignment exits 0 (bash with ``-e -o pipefail``), except a command
whose printed answer on the page is an ``ERROR`` (then grpcurl's error must carry the code shown);
a ``# {...}`` answer's first keys appear in the answer (JSON names compared without case and
underscores: grpcurl prints lowerCamelCase); a transcript's output is the one shown, ``...``
standing for anything. Each page keeps at least its count of examples (MINIMUM), so an example
that stops being recognised fails too.

Needs grpcurl (GRPCURL, or on PATH; `make test-readme` installs the pinned one), curl and jq.
"""

from __future__ import annotations

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
# The pages whose examples run, with the fewest examples each must keep.
MINIMUM = {"README.md": 8, "docs/api.md": 4, "docs/match-play.md": 20}
PAGES = [ROOT / name for name in MINIMUM]
GRPCURL = os.environ.get("GRPCURL") or shutil.which("grpcurl")
RUNNABLE = re.compile(r"^(grpcurl|curl|tavla-engine|\.venv/bin/tavla-engine)\s")
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")
STARTUP_SECONDS = 60  # a wait bound for the server to listen, not a speed target

_MISSING = not GRPCURL or not shutil.which("curl") or not shutil.which("jq")
needs_tools = pytest.mark.skipif(_MISSING and not os.environ.get("README_TOOLS_REQUIRED"),
                                 reason="grpcurl, curl or jq missing: `make test-readme` installs them")


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


def test_the_pages_have_their_examples():
    counts = {}
    for page in PAGES:
        found = examples(page.read_text())
        name = str(page.relative_to(ROOT))
        counts[name] = len(found)
        assert len(found) >= MINIMUM[name], f"{name}: {len(found)} examples, fewer than {MINIMUM[name]}"
    readme = examples(README.read_text())
    kinds = {e.command.split()[0] for e in readme}
    assert {"grpcurl", "curl", ".venv/bin/tavla-engine"} <= kinds, kinds
    grpcurl_calls = [e for page in PAGES for e in examples(page.read_text()) if "grpcurl" in e.command]
    assert len(grpcurl_calls) >= 25, counts


def test_placeholders_are_gone():
    """A request is sent as written: no ``{...}`` or ``"...`` left for the reader (or a test) to fill."""
    for page in PAGES:
        for example in examples(page.read_text()):
            assert "{...}" not in example.command and not re.search(r'\.\.\."', example.command), \
                f"{page.name}:{example.line}: {example.command[:90]}"


@pytest.fixture()
def workdir(tmp_path):
    """A directory like a clone after `make serve`: ``.venv/bin/tavla-engine`` is this checkout's
    CLI, ``tests`` this checkout's tests (the records the examples read)."""
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    shim = bin_dir / "tavla-engine"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tavla \"$@\"\n")
    shim.chmod(0o755)
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "grpcurl").symlink_to(GRPCURL)
    return tmp_path


def _run(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@needs_tools
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_runs_as_written(page, server, subprocess_env, workdir):
    grpc_port, http_port = server
    env = {**subprocess_env, "PATH": f"{workdir / 'tools'}{os.pathsep}{subprocess_env['PATH']}",
           "PORT": str(grpc_port)}
    env.pop("TAVLA_PORT", None)
    name = str(page.relative_to(ROOT))

    def local(command: str) -> str:
        command = command.replace("localhost:50051", f"127.0.0.1:{grpc_port}")
        return command.replace("localhost:8080", f"127.0.0.1:{http_port}")

    assignments: list[str] = []
    failures: list[str] = []
    for example in examples(page.read_text()):
        where = f"{name}:{example.line}: {example.command.splitlines()[0][:90]}"
        if re.match(r"tavla-engine\s", example.command):
            failures.append(f"{where}: tavla-engine is not on PATH in a plain shell: write .venv/bin/tavla-engine")
            continue
        if ASSIGNMENT.match(example.command):
            assignments.append(local(example.command))
            run = _run("\n".join(assignments), workdir, env)
            if run.returncode != 0:
                failures.append(f"{where}: exit {run.returncode}: {(run.stdout + run.stderr)[:300]}")
            continue
        run = _run("\n".join([*assignments, local(example.command)]), workdir, env)
        output = run.stdout + run.stderr
        shown = example.shown
        error_shown = re.search(r"ERROR:?\s*(?:Code:\s*)?(\w+)", shown)
        if error_shown:
            if run.returncode == 0 or error_shown.group(1) not in output:
                failures.append(f"{where}: the page shows {error_shown.group(0)!r}, got: {output[:300]}")
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
                failures.append(f"{where}: the answer lacks {missing} that the page shows: {output[:300]}")
    assert failures == [], "\n\n".join(failures)
