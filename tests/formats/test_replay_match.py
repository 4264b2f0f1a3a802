"""The match-play checks of the replay (RULES.md R3, R18-R21) on the 79 real match records
(tests/data/matches, provenance in its README) and on small hand-made records: the cube actions
through the cube calls, no cube action in the Crawford game, UpdateMatch after every game against
the next game's recorded score, and the final winner."""

from __future__ import annotations

import glob
import os

from tavla.formats.match_rules import MatchRules
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import parse_match, read_match

MATCHES = sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "matches", "*.mat")))
ENGINE = LocalEngine()

HEADER = '; [Crawford "On"]\n; [CubeLimit "1024"]\n\n{length} point match\n'
SCORE = " PlayerA : {a}                          PlayerB : {b}\n"
DROP_GAME = ("  1) 31: 8/5 6/5                       Doubles => 2\n"
             "  2)  Drops                            Wins 1 point{match}\n")
RESIGN_GAME = "  1) 31: 8/5 6/5\n      Wins 1 point{match}\n"


def record(length: int, *games: tuple[int, int, str]) -> str:
    text = HEADER.format(length=length)
    for number, (a, b, body) in enumerate(games, 1):
        text += f"\n Game {number}\n" + SCORE.format(a=a, b=b) + body
    return text


def test_all_records_agree_as_matches():
    totals = dict.fromkeys(["games", "match_updates", "crawford_games", "cube_actions"], 0)
    for path in MATCHES:
        match = read_match(path)
        report = replay(match, ENGINE)
        assert report.ok, report.problems
        for key in totals:
            totals[key] += getattr(report, key)
        last = match.games[-1].actions[-1]
        assert report.match_winner == last.player  # the final winner
        assert max(report.final_score) >= match.length or report.match_winner  # the match is over
        assert MatchRules.of(match) == MatchRules(cube_limit=1024, crawford=True)
    # every game updates the match; 32 matches reach length - 1 before the end and play their
    # Crawford game without a cube action; 1,352 Doubles/Takes/Drops pass the cube calls
    assert totals == {"games": 629, "match_updates": 629, "crawford_games": 32, "cube_actions": 1352}


def test_a_hand_made_match_with_a_crawford_game():
    text = record(3, (0, 0, DROP_GAME.format(match="")), (0, 1, DROP_GAME.format(match="")),
                  (0, 2, RESIGN_GAME.format(match="")), (1, 2, RESIGN_GAME.format(match="")),
                  (2, 2, RESIGN_GAME.format(match=" and the match")))
    report = replay(parse_match(text, "crawford.mat"), ENGINE)
    assert report.ok, report.problems
    assert (report.crawford_games, report.cube_actions, report.final_score, report.match_winner) == (1, 4, (3, 2), 1)


def test_a_double_in_the_crawford_game_is_a_disagreement():
    text = record(3, (0, 0, DROP_GAME.format(match="")), (0, 1, DROP_GAME.format(match="")),
                  (0, 2, DROP_GAME.format(match=" and the match")))
    report = replay(parse_match(text, "crawford.mat"), ENGINE)
    assert any("crawford.mat:18: player 2 doubles in the Crawford game (R21)" in p and "CRAWFORD_GAME" in p
               for p in report.problems), report.problems


def test_a_dead_cube_double_is_a_disagreement():
    # post-Crawford at 1-2 in a 3-point match: player 2 needs 1, so the cube is dead for it
    text = record(3, (0, 0, DROP_GAME.format(match="")), (0, 1, DROP_GAME.format(match="")),
                  (0, 2, RESIGN_GAME.format(match="")), (1, 2, DROP_GAME.format(match=" and the match")))
    report = replay(parse_match(text, "dead.mat"), ENGINE)
    assert any("player 2 doubles" in p and "DEAD_CUBE" in p for p in report.problems), report.problems


def test_a_wrong_next_score_is_a_disagreement():
    text = record(3, (0, 0, DROP_GAME.format(match="")), (0, 2, DROP_GAME.format(match=" and the match")))
    report = replay(parse_match(text, "score.mat"), ENGINE)
    assert any("game 2 starts at 0-2, UpdateMatch gives 0-1" in p for p in report.problems), report.problems


def test_a_record_that_stops_before_the_match_ends_is_unfinished_not_a_disagreement():
    # players abandon matches; an unfinished record is a note
    text = record(3, (0, 0, DROP_GAME.format(match="")))
    report = replay(parse_match(text, "short.mat"), ENGINE)
    assert report.ok and report.unfinished, report.problems
    assert "unfinished: the record ends after game 1 at 0-1; the match is to 3 points" in report.notes


def test_a_record_that_goes_on_after_the_match_ended_is_a_disagreement():
    text = record(1, (0, 0, RESIGN_GAME.format(match=" and the match")), (1, 0, RESIGN_GAME.format(match="")))
    report = replay(parse_match(text, "long.mat"), ENGINE)
    assert any("game 2 is played, but UpdateMatch ended the match" in p for p in report.problems), report.problems


def test_an_opening_double_is_a_disagreement():
    text = record(1, (0, 0, "  1) 33: 8/5(2) 6/3(2)\n      Wins 1 point and the match\n"))
    report = replay(parse_match(text, "double.mat"), ENGINE)
    assert any("opens with the double 33" in p and "(R3)" in p for p in report.problems), report.problems


def test_forfeit_of_the_match_match0045():
    # "Wins 4016 point" after a "????" play at 3-11 in a 13-point match, cube 4: not 1-3 x cube, so
    # the forfeit is of the match, and player 2 wins it
    report = replay(read_match(next(p for p in MATCHES if p.endswith("match0045.mat"))), ENGINE)
    assert report.ok and report.match_winner == 2 and report.final_score == (3, 13)


def test_win_capped_at_the_match_length_match0068():
    report = replay(read_match(next(p for p in MATCHES if p.endswith("match0068.mat"))), ENGINE)
    assert report.ok and report.capped == 1 and report.final_score == (1, 5) and report.crawford_games == 1
