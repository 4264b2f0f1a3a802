"""In-process cost of a ListLegalMoves answer: generation, and generation + encoding, beside gnubg.

Prints figures; asserts nothing about speed. Run: ``python bench/bench_encode.py [--smoke]``
(``make bench`` runs it through bench/run_all.py, which writes bench/RESULTS.md).

Three sets of (position, roll) pairs:
* ``match``: every pair of the 79 real matches in tests/data/matches (25,591);
* ``random``: pairs from random games from the start (seed 1), each side playing a random legal move;
* ``hardest``: the fixed pairs of bench/data/hardest.txt, the ones with the most distinct moves.

Per set, positions per CPU second (``time.process_time``, best of ``--repeat``; CPU time rather
than wall time because other processes share the machine):
* ``generate``: ``core.legal_moves`` alone;
* ``full``: generation plus the default answer as the server hands it to gRPC: the serialized
  response (server/convert/wire.py encoding and ``dice_used``), passed through as it is
  (server/api/encoded.py), with no parse into the response message and no serialize;
* ``basic``: the same with MOVE_VIEW_BASIC (notation and result ID);
* ``full_accel``, ``basic_accel``: the same answers from the compiled accelerator (service/accel,
  ``tavla_accel``: generation and wire bytes in Rust, ``dice_used`` included), when it
  is installed and ``TAVLA_ACCEL`` is not 0 (one call: generation and the whole response, as the
  server does); ``accel_call``: ``MoveGenerator.legal_moves_response`` alone (generation and the
  response's bytes, without the hand-over to gRPC);
* ``full_accel_parsed``, ``basic_accel_parsed``: the accelerated answer as the server built it
  before the bytes were passed through (parsed into the response message, serialized again by
  gRPC): the "before" figures of that change, from the same run;
* ``reference``: generation plus the field-by-field protobuf builder the server used before
  (tests/support/reference_encoder.py), the "before" figure;
* ``gnubg``: GNU Backgammon's ``find_best_moves`` at 0-ply on the same pairs (its move generation
  plus 0-ply ordering, the nearest call its Python binding offers).
And for the hardest set the slowest full answer in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence

from bench_movegen import best_time, match_pairs
from tavla import core
from tavla.core import Position, Side
from tavla.server.api.generator import MoveGenerator
from tavla.server.convert import common as convert
from tavla.server.api import encoded
from tavla.server.convert import wire
from tavla.v1 import rules_service_pb2 as api

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
from hardest_pairs import hardest_pairs  # noqa: E402 (tests/support is on the path only now)

Pair = tuple[Position, tuple[int, int]]


ACCEL = MoveGenerator.from_env()  # the server's choice (TAVLA_ACCEL)

def random_pairs(count: int, seed: int = 1) -> list[Pair]:
    """Pairs from random games from the start, both sides playing uniformly random legal moves."""
    rng = random.Random(seed)
    pairs: list[Pair] = []
    while len(pairs) < count:
        pos = Position.initial(rng.choice((Side.WHITE, Side.BLACK)))
        while len(pairs) < count and pos.winner is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            pairs.append((pos, dice))
            pos = rng.choice(core.legal_moves(pos, dice)).result
    return pairs


def full_answer(pos: Position, dice: Sequence[int], view: int = wire.FULL) -> bytes:
    """What the server does for ListLegalMoves after parsing the request (servicer.py): the
    serialized response, which gRPC sends as it is (server/api/encoded.py)."""
    moves = core.legal_moves(pos, dice)
    return encoded.serialize(wire.legal_moves_response(convert.moves_to_wire(moves, view), moves[0].dice_used))


def accel_answer(pos: Position, dice: Sequence[int], view: int = wire.FULL) -> bytes:
    """:func:`full_answer` from the compiled accelerator, as the server does when it is installed
    (the whole response from one call)."""
    answer = ACCEL.legal_moves_response(pos, dice, view)
    assert answer is not None, ACCEL.status
    return encoded.serialize(answer[1])


def accel_answer_parsed(pos: Position, dice: Sequence[int], view: int = wire.FULL) -> bytes:
    """:func:`accel_answer` as the server did before handing the bytes over: parsed into the
    response message, then serialized (by gRPC)."""
    answer = ACCEL.legal_moves_response(pos, dice, view)
    assert answer is not None, ACCEL.status
    return encoded.serialize(api.ListLegalMovesResponse.FromString(answer[1]))


def cpu_rate(fn: Callable[[Pair], object], items: Sequence[Pair], repeat: int) -> float:
    """Items per CPU second, best of ``repeat`` runs."""
    return len(items) / max(best_time(fn, items, repeat, time.process_time), 1e-9)


def measure(name: str, pairs: list[Pair], repeat: int, reference: bool = True) -> dict[str, float]:
    import reference_encoder

    out: dict[str, float] = {"pairs": len(pairs)}
    out["moves_per_pair"] = sum(len(core.legal_moves(p, d)) for p, d in pairs) / len(pairs)
    out["generate"] = cpu_rate(lambda pd: core.legal_moves(*pd), pairs, repeat)
    out["full"] = cpu_rate(lambda pd: full_answer(*pd), pairs, repeat)
    out["basic"] = cpu_rate(lambda pd: full_answer(*pd, wire.BASIC), pairs, repeat)
    if ACCEL.active:
        out["full_accel"] = cpu_rate(lambda pd: accel_answer(*pd), pairs, repeat)
        out["basic_accel"] = cpu_rate(lambda pd: accel_answer(*pd, wire.BASIC), pairs, repeat)
        out["accel_call"] = cpu_rate(lambda pd: ACCEL.legal_moves_response(pd[0], pd[1], wire.FULL), pairs, repeat)
        out["full_accel_parsed"] = cpu_rate(lambda pd: accel_answer_parsed(*pd), pairs, repeat)
        out["basic_accel_parsed"] = cpu_rate(lambda pd: accel_answer_parsed(*pd, wire.BASIC), pairs, repeat)
    if reference:
        out["reference"] = cpu_rate(lambda pd: reference_encoder.response(core.legal_moves(*pd)), pairs, 1)
    try:
        import gnubg
        from oracle_gnubg import _CUBE, _EVAL, to_gnubg
    except ImportError:
        pass
    else:
        gpairs = [(to_gnubg(p.board), d) for p, d in pairs]
        out["gnubg"] = cpu_rate(lambda gd: gnubg.find_best_moves(gd[0], _CUBE, _EVAL, gd[1]), gpairs, repeat)
    return out


def worst_ms(pairs: list[Pair], repeat: int = 5,
             answer: Callable[[Position, Sequence[int]], bytes] = full_answer) -> tuple[float, str]:
    """The slowest full answer of ``pairs`` in wall milliseconds (best of ``repeat`` each)."""
    worst, which = 0.0, ""
    for pos, dice in pairs:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            answer(pos, dice)
            best = min(best, time.perf_counter() - t0)
        if best > worst:
            worst = best
            which = f"{core.position_id.encode(pos)} {pos.on_roll.name.lower()} {dice[0]}-{dice[1]}"
    return worst * 1000, which


def run(smoke: bool = False, repeat: int = 3) -> dict[str, object]:
    """Every figure, as a dict (bench/run_all.py formats it)."""
    if smoke:
        repeat = 1
    sets = {
        "match": match_pairs(3 if smoke else None),
        "random": random_pairs(300 if smoke else 10_000),
        "hardest": hardest_pairs()[: 2 if smoke else None],
    }
    results: dict[str, object] = {}
    for name, pairs in sets.items():
        results[name] = measure(name, pairs, repeat)
        print(name, json.dumps(results[name]), flush=True)
    ms, which = worst_ms(sets["hardest"], 1 if smoke else 5)
    results["worst_full_ms"] = ms
    results["worst_pair"] = which
    print(f"worst full answer {ms:.1f} ms: {which}")
    if ACCEL.active:
        ms, which = worst_ms(sets["hardest"], 1 if smoke else 5, accel_answer)
        results["worst_accel_ms"] = ms
        results["worst_accel_pair"] = which
        print(f"worst full answer, accelerator {ms:.2f} ms: {which}")
    results["accelerator"] = ACCEL.status
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept")
    parser.add_argument("--smoke", action="store_true", help="a few hundred pairs, one run: seconds")
    args = parser.parse_args()
    run(args.smoke, args.repeat)


if __name__ == "__main__":
    main()
