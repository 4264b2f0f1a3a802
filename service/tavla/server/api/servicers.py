"""The five servicers, one per tavla.v1 service (:mod:`tavla.server.api.services`), over one
engine: what the gRPC and HTTP ports register, and the one engine under them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

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


def engine_of(by_service: Mapping[str, EngineServicer]) -> Engine:
    """The one engine under ``by_service`` (servicers by the service's full name, as
    :func:`for_engine` builds them, or with some replaced by subclasses).

    :raises ValueError: a service has no servicer, or two servicers have different engines.
    """
    missing = [name for name in services.NAMES if name not in by_service]
    if missing:
        raise ValueError(f"no servicer for {', '.join(missing)}")
    engines = {id(by_service[name].engine): by_service[name].engine for name in services.NAMES}
    if len(engines) != 1:
        raise ValueError("the servicers are over different engines; they must share one")
    return next(iter(engines.values()))
