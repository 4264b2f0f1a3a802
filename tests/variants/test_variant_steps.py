"""Checker-by-checker play in plakoto, fevga and long nardy (core/rules/steps.py): every path of
offered steps ends in exactly one legal move, and every legal move is such a path; each legal
move's notation resolves back to it (core/rules/legality.py)."""

from __future__ import annotations

import random

import pytest

from tavla.core import notation, resolve
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.steps import legal_steps
from variant_positions import FAMILY, self_play_positions


def _ends(position, dice, done=()):
    state = legal_steps(position, dice, done)
    if state.complete and not state.next_steps:
        return {state.move.board_after}
    out = set()
    if state.complete:
        out.add(state.move.board_after)
    for step in state.next_steps:
        out |= _ends(position, dice, (*done, step))
    return out


@pytest.mark.parametrize("name", FAMILY)
def test_steps_reach_exactly_the_legal_moves(name):
    rng = random.Random(3)
    for position in self_play_positions(name, 11, 60):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = legal_moves(position, dice)
        assert _ends(position, dice) == {m.board_after for m in moves}
        for move in moves:
            if move.steps:
                assert resolve(position, dice, notation.parse(move.notation)).board_after == move.board_after


def test_plakoto_doubles_searched_highest_first_lose_nothing():
    # plakoto keeps the highest-first search of a double (ordered_doubles): no step of a lower
    # checker makes a higher one's legal; the search of every order finds the same plays
    from tavla.core.rules.movegen import generate_python
    from tavla.core.rules.plakoto import Plakoto

    class EveryOrder(Plakoto):
        ordered_doubles = False

    for position in self_play_positions("plakoto", 99, 300):
        for d in range(1, 7):
            ordered = generate_python(position.board, d, d, Plakoto)
            every = generate_python(position.board, d, d, EveryOrder)
            assert ordered[0] == every[0] and set(ordered[1]) == set(every[1])
