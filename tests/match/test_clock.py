"""The stateless clock (RULES.md R23-R25): preset EXTENSIONS (seed 002: per-move time plus three
60 s extensions per game), preset RESERVE (seed 004: 12 s free per move, a 2-minute match
reserve, at most 60 s a move), the 60 s reconnect window (004) and the one 5-minute break between
games (001). Every duration is whole milliseconds measured by the caller."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tavla.core import ActionReason, ClockError, InvalidInputError, Side
from tavla.core.match.clock import (
    MINUTE,
    PRESETS,
    SECOND,
    ClockEvent,
    ClockPreset,
    ForfeitReason,
    ForfeitScope,
    SideClock,
    advance,
    initial_state,
)
from google.protobuf.duration_pb2 import Duration

import rpc_api as api
from tavla.v1 import clock_pb2, match_pb2

EXT = PRESETS[ClockPreset.EXTENSIONS]
RES = PRESETS[ClockPreset.RESERVE]
W, B = Side.WHITE, Side.BLACK
MOVE = ClockEvent.MOVE
TIMEOUT = 30


def test_presets_as_the_seeds_give_them():
    assert (EXT.extensions, EXT.extension_ms, EXT.scope) == (3, 60 * SECOND, ForfeitScope.GAME)
    assert (RES.move_ms, RES.reserve_ms, RES.move_cap_ms, RES.scope) == (12 * SECOND, 2 * MINUTE, MINUTE,
                                                                          ForfeitScope.MATCH)
    for settings in (EXT, RES):
        assert (settings.reconnect_ms, settings.break_ms, settings.breaks) == (MINUTE, 5 * MINUTE, 1)


# --- R23: preset EXTENSIONS (002) ---------------------------------------------------------------


def test_a_move_within_the_move_time_costs_nothing_r23():
    result = advance(EXT, initial_state(EXT), W, MOVE, EXT.move_ms)
    assert result.forfeit is None and result.extensions_used == 0
    assert result.state.white.extensions_left == 3
    assert result.time_left_ms == EXT.move_ms + 3 * MINUTE


def test_extensions_start_on_their_own_r23():
    result = advance(EXT, initial_state(EXT), W, MOVE, EXT.move_ms + 1)
    assert result.extensions_used == 1 and result.state.white.extensions_left == 2
    result = advance(EXT, result.state, W, MOVE, EXT.move_ms + 2 * MINUTE)  # exactly two more
    assert result.extensions_used == 2 and result.state.white.extensions_left == 0
    assert result.state.black.extensions_left == 3


def test_not_moving_within_the_last_extension_loses_the_game_r23():
    state = initial_state(EXT)
    lost = advance(EXT, state, B, MOVE, EXT.move_ms + 3 * MINUTE + 1)
    assert lost.forfeit is not None
    assert (lost.forfeit.side, lost.forfeit.reason, lost.forfeit.scope) == (
        B, ForfeitReason.EXTENSIONS_EXHAUSTED, ForfeitScope.GAME)
    assert lost.state == state  # a forfeit leaves the clock as it was
    used_up = replace(state, black=SideClock(0, 0, 1))
    assert advance(EXT, used_up, B, MOVE, EXT.move_ms + 1).forfeit.reason is ForfeitReason.EXTENSIONS_EXHAUSTED


def test_extensions_are_per_game_r23():
    state = replace(initial_state(EXT), white=SideClock(0, 0, 1))
    fresh = advance(EXT, state, W, ClockEvent.NEW_GAME, 0).state
    assert fresh.white.extensions_left == 3 and fresh.black.extensions_left == 3


# --- R24: preset RESERVE (004) ------------------------------------------------------------------


def test_twelve_seconds_free_then_the_reserve_r24():
    state = initial_state(RES)
    free = advance(RES, state, W, MOVE, 12 * SECOND)
    assert free.charged_ms == 0 and free.state.white.reserve_ms == 2 * MINUTE
    charged = advance(RES, free.state, W, MOVE, 30 * SECOND)
    assert charged.charged_ms == 18 * SECOND and charged.state.white.reserve_ms == 102 * SECOND
    assert charged.time_left_ms == MINUTE  # 12 s + 102 s, capped at 60 s


def test_no_move_over_sixty_seconds_r24():
    lost = advance(RES, initial_state(RES), W, MOVE, MINUTE + 1)
    assert (lost.forfeit.reason, lost.forfeit.scope) == (ForfeitReason.MOVE_TIME_CAP, ForfeitScope.MATCH)
    assert advance(RES, initial_state(RES), W, MOVE, MINUTE).forfeit is None


def test_running_out_of_reserve_loses_the_match_r24():
    state = replace(initial_state(RES), white=SideClock(0, 5 * SECOND, 1))
    assert advance(RES, state, W, MOVE, 17 * SECOND).state.white.reserve_ms == 0  # exactly used up
    lost = advance(RES, state, W, MOVE, 17 * SECOND + 1)
    assert (lost.forfeit.reason, lost.forfeit.scope) == (ForfeitReason.RESERVE_EXHAUSTED, ForfeitScope.MATCH)
    assert advance(RES, state, W, MOVE, 0).time_left_ms == 17 * SECOND


def test_the_reserve_lasts_the_whole_match_r24():
    state = replace(initial_state(RES), white=SideClock(0, 7 * SECOND, 1))
    assert advance(RES, state, W, ClockEvent.NEW_GAME, 0).state.white.reserve_ms == 7 * SECOND


# --- reconnect (004) and break (R25, 001) -------------------------------------------------------


@pytest.mark.parametrize("settings", [EXT, RES])
def test_reconnect_window_sixty_seconds(settings):
    state = initial_state(settings)
    assert advance(settings, state, W, ClockEvent.DISCONNECT, MINUTE).forfeit is None
    lost = advance(settings, state, W, ClockEvent.DISCONNECT, MINUTE + 1)
    assert (lost.forfeit.reason, lost.forfeit.scope) == (ForfeitReason.RECONNECT_EXPIRED, ForfeitScope.MATCH)


def test_one_five_minute_break_per_match_r25():
    state = initial_state(EXT)
    after = advance(EXT, state, W, ClockEvent.BREAK, 5 * MINUTE)
    assert after.forfeit is None and after.state.white.breaks_left == 0 and after.state.black.breaks_left == 1
    with pytest.raises(ClockError) as err:
        advance(EXT, after.state, W, ClockEvent.BREAK, SECOND)
    assert err.value.reason is ActionReason.BREAK_ALREADY_TAKEN
    over = advance(EXT, state, B, ClockEvent.BREAK, 5 * MINUTE + 1)
    assert over.forfeit.reason is ForfeitReason.BREAK_OVERRUN


def test_a_state_beyond_the_settings_is_bad_input():
    with pytest.raises(InvalidInputError) as err:
        advance(EXT, replace(initial_state(EXT), black=SideClock(4, 0, 1)), B, MOVE, 0)
    assert err.value.field == "state.black.extensions_left"


def test_a_plain_move_clock_without_reserve_or_extensions():
    plain = replace(EXT, extensions=0)
    assert advance(plain, initial_state(plain), W, MOVE, plain.move_ms + 1).forfeit.reason is \
        ForfeitReason.MOVE_TIME_EXPIRED


# --- over gRPC --------------------------------------------------------------------------------


def ms(n: int) -> Duration:
    """A Duration of ``n`` milliseconds (the API's times, 1.0)."""
    return Duration(seconds=n // 1000, nanos=n % 1000 * 1_000_000)


def test_advance_clock_rpc(engine):
    settings = clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_RESERVE)
    first = engine.AdvanceClock(api.AdvanceClockRequest(settings=settings, side=1, elapsed=ms(20_000)),
                                timeout=TIMEOUT)
    assert first.state.white.reserve == ms(112_000) and first.charged == ms(8_000)  # R24: 12 s free
    assert first.time_left == ms(60_000)  # the 60 s cap
    assert not first.HasField("forfeit")
    lost = engine.AdvanceClock(api.AdvanceClockRequest(settings=settings, state=first.state, side=1,
                                                       elapsed=ms(61_000)), timeout=TIMEOUT)
    assert lost.forfeit.reason == clock_pb2.FORFEIT_REASON_MOVE_TIME_CAP
    assert lost.forfeit.outcome.winner == 2
    assert lost.forfeit.outcome.ending == match_pb2.GAME_ENDING_FORFEIT_MATCH


def test_advance_clock_rpc_overrides_the_table_move_time(engine):
    settings = clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS, move_time=ms(10_000))
    response = engine.AdvanceClock(api.AdvanceClockRequest(settings=settings, side=2, elapsed=ms(10_001)),
                                   timeout=TIMEOUT)
    assert response.extensions_used == 1 and response.state.black.extensions_left == 2
    lost = engine.AdvanceClock(api.AdvanceClockRequest(settings=settings, side=2, elapsed=ms(200_001)),
                               timeout=TIMEOUT)
    assert lost.forfeit.outcome.ending == match_pb2.GAME_ENDING_FORFEIT_GAME


@pytest.mark.parametrize(("duration", "why"), [
    (Duration(seconds=-1), "is negative"),
    (Duration(seconds=1, nanos=500), "not a whole number of milliseconds"),
    (Duration(nanos=1_000_000_000), "nanos"),
    (Duration(seconds=2**32), "at most 4294967000 ms"),
])
def test_advance_clock_rpc_refuses_bad_durations(engine, duration, why):
    import grpc
    from grpc_status import rpc_status
    from google.rpc import error_details_pb2

    with pytest.raises(grpc.RpcError) as info:
        engine.AdvanceClock(api.AdvanceClockRequest(side=1, elapsed=duration), timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    bad = error_details_pb2.BadRequest()
    for detail in rpc_status.from_call(info.value).details:
        if detail.Is(bad.DESCRIPTOR):
            detail.Unpack(bad)
    assert [v.field for v in bad.field_violations] == ["elapsed"]
    assert why in bad.field_violations[0].description
