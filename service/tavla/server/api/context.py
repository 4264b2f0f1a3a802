"""The running call as the servicers see it, whatever carried it: its metadata, its client's
deadline, its peer, its locale, and ending it with a status. The gRPC port adapts
``grpc.ServicerContext`` to it (:class:`tavla.server.process.grpc_calls.GrpcCallContext`); the
HTTP port builds its own (:class:`tavla.server.http.app.HttpContext`); a test or an in-process
caller may use :class:`LocalCall`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import NoReturn

import grpc

from tavla.server.convert.status import locale_of

Metadata = Sequence[tuple[str, str | bytes]]


class CallAborted(Exception):
    """Raised by :meth:`LocalCall.abort`: the call ended with :attr:`code` and :attr:`details`."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code, self.details = code, details


class CallContext(ABC):
    """One call. Status codes are gRPC's (``grpc.StatusCode``), as the API's errors are."""

    @abstractmethod
    def metadata(self) -> Metadata:
        """The request metadata (gRPC) or headers (HTTP), keys in lower case."""

    @abstractmethod
    def time_remaining(self) -> float | None:
        """Seconds until the client's deadline; ``None`` without one (the server's own budget is
        :func:`tavla.server.api.deadline.remaining`'s)."""

    @abstractmethod
    def is_active(self) -> bool:
        """Whether the client still waits for the answer."""

    @abstractmethod
    def peer(self) -> str:
        """The client's address, as the transport names it."""

    @abstractmethod
    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        """End the call with ``code`` and ``details``; raises, so the handler stops."""

    @abstractmethod
    def abort_with_status(self, status: grpc.Status) -> NoReturn:
        """End the call with ``status`` (its code, details and trailing metadata: the
        ``google.rpc.Status`` details); raises."""

    @abstractmethod
    def code(self) -> grpc.StatusCode | None:
        """The status the call has been ended with so far (``None``: none yet)."""

    def locale(self) -> str:
        """The locale of player messages (``x-tavla-locale``, ``accept-language``; ``en`` by default)."""
        return locale_of(self.metadata())


class LocalCall(CallContext):
    """A call made in this process (tests, benchmarks): given metadata, an optional deadline in
    seconds from now; :meth:`abort` raises :class:`CallAborted`."""

    def __init__(self, metadata: Metadata = (), timeout: float | None = None, peer: str = "local") -> None:
        self._metadata = tuple(metadata)
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._peer = peer
        self._code: grpc.StatusCode | None = None

    def metadata(self) -> Metadata:
        return self._metadata

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else self._deadline - time.monotonic()

    def is_active(self) -> bool:
        left = self.time_remaining()
        return left is None or left > 0

    def peer(self) -> str:
        return self._peer

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        self._code = code
        raise CallAborted(code, details)

    def abort_with_status(self, status: grpc.Status) -> NoReturn:
        self.abort(status.code, status.details)

    def code(self) -> grpc.StatusCode | None:
        return self._code
