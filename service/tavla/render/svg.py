"""An SVG board: 24 points numbered from the side on roll's view, checkers (the count on the
fifth when more are stacked), the bar, each side's borne-off tray in the margin beside its home
board (both on the right, or both on the left with ``home_left``; in fevga and long nardy, where
both sides move the same way round, the top side's home and tray are on the other side from the
bottom side's), the cube with its value where its owner sits (an offered double in the middle of
the board), the dice of the side on roll, and each side's pip count and score in the margin
across from its tray. Standalone SVG 1.1, drawn on a fixed 800 x 500 grid scaled by ``width``.

Elements tests and frontends can find: ``g.point[data-point][data-side][data-count]``,
``g.bar[data-side][data-count]``, ``g.off[data-side][data-count]``, ``g.cube[data-value][data-owner]``,
``g.dice[data-dice]``, ``text.pips[data-side]``, ``text.score[data-side]``; plakoto's pinned checkers
``g.point[data-pinned] g.pinned[data-side]`` (drawn at the point's edge, under the pinners), and for
the barless variants each side's way round, ``g.direction[data-side][data-direction]``.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from tavla.core import Side
from tavla.render import BoardPicture, Slot

VIEW_W, VIEW_H = 800, 500
DEFAULT_WIDTH = 720
MIN_WIDTH, MAX_WIDTH = 200, 4000
R = 19  # checker radius
POINT_W = 50
TOP, BOTTOM = 30, 470  # inner board edges
MIDDLE = (TOP + BOTTOM) // 2
LEFT_X, BAR_X, RIGHT_X = 70, 370, 430  # left half, bar, right half start
BAR_W = 60
POINT_H = 180
STACK = 5

COLOURS = {
    "frame": "#5b3a1f", "board": "#efe2c4", "dark": "#9b4a2c", "light": "#c9a46c", "bar": "#4a2f18",
    "label": "#f3e9d2",
}
CHECKER = {Side.WHITE: ("#f7f3ea", "#4d4d4d", "#222222"), Side.BLACK: ("#262626", "#000000", "#f0f0f0")}


def _x(picture: BoardPicture, column: int) -> float:
    """Centre x of a point column (0-11 left to right)."""
    start = LEFT_X if column < 6 else RIGHT_X
    return start + POINT_W * (column % 6) + POINT_W / 2


def _checker(cx: float, cy: float, side: Side, label: str = "") -> str:
    fill, stroke, ink = CHECKER[side]
    out = (f'<circle cx="{cx:g}" cy="{cy:g}" r="{R}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
           f'<circle cx="{cx:g}" cy="{cy:g}" r="{R - 6}" fill="none" stroke="{stroke}" stroke-opacity="0.35"/>')
    if label:
        out += (f'<text x="{cx:g}" y="{cy + 6:g}" font-size="17" font-weight="bold" text-anchor="middle" '
                f'fill="{ink}">{label}</text>')
    return out


def _point(picture: BoardPicture, slot: Slot) -> str:
    cx = _x(picture, slot.column)
    half = POINT_W / 2 - 1
    base, tip = (TOP, TOP + POINT_H) if slot.top else (BOTTOM, BOTTOM - POINT_H)
    colour = COLOURS["dark"] if (slot.column + slot.top) % 2 == 0 else COLOURS["light"]
    side = slot.side.name.lower() if slot.side else "none"
    pinned = f' data-pinned="{slot.pinned.name.lower()}"' if slot.pinned else ""
    parts = [f'<g class="point" data-point="{slot.label}" data-side="{side}" data-count="{slot.count}"{pinned}>',
             f'<polygon points="{cx - half:g},{base} {cx + half:g},{base} {cx:g},{tip}" fill="{colour}"/>']
    step = 2 * R
    first = 0
    if slot.pinned is not None:  # plakoto: the pinned checker at the edge, its pinners on top of it
        cy = base + R if slot.top else base - R
        parts.append(f'<g class="pinned" data-side="{slot.pinned.name.lower()}">'
                     + _checker(cx, cy, slot.pinned)
                     + f'<circle cx="{cx:g}" cy="{cy:g}" r="{R + 1}" fill="none" stroke="#d62828" '
                       f'stroke-width="3"/></g>')
        first = 1
    shown = STACK - first
    for i in range(min(slot.count, shown)):
        at = i + first
        cy = base + R + at * step - first * 8 if slot.top else base - R - at * step + first * 8
        label = str(slot.count) if i == shown - 1 and slot.count > shown else ""
        assert slot.side is not None
        parts.append(_checker(cx, cy, slot.side, label))
    parts.append("</g>")
    # point numbers outside the frame's inner edge, from the side on roll's view
    ny = TOP - 9 if slot.top else BOTTOM + 21
    parts.append(f'<text class="label" x="{cx:g}" y="{ny}" font-size="15" text-anchor="middle" '
                 f'fill="{COLOURS["label"]}">{slot.label}</text>')
    return "".join(parts)


def _bar(picture: BoardPicture, side: Side, upper: bool) -> str:
    """A side's bar checkers, stacked from the middle outwards."""
    count = picture.position.side(side).bar
    cx = BAR_X + BAR_W / 2
    parts = [f'<g class="bar" data-side="{side.name.lower()}" data-count="{count}">']
    for i in range(min(count, 4)):
        offset = R + 8 + i * 2 * R
        cy = MIDDLE - offset if upper else MIDDLE + offset
        label = str(count) if i == 3 and count > 4 else ""
        parts.append(_checker(cx, cy, side, label))
    parts.append("</g>")
    return "".join(parts)


def _tray(picture: BoardPicture, side: Side, upper: bool) -> str:
    """``side``'s borne-off checkers edge-on in the tray beside its home board, with their count;
    ``upper``: the top half (the top side's)."""
    count = picture.position.side(side).off
    fill, stroke, _ = CHECKER[side]
    x0 = 5 if picture.home_on_left(side) else 745
    parts = [f'<g class="off" data-side="{side.name.lower()}" data-count="{count}">']
    for i in range(count):
        y = TOP + 2 + i * 11 if upper else BOTTOM - 11 - i * 11
        parts.append(f'<rect x="{x0}" y="{y}" width="50" height="9" rx="2" fill="{fill}" stroke="{stroke}"/>')
    if count:
        ty = TOP + 2 + count * 11 + 16 if upper else BOTTOM - 11 - (count - 1) * 11 - 8
        parts.append(f'<text x="{x0 + 25}" y="{ty}" font-size="14" text-anchor="middle" '
                     f'fill="{COLOURS["label"]}">{count} off</text>')
    parts.append("</g>")
    return "".join(parts)


def _cube(picture: BoardPicture) -> str:
    if not picture.position.variant.cube:  # portes: a game without a doubling cube draws none
        return ""
    match = picture.match
    cube = match.cube if match is not None else None
    value = cube.value if cube else 1
    owner = cube.owner if cube else None
    x0 = 10 if not picture.home_left else 745
    if owner is None:
        y0 = MIDDLE - 22
    elif owner is picture.top_side:
        y0 = TOP + 4
    else:
        y0 = BOTTOM - 48
    if match is not None and match.crawford:
        return (f'<g class="cube" data-value="0" data-owner="none"><text x="{x0 + 22}" y="{MIDDLE + 5}" '
                f'font-size="12" text-anchor="middle" fill="{COLOURS["label"]}">Crawford</text></g>')
    shown = 64 if owner is None and value == 1 else value  # a centred cube shows 64, as on a real board
    parts = [f'<g class="cube" data-value="{value}" data-owner="{owner.name.lower() if owner else "centre"}">',
             _cube_face(x0, y0, shown), "</g>"]
    if cube is not None and cube.offered_by is not None:
        # the offered cube, turned to the new value, in the doubled side's half of the board
        doubled_top = cube.offered_by is picture.bottom_side
        cx = LEFT_X + 150 if picture.position.on_roll is picture.bottom_side else RIGHT_X + 150
        cy = MIDDLE - 60 if doubled_top else MIDDLE + 60
        parts.append(f'<g class="offered" data-value="{2 * cube.value}" '
                     f'data-by="{cube.offered_by.name.lower()}">{_cube_face(cx - 22, cy - 22, 2 * cube.value)}'
                     f'<text x="{cx:g}" y="{cy + 40:g}" font-size="13" text-anchor="middle" fill="#333">'
                     f'{cube.offered_by.name.lower()} doubles</text></g>')
    return "".join(parts)


def _cube_face(x: float, y: float, value: int) -> str:
    size = 44
    font = 22 if value < 100 else 16 if value < 10000 else 11
    return (f'<rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" rx="6" fill="#fbfbf6" stroke="#222" '
            f'stroke-width="2"/><text x="{x + size / 2:g}" y="{y + size / 2 + font / 3:g}" font-size="{font}" '
            f'font-weight="bold" text-anchor="middle" fill="#111">{value}</text>')


_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _dice(picture: BoardPicture) -> str:
    if not picture.dice:
        return ""
    roller = picture.position.on_roll
    fill, stroke, ink = CHECKER[roller]
    # the roller's dice in the right half when it sits at the bottom, else the left, as at a table
    start = RIGHT_X if roller is picture.bottom_side else LEFT_X
    size = 40
    parts = [f'<g class="dice" data-dice="{picture.dice[0]}{picture.dice[1]}">']
    for i, die in enumerate(picture.dice):
        x = start + 150 - size - 6 + i * (size + 12)
        y = MIDDLE - size / 2
        parts.append(f'<rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" rx="7" fill="{fill}" '
                     f'stroke="{stroke}" stroke-width="2"/>')
        for dx, dy in _PIPS[die]:
            parts.append(f'<circle cx="{x + size / 2 + dx * 10:g}" cy="{y + size / 2 + dy * 10:g}" r="4" fill="{ink}"/>')
    parts.append("</g>")
    return "".join(parts)


def _side_text(picture: BoardPicture, side: Side, upper: bool) -> str:
    view = picture.position.side(side)
    x = 768 if picture.home_on_left(side) else 32  # the margin across from the side's tray
    y = 120 if upper else 360
    colour = COLOURS["label"]
    parts = [f'<text x="{x}" y="{y}" font-size="13" text-anchor="middle" fill="{colour}">{side.name.lower()}</text>',
             f'<text class="pips" data-side="{side.name.lower()}" x="{x}" y="{y + 20}" font-size="16" '
             f'font-weight="bold" text-anchor="middle" fill="{colour}">{view.pip_count}</text>',
             f'<text x="{x}" y="{y + 34}" font-size="11" text-anchor="middle" fill="{colour}">pips</text>']
    if score := picture.score(side):
        parts.append(f'<text class="score" data-side="{side.name.lower()}" x="{x}" y="{y + 56}" font-size="14" '
                     f'text-anchor="middle" fill="{colour}">{score}</text>')
    if picture.position.on_roll is side:
        parts.append(f'<text x="{x}" y="{y - 18}" font-size="11" text-anchor="middle" fill="#ffd86b">on roll</text>')
    if picture.shows_direction:
        parts.append(_direction(picture, side, x, 50 if upper else 428))
    return "".join(parts)


def _direction(picture: BoardPicture, side: Side, x: float, y: float) -> str:
    """A curved arrow showing which way ``side`` travels round the board, and its label."""
    clockwise = picture.clockwise(side)
    name = "clockwise" if clockwise else "anticlockwise"
    colour = CHECKER[side][0] if side is Side.WHITE else "#111111"
    # an arc of about 270 degrees round (x, y), radius 11, with its head at the end
    # the arc ends at the circle's bottom, where a clockwise turn heads left, an anticlockwise right
    if clockwise:
        arc = f"M {x - 11:g} {y:g} A 11 11 0 1 1 {x:g} {y + 11:g}"
        head = f"{x + 3:g},{y + 5:g} {x - 5:g},{y + 11:g} {x + 3:g},{y + 17:g}"
    else:
        arc = f"M {x + 11:g} {y:g} A 11 11 0 1 0 {x:g} {y + 11:g}"
        head = f"{x - 3:g},{y + 5:g} {x + 5:g},{y + 11:g} {x - 3:g},{y + 17:g}"
    return (f'<g class="direction" data-side="{side.name.lower()}" data-direction="{name}">'
            f'<path d="{arc}" fill="none" stroke="{colour}" stroke-width="3"/>'
            f'<polygon points="{head}" fill="{colour}"/>'
            f'<text x="{x:g}" y="{y + 28:g}" font-size="9" text-anchor="middle" fill="{COLOURS["label"]}">'
            f'{name}</text></g>')


def render(picture: BoardPicture, width: int = DEFAULT_WIDTH, title: str = "") -> str:
    """The board as an SVG document.

    :param width: pixels, ``MIN_WIDTH``-``MAX_WIDTH``; the height is 5/8 of it.
    :param title: text for the ``<title>`` element (e.g. the position's IDs).
    """
    height = width * VIEW_H // VIEW_W
    c = COLOURS
    body = [
        f'<rect width="{VIEW_W}" height="{VIEW_H}" fill="{c["frame"]}"/>',
        f'<rect x="{LEFT_X}" y="{TOP}" width="{6 * POINT_W}" height="{BOTTOM - TOP}" fill="{c["board"]}"/>',
        f'<rect x="{RIGHT_X}" y="{TOP}" width="{6 * POINT_W}" height="{BOTTOM - TOP}" fill="{c["board"]}"/>',
        f'<rect x="{BAR_X}" y="{TOP}" width="{BAR_W}" height="{BOTTOM - TOP}" fill="{c["bar"]}"/>',
    ]
    body += [_point(picture, slot) for slot in picture.slots()]
    body.append(_bar(picture, picture.bottom_side, upper=True))  # it enters in the top home board
    body.append(_bar(picture, picture.top_side, upper=False))
    body.append(_tray(picture, picture.top_side, upper=True))
    body.append(_tray(picture, picture.bottom_side, upper=False))
    body.append(_cube(picture))
    body.append(_dice(picture))
    body.append(_side_text(picture, picture.top_side, upper=True))
    body.append(_side_text(picture, picture.bottom_side, upper=False))
    if picture.match is not None and picture.match.length:
        body.append(f'<text x="{BAR_X + BAR_W / 2:g}" y="{TOP - 9}" font-size="12" text-anchor="middle" '
                    f'fill="{c["label"]}">{picture.match.length} pt</text>')
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
            f'viewBox="0 0 {VIEW_W} {VIEW_H}" font-family="DejaVu Sans, Verdana, sans-serif">')
    return "".join([head, f"<title>{escape(title)}</title>" if title else "", *body, "</svg>"]) + "\n"
