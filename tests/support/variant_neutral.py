"""The core's side of the variants' differential test: positions to and from the neutral format.

The independent reference generator (tests/variants/reference/, written from variants-rules.md alone)
and the core meet only in this plain-Python format; :func:`core_results` is what the core's
generator reaches, to be compared with the reference's ``legal_results``.

The format's definition (tests/variants/reference/NEUTRAL.md, copied verbatim):

    # The neutral position format shared by the variant reference (s20-ref) and the main core (s20-pin, s20-bg)

    A plain-Python value, no project imports, so the independent reference and the core's adapter
    (tests/support/variant_neutral.py, written by s20-pin) meet only here.

        NeutralPosition = {
            "variant": "plakoto" | "fevga" | "long_nardy" | "portes" | "backgammon" | "tavla" | "nackgammon" | "hypergammon",
            "on_roll": "W" | "B",
            "points": {p: "WWB" ...},   # p = 1..24 in WHITE's numbering (physical places; see below);
                                       # the string lists the checkers on p from the BOTTOM up
                                       # ("BW" = a black checker pinned under a white one in plakoto;
                                       # "WWW" = three white checkers). Empty points are omitted.
            "bar": {"W": n, "B": n},     # checkers on the bar (0 for variants without a bar)
            "off": {"W": n, "B": n},     # checkers borne off
        }

    White's numbering: white's point 1 is white's deepest home point (the one it bears off from), 24 its
    farthest point back. Black's own numbering: opposite directions (backgammon, tavla, portes,
    plakoto, nackgammon, hypergammon): black's point q is white's 25 - q; same direction (fevga, long
    nardy): black's point q is white's ((q + 11) mod 24) + 1 (black's 24 = white's 12). Exactly as
    docs/variants-rules.md states.

    A canonical, hashable form (for sets of results): `freeze(pos)` =
    `(variant, on_roll, tuple(sorted(points.items())), bar W, bar B, off W, off B)`.

    The reference's entry point (tests/variants/reference/__init__.py):

        legal_results(pos: NeutralPosition, d1: int, d2: int) -> set[frozen position]
            # every distinct position the side on roll can reach by a legal play of the whole roll
            # (R7-style maximal use per variants-rules.md), with on_roll STILL the mover (not flipped);
            # the empty play (no legal move) gives {freeze(pos)}.
        outcome(pos) -> None | ("W"|"B"|"draw", points)   # game over and what it pays, per variants-rules.md "Ours"

    Game-history facts the rules need (long nardy's first throw, fevga's start rule, plakoto's mother)
    are read from the position alone: a side with all 15 checkers on its start point has not moved yet.
"""

from __future__ import annotations

from typing import Any

from tavla.core import Position, Side, SideView, find_variant
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.variant import Direction, Variant

NeutralPosition = dict[str, Any]
Frozen = tuple[Any, ...]
_SIDE = {"W": Side.WHITE, "B": Side.BLACK}
_LETTER = {Side.WHITE: "W", Side.BLACK: "B"}


def black_point(variant: type[Variant], p: int) -> int:
    """Black's own number of white's point ``p``."""
    if variant.direction is Direction.OPPOSITE:
        return 25 - p
    return ((p + 11) % 24) + 1


def freeze(pos: NeutralPosition) -> Frozen:
    """The canonical hashable form of a neutral position (neutral.md)."""
    return (pos["variant"], pos["on_roll"], tuple(sorted(pos["points"].items())),
            pos["bar"]["W"], pos["bar"]["B"], pos["off"]["W"], pos["off"]["B"])


def to_core(pos: NeutralPosition) -> Position:
    """The core :class:`Position` of a neutral position (validated by ``Position.from_sides``)."""
    variant = find_variant(pos["variant"])
    white, black = [0] * 24, [0] * 24
    pinned: dict[Side, list[int]] = {Side.WHITE: [], Side.BLACK: []}
    for p, stack in pos["points"].items():
        q = black_point(variant, p)
        white[p - 1] += stack.count("W")
        black[q - 1] += stack.count("B")
        if len(set(stack)) == 2:  # the bottom checker is pinned under the other side's
            side = _SIDE[stack[0]]
            pinned[side].append(p if side is Side.WHITE else q)
    views = {}
    for side, counts in ((Side.WHITE, white), (Side.BLACK, black)):
        letter = _LETTER[side]
        views[side] = SideView(tuple(counts), pos["bar"][letter], pos["off"][letter], tuple(sorted(pinned[side])))
    return Position.from_sides(_SIDE[pos["on_roll"]], views[Side.WHITE], views[Side.BLACK], variant)


def from_core(position: Position, on_roll: Side | None = None) -> NeutralPosition:
    """The neutral form of ``position`` (``on_roll``: the side to name as on roll, default the
    position's)."""
    variant = position.variant
    white, black = position.side(Side.WHITE), position.side(Side.BLACK)
    points: dict[int, str] = {}
    for p in range(1, 25):
        q = black_point(variant, p)
        w, b = white.points[p - 1], black.points[q - 1]
        if not w and not b:
            continue
        if w and b:
            points[p] = "W" + "B" * b if p in white.pinned else "B" + "W" * w
        else:
            points[p] = "W" * w + "B" * b
    name = variant.name
    return {"variant": name, "on_roll": _LETTER[on_roll or position.on_roll], "points": points,
            "bar": {"W": white.bar, "B": black.bar}, "off": {"W": white.off, "B": black.off}}


def core_results(pos: NeutralPosition, d1: int, d2: int) -> set[Frozen]:
    """Every distinct position the core's generator reaches from ``pos`` with ``d1``-``d2``,
    frozen, the mover still on roll; ``{freeze(pos)}`` when nothing can be played."""
    position = to_core(pos)
    out = set()
    for move in legal_moves(position, (d1, d2)):
        after = Position(move.board_after, position.on_roll, position.variant)
        out.add(freeze(from_core(after)))
    return out


def core_outcome(pos: NeutralPosition) -> tuple[str, int] | None:
    """``None`` while the game goes on, else (``"W"``, ``"B"`` or ``"draw"``, points paid with
    the cube at 1 under the variant's own preset), as the reference's ``outcome`` answers."""
    from tavla.core.match.ruleset import Ruleset
    from tavla.core.rules.scoring import score_game

    position = to_core(pos)
    if position.drawn:
        return ("draw", 0)
    if position.winner is None:
        return None
    variant = position.variant
    result = score_game(position, Ruleset(variant=variant.name, cube=variant.cube, crawford=variant.cube))
    return (_LETTER[result.winner], result.points)
