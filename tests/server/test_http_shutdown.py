"""SIGTERM keeps the HTTP requests already sent.

The server is stopped as SIGTERM stops it (``app.stop``) while keep-alive clients each have a
request in the handler and other clients have connected but not sent their request yet. Before,
Hypercorn told its connections to close before it stopped accepting: a request on a connection
accepted meanwhile, or accepted with its request not yet read, got no answer ("connection
closed"; 1 run in 6 lost 1 to 7 of 8). Now the port stops accepting first and answers every
request already sent; a new connection after that is refused before anything is sent (safe to
retry elsewhere). The order is forced with events: the handler holds every call until the port
has closed (``HttpServer.closed``), and the late clients send only then.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

from tavla.server.api import services
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
from tavla.server.process import app
from tavla.server.process.config import Config

CLIENTS = 8  # keep-alive clients with a call in the handler at the signal
LATE = 4  # clients connected before the signal that send their request after the port closed
WAIT = 30.0  # seconds; bounds on waits for a state, never how soon it comes
_SERVICE = services.METHODS["GetInitialPosition"].containing_service
PATH = f"/{_SERVICE.full_name}/GetInitialPosition"
HEADERS = {"content-type": "application/json"}


class _Gated(RulesService):
    """Holds every call until ``gate`` is set; ``entered`` counts the calls that reached it."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Semaphore(0)
        self.gate = threading.Event()

    def GetInitialPosition(self, request, context):
        self.entered.release()
        assert self.gate.wait(WAIT)
        return super().GetInitialPosition(request, context)


def _loop(port: int, out: dict) -> None:
    """Calls over one keep-alive connection, reconnecting when the server says close, until the
    port refuses; counts answered requests and requests sent that got no answer."""
    conn = None
    while True:
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
            try:
                conn.connect()
            except ConnectionRefusedError:
                out["refused"] += 1  # nothing was sent: the port is closed
                return
        try:
            conn.request("POST", PATH, body=b"{}", headers=HEADERS)
        except OSError:
            out["unsent"] += 1  # the send itself failed: the client knows nothing was processed
            conn.close()
            conn = None
            continue
        try:
            response = conn.getresponse()
            body = response.read()
        except (http.client.RemoteDisconnected, ConnectionResetError, http.client.BadStatusLine):
            out["lost"] += 1  # sent, never answered
            conn.close()
            conn = None
            continue
        out["statuses"].append(response.status)
        if response.status == 200 and json.loads(body)["position"]["ids"]["positionId"]:
            out["answered"] += 1
        if response.getheader("connection", "").lower() == "close":
            out["told_to_close"] += 1
            conn.close()
            conn = None


@pytest.fixture
def gated():
    held = _Gated()
    engine = app.build(Config(host="127.0.0.1", port=0, http_port=0, max_concurrent_rpcs=CLIENTS * 2),
                       by_service=by_service(held))
    app.start(engine)
    yield held, engine
    held.gate.set()
    if not engine.http.closed.is_set():  # the test failed before stopping it
        app.stop(engine, grace=0.0)


def test_requests_in_flight_and_sent_at_the_signal_are_answered(gated):
    held, engine = gated
    port = engine.http_port
    outs = [dict(answered=0, lost=0, unsent=0, refused=0, told_to_close=0, statuses=[]) for _ in range(CLIENTS)]
    threads = [threading.Thread(target=_loop, args=(port, out), daemon=True) for out in outs]
    for t in threads:
        t.start()
    for _ in range(CLIENTS):  # each client's first call is in the handler
        assert held.entered.acquire(timeout=WAIT)
    late = [http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT) for _ in range(LATE)]
    for conn in late:
        conn.connect()  # accepted, or queued by the kernel: either way the server's to answer

    stopping = threading.Thread(target=app.stop, args=(engine,), kwargs=dict(grace=WAIT, drain_delay=0.0))
    stopping.start()
    assert engine.http.closed.wait(WAIT)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=WAIT).close()
    for conn in late:  # sent after the port closed, on connections accepted before
        conn.request("POST", PATH, body=b"{}", headers=HEADERS)
    held.gate.set()
    late_answers = []
    for conn in late:
        response = conn.getresponse()
        late_answers.append((response.status, response.getheader("connection"),
                             json.loads(response.read())["position"]["ids"]["positionId"] != ""))
        conn.close()
    stopping.join(WAIT)
    for t in threads:
        t.join(WAIT)

    assert not stopping.is_alive() and not any(t.is_alive() for t in threads)
    assert late_answers == [(200, "close", True)] * LATE
    total = {k: sum(o[k] for o in outs) for k in ("answered", "lost", "unsent", "refused", "told_to_close")}
    # each client: its call held at the signal answered and told to close, then refused
    assert total == dict(answered=CLIENTS, lost=0, unsent=0, refused=CLIENTS, told_to_close=CLIENTS), outs
    assert all(o["statuses"] == [200] for o in outs), outs
