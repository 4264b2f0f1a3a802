"""Print the GNU Backgammon Position ID of a board, for writing conformance scenarios.

Each side is given in its own numbering (RULES.md R1: its home board is 1-6, it moves from 24
towards 1) as ``POINT:COUNT`` pairs; checkers not placed and not on the bar are borne off, out of
the variant's checkers a side (``--variant``: backgammon's 15 by default, hypergammon's 3). The ID
is computed by the rules core (``tavla.core.ids.position_id.encode``), from the side on roll's view.

    .venv-test/bin/python clients/conformance/position_id.py \\
        --white '24:2 13:4 8:3 6:5' --white-bar 1 --black '24:2 13:5 8:3 6:5'
    4HPwATDgc/AAWA  (the ID; --on-roll black for black on roll)

``start`` stands for the starting position ``24:2 13:5 8:3 6:5`` (R2), of backgammon only.

    .venv-test/bin/python clients/conformance/position_id.py --variant hypergammon \\
        --white '1:1' --black '4:1 5:1 6:1' --on-roll black
    AQAAoAIAAAAAAA  (white has borne off 2 of its 3)
"""

from __future__ import annotations

import argparse
import sys

from tavla.core import CHECKERS, Position, Side, SideView, Variant, find_variant
from tavla.core.ids import position_id

START = "24:2 13:5 8:3 6:5"


def side_view(text: str, bar: int, checkers: int = CHECKERS) -> SideView:
    """A side of ``checkers`` checkers from ``"POINT:COUNT ..."`` (``start`` for backgammon's
    starting position) and its bar; the rest are borne off."""
    counts = [0] * 24
    for pair in (START if text.strip() == "start" else text).split():
        point, count = (int(x) for x in pair.split(":"))
        counts[point - 1] += count
    return SideView(tuple(counts), bar, checkers - sum(counts) - bar)


def encode(white: str, black: str, *, white_bar: int = 0, black_bar: int = 0, on_roll: str = "white",
           variant: str = "backgammon") -> str:
    """The Position ID of the board of ``variant`` (a variant name), the side ``on_roll`` ("white"
    or "black") on roll.

    :raises tavla.core.InvalidInputError: an unknown variant, or a side with more checkers than
        the variant's.
    """
    side = Side.WHITE if on_roll == "white" else Side.BLACK
    rules: type[Variant] = find_variant(variant)
    n = rules.checkers
    return position_id.encode(Position.from_sides(side, side_view(white, white_bar, n), side_view(black, black_bar, n),
                                                  rules))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--white", required=True, help="white's checkers, 'POINT:COUNT ...' or 'start'")
    parser.add_argument("--black", required=True, help="black's checkers, 'POINT:COUNT ...' or 'start'")
    parser.add_argument("--white-bar", type=int, default=0)
    parser.add_argument("--black-bar", type=int, default=0)
    parser.add_argument("--on-roll", choices=["white", "black"], default="white")
    parser.add_argument("--variant", default="backgammon", help="a variant name: backgammon (15 a side), hypergammon (3)")
    args = parser.parse_args(argv)
    print(encode(args.white, args.black, white_bar=args.white_bar, black_bar=args.black_bar,
                 on_roll=args.on_roll, variant=args.variant))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
