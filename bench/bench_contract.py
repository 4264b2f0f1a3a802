"""Benchmark of the declared input contract (tavla.server.convert.contract). Prints figures;
asserts nothing.

    PYTHONPATH=service:clients/python/src python bench/bench_contract.py [--calls 20000]

For typical requests of each RPC family it prints the microseconds one :func:`contract.check`
takes in this process (the median of five rounds), the cost every call pays before its handler
on either protocol.
"""

from __future__ import annotations

import argparse
import statistics
import time

from google.protobuf import json_format

from tavla.server.convert import contract
from tavla.v1 import analysis_service_pb2, referee_service_pb2, rules_service_pb2

START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
REQUESTS = {
    "ListLegalMoves, board": json_format.ParseDict(
        {"ruleset": {"preset": "turkish"}, "position": {"onRoll": "SIDE_WHITE", "board": {
            "white": {"points": START}, "black": {"points": START}}}, "dice": [3, 1]},
        rules_service_pb2.ListLegalMovesRequest()),
    "ListLegalMoves, position ID": json_format.ParseDict(
        {"position": {"positionId": "4HPwATDgc/ABMA"}, "dice": [3, 1]}, rules_service_pb2.ListLegalMovesRequest()),
    "Act, a step": json_format.ParseDict(
        {"state": {"state": "A" * 400, "keyId": "k1", "signature": "B" * 43},
         "action": {"kind": "ACTION_KIND_STEP", "step": {"fromPoint": 13, "toPoint": 10}}},
        referee_service_pb2.ActRequest()),
    "SuggestMove, match": json_format.ParseDict(
        {"position": {"positionId": "4HPwATDgc/ABMA"}, "dice": [3, 1], "match": {"length": 7, "whiteScore": 2}},
        analysis_service_pb2.SuggestMoveRequest()),
}


def per_call_us(request: object, calls: int) -> float:
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            contract.check(request)  # type: ignore[arg-type]
        rounds.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000, help="checks per round (default %(default)s)")
    args = parser.parse_args()
    print("declared input contract: one check per call, in process (median of 5 rounds)")
    print(f"{'request':<30} {'us per check':>12}")
    for name, request in REQUESTS.items():
        print(f"{name:<30} {per_call_us(request, args.calls):12.2f}")


if __name__ == "__main__":
    main()
