"""GNU Backgammon Position IDs: our encoder and decoder against gnubg's on random positions."""

from __future__ import annotations

import base64

import gnubg
import pytest

from oracle_gnubg import to_gnubg
from tavla.core import InvalidInputError, Position, Side
from tavla.core.ids import position_id
from games import random_game_pairs


def test_initial_position_id():
    assert position_id.encode(Position.initial()) == "4HPwATDgc/ABMA"


def test_after_opening_five_one():
    # a known vector: 24/23 13/8 from the start, the opponent on roll
    pos = position_id.decode("4PPgASjgc/ABMA", Side.BLACK)
    assert pos.side(Side.WHITE).points[22] == 1 and pos.side(Side.WHITE).points[7] == 4
    assert pos.side(Side.BLACK) == Position.initial().side(Side.BLACK)


def test_matches_gnubg_on_game_positions():
    pairs = random_game_pairs(11, 3000)
    for board, _ in pairs:
        pos = Position(board)
        ours = position_id.encode(pos)
        assert ours == gnubg.position_id(to_gnubg(board))
        assert position_id.decode(ours, Side.WHITE).board == board
        assert position_id.decode(ours, Side.BLACK).board == board


@pytest.mark.parametrize(
    "text",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "//////////////", "AAAAAAAAAAAAAA",
     " 4HPwATDgc/ABMA", "4HPwATDgc/AB==", "4HPwATDgc/ABMB", "４HPwATDgc/ABMA"],
)
def test_bad_ids_are_invalid_input(text):
    with pytest.raises(InvalidInputError) as err:
        position_id.decode(text)
    assert err.value.field == "position.position_id"


def test_both_sides_on_one_point_is_rejected():
    # white's 24 point is black's 1 point: put checkers of both there
    bits = "1" * 15 + "0" * 25  # black: 15 on its point 1
    bits += "0" * 23 + "1" * 15 + "0" * 2  # white: 15 on its point 24
    raw = int(bits[::-1], 2).to_bytes(10, "little")
    text = base64.b64encode(raw).decode().rstrip("=")
    with pytest.raises(InvalidInputError, match="both sides"):
        position_id.decode(text)
