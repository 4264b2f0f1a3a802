"""Reading the rich error details of a refused call (AIP-193): the google.rpc.Status in the
trailers, its BadRequest field violations and other details."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

TIMEOUT = 30  # seconds; a readiness bound, not a speed assertion


def rich_status(engine, method: str, request) -> status_pb2.Status:
    with pytest.raises(grpc.RpcError) as info:
        getattr(engine, method)(request, timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    status = rpc_status.from_call(info.value)
    assert status is not None, "no google.rpc.Status in the trailers"
    return status


def unpack(status: status_pb2.Status, kind):
    found = []
    for detail in status.details:
        if detail.Is(kind.DESCRIPTOR):
            msg = kind()
            detail.Unpack(msg)
            found.append(msg)
    return found


def field_violations(status: status_pb2.Status) -> list[tuple[str, str]]:
    return [(v.field, v.description) for br in unpack(status, error_details_pb2.BadRequest)
            for v in br.field_violations]

