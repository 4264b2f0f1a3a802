"""Every server the tests, benchmarks and client tests start leaves the fixed metrics port alone.

The suite runs in several processes at once: two servers started with the default
``--metrics-port`` (9090) side by side, and the second exits before it listens ("cannot listen on
127.0.0.1:9090 (metrics): Address already in use"). A launch passes ``--metrics-port`` (0, or a
free port it found) or ``TAVLA_METRICS_PORT``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# a server started in a subprocess: the command lists "serve" and then its host
LAUNCH = re.compile(r'"serve",\s*"--host"')
WINDOW = 600  # characters either side: the command and the environment built beside it


def launches(text: str) -> list[str]:
    return [text[max(0, m.start() - WINDOW):m.end() + WINDOW] for m in LAUNCH.finditer(text)]


def test_the_pattern_finds_launches() -> None:
    found = launches('proc = subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1"])')
    assert len(found) == 1 and "metrics" not in found[0]
    assert launches('load(["serve", "--workers", "2"])') == []  # parsing options starts nothing


def test_every_launched_server_takes_a_free_metrics_port() -> None:
    files = [p for folder in ("tests", "bench", "clients") for p in (ROOT / folder).rglob("*.py")
             if "node_modules" not in p.parts and p != Path(__file__)]
    missing = []
    counted = 0
    for path in files:
        for window in launches(path.read_text(encoding="utf-8")):
            counted += 1
            if "--metrics-port" not in window and "TAVLA_METRICS_PORT" not in window:
                missing.append(str(path.relative_to(ROOT)))
    assert counted >= 15, counted  # the launches of tests/, bench/ and the clients' live server
    assert missing == []
