"""A whole match played through the tavla.v1 services (StartGame, ListCubeActions,
ApplyCubeAction, ListLegalMoves, ApplyMove, OfferResignation, AnswerResignation,
UpdateMatch; R3, R18-R21), recorded with tavla.formats.recorder, exported as .mat and .sgf,
read back the same, checked by ValidateMatch, and imported by gnubg as the match played."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tavla.formats import content
from tavla.formats.matwriter import write_match
from tavla.formats.recorder import MatchRecorder
from tavla.formats.sgfreader import parse_sgf
from tavla.formats.sgfwriter import write_sgf
from tavla.formats.matreader import Roll, parse_match
import rpc_api as api
from tavla.v1 import dice_pb2, match_pb2
from tavla.v1 import types_pb2 as pb
from tavla.v1 import validate_pb2 as vpb

TIMEOUT = 30
RULES = pb.Ruleset(preset="international")


def play_match(engine, length: int, seed: int) -> tuple[MatchRecorder, api.UpdateMatchResponse]:
    rng = random.Random(seed)
    call = lambda name, request: getattr(engine, name)(request, timeout=TIMEOUT)  # noqa: E731
    record = MatchRecorder(length, ("Ann", "Bob"), {"Crawford": "On", "CubeLimit": "64"})
    match = match_pb2.MatchState(length=length)
    while True:
        record.start_game((match.white_score, match.black_score))
        # the frontend throws the dice itself (seeded), so a seed replays the same match
        white, black = rng.sample(range(1, 7), 2)
        start = call("StartGame", api.StartGameRequest(ruleset=RULES, match=match, given=api.GivenStartDice(
            roll_off=[dice_pb2.RollOffThrow(white_die=white, black_die=black)])))
        position, dice, ended = start.position, list(start.dice), None
        while ended is None:
            side = position.on_roll
            if not dice:
                options = call("ListCubeActions", api.ListCubeActionsRequest(ruleset=RULES, match=match, side=side))
                if match_pb2.CUBE_ACTION_DOUBLE in options.actions and rng.random() < 0.1:
                    offered = call("ApplyCubeAction", api.ApplyCubeActionRequest(
                        ruleset=RULES, match=match, side=side, action=match_pb2.CUBE_ACTION_DOUBLE))
                    record.double(side, 2 * max(match.cube.value, 1))
                    answer = rng.choice([match_pb2.CUBE_ACTION_TAKE, match_pb2.CUBE_ACTION_TAKE,
                                         match_pb2.CUBE_ACTION_DROP])
                    answered = call("ApplyCubeAction", api.ApplyCubeActionRequest(
                        ruleset=RULES, match=offered.match, side=3 - side, action=answer))
                    (record.take if answer == match_pb2.CUBE_ACTION_TAKE else record.drop)(3 - side)
                    match = answered.match
                    if answered.HasField("outcome"):
                        ended = answered.outcome
                        break
                if rng.random() < 0.01:
                    offer = match_pb2.ResignationOffer(side=side, kind=rng.choice([1, 2]))
                    response = call("AnswerResignation", api.AnswerResignationRequest(
                        ruleset=RULES, match=match, offer=offer, accept=True))
                    ended = response.outcome
                    break
                dice = [rng.randint(1, 6), rng.randint(1, 6)]
            moves = call("ListLegalMoves", api.ListLegalMovesRequest(ruleset=RULES, position=position, dice=dice)).moves
            chosen = rng.choice(list(moves))
            applied = call("ApplyMove", api.ApplyMoveRequest(ruleset=RULES, position=position, dice=dice,
                                                            move=pb.Move(notation=chosen.notation)))
            record.roll(side, (dice[0], dice[1]), applied.move.notation)
            dice, position = [], applied.move.result
            if applied.HasField("outcome"):
                ended = applied.outcome
        update = call("UpdateMatch", api.UpdateMatchRequest(ruleset=RULES, match=match, outcome=ended))
        over = update.match.winner != pb.SIDE_UNSPECIFIED
        record.win(ended.winner, update.outcome.points, over)
        match = update.match
        if over:
            return record, update


def varied_match(engine, length: int, seed: int) -> tuple[MatchRecorder, api.UpdateMatchResponse]:
    """The first match from ``seed`` on with three games or more and a double, a take and a drop
    (which seeds give one depends on the order the engine lists moves in)."""
    for tried in range(seed, seed + 40):
        record, final = play_match(engine, length, tried)
        played = record.match()
        kinds = {type(a).__name__ for g in played.games for a in g.actions}
        if len(played.games) >= 3 and {"Double", "Take", "Drop"} <= kinds:
            return record, final
    raise AssertionError(f"no seed in {seed}..{seed + 39} plays a varied {length}-point match")


@pytest.mark.parametrize(("length", "seed"), [(5, 11), (7, 4)])
def test_a_match_played_through_the_rpcs_exports_and_reimports(engine, length, seed):
    record, final = varied_match(engine, length, seed)
    played = record.match()
    assert final.match.winner != pb.SIDE_UNSPECIFIED and len(played.games) >= 3
    kinds = {type(a).__name__ for g in played.games for a in g.actions}
    assert {"Roll", "Double", "Take", "Drop", "Win"} <= kinds  # these seeds double, take and drop
    text = write_match(played)
    again = parse_match(text, "played.mat")
    assert content(again) == content(played)
    sgf = parse_sgf(write_sgf(played), "played.sgf")
    assert [g.score for g in sgf.games] == [g.score for g in played.games]
    # the service agrees with the record it produced
    requests = [vpb.ValidateMatchRequest(source="played.mat", chunk=text.encode())]
    responses = list(engine.ValidateMatch(iter(requests), timeout=120))
    verdict = responses[-1].record
    assert verdict.readable and not verdict.disagreements, verdict.disagreements
    assert (verdict.white_score, verdict.black_score) == (final.match.white_score, final.match.black_score)
    assert verdict.match_winner == final.match.winner and not verdict.unfinished
    assert verdict.plays_checked == sum(isinstance(a, Roll) for g in played.games for a in g.actions)


def _net(pairs) -> tuple:
    """What a move does: the points it leaves and the points it reaches (bar 25, off 0)."""
    froms, tos = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    return tuple(sorted((froms - tos).elements())), tuple(sorted((tos - froms).elements()))


def _pairs(play: str) -> list[tuple[int, int]]:
    out = []
    for word in play.replace("*", "").split():
        count = int(word[-2]) if word.endswith(")") else 1
        points = [25 if p == "bar" else 0 if p == "off" else int(p) for p in word.split("(")[0].split("/")]
        out += [(a, b) for a, b in zip(points, points[1:])] * count
    return out


def test_gnubg_imports_the_played_match(engine, tmp_path, capfd):
    gnubg = pytest.importorskip("gnubg")
    record, final = varied_match(engine, 5, 11)
    played = record.match()
    path = tmp_path / "played.mat"
    path.write_text(write_match(played), encoding="utf-8")
    gnubg.command(f"import mat {path}")
    games = gnubg.match(0, 0, 0, 0)["games"]
    capfd.readouterr()
    assert len(games) == len(played.games)
    for ours, theirs in zip(played.games, games):
        rolls = [a for a in ours.actions if isinstance(a, Roll)]
        moves = [r for r in theirs["game"] if r["action"] == "move"]
        assert [tuple(r["dice"]) for r in moves] == [a.dice for a in rolls]
        for theirs_move, roll in zip(moves, rolls):
            pairs = [tuple(p) for p in theirs_move["move"] or ()]
            if any(b == 0 for _, b in _pairs(roll.play)):  # gnubg cuts a move at its first bear-off
                assert not pairs or pairs[0][0] in {a for a, _ in _pairs(roll.play)}
            else:
                assert _net(pairs) == _net(_pairs(roll.play)), (pairs, roll.play)
        assert theirs["info"]["winner"] == ("X" if ours.actions[-1].player == 1 else "O")
