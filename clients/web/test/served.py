"""The web board served as a user runs it: ``tavla-engine serve --http-port --web-dir`` in a
process of its own on a free loopback port, for the browser tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DIST = ROOT / "clients" / "web" / "dist"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY_SECONDS = 60  # a readiness wait, not a speed assertion
# Every wait of a page (Playwright's default is 30 s): a hang detector, not a speed bound. The
# browser tests run four at a time on two cores, and a page whose computer plays a whole match
# before it is idle again took longer than 30 s there.
WAIT_MS = 180_000


def new_context(browser, **options):
    """A browser context whose pages wait up to :data:`WAIT_MS` for anything."""
    context = browser.new_context(**options)
    context.set_default_timeout(WAIT_MS)
    return context

# An init script: every SuggestAction the page sends in ``window.__suggest``, with its level, the
# answer's HTTP status and the kind of action the answer carried ("" when none).
WATCH_SUGGEST = """
window.__suggest = [];
const realFetch = window.fetch.bind(window);
window.fetch = async (url, init) => {
  const r = await realFetch(url, init);
  if (String(url).endsWith("/tavla.v1.AnalysisService/SuggestAction")) {
    const sent = JSON.parse(init.body);
    const entry = {level: sent.level, status: r.status, action: null};
    window.__suggest.push(entry);
    r.clone().json().then((j) => { entry.action = j.action ? (j.action.kind || "?") : ""; }, () => { entry.action = ""; });
  }
  return r;
};
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(extra_env: Mapping[str, str] = {}, grpc_port: int = 0) -> Iterator[str]:
    """The base URL of a server of ``DIST`` once ``/readyz`` answers (its gRPC port
    ``grpc_port``, any free one when 0); stopped (exit status 0 required) when the block ends."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT / "service"), os.environ.get("PYTHONPATH")) if p))
    env.update(extra_env)
    server = subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(grpc_port),
                               "--metrics-port", "0", "--workers", "1", "--http-port", str(port),
                               "--web-dir", str(DIST), "--drain-seconds", "0", "--grace-seconds", "1",
                               "--log-level", "warning"], env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + READY_SECONDS
    while True:
        try:
            if urllib.request.urlopen(f"{url}/readyz", timeout=1).status == 200:
                break
        except OSError:
            pass
        assert server.poll() is None and time.monotonic() < deadline, "the server did not become ready"
        time.sleep(0.2)
    try:
        yield url
    finally:
        server.terminate()
        assert server.wait(timeout=20) == 0
