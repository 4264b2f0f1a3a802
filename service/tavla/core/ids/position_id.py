"""GNU Backgammon Position IDs.

Format (GNU Backgammon manual, "A technical description of the Position ID"): for the side not on
roll, then the side on roll, each in its own numbering, walk points 1..24 and then the bar; write
one 1-bit per checker and a 0-bit after each point. The 80 bits are packed little-endian into
10 bytes and written as 14 characters of base64 without padding. The ID does not say which
colour is on roll, so :func:`decode` takes it as an argument.

The Position ID is a codec of the backgammon-geometry variants (``Variant.codecs``, key
:data:`~tavla.core.rules.variant.POSITION_ID`): a position of a variant without it is refused with
:class:`~tavla.core.rules.variant.CodecError`.
"""

from __future__ import annotations

import base64
import re

from tavla.core.errors import InvalidInputError
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.position import CHECKERS, Position, Side, SideView, side_counts
from tavla.core.rules.variant import POSITION_ID, Variant

_FIELD = "position.position_id"
_ALPHABET = re.compile("[A-Za-z0-9+/]{14}")
_LENGTH = 14


_UNARY = tuple("1" * c + "0" for c in range(CHECKERS + 1))  # a point's bits, first bit first


def encode(position: Position) -> str:
    """The 14-character Position ID of ``position``.

    :raises CodecError: the position's variant has no Position ID (field ``ruleset.variant``).
    """
    if POSITION_ID not in position.variant.codecs:
        position.variant.codec(POSITION_ID)  # raises, naming the variant
    counts = side_counts(position.board, False) + side_counts(position.board, True)
    bits = "".join(map(_UNARY.__getitem__, counts))  # 80 bits; the first is the lowest
    return base64.b64encode(int(bits[::-1], 2).to_bytes(10, "little")).decode("ascii")[:_LENGTH]


def decode(position_id: str, on_roll: Side = Side.WHITE, variant: type[Variant] = Backgammon) -> Position:
    """Parse a Position ID into a validated :class:`Position` of ``variant`` with ``on_roll`` on
    roll.

    :raises InvalidInputError: not 14 base64 characters, more than 15 checkers for a side (the
        variant's count), bits after the 80th, or both sides on one point (field
        ``position.position_id``).
    :raises CodecError: ``variant`` has no Position ID (field ``position.position_id``).
    """
    if POSITION_ID not in variant.codecs:
        variant.codec(POSITION_ID, _FIELD)
    checkers = variant.checkers
    text = position_id
    if len(text) != _LENGTH:
        raise InvalidInputError(_FIELD, f"{position_id[:20]!r} is not 14 characters")
    if not _ALPHABET.fullmatch(text):
        raise InvalidInputError(_FIELD, f"{position_id!r} is not 14 base64 characters (A-Z a-z 0-9 + /)")
    raw = base64.b64decode(text + "==")
    # The 80 bits first bit first: runs of ones separated by zeros are the counts (50 of them,
    # each followed by its zero), and what follows the 50th zero must be zeros.
    bits = format(int.from_bytes(raw, "little"), "080b")[::-1]
    runs = bits.split("0", 50)
    if len(runs) < 51:  # fewer than 50 zeros: a side has more than 15 checkers
        raise InvalidInputError(_FIELD, f"{position_id!r} gives a side more than 15 checkers")
    sides = [[len(r) for r in runs[:25]], [len(r) for r in runs[25:50]]]
    for counts in sides:
        if sum(counts) > checkers:
            raise InvalidInputError(_FIELD, f"{position_id!r} gives a side more than {checkers} checkers")
    if "1" in runs[50]:
        raise InvalidInputError(_FIELD, f"{position_id!r} has bits past the two sides")
    views = [SideView(tuple(c[:24]), c[24], checkers - sum(c)) for c in sides]
    white, black = (views[1], views[0]) if on_roll is Side.WHITE else (views[0], views[1])
    try:
        position = Position.from_sides(on_roll, white, black, variant)
    except InvalidInputError as exc:
        raise InvalidInputError(_FIELD, f"{position_id!r}: {exc.reason}") from None
    if encode(position) != text:  # the last character's 4 spare bits must be zero
        raise InvalidInputError(_FIELD, f"{position_id!r} is not canonical: spare bits are set")
    return position
