"""A gRPC health probe that speaks TLS, for Kubernetes exec probes (the kubelet's native gRPC
probe is plaintext only, so with TLS on it could not see NOT_SERVING).

    python3 -m tavla.server.process.probe --service tavla.v1.RulesService --tls-dir /etc/tavla/tls \\
        --server-name tavla-engine.games.svc [--mtls]

Asks ``127.0.0.1:PORT`` for the health of ``--service``; exits 0 when SERVING, 1 otherwise
(NOT_SERVING while draining, an error, a timeout), with one line on stdout saying which. With
``--tls-dir`` it trusts ``ca.crt`` there (else ``tls.crt`` itself) and checks the certificate is
for ``--server-name``; ``--mtls`` presents ``tls.crt``/``tls.key`` as the client's certificate.
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tavla.server.process.probe", description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("TAVLA_PORT", "50051") or 50051))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--service", default="", help='health service name; "" = the whole server')
    parser.add_argument("--tls-dir", help="directory with tls.crt, tls.key and optionally ca.crt")
    parser.add_argument("--server-name", default="localhost", help="name the server certificate must have")
    parser.add_argument("--mtls", action="store_true", help="present tls.crt/tls.key as the client certificate")
    parser.add_argument("--timeout", type=float, default=1.5, help="seconds")
    args = parser.parse_args(argv)

    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    target = f"{args.host}:{args.port}"
    if args.tls_dir:
        def read(name: str) -> bytes:
            with open(os.path.join(args.tls_dir, name), "rb") as f:
                return f.read()

        ca = read("ca.crt") if os.path.exists(os.path.join(args.tls_dir, "ca.crt")) else read("tls.crt")
        creds = grpc.ssl_channel_credentials(ca, read("tls.key") if args.mtls else None,
                                             read("tls.crt") if args.mtls else None)
        channel = grpc.secure_channel(target, creds, [("grpc.ssl_target_name_override", args.server_name)])
    else:
        channel = grpc.insecure_channel(target)
    with channel:
        try:
            status = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout).status
        except grpc.RpcError as exc:
            print(f"{target} {args.service!r}: {exc.code().name}: {exc.details()}")
            return 1
    name = health_pb2.HealthCheckResponse.ServingStatus.Name(status)
    print(f"{target} {args.service!r}: {name}")
    return 0 if status == health_pb2.HealthCheckResponse.SERVING else 1


if __name__ == "__main__":
    sys.exit(main())
