"""Fast protobuf encoding of the hot answers: ``Move``, ``Position`` and ``ListLegalMovesResponse``.

ListLegalMoves returns up to ~1,800 moves, each with its notation, checker moves and whole
resulting position; building that as Python message objects costs ~20x the move generation
itself. Here each piece is written straight in protobuf wire format (proto3 rules: fields in
number order, zero values left out, ``repeated uint32`` packed) from small cached parts, and the
caller parses the bytes once (C code, upb) into the response message. The output is
byte-identical to building the messages with the protobuf library; ``tests/server/test_wire.py`` checks
that on every position of the match corpus against the straightforward builder.

What repeats is cached: one side's checkers (its ``SideCheckers`` bytes and its Position ID bits;
the side not moving is the same in most results of a roll) and one step sequence (its notation
and ``CheckerMove`` bytes). The caches are bounded dicts, emptied when full: most of their use
is within one answer, so they are kept small.

If a field is added to ``Move``, ``Position``, ``Board``, ``SideCheckers`` or ``CheckerMove`` in
``types.proto``, it must be added here too (the test fails until it is).
"""

from __future__ import annotations

import base64
import functools
import struct
from collections.abc import Callable, Sequence
from operator import mul

from tavla.core.ids import xgid as _xgid
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.notation import format_steps
from tavla.core.rules.position import CHECKERS, Board, Side
from tavla.server.convert.ids import MONEY_MATCH_ID

# Moves view: FULL is every field; BASIC is notation, result.on_roll and result.position_id.
FULL = 0
BASIC = 1

_CACHE_MAX = 1 << 13  # entries per cache: about 3 MB each at most
_pack26 = struct.Struct("26b").pack
# A board value as a signed byte -> the count of the side it belongs to (or 0).
_POSITIVE = bytes(range(128)) + bytes(128)  # x >= 0 -> x
_NEGATIVE = bytes(129) + bytes(range(127, 0, -1))  # x < 0 (byte 256 + x) -> -x
_PIP_WEIGHTS = tuple(range(1, 26))  # points 1..24, then the bar counts 25
_UNARY = tuple("1" * c + "0" for c in range(CHECKERS + 1))


def varint(n: int) -> bytes:
    """``n`` (>= 0) as a protobuf base-128 varint."""
    if n < 0x80:
        return _SMALL[n]
    if n < 0x4000:  # two bytes: a view's or a state's length
        return bytes((n & 0x7F | 0x80, n >> 7))
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


_SMALL = [bytes((i,)) for i in range(0x80)]


def _field(tag: bytes, payload: bytes) -> bytes:
    """A length-delimited field: tag, length, payload."""
    n = len(payload)
    return tag + (_SMALL[n] if n < 0x80 else varint(n)) + payload


# --- one side's checkers -----------------------------------------------------------------------

_sides: dict[bytes, tuple[bytes, int, int]] = {}
# One cache per checker count (a side's borne-off count is the variant's count less the rest):
# 15 is backgammon's, 3 hypergammon's.
_sides_by_count: dict[int, dict[bytes, tuple[bytes, int, int]]] = {CHECKERS: _sides}


def _side(counts: bytes, checkers: int = CHECKERS) -> tuple[bytes, int, int]:
    """(SideCheckers bytes, Position ID bits, bit count) of one side.

    :param counts: 25 bytes, the side's points 1..24 in its own numbering, then its bar.
    :param checkers: the variant's checkers a side (``Variant.checkers``): the rest are off.
    """
    cache = _sides if checkers == CHECKERS else _sides_by_count.setdefault(checkers, {})
    hit = cache.get(counts)
    if hit is not None:
        return hit
    bar = counts[24]
    off = checkers - sum(counts)
    pips = sum(map(mul, counts, _PIP_WEIGHTS))
    msg = b"\x0a\x18" + counts[:24]  # points: packed, 24 one-byte varints (each count < 128)
    if bar:
        msg += b"\x10" + _SMALL[bar]
    if off:
        msg += b"\x18" + _SMALL[off]
    if pips:
        msg += b"\x20" + varint(pips)
    if len(cache) >= _CACHE_MAX:
        cache.clear()
    value = (msg, *_id_bits(counts))
    cache[counts] = value
    return value


def _id_bits(counts: bytes) -> tuple[int, int]:
    """(Position ID bits, bit count) of one side: per point, c one-bits then a zero-bit, the
    first bit lowest (GNU Backgammon's Position ID)."""
    text = "".join(map(_UNARY.__getitem__, counts))
    return int(text[::-1], 2), len(text)


def _parts(board: Board, checkers: int = CHECKERS) -> tuple[bytes, bytes, bytes]:
    """(on-roll side's SideCheckers bytes, other side's, Position ID) of an internal board of a
    variant with ``checkers`` a side."""
    raw = _pack26(*board)
    msg_me, bits_me, _ = _side(raw[1:].translate(_POSITIVE), checkers)
    msg_them, bits_them, n_them = _side(raw[24::-1].translate(_NEGATIVE), checkers)
    return msg_me, msg_them, base64.b64encode((bits_them | bits_me << n_them).to_bytes(10, "little"))[:14]


def position_id(board: Board) -> str:
    """The Position ID of an internal board (same as :func:`tavla.core.ids.position_id.encode`)."""
    return _parts(board)[2].decode("ascii")


#: The compiled writer of a FULL ``Position`` of 15 checkers a side
#: (``tavla_accel.position_bytes``), handed down by the engine's move generator at start-up
#: (:func:`use_compiled`); ``None``: the Python writer below.
_compiled_position: Callable[[Board, int], bytes] | None = None


def use_compiled(writer: Callable[[Board, int], bytes] | None) -> None:
    """Make :func:`position` write a FULL ``Position`` of 15 checkers a side with ``writer``
    (``(board, on_roll 1|2) -> bytes``, the same bytes, ValueError for a board it refuses;
    ``None``: the Python writer alone). Called by ``tavla.server.api.generator`` at start-up."""
    global _compiled_position
    _compiled_position = writer


def position(board: Board, on_roll: Side, view: int = FULL, checkers: int = CHECKERS) -> bytes:
    """Serialized ``Position`` of the internal ``board`` with ``on_roll`` on roll.

    FULL: on_roll, board (both sides with pip counts), ids (position_id, gnubg_id, xgid); BASIC:
    on_roll and position_id (the ``checkers`` oneof's ID member) only.

    :param checkers: the variant's checkers a side (``Variant.checkers``; hypergammon 3).
    """
    compiled = _compiled_position
    if compiled is not None and view == FULL and checkers == CHECKERS:
        try:
            return compiled(board, on_roll)
        except (ValueError, TypeError):  # a board it refuses: the Python writer's answer (or error)
            pass
    msg_me, msg_them, pid = _parts(board, checkers)
    head = _ON_ROLL[on_roll]
    if view == BASIC:
        return head + b"\x1a\x0e" + pid
    white, black = (msg_me, msg_them) if on_roll is Side.WHITE else (msg_them, msg_me)
    return (head + _field(b"\x12", _field(b"\x0a", white) + _field(b"\x12", black))
            + _ids(board if on_roll is Side.BLACK else _flip(board), on_roll, pid))


_ON_ROLL = {Side.WHITE: b"\x08\x01", Side.BLACK: b"\x08\x02"}  # tavla.v1.Side numbers

# The Match ID part of a bare position's GNUBG ID: money play, centred cube, no dice.
_MONEY_MATCH = {side: b":" + MONEY_MATCH_ID[side].encode("ascii") for side in Side}
_XGID_CHARS = {v: c.encode("ascii") for v, c in _xgid._CHARS.items()}  # by signed count


def _ids(black_view: Board, on_roll: Side, pid: bytes) -> bytes:
    """Field 6 of a ``Position``, its ``PositionIds``: ``position_id``, ``gnubg_id`` (Position ID
    and a money Match ID) and ``xgid`` (:func:`tavla.core.ids.xgid.encode_position`); under 128 bytes.

    :param black_view: the internal board as black, XGID's bottom player, sees it: the board
        itself when black is on roll, else the board flipped.
    """
    gnubg = pid + _MONEY_MATCH[on_roll]
    x = (_XGID_PREFIX + b"".join([_XGID_CHARS[v] for v in black_view]) + _XGID_SUFFIX[on_roll])
    ids = b"\x0a\x0e" + pid + b"\x12" + _SMALL[len(gnubg)] + gnubg + b"\x1a" + _SMALL[len(x)] + x
    return b"\x32" + _SMALL[len(ids)] + ids


_XGID_PREFIX = _xgid.PREFIX.encode("ascii")
_XGID_SUFFIX = {side: text.encode("ascii") for side, text in _xgid._POSITION_SUFFIX.items()}


_bits: dict[bytes, tuple[int, int]] = {}


def _side_bits(counts: bytes) -> tuple[int, int]:
    """(Position ID bits, bit count) of one side's 25 counts, for answers without boards."""
    if len(_bits) >= _CACHE_MAX:
        _bits.clear()
    value = _bits[counts] = _id_bits(counts)
    return value


# --- moves -------------------------------------------------------------------------------------

_steps: dict[tuple[CheckerMove, ...], tuple[bytes, bytes]] = {}


def _checker_move(step: CheckerMove) -> bytes:
    f, t, die, hit = step
    msg = b""
    if f:
        msg += b"\x08" + _SMALL[f]
    if t:
        msg += b"\x10" + _SMALL[t]
    if die:
        msg += b"\x18" + _SMALL[die]
    if hit:
        msg += b"\x20\x01"
    return _field(b"\x12", msg)


def _move_head(steps: tuple[CheckerMove, ...]) -> tuple[bytes, bytes]:
    """(FULL, BASIC) bytes of a move's fields before its result: notation, checker moves."""
    hit = _steps.get(steps)
    if hit is not None:
        return hit
    text = format_steps(steps).encode("ascii")
    notation = _field(b"\x0a", text) if text else b""
    value = (notation + b"".join(_checker_move(s) for s in steps), notation)
    if len(_steps) >= _CACHE_MAX:
        _steps.clear()
    _steps[steps] = value
    return value


def move(steps: tuple[CheckerMove, ...], board_after: Board, mover: Side, view: int = FULL,
         checkers: int = CHECKERS) -> bytes:
    """Serialized ``Move``: its steps, and its result (``board_after`` flipped, the other side on roll).

    :param board_after: the board after the move in the mover's view (``core.Move.board_after``).
    :param checkers: the variant's checkers a side.
    """
    result = position(_flip(board_after), mover.other, view, checkers)
    return _move_head(steps)[view] + _field(b"\x1a", result)


def _flip(board: Board) -> Board:
    return tuple(-x for x in reversed(board))


def moves(items: Sequence[tuple[tuple[CheckerMove, ...], Board]], mover: Side, view: int = FULL,
          checkers: int = CHECKERS) -> bytes:
    """The repeated ``moves`` field (number 1) of a response, for (steps, board_after) pairs.

    ``board_after`` is the mover's view (``core.Move.board_after``); each result is that board
    flipped, with the other side on roll. ``checkers``: the variant's checkers a side.
    """
    on_roll = _ON_ROLL[mover.other]
    result_side = mover.other
    white_moved = mover is Side.WHITE
    sides, side, head, pack, small, b64 = _sides, _side, _move_head, _pack26, _SMALL, base64.b64encode
    if checkers != CHECKERS:  # another variant's count: its own cache, its own borne-off counts
        sides = _sides_by_count.setdefault(checkers, {})
        side = functools.partial(_side, checkers=checkers)
    out = []
    if view == BASIC:  # no boards: only each side's Position ID bits (a cache of their own)
        bits_of, bits_get = _side_bits, _bits.get
        for steps, after in items:
            raw = pack(*after)
            mine = raw[1:].translate(_POSITIVE)
            theirs = raw[24::-1].translate(_NEGATIVE)
            bits_me, n_me = bits_get(mine) or bits_of(mine)
            bits_them, _ = bits_get(theirs) or bits_of(theirs)
            pid = b64((bits_me | bits_them << n_me).to_bytes(10, "little"))[:14]
            move = head(steps)[1] + b"\x1a\x12" + on_roll + b"\x1a\x0e" + pid
            out.append(b"\x0a" + small[len(move)] + move)  # notation < 100 bytes: len < 128
        return b"".join(out)
    for steps, after in items:
        raw = pack(*after)
        mine = raw[1:].translate(_POSITIVE)  # the mover: not on roll in the result
        theirs = raw[24::-1].translate(_NEGATIVE)
        msg_me, bits_me, n_me = sides.get(mine) or side(mine)
        msg_them, bits_them, _ = sides.get(theirs) or side(theirs)
        pid = b64((bits_me | bits_them << n_me).to_bytes(10, "little"))[:14]
        # lengths: SideCheckers <= 33 bytes, Board <= 70: one-byte varints; Position with its IDs
        # is longer than 127
        white, black = (msg_me, msg_them) if white_moved else (msg_them, msg_me)
        board = b"\x0a" + small[len(white)] + white + b"\x12" + small[len(black)] + black
        result = (on_roll + b"\x12" + small[len(board)] + board
                  + _ids(_flip(after) if white_moved else after, result_side, pid))  # black's view
        move = head(steps)[0] + b"\x1a" + varint(len(result)) + result
        n = len(move)
        out.append(b"\x0a" + (small[n] if n < 0x80 else varint(n)) + move)
    return b"".join(out)


def legal_moves_response(moves_field: bytes, dice_used: int) -> bytes:
    """A whole serialized ``ListLegalMovesResponse``: ``moves_field`` (field 1, as :func:`moves`
    writes it) then ``dice_used`` (field 2, left out when 0 as proto3 does), in field order, so
    the bytes are those of ``SerializeToString``."""
    return moves_field + b"\x10" + varint(dice_used) if dice_used else moves_field
