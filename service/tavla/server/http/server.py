"""Run the HTTP port (:mod:`~tavla.server.http.app`) with Hypercorn in a thread of the server
process, next to the gRPC server.

Hypercorn speaks HTTP/1.1 (what browsers use towards ``http://`` and most ingresses towards
their backends) and HTTP/2, cleartext with prior knowledge (h2c) or over TLS with ALPN. The socket
is bound here, before the thread starts, so a taken port fails at start and port 0 is known at
once; with workers it is shared with ``SO_REUSEPORT`` like the gRPC port. Connections are accepted
by :mod:`~tavla.server.http.listener`, not Hypercorn's serve loop: :meth:`HttpServer.stop` stops
accepting, then answers every request already sent (in flight, or the first on a connection just
accepted) within the grace period.

Hardening, as on the gRPC port: a request body that is not complete ``body_seconds`` after its
headers is answered and its connection closed (:class:`~tavla.server.http.app.HttpApp`); headers
and TLS handshakes that never complete are cut off after the same seconds (Hypercorn's
``keep_alive_timeout`` and ``ssl_handshake_timeout``); and with ``--tls-client-allowed-names`` a
client certificate naming none of the allowed names fails the TLS handshake (there is no call yet
to answer ``PERMISSION_DENIED``; health probes are not affected, they use the gRPC port).

TLS files are looked at before each new connection, as on the gRPC port: renewed files (a new
certificate, key or client CA) are used by later connections, a broken update is logged and the
previous certificate kept (:class:`~tavla.server.process.tls.ReloadingSSLContext`).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import threading
from typing import Any

import structlog
from hypercorn.asyncio import tcp_server as _tcp_server
from hypercorn.asyncio.tcp_server import TCPServer
from hypercorn.utils import wrap_app
from hypercorn.config import Config as HypercornConfig

from tavla.server.process import plumbing as process
from tavla.server.admission.policy import BODY_SECONDS
from tavla.server.http.app import HttpApp
from tavla.server.http.listener import Connection, Listener
from tavla.server.process.tls import CertificateFiles, ReloadingSSLContext, certificate_names

log = structlog.get_logger("tavla.server.http")

_START_TIMEOUT = 10.0  # seconds for the event loop thread to come up


def _release_closed_connections() -> None:
    """Let Hypercorn drop a connection as soon as its client has gone.

    Hypercorn 0.17 stops a connection's keep-alive timer only after the connection's task group
    has ended, and the group waits for that timer: a connection whose client closed or reset it
    lingers for the whole ``keep_alive_timeout`` (5 s here). A write to a reset connection
    leaves a ``ConnectionResetError`` on it whose traceback holds the frame that wrote the
    answer, so each lingering connection kept its answer (280 KB for the costliest
    ListLegalMoves): 1,800 such connections at once, 700 MiB, under a storm of aborted calls.
    Stopping the timer once the read side has ended lets the group, and the answer, go at once.
    Applied once, at import; a Hypercorn without that method is left as it is.
    """
    read, send = (getattr(_tcp_server.TCPServer, name, None) for name in ("_read_data", "protocol_send"))
    if read is None or send is None or getattr(read, "_tavla_patched", False):
        return

    async def _stop_timer(server: _tcp_server.TCPServer) -> None:
        handle = getattr(server.idle_task, "_handle", None)
        if handle is not None and handle is not asyncio.current_task():  # not from the timer itself
            await server.idle_task.stop()

    async def _read_data(self: _tcp_server.TCPServer) -> None:
        try:
            await read(self)
        finally:
            await _stop_timer(self)

    async def protocol_send(self: _tcp_server.TCPServer, event: object) -> None:
        await send(self, event)
        if self.writer.is_closing():  # a timer (re)started for a connection already gone
            await _stop_timer(self)

    _read_data._tavla_patched = True  # type: ignore[attr-defined]
    _tcp_server.TCPServer._read_data = _read_data  # type: ignore[method-assign]
    _tcp_server.TCPServer.protocol_send = protocol_send  # type: ignore[method-assign]


_release_closed_connections()


def bind(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A listening TCP socket on ``host:port``.

    :raises OSError: the address cannot be bound.
    """
    family, kind, proto, sockaddr = process.resolve(host, port)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(sockaddr)
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {process.address(host, port)} (HTTP): {exc.strerror or exc}") from None
    return sock


class HttpServer:
    """The HTTP port: ``start()`` serves ``app`` in a daemon thread, ``stop(grace)`` ends it.

    :param tls: (certificate, key, client CA or None) PEM files: TLS, and mTLS with a CA.
    :param allowed_names: with mTLS, the client certificate must name one of these (subject
        alternative names or common name), as ``--tls-client-allowed-names`` on the gRPC port.
    :param body_seconds: headers that have not completed this long after the connection's last
        request are cut off (Hypercorn's ``keep_alive_timeout``); bodies: see ``HttpApp``.
    """

    def __init__(self, app: HttpApp, sock: socket.socket, *,
                 tls: tuple[str, str, str | None] | None = None, grace_seconds: float = 10.0,
                 allowed_names: frozenset[str] | None = None, body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.port: int = sock.getsockname()[1]
        self._sock = sock
        config = _Config()
        config.keep_alive_timeout = body_seconds
        config.ssl_handshake_timeout = body_seconds  # Hypercorn's default: 60 s per silent TLS client
        config.graceful_timeout = grace_seconds
        config.include_server_header = False
        config.accesslog = None  # the app logs every call itself
        config.errorlog = logging.getLogger("tavla.server.http")
        config.loglevel = "WARNING"
        if tls is not None:
            config.certfile, config.keyfile = tls[0], tls[1]
            if tls[2]:
                config.ca_certs = tls[2]
                config.verify_mode = ssl.CERT_REQUIRED
                config.allowed_names = allowed_names
        self._config = config
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        #: Set once the port accepts no more connections (stop() has begun).
        self.closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tavla-http", daemon=True)

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(_START_TIMEOUT):
            raise OSError("the HTTP server did not start")

    def stop(self, grace: float) -> None:
        """Stop accepting connections, answer the requests already sent within ``grace`` seconds
        (each answer then closes its connection), cut what is left, then return."""
        self.app.draining = True  # answers say "connection: close" from here, if not already
        if self._loop is not None and self._stopping is not None and self._thread.is_alive():
            self._config.graceful_timeout = grace
            self._loop.call_soon_threadsafe(self._stopping.set)
            self._thread.join(grace + 5.0)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        loop = asyncio.get_running_loop()
        app = wrap_app(self.app, self._config.wsgi_max_body_size, "asgi")  # type: ignore[arg-type]
        config = self._config
        state: dict[str, Any] = {}  # ASGI lifespan state: the app keeps none

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, context: Connection) -> None:
            await TCPServer(app, loop, config, context, state, reader, writer)

        tls = config.create_ssl_context() if config.ssl_enabled else None
        listener = Listener(self._sock, serve, tls=tls, handshake_seconds=config.ssl_handshake_timeout)
        listener.start()
        self._stopping = asyncio.Event()
        self._loop = loop
        self._ready.set()
        await self._stopping.wait()
        try:
            await listener.stop(config.graceful_timeout, closed=self.closed.set)
        finally:
            self.closed.set()


class _Config(HypercornConfig):
    """Hypercorn's configuration, whose TLS context also checks the client's name and is rebuilt
    (Hypercorn's settings, the same files) when the certificate files change."""

    allowed_names: frozenset[str] | None = None

    def create_ssl_context(self) -> ssl.SSLContext | None:
        if self.certfile is None or self.keyfile is None:  # ssl_enabled, for the type checker
            return None
        # stamped before the first build, so a change during it is seen by the next connection
        files = CertificateFiles(self.certfile, self.keyfile, self.ca_certs)
        return ReloadingSSLContext(self._fresh_ssl_context, files)

    def _fresh_ssl_context(self) -> ssl.SSLContext:
        """Hypercorn's context (ALPN h2/http1.1, its ciphers, TLS >= 1.2, CA and verify mode) from
        the files as they are now, with the allow-list.

        :raises OSError, ssl.SSLError: a file is missing or unusable.
        """
        context: ssl.SSLContext | None = super().create_ssl_context()
        assert context is not None  # ssl_enabled
        if self.allowed_names:
            context.sslobject_class = _allow_list(self.allowed_names)
        return context


def _allow_list(allowed: frozenset[str]) -> type[ssl.SSLObject]:
    """An ``SSLObject`` (what asyncio's TLS uses) that fails the handshake when the verified client
    certificate names none of ``allowed``."""

    class AllowListSSLObject(ssl.SSLObject):
        def do_handshake(self) -> None:
            super().do_handshake()  # raises until the handshake is done; the chain is verified here
            names = certificate_names(self.getpeercert() or {})
            if not names & allowed:
                # info, not warning: such a client could otherwise fill the log at warning level
                log.info("HTTP port: client certificate not in the allow-list; connection refused",
                            names=sorted(names))
                raise ssl.SSLError("the client certificate's name is not in the server's allow-list "
                                   "(--tls-client-allowed-names)")

    return AllowListSSLObject
