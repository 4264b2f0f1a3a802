"""The command line as the README shows it: plain-text help, and `replay` finding and waiting
for the server `make serve` starts (the same PORT, a --wait for one still starting)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tavla.cli import SUBCOMMANDS, build_parser
from tavla.replay.cli import DEFAULT_WAIT, default_target
from tavla.server.process.app import start_in_process
from tavla.server.process.config import Config

MATCH = sorted((Path(__file__).parent.parent / "data" / "matches").glob("*.mat"))[0]


@pytest.mark.parametrize("command", [[], *[[name] for name in ("serve", "replay", "analyze", "show", "convert", "version")]])
def test_help_is_plain_text(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([*command, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "usage: tavla-engine" in text
    assert "``" not in text and ":func:" not in text and ":data:" not in text
    assert len(SUBCOMMANDS) == 6


def test_replay_reads_the_port_serve_reads():
    assert default_target({}) == "localhost:50051"
    assert default_target({"PORT": "6000"}) == "localhost:6000"  # make serve PORT=6000
    assert default_target({"PORT": "6000", "TAVLA_PORT": "6100"}) == "localhost:6100"
    assert DEFAULT_WAIT >= 120  # a first `make serve` compiles for about 80 s before it listens


def test_replay_waits_for_a_server_that_is_still_starting(subprocess_env, tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**subprocess_env, "PORT": str(port)}
    env.pop("TAVLA_PORT", None)
    replay = subprocess.Popen([sys.executable, "-m", "tavla", "replay", "--quiet", str(MATCH)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started: list = []
    before: list[str] = []  # stderr up to the line that says it waits
    try:
        assert replay.stderr is not None
        for line in replay.stderr:  # ends at that line, or at EOF if the replay exits instead
            before.append(line)
            if "waiting up to" in line:
                break
        assert replay.poll() is None, (before, replay.communicate())  # waiting: start its server
        starter = threading.Thread(target=lambda: started.append(
            start_in_process(Config(host="127.0.0.1", port=port))[0]))
        starter.start()
        starter.join(60)
        out, err = replay.communicate(timeout=300)
        err = "".join(before) + err
    finally:
        for server in started:
            server.stop(grace=None)
        if replay.poll() is None:
            replay.kill()
    assert "waiting up to 180 s for a tavla-engine at localhost:%d (--wait)" % port in err
    assert replay.returncode == 0, out + err
    assert "1 agree, 0 disagree" in out


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_refused_with_the_message_the_readme_quotes(workers, subprocess_env):
    import re
    import socket

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    quoted = re.search(r'"(cannot\s+listen\s+on \.\.\.: Address already in use)"', readme)
    assert quoted, "the README quotes the port-conflict message"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
                              "--metrics-port", "0", "--workers", workers], env=subprocess_env,
                             capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in out.stderr + out.stdout


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_metrics_port_in_use_stops_start_up_too(workers, subprocess_env):
    # the README's promise covers every port: a metrics port in use is not a logged warning
    import socket

    with socket.socket() as holder, socket.socket() as free:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        free.bind(("127.0.0.1", 0))
        port, grpc_port = holder.getsockname()[1], free.getsockname()[1]
        free.close()
        out = subprocess.run([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(grpc_port),
                              "--metrics-port", str(port), "--workers", workers], env=subprocess_env,
                             capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr[-2000:]
    assert f"cannot listen on 127.0.0.1:{port} (metrics): Address already in use" in out.stderr + out.stdout
    assert "listening on" not in out.stderr + out.stdout
