"""TLS and mTLS from certificate files, with a CA, server and client certificates this test makes
with the ``openssl`` command (EC P-256, valid two days); and the reload of renewed files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import grpc
import pytest

from tavla.server.process import app
from tavla.server.process.config import Config
import rpc_api as api
from certs import make_ca, make_leaf, openssl

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")

TIMEOUT = 10
START_ID = "4HPwATDgc/ABMA"


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("pki")
    for ca in ("ca", "other-ca"):
        make_ca(d, ca)
    make_leaf(d, "ca", "server", "serverAuth")
    make_leaf(d, "ca", "client", "clientAuth")
    make_leaf(d, "ca", "intruder", "clientAuth")  # signed by the client CA, but not on the allow-list
    make_leaf(d, "ca", "dual", "serverAuth,clientAuth")  # a server certificate probes can present
    make_leaf(d, "other-ca", "stranger", "clientAuth")  # a client certificate from another CA
    make_leaf(d, "other-ca", "server2", "serverAuth")  # the "renewed" certificate, another CA
    return d


def start(options: Config) -> app.Engine:
    engine = app.build(options)
    app.start(engine)
    return engine


def call(port: int, credentials: grpc.ChannelCredentials | None) -> str:
    """One GetInitialPosition over a new connection; returns the position id."""
    options = [("grpc.ssl_target_name_override", "localhost"), ("grpc.use_local_subchannel_pool", 1)]
    target = f"127.0.0.1:{port}"
    channel = (grpc.secure_channel(target, credentials, options=options) if credentials
               else grpc.insecure_channel(target, options=options))
    with channel:
        stub = api.AnyStub(channel)
        return stub.GetInitialPosition(api.GetInitialPositionRequest(), timeout=TIMEOUT).position.ids.position_id


def creds(pki: Path, ca: str = "ca", client: str | None = None) -> grpc.ChannelCredentials:
    key = (pki / f"{client}.key").read_bytes() if client else None
    chain = (pki / f"{client}.pem").read_bytes() if client else None
    return grpc.ssl_channel_credentials((pki / f"{ca}.pem").read_bytes(), private_key=key, certificate_chain=chain)


def refused(port: int, credentials: grpc.ChannelCredentials | None) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as info:
        call(port, credentials)
    return info.value.code()


def test_tls_serves_clients_that_trust_the_ca_and_refuses_plaintext(pki):
    engine = start(Config(host="127.0.0.1", port=0, tls_cert=str(pki / "server.pem"),
                          tls_key=str(pki / "server.key")).check())
    try:
        assert call(engine.port, creds(pki)) == START_ID
        assert refused(engine.port, None) == grpc.StatusCode.UNAVAILABLE
        assert refused(engine.port, creds(pki, ca="other-ca")) == grpc.StatusCode.UNAVAILABLE
    finally:
        engine.server.stop(None)


def test_mtls_requires_a_client_certificate_from_the_client_ca(pki):
    engine = start(Config(host="127.0.0.1", port=0, tls_cert=str(pki / "server.pem"),
                          tls_key=str(pki / "server.key"), tls_client_ca=str(pki / "ca.pem")).check())
    try:
        assert call(engine.port, creds(pki, client="client")) == START_ID
        assert refused(engine.port, creds(pki)) == grpc.StatusCode.UNAVAILABLE  # no client certificate
        assert refused(engine.port, creds(pki, client="stranger")) == grpc.StatusCode.UNAVAILABLE
        assert refused(engine.port, None) == grpc.StatusCode.UNAVAILABLE
    finally:
        engine.server.stop(None)


def test_mtls_allow_list_admits_only_the_named_clients(pki):
    # finding: mTLS admitted any certificate the CA signed
    engine = start(Config(host="127.0.0.1", port=0, tls_cert=str(pki / "server.pem"),
                          tls_key=str(pki / "server.key"), tls_client_ca=str(pki / "ca.pem"),
                          tls_client_allowed_names="client, frontend.games.svc").check())
    try:
        assert call(engine.port, creds(pki, client="client")) == START_ID
        assert refused(engine.port, creds(pki, client="intruder")) == grpc.StatusCode.PERMISSION_DENIED
        from grpc_health.v1 import health_pb2, health_pb2_grpc  # health stays open to any CA client

        options = [("grpc.ssl_target_name_override", "localhost")]
        with grpc.secure_channel(f"127.0.0.1:{engine.port}", creds(pki, client="intruder"), options=options) as ch:
            assert health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT).status
    finally:
        engine.server.stop(None)


def test_an_allow_list_without_mtls_is_refused():
    from tavla.server.process.config import ConfigError

    with pytest.raises(ConfigError, match="needs mTLS"):
        Config(tls_client_allowed_names="client").check()


def test_renewed_certificate_files_are_used_for_new_connections(pki, tmp_path):
    cert, key = tmp_path / "tls.crt", tmp_path / "tls.key"
    shutil.copy(pki / "server.pem", cert)
    shutil.copy(pki / "server.key", key)
    engine = start(Config(host="127.0.0.1", port=0, tls_cert=str(cert), tls_key=str(key)).check())
    try:
        assert call(engine.port, creds(pki)) == START_ID
        # A broken update (the key of another certificate) is ignored: the old one stays in use.
        shutil.copy(pki / "client.key", key)
        assert call(engine.port, creds(pki)) == START_ID
        # A whole new pair, as a renewed secret: new connections get it.
        for source, target in ((pki / "server2.pem", cert), (pki / "server2.key", key)):
            tmp = target.with_suffix(".new")
            shutil.copy(source, tmp)
            tmp.replace(target)
        assert call(engine.port, creds(pki, ca="other-ca")) == START_ID
        assert refused(engine.port, creds(pki)) == grpc.StatusCode.UNAVAILABLE
    finally:
        engine.server.stop(None)


def test_the_tls_exec_probe_sees_serving_and_not_serving(pki, tmp_path):
    # finding: with TLS the chart's probes fell back to TCP and could not see NOT_SERVING
    from tavla.server.process import probe

    tls_dir = tmp_path / "tls"
    tls_dir.mkdir()
    # with mTLS the probe presents the pod's own certificate: it needs clientAuth as well
    for source, name in (("dual.pem", "tls.crt"), ("dual.key", "tls.key"), ("ca.pem", "ca.crt")):
        shutil.copy(pki / source, tls_dir / name)
    engine = start(Config(host="127.0.0.1", port=0, tls_cert=str(tls_dir / "tls.crt"),
                          tls_key=str(tls_dir / "tls.key"), tls_client_ca=str(pki / "ca.pem")).check())
    args = ["--port", str(engine.port), "--tls-dir", str(tls_dir), "--server-name", "localhost"]
    try:
        assert probe.main([*args, "--mtls", "--service", "tavla.v1.RulesService"]) == 0
        assert probe.main([*args, "--service", ""]) == 1  # mTLS: no client certificate
        engine.health.enter_graceful_shutdown()  # draining
        assert probe.main([*args, "--mtls", "--service", "tavla.v1.RulesService"]) == 1
    finally:
        engine.server.stop(None)


# --- the HTTP port (Connect / gRPC-Web, Hypercorn) reloads too -------------------------------------

def _replace(source: Path, target: Path) -> None:
    """Write ``target`` as a renewal does: a new file renamed over the old one."""
    tmp = target.with_suffix(".new")
    shutil.copy(source, tmp)
    tmp.replace(target)


def _https(port: int, pki: Path, client: str | None = None, cas: tuple[str, ...] = ("ca", "other-ca"),
           ) -> tuple[str, int]:
    """One GetInitialPosition over a new TLS connection to the HTTP port: the server certificate's
    common name and the answer's status."""
    import http.client
    import ssl

    context = ssl.create_default_context()
    for ca in cas:
        context.load_verify_locations(cafile=str(pki / f"{ca}.pem"))
    context.check_hostname = False
    if client:
        context.load_cert_chain(str(pki / f"{client}.pem"), str(pki / f"{client}.key"))
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=TIMEOUT)
    try:
        conn.request("POST", "/tavla.v1.RulesService/GetInitialPosition", b"{}",
                     {"content-type": "application/json"})
        answer = conn.getresponse()
        assert START_ID.encode() in answer.read()
        subject = dict(rdn[0] for rdn in conn.sock.getpeercert()["subject"])
        return subject["commonName"], answer.status
    finally:
        conn.close()


def _https_refused(port: int, pki: Path, client: str | None) -> None:
    import http.client
    import ssl

    with pytest.raises((ssl.SSLError, ConnectionError, http.client.RemoteDisconnected, OSError)):
        _https(port, pki, client)


def _http_engine(**tls: str) -> app.Engine:
    return start(Config(host="127.0.0.1", port=0, http_port=0, **tls).check())


def test_the_http_port_uses_renewed_certificate_files_for_new_connections(pki, tmp_path):
    import http.client
    import ssl

    from structlog.testing import capture_logs

    cert, key = tmp_path / "tls.crt", tmp_path / "tls.key"
    shutil.copy(pki / "server.pem", cert)
    shutil.copy(pki / "server.key", key)
    engine = _http_engine(tls_cert=str(cert), tls_key=str(key))
    try:
        assert _https(engine.http_port, pki) == ("server", 200)
        # a connection opened before the renewal keeps working (and keeps its certificate)
        context = ssl.create_default_context(cafile=str(pki / "ca.pem"))
        context.check_hostname = False
        kept = http.client.HTTPSConnection("127.0.0.1", engine.http_port, context=context, timeout=TIMEOUT)
        kept.request("GET", "/healthz")
        assert kept.getresponse().read() == b"SERVING\n"

        _replace(pki / "server2.pem", cert)
        _replace(pki / "server2.key", key)
        assert _https(engine.http_port, pki) == ("server2", 200)
        kept.request("GET", "/healthz")
        assert kept.getresponse().read() == b"SERVING\n"
        assert dict(rdn[0] for rdn in kept.sock.getpeercert()["subject"])["commonName"] == "server"
        kept.close()

        # broken updates: the key of another certificate, then garbage -> the previous certificate
        with capture_logs() as logs:
            _replace(pki / "client.key", key)
            assert _https(engine.http_port, pki) == ("server2", 200)
            key.write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n")
            assert _https(engine.http_port, pki) == ("server2", 200)
        warnings = [e for e in logs if e["log_level"] == "warning" and e.get("port") == "http"]
        assert len(warnings) == 2, logs
        assert "keeping the previous certificate" in warnings[0]["event"]

        # the next good write is picked up again (the failed ones did not stop the checks)
        _replace(pki / "server.key", key)
        _replace(pki / "server.pem", cert)
        assert _https(engine.http_port, pki) == ("server", 200)
        assert call(engine.port, creds(pki)) == START_ID  # the gRPC port, meanwhile, on its own
    finally:
        app.stop(engine, 0.5)


def test_the_http_port_uses_a_renewed_client_ca_and_keeps_the_allow_list(pki, tmp_path):
    client_ca = tmp_path / "ca.crt"
    shutil.copy(pki / "ca.pem", client_ca)
    engine = _http_engine(tls_cert=str(pki / "server.pem"), tls_key=str(pki / "server.key"),
                          tls_client_ca=str(client_ca), tls_client_allowed_names="client, stranger")
    try:
        assert _https(engine.http_port, pki, "client") == ("server", 200)
        _https_refused(engine.http_port, pki, "stranger")  # other-ca is not trusted yet
        _https_refused(engine.http_port, pki, "intruder")  # from the CA, not on the allow-list

        # a bundle with both CAs (a CA rotation): both clients, still the allow-list
        bundle = tmp_path / "bundle.pem"
        bundle.write_bytes((pki / "ca.pem").read_bytes() + (pki / "other-ca.pem").read_bytes())
        _replace(bundle, client_ca)
        assert _https(engine.http_port, pki, "stranger") == ("server", 200)
        assert _https(engine.http_port, pki, "client") == ("server", 200)
        _https_refused(engine.http_port, pki, "intruder")

        # the old CA removed from the file: no longer trusted (the context is rebuilt, not added to)
        _replace(pki / "other-ca.pem", client_ca)
        assert _https(engine.http_port, pki, "stranger") == ("server", 200)
        _https_refused(engine.http_port, pki, "client")
    finally:
        app.stop(engine, 0.5)
