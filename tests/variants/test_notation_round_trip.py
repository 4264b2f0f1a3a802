"""Every legal move's notation reads back as that move (R4: a leg is played as written), in
every variant: :func:`resolve` of ``move.notation`` gives the same board. A fevga move of its
runner and another checker (5-5: 19/4 and 24/19) used to be written ``24/4``, which no checker
can play under the start rule, so ValidateMatch refused the exported .mat (found by
tests/referee/test_export_match.py with random dice)."""

from __future__ import annotations

import random

import pytest

from tavla.core import Side
from tavla.core.rules import notation
from tavla.core.rules.legality import resolve
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.position import Position, SideView
from tavla.core.rules.variant import find_variant

VARIANTS = ["backgammon", "tavla", "portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy"]


def _side(points: dict[int, int]) -> SideView:
    return SideView(tuple(points.get(p, 0) for p in range(1, 25)), 0, 0, ())


def test_fevga_runner_and_another_checker_are_written_apart():
    """White's runner on 19 (14 on the head, 24), 5-5: the runner 19/4, then a head checker 24/19."""
    fevga = find_variant("fevga")
    position = Position.from_sides(Side.WHITE, _side({24: 14, 19: 1}), _side({24: 15}), fevga)
    move = resolve(position, (5, 5), notation.parse("19/4 24/19"))
    assert move.notation == "24/19 19/4"
    assert resolve(position, (5, 5), notation.parse(move.notation)).board_after == move.board_after


@pytest.mark.parametrize("name", VARIANTS)
def test_every_legal_moves_notation_reads_back(name):
    """Random games (seeded), each move uniform among the legal ones, every legal move of every
    turn until 1,500 moves are checked (R4)."""
    variant, rng, checked = find_variant(name), random.Random(7), 0
    while checked < 1500:
        position = Position.initial(variant=variant)
        for _ in range(120):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            moves = legal_moves(position, dice)
            for move in moves:
                if move.steps:
                    again = resolve(position, dice, notation.parse(move.notation))
                    assert again.board_after == move.board_after, (name, position, dice, move.notation)
                    checked += 1
            position = rng.choice(moves).result
            if position.winner is not None or position.drawn:
                break
