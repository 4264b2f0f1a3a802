"""The HTTP port's listener at stop: connections the kernel had queued but the event loop had not
accepted yet are accepted and served, not reset with the socket; later ones are refused; a
connection that does not finish within the grace is cut."""

from __future__ import annotations

import asyncio
import socket

from tavla.server.http.listener import Connection, Listener
from tavla.server.http.server import bind

QUEUED = 5
WAIT = 30.0  # seconds; bounds on waits for a state, never how soon it comes


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, context: Connection) -> None:
    line = await reader.readline()
    writer.write(b"answer " + line)
    await writer.drain()
    writer.close()


def _client(port: int, text: bytes) -> socket.socket:
    # connect() completes in the kernel (the listening socket's queue) without the event loop
    client = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    client.sendall(text)
    return client


def _read_all(client: socket.socket) -> bytes | None:
    """What the server sent before closing, or None if it reset the connection."""
    chunks = []
    try:
        while chunk := client.recv(4096):
            chunks.append(chunk)
    except ConnectionResetError:
        return None
    finally:
        client.close()
    return b"".join(chunks)


def test_connections_queued_at_stop_are_served_and_later_ones_refused():
    async def scenario() -> tuple[list[bytes | None], int, bool]:
        sock = bind("127.0.0.1", 0)
        port = sock.getsockname()[1]
        listener = Listener(sock, _echo)
        listener.start()
        # no await between: the loop never ran, so every connection is still in the kernel's queue
        clients = [_client(port, b"%d\n" % i) for i in range(QUEUED)]
        closed = asyncio.Event()
        cut = await listener.stop(WAIT, closed=closed.set)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=WAIT).close()
            refused = False
        except ConnectionRefusedError:
            refused = True
        return [_read_all(c) for c in clients], cut, refused and closed.is_set()

    answers, cut, refused = asyncio.run(scenario())
    assert answers == [b"answer %d\n" % i for i in range(QUEUED)]
    assert cut == 0
    assert refused


def test_a_connection_past_the_grace_is_cut():
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, context: Connection) -> None:
        await asyncio.Event().wait()  # never answers

    async def scenario() -> tuple[int, int, bytes | None]:
        sock = bind("127.0.0.1", 0)
        listener = Listener(sock, silent)
        listener.start()
        client = _client(sock.getsockname()[1], b"hello\n")
        cut = await listener.stop(0.0)
        return cut, listener.open_connections, _read_all(client)

    cut, left, received = asyncio.run(scenario())
    assert (cut, left) == (1, 0)
    assert received in (b"", None)  # closed without an answer (reset: the request was unread)


def test_a_connection_told_to_stop_closes_after_its_request_if_it_has_had_one():
    async def scenario() -> tuple[bool, bool, bool]:
        fresh, used = Connection(), Connection()
        await used.mark_request()
        await fresh.stop()
        await used.stop()
        before = fresh.terminated.is_set()
        await fresh.mark_request()  # its first request, sent as the server stopped: answered, then closed
        return before, fresh.terminated.is_set(), used.terminated.is_set()

    assert asyncio.run(scenario()) == (False, True, True)
