"""The one mapper between tavla.v1 enums and :mod:`tavla.core` enums, by name.

A proto enum value is its enum's name in UPPER_SNAKE_CASE, a ``_``, and the core member's name
(buf's ENUM_VALUE_PREFIX, AIP-126): ``RESULT_KIND_GAMMON`` is ``ResultKind.GAMMON``,
``CLOCK_PRESET_RESERVE`` is ``ClockPreset.RESERVE``. :class:`EnumMap` pairs the two by that rule
and checks at import that they have the same members, so a value added on one side only fails
at start, not at the first request that uses it. The ``*_UNSPECIFIED`` value maps to a default
or is refused, per field.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from tavla.core import (
    ActionReason,
    CubeAction,
    GameEnding,
    InvalidInputError,
    KatmerliMarsRule,
    ResultKind,
    Side,
    StartRule,
)
from tavla.core.game import ActionKind, Phase
from tavla.core.match import clock
from tavla.v1 import clock_pb2, game_pb2, match_pb2
from tavla.v1 import types_pb2 as pb

E = TypeVar("E", bound=enum.Enum)


def prefix_of(proto_enum: Any) -> str:
    """``"RESULT_KIND_"`` for the generated ``ResultKind`` enum (its descriptor's name)."""
    name: str = proto_enum.DESCRIPTOR.name
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper() + "_"


class EnumMap(Generic[E]):
    """A tavla.v1 enum and a core enum, paired by member name (see the module docstring).

    :param proto_enum: the generated enum (``types_pb2.ResultKind``).
    :param core_enum: the core enum (``tavla.core.ResultKind``).
    :param unspecified: the core member an ``*_UNSPECIFIED`` input means; ``None``: refused
        (``"is required"``).
    :param only: when the proto enum lists a subset of the core enum (``CubeDenial`` of the
        :class:`~tavla.core.match.violations.ActionReason` s), the members it has; others have no number.
    :raises ValueError: the two enums do not have the same members (or ``only`` names one the
        proto enum lacks).
    """

    def __init__(self, proto_enum: Any, core_enum: type[E], *, unspecified: E | None = None,
                 only: Iterable[E] | None = None) -> None:
        prefix = prefix_of(proto_enum)
        self.name = proto_enum.DESCRIPTOR.full_name
        self.unspecified = unspecified
        numbers = {name.removeprefix(prefix): number for name, number in proto_enum.items()
                   if name != prefix + "UNSPECIFIED"}
        members = list(core_enum) if only is None else list(only)
        missing = {m.name for m in members} ^ set(numbers)
        if missing:
            raise ValueError(f"{self.name} and {core_enum.__name__} differ in {sorted(missing)}")
        self._in: dict[int, E] = {numbers[m.name]: m for m in members}
        self._out: dict[E, int] = {m: numbers[m.name] for m in members}

    def from_proto(self, value: int, field: str) -> E:
        """The core member of an enum number read from a request.

        :raises InvalidInputError: an unknown number (proto3 enums are open: it arrives as a plain
            int), or UNSPECIFIED where it has no default, on ``field``.
        """
        if value == 0:
            if self.unspecified is None:
                raise InvalidInputError(field, "is required")
            return self.unspecified
        try:
            return self._in[value]
        except KeyError:
            raise InvalidInputError(field, f"unknown value {value}") from None

    def to_proto(self, member: E) -> Any:
        """The enum number of a core member (typed as the generated enum by the caller).

        :raises KeyError: a member the proto enum does not list (``only``).
        """
        return self._out[member]


# --- every pair the server converts (types.proto, match.proto, clock.proto, game.proto) --------

SIDES = EnumMap(pb.Side, Side)
STARTS = EnumMap(pb.StartRule, StartRule)
KATMERLI = EnumMap(pb.KatmerliMarsRule, KatmerliMarsRule)
#: RESULT_KIND_UNSPECIFIED is a single game where a kind may be left out (outcomes).
KINDS = EnumMap(pb.ResultKind, ResultKind, unspecified=ResultKind.SINGLE)
ENDINGS = EnumMap(match_pb2.GameEnding, GameEnding)
CUBE_ACTIONS = EnumMap(match_pb2.CubeAction, CubeAction)
#: Why a side may not double: the ActionReasons a double can be refused for.
DENIALS = EnumMap(match_pb2.CubeDenial, ActionReason, only=(
    ActionReason.CUBE_DISABLED, ActionReason.CRAWFORD_GAME, ActionReason.CUBE_OWNED_BY_OPPONENT,
    ActionReason.CUBE_AT_LIMIT, ActionReason.DEAD_CUBE, ActionReason.DOUBLE_PENDING, ActionReason.MATCH_OVER))
CLOCK_PRESETS = EnumMap(clock_pb2.ClockPreset, clock.ClockPreset, unspecified=clock.ClockPreset.EXTENSIONS)
CLOCK_EVENTS = EnumMap(clock_pb2.ClockEvent, clock.ClockEvent, unspecified=clock.ClockEvent.MOVE)
FORFEITS = EnumMap(clock_pb2.ForfeitReason, clock.ForfeitReason)
#: GAME_PHASE_UNSPECIFIED is refused where a phase is needed (a state's ``phase``).
PHASES = EnumMap(game_pb2.GamePhase, Phase)
ACTION_KINDS = EnumMap(game_pb2.ActionKind, ActionKind)
