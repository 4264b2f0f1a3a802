"""The referee's answers written straight as protobuf wire bytes: the signed ``GameState``, its
``GameView`` and an action's ``GameEvents`` (game.proto).

Every Act and ListActions writes these; building each as a message and serializing it cost
about a third of a step's Act (docs/performance.md). Here the top-level fields are written in
field-number order by proto3's rules (zero values left out, ``repeated uint32`` packed, a set
message field written even when empty), and the nested messages come as bytes from the
protobuf library, kept per value where they repeat (the ruleset, the match, the positions, each
step). The output is byte-identical to the library's serialization of the same message:
``tests/referee/test_game_wire.py`` checks that on every state, view and events of whole random
matches (timed, doubled, resigned, beavered) against the message builders of
:mod:`tavla.server.convert.game`.

When the engine is built with the accelerator, the compiled writers
(service/accel/src/game.rs, :class:`Compiled`) write the same bytes in one call per message;
these remain the writers without it (``TAVLA_ACCEL=0``), and the test checks both.

If a field is added to ``GameState``, ``GameView``, ``GameEvents`` or ``CheckerMove``, it must
be added here and in game.rs too (the test fails until it is).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from tavla.core.rules.movegen import CheckerMove
from tavla.server.convert.wire import varint


class Compiled(NamedTuple):
    """The compiled writers of the accelerator (service/accel/src/game.rs), one per message:
    ``tavla_accel.game_state_bytes``, ``game_view_bytes``, ``game_actions_bytes`` and
    ``act_response_bytes`` (:mod:`tavla.server.convert.answers`). Each takes
    the values :mod:`tavla.server.convert.game` reads off the core's and writes the bytes the
    Python writers here write; ValueError or TypeError for what it refuses (the caller then
    writes in Python)."""

    state: Callable[..., bytes]
    view: Callable[..., bytes]
    actions: Callable[[bytes, tuple[Any, ...], dict[Any, int], dict[Any, int]], bytes]
    act: Callable[..., bytes]


#: The compiled writers, handed down by the engine's move generator at start-up
#: (:func:`use_compiled`); ``None``: the Python writers of this module alone.
compiled: Compiled | None = None


def use_compiled(writers: Compiled | None) -> None:
    """Make :mod:`tavla.server.convert.game` write the referee's state, view and actions with
    ``writers`` (``None``: in Python). Called by ``tavla.server.api.generator`` at start-up."""
    global compiled
    compiled = writers

_SMALL = [bytes((i,)) for i in range(0x80)]
# Lengths under this as their varint bytes, looked up rather than written: a state, a view, a
# signed state and an answer's fields are all shorter (a step's Act writes seven lengths).
_LENGTHS = [varint(n) for n in range(1 << 12)]
_LENGTHS_MAX = len(_LENGTHS)
_CACHE_MAX = 1 << 12


def tag(number: int, wire_type: int) -> bytes:
    """A field's key: ``number << 3 | wire_type`` as a varint."""
    return varint(number << 3 | wire_type)


def field(key: bytes, payload: bytes) -> bytes:
    """A length-delimited field (message, bytes, string, packed): key, length, payload."""
    n = len(payload)
    return key + (_LENGTHS[n] if n < _LENGTHS_MAX else varint(n)) + payload


def number(key: bytes, n: int) -> bytes:
    """A varint field (uint32, uint64, enum, bool), left out when zero."""
    if not n:
        return b""
    return key + (_SMALL[n] if n < 0x80 else varint(n))


def packed(key: bytes, values: Sequence[int]) -> bytes:
    """A packed ``repeated uint32``, left out when empty."""
    if not values:
        return b""
    body = b"".join(_SMALL[v] if v < 0x80 else varint(v) for v in values)
    return field(key, body)


_steps: dict[CheckerMove, bytes] = {}


def checker_move(step: CheckerMove) -> bytes:
    """A ``CheckerMove`` message's bytes (from_point 1, to_point 2, die 3, hit 4), kept per step."""
    hit = _steps.get(step)
    if hit is None:
        f, t, die, took = step
        hit = number(b"\x08", f) + number(b"\x10", t) + number(b"\x18", die) + (b"\x20\x01" if took else b"")
        if len(_steps) >= _CACHE_MAX:
            _steps.clear()
        _steps[step] = hit
    return hit


def steps(key: bytes, moves: Sequence[CheckerMove]) -> bytes:
    """A ``repeated CheckerMove`` field (one length-delimited entry per step)."""
    return b"".join([field(key, checker_move(s)) for s in moves])


def text(key: bytes, value: str) -> bytes:
    """A string field, left out when empty."""
    return field(key, value.encode("utf-8")) if value else b""


def raw(key: bytes, value: bytes) -> bytes:
    """A bytes field, left out when empty."""
    return field(key, value) if value else b""


def flag(key: bytes, value: bool) -> bytes:
    """A bool field, left out when false."""
    return key + b"\x01" if value else b""
