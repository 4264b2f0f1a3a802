"""The one proto <-> core enum mapper (tavla.server.convert.enums): pairs by name, refuses a mismatch at
import, and reads request numbers with the field named."""

from __future__ import annotations

import enum

import pytest

from tavla.core import InvalidInputError, ResultKind, Side
from tavla.server.convert import enums
from tavla.server.convert.enums import EnumMap, prefix_of
from tavla.v1 import clock_pb2, match_pb2
from tavla.v1 import types_pb2 as pb

PAIRS = [value for value in vars(enums).values() if isinstance(value, EnumMap)]


def test_the_prefix_is_the_enum_name_in_upper_snake_case():
    assert [prefix_of(e) for e in (pb.ResultKind, pb.KatmerliMarsRule, match_pb2.CubeDenial, clock_pb2.ClockEvent)] == [
        "RESULT_KIND_", "KATMERLI_MARS_RULE_", "CUBE_DENIAL_", "CLOCK_EVENT_"]


def test_every_pair_round_trips_every_member():
    assert len(PAIRS) == 12  # the game phases and action kinds joined in 1.0
    for pair in PAIRS:
        for number, member in pair._in.items():
            assert pair.to_proto(member) == number and pair.from_proto(number, "f") is member


def test_values_are_paired_by_name():
    assert enums.KINDS.to_proto(ResultKind.GAMMON) == pb.RESULT_KIND_GAMMON
    assert enums.SIDES.from_proto(pb.SIDE_BLACK, "side") is Side.BLACK
    assert enums.CLOCK_PRESETS.from_proto(clock_pb2.CLOCK_PRESET_UNSPECIFIED, "preset").name == "EXTENSIONS"


def test_unknown_and_missing_numbers_name_the_field():
    with pytest.raises(InvalidInputError) as err:
        enums.CUBE_ACTIONS.from_proto(9, "action")
    assert (err.value.field, err.value.reason) == ("action", "unknown value 9")
    with pytest.raises(InvalidInputError) as err:
        enums.ENDINGS.from_proto(match_pb2.GAME_ENDING_UNSPECIFIED, "outcome.ending")
    assert (err.value.field, err.value.reason) == ("outcome.ending", "is required")


def test_a_member_on_one_side_only_fails_when_the_pair_is_made():
    class Kind(enum.Enum):
        SINGLE = 1
        GAMMON = 2
        BACKGAMMON = 3
        TRIPLE = 4

    with pytest.raises(ValueError, match="TRIPLE"):
        EnumMap(pb.ResultKind, Kind)
