"""The tavla.v1 services this server carries, read from the generated descriptors.

The 1.0 API has one service per concern (``proto/tavla/v1/*_service.proto``): ``RulesService``
(positions, moves, scoring, bear-off, pictures, roll names), ``MatchService`` (the low-level
match-play RPCs), ``RefereeService`` (NewMatch, ListActions, Act), ``RecordsService``
(ValidateMatch) and ``AnalysisService`` (moves, cube and match analysis, the computer opponent:
docs/analysis.md). One servicer object implements every method
(:class:`tavla.server.api.rules.Servicer`) and is registered once per service; every module that
needs the services, their names or a method's service (registration, health, reflection, the
HTTP port, admission, the probe) reads them from here, so adding an RPC or a service needs no
list kept by hand.

Method names are unique across the services (checked at import), so a method's bare name
(``"ApplyMove"``) also names its service.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor

from tavla.v1 import (analysis_service_pb2, analysis_service_pb2_grpc, match_service_pb2, match_service_pb2_grpc, records_service_pb2, records_service_pb2_grpc,
                      referee_service_pb2, referee_service_pb2_grpc, rules_service_pb2, rules_service_pb2_grpc)


@dataclass(frozen=True, slots=True)
class Service:
    """One tavla.v1 service: its descriptor and the generated function that registers a
    servicer for it (``add_<Name>Servicer_to_server(servicer, server)``)."""

    descriptor: ServiceDescriptor
    add_to_server: Callable[[Any, Any], None]

    @property
    def name(self) -> str:
        """The full name, e.g. ``"tavla.v1.RulesService"``."""
        full_name: str = self.descriptor.full_name
        return full_name


def _service(module: Any, grpc_module: Any, name: str) -> Service:
    return Service(module.DESCRIPTOR.services_by_name[name], getattr(grpc_module, f"add_{name}Servicer_to_server"))


#: Every tavla.v1 service, in the order the docs list them.
SERVICES: tuple[Service, ...] = (
    _service(rules_service_pb2, rules_service_pb2_grpc, "RulesService"),
    _service(match_service_pb2, match_service_pb2_grpc, "MatchService"),
    _service(referee_service_pb2, referee_service_pb2_grpc, "RefereeService"),
    _service(records_service_pb2, records_service_pb2_grpc, "RecordsService"),
    _service(analysis_service_pb2, analysis_service_pb2_grpc, "AnalysisService"),
)
#: Their full names, e.g. ``"tavla.v1.RulesService"``.
NAMES: tuple[str, ...] = tuple(s.name for s in SERVICES)
RULES, MATCH, REFEREE, RECORDS, ANALYSIS = NAMES


def _methods() -> Mapping[str, MethodDescriptor]:
    found: dict[str, MethodDescriptor] = {}
    for service in SERVICES:
        for method in service.descriptor.methods:
            if method.name in found:
                raise RuntimeError(f"{method.name} is in {found[method.name].containing_service.full_name} "
                                   f"and {service.name}: method names must be unique across tavla.v1")
            found[method.name] = method
    return MappingProxyType(found)


#: Every method by its bare name, e.g. ``METHODS["ApplyMove"].containing_service.full_name``.
METHODS: Mapping[str, MethodDescriptor] = _methods()


def path(method: str) -> str:
    """The gRPC path of a method by its bare name: ``"ApplyMove"`` ->
    ``"/tavla.v1.RulesService/ApplyMove"``.

    :raises KeyError: no tavla.v1 service has that method.
    """
    return f"/{METHODS[method].containing_service.full_name}/{method}"


def service_of(method: str) -> str:
    """The full name of the service of a method by its bare name (``"Act"`` ->
    ``"tavla.v1.RefereeService"``).

    :raises KeyError: no tavla.v1 service has that method.
    """
    full_name: str = METHODS[method].containing_service.full_name
    return full_name
