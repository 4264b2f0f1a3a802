"""The fast wire encoder (tavla.server.convert.wire) against the straightforward protobuf builder.

The reference (tests/support/reference_encoder.py) builds every message field by field with the protobuf
library, the way the server did before the encoder existed; the encoder must give the very same bytes for every
(position, roll) of the 79 real matches in tests/data/matches, and for random and odd positions
(bar, borne off, white and black on roll).
"""

from __future__ import annotations

import glob
import os
import random

import pytest

from tavla import core
from tavla.core import Position, Side, SideView
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import read_match
from tavla.server.convert import common as convert
from tavla.server.convert import wire
from tavla.v1 import game_pb2
import rpc_api as api
from reference_encoder import move as ref_move
from reference_encoder import position as ref_position
from reference_encoder import response as ref_response
from games import random_game_pairs

MATCHES = sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "matches", "*.mat")))


def fast_response(moves: list[core.Move], view: int = wire.FULL) -> bytes:
    response = api.ListLegalMovesResponse.FromString(convert.moves_to_wire(moves, view))
    response.dice_used = moves[0].dice_used
    return response.SerializeToString()


@pytest.fixture(scope="module")
def match_pairs() -> list[tuple[Position, tuple[int, int]]]:
    pairs: list[tuple[Position, tuple[int, int]]] = []
    engine = LocalEngine()
    for path in MATCHES:
        replay(read_match(path), engine, on_roll=lambda pos, dice: pairs.append((pos, dice)))
    return pairs


def test_corpus_is_all_there(match_pairs):
    assert len(MATCHES) == 79
    assert len(match_pairs) > 20_000


def test_every_match_position_and_id_is_identical(match_pairs):
    for position, _ in match_pairs:
        assert wire.position(position.board, position.on_roll) == ref_position(position).SerializeToString()
        assert wire.position_id(position.board) == core.position_id.encode(position)
        assert convert.position_to_proto(position) == ref_position(position)


def test_match_answers_are_byte_identical(match_pairs):
    # every fourth pair keeps the slow reference to a few seconds; the positions test covers all
    for position, dice in match_pairs[::4]:
        moves = core.legal_moves(position, dice)
        assert fast_response(moves) == ref_response(moves), (core.position_id.encode(position), dice)
        assert fast_response(moves, wire.BASIC) == ref_response(moves, basic=True)
        assert convert.move_to_proto(moves[-1]) == ref_move(moves[-1])


def test_random_game_answers_are_byte_identical():
    rng = random.Random(5)
    for board, dice in random_game_pairs(12, 1500):
        on_roll = rng.choice((Side.WHITE, Side.BLACK))
        moves = core.legal_moves(Position(board, on_roll), dice)
        assert fast_response(moves) == ref_response(moves)


@pytest.mark.parametrize("on_roll", [Side.WHITE, Side.BLACK])
@pytest.mark.parametrize("dice", [(6, 6), (5, 1), (1, 1)])
def test_start_position(on_roll, dice):
    moves = core.legal_moves(Position.initial(on_roll), dice)
    assert fast_response(moves) == ref_response(moves)


def test_bar_hits_and_bear_off_fields():
    # white: 2 on the bar, 1 borne off; black: all home with blots on its 4, 5, 6 (white's 21,
    # 20, 19, where white enters), 3 borne off: every optional field of SideCheckers is set
    white = SideView(tuple([2, 2, 2, 2, 2, 2] + [0] * 18), 2, 1)
    black = SideView(tuple([0, 3, 6, 1, 1, 1] + [0] * 18), 0, 3)
    for on_roll in (Side.WHITE, Side.BLACK):
        position = Position.from_sides(on_roll, white, black)
        assert wire.position(position.board, on_roll) == ref_position(position).SerializeToString()
        for dice in ((1, 2), (5, 5), (6, 4)):
            moves = core.legal_moves(position, dice)
            assert fast_response(moves) == ref_response(moves)


def test_varint():
    assert [wire.varint(n) for n in (0, 1, 127, 128, 300, 16383, 16384)] == [
        b"\x00", b"\x01", b"\x7f", b"\x80\x01", b"\xac\x02", b"\xff\x7f", b"\x80\x80\x01"]
    # every length of one, two and three bytes (the two-byte ones have their own branch) as the
    # protobuf library writes it: a bytes field's length prefix
    for n in [*range(0, 20_000), 2**21 - 1, 2**21, 2**35]:
        written = game_pb2.SignedGameState(state=b"x" * n).SerializeToString() if 0 < n < 20_000 else None
        if written is not None:
            assert written[1:1 + len(wire.varint(n))] == wire.varint(n), n
        assert _decoded(wire.varint(n)) == n


def _decoded(data: bytes) -> int:
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
    assert data[-1] < 0x80 and all(b >= 0x80 for b in data[:-1])
    return value


def test_caches_are_bounded(monkeypatch, match_pairs):
    monkeypatch.setattr(wire, "_CACHE_MAX", 50)
    wire._sides.clear()
    wire._steps.clear()
    wire._bits.clear()
    for position, dice in match_pairs[:200]:
        moves = core.legal_moves(position, dice)
        assert fast_response(moves) == ref_response(moves)
        assert fast_response(moves, wire.BASIC) == ref_response(moves, basic=True)
        assert len(wire._sides) <= 50 and len(wire._steps) <= 50 and len(wire._bits) <= 50
