"""Every variant's move generator is total: for every reachable position and each of the 21
rolls it answers, with at least one move (the empty one when nothing plays, R7), every move
using the same number of dice, each step allowed by the variant's single-step rule when played
in order (R4-R14; variants-rules.md for the family), the larger die when only one of two plays (R7).

Positions: every position after each side's first play (exhaustive: the first-throw rules, long
nardy's head rule, fevga's start rule, live there), then positions of seeded random self-play.
The family (plakoto, fevga, long nardy) is also compared with the independent reference generator
(tests/variants/reference/, written from variants-rules.md alone) on the first-play positions; the
variants that move as backgammon with the compiled generator (tavla_accel), when built.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from tavla.core import Position, Side, find_variant
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.movegen import generate_python
from tavla.core.rules.variant import variants
from variant_neutral import core_results, from_core
from variant_positions import family_positions, self_play_positions
from variants import reference

try:
    import tavla_accel
except ImportError:  # the pure generator is still checked; tests/accel fails loudly without it
    tavla_accel = None

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 rolls
VARIANTS = sorted(v.name for v in variants())
FAMILY = ("plakoto", "fevga", "long_nardy")  # first-throw rules of their own; the reference covers them
FIRST_PLAYS = 100  # per variant at most (the family's are all checked: 22-98), x 21 rolls
RANDOM_POSITIONS = 60  # per variant, x 21 rolls


def first_plays(name: str, most: int | None = None) -> list[Position]:
    """Each position after one side's first play of any roll from the start (the other side on
    roll at its first throw), both sides starting; ``most``: an evenly spread sample of them."""
    variant = find_variant(name)
    out: dict[tuple[tuple[int, ...], Side], Position] = {}
    for side in (Side.WHITE, Side.BLACK):
        start = Position.initial(side, variant)
        for roll in ROLLS:
            for move in legal_moves(start, roll):
                after = move.result
                out.setdefault((after.board, after.on_roll), after)
    found = list(out.values())
    if most is None or len(found) <= most:
        return found
    return found[::-(-len(found) // most)]


def check_total(position: Position, d1: int, d2: int) -> int:
    """The generator's answer for ``position`` and ``d1``-``d2`` holds the invariants of the
    module docstring; returns the dice a legal move uses."""
    variant = position.variant
    where = (variant.name, position.board, position.on_roll, d1, d2)
    moves = legal_moves(position, (d1, d2))
    assert moves, where
    used = {m.dice_used for m in moves}
    assert len(used) == 1, where
    best = used.pop()
    if best == 1 and d1 != d2 and any(m.steps[0].die == max(d1, d2) for m in moves):
        assert all(m.steps[0].die == max(d1, d2) for m in moves), where  # R7: the larger die
    pool = [d1] * 4 if d1 == d2 else [d1, d2]
    for m in moves:
        b = list(position.board)
        left = list(pool)
        for f, t, die, _ in m.steps:
            assert f in variant.sources(b, die, variant.outside_count(b), f, f), (where, m.steps)
            left.remove(die)
            assert variant.play(b, f, die)[0] == t, (where, m.steps)
        assert tuple(b) == m.board_after, (where, m.steps)
        rule = getattr(variant, "turn_rule", None)
        if d1 != d2 and rule is not None:
            assert rule(b), (where, m.steps)
    if best < len(pool) and not moves[0].steps:
        assert all(not variant.sources(list(position.board), d, variant.outside_count(position.board))
                   for d in set(pool)), where  # nothing plays only when no die plays
    return best


def compiled_agrees(position: Position, d1: int, d2: int) -> None:
    variant = position.variant
    if tavla_accel is None or not variant.moves_as(Backgammon):
        return
    for a, b in ((d1, d2), (d2, d1)):
        assert tavla_accel.generate(position.board, a, b) == generate_python(position.board, a, b, variant), (
            variant.name, position.board, a, b)


@pytest.mark.parametrize("name", VARIANTS)
def test_every_first_play_position_and_roll_has_moves(name):
    positions = first_plays(name, FIRST_PLAYS)
    assert positions
    for position in positions:
        for d1, d2 in ROLLS:
            check_total(position, d1, d2)
            compiled_agrees(position, d1, d2)


@pytest.mark.parametrize("name", VARIANTS)
def test_random_reachable_positions_and_every_roll_have_moves(name):
    for position in self_play_positions(name, 31, RANDOM_POSITIONS):
        for d1, d2 in ROLLS:
            check_total(position, d1, d2)
            compiled_agrees(position, d1, d2)


@pytest.mark.parametrize("name", FAMILY)
def test_first_play_positions_match_the_reference(name):
    """The first throw after the opponent's first play (long nardy: the head rule and its
    first-throw doubles; fevga: the start rule) against the reference (variants-rules.md)."""
    differ = []
    for position in first_plays(name):
        neutral = from_core(position)
        for d1, d2 in ROLLS:
            if core_results(neutral, d1, d2) != set(reference.legal_results(neutral, d1, d2)):
                differ.append((neutral, (d1, d2)))
    assert not differ, f"{len(differ)} differ; first: {differ[0]}"


@settings(max_examples=150)
@given(position=family_positions())
def test_any_family_position_and_every_roll_has_moves(position):
    """Not only reachable ones: any legal placement of the family (the generator never raises,
    never answers nothing)."""
    if position.winner is not None or position.drawn:
        return
    for d1, d2 in ROLLS:
        check_total(position, d1, d2)
