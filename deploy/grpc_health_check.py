"""Health-check a running tavla-engine from outside, as a Kubernetes probe would (and more).

    python deploy/grpc_health_check.py HOST:PORT [--wait S] [--call-engine] [--metrics URL] [--pid N]

Waits up to ``--wait`` seconds until ``grpc.health.v1.Health/Check`` answers SERVING for ``""``
and for every ``tavla.*`` service the server lists through reflection (``tavla.v1.EngineService``
when it has no reflection); with ``--call-engine`` also calls ``GetInitialPosition`` on the
service that has it, with an empty request (valid: the international start, white on roll), and
needs a non-empty answer; with ``--metrics`` needs that URL to answer
200 with Prometheus text. ``--pid`` gives up at once when that process has died (so a server
that crashed is not waited for). Exit status 0 when every check passed, else 1.

Needs only grpcio, grpcio-health-checking and grpcio-reflection (no tavla stubs): the services
come from reflection and the engine call sends raw bytes, so a split of the API needs no change.
deploy/build-image.sh runs it against the server inside the freshly built image.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.request

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

FALLBACK_SERVICE = "tavla.v1.EngineService"  # a server without reflection


def _tavla_services(channel: grpc.Channel, deadline: float) -> tuple[list[str], str]:
    """The ``tavla.*`` services the server lists, and the full method name of GetInitialPosition."""
    try:
        from google.protobuf.descriptor_pool import DescriptorPool
        from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

        grpc.channel_ready_future(channel).result(timeout=max(0.1, deadline - time.monotonic()))
        database = ProtoReflectionDescriptorDatabase(channel)
        names = sorted(n for n in database.get_services() if n.startswith("tavla."))
        pool = DescriptorPool(database)
        owners = [n for n in names if "GetInitialPosition" in pool.FindServiceByName(n).methods_by_name]
        if names and owners:
            return names, f"/{owners[0]}/GetInitialPosition"
    except Exception as exc:  # noqa: BLE001 - no reflection (or an older grpcio): the fixed names
        print(f"reflection: {exc!r}; checking {FALLBACK_SERVICE}", file=sys.stderr)
    return [FALLBACK_SERVICE], f"/{FALLBACK_SERVICE}/GetInitialPosition"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", help="HOST:PORT of the gRPC server")
    parser.add_argument("--wait", type=float, default=30.0, help="seconds to wait for SERVING")
    parser.add_argument("--call-engine", action="store_true", help="also call GetInitialPosition")
    parser.add_argument("--metrics", metavar="URL", help="also read Prometheus metrics there")
    parser.add_argument("--pid", type=int, help="the server's process: stop waiting if it dies")
    args = parser.parse_args(argv)

    deadline = time.monotonic() + args.wait
    with grpc.insecure_channel(args.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        said = _wait_serving(stub, "", deadline, args.pid)
        print(f"health {args.target} (server): {said}", flush=True)
        if said != "SERVING":
            return 1
        services, initial_position = _tavla_services(channel, deadline)
        for service in services:
            said = _wait_serving(stub, service, deadline, args.pid)
            print(f"health {args.target} {service}: {said}", flush=True)
            if said != "SERVING":
                return 1
        if args.call_engine:
            call = channel.unary_unary(initial_position)  # raw bytes in and out
            answer = call(b"", timeout=10)
            if not answer:
                print("GetInitialPosition: empty answer", file=sys.stderr)
                return 1
            print(f"{initial_position}: {len(answer)}-byte answer", flush=True)
    if args.metrics:
        with urllib.request.urlopen(args.metrics, timeout=10) as response:
            text = response.read().decode()
        samples = [line for line in text.splitlines() if line and not line.startswith("#")]
        if response.status != 200 or not samples:
            print(f"metrics {args.metrics}: status {response.status}, {len(samples)} samples",
                  file=sys.stderr)
            return 1
        print(f"metrics {args.metrics}: {len(samples)} samples", flush=True)
    return 0


def _wait_serving(stub: health_pb2_grpc.HealthStub, service: str, deadline: float,
                  pid: int | None) -> str:
    """The last status seen: ``"SERVING"`` as soon as it is, else what was said at the deadline."""
    said = "no answer"
    while True:
        try:
            status = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=2).status
            said = str(health_pb2.HealthCheckResponse.ServingStatus.Name(status))
            if status == health_pb2.HealthCheckResponse.SERVING:
                return said
        except grpc.RpcError as exc:
            said = f"{exc.code().name}: {exc.details()}"
        if time.monotonic() >= deadline:
            return said
        if pid is not None and not _alive(pid):
            return f"{said} (process {pid} has exited)"
        time.sleep(0.25)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


if __name__ == "__main__":
    sys.exit(main())
