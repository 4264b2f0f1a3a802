"""The tavla.v1 services for tests: every request and response message (and MoveView) in one
namespace, and :class:`AnyStub`, which calls any RPC by name on its service's generated stub.

    import rpc_api as api
    api.ApplyMoveRequest(...)            # whichever *_service.proto defines it
    engine = api.AnyStub(channel)        # engine.ApplyMove(request) -> RulesService/ApplyMove

Tests of the service split itself (tests/server/test_server.py) use the generated stubs and names.
"""

from __future__ import annotations

from typing import Any

import grpc

from tavla.server.api import services
from tavla.v1 import (analysis_service_pb2_grpc, match_service_pb2_grpc, records_service_pb2_grpc, referee_service_pb2_grpc,
                      rules_service_pb2_grpc)
from tavla.v1.analysis_service_pb2 import *  # noqa: F401,F403
from tavla.v1.match_service_pb2 import *  # noqa: F401,F403
from tavla.v1.records_service_pb2 import *  # noqa: F401,F403
from tavla.v1.referee_service_pb2 import *  # noqa: F401,F403
from tavla.v1.rules_service_pb2 import *  # noqa: F401,F403

_STUB_CLASSES = {
    services.RULES: rules_service_pb2_grpc.RulesServiceStub,
    services.MATCH: match_service_pb2_grpc.MatchServiceStub,
    services.REFEREE: referee_service_pb2_grpc.RefereeServiceStub,
    services.RECORDS: records_service_pb2_grpc.RecordsServiceStub,
    services.ANALYSIS: analysis_service_pb2_grpc.AnalysisServiceStub,
}


class AnyStub:
    """Every tavla.v1 RPC on one channel: ``stub.Act(request)`` calls ``RefereeService/Act``.

    :param channel: a gRPC channel (sync or aio).
    :raises AttributeError: on use of a name no service has.
    """

    def __init__(self, channel: grpc.Channel | Any) -> None:
        self.stubs = {name: cls(channel) for name, cls in _STUB_CLASSES.items()}

    def __getattr__(self, name: str) -> Any:
        if name not in services.METHODS:
            raise AttributeError(name)
        return getattr(self.stubs[services.service_of(name)], name)


def path(method: str) -> str:
    """``"ApplyMove"`` -> ``"/tavla.v1.RulesService/ApplyMove"``."""
    return services.path(method)
