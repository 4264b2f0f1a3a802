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
