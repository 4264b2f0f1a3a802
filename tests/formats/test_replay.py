"""Replaying the 79 real match records (tests/data/matches, provenance in its README)."""

from __future__ import annotations

import glob
import os

import pytest

from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import parse_match, read_match

MATCHES = sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "matches", "*.mat")))
ENGINE = LocalEngine()


def test_all_records_agree_with_the_core():
    totals = dict.fromkeys(["plays", "finished", "capped", "drops", "resigned", "forfeits"], 0)
    for path in MATCHES:
        report = replay(read_match(path), ENGINE)
        assert report.ok, report.problems
        for key in totals:
            totals[key] += getattr(report, key)
    assert len(MATCHES) == 79
    # every play of every game; 343 games borne off to the end, 277 dropped cubes, 9 games that
    # end on a "????" play (time or resignation), one win capped at the match length
    assert totals == {"plays": 25591, "finished": 343, "capped": 1, "drops": 277, "resigned": 0,
                      "forfeits": 9}


def _tampered(old: str, new: str, name: str = "match0000.mat"):
    path = next(p for p in MATCHES if p.endswith(name))
    text = open(path, encoding="utf-8").read()
    assert old in text
    return replay(parse_match(text.replace(old, new, 1), name), ENGINE)


def test_an_illegal_play_is_reported_with_its_line():
    # game 1, move 2: 65: 24/18 23/18 -> 23/17 24/19 (19 is black's 6 point: blocked, R5)
    report = _tampered("65: 24/18 23/18", "65: 23/17 24/19")
    assert not report.ok
    assert report.problems[0].startswith("match0000.mat:21: 65: 23/17 24/19 rejected: POINT_BLOCKED")


def test_a_wrong_score_is_reported():
    report = _tampered("Wins 4 point", "Wins 2 point")
    assert any("wins 2, the engine scores player 1 1 x cube 4 = 4" in p for p in report.problems)


def test_a_wrong_drop_value_is_reported():
    report = _tampered("Wins 2 point                     \n\n Game 2", "Wins 3 point\n\n Game 2",
                       "match0001.mat")
    assert any("doubler wins the cube value 2" in p for p in report.problems), report.problems


@pytest.mark.parametrize("path", MATCHES[:3])
def test_reports_count_plays(path):
    report = replay(read_match(path), ENGINE)
    assert report.plays > 100 and report.games >= 1
