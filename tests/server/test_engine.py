"""The engine behind every transport (tavla.server.api.engine), its servicers by service, and the
call context they see (tavla.server.api.context)."""

from __future__ import annotations

import grpc
import pytest

from tavla.core.rules.backgammon import Backgammon
from tavla.server.api import deadline, servicers, services
from tavla.server.api.context import CallAborted, LocalCall
from tavla.server.api.engine import Engine
from tavla.server.api.generator import MoveGenerator
from tavla.v1 import rules_service_pb2 as api
from tavla.v1 import types_pb2 as pb

START_ID = "4HPwATDgc/ABMA"


class Recording:
    """An observer that keeps what the engine reports."""

    def __init__(self) -> None:
        self.seconds: list[tuple[str, float]] = []
        self.counts: list[int] = []

    def move_generation_seconds(self, method: str, seconds: float) -> None:
        self.seconds.append((method, seconds))

    def legal_moves_returned(self, count: int) -> None:
        self.counts.append(count)


@pytest.fixture
def pure_engine():
    observer = Recording()
    engine = Engine(generator=MoveGenerator.pure(), observer=observer, analysis_processes=0)
    yield engine, observer
    MoveGenerator.from_env().install()  # the pure engine took the core's generator


def test_one_servicer_per_service_over_one_engine(pure_engine):
    engine, _ = pure_engine
    by_service = servicers.for_engine(engine)
    assert list(by_service) == list(services.NAMES)
    assert [type(s).__name__ for s in by_service.values()] == [
        "RulesService", "MatchService", "RefereeService", "RecordsService", "AnalysisService"]
    assert all(s.engine is engine for s in by_service.values())
    # each answers its own service's methods only
    assert hasattr(by_service[services.RULES], "NameRoll") and not hasattr(by_service[services.RULES], "Act")


def test_the_engine_installs_its_generator_and_reports_to_its_observer(pure_engine):
    engine, observer = pure_engine
    assert Backgammon.compiled_generate is None  # built pure: the core's own generator
    rules = servicers.RulesService(engine)
    request = api.ListLegalMovesRequest(position=pb.Position(position_id=START_ID), dice=[1, 1])
    answer = rules.list_legal_moves(request, LocalCall())
    assert len(answer.moves) == 42
    assert observer.counts == [42] and [m for m, _ in observer.seconds] == ["ListLegalMoves"]


def test_a_call_past_its_deadline_aborts_with_the_grpc_code():
    call = LocalCall(timeout=-1.0)
    with pytest.raises(CallAborted) as info:
        deadline.check_deadline(call)
    assert (info.value.code, info.value.details) == (grpc.StatusCode.DEADLINE_EXCEEDED, deadline.PASSED)
    assert call.code() is grpc.StatusCode.DEADLINE_EXCEEDED and not call.is_active()


def test_the_locale_comes_from_the_metadata():
    assert LocalCall([("x-tavla-locale", "tr")]).locale() == "tr"
    assert LocalCall().locale() == "en"


def test_a_kept_call_keeps_the_status_it_was_ended_with():
    call = LocalCall([("x-request-id", "r1")], peer="ipv4:10.0.0.1:5")
    assert (call.code(), call.details(), call.protocol(), call.peer()) == (None, "", "local", "ipv4:10.0.0.1:5")
    detail = ("grpc-status-details-bin", b"\x08\x03")
    with pytest.raises(CallAborted) as info:
        call.abort_with_status(_Status(grpc.StatusCode.INVALID_ARGUMENT, "bad field", (detail,)))
    assert (info.value.code, info.value.details) == (grpc.StatusCode.INVALID_ARGUMENT, "bad field")
    assert (call.code(), call.details(), call.trailing_metadata()) == (
        grpc.StatusCode.INVALID_ARGUMENT, "bad field", (detail,))


def test_a_kept_call_whose_client_went_away_is_not_active():
    call = LocalCall(timeout=60.0)
    assert call.is_active() and 0 < (call.time_remaining() or 0) <= 60
    call.went_away()
    assert not call.is_active() and (call.time_remaining() or 0) > 0


def test_the_http_ports_context_is_a_kept_call_read_as_the_interceptors_read_grpcs():
    from tavla.server.admission.calls import protocol_of
    from tavla.server.http.app import HttpContext

    context = HttpContext("grpc-web", {"x-tavla-locale": "tr"}, "ipv4:127.0.0.1:1", None)
    assert protocol_of(context) == "grpc-web" and context.locale() == "tr"
    assert context.invocation_metadata() == (("x-tavla-locale", "tr"),)
    with pytest.raises(CallAborted):
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "full")
    assert (context.code(), context.details()) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "full")
    assert protocol_of(object()) == "grpc"  # gRPC's own context: not one of ours


def test_the_servers_engine_is_the_one_under_every_servicer(pure_engine):
    engine, _ = pure_engine
    assert servicers.engine_of(servicers.for_engine(engine)) is engine
    mixed = {**servicers.for_engine(engine), services.RULES: servicers.RulesService(Engine(analysis_processes=0))}
    with pytest.raises(ValueError, match="different engines"):
        servicers.engine_of(mixed)
    partial = servicers.for_engine(engine)
    del partial[services.ANALYSIS]
    with pytest.raises(ValueError, match="no servicer for tavla.v1.AnalysisService"):
        servicers.engine_of(partial)


def test_a_test_replaces_one_service_and_keeps_its_engine(pure_engine):
    from engine_servicers import by_service

    engine, _ = pure_engine

    class Failing(servicers.RulesService):
        pass

    failing = Failing(engine)
    chosen = by_service(failing)
    assert chosen[services.RULES] is failing and servicers.engine_of(chosen) is engine
    assert [type(s).__name__ for s in chosen.values()][1:] == [
        "MatchService", "RefereeService", "RecordsService", "AnalysisService"]
    with pytest.raises(ValueError, match="two servicers"):
        by_service(failing, Failing(engine))


class _Status:
    """A grpc.Status: its code, details and trailing metadata."""

    def __init__(self, code: grpc.StatusCode, details: str, trailing_metadata: tuple) -> None:
        self.code, self.details, self.trailing_metadata = code, details, trailing_metadata
