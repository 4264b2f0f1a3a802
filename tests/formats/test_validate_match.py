"""ValidateMatch (proto/tavla/v1/validate.proto), in process (tavla.replay.validate) and over
gRPC: the 79 real records of tests/data/matches and the quirk files (provenance in its README)
streamed in pieces; every game's verdict as expected, no false disagreement on an unfinished
record, the first illegal play with its reason and position ID, events instead of bytes,
SGF, several records in one stream, and bad input answered INVALID_ARGUMENT."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavla.formats.sgfwriter import write_sgf
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import Double, Drop, Loss, Roll, Take, Win, read_match
from tavla.replay.validate import GameVerdict, RecordVerdict, StreamValidator, validate_bytes
from tavla.v1 import types_pb2 as pb_types
from tavla.v1 import validate_pb2 as pb

DATA = Path(__file__).parent.parent / "data" / "matches"
RECORDS = sorted(DATA.glob("*.mat"))
QUIRKS = sorted((DATA / "quirks").glob("*.mat"))
ENGINE = LocalEngine()


def chunks(data: bytes, size: int = 4096):
    return [data[i:i + size] for i in range(0, len(data), size)]


def requests(data: bytes, source: str = "", fmt=pb.RECORD_FORMAT_UNSPECIFIED, rules=pb.VALIDATION_RULES_UNSPECIFIED,
             size: int = 4096):
    yield pb.ValidateMatchRequest(format=fmt, rules=rules, source=source)
    for piece in chunks(data, size):
        yield pb.ValidateMatchRequest(chunk=piece)


def archive(paths) -> bytes:
    return b"\n".join(p.read_bytes() for p in paths)


def test_the_79_records_as_one_archive_in_process():
    verdicts = list(validate_bytes(chunks(archive(RECORDS), 1000), ENGINE, "archive.mat"))
    games = [v for v in verdicts if isinstance(v, GameVerdict)]
    records = [v for v in verdicts if isinstance(v, RecordVerdict)]
    assert len(records) == 79 and len(games) == 629
    assert all(r.readable and r.report.ok and not r.report.unfinished for r in records)
    assert all(g.result.ok and g.result.points_agree and g.result.score_agree for g in games)
    assert sum(g.result.counts["plays"] for g in games) == sum(r.report.plays for r in records) == 25591
    # a record's verdict comes after its games: game verdicts stream out as games complete
    assert [v.record for v in verdicts] == sorted(v.record for v in verdicts)


@pytest.mark.parametrize(("name", "games", "plays", "unfinished", "money", "notes"), [
    ("match0121.mat", 1, 45, True, False, ["unfinished: the record ends after game 1 at 2-0; the match is to 8 points"]),
    ("match0444.mat", 2, 72, False, False, ["game 2: line 59: two lines run together (move number 24 repeated); read as two"]),
    ("match0551.mat", 1, 97, False, False, ["player 2 has no name"]),
    ("match1267.mat", 1, 53, False, True, ["rules assumed: money session, Jacoby on, cube limit 1024"]),
])
def test_quirk_files_over_grpc(engine, name, games, plays, unfinished, money, notes):
    responses = list(engine.ValidateMatch(requests((DATA / "quirks" / name).read_bytes(), name, size=100), timeout=60))
    game_verdicts = [r.game for r in responses if r.WhichOneof("verdict") == "game"]
    (record,) = [r.record for r in responses if r.WhichOneof("verdict") == "record"]
    assert len(game_verdicts) == games and all(g.points_agree and g.score_agree and not g.disagreements
                                               for g in game_verdicts)
    assert record.readable and not record.disagreements
    assert (record.plays_checked, record.unfinished, record.money_session) == (plays, unfinished, money)
    for note in notes:
        assert note in record.notes


def test_the_79_records_over_grpc_in_small_chunks(engine):
    responses = engine.ValidateMatch(requests(archive(RECORDS), "archive.mat", pb.RECORD_FORMAT_MAT, size=2000),
                                     timeout=300)
    games = records = plays = 0
    for response in responses:
        if response.WhichOneof("verdict") == "game":
            games += 1
            assert response.game.points_agree and response.game.score_agree, response.game.disagreements
        else:
            records += 1
            assert response.record.readable and not response.record.disagreements and not response.record.unfinished
            plays += response.record.plays_checked
    assert (records, games, plays) == (79, 629, 25591)


def test_first_illegal_play_has_reason_and_position_id(engine):
    text = (DATA / "match0000.mat").read_bytes().replace(b"65: 24/18 23/18", b"65: 23/17 24/19", 1)
    responses = list(engine.ValidateMatch(requests(text, "bad.mat"), timeout=60))
    first = responses[0].game
    assert first.game_number == 1 and not first.points_agree
    assert first.first_illegal.line == 21 and first.first_illegal.play == "65: 23/17 24/19"
    assert first.first_illegal.reason.startswith("POINT_BLOCKED")
    # after 51: 24/23 13/8 and 42: 8/4 6/4, white on roll: gnubg.positionid gives the same
    assert first.first_illegal.position_id == "mGfwATDg8+ABKA"
    assert first.disagreements[0].startswith("bad.mat:21: 65: 23/17 24/19 rejected: POINT_BLOCKED")


def test_an_unreadable_record_is_a_verdict_and_the_next_record_is_read():
    bad = b" 7 point match\n Game 1\n PlayerA : 0   PlayerB : 0\n  1) 72: 24/23\n"
    verdicts = list(validate_bytes([bad + b"\n" + (DATA / "match0001.mat").read_bytes()], ENGINE, "two.mat"))
    records = [v for v in verdicts if isinstance(v, RecordVerdict)]
    assert records[0].error.startswith("two.mat:4: bad dice '72'") and not records[0].readable
    assert records[1].readable and records[1].report.ok and records[1].record == 1


def test_sgf_stream(engine):
    text = "".join(write_sgf(read_match(p)) for p in RECORDS[:5]).encode()
    responses = list(engine.ValidateMatch(requests(text, "five.sgf", size=333), timeout=120))
    records = [r.record for r in responses if r.WhichOneof("verdict") == "record"]
    assert len(records) == 5 and all(r.readable and not r.disagreements for r in records)
    assert [r.plays_checked for r in records] == [read_plays(p) for p in RECORDS[:5]]


def read_plays(path: Path) -> int:
    return sum(isinstance(a, Roll) and a.play != "????" for g in read_match(path).games for a in g.actions)


def _events(path: Path):
    match = read_match(path)
    yield pb.ValidateMatchRequest(source=path.name, event=pb.RecordEvent(record=pb.RecordStart(
        length=match.length, white_player=match.players[0], black_player=match.players[1],
        headers=dict(match.headers))))
    for game in match.games:
        yield pb.ValidateMatchRequest(event=pb.RecordEvent(game=pb.RecordedGameStart(
            number=game.number, white_score=game.score[0], black_score=game.score[1])))
        for a in game.actions:
            if isinstance(a, Roll):
                event = pb.RecordEvent(roll=pb.RecordedRoll(player=a.player, dice=a.dice, play=a.play))
            elif isinstance(a, (Double, Take, Drop)):
                event = pb.RecordEvent(cube=pb.RecordedCube(player=a.player, action=type(a).__name__.lower(),
                                                            value=getattr(a, "value", 0)))
            else:
                event = pb.RecordEvent(result=pb.RecordedResult(player=a.player, points=a.points,
                                                                loss=isinstance(a, Loss),
                                                                match_won=isinstance(a, Win) and a.match_won))
            yield pb.ValidateMatchRequest(event=event)


def test_a_stream_of_plays(engine):
    responses = list(engine.ValidateMatch(_events(DATA / "match0045.mat"), timeout=60))
    record = responses[-1].record
    assert record.readable and not record.disagreements
    assert (record.plays_checked, record.white_score, record.black_score, record.match_winner) == (
        read_plays(DATA / "match0045.mat"), 3, 13, pb_types.SIDE_BLACK)


def _bad_request(engine, reqs) -> tuple[str, str]:
    with pytest.raises(grpc.RpcError) as info:
        list(engine.ValidateMatch(iter(reqs), timeout=30))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(info.value)
    bad = error_details_pb2.BadRequest()
    status.details[0].Unpack(bad)
    return bad.field_violations[0].field, bad.field_violations[0].description


def test_bad_input_is_invalid_argument(engine):
    assert _bad_request(engine, [pb.ValidateMatchRequest(format=7)])[0] == "format"
    assert _bad_request(engine, [pb.ValidateMatchRequest(rules=9)])[0] == "rules"
    assert _bad_request(engine, [])[0] == "request"
    mixed = [pb.ValidateMatchRequest(chunk=b" 1 point match\n"),
             pb.ValidateMatchRequest(event=pb.RecordEvent(game=pb.RecordedGameStart(number=1)))]
    assert _bad_request(engine, mixed) == ("event", "a stream carries chunks or events, not both")
    early = [pb.ValidateMatchRequest(event=pb.RecordEvent(roll=pb.RecordedRoll(player=1, dice=[3, 1])))]
    assert _bad_request(engine, early) == ("event", "an event before the record starts")
    dice = [pb.ValidateMatchRequest(event=pb.RecordEvent(record=pb.RecordStart(length=1))),
            pb.ValidateMatchRequest(event=pb.RecordEvent(game=pb.RecordedGameStart(number=1))),
            pb.ValidateMatchRequest(event=pb.RecordEvent(roll=pb.RecordedRoll(player=1, dice=[7, 1])))]
    assert _bad_request(engine, dice)[0] == "event.roll.dice"


def test_each_streamed_message_is_held_to_the_declared_contract(engine):
    # streamed messages pass no unary interceptor: the records service checks each (api-contract.md)
    long_match = [pb.ValidateMatchRequest(event=pb.RecordEvent(record=pb.RecordStart(length=2**31)))]
    assert _bad_request(engine, long_match) == ("event.record.length", "2147483648 is not 0-64")
    late = [pb.ValidateMatchRequest(event=pb.RecordEvent(record=pb.RecordStart(length=7))),
            pb.ValidateMatchRequest(event=pb.RecordEvent(record=pb.RecordStart(length=7, headers={"k": "v" * 2000})))]
    field, reason = _bad_request(engine, late)
    assert (field, reason[:24]) == ("event.record.headers", "headers['k']: is 2000 ch")


def test_memory_is_bounded_by_a_line():
    validator = StreamValidator(ENGINE, "long.mat", "mat", max_line=1000)
    verdicts = validator.feed(b" 7 point match\n" + b"x" * 5000)
    assert len(validator.pending) == 0
    assert verdicts and "a line longer than 1000 bytes" in verdicts[0].error
    tree = StreamValidator(ENGINE, "long.sgf", "sgf", max_tree=1000)
    verdicts = tree.feed(b"(;GM[6]C[" + b"x" * 5000)
    assert "a game tree longer than 1000 bytes" in verdicts[0].error


def test_empty_stream_is_unreadable():
    (verdict,) = list(validate_bytes([b"", b"  \n"], ENGINE, "empty.mat"))
    assert isinstance(verdict, RecordVerdict) and "empty match record" in verdict.error


# --- never a crash: any bytes, any (mostly illegal) record --------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_matwriter import matches  # noqa: E402

from tavla.formats.matwriter import write_match  # noqa: E402


@settings(max_examples=150)
@given(matches(), st.integers(1, 300), st.sampled_from(["auto", "match", "money", "money-jacoby"]))
def test_any_record_gets_verdicts_not_a_crash(match, size, mode):
    data = write_match(match).encode()
    verdicts = list(validate_bytes(chunks(data, size), ENGINE, "gen.mat", "auto", mode))
    records = [v for v in verdicts if isinstance(v, RecordVerdict)]
    assert len(records) == 1
    games = [v for v in verdicts if isinstance(v, GameVerdict)]
    if records[0].readable:
        assert len(games) == len(match.games)
    else:  # the games before the line not understood have had their verdicts
        assert len(games) < len(match.games)


@settings(max_examples=150)
@given(st.binary(max_size=400), st.sampled_from(["auto", "mat", "sgf"]))
def test_any_bytes_get_verdicts_not_a_crash(data, fmt):
    verdicts = list(validate_bytes(chunks(data, 17), ENGINE, "junk", fmt))
    assert verdicts and isinstance(verdicts[-1], RecordVerdict)


@settings(max_examples=100)
@given(st.text(st.sampled_from("(;)[]\\WBPLDIMRE+0123456789abcxyz:GM6 \n"), max_size=200))
def test_any_sgf_like_text_gets_verdicts_not_a_crash(text):
    verdicts = list(validate_bytes([text.encode()], ENGINE, "junk.sgf", "sgf"))
    assert all(isinstance(v, (GameVerdict, RecordVerdict)) for v in verdicts)


def test_memory_is_bounded_by_a_game(monkeypatch):
    from tavla.formats.matreader import MatReader

    monkeypatch.setattr(MatReader, "MAX_ACTIONS", 50)
    long_game = b" 1 point match\n Game 1\n A : 0                  B : 0\n" + b"  1) 31: 8/5 6/5\n" * 60
    (verdict,) = list(validate_bytes([long_game], ENGINE, "long.mat"))
    assert "long.mat:54: a game longer than 50 actions" in verdict.error


def test_a_reports_lists_are_bounded(monkeypatch, engine):
    from tavla.replay import driver

    # a record's report keeps at most MAX_KEPT disagreements; each game's verdict has its own
    monkeypatch.setattr(driver, "MAX_KEPT", 2)
    text = (DATA / "match0000.mat").read_bytes().replace(b"Wins 4 point", b"Wins 3 point").replace(
        b"Wins 2 point", b"Wins 3 point")
    verdicts = list(validate_bytes([text], ENGINE, "m.mat", mode="match"))
    record = verdicts[-1].report
    per_game = [p for v in verdicts if isinstance(v, GameVerdict) for p in v.result.problems]
    assert len(record.problems) == 2 and record.dropped == len(per_game) - 2 > 0
    # the same over gRPC (the test server runs in this process)
    responses = list(engine.ValidateMatch(requests(text, "m.mat", rules=pb.VALIDATION_RULES_MATCH), timeout=60))
    over_grpc = responses[-1].record
    assert len(over_grpc.disagreements) == 2 and over_grpc.unlisted == record.dropped
