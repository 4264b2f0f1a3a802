"""SIGTERM keeps the HTTP requests already sent.

Keep-alive HTTP/1.1 clients loop a call that the handler holds for a while; the server is
stopped as SIGTERM stops it (``app.stop`` with a drain and a grace) while every client has a
request in the handler. Before, Hypercorn closed each connection after its in-flight answer
without saying so, and each client's next request, already sent, got no answer ("connection
closed"). Now every answer from the drain on says ``connection: close``, so no client sends on a
connection the server is about to close; a new connection after the port closed is refused
before anything is sent (safe to retry elsewhere). Deterministic: the handler holds each call
0.3 s, so all clients are in the handler when the drain ends.
"""

from __future__ import annotations

import http.client
import json
import threading
import time

from tavla.server.process import app
from tavla.server.process.config import Config
from tavla.server.api.servicers import TavlaServicer
import rpc_api as api
from tavla.server.api import services

CLIENTS = 8
HOLD = 0.3  # seconds the handler holds each call
_SERVICE = services.METHODS["GetInitialPosition"].containing_service
PATH = f"/{_SERVICE.full_name}/GetInitialPosition"


class _Held(TavlaServicer):
    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Semaphore(0)

    def GetInitialPosition(self, request, context):
        self.entered.release()
        time.sleep(HOLD)
        return super().GetInitialPosition(request, context)


def _loop(port: int, stop: threading.Event, out: dict) -> None:
    """Calls over one keep-alive connection, reconnecting when the server says close, until the
    port refuses; counts answered requests and requests sent that got no answer."""
    conn = None
    while not stop.is_set():
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.connect()
            except ConnectionRefusedError:
                out["refused"] += 1  # nothing was sent: the port is closed
                return
        try:
            conn.request("POST", PATH, body=b"{}", headers={"content-type": "application/json"})
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
        assert response.status == 200 and json.loads(body)["position"]["ids"]["positionId"]
        out["answered"] += 1
        if response.getheader("connection", "").lower() == "close":
            out["told_to_close"] += 1
            conn.close()
            conn = None
    if conn is not None:
        conn.close()


def test_requests_in_flight_and_sent_at_the_signal_are_answered():
    held = _Held()
    engine = app.build(Config(host="127.0.0.1", port=0, http_port=0, max_concurrent_rpcs=CLIENTS * 2),
                       servicer=held)
    app.start(engine)
    stop = threading.Event()
    outs = [dict(answered=0, lost=0, unsent=0, refused=0, told_to_close=0) for _ in range(CLIENTS)]
    threads = [threading.Thread(target=_loop, args=(engine.http_port, stop, out), daemon=True) for out in outs]
    for t in threads:
        t.start()
    for _ in range(CLIENTS * 2):  # every client has had a call answered and is in the handler again
        assert held.entered.acquire(timeout=30)
    assert app.stop(engine, grace=5.0, drain_delay=1.0)
    stop.set()
    for t in threads:
        t.join(30)
    total = {k: sum(o[k] for o in outs) for k in outs[0]}
    assert total["lost"] == 0, total
    assert total["answered"] >= CLIENTS * 2
    assert all(o["told_to_close"] >= 1 for o in outs), outs  # each was told before the port closed
