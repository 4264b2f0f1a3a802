"""RenderPosition's pictures of the barless variants (render/svg.py, render/text.py): a pinned
checker drawn at its point's edge under its pinners, each side's direction, no cube, and each
side's borne-off tray beside its own home board (fevga and long nardy: the top side's on the other
side from the bottom side's, as in the web board, clients/web/src/board.ts)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tavla.core import Position, Side, find_variant
from tavla.core.rules.variant import Direction, variants
from tavla.render import BoardPicture, svg, text
from variant_neutral import black_point, to_core

SVG = "{http://www.w3.org/2000/svg}"
RIGHT_TRAY, LEFT_TRAY = 745, 5  # a tray's left edge in the 800-wide grid (svg.py)
RIGHT_TEXT, LEFT_TEXT = 768, 32  # a side's name and pip count, centred in a margin

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
        start = BoardPicture(Position.initial(variant=find_variant(name)))
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


def bearing_off(name: str, on_roll: str = "W"):
    """``name``'s position with 12 white and 10 black checkers borne off: white has one on each of
    its 1-3, black one on each of its own 1-5 (in its numbering; white's 13-17 in fevga and long
    nardy, white's 20-24 in the others)."""
    variant = find_variant(name)
    points = {1: "W", 2: "W", 3: "W"}
    for q in range(1, 6):
        points[next(p for p in range(1, 25) if black_point(variant, p) == q)] = "B"
    return to_core({"variant": name, "on_roll": on_roll, "points": points,
                    "bar": {"W": 0, "B": 0}, "off": {"W": 12, "B": 10}})


def layout(picture: BoardPicture) -> dict[str, tuple[set[float], float]]:
    """Each side's tray as drawn: the x of its checkers' rects (one value when they stand in one
    tray), and the x of its pip count."""
    root = ET.fromstring(svg.render(picture))
    out = {}
    for side in ("white", "black"):
        tray = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "off" and g.get("data-side") == side)
        pips = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "pips" and t.get("data-side") == side)
        out[side] = ({float(r.get("x")) for r in tray.iter(f"{SVG}rect")}, float(pips.get("x")))
    return out


@pytest.mark.parametrize("name", ["fevga", "long_nardy"])
def test_same_direction_trays_beside_each_home(name):
    """Fevga and long nardy: black's home is white's 13-18 (top left when white is at the bottom
    with its home on the right), so black's borne-off checkers are drawn left of the board, top
    half, and its pip count moves to the right margin; white's stay bottom right."""
    start = layout(BoardPicture(bearing_off(name)))
    assert start == {"white": ({RIGHT_TRAY}, LEFT_TEXT), "black": ({LEFT_TRAY}, RIGHT_TEXT)}
    root = ET.fromstring(svg.render(BoardPicture(bearing_off(name))))
    black = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "off" and g.get("data-side") == "black")
    ys = [float(r.get("y")) for r in black.iter(f"{SVG}rect")]
    assert len(ys) == 10 and max(ys) < 250  # the top half, by black's home
    # black on roll at the bottom: white's home (black's 13-18) is now top left, with its tray
    assert layout(BoardPicture(bearing_off(name, "B"))) == {
        "black": ({RIGHT_TRAY}, LEFT_TEXT), "white": ({LEFT_TRAY}, RIGHT_TEXT)}
    # home_left mirrors it: the bottom side's home and tray on the left, the top side's right
    assert layout(BoardPicture(bearing_off(name), home_left=True)) == {
        "white": ({LEFT_TRAY}, RIGHT_TEXT), "black": ({RIGHT_TRAY}, LEFT_TEXT)}
    # the tray's side is the home's: the top side's 1-6 are drawn in the left half (columns 0-5)
    slots = [s for s in BoardPicture(bearing_off(name)).slots() if s.side is Side.BLACK]
    assert {(s.column < 6, s.top) for s in slots} == {(True, True)}


OPPOSITE = [v.name for v in variants() if v.direction is Direction.OPPOSITE]


@pytest.mark.parametrize("name", OPPOSITE)
@pytest.mark.parametrize("bottom", [None, Side.WHITE, Side.BLACK])
@pytest.mark.parametrize("home_left", [False, True])
def test_opposite_direction_trays_unchanged(name, bottom, home_left):
    """Backgammon, tavla, plakoto and the others whose sides move opposite ways: both homes on one
    side of the bar, so both trays there (right, or left with ``home_left``) and both pip counts in
    the other margin, as before the same-direction fix."""
    position = bearing_off(name) if find_variant(name).checkers == 15 else Position.initial(variant=find_variant(name))
    tray, pips = (LEFT_TRAY, RIGHT_TEXT) if home_left else (RIGHT_TRAY, LEFT_TEXT)
    expected = {side: ({tray} if position.side(s).off else set(), pips)
                for side, s in (("white", Side.WHITE), ("black", Side.BLACK))}
    assert layout(BoardPicture(position, bottom=bottom, home_left=home_left)) == expected


def test_opposite_direction_variants_listed():
    assert {"backgammon", "tavla", "plakoto", "portes", "nackgammon", "hypergammon"} <= set(OPPOSITE)
