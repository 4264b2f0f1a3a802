"""ExportMatch (RecordsService): a match played through the referee (NewMatch / Act), its record
kept from Act's events.records, exported as .mat and .sgf by the service and read back (the .mat
reader, ValidateMatch) as the same games, plays and score; a record that does not lead to the
state's record digest refused on ``records``; a match in play exported as its games so far; the
names and headers checked; the same call over Connect JSON; signed states checked as Act checks
them (docs/match-files.md, docs/game-state.md)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from google.protobuf import json_format

from game_driver import Checker, DICE_SECRET, KEYS, SIGNER, play_match
from http_calls import connect_json, http_server
from statuses import field_violations, rich_status
from tavla.core import InvalidInputError, preset
from tavla.core.game import Action, ActionKind
from tavla.core.game import record as chain
from tavla.core.match.dice_commit import DiceKey
from tavla.formats.matreader import Double, Drop, Roll, Take, Win, parse_match
from tavla.formats.sgfreader import parse_sgf
from tavla.replay.driver import replay
from tavla.replay.engines import GrpcEngine, LocalEngine
from tavla.referee import Referee
from tavla.referee.keys import StateError, StateMode, StateReason, StateSigner
from tavla.server.api.records import export_match
import rpc_api as api
from tavla.v1 import game_pb2 as G
from tavla.v1 import records_service_pb2 as rpb
from tavla.v1 import types_pb2 as pb
from tavla.v1 import validate_pb2 as vpb

TIMEOUT = 60
INTERNATIONAL = api.NewMatchRequest(ruleset=pb.Ruleset(preset="international"), length=5)
TURKISH = api.NewMatchRequest(ruleset=pb.Ruleset(preset="turkish"), length=3)


def played(engine, request: api.NewMatchRequest, seed: int, list_every: int = 50, **weights: float) -> Checker:
    checker = Checker(None)
    play_match(engine, checker, request, seed, list_every=list_every, **weights)
    return checker



@pytest.fixture(scope="module")
def international(engine) -> Checker:
    """A 5-point international match with doubles, takes and drops (seed chosen so it has them)."""
    for seed in range(1, 30):
        checker = played(engine, INTERNATIONAL, seed, double=0.05, drop=0.4)
        kinds = {e.kind for e in checker.record}
        if {G.ACTION_KIND_DOUBLE, G.ACTION_KIND_TAKE, G.ACTION_KIND_DROP} <= kinds and checker.games >= 3:
            return checker
    raise AssertionError("no seed in 1..29 plays a 5-point match with a double, a take and a drop")


def export(engine, checker: Checker, **fields) -> rpb.ExportMatchResponse:
    request = rpb.ExportMatchRequest(state=checker.signed, records=checker.record, **fields)
    return engine.ExportMatch(request, timeout=TIMEOUT)


def validate(engine, text: str, rules=vpb.VALIDATION_RULES_MATCH) -> list[vpb.ValidateMatchResponse]:
    request = vpb.ValidateMatchRequest(format=vpb.RECORD_FORMAT_MAT, rules=rules, source="export.mat",
                                       chunk=text.encode())
    return list(engine.ValidateMatch(iter([request]), timeout=TIMEOUT))


def final_state(checker: Checker) -> G.GameState:
    return G.GameState.FromString(checker.signed.state)


def test_a_refereed_match_exports_as_mat_and_reads_back_the_same(engine, international):
    record = international.record
    answer = export(engine, international, white_player="Ann", black_player="Bob",
                    headers={"Event": "Export test", "EventDate": "2026.12.01"})
    state = final_state(international)
    assert answer.match_over and answer.media_type == "text/plain; charset=utf-8"
    assert answer.file_name == f"tavla-{state.match_id}.mat"
    match = parse_match(answer.content, "export.mat")
    assert match.length == 5 and match.players == ("Ann", "Bob")
    assert dict(match.headers) == {"Player 1": "Ann", "Player 2": "Bob", "Variation": "Backgammon",
                                   "Ruleset": "international", "Crawford": "On", "CubeLimit": "64",
                                   "Event": "Export test", "EventDate": "2026.12.01"}
    starts = [e for e in record if e.kind == G.ACTION_KIND_START_GAME]
    assert answer.games == len(match.games) == len(starts) >= 3
    # every play, in order, with its dice and its notation
    plays = [e for e in record if e.kind == G.ACTION_KIND_CONFIRM_MOVE]
    rolls = [a for g in match.games for a in g.actions if isinstance(a, Roll)]
    assert [(r.player, r.play) for r in rolls] == [(1 if e.side == pb.SIDE_WHITE else 2, e.notation) for e in plays]
    dice = [tuple(e.dice) for e in record if e.kind in (G.ACTION_KIND_START_GAME, G.ACTION_KIND_ROLL)]
    assert [r.dice for r in rolls] == dice[:len(rolls)]
    # the cube actions and the results
    cube = [type(a).__name__ for g in match.games for a in g.actions if isinstance(a, (Double, Take, Drop))]
    kinds = {G.ACTION_KIND_DOUBLE: "Double", G.ACTION_KIND_TAKE: "Take", G.ACTION_KIND_DROP: "Drop"}
    assert cube == [kinds[e.kind] for e in record if e.kind in kinds]
    wins = [g.actions[-1] for g in match.games]
    assert all(isinstance(w, Win) for w in wins) and wins[-1].match_won and not any(w.match_won for w in wins[:-1])
    assert [w.points for w in wins] == [e.outcome.points for e in record if e.HasField("outcome")]
    # the service's own check agrees: every play legal, the points and the final score
    verdict = validate(engine, answer.content)[-1].record
    assert verdict.readable and not verdict.disagreements, verdict.disagreements
    assert verdict.games == len(starts) and not verdict.unfinished
    assert (verdict.white_score, verdict.black_score) == (state.match.white_score, state.match.black_score)
    assert verdict.match_winner == state.match.winner != pb.SIDE_UNSPECIFIED
    assert verdict.plays_checked == len(plays)


def test_the_same_match_exports_as_sgf(engine, international):
    answer = export(engine, international, format=rpb.EXPORT_FORMAT_SGF)
    mat = parse_match(export(engine, international).content, "export.mat")
    assert answer.file_name.endswith(".sgf") and answer.media_type == "application/x-go-sgf"
    sgf = parse_sgf(answer.content, "export.sgf")
    assert sgf.players == ("White", "Black") and sgf.length == 5
    assert [g.score for g in sgf.games] == [g.score for g in mat.games]
    assert ([[(a.player, a.dice) for a in g.actions if isinstance(a, Roll)] for g in sgf.games]
            == [[(a.player, a.dice) for a in g.actions if isinstance(a, Roll)] for g in mat.games])


def test_a_turkish_match_exports_for_validate_match(engine):
    checker = played(engine, TURKISH, 3, resign=0.002)
    answer = export(engine, checker)
    match = parse_match(answer.content, "turkish.mat")
    assert dict(match.headers)["Variation"] == "Tavla" and "CubeLimit" not in match.headers
    verdicts = validate(engine, answer.content)
    record = verdicts[-1].record
    assert record.readable and record.games == len(match.games) and not record.unfinished
    # the file's own score: the last game's, plus what it paid (capped at the length, R18)
    state, last = final_state(checker), match.games[-1]
    win = last.actions[-1]
    assert isinstance(win, Win) and win.match_won
    final = list(last.score)
    final[win.player - 1] = min(3, final[win.player - 1] + win.points)
    assert tuple(final) == (state.match.white_score, state.match.black_score)
    # ValidateMatch plays it under the Ruleset header's preset (R3-turkish start, katmerli mars
    # paid as mars, R17; no cube): nothing disagrees, and the score is the referee's
    for game in (v.game for v in verdicts if v.WhichOneof("verdict") == "game"):
        assert not game.HasField("first_illegal") and not game.disagreements, game
    assert record.rules == "turkish, 3-point match, no cube" and not record.disagreements, record
    assert (record.white_score, record.black_score) == tuple(final)


@pytest.mark.parametrize("name", ["international", "turkish", "portes", "nackgammon", "hypergammon",
                                  "plakoto", "fevga", "long_nardy", "gul_bara"])
def test_validate_match_reports_the_exported_matchs_final_score(engine, name):
    """ValidateMatch of an exported .mat plays it under the rules its headers name (Ruleset,
    Variation): the final score and winner are the referee's, for every preset."""
    checker = played(engine, api.NewMatchRequest(ruleset=pb.Ruleset(preset=name), length=3), 4, resign=0.002)
    answer = export(engine, checker)
    match = parse_match(answer.content, f"{name}.mat")
    record = validate(engine, answer.content)[-1].record
    state = final_state(checker)
    assert record.readable and record.games == len(match.games) and not record.unfinished
    assert (record.white_score, record.black_score) == (state.match.white_score, state.match.black_score)
    assert max(record.white_score, record.black_score) == 3
    assert record.match_winner == state.match.winner != pb.SIDE_UNSPECIFIED
    assert not record.disagreements, record.disagreements
    # the .sgf export too: its comment carries the same headers
    sgf = export(engine, checker, format=rpb.EXPORT_FORMAT_SGF).content
    request = vpb.ValidateMatchRequest(format=vpb.RECORD_FORMAT_SGF, rules=vpb.VALIDATION_RULES_MATCH,
                                       source=f"{name}.sgf", chunk=sgf.encode())
    from_sgf = list(engine.ValidateMatch(iter([request]), timeout=TIMEOUT))[-1].record
    assert (from_sgf.white_score, from_sgf.black_score, from_sgf.rules) == (
        record.white_score, record.black_score, record.rules) and not from_sgf.disagreements


def test_a_drawn_plakoto_game_exports_without_a_result_and_validates(engine):
    """A plakoto draw (both mothers pinned: nothing scored, the game replayed) has no word in the
    .mat format: the game ends on its last play and the next starts at the same score; ValidateMatch
    reads it as the draw and still reports the referee's final score."""
    request = api.NewMatchRequest(ruleset=pb.Ruleset(preset="plakoto"), length=3)
    for seed in range(1, 80):
        checker = played(engine, request, seed, resign=0.002)
        draws = [e for e in checker.record if e.HasField("outcome") and not e.outcome.winner]
        if draws:
            break
    else:
        raise AssertionError("no seed in 1..79 plays a plakoto match with a draw")
    answer = export(engine, checker)
    match = parse_match(answer.content, "plakoto.mat")
    starts = [e for e in checker.record if e.kind == G.ACTION_KIND_START_GAME]
    assert len(match.games) == len(starts)
    drawn = [g for g in match.games if not isinstance(g.actions[-1], Win)]
    assert len(drawn) == len(draws)
    verdicts = validate(engine, answer.content)
    record, state = verdicts[-1].record, final_state(checker)
    assert record.readable and not record.disagreements, record.disagreements
    assert (record.white_score, record.black_score) == (state.match.white_score, state.match.black_score)
    assert record.match_winner == state.match.winner
    notes = [n for v in verdicts if v.WhichOneof("verdict") == "game" for n in v.game.notes]
    assert sum("drawn" in n for n in notes) == len(draws)
    sgf = export(engine, checker, format=rpb.EXPORT_FORMAT_SGF).content
    request = vpb.ValidateMatchRequest(format=vpb.RECORD_FORMAT_SGF, rules=vpb.VALIDATION_RULES_MATCH,
                                       source="plakoto.sgf", chunk=sgf.encode())
    from_sgf = list(engine.ValidateMatch(iter([request]), timeout=TIMEOUT))[-1].record
    assert (from_sgf.white_score, from_sgf.black_score) == (record.white_score, record.black_score)
    assert not from_sgf.disagreements, from_sgf.disagreements


def test_a_tampered_record_is_refused_on_records(engine, international):
    record = list(international.record)
    changed = G.ActionRecord()
    changed.CopyFrom(record[5])
    changed.notation = "24/18 13/11" if changed.notation != "24/18 13/11" else "13/7 8/7"
    for bad in (record[:-1], record[:5] + [changed] + record[6:], record[1:], []):
        request = rpb.ExportMatchRequest(state=international.signed, records=bad)
        violations = field_violations(rich_status(engine, "ExportMatch", request))
        assert [f for f, _ in violations] == ["records"], violations
        assert "record digest" in violations[0][1]


def in_play(engine, games_wanted: int, moves_wanted: int, seed: int = 5) -> tuple[G.SignedGameState, list]:
    """A match played into game ``games_wanted``, ``moves_wanted`` moves in (the first games
    resigned at once): its state and record."""
    rng = random.Random(seed)
    response = engine.NewMatch(INTERNATIONAL)
    signed, actions, record = response.state, list(response.actions), []
    games = moves = 0
    while games < games_wanted or moves < moves_wanted:
        kinds = {a.kind for a in actions}
        if games < games_wanted and G.ACTION_KIND_RESIGN in kinds:  # end the early games at once
            action = next(a for a in actions if a.kind == G.ACTION_KIND_RESIGN)
        else:
            action = next((a for a in actions if a.kind in (
                G.ACTION_KIND_START_GAME, G.ACTION_KIND_CONFIRM_MOVE, G.ACTION_KIND_ROLL,
                G.ACTION_KIND_ACCEPT_RESIGNATION)), None) or rng.choice(
                [a for a in actions if a.kind == G.ACTION_KIND_STEP])
        answer = engine.Act(api.ActRequest(state=signed, action=action))
        signed, actions = answer.state, list(answer.actions)
        record += answer.events.records
        games += action.kind == G.ACTION_KIND_START_GAME
        moves += action.kind == G.ACTION_KIND_CONFIRM_MOVE and games == games_wanted
    return signed, record


def test_a_match_in_play_exports_its_games_so_far(engine):
    signed, record = in_play(engine, 2, 5)
    exported = engine.ExportMatch(rpb.ExportMatchRequest(state=signed, records=record), timeout=TIMEOUT)
    assert not exported.match_over and exported.games == 2
    match = parse_match(exported.content, "in-play.mat")
    first, second = match.games
    assert isinstance(first.actions[-1], Win) and not first.actions[-1].match_won
    assert second.score == ((first.actions[-1].points, 0) if first.actions[-1].player == 1
                            else (0, first.actions[-1].points))
    assert sum(isinstance(a, Roll) for a in second.actions) == 5 and not isinstance(second.actions[-1], Win)


@pytest.mark.parametrize(("fields", "field"), [
    ({"white_player": "Ann: 3"}, "white_player"),
    ({"black_player": " Bob"}, "black_player"),
    ({"black_player": "x" * 41}, "black_player"),
    ({"headers": {"Crawford": "Off"}}, "headers['Crawford']"),
    ({"headers": {"Event": 'say "hi"'}}, "headers['Event']"),
    ({"headers": {"Bad:key": "v"}}, "headers['Bad:key']"),
    ({"headers": {f"H{i}": "v" for i in range(17)}}, "headers"),
    ({"format": 7}, "format"),
])
def test_bad_names_headers_and_format_are_refused_by_field(engine, international, fields, field):
    request = rpb.ExportMatchRequest(state=international.signed, records=international.record, **fields)
    assert [f for f, _ in field_violations(rich_status(engine, "ExportMatch", request))] == [field]


def test_an_entry_the_file_cannot_hold_is_refused_by_index():
    """Mode off: a made-up record with a made-up digest passes the digest check, but a play that
    would break the file's layout is refused on its entry."""
    referee = Referee(StateSigner(StateMode.OFF, KEYS, shared=True), DiceKey(DICE_SECRET, shared=True))
    start = referee.new_match(preset("international"), "international", 3)
    assert start.signed is not None
    state = G.GameState.FromString(start.signed.state)
    entries = [G.ActionRecord(sequence=1, kind=G.ACTION_KIND_START_GAME, dice=[3, 1]),
               G.ActionRecord(sequence=2, side=pb.SIDE_WHITE, kind=G.ACTION_KIND_CONFIRM_MOVE,
                              notation="8/5 6/5\n 2) Wins 3 points")]
    state.record_digest = chain.digest_of(e.SerializeToString(deterministic=True) for e in entries)
    request = rpb.ExportMatchRequest(state=G.SignedGameState(state=state.SerializeToString(deterministic=True)),
                                     records=entries)
    with pytest.raises(InvalidInputError) as info:
        export_match(referee, request)
    assert info.value.field == "records[1].notation", info.value


def test_signed_states_are_checked_as_act_checks_them():
    """State mode require: the export of a signed state works; the same state unsigned, or
    signed by an unknown key, is refused (STATE_UNSIGNED, STATE_KEY_UNKNOWN)."""
    referee = Referee(SIGNER, DiceKey(DICE_SECRET, shared=True))
    answer = referee.new_match(preset("international"), "international", 1)
    assert answer.signed is not None
    step = referee.act(referee.open(answer.signed), Action(ActionKind.START_GAME))
    assert step.signed is not None and step.events is not None
    signed = G.SignedGameState(state=step.signed.state, key_id=step.signed.key_id, signature=step.signed.signature)
    request = rpb.ExportMatchRequest(state=signed, records=step.events.records)
    assert export_match(referee, request).games == 1
    unsigned = rpb.ExportMatchRequest(state=G.SignedGameState(state=step.signed.state), records=step.events.records)
    with pytest.raises(StateError) as info:
        export_match(referee, unsigned)
    assert info.value.reason is StateReason.STATE_UNSIGNED
    other = StateSigner(StateMode.REQUIRE, (("k9", b"\x09" * 32),), shared=True).seal(step.signed.state)
    forged = rpb.ExportMatchRequest(state=G.SignedGameState(state=other.state, key_id=other.key_id,
                                                            signature=other.signature), records=step.events.records)
    with pytest.raises(StateError) as info:
        export_match(referee, forged)
    assert info.value.reason is StateReason.STATE_KEY_UNKNOWN


def test_export_over_connect_json(engine):
    """A match in play, a game and twenty moves in (its JSON request well under the default
    64 KiB request limit), exported over Connect JSON as over gRPC."""
    signed, record = in_play(engine, 1, 20)
    request = json_format.MessageToDict(rpb.ExportMatchRequest(state=signed, records=record))
    with http_server() as port:
        status, body, _ = connect_json(port, "ExportMatch", request)
        assert status == 200, body
        assert body["fileName"].endswith(".mat") and "matchOver" not in body and body["games"] == 1
        grpc_answer = engine.ExportMatch(rpb.ExportMatchRequest(state=signed, records=record), timeout=TIMEOUT)
        assert body["content"] == grpc_answer.content
        assert sum(isinstance(a, Roll) for a in parse_match(body["content"], "json.mat").games[0].actions) == 20
        bad = dict(request, records=request["records"][:-1])
        status, body, _ = connect_json(port, "ExportMatch", bad)
        assert status == 400 and body["code"] == "invalid_argument", body
        assert "records" in body["message"]


def test_request_size_of_a_whole_match(international):
    """Not an assertion on speed: the size of the request a 5-point match makes, printed (the
    server's request limit, --max-request-bytes, is 64 KiB by default)."""
    request = rpb.ExportMatchRequest(state=international.signed, records=international.record)
    binary = len(request.SerializeToString())
    json_bytes = len(json_format.MessageToJson(request, indent=None))
    games = international.games
    print(f"5-point match: {games} games, {len(international.record)} entries, {binary} bytes binary "
          f"({binary // games} a game), {json_bytes} bytes JSON ({json_bytes // games} a game)")
    assert binary > 0 and json_bytes > binary


def test_a_gul_bara_cascade_exports_and_replays_on_both_engines(engine, server_address):
    """Gul bara's later doubles go on in the same turn (docs/variants.md, "Gul bara"): the record
    has no ROLL entry for the next throw, so ExportMatch writes it as the same player's next roll
    (d+1)-(d+1), and the replay, in process and through the RPCs, plays it as the same turn."""
    request = api.NewMatchRequest(ruleset=pb.Ruleset(preset="gul_bara"), length=3)
    checker = played(engine, request, 4, resign=0.002)
    match = parse_match(export(engine, checker).content, "gul_bara.mat")
    cascades = [(a, b) for g in match.games for a, b in zip(g.actions, g.actions[1:])
                if isinstance(a, Roll) and isinstance(b, Roll) and a.player == b.player]
    assert len(cascades) >= 3
    assert all(a.dice[0] == a.dice[1] < 6 and b.dice == (a.dice[0] + 1,) * 2 for a, b in cascades)
    state = final_state(checker)
    remote = GrpcEngine(server_address, timeout=TIMEOUT)
    try:
        for replayer in (LocalEngine(), remote):
            report = replay(match, replayer)
            assert not report.problems, report.problems[:3]
            assert report.plays == sum(isinstance(a, Roll) for g in match.games for a in g.actions)
            assert report.final_score == (state.match.white_score, state.match.black_score)
    finally:
        remote.close()
    # a record whose turn goes on with other dice is told so
    broken = match.games[0]
    a, b = next((a, b) for a, b in zip(broken.actions, broken.actions[1:])
                if isinstance(a, Roll) and isinstance(b, Roll) and a.player == b.player)
    wrong = [replace(x, dice=(1, 1)) if x is b else x for x in broken.actions]
    report = replay(replace(match, games=(replace(broken, actions=tuple(wrong)),)), LocalEngine())
    assert any("turn goes on with" in p for p in report.problems), report.problems[:3]
