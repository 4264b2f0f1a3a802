"""End to end, as the README runs it: ``tavla-engine serve`` in a subprocess, then
``tavla-engine replay`` of all 79 real match records (tests/data/matches) against it."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

MATCHES = sorted(glob.glob(str(Path(__file__).parent.parent / "data" / "matches" / "*.mat")))


def _command() -> list[str]:
    """The installed console script, else the module (a checkout on PYTHONPATH)."""
    script = shutil.which("tavla-engine", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "tavla"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(subprocess_env):
    port = _free_port()
    proc = subprocess.Popen([*_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--metrics-port", "0"],
                            env=subprocess_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    target = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(target) as ch:
            grpc.channel_ready_future(ch).result(timeout=60)
            status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""))
            assert status.status == health_pb2.HealthCheckResponse.SERVING
        yield target
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, proc.stderr.read()


def test_replay_of_all_records_against_a_live_server(served, subprocess_env):
    assert len(MATCHES) == 79
    out = subprocess.run([*_command(), "replay", "--target", served, "--quiet", *MATCHES],
                         env=subprocess_env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "replayed 79 file(s), 25591 plays: 79 agree, 0 disagree, 0 unreadable" in out.stdout


def test_replay_reports_a_bad_record_and_fails(served, subprocess_env, tmp_path):
    bad = tmp_path / "bad.mat"
    text = Path(MATCHES[0]).read_text(encoding="utf-8")
    bad.write_text(text.replace("Wins 4 point", "Wins 3 point", 1), encoding="utf-8")
    out = subprocess.run([*_command(), "replay", "--target", served, str(bad)],
                         env=subprocess_env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1
    assert f"{bad}:43: player 1 wins 3, the engine scores player 1 1 x cube 4 = 4" in out.stdout


def test_replay_says_which_line_it_cannot_read(served, subprocess_env, tmp_path):
    bad = tmp_path / "garbled.mat"
    bad.write_text(" 7 point match\n Game 1\n PlayerA : 0   PlayerB : 0\n  1) 72: 24/23\n",
                   encoding="utf-8")
    out = subprocess.run([*_command(), "replay", "--target", served, str(bad)],
                         env=subprocess_env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2
    assert "garbled.mat:4:" in out.stderr


def test_replay_without_a_server_fails_clearly(subprocess_env):
    out = subprocess.run([*_command(), "replay", "--target", f"127.0.0.1:{_free_port()}",
                          "--connect-timeout", "1", MATCHES[0]],
                         env=subprocess_env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "cannot reach a tavla-engine" in out.stderr


QUIRKS = sorted(glob.glob(str(Path(__file__).parent.parent / "data" / "matches" / "quirks" / "*.mat")))


def test_replay_of_the_quirk_files_notes_what_is_odd(served, subprocess_env):
    # the quirks: unfinished, a Jacoby money session, a resignation run into a line, an empty name
    out = subprocess.run([*_command(), "replay", "--target", served, *QUIRKS],
                         env=subprocess_env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "replayed 4 file(s), 267 plays: 4 agree, 0 disagree, 0 unreadable" in out.stdout
    assert "notes: 1 unfinished, 1 checked as money session(s)" in out.stdout
    assert "  note: rules assumed: money session, Jacoby on, cube limit 1024" in out.stdout
    assert "  note: unfinished: the record ends after game 1 at 2-0; the match is to 8 points" in out.stdout
    assert "  note: player 2 has no name" in out.stdout


def test_replay_of_sgf_and_per_call(served, subprocess_env, tmp_path):
    from tavla.formats.sgfwriter import write_sgf
    from tavla.formats.matreader import read_match

    sgf = tmp_path / "match0000.sgf"
    sgf.write_text(write_sgf(read_match(MATCHES[0])), encoding="utf-8")
    out = subprocess.run([*_command(), "replay", "--target", served, "--quiet", str(sgf)],
                         env=subprocess_env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "replayed 1 file(s), 141 plays: 1 agree" in out.stdout, out.stdout + out.stderr
    out = subprocess.run([*_command(), "replay", "--target", served, "--per-call", "--rules", "match", QUIRKS[-1]],
                         env=subprocess_env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and "player 2 wins 1, the engine scores player 2 2 x cube 1 = 2" in out.stdout


def test_more_jobs_than_the_server_has_streams(served, subprocess_env):
    # the server caps open streams per worker (4); --jobs 12 waits for a free one, not an error
    out = subprocess.run([*_command(), "replay", "--target", served, "--quiet", "--jobs", "12", *MATCHES[:24]],
                         env=subprocess_env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "replayed 24 file(s)" in out.stdout and "0 disagree, 0 unreadable" in out.stdout
