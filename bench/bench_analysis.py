"""Benchmark of the analysis engine and the computer levels (docs/analysis.md). Prints figures;
asserts nothing.

    PYTHONPATH=service:clients/python/src python bench/bench_analysis.py \
        [--positions 1000] [--games 100] [--latency-calls 30] [--seed 1]

1. **Equity loss per move** over ``--positions`` checker plays of the real matches in
   tests/data/matches (every k-th play with more than one legal move): each level's chosen move
   scored by the strongest level (EXPERT, 2-ply), the mean loss against EXPERT's best.
2. **Win rates** over ``--games`` cubeless money games per pairing (half as many for the
   pairings with a 2-ply side) (international rules, sides
   alternating, dice from a seeded generator): each level against the level below, BEGINNER and
   the search player (tavla.analysis.search, on backgammon as a stand-in for the variants
   without a net) against a random player, the search player's ply 2 against its ply 1; with
   points per game and a 95% interval of the win rate.
3. **Latency** of each AnalysisService RPC at each level through a server started in this
   process (``--latency-calls`` calls each over positions from the same matches): median and
   95th percentile; AnalyzeMatch of one 7-point match.
4. **Memory**: the process's peak resident size after all of it (one worker's engine loaded,
   every level used, the server under the latency load).

``--review-only`` times nothing else but AnalyzeMatch of a real 7-point match (``--review-file``,
default match0044.mat: 7 games) through a server in this process with its default budget and
analysis process: at the RPC's default level (unset: ADVANCED) and at EXPERT, ``--review-runs``
times each, the wall time and the ply the answer reports. Run it under ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "matches"

from tavla.analysis import player, search  # noqa: E402
from tavla.analysis.levels import Level  # noqa: E402
from tavla.core import MatchState, Position, Ruleset, Side, legal_moves, notation, resolve  # noqa: E402
from tavla.core.rules.scoring import score_game  # noqa: E402
from tavla.formats.matreader import Roll, read_match  # noqa: E402

MONEY = Ruleset(cube=False)
NO_MATCH = MatchState()
_SIDES = {1: Side.WHITE, 2: Side.BLACK}


def real_positions(count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, dice) pairs of real plays with more than one legal move, spread
    evenly over the records."""
    found: list[tuple[Position, tuple[int, int]]] = []
    for path in sorted(DATA.glob("*.mat")):
        match = read_match(path)
        for game in match.games:
            pos: Position | None = None
            for action in game.actions:
                if not isinstance(action, Roll):
                    continue
                side = _SIDES[action.player]
                pos = Position.initial(side) if pos is None else pos
                if pos.on_roll is not side:
                    pos = pos.swap_turn()
                if action.play.strip() == "????":
                    break
                try:
                    move = resolve(pos, action.dice, notation.parse(action.play))
                except Exception:
                    break
                if len(legal_moves(pos, action.dice)) > 1:
                    found.append((pos, tuple(action.dice)))
                pos = move.result
                if pos.winner is not None:
                    break
    step = max(1, len(found) // count)
    return found[::step][:count]


def equity_loss(positions: list[tuple[Position, tuple[int, int]]]) -> dict[Level, float]:
    losses: dict[Level, list[float]] = {level: [] for level in Level}
    start = time.perf_counter()
    for i, (pos, dice) in enumerate(positions):
        ranked, _ = player.evaluate_moves(pos, dice, MONEY, NO_MATCH, 2)
        by_board = {r.move.board_after: r.equity for r in ranked}
        best = ranked[0].equity
        for level in Level:
            if level is Level.EXPERT:  # its own choice: the best of this very ranking
                losses[level].append(0.0)
                continue
            chosen = player.suggest_move(pos, dice, MONEY, NO_MATCH, level).moves[0].move
            losses[level].append(best - by_board[chosen.board_after])
        if (i + 1) % 200 == 0:
            print(f"  ... {i + 1} positions, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return {level: statistics.fmean(v) for level, v in losses.items()}


Chooser = Callable[[Position, tuple[int, int], random.Random], object]


def level_player(level: Level) -> Chooser:
    def choose(pos: Position, dice: tuple[int, int], rng: random.Random) -> object:
        return player.suggest_move(pos, dice, MONEY, NO_MATCH, level).moves[0].move
    return choose


def search_player(ply: int) -> Chooser:
    def choose(pos: Position, dice: tuple[int, int], rng: random.Random) -> object:
        return search.rank(pos, dice, ply)[0].move
    return choose


def random_player(pos: Position, dice: tuple[int, int], rng: random.Random) -> object:
    return rng.choice(legal_moves(pos, dice))


def play_game(white: Chooser, black: Chooser, rng: random.Random) -> tuple[Side, int]:
    """One cubeless money game (international start: the opening roll is never a double)."""
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    while a == b:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    pos = Position.initial(Side.WHITE if a > b else Side.BLACK)
    dice = (a, b)
    for _ in range(2000):
        chooser = white if pos.on_roll is Side.WHITE else black
        move = chooser(pos, dice, rng)
        pos = move.result  # type: ignore[attr-defined]
        if pos.winner is not None:
            result = score_game(pos, MONEY)
            return result.winner, result.points
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError("a game did not end")


def match_up(name: str, first: Chooser, second: Chooser, games: int, seed: int) -> str:
    rng = random.Random(seed)
    wins = points = 0
    start = time.perf_counter()
    for g in range(games):
        first_white = g % 2 == 0
        winner, pts = play_game(first if first_white else second, second if first_white else first, rng)
        won = (winner is Side.WHITE) == first_white
        wins += won
        points += pts if won else -pts
    p = wins / games
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / games)
    return (f"| {name} | {games} | {100 * p:.1f}% ± {100 * half:.1f} | {points / games:+.2f} | "
            f"{(time.perf_counter() - start) / games:.2f} |")


def latency(calls: int, positions: list[tuple[Position, tuple[int, int]]]) -> list[str]:
    import grpc

    from tavla.server.convert import common as convert
    from tavla.server.process.app import start_in_process
    from tavla.server.process.config import Config
    from tavla.v1 import analysis_service_pb2 as api
    from tavla.v1 import analysis_service_pb2_grpc, referee_service_pb2, referee_service_pb2_grpc, types_pb2

    server, port = start_in_process(Config(host="127.0.0.1", port=0, analysis_call_seconds=0))
    rows = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            grpc.channel_ready_future(ch).result(timeout=30)
            stub = analysis_service_pb2_grpc.AnalysisServiceStub(ch)
            referee = referee_service_pb2_grpc.RefereeServiceStub(ch)
            sample = positions[:: max(1, len(positions) // calls)][:calls]
            states = []
            answer = referee.NewMatch(referee_service_pb2.NewMatchRequest(
                ruleset=types_pb2.Ruleset(preset="international"), length=7))
            state = answer.state
            while len(states) < calls:  # states along a computer-played match, every phase
                states.append(state)
                action = stub.SuggestAction(api.SuggestActionRequest(state=state, level=api.ANALYSIS_LEVEL_ADVANCED)).action
                acted = referee.Act(referee_service_pb2.ActRequest(state=state, action=action))
                state = acted.state
                if acted.view.phase == 7:
                    state = referee.NewMatch(referee_service_pb2.NewMatchRequest(length=7)).state
            mat = (DATA / "match0000.mat").read_text()
            for level in (api.ANALYSIS_LEVEL_BEGINNER, api.ANALYSIS_LEVEL_INTERMEDIATE, api.ANALYSIS_LEVEL_ADVANCED,
                          api.ANALYSIS_LEVEL_EXPERT):
                name = api.AnalysisLevel.Name(level).removeprefix("ANALYSIS_LEVEL_").lower()
                timings: dict[str, list[float]] = {"SuggestMove": [], "EvaluatePosition": [],
                                                   "SuggestCubeAction": [], "SuggestAction": []}
                for (pos, dice), st in zip(sample, states):
                    msg = convert.position_to_proto(pos)
                    for method, request in (
                            ("SuggestMove", api.SuggestMoveRequest(position=msg, dice=dice, level=level)),
                            ("EvaluatePosition", api.EvaluatePositionRequest(position=msg, level=level)),
                            ("SuggestCubeAction", api.SuggestCubeActionRequest(position=msg, level=level)),
                            ("SuggestAction", api.SuggestActionRequest(state=st, level=level))):
                        t = time.perf_counter()
                        getattr(stub, method)(request, timeout=60)
                        timings[method].append(1000 * (time.perf_counter() - t))
                t = time.perf_counter()
                stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=mat, level=level), timeout=600)
                whole = time.perf_counter() - t
                for method, values in timings.items():
                    values.sort()
                    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
                    rows.append(f"| {method} | {name} | {statistics.median(values):.1f} | {p95:.1f} |")
                rows.append(f"| AnalyzeMatch (match0000.mat, 3 games) | {name} | {1000 * whole:.0f} | - |")
    finally:
        server.stop(grace=None)
    return rows


def review_only(path: Path, runs: int) -> None:
    """AnalyzeMatch of ``path`` through a server with its defaults (module docstring)."""
    import grpc

    from tavla.server.process.app import start_in_process
    from tavla.server.process.config import Config
    from tavla.v1 import analysis_service_pb2 as api
    from tavla.v1 import analysis_service_pb2_grpc, types_pb2

    config = Config(host="127.0.0.1", port=0)
    server, port = start_in_process(config)
    mat = path.read_text()
    print(f"AnalyzeMatch of {path.name} ({len(read_match(path).games)} games, "
          f"{read_match(path).length}-point), budget {config.analysis_call_seconds:.0f} s per call\n")
    print("| level | run | wall time (s) | decisions | ply |\n| --- | --- | --- | --- | --- |")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            grpc.channel_ready_future(ch).result(timeout=30)
            stub = analysis_service_pb2_grpc.AnalysisServiceStub(ch)
            start = types_pb2.Position(position_id="4HPwATDgc/ABMA", on_roll=types_pb2.SIDE_WHITE)
            for level in (api.ANALYSIS_LEVEL_ADVANCED, api.ANALYSIS_LEVEL_EXPERT):  # the child and its nets
                stub.SuggestMove(api.SuggestMoveRequest(position=start, dice=[6, 5], level=level), timeout=120)
            for level, name in ((api.ANALYSIS_LEVEL_UNSPECIFIED, "default (advanced)"),
                                (api.ANALYSIS_LEVEL_EXPERT, "expert")):
                for run in range(1, runs + 1):
                    t = time.perf_counter()
                    answer = stub.AnalyzeMatch(api.AnalyzeMatchRequest(mat=mat, level=level), timeout=600)
                    print(f"| {name} | {run} | {time.perf_counter() - t:.2f} | {len(answer.decisions)} | "
                          f"{answer.info.ply} |", flush=True)
    finally:
        server.stop(grace=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--latency-calls", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--review-only", action="store_true", help="AnalyzeMatch of a 7-point match alone")
    parser.add_argument("--review-file", type=Path, default=DATA / "match0044.mat")
    parser.add_argument("--review-runs", type=int, default=3)
    args = parser.parse_args()
    if args.review_only:
        review_only(args.review_file, args.review_runs)
        return
    t0 = time.perf_counter()
    import bgsage  # noqa: F401  the engine's import

    load = time.perf_counter()
    player.suggest_move(Position.initial(), (3, 1), MONEY, NO_MATCH, Level.EXPERT)
    print(f"engine import {1000 * (load - t0):.0f} ms; first call (1-ply and 2-ply nets loaded) "
          f"{1000 * (time.perf_counter() - load):.0f} ms")

    positions = real_positions(args.positions)
    print(f"\n## Equity loss per move against EXPERT (2-ply), {len(positions)} real positions\n")
    print("| level | mean loss (points per game) |\n| --- | --- |")
    for level, loss in equity_loss(positions).items():
        print(f"| {level.value} | {loss:.4f} |")

    print(f"\n## Win rates, {args.games} cubeless money games per pairing\n")
    print("| pairing (first vs second) | games | first wins | first's points per game | s per game |")
    print("| --- | --- | --- | --- | --- |")
    heavy = max(2, args.games // 2)  # pairings with a 2-ply side: half as many games
    pairings = [
        ("beginner vs random", level_player(Level.BEGINNER), random_player, args.games),
        ("intermediate vs beginner", level_player(Level.INTERMEDIATE), level_player(Level.BEGINNER), args.games),
        ("advanced vs intermediate", level_player(Level.ADVANCED), level_player(Level.INTERMEDIATE), args.games),
        ("expert vs advanced", level_player(Level.EXPERT), level_player(Level.ADVANCED), heavy),
        ("search ply 1 vs random", search_player(1), random_player, args.games),
        ("search ply 2 vs search ply 1", search_player(2), search_player(1), heavy),
        ("beginner vs search ply 1", level_player(Level.BEGINNER), search_player(1), args.games),
    ]
    for i, (name, first, second, games) in enumerate(pairings):
        print(match_up(name, first, second, games, args.seed + i), flush=True)

    print(f"\n## Latency per RPC (ms, {args.latency_calls} calls each, one server in this process)\n")
    print("| RPC | level | median | p95 |\n| --- | --- | --- | --- |")
    for row in latency(args.latency_calls, positions):
        print(row)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident size of this process (engine, both nets, server under load): {rss:.0f} MiB; "
          f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
