"""The wheels of `make dist`, installed the way a user installs them: the service's and the two
distributions' it requires (tavla-rules: tavla.core and the compiled accelerator; the client:
tavla.client and the tavla.v1 stubs), into a fresh virtual environment, outside the source tree,
with only the locked dependencies beside them; the service then runs from it with the compiled
accelerator (`make test-dist` sets TAVLA_WHEEL, TAVLA_RULES_WHEEL and TAVLA_CLIENT_WHEEL;
tests/packaging/test_rules_dist.py and tests/clients/test_client_dist.py install the rules' and
the client's alone).

Checks: the service's wheel is pure Python with no copy of the rules, the client or the stubs; the
rules' is abi3 and holds tavla_accel; the wheels' requirements are met (pip check); ``tavla-engine serve`` from that environment logs
``"accelerator": "rust"``, answers health SERVING and one ListLegalMoves (found by method name in
the installed descriptors, so it follows a split of the service), and imports nothing from here.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHEEL = os.environ.get("TAVLA_WHEEL", "")
RULES_WHEEL = os.environ.get("TAVLA_RULES_WHEEL", "")
CLIENT_WHEEL = os.environ.get("TAVLA_CLIENT_WHEEL", "")
STARTUP_SECONDS = 60  # a wait bound for the server's first log line, not a speed target

pytestmark = pytest.mark.skipif(not (WHEEL and RULES_WHEEL and CLIENT_WHEEL),
                                reason="TAVLA_WHEEL, TAVLA_RULES_WHEEL or TAVLA_CLIENT_WHEEL not set: "
                                "`make test-dist` builds and tests the wheels")

# Run by the fresh environment's python: health, then ListLegalMoves on whichever service has it.
PROBE = r'''
import json, sys
import grpc
import tavla
from google.protobuf import json_format, symbol_database
from grpc_health.v1 import health_pb2, health_pb2_grpc
import tavla.v1, pkgutil, importlib
target = sys.argv[1]
method = None
for info in pkgutil.iter_modules(tavla.v1.__path__):
    if info.name.endswith("_pb2"):
        module = importlib.import_module("tavla.v1." + info.name)
        for service in module.DESCRIPTOR.services_by_name.values():
            if "ListLegalMoves" in service.methods_by_name:
                method = service.methods_by_name["ListLegalMoves"]
db = symbol_database.Default()
request_type = db.GetSymbol(method.input_type.full_name)
response_type = db.GetSymbol(method.output_type.full_name)
with grpc.insecure_channel(target) as channel:
    grpc.channel_ready_future(channel).result(timeout=30)
    health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=30)
    call = channel.unary_unary(f"/{method.containing_service.full_name}/{method.name}",
                               request_serializer=request_type.SerializeToString,
                               response_deserializer=response_type.FromString)
    request = json_format.ParseDict({"position": {"position_id": "4HPwATDgc/ABMA"}, "dice": [5, 1]}, request_type())
    answer = call(request, timeout=30)
print(json.dumps({"tavla": tavla.__file__, "health": health_pb2.HealthCheckResponse.ServingStatus.Name(health.status),
                  "method": f"{method.containing_service.full_name}/{method.name}",
                  "moves": sorted(m.notation for m in answer.moves)}))
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_rules_wheel_is_abi3_and_holds_the_accelerator():
    names = zipfile.ZipFile(RULES_WHEEL).namelist()
    assert "-cp310-abi3-" in Path(RULES_WHEEL).name
    assert [n for n in names if n.startswith("tavla_accel") and n.endswith(".so")] == ["tavla_accel.abi3.so"]


def test_the_service_wheel_is_pure_python_and_requires_the_rules_and_the_client():
    names = zipfile.ZipFile(WHEEL).namelist()
    assert Path(WHEEL).name.endswith("-py3-none-any.whl") and not [n for n in names if n.endswith(".so")]
    assert "tavla/cli.py" in names and not [n for n in names if n.startswith(("tests/", "service/"))]
    # one copy of the rules, the stubs and the client: in tavla-rules and tavla-engine-client
    assert not [n for n in names if n.startswith(("tavla/core/", "tavla/v1/", "tavla/client"))]
    meta = zipfile.ZipFile(WHEEL).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert {"Requires-Dist: tavla-rules==1.0.0", "Requires-Dist: tavla-engine-client==1.0.0"} <= set(meta.splitlines())


def test_the_service_runs_from_a_fresh_environment_with_the_accelerator(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--require-hashes", "-r", str(ROOT / "requirements.lock")], check=True, cwd=tmp_path)
    subprocess.run([*pip, "--no-deps", RULES_WHEEL, CLIENT_WHEEL, WHEEL], check=True, cwd=tmp_path)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check"], check=True, cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "TAVLA_ACCEL")}
    port = _free_port()
    log = tmp_path / "serve.log"
    with open(log, "w") as out:
        server = subprocess.Popen([str(venv / "bin" / "tavla-engine"), "serve", "--host", "127.0.0.1", "--port",
                                   str(port), "--metrics-port", "0", "--workers", "1"], cwd=tmp_path, env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + STARTUP_SECONDS
        while "listening" not in log.read_text() and server.poll() is None and time.monotonic() < end:
            time.sleep(0.2)
        started = [json.loads(line) for line in log.read_text().splitlines() if "listening on" in line]
        assert started, log.read_text()
        assert started[0]["accelerator"] == "rust"
        probe = subprocess.run([str(venv / "bin" / "python"), "-c", PROBE, f"127.0.0.1:{port}"], cwd=tmp_path,
                               env=env, capture_output=True, text=True, timeout=120)
        assert probe.returncode == 0, probe.stderr
        answer = json.loads(probe.stdout)
    finally:
        server.terminate()
        server.wait(60)
    assert answer["tavla"].startswith(str(venv)) and not answer["tavla"].startswith(str(ROOT))
    assert answer["health"] == "SERVING"
    assert answer["method"].endswith("/ListLegalMoves")
    # 5-1 from the start: 8 distinct plays (R4-R7), among them the usual 24/23 13/8
    assert "24/23 13/8" in answer["moves"] and len(answer["moves"]) == 8, answer["moves"]
