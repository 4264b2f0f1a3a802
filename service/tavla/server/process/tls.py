"""TLS and mTLS server credentials from PEM files, reloaded when the files change.

The files are checked before serving (the key must match the certificate; the CA bundle must
load), so a wrong secret fails the start rather than every handshake. With a client CA, clients
must present a certificate signed by it (mTLS). Kubernetes updates a mounted secret in place and
cert-manager renews certificates before they expire, so the files are looked at again before each
new connection (a ``stat`` of each) and new connections use the new certificate; a half-written or
broken update is logged and the previous certificate kept.
"""

from __future__ import annotations

import os
import ssl
import threading
from collections.abc import Callable

import grpc
import structlog

from tavla.server.admission.calls import wrap_any_handler

log = structlog.get_logger(__name__)


_KEPT = "TLS files changed but cannot be used; keeping the previous certificate"


class TlsError(ValueError):
    """The certificate, key or CA files cannot be used."""


class CertificateFiles:
    """The server certificate, its key and the optional client CA, as files on disk."""

    def __init__(self, cert: str, key: str, client_ca: str | None = None) -> None:
        self.cert, self.key, self.client_ca = cert, key, client_ca
        self._lock = threading.Lock()
        self._stamp = self._stamps()

    def _paths(self) -> tuple[str, ...]:
        return (self.cert, self.key) + ((self.client_ca,) if self.client_ca else ())

    def _stamps(self) -> tuple[tuple[int, int, int], ...]:
        stamps = []
        for path in self._paths():
            try:
                st = os.stat(path)  # follows the ..data symlink Kubernetes swaps
            except OSError:
                stamps.append((0, 0, 0))
            else:
                stamps.append((st.st_ino, st.st_size, st.st_mtime_ns))
        return tuple(stamps)

    def configuration(self) -> grpc.ServerCertificateConfiguration:
        """The files' contents as a gRPC certificate configuration, after checking them.

        :raises TlsError: unreadable files, not PEM, a key that is not the certificate's.
        """
        try:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.cert, self.key)
            if self.client_ca:
                context.load_verify_locations(cafile=self.client_ca)
            with open(self.cert, "rb") as f:
                cert = f.read()
            with open(self.key, "rb") as f:
                key = f.read()
            ca = None
            if self.client_ca:
                with open(self.client_ca, "rb") as f:
                    ca = f.read()
        except (OSError, ssl.SSLError) as exc:
            raise TlsError(f"cannot use TLS files (cert {self.cert}, key {self.key}"
                           f"{', client CA ' + self.client_ca if self.client_ca else ''}): {exc}") from None
        return grpc.ssl_server_certificate_configuration([(key, cert)], root_certificates=ca)

    def changed(self) -> bool:
        """Whether a file has changed (inode, size or mtime) since the last call (or since this
        object was made); a ``stat`` of each file. True once per change, so a broken update is
        reported once and the next write of the files is seen again."""
        stamp = self._stamps()
        with self._lock:
            if stamp == self._stamp:
                return False
            self._stamp = stamp
            return True

    def reload_if_changed(self) -> grpc.ServerCertificateConfiguration | None:
        """A new configuration when a file has changed since the last load, else ``None``."""
        if not self.changed():
            return None
        try:
            config = self.configuration()
        except TlsError as exc:
            log.warning(_KEPT, error=str(exc))
            return None
        log.info("TLS certificate reloaded", cert=self.cert)
        return config


def server_credentials(files: CertificateFiles) -> grpc.ServerCredentials:
    """Credentials that present ``files``' certificate, and require a client certificate signed
    by its client CA when there is one.

    :raises TlsError: see :meth:`CertificateFiles.configuration`.
    """
    initial = files.configuration()
    return grpc.dynamic_ssl_server_credentials(
        initial, files.reload_if_changed, require_client_authentication=files.client_ca is not None,
    )


class ReloadingSSLContext(ssl.SSLContext):
    """A server ``SSLContext`` for asyncio (the HTTP port) that picks up renewed certificate files.

    Each new connection (asyncio's TLS transport calls :meth:`wrap_bio` once per connection)
    first checks ``files`` (:meth:`CertificateFiles.changed`, a ``stat`` per file); when they
    changed, ``build()`` makes a fresh context from them and it replaces the current one, so the
    new certificate, key *and* client CA take effect together (a CA removed from the file is no
    longer trusted: nothing is added to the old context). If ``build()`` fails (a half-written
    update, a key that is not the certificate's, garbage) a warning is logged and the previous
    context kept. Connections already open keep the context they started with.

    This object is only the entry point: its own settings are unused; :attr:`current` is the
    context that handshakes (ALPN, ciphers, verify mode, ``sslobject_class`` are ``build()``'s).
    Used from one event loop thread; ``files``' lock covers concurrent checks anyway.
    """

    def __new__(cls, build: Callable[[], ssl.SSLContext], files: CertificateFiles) -> ReloadingSSLContext:
        return super().__new__(cls, ssl.PROTOCOL_TLS_SERVER)

    def __init__(self, build: Callable[[], ssl.SSLContext], files: CertificateFiles) -> None:
        self._build, self._files = build, files
        self.current: ssl.SSLContext = build()

    def _refresh(self) -> None:
        if not self._files.changed():
            return
        try:
            self.current = self._build()
        except (OSError, ssl.SSLError, ValueError) as exc:
            log.warning(_KEPT, port="http", error=str(exc))
            return
        log.info("TLS certificate reloaded", port="http", cert=self._files.cert)

    def wrap_bio(self, incoming: ssl.MemoryBIO, outgoing: ssl.MemoryBIO, server_side: bool = False,
                 server_hostname: str | bytes | None = None,
                 session: ssl.SSLSession | None = None) -> ssl.SSLObject:
        self._refresh()
        return self.current.wrap_bio(incoming, outgoing, server_side=server_side,
                                     server_hostname=server_hostname, session=session)

    def wrap_socket(self, sock, *args, **kwargs):  # type: ignore[no-untyped-def]
        self._refresh()
        return self.current.wrap_socket(sock, *args, **kwargs)


class ClientNameInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """mTLS identity allow-list: a call whose client certificate names none of ``allowed`` (in its
    subject alternative names or common name) is answered ``PERMISSION_DENIED``.

    A client CA admits every certificate it signed; this narrows that to the named clients.
    Health checks are exempt (they reveal nothing, and probes may present another identity).
    """

    EXEMPT = ("/grpc.health.v1.Health/",)

    def __init__(self, allowed: frozenset[str]) -> None:
        self.allowed = allowed

    def intercept_service(self, continuation, handler_call_details):  # type: ignore[no-untyped-def]
        handler = continuation(handler_call_details)
        if handler_call_details.method.startswith(self.EXEMPT):
            return handler
        return wrap_any_handler(handler, self._checked)

    def _checked(self, behaviour):  # type: ignore[no-untyped-def]
        def run(request, context):  # type: ignore[no-untyped-def]
            names = client_names(context.auth_context())
            if not names & self.allowed:
                context.abort(grpc.StatusCode.PERMISSION_DENIED,
                              "the client certificate's name is not in the server's allow-list "
                              "(--tls-client-allowed-names)")
            return behaviour(request, context)

        return run


def client_names(auth_context: dict) -> set[str]:  # type: ignore[type-arg]
    """The DNS/IP/URI subject alternative names and the common name of the peer's certificate."""
    names = set()
    for key in ("x509_subject_alternative_name", "x509_common_name"):
        for value in auth_context.get(key, ()):
            names.add(value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value))
    return names


def certificate_names(peer_certificate: dict) -> set[str]:  # type: ignore[type-arg]
    """The same names as :func:`client_names`, from Python's ``SSLObject.getpeercert()``: the
    DNS/IP/URI subject alternative names and the common name (the HTTP port's allow-list)."""
    names = {value for kind, value in peer_certificate.get("subjectAltName", ())
             if kind in ("DNS", "IP Address", "URI")}
    for rdn in peer_certificate.get("subject", ()):
        names.update(value for key, value in rdn if key == "commonName")
    return names


def parse_names(text: str) -> frozenset[str]:
    """``"a, b"`` -> ``{"a", "b"}``.

    :raises ValueError: no name in it.
    """
    names = frozenset(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise ValueError("names no client")
    return names
