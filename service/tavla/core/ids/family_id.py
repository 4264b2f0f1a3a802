"""The Family ID: the compact, lossless ID of a position of the barless tavla-family variants
(plakoto, fevga, long nardy), which GNU Backgammon's Position ID cannot hold (pinned checkers,
15 checkers on one point of each side, another geometry). docs/variants.md, "The Family ID".

**Format.** 24 bytes, one per point of the side on roll, its own numbering: byte ``i`` is its
point ``i + 1``. Each byte: bits 0-3 the number of checkers on top of the point (0-15); bit 7
set when those checkers are the opponent's; bit 6 set when one checker of the *other* side is
pinned beneath them (plakoto only); bits 4-5 zero. An empty point is 0. Borne-off checkers are
the rest of each side's 15; there is no bar. The text form is the 24 bytes in unpadded
base64url (RFC 4648 section 5): 32 characters. The variant and the side on roll are not in the
ID: the ruleset names the variant, ``on_roll`` travels beside it (as with the Position ID).

Example: plakoto's start, white on roll: point 24 holds 15 of white's (``0x0f``), point 1 15 of
black's (``0x8f``): ``jwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP``.

Decoding validates the whole position through the variant (``Position.from_sides``), so every
ID decodes to a legal position or is refused, and ``decode(encode(p)) == p`` for every position
``p`` of these variants between turns (tests/ids/test_family_id.py, Hypothesis).
"""

from __future__ import annotations

import base64
import binascii

from tavla.core.errors import InvalidInputError
from tavla.core.rules.position import Position, Side, SideView
from tavla.core.rules.variant import Direction, Variant

LENGTH = 24  # bytes
TEXT_LENGTH = 32  # characters
_THEIRS = 0x80
_PINNED_BELOW = 0x40
_COUNT = 0x0F


def _their_point(variant: type[Variant], p: int) -> int:
    if variant.direction is Direction.OPPOSITE:
        return 25 - p
    return p + 12 if p <= 12 else p - 12


def encode_bytes(position: Position) -> bytes:
    """The 24 bytes of ``position`` (side on roll's view)."""
    variant = position.variant
    mine, theirs = position.side(position.on_roll), position.side(position.on_roll.other)
    my_pins, their_pins = set(mine.pinned), set(theirs.pinned)
    out = bytearray(LENGTH)
    for p in range(1, 25):
        q = _their_point(variant, p)
        m, t = mine.points[p - 1], theirs.points[q - 1]
        if p in my_pins:  # mine pinned under theirs
            out[p - 1] = _THEIRS | _PINNED_BELOW | t
        elif q in their_pins:
            out[p - 1] = _PINNED_BELOW | m
        elif t:
            out[p - 1] = _THEIRS | t
        else:
            out[p - 1] = m
    return bytes(out)


def encode(position: Position) -> str:
    """The 32-character text form of ``position``'s Family ID."""
    return base64.urlsafe_b64encode(encode_bytes(position)).decode("ascii").rstrip("=")


def decode_bytes(raw: bytes, on_roll: Side, variant: type[Variant], field: str = "position.family_id") -> Position:
    """The position of 24 Family ID bytes, ``on_roll`` on roll, of ``variant``.

    :raises InvalidInputError: not 24 bytes, a reserved bit set, a pin in a variant without
        pinning or with no stack on top, or a position the variant refuses (more than 15
        checkers of a side, ...), under ``field``.
    """
    if len(raw) != LENGTH:
        raise InvalidInputError(field, f"has {len(raw)} bytes; a Family ID has {LENGTH}")
    mine, theirs = [0] * 24, [0] * 24
    my_pins: list[int] = []
    their_pins: list[int] = []
    pinning = variant.contact.value == "pin"
    for p, byte in enumerate(raw, 1):
        if byte & 0x30:
            raise InvalidInputError(field, f"point {p}: reserved bits set in {byte:#04x}")
        count, opp, pinned = byte & _COUNT, byte & _THEIRS, byte & _PINNED_BELOW
        q = _their_point(variant, p)
        if pinned and (not pinning or not count):
            raise InvalidInputError(field, f"point {p}: a pinned checker needs a pinning game and a "
                                           "checker on top")
        if opp and not count:
            raise InvalidInputError(field, f"point {p}: no checkers but an owner ({byte:#04x})")
        if opp:
            theirs[q - 1] += count
            if pinned:
                mine[p - 1] += 1
                my_pins.append(p)
        else:
            mine[p - 1] += count
            if pinned:
                theirs[q - 1] += 1
                their_pins.append(q)
    n = variant.checkers
    views = []
    for counts, pins, side in ((mine, my_pins, on_roll), (theirs, their_pins, on_roll.other)):
        on_board = sum(counts)
        if on_board > n:
            raise InvalidInputError(field, f"{side.name.lower()} has {on_board} checkers; a side has {n}")
        views.append(SideView(tuple(counts), 0, n - on_board, tuple(sorted(pins))))
    white, black = (views[0], views[1]) if on_roll is Side.WHITE else (views[1], views[0])
    try:
        return Position.from_sides(on_roll, white, black, variant)
    except InvalidInputError as exc:
        raise InvalidInputError(field, exc.reason) from None


def decode(text: str, on_roll: Side, variant: type[Variant], field: str = "position.family_id") -> Position:
    """The position of a 32-character Family ID (:func:`decode_bytes`).

    :raises InvalidInputError: not 32 base64url characters, or as :func:`decode_bytes`.
    """
    if len(text) != TEXT_LENGTH:
        raise InvalidInputError(field, f"has {len(text)} characters; a Family ID has {TEXT_LENGTH}")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InvalidInputError(field, f"{text!r} is not base64url") from None
    if base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=") != text:
        raise InvalidInputError(field, f"{text!r} is not a canonical base64url text")
    return decode_bytes(raw, on_roll, variant, field)
