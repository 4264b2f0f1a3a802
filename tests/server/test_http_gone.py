"""A client that goes away mid-call gets no answer built for it.

Aborted costly calls kept their 280 KB answers alive in the HTTP port's event loop (a worker rose
to 700 MiB under a storm of them): the handler is told once the client has gone, so it stops
before building the answer, and the app does not wait for or send it.
"""

from __future__ import annotations

import socket
import threading
import time

from tavla.server.api import services
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
from tavla.server.process import app
from tavla.server.process.config import Config

_SERVICE = services.METHODS["GetInitialPosition"].containing_service
PATH = f"/{_SERVICE.full_name}/GetInitialPosition"
WAIT = 30.0  # seconds; bounds on waits for a state, never how soon it comes


class _Watching(RulesService):
    """Holds each call until its client has gone (or WAIT seconds), and says which came first."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.saw_gone = threading.Event()

    def GetInitialPosition(self, request, context):
        self.entered.set()
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            if not context.is_active():
                self.saw_gone.set()
                break
            time.sleep(0.01)
        return super().GetInitialPosition(request, context)


def test_a_client_that_resets_mid_call_is_seen_gone_and_not_answered():
    servicer = _Watching()
    engine = app.build(Config(host="127.0.0.1", port=0, http_port=0), by_service=by_service(servicer))
    app.start(engine)
    try:
        request = (f"POST {PATH} HTTP/1.1\r\nhost: t\r\ncontent-type: application/proto\r\n"
                   "content-length: 0\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", engine.http_port), timeout=5) as s:
            s.sendall(request)
            assert servicer.entered.wait(WAIT)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # reset
        assert servicer.saw_gone.wait(WAIT), "the handler was not told that its client went away"
        end = time.monotonic() + WAIT
        while engine.http.app.gone < 1 and time.monotonic() < end:
            time.sleep(0.01)
        assert engine.http.app.gone == 1
    finally:
        app.stop(engine, grace=1.0)
