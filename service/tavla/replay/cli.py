"""``tavla-engine replay``: check match records (Jellyfish ``.mat``, gnubg ``.sgf``) against a
running service, through its ValidateMatch RPC (``--local``: the same check in this process).

Prints one summary line per record, the disagreements as ``file:line: message``, notes
(unfinished, rules assumed, quirks read; not with ``--quiet``), and a total; exits 0 when every
record agrees, 1 on any disagreement, 2 when a file cannot be read.
``--per-call`` drives the older path instead: one RPC per play and per match step.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tavla.replay.driver import MODES, Report, replay
from tavla.formats.matreader import MatParseError, read_match

DEFAULT_PORT = 50051
# Seconds --wait gives a server that is starting: a first `make serve` installs and compiles
# the accelerator before it listens (about 80 s on 2 cores).
DEFAULT_WAIT = 180.0


def default_target(environ: dict[str, str] | None = None) -> str:
    """``localhost:PORT``, PORT from TAVLA_PORT (what ``serve`` reads), else PORT (what ``make
    serve`` takes), else 50051: replay finds the server the same variables started."""
    env = os.environ if environ is None else environ
    return f"localhost:{env.get('TAVLA_PORT') or env.get('PORT') or DEFAULT_PORT}"


CHUNK = 32 << 10  # bytes per ValidateMatch message: with its framing, well below --max-request-bytes (64 KiB)
_COUNTS = ("finished", "capped", "drops", "resigned", "forfeits", "cube_actions", "match_updates")


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "replay",
        help="check .mat/.sgf match records through the service: every play and score",
        description=" ".join(__doc__.split("\n\n")[0].split()).replace("``", ""),
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="Jellyfish .mat or gnubg .sgf records (one or several per file); a "
                        "directory stands for every .mat and .sgf file under it")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--target", default=None,
                       help="HOST:PORT of a running tavla-engine (default localhost:$TAVLA_PORT, "
                            "else localhost:$PORT, else localhost:50051; now "
                            f"{default_target()})")
    where.add_argument("--local", action="store_true",
                       help="use the rules core in this process instead of a server")
    p.add_argument("--wait", "--connect-timeout", dest="wait", type=float, default=DEFAULT_WAIT,
                   metavar="SECONDS",
                   help="seconds to wait for a server that is still starting (default %(default)g)")
    p.add_argument("--jobs", type=int, default=4,
                   help="files checked at once, each on its own connection, so a load-balanced "
                        "service spreads them over its replicas (default %(default)s)")
    p.add_argument("--quiet", action="store_true", help="print only disagreements and the total")
    p.add_argument("--rules", choices=MODES, default="auto",
                   help="check as the match the record names, as a money session (Jacoby off or "
                        "on), or auto: a match, turning to money play on a gammon paid 1 with the "
                        "cube never turned (default %(default)s)")
    p.add_argument("--shard", type=_shard, default=(0, 1), metavar="K/N",
                   help="check only the files whose index in the sorted list is K modulo N "
                        "(for N parallel jobs over one archive; default 0/1: all)")
    p.add_argument("--no-fail", action="store_true",
                   help="exit 0 whatever the verdicts (the printed report is the result)")
    p.add_argument("--per-call", action="store_true",
                   help="drive one RPC per play and match step (.mat only) instead of ValidateMatch")
    p.set_defaults(func=run)


def _shard(text: str) -> tuple[int, int]:
    try:
        index, count = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N, e.g. 0/4, not {text!r}") from None
    if not 0 <= index < count:
        raise argparse.ArgumentTypeError(f"K/N needs 0 <= K < N, not {text!r}")
    return index, count


def expand(paths: list[str], shard: tuple[int, int] = (0, 1)) -> list[str]:
    """``paths`` with each directory replaced by its .mat and .sgf files (sorted), then the
    ``shard`` K/N of them: the files whose index in the whole sorted list is K modulo N."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(str(p) for p in Path(path).rglob("*") if p.suffix.lower() in (".mat", ".sgf")
                            and p.is_file())
        else:
            files.append(path)
    index, count = shard
    if count == 1:
        return files
    return [f for i, f in enumerate(sorted(files)) if i % count == index]


def _format(path: str) -> str:
    lower = path.lower()
    return "sgf" if lower.endswith(".sgf") else "mat" if lower.endswith(".mat") else "auto"


def _chunks(path: str) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            yield chunk


class _Busy(Exception):
    """The server refused the stream before any verdict (its cap on open streams)."""


_BUSY_TRIES = 8


def _local(path: str, mode: str) -> tuple[list[Report], list[str]]:
    """Reports and unreadable-record errors of ``path``, checked in process."""
    from tavla.replay.engines import LocalEngine
    from tavla.replay.validate import RecordVerdict, validate_bytes

    reports, errors = [], []
    for verdict in validate_bytes(_chunks(path), LocalEngine(), path, _format(path), mode):
        if isinstance(verdict, RecordVerdict):
            if verdict.report is None:
                errors.append(verdict.error)
            else:
                reports.append(verdict.report)
    return reports, errors


def _remote(stub: Any, path: str, mode: str) -> tuple[list[Report], list[str]]:
    """Reports and unreadable-record errors of ``path`` from the ValidateMatch RPC."""
    from tavla.v1 import validate_pb2 as pb

    formats = {"auto": pb.RECORD_FORMAT_UNSPECIFIED, "mat": pb.RECORD_FORMAT_MAT, "sgf": pb.RECORD_FORMAT_SGF}
    rules = {"auto": pb.VALIDATION_RULES_AUTO, "match": pb.VALIDATION_RULES_MATCH,
             "money": pb.VALIDATION_RULES_MONEY, "money-jacoby": pb.VALIDATION_RULES_MONEY_JACOBY}

    def requests() -> Iterator[pb.ValidateMatchRequest]:
        yield pb.ValidateMatchRequest(format=formats[_format(path)], rules=rules[mode], source=path)
        for chunk in _chunks(path):
            yield pb.ValidateMatchRequest(chunk=chunk)

    import grpc

    if not os.path.isfile(path):  # before the stream: a reader's error there is only "UNKNOWN"
        return [], [f"{path}: no such file"]
    reports, errors = [], []
    counts = dict.fromkeys(_COUNTS, 0)
    crawford = 0
    responses = stub.ValidateMatch(requests())
    try:
        first = next(responses, None)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
            raise _Busy from None
        raise
    for response in itertools.chain([first] if first is not None else [], responses):
        if response.WhichOneof("verdict") == "game":
            g = response.game
            for key in _COUNTS:
                counts[key] += getattr(g, key)
            crawford += g.crawford_game
            continue
        r = response.record
        if not r.readable:
            errors.append(r.error)
        else:
            reports.append(Report(
                r.source, r.length, r.games, r.plays_checked, crawford_games=crawford,
                final_score=(r.white_score, r.black_score), match_winner=int(r.match_winner),  # SIDE_WHITE 1, SIDE_BLACK 2
                problems=list(r.disagreements), notes=list(r.notes), rules=r.rules,
                unfinished=r.unfinished, money=r.money_session, dropped=r.unlisted, **counts))
        counts, crawford = dict.fromkeys(_COUNTS, 0), 0
    return reports, errors


def run(args: argparse.Namespace) -> int:
    import grpc

    from tavla.v1 import records_service_pb2_grpc

    if not args.local:
        from tavla.replay.engines import GrpcEngine

        if args.target is None:
            args.target = default_target()
        probe = GrpcEngine(args.target)
        ready = probe.wait_ready(min(args.wait, 1.0))
        if not ready and args.wait > 1.0:
            print(f"waiting up to {args.wait:g} s for a tavla-engine at {args.target} (--wait)",
                  file=sys.stderr, flush=True)
            ready = probe.wait_ready(args.wait - 1.0)
        probe.close()
        if not ready:
            print(f"cannot reach a tavla-engine at {args.target} within {args.wait:g} s; "
                  f"start one with `tavla-engine serve`", file=sys.stderr)
            return 2

    def one(path: str) -> tuple[list[Report], list[str]]:
        try:
            if args.local:
                return _local(path, args.rules)
            if args.per_call:
                return _per_call(args.target, path, args.rules)
            # a channel per file: connections, not calls, are spread over replicas and workers
            for attempt in range(_BUSY_TRIES):
                with grpc.insecure_channel(args.target) as channel:
                    try:
                        # the generated *_pb2_grpc modules carry no annotations
                        stub = records_service_pb2_grpc.RecordsServiceStub(channel)  # type: ignore[no-untyped-call]
                        return _remote(stub, path, args.rules)
                    except _Busy:
                        # the server has as many streams open as it allows: wait and try again
                        time.sleep(min(0.2 * 2**attempt, 5.0))
            return [], [f"{path}: RESOURCE_EXHAUSTED: the server stayed busy (too many streams); "
                        "try fewer --jobs"]
        except (OSError, MatParseError) as exc:
            return [], [str(exc)]
        except grpc.RpcError as exc:
            return [], [f"{path}: {exc.code().name}: {exc.details()}"]

    files = expand(args.files, args.shard)
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(one, files))
    reports = [r for rs, _ in results for r in rs]
    unreadable = 0
    for path, (_, errors) in zip(files, results):
        for error in errors:
            unreadable += 1
            print(f"{path}: cannot read: {error}", file=sys.stderr)
    plays = sum(r.plays for r in reports)
    bad = [r for r in reports if not r.ok]
    for r in reports:
        if not args.quiet or not r.ok:
            print(r.summary())
        for problem in r.problems:
            print(f"  {problem}")
        if not args.quiet:
            for note in r.notes:
                print(f"  note: {note}")
        if r.dropped:
            print(f"  ... and {r.dropped} more disagreement(s) and note(s) not listed")
    print(f"replayed {len(reports)} file(s), {plays} plays: {len(reports) - len(bad)} agree, "
          f"{len(bad)} disagree, {unreadable} unreadable")
    unfinished = sum(r.unfinished for r in reports)
    money = sum(r.money for r in reports)
    if unfinished or money:
        print(f"notes: {unfinished} unfinished, {money} checked as money session(s)")
    if args.no_fail:
        return 0
    if unreadable:
        return 2
    return 1 if bad else 0


def _per_call(target: str, path: str, mode: str) -> tuple[list[Report], list[str]]:
    from tavla.replay.engines import GrpcEngine

    match = read_match(path)
    engine = GrpcEngine(target)
    try:
        return [replay(match, engine, mode=mode)], []
    finally:
        engine.close()
