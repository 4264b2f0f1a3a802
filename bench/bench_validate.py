"""Benchmark of ValidateMatch (docs/match-files.md). Prints figures; asserts nothing.

    PYTHONPATH=service python bench/bench_validate.py [--repeat 1] [--chunk 32768] [--streams 1]

The archive is the 79 real records of tests/data/matches and the quirk files, concatenated
``--repeat`` times into one .mat stream. It prints plays checked per second:

* in process: :func:`tavla.replay.validate.validate_bytes` with the rules core;
* over gRPC: the ValidateMatch RPC of a server started in this process on 127.0.0.1, the
  archive streamed in ``--chunk``-byte messages, on ``--streams`` concurrent streams (each its
  own channel, as ``tavla-engine replay --jobs`` opens them).

Both check every play against the legal moves of its position and roll (move generation is
most of the cost), so the two figures differ by what the RPC adds.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

from tavla.replay.engines import LocalEngine
from tavla.replay.validate import RecordVerdict, validate_bytes
from tavla.server.process.app import start_in_process
from tavla.v1 import records_service_pb2_grpc
from tavla.v1 import validate_pb2 as pb

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "matches"


def archive(repeat: int) -> bytes:
    paths = sorted(DATA.glob("*.mat")) + sorted((DATA / "quirks").glob("*.mat"))
    return b"\n".join(p.read_bytes() for p in paths * repeat)


def chunks(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def in_process(data: bytes, size: int) -> tuple[int, int, float]:
    start = time.perf_counter()
    plays = records = 0
    for verdict in validate_bytes(chunks(data, size), LocalEngine(), "bench.mat", "mat"):
        if isinstance(verdict, RecordVerdict):
            records += 1
            plays += verdict.report.plays if verdict.report else 0
    return records, plays, time.perf_counter() - start


def one_stream(target: str, data: bytes, size: int) -> tuple[int, int]:
    def requests():
        yield pb.ValidateMatchRequest(format=pb.RECORD_FORMAT_MAT, source="bench.mat")
        for piece in chunks(data, size):
            yield pb.ValidateMatchRequest(chunk=piece)

    plays = records = 0
    with grpc.insecure_channel(target) as channel:
        for response in records_service_pb2_grpc.RecordsServiceStub(channel).ValidateMatch(requests()):
            if response.WhichOneof("verdict") == "record":
                records += 1
                plays += response.record.plays_checked
    return records, plays


def over_grpc(data: bytes, size: int, streams: int) -> tuple[int, int, float]:
    server, port = start_in_process()
    try:
        start = time.perf_counter()
        with ThreadPoolExecutor(streams) as pool:
            results = list(pool.map(lambda _: one_stream(f"127.0.0.1:{port}", data, size), range(streams)))
        elapsed = time.perf_counter() - start
    finally:
        server.stop(grace=None)
    return sum(r for r, _ in results), sum(p for _, p in results), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="copies of the archive (default 1)")
    parser.add_argument("--chunk", type=int, default=32 << 10,
                        help="bytes per message (default 32768: with its framing, under the 64 KiB request limit)")
    parser.add_argument("--streams", type=int, default=1, help="concurrent gRPC streams (default 1)")
    args = parser.parse_args()
    data = archive(args.repeat)
    print(f"archive: {len(data)} bytes, {args.chunk}-byte chunks")
    records, plays, seconds = in_process(data, args.chunk)
    print(f"in process: {records} records, {plays} plays in {seconds:.2f} s: {plays / seconds:,.0f} plays/s")
    records, plays, seconds = over_grpc(data, args.chunk, args.streams)
    print(f"over gRPC ({args.streams} stream(s)): {records} records, {plays} plays in {seconds:.2f} s: "
          f"{plays / seconds:,.0f} plays/s")


if __name__ == "__main__":
    main()
