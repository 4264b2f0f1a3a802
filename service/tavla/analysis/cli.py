"""``tavla-engine analyze``: review match records (Jellyfish ``.mat``, GNU Backgammon ``.sgf``) with the analysis engine:
each side's error rate and performance rating, and the worst decisions.

In this process by default (the same core function AnalyzeMatch runs,
:func:`tavla.analysis.review.analyze_match`), or through a running service's AnalyzeMatch RPC
with ``--target``. A progress bar (games reviewed) goes to stderr on a terminal or with
``--progress``. Exits 0, 1 when a record is refused (not a .mat, an illegal play), 2 when a file
cannot be read.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from tavla.analysis.levels import Level

_LEVELS = [level.value for level in Level]


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "analyze", help="review .mat match records: each side's error rate and PR, the worst decisions",
        description=" ".join(__doc__.split("\n\n")[0].split()).replace("``", ""))
    p.add_argument("files", nargs="+", metavar="FILE", help="Jellyfish .mat or gnubg .sgf records (one match each); "
                                                             "a directory stands for every .mat and .sgf under it")
    p.add_argument("--level", choices=_LEVELS, default=Level.ADVANCED.value,
                   help="analysis level (default %(default)s: 1 ply; expert: 2 ply, about 20 times slower)")
    p.add_argument("--target", default=None, metavar="HOST:PORT",
                   help="review through a running tavla-engine's AnalyzeMatch instead of in this process")
    p.add_argument("--worst", type=int, default=5, metavar="N", help="list each record's N largest errors "
                                                                      "(default %(default)s; 0: none)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when stderr is not a terminal")
    p.set_defaults(func=run)


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for name in paths:
        path = Path(name)
        out.extend(sorted([*path.rglob("*.mat"), *path.rglob("*.sgf")]) if path.is_dir() else [path])
    return out


class Progress:
    """A one-line progress bar on ``stream`` (games reviewed of all records), redrawn in place."""

    WIDTH = 30

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.done, self.stream, self.enabled = max(1, total), 0, stream, enabled
        self.start = time.monotonic()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self.draw()

    def draw(self) -> None:
        if not self.enabled or not self.done:
            return
        filled = round(self.WIDTH * min(self.done, self.total) / self.total)
        rate = self.done / max(1e-9, time.monotonic() - self.start)
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} games "
                          f"({rate:.1f}/s)")
        self.stream.flush()

    def clear(self) -> None:
        """Take the bar off its line, so that a report can be printed there."""
        if self.enabled and self.done:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()
            self.enabled = False


def _is_sgf(path: Path) -> bool:
    return path.suffix.lower() == ".sgf"


def _count_games(path: Path, text: str) -> int:
    if _is_sgf(path):
        return text.count("(;")
    return sum(1 for line in text.splitlines() if line.strip().startswith("Game "))


def _local(text: str, source: str, level: Level, progress: Progress, sgf: bool = False) -> dict[str, Any]:
    from tavla.analysis import review

    seen = [0]

    def step(p: review.Progress) -> None:  # games done: those before the current one, all at the end
        done = p.games if p.decisions_done == p.decisions_total else p.game - 1
        progress.advance(done - seen[0])
        seen[0] = done

    analyze = review.analyze_sgf if sgf else review.analyze_mat
    r = analyze(text, level, progress=step, source=source)
    return {"games": r.games, "ply": r.ply,
            "players": [(p.name, p.side.name.lower(), p.moves, p.cube_decisions, p.error_rate,
                         p.performance_rating, p.move_error_rate, p.cube_error_rate) for p in r.players],
            "decisions": [(d.game, d.move_number, d.side.name.lower(), d.played, d.best, d.error, d.dice)
                          for d in r.decisions]}


def _remote(stub: Any, text: str, level: Level, progress: Progress, sgf: bool = False) -> dict[str, Any]:
    from tavla.server.api.analysis import LEVELS
    from tavla.v1 import analysis_service_pb2 as api
    from tavla.v1 import types_pb2

    request = (api.AnalyzeMatchRequest(sgf=text.encode("utf-8"), level=LEVELS.to_proto(level)) if sgf
               else api.AnalyzeMatchRequest(mat=text, level=LEVELS.to_proto(level)))
    r = stub.AnalyzeMatch(request)
    progress.advance(r.games)
    side = {types_pb2.SIDE_WHITE: "white", types_pb2.SIDE_BLACK: "black"}
    return {"games": r.games, "ply": r.info.ply,
            "players": [(p.name, side.get(p.side, "?"), p.moves, p.cube_decisions, p.error_rate, p.performance_rating,
                         p.move_error_rate, p.cube_error_rate) for p in r.players],
            "decisions": [(d.game, d.move_number, side.get(d.side, "?"), d.played, d.best, d.error, tuple(d.dice))
                          for d in r.decisions]}


def _print(path: Path, result: dict[str, Any], level: Level, worst: int) -> None:
    print(f"{path}: {result['games']} games, level {level.value} ({result['ply']}-ply)")
    for name, side, moves, cubes, er, pr, mer, cer in result["players"]:
        print(f"  {name or '?'} ({side}): error rate {er:.1f} mEMG per decision, PR {pr:.2f} "
              f"({moves} moves {mer:.1f}, {cubes} cube decisions {cer:.1f})")
    for game, number, side, played, best, error, dice in sorted(result["decisions"], key=lambda d: -d[5])[:worst]:
        roll = "".join(str(d) for d in dice)
        print(f"    game {game} move {number} {side}{' ' + roll if roll else ''}: played {played or '(none)'}, "
              f"best {best or '(none)'}, -{error:.3f}")


def run(args: argparse.Namespace) -> int:
    """Review every record; the exit code (module docstring)."""
    level = Level(args.level)
    files = _files(args.files)
    texts: list[tuple[Path, str]] = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            return 2
        try:
            texts.append((path, data.decode("utf-8")))
        except UnicodeDecodeError:
            texts.append((path, data.decode("latin-1")))
    progress = Progress(sum(_count_games(p, t) for p, t in texts), sys.stderr,
                        args.progress or sys.stderr.isatty())
    stub = None
    channel = None
    if args.target:
        import grpc

        from tavla.v1 import analysis_service_pb2_grpc

        channel = grpc.insecure_channel(args.target)
        stub = analysis_service_pb2_grpc.AnalysisServiceStub(channel)  # type: ignore[no-untyped-call]
    status = 0
    try:
        for path, text in texts:
            try:
                sgf = _is_sgf(path)
                result = (_remote(stub, text, level, progress, sgf) if stub
                          else _local(text, str(path), level, progress, sgf))
            except Exception as exc:  # a refused record: say which and go on with the others
                details = exc.details() if hasattr(exc, "details") else str(exc)  # a gRPC error's text
                progress.clear()
                print(f"{path}: {details}", file=sys.stderr)
                progress.draw()
                status = 1
                continue
            progress.clear()
            sys.stderr.flush()
            _print(path, result, level, args.worst)
            sys.stdout.flush()
            progress.draw()
    finally:
        progress.close()
        if channel is not None:
            channel.close()
    return status
