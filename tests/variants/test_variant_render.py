"""RenderPosition's pictures of the barless variants (render/svg.py, render/text.py): a pinned
checker drawn at its point's edge under its pinners, each side's direction, no cube."""

from __future__ import annotations

import re

from tavla.core import Side, find_variant
from tavla.render import BoardPicture, svg, text
from variant_neutral import to_core

# 24 .. 19 | 13..18 as drawn; white's 7 holds a black checker pinned under two white ones,
# white's 3 a white checker pinned under one black
PINNED = {24: "W" * 11, 7: "BWW", 6: "W", 1: "B" * 11, 19: "BB", 3: "WB"}


def picture():
    return BoardPicture(to_core({"variant": "plakoto", "on_roll": "W", "points": PINNED,
                                 "bar": {"W": 0, "B": 0}, "off": {"W": 0, "B": 0}}))


def test_slots_put_the_pinner_on_top():
    slots = {s.label: s for s in picture().slots()}
    assert (slots[7].side, slots[7].count, slots[7].pinned) == (Side.WHITE, 2, Side.BLACK)
    assert (slots[3].side, slots[3].count, slots[3].pinned) == (Side.BLACK, 1, Side.WHITE)
    assert slots[24].pinned is None and slots[24].count == 11


def test_svg_marks_pins_and_directions_and_has_no_cube():
    drawn = svg.render(picture())
    assert re.search(r'data-point="7" data-side="white" data-count="2" data-pinned="black"', drawn)
    assert re.search(r'data-point="3" data-side="black" data-count="1" data-pinned="white"', drawn)
    assert 'data-side="white" data-direction="anticlockwise"' in drawn
    assert 'data-side="black" data-direction="clockwise"' in drawn  # plakoto: opposite directions
    assert 'class="cube"' not in drawn


def test_same_direction_variants_show_both_anticlockwise():
    for name in ("fevga", "long_nardy"):
        start = BoardPicture(find_variant(name).initial_position())
        drawn = svg.render(start)
        assert drawn.count('data-direction="anticlockwise"') == 2
        slots = {s.label: s for s in start.slots()}
        assert (slots[24].side, slots[24].count) == (Side.WHITE, 15)
        assert (slots[12].side, slots[12].count) == (Side.BLACK, 15)  # black's head: white's 12


def test_text_draws_the_pinned_checker_lower_case_at_the_edge():
    board = text.render(picture())
    lines = board.splitlines()
    assert "moves anticlockwise" in lines[-2] and "moves clockwise" in lines[0]
    assert lines[-1].startswith(" o, x: a checker pinned")
    assert " x |" in lines[-3]  # the bottom row's edge: black pinned on white's 7
    assert " o " in lines[-3] and "no cube" in board and "centred" not in board  # plakoto has none
