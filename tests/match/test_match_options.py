"""Options that cannot apply are not silently accepted.

NewMatch with ``length: 7`` accepted and echoed ``jacoby: true, beavers: true`` though both are
money-play options; it accepted a clock of ``move_ms: 0, reserve_ms: 0`` under which every move
forfeits. Now a match's state shows Jacoby and beavers off, and a clock that gives a move less
than a second, or caps every move under one, is INVALID_ARGUMENT naming the field, on every
call that takes clock settings (NewMatch, AdvanceClock).
"""

from __future__ import annotations

import pytest

from game_driver import DICE_SECRET, SIGNER
from tavla.core import InvalidInputError
from tavla.core.match.clock import MIN_MOVE_MS, PRESETS, ClockPreset, ClockSettings, check_settings
from tavla.core.match.dice_commit import DiceKey
from tavla.core.match.ruleset import Ruleset
from tavla.server.api.engine import Engine
from tavla.server.api.match import MatchService
from tavla.server.api.referee import RefereeService
from tavla.v1 import clock_pb2
import rpc_api as api
from tavla.server.api import services
from tavla.v1 import types_pb2 as pb

ENGINE = Engine(dice_key=DiceKey(DICE_SECRET, shared=True), signer=SIGNER)
REFEREE, MATCH = RefereeService(ENGINE), MatchService(ENGINE)


_DURATIONS = {"move_ms": "move_time", "reserve_ms": "reserve", "extension_ms": "extension_time",
              "move_cap_ms": "move_cap"}


def proto_clock(**fields) -> clock_pb2.ClockSettings:
    """ClockSettings from the core's millisecond names (the API's fields are Durations)."""
    msg = clock_pb2.ClockSettings()
    for name, value in fields.items():
        if name in _DURATIONS:
            getattr(msg, _DURATIONS[name]).FromMilliseconds(value)
        else:
            setattr(msg, name, value)
    return msg


def refused_field(call, request) -> str:
    with pytest.raises(InvalidInputError) as err:
        call(request, None)
    return err.value.field


@pytest.mark.parametrize("length", [1, 7])
def test_jacoby_and_beavers_are_off_in_match_play_and_the_state_says_so(length):
    answer = REFEREE.NewMatch(api.NewMatchRequest(
        ruleset=pb.Ruleset(preset="international", jacoby=True, beavers=True), length=length), None)
    assert (answer.view.ruleset.jacoby, answer.view.ruleset.beavers) == (False, False)
    assert answer.view.match.length == length


def test_money_play_keeps_jacoby_and_beavers():
    answer = REFEREE.NewMatch(api.NewMatchRequest(
        ruleset=pb.Ruleset(preset="international", jacoby=True, beavers=True), length=0), None)
    assert (answer.view.ruleset.jacoby, answer.view.ruleset.beavers) == (True, True)


def test_ruleset_for_length():
    rules = Ruleset(jacoby=True, beavers=True)
    assert rules.for_length(0) is rules
    assert rules.for_length(5) == Ruleset()


UNPLAYABLE = [
    (dict(preset=clock_pb2.CLOCK_PRESET_RESERVE, move_ms=0, reserve_ms=0), "clock.move_time"),
    (dict(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, move_ms=0, extensions=0), "clock.move_time"),
    (dict(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, move_ms=10, extensions=1, extension_ms=100), "clock.move_time"),
    (dict(preset=clock_pb2.CLOCK_PRESET_RESERVE, move_cap_ms=1), "clock.move_cap"),
    # extensions alone: every move spends one, so a side forfeits on its fourth move of a game
    (dict(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, move_ms=0, reserve_ms=0), "clock.move_time"),
    (dict(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, move_ms=0, extensions=100), "clock.move_time"),
    (dict(preset=clock_pb2.CLOCK_PRESET_RESERVE, move_ms=400, reserve_ms=599), "clock.move_time"),
]


@pytest.mark.parametrize("clock,field", UNPLAYABLE)
def test_a_clock_no_one_can_play_under_is_refused(clock, field):
    request = api.NewMatchRequest(length=5, clock=proto_clock(**clock))
    assert refused_field(REFEREE.NewMatch, request) == field
    advance = api.AdvanceClockRequest(settings=proto_clock(**clock), side=pb.SIDE_WHITE,
                                      event=clock_pb2.CLOCK_EVENT_MOVE)
    assert refused_field(MATCH.AdvanceClock, advance) == field.replace("clock.", "settings.")


def test_the_least_playable_clocks_are_accepted():
    for settings in (ClockSettings(move_ms=MIN_MOVE_MS), ClockSettings(move_ms=0, reserve_ms=MIN_MOVE_MS),
                     ClockSettings(move_ms=MIN_MOVE_MS // 2, reserve_ms=MIN_MOVE_MS // 2),
                     ClockSettings(move_ms=30_000, move_cap_ms=MIN_MOVE_MS), *PRESETS.values()):
        assert check_settings(settings) is settings
    answer = REFEREE.NewMatch(api.NewMatchRequest(length=3, clock=proto_clock(
        preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, move_ms=MIN_MOVE_MS, extensions=0)), None)
    assert answer.view.clock.settings.move_time.ToMilliseconds() == MIN_MOVE_MS
    assert PRESETS[ClockPreset.RESERVE].move_cap_ms >= MIN_MOVE_MS
