"""A text board in the style of GNU Backgammon's: white is ``O`` and black ``X`` (as in XGIDs),
five checkers a point and the count on the fifth when more are stacked, the bar in the middle
column, point numbers from the side on roll's view, and each side's pips, borne-off checkers,
score, the cube and the dice on the right. Plakoto's pinned checkers are lower case (``o``,
``x``) at the stack's base, under their pinners; for the barless variants each side's line says
which way it moves.
"""

from __future__ import annotations

from tavla.core import Position, Side
from tavla.render import BoardPicture, Slot

SYMBOL = {Side.WHITE: "O", Side.BLACK: "X"}
ROWS = 5  # checkers drawn per point before the count is shown


PINNED = {Side.WHITE: "o", Side.BLACK: "x"}  # a checker pinned beneath the other side's (plakoto)


def _cell(slot: Slot, row: int) -> str:
    """Row ``row`` (0 at the board's edge) of a point, 3 characters; a pinned checker is drawn
    at the edge in lower case, its pinners above it."""
    if slot.side is None:
        return "   "
    if slot.pinned is not None:
        if row == 0:
            return f" {PINNED[slot.pinned]} "
        if row - 1 >= slot.count:
            return "   "
        if row == ROWS - 1 and slot.count > ROWS - 1:
            return f"{slot.count:>2} "
        return f" {SYMBOL[slot.side]} "
    return _bar_cell(slot.count, slot.side, row)


def _bar_cell(count: int, side: Side, row: int) -> str:
    """Row ``row`` (0 at the stack's base) of ``count`` checkers of ``side``, 3 characters; a
    point's stack and a side's bar checkers are drawn alike."""
    if count <= row:
        return "   "
    if row == ROWS - 1 and count > ROWS:
        return f"{count:>2} "
    return f" {SYMBOL[side]} "


def _border(labels: list[int]) -> str:
    left = "-".join(f"{n:->2}" for n in labels[:6]) + "-"
    right = "-".join(f"{n:->2}" for n in labels[6:]) + "-"
    return f" +{left}-----{right}+"


def _side_info(picture: BoardPicture, side: Side) -> str:
    view = picture.position.side(side)
    text = f"{SYMBOL[side]}: {side.name.lower():<5}  pips {view.pip_count:>3}  off {view.off:>2}"
    if score := picture.score(side):
        text += f"  score {score}"
    if picture.position.on_roll is side:
        text += "  on roll"
    if picture.shows_direction:
        text += "  moves " + ("clockwise" if picture.clockwise(side) else "anticlockwise")
    return text


def _middle_info(picture: BoardPicture) -> str:
    match = picture.match
    parts = []
    if match is not None and match.length:
        parts.append(f"{match.length}-point match" + (", Crawford game" if match.crawford else ""))
    else:
        parts.append("money play")
    cube = match.cube if match is not None else None
    if not picture.position.variant.cube:  # portes: no doubling cube
        parts.append("no cube")
    elif cube is None or cube.owner is None:
        parts.append(f"cube {cube.value if cube else 1} centred")
    else:
        parts.append(f"cube {cube.value} {cube.owner.name.lower()}'s")
    if cube is not None and cube.offered_by is not None and picture.position.variant.cube:
        parts.append(f"{cube.offered_by.name.lower()} doubles to {2 * cube.value}")
    if picture.dice:
        parts.append(f"rolled {picture.dice[0]}{picture.dice[1]}")
    return ", ".join(parts)


def render(picture: BoardPicture) -> str:
    """The board as lines of text (no trailing newline)."""
    position: Position = picture.position
    slots = picture.slots()
    top, bottom = slots[:12], slots[12:]
    bar_bottom = position.side(picture.bottom_side).bar  # drawn in the top half, where it enters
    bar_top = position.side(picture.top_side).bar
    lines = [_border([s.label for s in top]) + "     " + _side_info(picture, picture.top_side)]
    for row in range(ROWS):
        left = "".join(_cell(s, row) for s in top[:6])
        right = "".join(_cell(s, row) for s in top[6:])
        bar = _bar_cell(bar_bottom, picture.bottom_side, ROWS - 1 - row)
        lines.append(f" |{left}|{bar}|{right}|")
    lines.append(f" |{' ' * 18}|BAR|{' ' * 18}|     {_middle_info(picture)}")
    for row in reversed(range(ROWS)):
        left = "".join(_cell(s, row) for s in bottom[:6])
        right = "".join(_cell(s, row) for s in bottom[6:])
        bar = _bar_cell(bar_top, picture.top_side, ROWS - 1 - row)
        lines.append(f" |{left}|{bar}|{right}|")
    lines.append(_border([s.label for s in bottom]) + "     " + _side_info(picture, picture.bottom_side))
    if any(s.pinned for s in slots):
        lines.append(" o, x: a checker pinned beneath the other side's")
    return "\n".join(lines)
