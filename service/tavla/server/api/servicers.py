"""The five servicers, one per tavla.v1 service (:mod:`tavla.server.api.services`), over one
engine: what the gRPC and HTTP ports register."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from tavla.server.api import services
from tavla.server.api.analysis import AnalysisService
from tavla.server.api.engine import Engine, EngineServicer
from tavla.server.api.match import MatchService
from tavla.server.api.records import RecordsService
from tavla.server.api.referee import RefereeService
from tavla.server.api.rules import RulesService

#: The servicer class of each service, by its full name.
CLASSES: Mapping[str, type[EngineServicer]] = MappingProxyType({
    services.RULES: RulesService, services.MATCH: MatchService, services.REFEREE: RefereeService,
    services.RECORDS: RecordsService, services.ANALYSIS: AnalysisService,
})


def for_engine(engine: Engine) -> dict[str, EngineServicer]:
    """One servicer per service (by its full name), all over ``engine``."""
    return {name: cls(engine) for name, cls in CLASSES.items()}


def every_service(servicer: Any) -> dict[str, Any]:
    """``servicer`` for every service: one object that has every method (a test's
    :class:`TavlaServicer`)."""
    return {name: servicer for name in services.NAMES}


class TavlaServicer(RulesService, MatchService, RefereeService, RecordsService, AnalysisService):
    """Every tavla.v1 RPC in one object over one engine, for tests that change one method of
    any service (:func:`every_service` registers it for each)."""
