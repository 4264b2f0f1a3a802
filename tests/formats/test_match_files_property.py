"""Round-trip properties of both match-file formats on generated legal matches (hypothesis):
random games played with the rules core (random dice, random legal moves, random cubes, a
resignation when a game runs long), recorded, then written and read back as .mat (as recorded
and in both dialects) and as .sgf. test_matwriter.py covers .mat with arbitrary (illegal)
content; this file covers what needs legal plays (dialect rewrites, SGF steps)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.core import Position, Ruleset, Side, legal_moves, score_game
from tavla.formats import content
from tavla.formats.matwriter import write_match
from tavla.formats.recorder import MatchRecorder
from tavla.formats.sgfreader import parse_sgf
from tavla.formats.sgfwriter import write_sgf
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import parse_match

from test_sgf import sgf_view


def random_match(seed: int, length: int, games: int):
    rng = random.Random(seed)
    record = MatchRecorder(length, ("Ann", "Bob"), {"Crawford": "Off", "CubeLimit": "1024"})
    scores = [0, 0]
    for _ in range(games):
        record.start_game((scores[0], scores[1]))
        a, b = rng.sample(range(1, 7), 2)
        starter = 1 if a > b else 2
        position = Position.initial(Side.WHITE if starter == 1 else Side.BLACK)
        dice, cube, owner, winner, points = (max(a, b), min(a, b)), 1, 0, 0, 0
        for turn in range(400):
            side = int(position.on_roll)
            if turn and rng.random() < 0.05 and owner in (0, side) and not length:
                record.double(side, 2 * cube)
                if rng.random() < 0.3:
                    record.drop(3 - side)
                    winner, points = side, cube
                    break
                record.take(3 - side)
                cube, owner = 2 * cube, 3 - side
            if turn:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            move = rng.choice(legal_moves(position, dice))
            record.roll(side, dice, move.notation)
            position = move.result
            if position.winner is not None:
                result = score_game(position, Ruleset())
                winner, points = int(result.winner), result.points * cube
                break
        else:  # a long game: the side on roll resigns a single game
            winner, points = 3 - int(position.on_roll), cube
            record.loss(3 - winner, points)
        scores[winner - 1] += points
        record.win(winner, points, bool(length) and scores[winner - 1] >= length)
        if length and scores[winner - 1] >= length:
            break
    return record.match()


SETTINGS = settings(max_examples=25)
MATCHES = st.builds(random_match, st.integers(0, 2**32), st.sampled_from([0, 0, 3, 25]), st.integers(1, 3))


@SETTINGS
@given(MATCHES)
def test_mat_round_trip_of_legal_matches(match):
    text = write_match(match)
    assert content(parse_match(text)) == content(match)
    for dialect in ("jellyfish", "galaxy"):
        rewritten = parse_match(write_match(match, dialect))
        # the plays are written differently but are the same moves, step for step
        assert content(sgf_view(rewritten)) == content(sgf_view(match))


@SETTINGS
@given(MATCHES)
def test_sgf_round_trip_of_legal_matches(match):
    text = write_sgf(match)
    again = parse_sgf(text)
    assert content(again) == content(sgf_view(match))
    assert write_sgf(again) == text


@settings(max_examples=10)
@given(MATCHES)
def test_generated_matches_validate(match):
    # the generator is a fair player: the engine agrees with every record it makes (money
    # sessions with cubes, matches to 3 and 25 without; a resignation pays 1 x cube)
    report = replay(match, LocalEngine(), mode="money" if not match.length else "match")
    assert report.ok, report.problems
    assert report.plays == sum(a.__class__.__name__ == "Roll" for g in match.games for a in g.actions)
