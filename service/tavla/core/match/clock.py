"""A stateless clock for online play (R23-R25): the caller measures, the rules only add up.

Every call carries the clock state and the elapsed time of one event, in whole milliseconds;
nothing here reads a wall clock. A move's elapsed time is taken first from the free per-move
time (``move_ms``), then from the side's match reserve, then in whole extensions; a move longer
than the cap, a move the reserve and extensions cannot cover, a reconnection later than the
window, or a break longer than allowed forfeits.

* Preset ``extensions`` (R23, seed 002): a per-move time set by the table, plus three extensions
  of 60 s per game that start on their own when the move time runs out. A side whose time runs
  out with no extension left (it has used up all three and runs out again, or does not move
  within its last one) loses the game.
* Preset ``reserve`` (R24, seed 004): the first 12 s of each move are free, the rest comes out
  of a 2-minute reserve for the whole match; no move may take more than 60 s; running out loses
  the match.
* Both: after a disconnect a side has 60 s to come back (seed 004) or loses the match; once per
  match, between games, a side may take a 5-minute break (R25, seed 001).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from tavla.core.errors import InvalidInputError
from tavla.core.rules.position import Side
from tavla.core.match.violations import ActionReason, ClockError

SECOND = 1000
MINUTE = 60 * SECOND
MAX_MS = 2**32 - 1  # every duration is a uint32 of milliseconds (49 days)
# Settings bounds that keep every total (move + reserve + extensions) inside a uint32.
MAX_SETTING_MS = 24 * 60 * MINUTE
# the least time a move may get from its move time and reserve, and under a cap: a clock under it
# is one no game can be finished under (every move forfeits or spends an extension)
MIN_MOVE_MS = SECOND
MAX_SETTING_COUNT = 100


class ClockPreset(enum.Enum):
    """A named set of clock settings."""

    EXTENSIONS = "extensions"  # R23, seed 002
    RESERVE = "reserve"  # R24, seed 004


class ForfeitScope(enum.Enum):
    """What a forfeit loses."""

    GAME = "game"
    MATCH = "match"


class ClockEvent(enum.Enum):
    """What the elapsed time measures."""

    MOVE = "move"  # a side's turn, from its start to the move
    DISCONNECT = "disconnect"  # a side's time away, from the disconnect to the reconnect
    BREAK = "break"  # a side's break between games (R25)
    NEW_GAME = "new_game"  # a game starts: per-game extensions are restored; no time passes


class ForfeitReason(enum.Enum):
    """Why a side forfeits."""

    EXTENSIONS_EXHAUSTED = "extensions_exhausted"  # R23: time ran out with no extension left
    RESERVE_EXHAUSTED = "reserve_exhausted"  # R24: the match reserve ran out
    MOVE_TIME_CAP = "move_time_cap"  # R24: a move took longer than the cap
    MOVE_TIME_EXPIRED = "move_time_expired"  # a clock with neither reserve nor extensions ran out
    RECONNECT_EXPIRED = "reconnect_expired"  # seed 004: not back within the window
    BREAK_OVERRUN = "break_overrun"  # R25: the break took longer than allowed


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Clock settings; every duration in milliseconds, 0 meaning none.

    :ivar move_ms: free time per move (preset ``extensions``: the table's move time).
    :ivar extensions: extensions per game and side.
    :ivar extension_ms: length of one extension.
    :ivar reserve_ms: reserve per match and side.
    :ivar move_cap_ms: the longest a move may take; 0 for no cap.
    :ivar reconnect_ms: the window to come back after a disconnect.
    :ivar break_ms: the longest break.
    :ivar breaks: breaks per match and side.
    :ivar scope: what running out of move time loses.
    """

    move_ms: int
    extensions: int = 0
    extension_ms: int = 0
    reserve_ms: int = 0
    move_cap_ms: int = 0
    reconnect_ms: int = MINUTE
    break_ms: int = 5 * MINUTE
    breaks: int = 1
    scope: ForfeitScope = ForfeitScope.GAME


PRESETS: dict[ClockPreset, ClockSettings] = {
    # 002 leaves the move time to the table; 30 s is this engine's default, override move_ms.
    ClockPreset.EXTENSIONS: ClockSettings(move_ms=30 * SECOND, extensions=3, extension_ms=MINUTE,
                                          scope=ForfeitScope.GAME),
    ClockPreset.RESERVE: ClockSettings(move_ms=12 * SECOND, reserve_ms=2 * MINUTE, move_cap_ms=MINUTE,
                                       scope=ForfeitScope.MATCH),
}


@dataclass(frozen=True, slots=True)
class SideClock:
    """One side's clock: extensions left this game, reserve left this match, breaks left."""

    extensions_left: int
    reserve_ms: int
    breaks_left: int


@dataclass(frozen=True, slots=True)
class ClockState:
    """Both sides' clocks."""

    white: SideClock
    black: SideClock

    def of(self, side: Side) -> SideClock:
        return self.white if side is Side.WHITE else self.black

    def with_side(self, side: Side, clock: SideClock) -> ClockState:
        return replace(self, white=clock) if side is Side.WHITE else replace(self, black=clock)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A side lost on time: the reason and whether the game or the match is lost."""

    side: Side
    reason: ForfeitReason
    scope: ForfeitScope


@dataclass(frozen=True, slots=True)
class ClockResult:
    """The clock after an event.

    :ivar state: the new state (unchanged by a forfeit's event).
    :ivar forfeit: set when the event loses the game or the match.
    :ivar charged_ms: time taken from the reserve by this move.
    :ivar extensions_used: extensions used by this move.
    :ivar time_left_ms: the longest the side's next move may take (forfeit: 0).
    """

    state: ClockState
    forfeit: Forfeit | None
    charged_ms: int
    extensions_used: int
    time_left_ms: int


def initial_state(settings: ClockSettings) -> ClockState:
    """The clock at the start of a match."""
    clock = SideClock(settings.extensions, settings.reserve_ms, settings.breaks)
    return ClockState(clock, clock)


def check_settings(settings: ClockSettings, field: str = "settings") -> ClockSettings:
    """``settings`` if every duration is at most a day, counts at most 100, extensions have a
    length, a move gets at least :data:`MIN_MOVE_MS` from its move time and reserve (extensions
    not counted) and from its cap when one is set, and the longest possible move
    (``move_ms + reserve_ms + extensions x extension_ms``) fits the uint32 fields of the answer
    (:data:`MAX_MS`).

    :raises InvalidInputError: otherwise.
    """
    for name in ("move_ms", "extension_ms", "reserve_ms", "move_cap_ms", "reconnect_ms", "break_ms"):
        value = getattr(settings, name)
        if not 0 <= value <= MAX_SETTING_MS:
            raise InvalidInputError(f"{field}.{name}", f"{value} is not 0-{MAX_SETTING_MS} (a day)")
    for name in ("extensions", "breaks"):
        value = getattr(settings, name)
        if not 0 <= value <= MAX_SETTING_COUNT:
            raise InvalidInputError(f"{field}.{name}", f"{value} is not 0-{MAX_SETTING_COUNT}")
    if settings.extensions and not settings.extension_ms:
        raise InvalidInputError(f"{field}.extension_ms", "extensions need a length")
    # A move must get its own time, move time or reserve: extensions are for slow moves (R23),
    # so a clock without either spends one on every move and ends every game after a few moves.
    if settings.move_ms + settings.reserve_ms < MIN_MOVE_MS:
        own = settings.move_ms + settings.reserve_ms
        raise InvalidInputError(f"{field}.move_ms", f"the move time plus the reserve is {own} ms: a move needs at "
                                                    f"least {MIN_MOVE_MS} ms of its own (extensions only cover slow "
                                                    "moves; with none, every move spends one and no game ends)")
    if 0 < settings.move_cap_ms < MIN_MOVE_MS:
        raise InvalidInputError(f"{field}.move_cap_ms", f"{settings.move_cap_ms} ms caps every move under "
                                                        f"{MIN_MOVE_MS} ms; 0 is no cap")
    # each bound alone is not enough: the longest move (time_left) adds three of them up
    total = settings.move_ms + settings.reserve_ms + settings.extensions * settings.extension_ms
    if total > MAX_MS:
        raise InvalidInputError(
            f"{field}.extension_ms" if settings.extensions else f"{field}.reserve_ms",
            f"move_ms + reserve_ms + extensions x extension_ms is {total} ms, over {MAX_MS} "
            "(49 days, the largest time an answer can carry)")
    return settings


def check_state(state: ClockState, settings: ClockSettings, field: str = "state") -> ClockState:
    """``state`` if no side has more extensions, reserve or breaks than the settings give.

    :raises InvalidInputError: otherwise.
    """
    for side in Side:
        clock, where = state.of(side), f"{field}.{side.name.lower()}"
        for name, most in (("extensions_left", settings.extensions), ("reserve_ms", settings.reserve_ms),
                           ("breaks_left", settings.breaks)):
            value = getattr(clock, name)
            if not 0 <= value <= most:
                raise InvalidInputError(f"{where}.{name}", f"{value} is not 0-{most}, as the settings give")
    return state


def time_left(settings: ClockSettings, clock: SideClock) -> int:
    """The longest the side's next move may take before it forfeits."""
    total = settings.move_ms + clock.reserve_ms + clock.extensions_left * settings.extension_ms
    return min(total, settings.move_cap_ms) if settings.move_cap_ms else total


def advance(settings: ClockSettings, state: ClockState, side: Side, event: ClockEvent,
            elapsed_ms: int) -> ClockResult:
    """The clock after ``side``'s ``event`` took ``elapsed_ms``.

    :raises InvalidInputError: bad settings, state or elapsed time.
    :raises ClockError: ``BREAK_ALREADY_TAKEN``: a break with none left (R25).
    """
    check_settings(settings)
    check_state(state, settings)
    if not 0 <= elapsed_ms <= MAX_MS:
        raise InvalidInputError("elapsed_ms", f"{elapsed_ms} is not 0-{MAX_MS}")
    clock = state.of(side)

    def lost(reason: ForfeitReason, scope: ForfeitScope) -> ClockResult:
        return ClockResult(state, Forfeit(side, reason, scope), 0, 0, 0)

    def done(new_state: ClockState, charged: int = 0, extensions: int = 0) -> ClockResult:
        return ClockResult(new_state, None, charged, extensions, time_left(settings, new_state.of(side)))

    if event is ClockEvent.NEW_GAME:
        fresh = [replace(state.of(s), extensions_left=settings.extensions) for s in Side]
        return done(ClockState(fresh[0], fresh[1]))
    if event is ClockEvent.DISCONNECT:
        if elapsed_ms > settings.reconnect_ms:
            return lost(ForfeitReason.RECONNECT_EXPIRED, ForfeitScope.MATCH)
        return done(state)
    if event is ClockEvent.BREAK:
        if not clock.breaks_left:
            raise ClockError(ActionReason.BREAK_ALREADY_TAKEN,
                                     f"{side.name.lower()} has taken its break this match (R25)")
        if elapsed_ms > settings.break_ms:
            return lost(ForfeitReason.BREAK_OVERRUN, ForfeitScope.MATCH)
        return done(state.with_side(side, replace(clock, breaks_left=clock.breaks_left - 1)))
    if settings.move_cap_ms and elapsed_ms > settings.move_cap_ms:
        return lost(ForfeitReason.MOVE_TIME_CAP, settings.scope)
    over = max(0, elapsed_ms - settings.move_ms)
    charged = min(over, clock.reserve_ms)
    over -= charged
    extensions = -(-over // settings.extension_ms) if over and settings.extension_ms else 0
    if over and (not settings.extension_ms or extensions > clock.extensions_left):
        reason = (ForfeitReason.EXTENSIONS_EXHAUSTED if settings.extensions
                  else ForfeitReason.RESERVE_EXHAUSTED if settings.reserve_ms
                  else ForfeitReason.MOVE_TIME_EXPIRED)
        return lost(reason, settings.scope)
    after = replace(clock, reserve_ms=clock.reserve_ms - charged,
                    extensions_left=clock.extensions_left - extensions)
    return done(state.with_side(side, after), charged, extensions)
