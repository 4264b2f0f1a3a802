"""The running call as the servicers see it, whatever carried it: its metadata, its client's
deadline, its peer, its locale, and ending it with a status. The gRPC port adapts
``grpc.ServicerContext`` to it (:class:`tavla.server.process.grpc_calls.GrpcCallContext`); a call
whose context is ours (:class:`KeptCall`: the HTTP port's
:class:`tavla.server.http.app.HttpContext`, and :class:`LocalCall` for tests and in-process
callers) keeps its deadline and its status here.

The interceptors that record a call (access log, metrics) read its status with :meth:`CallContext.code`
and :meth:`CallContext.details`, as ``grpc.ServicerContext`` spells them, and its transport with
:meth:`CallContext.protocol`.
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
    """Raised by :meth:`KeptCall.abort`: the call ended with :attr:`code` and :attr:`details`."""

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

    @abstractmethod
    def details(self) -> str:
        """The details the call has been ended with so far (``""``: none)."""

    def protocol(self) -> str:
        """The transport's protocol, as the access log and the metrics label it: ``grpc``, or
        the HTTP port's ``connect`` / ``grpc-web``."""
        return "grpc"

    def locale(self) -> str:
        """The locale of player messages (``x-tavla-locale``, ``accept-language``; ``en`` by default)."""
        return locale_of(self.metadata())


class KeptCall(CallContext):
    """A call context that keeps its own deadline and status (gRPC's port has gRPC's): given
    metadata, an optional deadline in seconds from now, the peer and the protocol.
    :meth:`abort` records the status and raises :class:`CallAborted`; :meth:`went_away` marks
    the client gone (the call is no longer active)."""

    def __init__(self, metadata: Metadata, timeout: float | None, peer: str, protocol: str) -> None:
        self._metadata = tuple(metadata)
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._peer = peer
        self._protocol = protocol
        self._gone = False
        self._code: grpc.StatusCode | None = None
        self._details = ""
        self._trailing: tuple[tuple[str, str | bytes], ...] = ()

    def metadata(self) -> Metadata:
        return self._metadata

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else self._deadline - time.monotonic()

    def is_active(self) -> bool:
        if self._gone:
            return False
        left = self.time_remaining()
        return left is None or left > 0

    def went_away(self) -> None:
        """The client stopped waiting (it closed its connection, or was answered already)."""
        self._gone = True

    @property
    def gone(self) -> bool:
        """Whether :meth:`went_away` was called (a passed deadline alone does not set it)."""
        return self._gone

    def peer(self) -> str:
        return self._peer

    def protocol(self) -> str:
        return self._protocol

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        self._code, self._details = code, details
        raise CallAborted(code, details)

    def abort_with_status(self, status: grpc.Status) -> NoReturn:
        self._trailing = tuple(status.trailing_metadata or ())
        self.abort(status.code, status.details)

    def set_code(self, code: grpc.StatusCode) -> None:
        """Set the code the call ends with, without ending it (``grpc.ServicerContext``'s name:
        gRPC's health servicer calls it)."""
        self._code = code

    def set_details(self, details: str) -> None:
        """Set the details the call ends with, without ending it."""
        self._details = details

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        """The trailing metadata of the status the call was ended with (``abort_with_status``)."""
        return self._trailing


class LocalCall(KeptCall):
    """A call made in this process (tests, benchmarks): given metadata, an optional deadline in
    seconds from now; :meth:`abort` raises :class:`CallAborted`."""

    def __init__(self, metadata: Metadata = (), timeout: float | None = None, peer: str = "local") -> None:
        super().__init__(metadata, timeout, peer, "local")
