"""The tavla.v1 services as the server reads them (tavla.server.api.services): the four services, every
RPC in exactly one, and the modules that route by them (admission, the HTTP port, health)."""

from __future__ import annotations

import pytest
from grpc_health.v1 import health

from tavla.server.admission import policy as admission
from tavla.server.process import app
from tavla.server.http import app as http_app
from tavla.server.api import services


def test_five_services_and_thirty_rpcs():
    assert services.NAMES == ("tavla.v1.RulesService", "tavla.v1.MatchService", "tavla.v1.RefereeService",
                              "tavla.v1.RecordsService", "tavla.v1.AnalysisService")
    assert len(services.METHODS) == 30
    assert services.service_of("SuggestAction") == "tavla.v1.AnalysisService"
    assert services.path("ApplyMove") == "/tavla.v1.RulesService/ApplyMove"
    assert services.service_of("ResolveRuleset") == "tavla.v1.MatchService"
    assert services.service_of("Act") == "tavla.v1.RefereeService"
    with pytest.raises(KeyError):
        services.path("GetRuleset")  # 0.x: now ResolveRuleset


@pytest.mark.parametrize(("method", "kind"), [
    ("/tavla.v1.RulesService/ListLegalMoves", admission.ENGINE),
    ("/tavla.v1.RefereeService/Act", admission.ENGINE),
    ("/tavla.v1.RecordsService/ValidateMatch", admission.ENGINE_STREAM),  # read from the descriptor
    ("/tavla.v1.RecordsService/ExportMatch", admission.ENGINE),
    ("/grpc.health.v1.Health/Check", admission.HEALTH),
    ("/grpc.health.v1.Health/Watch", admission.STREAM),
])
def test_admission_kinds_come_from_the_descriptors(method, kind):
    assert admission.kind_of(method) == kind


def test_the_http_port_routes_every_unary_rpc_of_every_service():
    assert http_app.STREAMING == {"/tavla.v1.RecordsService/ValidateMatch"}
    routes = http_app.engine_methods({name: _Servicer() for name in services.NAMES}, health.HealthServicer(), ())
    unary = {services.path(m) for m, d in services.METHODS.items() if not d.client_streaming}
    assert set(routes) == unary | {"/grpc.health.v1.Health/Check"}


def test_health_names_every_service():
    assert app.HEALTH_NAMES == ("", *services.NAMES)


class _Servicer:
    """Has every method name, as the real servicer does."""

    def __getattr__(self, name):
        return lambda request, context: None
