"""Move notation: formatting our moves and reading what players and match files write."""

from __future__ import annotations

import pytest

from boards import notations, position
from tavla.core import InvalidInputError, Position, legal_moves, resolve
from tavla.core.rules import notation
from tavla.core.rules.notation import Leg


def test_opening_moves_are_written_in_standard_form():
    # R4, R6: chains collapse, repeats group, hits are starred
    assert notations(legal_moves(Position.initial(), (5, 1))) == {
        "13/7", "13/8 6/5", "24/18", "24/23 13/8", "24/23 8/3", "8/2", "8/3 6/5", "8/3 8/7"
    }
    assert "8/5(2) 6/3(2)" in notations(legal_moves(Position.initial(), (3, 3)))
    assert "24/18(2) 13/7(2)" in notations(legal_moves(Position.initial(), (6, 6)))


def test_entering_and_hitting_notation():
    # R9: enter with bar/..., hit shown with *; an intermediate hit stays visible (13/7*/6)
    pos = position(mover={13: 5, 6: 5, 8: 3, 24: 1}, other={18: 1, 6: 5, 8: 3, 13: 5, 24: 1},
                   mover_bar=1)
    texts = notations(legal_moves(pos, (6, 1)))
    assert "bar/24 24/18" in texts or "bar/18" in texts
    pos2 = position(mover={13: 5, 6: 5, 8: 5}, other={18: 1, 6: 5, 8: 4, 13: 5})
    assert "13/7*/6" in notations(legal_moves(pos2, (6, 1)))


@pytest.mark.parametrize(
    "text, legs",
    [
        ("24/23 13/8", [(24, 23), (13, 8)]),
        ("bar/22 25/20", [(25, 22), (25, 20)]),
        ("6/off 2/0", [(6, 0), (2, 0)]),
        ("8/5(2)", [(8, 5), (8, 5)]),
        ("13/7*/6", [(13, 7, 6)]),
        ("Cannot Move", []),
        ("", []),
        ("  24/18   13/9* ", [(24, 18), (13, 9)]),
    ],
)
def test_parse(text, legs):
    assert notation.parse(text) == tuple(Leg(tuple(p)) for p in legs)


@pytest.mark.parametrize(
    "text, why",
    [
        ("24-18", "cannot read"),
        ("13/14", "backwards"),
        ("26/20", "out of range"),
        ("off/3", "cannot read"),
        ("5/bar", "to the bar"),
        ("8/5(5)", "repeat count"),
        ("8/5(2) 6/5(2) 3/1", "at most 4"),
        ("24/", "cannot read"),
        ("٢٤/٢٣", "cannot read"),  # ASCII digits only
        ("24/23 " * 40, "at most 200"),
    ],
)
def test_parse_rejects(text, why):
    with pytest.raises(InvalidInputError, match=why) as err:
        notation.parse(text)
    assert err.value.field == "move.notation"


def test_every_legal_move_reads_back_as_itself():
    # our notation of each legal move resolves to that same move (round trip), on a busy position
    pos = position(mover={24: 2, 13: 4, 8: 3, 6: 4, 5: 2}, other={24: 1, 13: 5, 8: 3, 6: 4, 21: 2})
    for dice in [(6, 1), (3, 3), (5, 2), (4, 4), (2, 1)]:
        for move in legal_moves(pos, dice):
            assert resolve(pos, dice, notation.parse(move.notation)).board_after == move.board_after


@pytest.mark.parametrize(
    "steps, text",
    [
        (((24, 18, 6, True),), "24/18*"),  # R5: the hit is starred on the point it happens
        (((13, 7, 6, True), (7, 6, 1, False)), "13/7*/6"),  # an intermediate hit stays visible
        (((13, 7, 6, False), (7, 6, 1, True)), "13/6*"),  # a quiet intermediate point is not
        (((13, 7, 6, True), (7, 1, 6, True)), "13/7*/1*"),  # two hits by one checker
        (((25, 22, 3, True), (13, 9, 4, False)), "bar/22* 13/9"),  # R9: hitting while entering
        (((8, 5, 3, True), (8, 5, 3, False)), "8/5* 8/5"),  # only the first lands on the blot
        (((6, 3, 3, True), (3, 0, 3, False)), "6/3*/off"),
    ],
)
def test_notation_of_hits(steps, text):
    assert notation.format_steps(steps) == text


def test_hit_notation_of_generated_moves():
    # the hitting move from the generator is written with the star, the quiet one without
    pos = position(mover={13: 5, 6: 5, 8: 5}, other={18: 1, 6: 5, 8: 4, 13: 5})
    texts = notations(legal_moves(pos, (6, 1)))
    assert {"13/7*/6", "13/7* 6/5", "8/2 8/7*", "13/7* 8/7"} <= texts
    assert "13/7/6" not in texts and "13/7 6/5" not in texts
    # entering with a checker already on 24: the bar checker's chain is one leg
    pos = position(mover={13: 5, 6: 5, 8: 3, 24: 1}, other={18: 1, 6: 5, 8: 3, 13: 5, 24: 1},
                   mover_bar=1)
    texts = notations(legal_moves(pos, (6, 1)))
    assert "bar/24 24/18" not in texts
    assert {"bar/18", "bar/24 13/7*"} <= texts


def test_pip_count_counts_a_bar_checker_as_25():
    # R1, R9: a checker on the bar enters on 25 - n, so it is 25 pips from off
    from tavla.core import Side, SideView
    assert SideView((0,) * 24, 1, 14).pip_count == 25
    assert SideView((0,) * 24, 2, 13).pip_count == 50
    assert SideView((1,) + (0,) * 22 + (1,), 1, 12).pip_count == 1 + 24 + 25
    pos = position(mover={6: 14}, other={1: 14}, mover_bar=1, other_bar=1)
    assert pos.side(Side.WHITE).pip_count == 14 * 6 + 25
    assert pos.side(Side.BLACK).pip_count == 14 * 1 + 25
