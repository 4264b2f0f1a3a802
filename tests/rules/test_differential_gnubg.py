"""Differential tests: our legal moves against GNU Backgammon's on thousands of positions.

Positions (source and seed recorded here, so a failure is reproducible):
* ``random_games``: 20,000+ (position, roll) pairs from random games from the start (R2),
  each move chosen uniformly from our legal moves, seeds 1-3.
* targeted sets, each from random positions drawn with seed 7 by the generators below: bar entry
  with several checkers (R8-R10), closed and nearly closed boards, partially playable doubles
  (R6, R7), larger-die positions (R7), bear-off (R11-R13) including opposing blots in the home
  board and a hit checker on the bar during bear-off (R14).
Equality is of the sets of resulting positions (see ``oracle_gnubg``).
"""

from __future__ import annotations

import random

import pytest

from oracle_gnubg import agrees
from tavla.core import Position
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.movegen import generate
from games import random_game_pairs

# the oracles check the pure-Python generator, whatever this session installed (conftest.py)
pytestmark = [pytest.mark.usefixtures("pure_generator"), pytest.mark.slow]  # an oracle suite: not in test-fast


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _compare(pairs):
    """Run every (board, dice) pair through both generators; return the disagreements."""
    bad = []
    for board, dice in pairs:
        used, results = generate(board, *dice)
        ok, detail = agrees(board, dice, used, set(results))
        if not ok:
            bad.append((board, dice, detail))
    return bad


def _playable(board, die):
    b = list(board)
    return bool(Backgammon.sources(b, die, Backgammon.outside_count(b)))


def _scatter(rng, n, points, cap=None):
    """``n`` checkers dropped at random on ``points`` (at most ``cap`` a point)."""
    counts = dict.fromkeys(points, 0)
    for _ in range(n):
        choices = [p for p in points if cap is None or counts[p] < cap]
        counts[rng.choice(choices)] += 1
    return counts


def _board(mine: dict, theirs: dict, my_bar=0, their_bar=0):
    """Board from the mover's point map and the opponent's (in the mover's numbering)."""
    b = [0] * 26
    for p, n in mine.items():
        b[p] += n
    for p, n in theirs.items():
        assert not (n and b[p] > 0)
        b[p] -= n
    b[25] = my_bar
    b[0] = -their_bar
    return tuple(b)


def targeted(kind: str, rng: random.Random):
    if kind == "bar_entry":
        made = rng.sample(range(19, 25), rng.randint(2, 5))  # opponent's points in our numbering
        theirs = {p: 2 for p in made}
        free = [p for p in range(1, 19)]
        rest = 15 - 2 * len(made)
        theirs.update({p: theirs.get(p, 0) + n for p, n in _scatter(rng, rest, free[:12]).items()})
        bar = rng.randint(2, 4)
        open_pts = [p for p in range(1, 25) if p not in theirs or theirs[p] == 0]
        mine = _scatter(rng, 15 - bar, [p for p in open_pts if p not in made])
        return _board(mine, theirs, my_bar=bar)
    if kind == "closed_board":
        made = rng.sample(range(19, 25), rng.randint(5, 6))
        theirs = {p: 2 for p in made}
        extra = _scatter(rng, 15 - 2 * len(made), made)
        theirs = {p: theirs[p] + extra[p] for p in made}
        bar = rng.randint(1, 3)
        mine = _scatter(rng, 15 - bar, [p for p in range(1, 19)])
        return _board(mine, theirs, my_bar=bar)
    if kind == "blocked_doubles":
        blocks = rng.sample(range(1, 25), 7)
        theirs = {p: 2 for p in blocks}
        theirs[blocks[0]] += 1
        mine = _scatter(rng, 15, [p for p in range(1, 25) if p not in blocks])
        return _board(mine, theirs)
    if kind == "larger_die":
        # one or two checkers left far out (the rest off) among blocks: often either die
        # plays alone but not both (rolls filtered below)
        blocks = rng.sample(range(1, 23), 7)
        theirs = {p: 2 for p in blocks} | {24: 1}
        free = [p for p in range(13, 23) if p not in blocks]
        mine = _scatter(rng, rng.randint(1, 2), rng.sample(free, 1))
        return _board(mine, theirs)
    if kind == "bear_off":
        mine = _scatter(rng, rng.randint(1, 15), range(1, 7))
        taken = [p for p, n in mine.items() if n]
        room = [p for p in range(7, 25)] + [p for p in range(1, 7) if p not in taken]
        theirs = _scatter(rng, 15, room)
        # some opposing blots in our home board, to be hit during bear-off
        return _board(mine, theirs)
    if kind == "hit_in_bear_off":
        # 14 home and one just hit (R14); opposing blots in our home to hit again on the way in
        mine = _scatter(rng, 14, range(1, 7))
        spots = [p for p in range(1, 7) if not mine[p]]
        blots = rng.sample(spots, min(len(spots), rng.randint(0, 2)))
        made = rng.sample(range(19, 25), rng.randint(0, 4))
        theirs = {p: 1 for p in blots} | {p: 2 for p in made}
        rest = _scatter(rng, 15 - sum(theirs.values()), range(7, 19))
        theirs |= {p: n for p, n in rest.items() if n}
        return _board(mine, theirs, my_bar=1)
    raise ValueError(kind)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_match_gnubg(seed):
    pairs = random_game_pairs(seed, 7000)
    bad = _compare(pairs)
    assert not bad, f"{len(bad)} of {len(pairs)} differ, first: {bad[:3]}"


TARGETED = ["bar_entry", "closed_board", "blocked_doubles", "larger_die", "bear_off", "hit_in_bear_off"]


@pytest.mark.parametrize("kind", TARGETED)
def test_targeted_sets_match_gnubg(kind):
    rng = random.Random(f"7-{kind}")
    pairs = []
    while len(pairs) < 21 * 60:
        board = targeted(kind, rng)
        rolls = ROLLS
        if kind == "larger_die":  # keep rolls where either die plays alone but not both
            rolls = [r for r in ROLLS if r[0] != r[1] and generate(board, *r)[0] == 1
                     and all(_playable(board, d) for d in r)]
        pairs.extend((board, roll) for roll in rolls)
    bad = _compare(pairs)
    assert not bad, f"{len(bad)} of {len(pairs)} differ, first: {bad[:3]}"
