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

If a field is added to ``GameState``, ``GameView``, ``GameEvents`` or ``CheckerMove``, it must
be added here too (the test fails until it is).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla.core.rules.movegen import CheckerMove
from tavla.server.convert.wire import varint

_SMALL = [bytes((i,)) for i in range(0x80)]
# Lengths under this as their varint bytes, looked up rather than written: a state, a view, a
# signed state and a response's fields are all shorter (a step's Act writes seven lengths).
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


def signed_state(state: bytes, key_id: str, signature: bytes) -> bytes:
    """A ``SignedGameState`` message's bytes (state 1, key_id 2, signature 3; each left out
    when empty), written in one go: every Act answer holds one."""
    key = key_id.encode("utf-8")
    lengths, top = _LENGTHS, _LENGTHS_MAX
    return b"".join((
        (b"\x0a" + (lengths[len(state)] if len(state) < top else varint(len(state))) + state) if state else b"",
        (b"\x12" + (lengths[len(key)] if len(key) < top else varint(len(key))) + key) if key else b"",
        (b"\x1a" + (lengths[len(signature)] if len(signature) < top else varint(len(signature))) + signature)
        if signature else b""))


def three_fields(payloads: tuple[bytes, bytes, bytes], then: bytes = b"") -> bytes:
    """Message fields 1, 2 and 3, each length-delimited and written even when empty (message
    fields that are set), then ``then`` (more fields' bytes, already written): an Act answer's
    state, view and events, then its actions."""
    first, second, third = payloads
    lengths, top = _LENGTHS, _LENGTHS_MAX
    return b"".join((
        b"\x0a", lengths[len(first)] if len(first) < top else varint(len(first)), first,
        b"\x12", lengths[len(second)] if len(second) < top else varint(len(second)), second,
        b"\x1a", lengths[len(third)] if len(third) < top else varint(len(third)), third, then))


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
