"""The Family ID (core/ids/family_id.py; docs/variants.md): the compact ID of plakoto, fevga and
long nardy positions, lossless (Hypothesis round trips) and validated on decode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from tavla.core import InvalidInputError, Position, Side, find_variant
from tavla.core.ids import family_id, position_id
from tavla.core.rules.variant import CodecError
from variant_positions import FAMILY, family_positions, self_play_positions


@settings(max_examples=400)
@given(family_positions())
def test_round_trip_of_any_legal_position(position):
    text = family_id.encode(position)
    assert len(text) == 32
    back = family_id.decode(text, position.on_roll, position.variant)
    assert back == position
    assert back.side(Side.WHITE) == position.side(Side.WHITE)
    assert back.side(Side.BLACK) == position.side(Side.BLACK)
    assert family_id.decode_bytes(family_id.encode_bytes(position), position.on_roll, position.variant) == position


@pytest.mark.parametrize("name", FAMILY)
def test_round_trip_of_self_play_positions(name):
    for position in self_play_positions(name, 20, 300):
        assert family_id.decode(family_id.encode(position), position.on_roll, position.variant) == position


def test_start_positions_and_the_documented_example():
    plakoto = Position.initial(variant=find_variant("plakoto"))
    assert family_id.encode(plakoto) == "jwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP"
    fevga = Position.initial(variant=find_variant("fevga"))
    assert family_id.encode_bytes(fevga)[11] == 0x8F and family_id.encode_bytes(fevga)[23] == 0x0F


@pytest.mark.parametrize(("raw", "why"), [
    (bytes(23), "24"), (bytes([0x10] + [0] * 23), "reserved"), (bytes([0x80] + [0] * 23), "owner"),
    (bytes([0x0F, 0x0F] + [0] * 22), "30 checkers"), (bytes([0x41] + [0] * 23), "pinning game"),
])
def test_bad_ids_are_refused_naming_the_field(raw, why):
    variant = find_variant("fevga")
    with pytest.raises(InvalidInputError) as err:
        family_id.decode_bytes(raw, Side.WHITE, variant)
    assert err.value.field == "position.family_id" and why in err.value.reason


def test_text_form_checks_and_no_gnu_ids_for_these_variants():
    with pytest.raises(InvalidInputError):
        family_id.decode("not an id", Side.WHITE, find_variant("plakoto"))
    with pytest.raises(CodecError):
        position_id.encode(Position.initial(variant=find_variant("plakoto")))
