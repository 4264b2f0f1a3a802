"""The ErrorReason enum (proto/tavla/v1/error_reason.proto) is exactly the set of ErrorInfo
reasons the server can send: every reason a core or server error class carries, and GAME_OVER.
A reason added to the code without the enum, or left in the enum after the code dropped it,
fails here (AIP-193: the enum documents the reasons clients may switch on)."""

from __future__ import annotations

import enum

import pytest
from google.rpc import error_details_pb2

from tavla.core import IllegalMoveError
from tavla.core.errors import IllegalReason
from tavla.core.match.violations import ActionReason, IllegalActionError
from tavla.server.convert import status as errors
from tavla.referee import keys as state_keys
from tavla.v1 import error_reason_pb2

ENUM = error_reason_pb2.ErrorReason


def reasons_in_code() -> set[str]:
    """Every ErrorInfo reason the code can raise: the str enums of reasons, and GAME_OVER."""
    found = {errors.GAME_OVER}
    for reasons in (IllegalReason, ActionReason, state_keys.StateReason):
        assert issubclass(reasons, str) and issubclass(reasons, enum.Enum)
        found |= {member.value for member in reasons}
    return found


def test_the_enum_names_are_the_reasons_the_code_sends() -> None:
    names = set(ENUM.keys()) - {"ERROR_REASON_UNSPECIFIED"}
    code = reasons_in_code()
    assert names - code == set(), "in ErrorReason, raised nowhere"
    assert code - names == set(), "raised, missing from ErrorReason"
    assert ENUM.Value("ERROR_REASON_UNSPECIFIED") == 0


def test_every_rule_error_class_uses_a_listed_enum() -> None:
    # each RuleError subclass of the core and the server takes its reason from one of the enums
    # reasons_in_code reads (a new class with a new enum must be added there)
    from tavla.core.errors import RuleError

    listed = (IllegalReason, ActionReason, state_keys.StateReason)

    def subclasses(cls: type) -> set[type]:
        return {cls, *(c for sub in cls.__subclasses__() for c in subclasses(sub))}

    import tavla.server.api.rules  # noqa: F401  (imports every module that defines one)

    for cls in subclasses(RuleError) - {RuleError}:
        hints = getattr(cls.__init__, "__annotations__", {})
        reason = hints.get("reason")
        assert reason is not None, cls
        assert any(getattr(r, "__name__", None) in str(reason) for r in listed), (cls, reason)


@pytest.mark.parametrize(("error", "reason"), [
    (IllegalMoveError(IllegalReason.POINT_BLOCKED, "13/7 lands on a point black holds (R5)"), "POINT_BLOCKED"),
    (IllegalActionError(ActionReason.NO_CLOCK, "no clock"), "NO_CLOCK"),
    (state_keys.StateError(state_keys.StateReason.STATE_UNSIGNED, "unsigned"), "STATE_UNSIGNED"),
])
def test_the_status_carries_the_enum_name(error: Exception, reason: str) -> None:
    status = errors.status_for(error)
    assert status is not None
    infos = []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            infos.append(info)
    assert [(i.reason, i.domain) for i in infos] == [(reason, "tavla.v1")]
    assert ENUM.Name(ENUM.Value(reason)) == reason
