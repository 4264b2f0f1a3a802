"""Static files with ``--web-dir``: every path a client can send is 200, 400 or 404, never 500
(``GET /%00`` and a 300-character segment were 500 with an ASGI traceback).

Requests go over raw sockets so that the path reaches the server exactly as written (no client
normalises ``..`` or re-encodes it).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavla.server.process import app
from tavla.server.process.config import Config


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[int, Path]]:
    root = tmp_path_factory.mktemp("site")
    web = root / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>board</title>")
    (web / "app.js").write_text("export {}")
    (web / "sub").mkdir()
    (web / "sub" / "index.html").write_text("sub index")
    (web / "empty").mkdir()  # a directory without index.html
    (root / "secret.txt").write_text("outside")
    os.symlink(root / "secret.txt", web / "out.txt")  # a link out of the web dir
    os.symlink(root, web / "outdir")
    os.symlink(web / "loop", web / "loop")  # a link to itself
    (web / "unreadable.txt").write_text("x")
    (web / "unreadable.txt").chmod(0)
    os.mkfifo(web / "fifo")
    e = app.build(Config(host="127.0.0.1", port=0, http_port=0, web_dir=str(web)))
    app.start(e)
    yield e.http_port, web
    app.stop(e, 0.1)


def get(port: int, target: str) -> tuple[int, bytes]:
    """The status and body of ``GET target`` sent byte for byte."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def test_files_and_directory_indexes_are_served(site):
    port, _ = site
    assert get(port, "/") == (200, b"<!doctype html><title>board</title>")
    assert get(port, "/app.js")[0] == 200
    assert get(port, "/sub/") == (200, b"sub index")
    assert get(port, "/sub") == (200, b"sub index")


@pytest.mark.parametrize("target,status", [
    ("/%00", 400), ("/app.js%00.html", 400), ("/" + "a" * 300, 400), ("/sub/" + "b" * 256 + ".js", 400),
    ("/" + "a/" * 600, 400), ("/%0a", 400), ("/%7f", 400), ("/..%2f..%2fetc%2fpasswd", 400),
    ("/%2e%2e/%2e%2e/etc/passwd", 400), ("/../../etc/passwd", 400), ("/sub/./index.html", 400),
    ("/a%5c..%5csecret.txt", 400), ("//etc/passwd", 404), ("/sub//index.html", 400),
    ("/%zz", 404), ("/%ff%fe", 404), ("/%c0%ae%c0%ae/secret.txt", 404), ("/%e2%82", 404),
    ("/nothing.txt", 404), ("/empty/", 404), ("/empty", 404), ("/out.txt", 404), ("/outdir/secret.txt", 404),
    ("/loop", 404), ("/fifo", 404), ("/" + "a" * 255, 404), ("/%F0%9F%8E%B2.js", 404),
])
def test_every_bad_path_is_400_or_404_never_500(site, target, status):
    port, _ = site
    assert get(port, target)[0] == status


def test_an_unreadable_file_is_404(site):
    port, web = site
    if os.access(web / "unreadable.txt", os.R_OK):
        pytest.skip("running as root: mode 0 files are readable")
    assert get(port, "/unreadable.txt")[0] == 404
