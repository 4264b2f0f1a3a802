"""Plain HTTP calls to the HTTP port (Connect JSON), as curl would make them."""

from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import rpc_api as api


def http(port: int, path: str, body: bytes = b"", content_type: str = "application/json",
         method: str = "POST", headers: dict[str, str] | None = None,
         timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """One request; ``timeout`` (seconds) bounds a hang, it is not a speed assertion."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body if method == "POST" else None,
                                     method=method, headers={"content-type": content_type, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def connect_json(port: int, method: str, request: dict, **kw) -> tuple[int, dict, dict[str, str]]:
    path = method if method.startswith("/") else api.path(method)
    status, headers, body = http(port, path, json.dumps(request).encode(), **kw)
    return status, json.loads(body), headers



@contextlib.contextmanager
def http_server() -> Iterator[int]:
    """A server built in process on free loopback ports (defaults otherwise); yields its HTTP
    port and stops it when the block ends."""
    from tavla.server.process import app
    from tavla.server.process.config import Config

    e = app.build(Config(host="127.0.0.1", port=0, http_port=0))
    app.start(e)
    try:
        yield e.http_port
    finally:
        app.stop(e, 0.5)
