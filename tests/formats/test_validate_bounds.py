"""ValidateMatch's bounds: what a stream may make the server hold and how much work its bytes
cost (a blank stream in the default format was buffered whole and re-copied on every message),
and record values a verdict cannot carry refused as a record error, never INTERNAL."""

from __future__ import annotations

import grpc
import pytest

from tavla.analysis.review import analyze_mat, analyze_sgf
from tavla.core import InvalidInputError
from tavla.formats.sgfreader import SgfSplitter
from tavla.replay.engines import LocalEngine
from tavla.replay.validate import RecordVerdict, StreamValidator
from tavla.v1 import validate_pb2 as pb

ENGINE = LocalEngine()
MAT = b" 3 point match\n\n Game 1\n A : 0                  B : 0\n  1) 31: 8/5 6/5\n"
SGF = b"(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b];W[31hkfj])"


@pytest.mark.parametrize("blank", [b" ", b"\t", b"\n", b" \r\n "])
def test_a_blank_stream_in_the_default_format_is_bounded_and_linear(blank):
    validator = StreamValidator(ENGINE, "blank", "auto", max_line=1000)
    fed = 0
    for _ in range(20_000):
        assert validator.feed(blank) == []
        fed += len(blank)
        assert validator.buffered() <= 1001
    assert validator.copied <= fed  # each byte copied at most once: not once per message


def test_a_long_blank_line_then_a_record_is_a_line_too_long_and_the_next_record_is_read():
    validator = StreamValidator(ENGINE, "blank.mat", "auto", max_line=1000)
    for _ in range(3000):
        validator.feed(b" ")
    verdicts = validator.feed(b"x\n" + MAT) + validator.close()
    records = [v for v in verdicts if isinstance(v, RecordVerdict)]
    assert "a line longer than 1000 bytes" in records[0].error
    assert records[1].readable and records[1].report.games == 1


def test_leading_blanks_still_sniff_the_format():
    for data, games in ((b"  \n \t" + MAT, 1), (b"\n\n  " + SGF, 1)):
        validator = StreamValidator(ENGINE, "x", "auto")
        verdicts = [v for piece in (data[:3], data[3:6], data[6:]) for v in validator.feed(piece)]
        (record,) = [v for v in verdicts + validator.close() if isinstance(v, RecordVerdict)]
        assert record.readable and record.report.games == games


def test_a_long_line_fed_a_byte_at_a_time_is_scanned_once():
    validator = StreamValidator(ENGINE, "long.mat", "mat", max_line=50_000)
    validator.feed(b" 3 point match\n")
    for _ in range(40_000):
        validator.feed(b"x")
    assert validator.copied <= 15 + 40_000


def test_sgf_blanks_between_trees_are_not_kept():
    splitter = SgfSplitter(max_tree=1000)
    for _ in range(5000):
        assert list(splitter.feed(b" \n")) == []
    assert len(splitter.buffer) == 0
    assert list(splitter.feed(SGF)) == [SGF]


def test_events_after_the_sgf_format_get_verdicts():
    validator = StreamValidator(ENGINE, "events", "sgf")
    validator.start_record(1, ("a", "b"), {})
    validator.start_game(1, (0, 0))
    game, record = validator.close()
    assert isinstance(record, RecordVerdict) and record.report is not None and record.report.length == 1


@pytest.mark.parametrize(("data", "fmt", "error"), [
    (b" 4294967297 point match\n\n Game 1\n A : 0   B : 0\n", "auto",
     "x:1: match length 4294967297 is outside 1..64 (0: a money session)"),
    (b" 65 point match\n\n Game 1\n A : 0   B : 0\n", "mat", "x:1: match length 65 is outside 1..64"),
    (b" 3 point match\n\n Game 4294967297\n A : 0   B : 0\n", "mat", "x:3: game number 4294967297 is outside 1..99999"),
    (b" 3 point match\n\n Game " + b"9" * 5000 + b"\n", "mat", "x:3: game number 99999999999999999999 is outside"),
    (SGF.replace(b"length:3", b"length:4294967297"), "sgf", "x:1: MI length 4294967297 is outside 1..64"),
    (SGF.replace(b"game:0", b"game:" + b"7" * 5000), "sgf", "x:1: MI game 77777777777777777777 is outside"),
])
def test_a_length_outside_1_to_64_is_a_record_error(data, fmt, error):
    validator = StreamValidator(ENGINE, "x", fmt)
    verdicts = validator.feed(data) + validator.close()
    assert verdicts[0].error.startswith(error)


def test_a_money_session_of_length_0_is_still_read():
    validator = StreamValidator(ENGINE, "x", "mat")
    verdicts = validator.feed(MAT.replace(b" 3 point", b" 0 point")) + validator.close()
    assert verdicts[-1].readable and verdicts[-1].report.money


def test_analysis_refuses_a_length_over_64_naming_the_field():
    with pytest.raises(InvalidInputError) as info:
        analyze_mat(MAT.replace(b" 3 point", b" 4294967297 point").decode())
    assert info.value.field == "mat" and "line 1: match length 4294967297 is outside 1..64" in str(info.value)
    with pytest.raises(InvalidInputError) as info:
        analyze_sgf(SGF.replace(b"length:3", b"length:4294967297"))
    assert info.value.field == "sgf" and "MI length 4294967297 is outside 1..64" in str(info.value)


# --- over gRPC ----------------------------------------------------------------------------------
def _records(engine, reqs):
    return [r.record for r in engine.ValidateMatch(iter(reqs), timeout=30) if r.HasField("record")]


def test_sgf_format_then_events_is_not_internal(engine):
    reqs = [pb.ValidateMatchRequest(format=pb.RECORD_FORMAT_SGF,
                                    event=pb.RecordEvent(record=pb.RecordStart(length=1))),
            pb.ValidateMatchRequest(event=pb.RecordEvent(game=pb.RecordedGameStart(number=1)))]
    (record,) = _records(engine, reqs)
    assert record.readable and record.length == 1


@pytest.mark.parametrize(("fmt", "data"), [(pb.RECORD_FORMAT_UNSPECIFIED, MAT.replace(b" 3 point", b" 4294967297 point")),
                                           (pb.RECORD_FORMAT_SGF, SGF.replace(b"length:3", b"length:4294967297"))])
def test_a_huge_length_is_an_unreadable_record_not_internal(engine, fmt, data):
    (record,) = _records(engine, [pb.ValidateMatchRequest(format=fmt, chunk=data)])
    assert not record.readable and "length 4294967297 is outside 1..64" in record.error


def test_a_workers_streams_together_are_refused_once_over_the_budget():
    from tavla.server.api.buffers import BufferFull, ByteBudget
    from tavla.server.api.records import validate_stream

    budget = ByteBudget(cap=3000)
    tree = pb.ValidateMatchRequest(format=pb.RECORD_FORMAT_SGF, chunk=b"(;C[" + b"x" * 1996)
    seen = []

    def first():
        yield tree
        seen.append(budget.held)  # the first stream holds its unfinished tree
        with pytest.raises(BufferFull, match="already hold 2000 bytes .* 3000 is its limit"):
            list(validate_stream(iter([tree]), budget=budget))  # a second one on top is refused
        seen.append(budget.held)
        small = pb.ValidateMatchRequest(format=pb.RECORD_FORMAT_SGF, chunk=b"(;C[" + b"x" * 500)
        list(validate_stream(iter([small]), budget=budget))  # under the budget: read
        seen.append(budget.held)

    responses = list(validate_stream(first(), budget=budget))
    assert seen == [2000, 2000, 2000] and budget.held == 0
    assert "ends inside a game tree" in responses[-1].record.error


def test_a_stream_over_the_workers_budget_is_resource_exhausted(engine, monkeypatch):
    from tavla.server.api.buffers import ByteBudget
    from tavla.server.api import records

    monkeypatch.setattr(records, "BUFFERS", ByteBudget(cap=1000))
    reqs = [pb.ValidateMatchRequest(format=pb.RECORD_FORMAT_SGF, chunk=b"(;C[" + b"x" * 2000)]
    with pytest.raises(grpc.RpcError) as info:
        list(engine.ValidateMatch(iter(reqs), timeout=30))
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "1000 is its limit" in info.value.details()
