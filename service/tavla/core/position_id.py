"""GNU Backgammon Position IDs.

Format (GNU Backgammon manual, "A technical description of the Position ID"): for the side not on
roll, then the side on roll, each in its own numbering, walk points 1..24 and then the bar; write
one 1-bit per checker and a 0-bit after each point. The 80 bits are packed little-endian into
10 bytes and written as 14 characters of base64 without padding. The ID does not say which
colour is on roll, so :func:`decode` takes it as an argument.
"""

from __future__ import annotations

import base64
import re

from tavla.core.errors import InvalidInputError
from tavla.core.position import CHECKERS, Position, Side, SideView

_FIELD = "position.position_id"
_ALPHABET = re.compile("[A-Za-z0-9+/]{14}")
_LENGTH = 14


def _side_counts(board: tuple[int, ...]) -> list[int]:
    """25 counts, points 1..24 then bar, of the side whose view ``board`` is."""
    counts = [x if x > 0 else 0 for x in board[1:25]]
    counts.append(board[25])
    return counts


def encode(position: Position) -> str:
    """The 14-character Position ID of ``position``."""
    on_roll = position.board
    not_on_roll = tuple(-x for x in reversed(on_roll))
    bits = 0
    n = 0
    for counts in (_side_counts(not_on_roll), _side_counts(on_roll)):
        for c in counts:
            bits |= ((1 << c) - 1) << n  # c one-bits, then the zero-bit separator
            n += c + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii").rstrip("=")


def decode(position_id: str, on_roll: Side = Side.WHITE) -> Position:
    """Parse a Position ID into a validated :class:`Position` with ``on_roll`` on roll.

    :raises InvalidInputError: not 14 base64 characters, more than 15 checkers for a side, bits
        after the 80th, or both sides on one point (field ``position.position_id``).
    """
    text = position_id
    if len(text) != _LENGTH:
        raise InvalidInputError(_FIELD, f"{position_id[:20]!r} is not 14 characters")
    if not _ALPHABET.fullmatch(text):
        raise InvalidInputError(_FIELD, f"{position_id!r} is not 14 base64 characters (A-Z a-z 0-9 + /)")
    raw = base64.b64decode(text + "==")
    bits = int.from_bytes(raw, "little")
    sides: list[list[int]] = []
    for _ in range(2):
        counts = []
        for _ in range(25):
            c = 0
            while bits & 1:
                c += 1
                bits >>= 1
            bits >>= 1
            counts.append(c)
        if sum(counts) > CHECKERS:
            raise InvalidInputError(_FIELD, f"{position_id!r} gives a side more than 15 checkers")
        sides.append(counts)
    if bits:
        raise InvalidInputError(_FIELD, f"{position_id!r} has bits past the two sides")
    views = [SideView(tuple(c[:24]), c[24], CHECKERS - sum(c)) for c in sides]
    white, black = (views[1], views[0]) if on_roll is Side.WHITE else (views[0], views[1])
    try:
        position = Position.from_sides(on_roll, white, black)
    except InvalidInputError as exc:
        raise InvalidInputError(_FIELD, f"{position_id!r}: {exc.reason}") from None
    if encode(position) != text:  # the last character's 4 spare bits must be zero
        raise InvalidInputError(_FIELD, f"{position_id!r} is not canonical: spare bits are set")
    return position
