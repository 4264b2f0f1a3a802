"""Inputs for fuzzing the gRPC boundary: random bytes, mutated valid requests, and well-formed
requests with hostile values in every field, generated from the request descriptors.

Hostile values by field type: unsigned numbers 0, 1, 7, 25, 26, 2**31, 2**32 - 1; signed ones
negative; strings empty, over-long (4-40 KB), with control characters, truncated or forged
Position IDs and dice tokens; enums with unknown numbers; repeated fields empty, with 3 or 17
elements or 1,000; nested messages to a few levels. On top, hand-made ones the rules care about:
16 checkers, both sides on a point, dice 0/7/three dice, absurd clocks and scores.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from google.protobuf import descriptor as pb_descriptor
from google.protobuf import message as pb_message
from google.protobuf import message_factory

from tavla.server.api import services

START_ID = "4HPwATDgc/ABMA"

STRINGS = (
    "", "x", START_ID, START_ID[:7], START_ID + "A", "////////////////", "4HPwATDgc/ABM=",
    "tv1.AAAA", "tv2." + "A" * 91, "tv2." + "_" * 91 + "=", "tv2.bogus\n", "24/18 13/11", "bar/20*/14",
    "8/5\nlevel=error", "\x00\x01\x1b[2J", "😀" * 50, "international", "turkish", "TURKISH", "tavla",
    "a" * 4096, "b" * 40_000, "0" * 64, "f" * 63,
)
UINTS = (0, 1, 2, 6, 7, 15, 16, 24, 25, 26, 64, 65_535, 2**31, 2**32 - 1)
SINTS = (-1, -(2**31), 2**31 - 1, 0, 1)
U64 = (0, 1, 2**63, 2**64 - 1)
FLOATS = (0.0, -1.0, 1e308, float("inf"), float("nan"))
REPEATS = (0, 1, 2, 3, 4, 5, 17, 1000)


def methods() -> list[tuple[str, type[pb_message.Message]]]:
    """``("/tavla.v1.<Service>/Method", RequestClass)`` for every unary RPC of every tavla.v1
    service (ValidateMatch, a stream, gets random and mutated records in
    tests/formats/test_validate_match.py)."""
    out = []
    for method in services.METHODS.values():
        if method.client_streaming or method.server_streaming:
            continue
        request_class = message_factory.GetMessageClass(method.input_type)
        out.append((services.path(method.name), request_class))
    return out


def _scalar(field: pb_descriptor.FieldDescriptor, rng: random.Random) -> object:
    t = field.type
    if t == field.TYPE_STRING:
        return rng.choice(STRINGS)
    if t == field.TYPE_BYTES:
        return rng.randbytes(rng.choice((0, 1, 32, 300)))
    if t == field.TYPE_BOOL:
        return rng.random() < 0.5
    if t == field.TYPE_ENUM:
        numbers = [v.number for v in field.enum_type.values]
        return rng.choice(numbers + [max(numbers) + 1, 99, -1, 2**31 - 1])
    if t in (field.TYPE_UINT32, field.TYPE_FIXED32):
        return rng.choice(UINTS)
    if t in (field.TYPE_INT32, field.TYPE_SINT32, field.TYPE_SFIXED32):
        return rng.choice(SINTS + (0, 1, 7))
    if t in (field.TYPE_UINT64, field.TYPE_FIXED64):
        return rng.choice(U64)
    if t in (field.TYPE_INT64, field.TYPE_SINT64, field.TYPE_SFIXED64):
        return rng.choice((-(2**63), -1, 0, 1, 2**63 - 1))
    if t in (field.TYPE_DOUBLE, field.TYPE_FLOAT):
        return rng.choice(FLOATS)
    raise AssertionError(f"unhandled field type {t}")


def hostile(message: pb_message.Message, rng: random.Random, depth: int = 0) -> pb_message.Message:
    """Fill some fields of ``message`` with hostile values (in place) and return it."""
    for field in message.DESCRIPTOR.fields:
        if rng.random() < 0.4:
            continue
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                continue
            if depth > 3:
                continue
            if field.is_repeated:
                container = getattr(message, field.name)
                for _ in range(min(rng.choice(REPEATS), 20 if depth else 40)):
                    hostile(container.add(), rng, depth + 1)
            else:
                hostile(getattr(message, field.name), rng, depth + 1)
        elif field.is_repeated:
            values = [_scalar(field, rng) for _ in range(rng.choice(REPEATS))]
            if field.type == field.TYPE_STRING:
                values = values[:20]
            getattr(message, field.name).extend(values)
        else:
            setattr(message, field.name, _scalar(field, rng))
    return message


def valid_seeds() -> dict[str, list[bytes]]:
    """A few valid requests per RPC, by JSON, the mutation fuzzer's starting points."""
    from google.protobuf import json_format

    position = {"position_id": START_ID}
    board = {"on_roll": "SIDE_WHITE", "board": {
        "white": {"points": [0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2]},
        "black": {"points": [0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2]}}}
    match = {"length": 7, "white_score": 3, "black_score": 5, "cube": {"value": 2, "owner": "SIDE_WHITE"}}
    bodies = {
        "GetInitialPosition": [{}, {"on_roll": "SIDE_BLACK", "ruleset": {"preset": "turkish"}}],
        "ListLegalMoves": [{"position": position, "dice": [3, 1]}, {"position": board, "dice": [6, 6]}],
        "ApplyMove": [{"position": position, "dice": [3, 1], "move": {"notation": "8/5 6/5"}}],
        "ScoreGame": [{"position": position}],
        "BearOff": [{"position": {"position_id": "AAAAAAAAAAAAAA"}, "dice": [2, 1]}, {"position": position}],
        "ListLegalSteps": [{"position": position, "dice": [3, 1], "steps": [{"from_point": 8, "to_point": 5}]}],
        "StartGame": [{}, {"ruleset": {"preset": "turkish"}, "given": {"roll_off": [{"white_die": 3, "black_die": 5}]}}],
        "CommitDice": [{"client_seed_sha256": "0" * 64}],
        "RollDice": [{}, {"position": position}, {"seed": {"token": "tv2." + "A" * 91, "client_seed": "s"}}],
        "NameRoll": [{"dice": [6, 6]}],
        "ListCubeActions": [{"match": match, "side": "SIDE_WHITE"}],
        "ApplyCubeAction": [{"match": match, "side": "SIDE_WHITE", "action": "CUBE_ACTION_DOUBLE"}],
        "OfferResignation": [{"match": match, "offer": {"side": "SIDE_WHITE", "kind": "RESULT_KIND_GAMMON"}}],
        "AnswerResignation": [{"match": match, "offer": {"side": "SIDE_BLACK", "kind": "RESULT_KIND_SINGLE"},
                               "accept": True}],
        "UpdateMatch": [{"match": match, "outcome": {"winner": "SIDE_WHITE", "ending": "GAME_ENDING_BORNE_OFF"}}],
        "AdvanceClock": [{"settings": {"preset": "CLOCK_PRESET_RESERVE"}, "side": "SIDE_WHITE", "elapsed": "30s"},
                         {"settings": {"preset": "CLOCK_PRESET_EXTENSIONS", "extensions": 50,
                                       "extension_time": "86400s"}, "side": "SIDE_WHITE"}],
        "ResolveRuleset": [{"ruleset": {"preset": "turkish", "match_lengths": {"lengths": [5, 7]}}}],
        "ListRulesets": [{}],
        # AnalysisService (docs/analysis.md): 1 ply keeps a mutated seed cheap
        "SuggestMove": [{"position": position, "dice": [3, 1], "level": "ANALYSIS_LEVEL_ADVANCED"}],
        "EvaluatePosition": [{"position": position, "match": match, "level": "ANALYSIS_LEVEL_BEGINNER"}],
        "SuggestCubeAction": [{"position": board, "match": match, "level": "ANALYSIS_LEVEL_INTERMEDIATE"}],
        "AnalyzeMatch": [{"mat": " 1 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 8/5 6/5     42: 8/4 6/4\n",
                          "level": "ANALYSIS_LEVEL_ADVANCED"}],
    }
    seeds: dict[str, list[bytes]] = {}
    for name, request_class in methods():
        short = name.rsplit("/", 1)[1]
        seeds[name] = []
        for body in bodies.get(short, [{}]):
            try:
                seeds[name].append(json_format.ParseDict(body, request_class()).SerializeToString())
            except json_format.ParseError:
                seeds[name].append(request_class().SerializeToString())
    return seeds


def mutate(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a few random byte flips, insertions, deletions or a cut."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        if op < 0.35 and buf:
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        elif op < 0.6:
            buf.insert(rng.randrange(len(buf) + 1), rng.randrange(256))
        elif op < 0.8 and buf:
            del buf[rng.randrange(len(buf))]
        elif buf:
            del buf[rng.randrange(len(buf)):]
    return bytes(buf)


HANDMADE = [
    ("ListLegalMoves", {"position": {"on_roll": "SIDE_WHITE", "board": {
        "white": {"points": [16] + [0] * 23}, "black": {"points": [15] + [0] * 23}}}, "dice": [1, 2]}),
    ("ListLegalMoves", {"position": {"on_roll": "SIDE_WHITE", "board": {
        "white": {"points": [15] + [0] * 23}, "black": {"points": [0] * 23 + [15]}}}, "dice": [1, 2]}),
    ("ListLegalMoves", {"position": {"position_id": START_ID}, "dice": [0, 7]}),
    ("ListLegalMoves", {"position": {"position_id": START_ID}, "dice": [1, 2, 3]}),
    ("ApplyMove", {"position": {"position_id": START_ID}, "dice": [6, 6, 6], "move": {"notation": "24/18"}}),
    ("ApplyMove", {"position": {"position_id": START_ID}, "dice": [3, 1],
                   "move": {"checker_moves": [{"from_point": 99, "to_point": 2**32 - 1}] * 5}}),
    ("AdvanceClock", {"settings": {"reserve": "4294967.295s", "move_time": "315576000000s", "extensions": 2**32 - 1},
                      "side": "SIDE_WHITE", "elapsed": "-1s"}),
    ("UpdateMatch", {"match": {"length": 65535, "white_score": 2**32 - 1, "games_played": 2**32 - 1},
                     "outcome": {"winner": "SIDE_WHITE", "ending": "GAME_ENDING_BORNE_OFF"}}),
    ("RollDice", {"seed": {"token": "tv2." + "A" * 90 + "=", "client_seed": "x" * 300}}),
    ("StartGame", {"seed": {"token": "tv1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "client_seed": "s"}}),
]


def handmade() -> Iterator[tuple[str, bytes]]:
    from google.protobuf import json_format

    classes = {name.rsplit("/", 1)[1]: (name, cls) for name, cls in methods()}
    for short, body in HANDMADE:
        name, cls = classes[short]
        yield name, json_format.ParseDict(body, cls()).SerializeToString()


# --- the declared contract: values at and just past each bound ----------------------------------

AT = "at"  # a value at a declared bound: any answer but INTERNAL/UNKNOWN
PAST = "past"  # just past it: INVALID_ARGUMENT
_FD = pb_descriptor.FieldDescriptor
_SIGNED = frozenset({_FD.TYPE_INT32, _FD.TYPE_INT64, _FD.TYPE_SINT32, _FD.TYPE_SINT64, _FD.TYPE_SFIXED32,
                     _FD.TYPE_SFIXED64})


def streamed_methods() -> list[tuple[str, type[pb_message.Message]]]:
    """The client-streaming RPCs (ValidateMatch), whose bounds are fuzzed on a one-message stream."""
    return [(services.path(m.name), message_factory.GetMessageClass(m.input_type))
            for m in services.METHODS.values() if m.client_streaming]


def _bounded_fields(message: pb_descriptor.Descriptor, on_path: frozenset[str] = frozenset(),
                    depth: int = 0) -> Iterator[list[pb_descriptor.FieldDescriptor]]:
    """The chain of fields from ``message`` to each field reachable from it that the contract
    checks (an enum, or one declaring bounds), nested messages to a few levels."""
    from tavla.server.convert import contract

    for field in message.fields:
        bounds = contract.bounds_of(field)
        if bounds is not None and bounds.unbounded:
            continue
        if field.type == _FD.TYPE_ENUM or (bounds is not None and field.type != _FD.TYPE_MESSAGE) \
                or contract.is_map(field) or (field.type == _FD.TYPE_MESSAGE and bounds is not None
                                              and (bounds.max_items or field.message_type.full_name == contract.DURATION)):
            yield [field]
        if field.type != _FD.TYPE_MESSAGE or contract.is_map(field) or depth >= 4:
            continue
        inner = field.message_type
        if inner.full_name == contract.DURATION or inner.full_name in on_path:
            continue
        for chain in _bounded_fields(inner, on_path | {message.full_name}, depth + 1):
            yield [field, *chain]


def _values(field: pb_descriptor.FieldDescriptor) -> Iterator[tuple[str, str, object]]:
    """(AT or PAST, what, setter(msg)) for each value at or just past ``field``'s bounds."""
    from tavla.server.convert import contract

    bounds = contract.bounds_of(field)
    name = field.name
    repeated = contract.is_repeated(field)

    def put(value: object):  # noqa: ANN202
        def setter(msg: pb_message.Message) -> None:
            if repeated:
                getattr(msg, name).append(value)
            else:
                setattr(msg, name, value)
        return setter

    if field.type == _FD.TYPE_ENUM and not repeated:
        numbers = sorted(field.enum_type.values_by_number)
        yield AT, f"enum {numbers[-1]}", put(numbers[-1])
        yield PAST, f"enum {numbers[-1] + 1}", put(numbers[-1] + 1)
        yield PAST, "enum -1", put(-1)
        return
    if contract.is_map(field):
        most, longest = bounds.max_items, bounds.max_len or 1
        for kind, count in ((AT, most), (PAST, most + 1)):
            def many(msg: pb_message.Message, n: int = count) -> None:
                for i in range(n):
                    getattr(msg, name)[f"k{i}"] = "v"
            yield kind, f"{count} entries", many
        for kind, size in ((AT, longest), (PAST, longest + 1)):
            def long_value(msg: pb_message.Message, n: int = size) -> None:
                getattr(msg, name)["k"] = "v" * n
            yield kind, f"a value of {size}", long_value
        return
    if repeated and bounds is not None and bounds.max_items:
        lo = max(bounds.min, 1) if field.type in contract._INTEGERS else 0
        for kind, count in ((AT, bounds.max_items), (PAST, bounds.max_items + 1)):
            def many_items(msg: pb_message.Message, n: int = count, lo: int = lo) -> None:
                values = getattr(msg, name)
                for _ in range(n):
                    if field.type == _FD.TYPE_MESSAGE:
                        values.add()
                    elif field.type == _FD.TYPE_ENUM:
                        values.append(sorted(field.enum_type.values_by_number)[-1])
                    elif field.type in contract._INTEGERS:
                        values.append(lo)
                    elif field.type == _FD.TYPE_BYTES:
                        values.append(b"x")
                    else:
                        values.append("x")
            yield kind, f"{count} items", many_items
    if field.type == _FD.TYPE_ENUM:  # repeated
        numbers = sorted(field.enum_type.values_by_number)
        yield PAST, f"element enum {numbers[-1] + 1}", put(numbers[-1] + 1)
        return
    if bounds is None:
        return
    if field.type in contract._INTEGERS:
        yield AT, f"{bounds.max}", put(bounds.max)
        yield AT, f"{bounds.min}", put(bounds.min)
        yield PAST, f"{bounds.max + 1}", put(bounds.max + 1)
        if bounds.min or field.type in _SIGNED:
            yield PAST, f"{bounds.min - 1}", put(bounds.min - 1)
    elif field.type in (_FD.TYPE_STRING, _FD.TYPE_BYTES) and bounds.max_len:
        unit = "x" if field.type == _FD.TYPE_STRING else b"x"
        yield AT, f"{bounds.max_len} long", put(unit * bounds.max_len)
        yield PAST, f"{bounds.max_len + 1} long", put(unit * (bounds.max_len + 1))
    elif field.type == _FD.TYPE_MESSAGE and field.message_type.full_name == contract.DURATION and not repeated:
        def seconds(value: int, nanos: int = 0):  # noqa: ANN202
            def setter(msg: pb_message.Message) -> None:
                getattr(msg, name).seconds = value
                getattr(msg, name).nanos = nanos
            return setter
        yield AT, f"{bounds.max_seconds} s", seconds(bounds.max_seconds)
        yield AT, "0 s", seconds(0)
        yield PAST, f"{bounds.max_seconds} s + 1 ns", seconds(bounds.max_seconds, 1)
        yield PAST, "-1 s", seconds(-1)


def bound_cases(seeds: dict[str, list[bytes]]) -> list[tuple[str, str, str, pb_message.Message]]:
    """(method path, AT or PAST, what, request) for every value at and just past each declared
    bound of every RPC's request (unary and streamed), set in an empty request and in the RPC's
    first valid seed; a parent repeated field gets a new element for it."""
    out = []
    for name, cls in methods() + streamed_methods():
        bases = [cls()] + [cls.FromString(seeds[name][0])] if seeds.get(name) else [cls()]
        for chain in _bounded_fields(cls.DESCRIPTOR):
            path = ".".join(f.name for f in chain)
            for kind, what, setter in _values(chain[-1]):
                for base in bases:
                    request = cls()
                    request.CopyFrom(base)
                    msg = request
                    try:
                        for parent in chain[:-1]:
                            msg = getattr(msg, parent.name).add() if parent.is_repeated else getattr(msg, parent.name)
                        setter(msg)
                    except (ValueError, TypeError):  # not representable in the wire type (uint32 max + 1)
                        continue
                    out.append((name, kind, f"{path} {what}", request))
    return out
