"""Quirks of real exports in tests/data/matches/quirks (provenance in
tests/data/matches/README.md): each is read, and what is odd is a note, not a disagreement."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import Loss, Roll, Win, read_match

QUIRKS = Path(__file__).parent.parent / "data" / "matches" / "quirks"
ENGINE = LocalEngine()


def _replay(name: str, mode: str = "auto"):
    return replay(read_match(QUIRKS / name), ENGINE, mode=mode)


def test_unfinished_record_is_a_note():
    # one game of an "8 point match" (a money session or an abandoned match)
    report = _replay("match0121.mat")
    assert report.ok, report.problems
    assert report.unfinished and report.final_score == (2, 0) and report.plays == 45
    assert "unfinished: the record ends after game 1 at 2-0; the match is to 8 points" in report.notes
    assert report.notes[0] == "rules assumed: 8-point match, Crawford on, cube limit 1024"


def test_jacoby_gammon_turns_auto_into_a_money_session():
    # player 2 bears off while player 1 has all 15 on the board, cube never turned, recorded 1
    report = _replay("match1267.mat")
    assert report.ok, report.problems
    assert report.money and not report.unfinished
    assert report.notes[0] == "rules assumed: money session, Jacoby on, cube limit 1024"
    assert "game 1: a gammon paid 1 with the cube never turned: read as a money session, Jacoby on" in report.notes


@pytest.mark.parametrize(("mode", "ok"), [("match", False), ("money", False), ("money-jacoby", True)])
def test_jacoby_record_under_explicit_rules(mode, ok):
    report = _replay("match1267.mat", mode)
    assert report.ok is ok, report.problems
    if not ok:
        assert any("player 2 wins 1, the engine scores player 2 2 x cube 1 = 2" in p for p in report.problems)


def test_money_jacoby_off_pays_a_gammon_2():
    # the unfinished 8-point record read as money play: no unfinished note, single game paid as recorded
    report = _replay("match0121.mat", "money")
    assert report.ok and not report.unfinished and report.money
    assert report.notes[0].startswith("rules assumed: money session, Jacoby off")


def test_resignation_run_into_the_previous_line():
    match = read_match(QUIRKS / "match0444.mat")
    game = match.games[1]
    assert game.actions[-3:] == (Roll(1, 59, (4, 3), "21/18 18/14"), Loss(1, 59, 2), Win(2, 59, 2, True))
    assert game.notes == ("line 59: two lines run together (move number 24 repeated); read as two",)
    report = replay(match, ENGINE)
    assert report.ok, report.problems
    assert report.match_winner == 2 and report.final_score == (0, 3) and report.forfeits == 1


def test_empty_player_name():
    match = read_match(QUIRKS / "match0551.mat")
    assert match.players == ("PlayerA", "") and match.notes == ("player 2 has no name",)
    assert match.games[0].actions[0] == Roll(2, 18, (4, 1), "13/9 24/23")  # column still right
    report = replay(match, ENGINE)
    assert report.ok and report.match_winner == 2 and "player 2 has no name" in report.notes


def test_a_zero_point_match_is_a_money_session_and_auto_finds_jacoby():
    from dataclasses import replace as dc_replace

    jacoby = read_match(QUIRKS / "match1267.mat")
    money = dc_replace(jacoby, length=0)
    report = replay(money, ENGINE)  # auto
    assert report.ok and report.money and not report.unfinished
    assert report.notes[0] == "rules assumed: money session, Jacoby on, cube limit 1024"
    plain = replay(dc_replace(read_match(QUIRKS / "match0121.mat"), length=0), ENGINE)
    assert plain.ok and plain.notes[0] == ("rules assumed: money session, Jacoby off, cube limit 1024 "
                                           "(no game showed whether the Jacoby rule was on)")


MADE = Path(__file__).parent.parent / "data" / "matches" / "made"


@pytest.mark.parametrize(("name", "score", "crawford_games"), [
    ("jf_1point_gammon.mat", (0, 1), 0),
    ("jf_3point_crawford_gammon.mat", (0, 3), 1),
    ("jf_3point_post_crawford_gammon.mat", (2, 3), 1),
])
def test_a_gammon_capped_at_the_points_needed_is_a_match_game_not_jacoby(name, score, crawford_games):
    # "Wins 1 point and the match" after a gammon was read as money play, Jacoby on;
    # the header's match length decides (R18): a writer records what the winner needed
    report = replay(read_match(MADE / name), ENGINE)
    assert report.ok, report.problems
    assert not report.money and not report.unfinished
    assert report.final_score == score and report.match_winner == 2
    assert report.crawford_games == crawford_games
    assert report.notes[0].endswith("-point match, Crawford on, cube limit 1024")
    assert not any("Jacoby" in note for note in report.notes)
