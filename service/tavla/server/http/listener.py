"""Accept the HTTP port's connections, and at stop lose none of the requests they carry.

Hypercorn's own serve loop (0.17) loses requests at shutdown: it tells every connection to close
before it stops accepting, so a connection accepted meanwhile, or accepted with its first request
not read yet, is closed without an answer; it then waits only for the connections whose task has
started, and cancels one accepted a moment earlier when its event loop ends. Here the order is the
gRPC port's (docs/reliability.md, SIGTERM):

1. stop accepting: take every connection the kernel has already queued, then close the socket
   (a later client is refused before it sends anything, safe to retry elsewhere);
2. a connection that has had a request closes after its answer, or at once when idle (Hypercorn's
   ``terminated``); one that has not had its first request yet is answered once it comes (a
   client that has just connected is sending it), or closed by the keep-alive timeout;
3. after the grace, what is left is cut.

Every HTTP/1.1 answer from the drain on says ``connection: close`` (``HttpApp.draining``), so no
client sends on a connection the server then closes. Not covered: an answer whose headers went out
before the drain began and still being written when the port stops; its client may reuse the
connection, which closes after it.

Each connection gets its own :class:`Connection` (Hypercorn's per-server ``WorkerContext``), which
is how step 2 tells the two kinds apart.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Awaitable, Callable

import structlog
from hypercorn.asyncio.worker_context import WorkerContext

log = structlog.get_logger("tavla.server.http")

#: Reads one connection: Hypercorn's ``TCPServer`` on the streams and the connection's context.
Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter, "Connection"], Awaitable[None]]

_ACCEPT_RETRY_SECONDS = 1.0  # out of file descriptors: try accepting again after this (as asyncio)


class Connection(WorkerContext):
    """One connection's context: ``terminated`` (close once idle) is set at stop if the connection
    has had a request, else as soon as its first request arrives."""

    def __init__(self) -> None:
        super().__init__(None)
        self.requests = 0
        self.stopping = False

    async def mark_request(self) -> None:  # Hypercorn calls it as each request starts
        self.requests += 1
        if self.stopping:
            await self.terminated.set()

    async def stop(self) -> None:
        self.stopping = True
        if self.requests:
            await self.terminated.set()


class Listener:
    """Accepts on ``sock`` (listening) in the running event loop; :meth:`stop` ends it.

    :param serve: reads one accepted connection until it closes.
    :param tls: the server-side TLS context, or None (cleartext).
    :param handshake_seconds: a TLS handshake not done after this many seconds is cut off.
    """

    def __init__(self, sock: socket.socket, serve: Serve, *, tls: ssl.SSLContext | None = None,
                 handshake_seconds: float = 5.0) -> None:
        self._sock = sock
        self._serve = serve
        self._tls = tls
        self._handshake_seconds = handshake_seconds
        self._open: dict[asyncio.Task[None], Connection] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._accepting = False

    @property
    def open_connections(self) -> int:
        return len(self._open)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._sock.setblocking(False)
        self._accepting = True
        self._loop.add_reader(self._sock.fileno(), self._accept)

    def _accept(self) -> None:
        # Registers each connection in the same step as accept(), so stop() always knows it.
        assert self._loop is not None
        while True:
            try:
                conn, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:  # EMFILE and the like: the queue waits, as asyncio's servers do
                log.warning("HTTP port: cannot accept a connection; retrying", error=str(exc))
                self._loop.remove_reader(self._sock.fileno())
                self._loop.call_later(_ACCEPT_RETRY_SECONDS, self._resume)
                return
            context = Connection()
            task = self._loop.create_task(self._connection(conn, context))
            self._open[task] = context
            task.add_done_callback(self._forget)

    def _resume(self) -> None:
        if self._accepting and self._loop is not None:
            self._loop.add_reader(self._sock.fileno(), self._accept)

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._open.pop(task, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("HTTP connection failed", exc_info=task.exception())

    async def _connection(self, conn: socket.socket, context: Connection) -> None:
        assert self._loop is not None
        conn.setblocking(False)
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        try:
            transport, _ = await self._loop.connect_accepted_socket(
                lambda: protocol, conn, ssl=self._tls,
                ssl_handshake_timeout=self._handshake_seconds if self._tls is not None else None)
        except OSError:  # reset, TLS handshake failed or timed out (the TLS layer logs why)
            conn.close()
            return
        writer = asyncio.StreamWriter(transport, protocol, reader, self._loop)
        try:
            await self._serve(reader, writer, context)
        finally:
            writer.close()  # already closed unless the connection was cut

    async def stop(self, grace: float, *, closed: Callable[[], None] | None = None) -> int:
        """Stop accepting, let the connections finish within ``grace`` seconds, then cut the rest.

        :param closed: called once the socket is closed, before the connections are waited for.

        :returns: how many connections were cut.
        """
        assert self._loop is not None
        if self._accepting:
            self._accepting = False
            self._loop.remove_reader(self._sock.fileno())
            self._accept()  # the connections the kernel has completed already are ours to answer
            self._sock.close()
        if closed is not None:
            closed()
        for context in list(self._open.values()):
            await context.stop()
        if self._open:
            await asyncio.wait(list(self._open), timeout=max(grace, 0.0))
        left = list(self._open)
        for task in left:
            task.cancel()
        if left:
            await asyncio.gather(*left, return_exceptions=True)
            log.warning("HTTP port: connections still open after the grace were cut", connections=len(left),
                        grace_seconds=grace)
        return len(left)
