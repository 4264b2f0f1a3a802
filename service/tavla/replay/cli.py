"""``tavla-engine replay``: check Jellyfish ``.mat`` match records against a running service.

Prints one summary line per file, the disagreements as ``file:line: message``, and a total;
exits 0 when every file agrees, 1 on any disagreement, 2 when a file cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor

from tavla.replay.driver import MODES, Report, replay
from tavla.replay.matfile import MatParseError, read_match

DEFAULT_TARGET = "localhost:50051"


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "replay",
        help="replay .mat match records through the service and check every play and score",
        description=__doc__.splitlines()[0],
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="Jellyfish .mat match records")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--target", default=DEFAULT_TARGET,
                       help="HOST:PORT of a running tavla-engine (default %(default)s)")
    where.add_argument("--local", action="store_true",
                       help="use the rules core in this process instead of a server")
    p.add_argument("--connect-timeout", type=float, default=10.0,
                   help="seconds to wait for the server (default %(default)s)")
    p.add_argument("--jobs", type=int, default=4, help="files replayed at once (default %(default)s)")
    p.add_argument("--quiet", action="store_true", help="print only disagreements and the total")
    p.add_argument("--rules", choices=MODES, default="auto",
                   help="check as the match the record names, as a money session (Jacoby off or "
                        "on), or auto: a match, turning to money play on a gammon paid 1 with the "
                        "cube never turned (default %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.local:
        from tavla.replay.engines import LocalEngine

        local_engine = LocalEngine()

        def engine_for_file():
            return local_engine
    else:
        from tavla.replay.engines import GrpcEngine

        local_engine = None
        probe = GrpcEngine(args.target)
        ready = probe.wait_ready(args.connect_timeout)
        probe.close()
        if not ready:
            print(f"cannot reach a tavla-engine at {args.target} within {args.connect_timeout:g} s; "
                  f"start one with `tavla-engine serve`", file=sys.stderr)
            return 2

        def engine_for_file():
            # a channel per file: connections, not calls, are spread over a server's workers
            return GrpcEngine(args.target)
    unreadable = 0

    def one(path: str) -> Report | None:
        nonlocal unreadable
        try:
            match = read_match(path)
        except (OSError, MatParseError) as exc:
            unreadable += 1
            print(f"{path}: cannot read: {exc}", file=sys.stderr)
            return None
        engine = engine_for_file()
        try:
            return replay(match, engine, mode=args.rules)
        finally:
            if engine is not local_engine:
                engine.close()

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        reports = [r for r in pool.map(one, args.files) if r is not None]
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
    print(f"replayed {len(reports)} file(s), {plays} plays: {len(reports) - len(bad)} agree, "
          f"{len(bad)} disagree, {unreadable} unreadable")
    unfinished = sum(r.unfinished for r in reports)
    money = sum(r.money for r in reports)
    if unfinished or money:
        print(f"notes: {unfinished} unfinished, {money} checked as money session(s)")
    if unreadable:
        return 2
    return 1 if bad else 0
