"""``tavla-engine show ID``: print the board of a Position ID, GNUBG ID or XGID as text (and
optionally write the SVG picture), with the position's other IDs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tavla.core import Backgammon, InvalidInputError, MatchState, Position, Side, Variant, find_variant
from tavla.core.ids import match_id
from tavla.core.ids import position_id
from tavla.core.ids import xgid
from tavla.render import BoardPicture, svg, text


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "show", help="print the board of a Position ID, GNUBG ID or XGID",
        description="Print the board of a GNU Backgammon Position ID (14 characters), GNUBG ID "
                    "(POSITION_ID:MATCH_ID) or XGID, with its other IDs. White is O, black X.",
    )
    p.add_argument("id", help="Position ID, GNUBG ID or XGID (quote it: it may hold / and :)")
    p.add_argument("--on-roll", choices=("white", "black"), default="white",
                   help="side on roll of a bare Position ID (default white; the other IDs say)")
    p.add_argument("--bottom", choices=("white", "black"), help="side drawn at the bottom (default: on roll)")
    p.add_argument("--home-left", action="store_true", help="bottom side's home board on the left")
    p.add_argument("--svg", type=Path, metavar="FILE", help="also write the SVG picture to FILE")
    p.add_argument("--width", type=int, default=svg.DEFAULT_WIDTH, help="SVG width in pixels (default 720)")
    p.add_argument("--variant", default="backgammon",
                   help="the variant the ID is a position of (its checker count: hypergammon has 3 a side; "
                        "default backgammon)")
    p.set_defaults(func=_show)


def parse_any(text_id: str, on_roll: Side = Side.WHITE, variant: type[Variant] = Backgammon
              ) -> tuple[Position, MatchState | None, tuple[int, int] | None]:
    """The position of ``variant``, match (if the ID has one) and dice (if rolled) of any of the
    three IDs.

    :raises InvalidInputError: the text is none of them, or a bad one.
    """
    text_id = text_id.strip()
    if text_id.startswith(xgid.PREFIX) or text_id.count(":") >= 8:
        x = xgid.decode(text_id, "id", variant)
        position, key = x.position, xgid.match_key(x)
    elif ":" in text_id:
        position, key = match_id.decode_gnubg_id(text_id, "id", variant)
    else:
        try:
            return position_id.decode(text_id, on_roll, variant), None, None
        except InvalidInputError as exc:
            raise InvalidInputError("id", f"not a Position ID, GNUBG ID or XGID: {exc.reason}") from None
    return position, match_id.match_of_key(key), key.dice if key.dice[0] else None


def _show(args: argparse.Namespace) -> int:
    on_roll = Side.BLACK if args.on_roll == "black" else Side.WHITE
    try:
        position, match, dice = parse_any(args.id, on_roll, find_variant(args.variant, "--variant"))
    except InvalidInputError as exc:
        print(f"tavla-engine show: {exc.reason}", file=sys.stderr)
        return 2
    bottom = {"white": Side.WHITE, "black": Side.BLACK}.get(args.bottom or "")
    picture = BoardPicture(position, match, dice, bottom, args.home_left)
    print(text.render(picture))
    key = match_id.key_of_match(match, position.on_roll, dice or (0, 0)) if match else \
        match_id.MatchKey(on_roll=position.on_roll, turn=position.on_roll)
    print()
    print(f"Position ID: {position_id.encode(position)}   ({position.on_roll.name.lower()} on roll)")
    print(f"GNUBG ID:    {match_id.encode_gnubg_id(position, key)}")
    print(f"XGID:        {xgid.encode(xgid.Xgid(position)) if match is None else _xgid_of(position, match, dice)}")
    if args.svg:
        if not svg.MIN_WIDTH <= args.width <= svg.MAX_WIDTH:
            print(f"tavla-engine show: --width {args.width} is not {svg.MIN_WIDTH}-{svg.MAX_WIDTH}", file=sys.stderr)
            return 2
        try:
            args.svg.write_text(svg.render(picture, args.width, args.id), encoding="utf-8")
        except OSError as exc:
            print(f"tavla-engine show: cannot write {args.svg}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"SVG:         {args.svg}")
    return 0


def _xgid_of(position: Position, match: MatchState, dice: tuple[int, int] | None) -> str:
    cube = match.cube
    return xgid.encode(xgid.Xgid(position, cube.value, cube.owner, "D" if cube.offered_by else "", dice or (0, 0),
                                 match.scores, match.crawford, False, False, match.length))
