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
