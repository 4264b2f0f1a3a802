"""Properties of the rules core on random reachable positions (Hypothesis).

Positions are reached from the start (R2) by random legal moves, so they carry hits, bar
checkers, primes and bear-offs. For each drawn position and roll:

* every legal move keeps 15 checkers a side (R1), never lands on a point held by two or more
  opposing checkers (R5, R9), never raises the mover's pip count, and uses the most dice any
  sequence of single-die steps can use, with the larger die when only one can be played (R7) --
  checked against a brute-force reference written here from the rules, not from movegen;
* applying a listed move by its notation or by its checker moves gives back that move, and the
  position after it is a valid position with the opponent on roll (apply-then-list);
* every listed move is a path of ListLegalSteps' offered steps and every path of offered steps
  ends in a listed move, for both orders of the dice;
* notation and position ID round-trip.

Each test is bounded (``max_examples`` about 200; no deadline: tests/conftest.py's profile) to keep
the suite fast.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavla.core import CHECKERS, Position, CheckerMove, legal_moves, legal_steps, resolve
from tavla.core.rules import notation
from tavla.core.ids import position_id
from tavla.core.rules.notation import Leg
from tavla.core.rules.position import BAR

from rules_reference import reference

SETTINGS = settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])

cases = st.tuples(st.integers(0, 2**32), st.integers(0, 200), st.integers(1, 6), st.integers(1, 6))


def reachable(seed: int, plies: int) -> Position:
    """A position ``plies`` random legal moves after the start; stops before a finished game."""
    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(plies):
        after = rng.choice(legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))).result
        if after.winner is not None:
            break
        pos = after
    return pos


# --- properties -------------------------------------------------------------------------------


@SETTINGS
@given(cases)
def test_legal_moves_keep_the_rules(case):
    seed, plies, d1, d2 = case
    pos = reachable(seed, plies)
    moves = legal_moves(pos, (d1, d2))
    before = pos.side(pos.on_roll).pip_count
    assert {m.board_after for m in moves} == reference(pos.board, d1, d2)  # R4-R12, R6, R7
    for m in moves:
        after = m.result
        for side in (after.on_roll, after.on_roll.other):  # R1: 15 checkers a side
            view = after.side(side)
            assert sum(view.points) + view.bar + view.off == CHECKERS
        assert after.side(pos.on_roll).pip_count <= before  # never raises the mover's pips
        assert (after.side(pos.on_roll).pip_count < before) == bool(m.steps)
        b = list(pos.board)
        for f, t, die, hit in m.steps:  # replay: every landing point open (R5, R9)
            assert b[f] > 0 and (t == 0 or b[t] >= -1) and hit == (t > 0 and b[t] == -1)
            assert f - die == t or t == 0 and f - die < 0 or t == 0 and f == die
            b[f] -= 1
            if t:
                if hit:
                    b[t], b[0] = 0, b[0] - 1
                b[t] += 1
        assert tuple(b) == m.board_after
    assert len({m.dice_used for m in moves}) == 1


@SETTINGS
@given(cases)
def test_apply_then_list(case):
    seed, plies, d1, d2 = case
    pos = reachable(seed, plies)
    for m in legal_moves(pos, (d1, d2)):
        by_text = resolve(pos, (d2, d1), notation.parse(m.notation))
        assert by_text.board_after == m.board_after and by_text.notation == m.notation
        legs = [Leg((f, t)) for f, t, _d, _h in m.steps]
        assert resolve(pos, (d1, d2), legs).board_after == m.board_after
        after = m.result
        assert after.on_roll is pos.on_roll.other
        if after.winner is None:
            assert legal_moves(after, (d1, d2))  # the next side can always be listed


def _paths(pos: Position, dice, done: tuple[CheckerMove, ...] = ()) -> set[tuple[int, ...]]:
    s = legal_steps(pos, dice, done)
    if s.complete:
        return {s.move.board_after}
    assert s.next_steps, "an incomplete turn offers a step"
    ends: set[tuple[int, ...]] = set()
    for f, t, die, _hit in s.next_steps:
        ends |= _paths(pos, dice, (*done, CheckerMove(f, t, die)))
    return ends


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(cases)
def test_moves_are_paths_of_steps_for_both_dice_orders(case):
    seed, plies, d1, d2 = case
    pos = reachable(seed, plies)
    for dice in ((d1, d2), (d2, d1)):
        moves = legal_moves(pos, dice)
        assert _paths(pos, dice) == {m.board_after for m in moves}
        for m in moves:  # each listed move, step by step, is offered and completes to itself
            done: tuple[CheckerMove, ...] = ()
            for step in m.steps:
                assert step in legal_steps(pos, dice, done).next_steps
                done = (*done, CheckerMove(*step[:3]))
            s = legal_steps(pos, dice, done)
            assert s.complete and s.move == m


@SETTINGS
@given(cases)
def test_notation_and_position_id_round_trip(case):
    seed, plies, d1, d2 = case
    pos = reachable(seed, plies)
    assert position_id.decode(position_id.encode(pos), pos.on_roll) == pos
    for m in legal_moves(pos, (d1, d2)):
        legs = notation.parse(m.notation)
        again = " ".join("/".join("bar" if p == BAR else "off" if p == 0 else str(p) for p in leg.points)
                         for leg in legs)
        assert notation.format_steps(m.steps) == m.notation
        assert resolve(pos, (d1, d2), notation.parse(again)).notation == m.notation
        assert position_id.decode(position_id.encode(m.result), m.result.on_roll) == m.result
