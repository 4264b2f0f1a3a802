"""Metrics: ``/metrics`` over HTTP with the standard gRPC server series (names and labels of
go-grpc-prometheus) and the engine's own, after real calls."""

from __future__ import annotations

import subprocess
import sys
import threading
import urllib.request

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tavla.server.process import app
from tavla.server.pipeline import metrics
from tavla.server.api import services
from tavla.server.process.config import Config
from tavla.server.api.rules import RulesService
from engine_servicers import by_service
import rpc_api as api
from tavla.v1 import types_pb2 as pb

START_ID = "4HPwATDgc/ABMA"
TIMEOUT = 30


@pytest.fixture(scope="module")
def channel():
    engine = app.build(Config(host="127.0.0.1", port=0))
    app.start(engine)
    with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
        yield ch
    engine.server.stop(None)


@pytest.fixture(scope="module")
def stub(channel):
    return api.AnyStub(channel)


@pytest.fixture(scope="module")
def scrape():
    """Fetch and parse this process's ``/metrics`` from a real HTTP endpoint."""
    http, _thread = metrics.serve("127.0.0.1", 0)
    url = f"http://127.0.0.1:{http.server_port}/metrics"

    def fetch() -> dict[tuple[str, tuple], float]:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            assert response.status == 200
            text = response.read().decode()
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in text_string_to_metric_families(text) for s in family.samples}

    yield fetch
    http.shutdown()


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def labels(method, code=None):
    out = {"grpc_type": "unary", "grpc_service": services.service_of(method), "grpc_method": method}
    if code is not None:
        out["grpc_code"] = code
    return out


def test_standard_grpc_series_after_calls(stub, scrape):
    before = scrape()
    request = api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[6, 6])
    for _ in range(3):
        stub.ListLegalMoves(request, timeout=TIMEOUT)
    with pytest.raises(grpc.RpcError):
        stub.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[7, 1]),
                            timeout=TIMEOUT)
    after = scrape()

    def delta(name, **lbl):
        return value(after, name, **lbl) - value(before, name, **lbl)

    assert delta("grpc_server_started_total", **labels("ListLegalMoves")) == 4
    assert delta("grpc_server_handled_total", **labels("ListLegalMoves", "OK")) == 3
    assert delta("grpc_server_handled_total", **labels("ListLegalMoves", "InvalidArgument")) == 1
    assert delta("grpc_server_msg_received_total", **labels("ListLegalMoves")) == 4
    assert delta("grpc_server_msg_sent_total", **labels("ListLegalMoves")) == 3
    assert delta("grpc_server_handling_seconds_count", **labels("ListLegalMoves", "OK")) == 3
    assert delta("grpc_server_handling_seconds_bucket", **labels("ListLegalMoves", "OK"), le="+Inf") == 3
    assert value(after, "grpc_server_handling_seconds_sum", **labels("ListLegalMoves", "OK")) > 0
    buckets = sorted(float(dict(k[1])["le"]) for k in after
                     if k[0] == "grpc_server_handling_seconds_bucket" and dict(k[1])["grpc_code"] == "OK"
                     and dict(k[1])["grpc_method"] == "ListLegalMoves")
    assert buckets[0] == 0.005 and buckets[-2] == 10.0  # Prometheus' default buckets, as in Go
    assert not any(name.endswith("_created") for name, _ in after)


def test_engine_series(stub, scrape):
    before = scrape()
    response = stub.ListLegalMoves(api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID),
                                                             dice=[1, 1]), timeout=TIMEOUT)
    stub.ApplyMove(api.ApplyMoveRequest(position=pb.Position(position_id=START_ID), dice=[5, 1],
                                        move=pb.Move(notation="24/23 13/8")), timeout=TIMEOUT)
    after = scrape()

    def delta(name, **lbl):
        return value(after, name, **lbl) - value(before, name, **lbl)

    assert delta("tavla_legal_moves_count") == 1
    assert delta("tavla_legal_moves_sum") == len(response.moves) == 42
    assert delta("tavla_legal_moves_bucket", le="50.0") == 1 and delta("tavla_legal_moves_bucket", le="20.0") == 0
    assert delta("tavla_move_generation_seconds_count", grpc_method="ListLegalMoves") == 1
    assert delta("tavla_move_generation_seconds_count", grpc_method="ApplyMove") == 1
    assert value(after, "tavla_rpcs_in_flight") == 0


class Held(RulesService):
    """ListLegalMoves waits for the test before it answers."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.go = threading.Event(), threading.Event()

    def ListLegalMoves(self, request, context):
        self.started.set()
        self.go.wait(TIMEOUT)
        return super().ListLegalMoves(request, context)


def test_calls_in_flight_are_counted_while_they_run_and_health_is_not(scrape):
    servicer = Held()
    engine = app.build(Config(host="127.0.0.1", port=0), by_service=by_service(servicer))
    app.start(engine)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as ch:
            from grpc_health.v1 import health_pb2, health_pb2_grpc

            assert value(scrape(), "tavla_rpcs_in_flight") == 0
            call = api.AnyStub(ch).ListLegalMoves.future(
                api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[6, 6]), timeout=TIMEOUT)
            assert servicer.started.wait(TIMEOUT)
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
            during = scrape()
            servicer.go.set()
            assert len(call.result().moves) > 0
            after = scrape()
    finally:
        engine.server.stop(None)
    # one worker: read from the limits' admission counts at the scrape, not written by each call
    assert not metrics.SHARED_FILES
    assert value(during, "tavla_rpcs_in_flight") == 1
    assert value(after, "tavla_rpcs_in_flight") == 0


def test_health_checks_are_counted_under_their_own_service(channel, scrape):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    before = scrape()
    health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
    after = scrape()
    name, lbl = "grpc_server_handled_total", {"grpc_type": "unary", "grpc_service": "grpc.health.v1.Health",
                                              "grpc_method": "Check", "grpc_code": "OK"}
    assert value(after, name, **lbl) - value(before, name, **lbl) == 1


def test_go_code_names():
    assert metrics.GO_CODE_NAMES[grpc.StatusCode.OK] == "OK"
    assert metrics.GO_CODE_NAMES[grpc.StatusCode.INVALID_ARGUMENT] == "InvalidArgument"
    assert metrics.GO_CODE_NAMES[grpc.StatusCode.DEADLINE_EXCEEDED] == "DeadlineExceeded"
    assert metrics.GO_CODE_NAMES[grpc.StatusCode.CANCELLED] == "Canceled"
    assert len(set(metrics.GO_CODE_NAMES.values())) == len(grpc.StatusCode)


def test_dashboard_queries_only_exported_series():
    import json
    import re
    from pathlib import Path

    dashboard = json.loads((Path(__file__).resolve().parents[2] / "docs" / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    assert exprs
    exported = {"grpc_server_started_total", "grpc_server_handled_total", "grpc_server_msg_received_total",
                "grpc_server_msg_sent_total", "tavla_rpcs_in_flight", "tavla_worker_info",
                "tavla_bearoff_database_ready", "up"}
    exported |= {f"{h}_{s}" for h in ("grpc_server_handling_seconds", "tavla_legal_moves",
                                      "tavla_move_generation_seconds") for s in ("bucket", "sum", "count")}
    used = {name for e in exprs for name in re.findall(r"\b(?:grpc_server_\w+|tavla_\w+|up)\b(?=\s*[{\[(])", e)}
    assert used and used <= exported


def test_the_workers_sum_leaves_out_a_file_a_worker_is_still_creating(tmp_path):
    # a worker's file as prometheus_client writes it, from a process of its own
    code = ("from prometheus_client import Counter; "
            "Counter('tavla_probe_total', 'A probe.').inc(3)")
    subprocess.run([sys.executable, "-c", code], check=True, env={"PROMETHEUS_MULTIPROC_DIR": str(tmp_path)})
    (tmp_path / "counter_999999.db").touch()  # created, not yet sized: a worker starting
    http, _thread = metrics.serve("127.0.0.1", 0, aggregate_dir=str(tmp_path))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{http.server_port}/metrics", timeout=TIMEOUT) as response:
            assert response.status == 200
            text = response.read().decode()
    finally:
        http.shutdown()
    samples = {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}
    assert samples["tavla_probe_total"] == 3.0
