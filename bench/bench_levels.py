"""Are the computer levels measurably apart? (docs/analysis.md#levels). Prints figures; asserts
nothing.

    PYTHONPATH=service:clients/python/src python bench/bench_levels.py [--games 400] [--quick]

1. **Win rates** of each level against the level below, over ``--games`` games per adjacent
   pair, split evenly over six configurations: Turkish tavla and international backgammon, 1-,
   5- and 7-point matches. A 5- or 7-point "game" is one game at a match score taken in turn
   from :data:`SCORES` (the Crawford game left out). Games come in pairs on the same dice (the
   server's seeded die stream, ``tavla.core.match.dice.seeded_dice``), each level starting one
   of the two, so the luck of the dice mostly cancels. Checker play only: the cube stays
   centred (the international moves still rank by cubeful match equity). Each move is the
   first of ``jobs.suggest_move``, what SuggestMove and SuggestAction run in the analysis
   process, with the server's default call budget. Wilson 95% intervals.
2. **Equity lost per move against the strongest setting**: every ``--loss-every``-th choice
   with more than one legal move is scored by the 2-ply ranking at the game's score
   (``player.evaluate_moves``); the mean of the best equity minus the chosen move's, per level
   (equity per unit of cube: ``2 * MWC - 1`` in match play).
3. **Latency** per RPC and level (ms: p50, p95, p99, max) of the SuggestMove calls of the games
   (forced moves are not asked) and of SuggestCubeAction / EvaluatePosition on every
   ``--cube-every``-th international choice, the mover's position before its roll. Run it
   under ``taskset -c 0`` for one core.
4. **The variants' search player** (plakoto, no net): its ply 2 (EXPERT) against its ply 1
   (ADVANCED), and its ply 1 against a random player, ``--variant-games`` each.

``--only expert:turkish-1,...`` plays only the match-ups named (the stronger level, the
configuration), ``--per-config`` games each, and prints their win rates alone: a configuration
whose interval still reaches 50% at 68 games, measured apart.

``--cube-only`` times the cube alone: EXPERT against ADVANCED in the international
configurations, ``--games`` games in all (default 24), SuggestCubeAction and EvaluatePosition on
every choice (``--cube-every 1``), then the latency table (part 3) and nothing else.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tavla.analysis import jobs, player
from tavla.analysis.levels import LEVELS, Level
from tavla.core import MatchState, Position, Ruleset, Side, legal_moves
from tavla.core.match.dice import seeded_dice
from tavla.core.match.ruleset import PRESETS, StartRule
from tavla.core.rules.moves import Move
from tavla.core.rules.scoring import score_game

#: The match scores (white's, black's) a 5- or 7-point game is played at, in turn.
SCORES: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    5: ((0, 0), (2, 1), (1, 2), (3, 3), (0, 3), (3, 0)),
    7: ((0, 0), (3, 2), (2, 3), (5, 5), (1, 4), (4, 1)),
}
CONFIGS: tuple[tuple[str, int], ...] = tuple((r, n) for r in ("turkish", "international") for n in (1, 5, 7))
#: The server's default per-call budget (``--analysis-call-seconds``).
CALL_SECONDS = 30.0
SEED = b"bench_levels"

Chooser = Callable[[Position, tuple[int, int], Ruleset, MatchState], Move]


@dataclass
class Stats:
    latency: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    loss: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def level_chooser(level: Level, stats: Stats, loss_every: int, cube_every: int) -> Chooser:
    count = [0]

    def choose(pos: Position, dice: tuple[int, int], rules: Ruleset, match: MatchState) -> Move:
        moves = legal_moves(pos, dice)
        if len(moves) == 1:
            return moves[0]
        count[0] += 1
        start = time.perf_counter()
        chosen = jobs.suggest_move(pos, dice, rules, match, level, time.monotonic() + CALL_SECONDS).moves[0].move
        stats.latency[("SuggestMove", level.value)].append(time.perf_counter() - start)
        if loss_every and count[0] % loss_every == 0:
            ranked, _ = player.evaluate_moves(pos, dice, rules, match, 2)
            by_board = {r.move.board_after: r.equity for r in ranked if r.ply == ranked[0].ply}
            if chosen.board_after in by_board:  # a move the 2-ply filter left at 1 ply is skipped
                stats.loss[level.value].append(ranked[0].equity - by_board[chosen.board_after])
        if cube_every and rules.cube and count[0] % cube_every == 0:
            calls = (("SuggestCubeAction", jobs.suggest_cube), ("EvaluatePosition", jobs.evaluate_position))
            for rpc, call in calls:  # the mover's decision before this roll
                start = time.perf_counter()
                call(pos, rules, match, level, time.monotonic() + CALL_SECONDS)
                stats.latency[(rpc, level.value)].append(time.perf_counter() - start)
        return chosen
    return choose


def random_chooser(rng: random.Random) -> Chooser:
    return lambda pos, dice, rules, match: rng.choice(legal_moves(pos, dice))


def opening(rules: Ruleset, dice: Iterator[int]) -> tuple[int, int]:
    """The first roll: international, a roll-off without doubles; Turkish, the roll-off winner
    rolls again and may roll a double (R3)."""
    while True:
        a, b = next(dice), next(dice)
        if rules.start is StartRule.TURKISH or a != b:
            return a, b


def play_game(white: Chooser, black: Chooser, starter: Side, rules: Ruleset, match: MatchState,
              dice: Iterator[int]) -> tuple[Side | None, int]:
    """One game; the winner (None: a draw) and the points it scores, cube at 1."""
    variant = rules.variant_class
    pos = Position.initial(starter, variant=variant)
    roll = opening(rules, dice)
    for _ in range(3000):
        chooser = white if pos.on_roll is Side.WHITE else black
        pos = chooser(pos, roll, rules, match).result
        if pos.winner is not None:
            result = score_game(pos, rules)
            return result.winner, result.points
        if variant.drawn(pos):
            return None, 0
        roll = (next(dice), next(dice))
    return None, 0


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    points: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.points += other.points
        self.seconds += other.seconds


def match_up(first: Chooser, second: Chooser, rules: Ruleset, length: int, games: int, label: str) -> Tally:
    """``games`` games of ``first`` against ``second`` (first is white), in pairs on one dice
    stream, first starting the even ones."""
    tally = Tally()
    start = time.perf_counter()
    for g in range(games):
        scores = SCORES.get(length, ((0, 0),))[(g // 2) % len(SCORES.get(length, ((0, 0),)))]
        match = MatchState(length=length, scores=scores)
        dice = seeded_dice(SEED, f"{label}/{g // 2}")
        starter = Side.WHITE if g % 2 == 0 else Side.BLACK
        winner, pts = play_game(first, second, starter, rules, match, dice)
        tally.games += 1
        if winner is None:
            tally.wins += 0.5
        elif winner is Side.WHITE:
            tally.wins += 1
            tally.points += pts
        else:
            tally.points -= pts
    tally.seconds = time.perf_counter() - start
    return tally


def row(name: str, t: Tally) -> str:
    lo, hi = wilson(t.wins, t.games)
    rate = t.wins / max(1, t.games)
    return (f"| {name} | {t.games} | {100 * rate:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% | "
            f"{t.points / max(1, t.games):+.2f} | {t.seconds / max(1, t.games):.2f} |")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per adjacent pair, over all configurations")
    parser.add_argument("--variant-games", type=int, default=100)
    parser.add_argument("--loss-every", type=int, default=5)
    parser.add_argument("--cube-every", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="a few games (bench-smoke)")
    parser.add_argument("--cube-only", action="store_true", help="the cube's latency alone (module docstring)")
    parser.add_argument("--only", default="", help="comma-separated STRONGER:RULES-LENGTH match-ups "
                        "(expert:turkish-1): those alone, --per-config games each, win rates only")
    parser.add_argument("--per-config", type=int, default=0, help="games per configuration and pair")
    args = parser.parse_args()
    only = {item.strip() for item in args.only.split(",") if item.strip()}
    if args.cube_only:
        cube_only(args.games if args.games != parser.get_default("games") else 24)
        return
    if args.quick:
        args.games, args.variant_games = 12, 4
    per_config = max(2, 2 * math.ceil((args.per_config or args.games / len(CONFIGS)) / 2))  # even: pairs
    stats = Stats()
    levels = list(Level)
    began = time.perf_counter()
    print(f"levels: {', '.join(f'{lv.value} (ply {LEVELS[lv].ply}, noise {LEVELS[lv].noise})' for lv in levels)}")
    pairs = f"{len(only)} match-ups" if only else f"{per_config * len(CONFIGS)} per pair"
    print(f"{per_config} games per configuration and pair ({pairs}), in pairs on the same dice\n")
    print("#### Win rates, each level against the one below (first is the stronger)\n")
    print("| pairing | games | first wins | 95% (Wilson) | first's points per game | s per game |")
    print("| --- | --- | --- | --- | --- | --- |")
    choosers = {lv: level_chooser(lv, stats, args.loss_every, args.cube_every) for lv in levels}
    for weaker, stronger in zip(levels, levels[1:]):
        total = Tally()
        for rules_name, length in CONFIGS:
            if only and f"{stronger.value}:{rules_name}-{length}" not in only:
                continue
            rules = PRESETS[rules_name]
            t = match_up(choosers[stronger], choosers[weaker], rules, length, per_config,
                         f"{stronger.value}-{weaker.value}/{rules_name}/{length}")
            total.add(t)
            print(row(f"{stronger.value} vs {weaker.value}, {rules_name} {length}-point", t), flush=True)
        if total.games and not only:
            print(row(f"**{stronger.value} vs {weaker.value}, all**", total), flush=True)
    if only:
        print(f"\ntotal {time.perf_counter() - began:.0f} s")
        return

    print("\n#### Equity lost per move against the 2-ply ranking at the game's score\n")
    print("| level | choices scored | mean loss |")
    print("| --- | --- | --- |")
    for lv in levels:
        v = stats.loss.get(lv.value, [])
        print(f"| {lv.value} | {len(v)} | {statistics.fmean(v) if v else float('nan'):.4f} |")

    print("\n#### The variants' search player (plakoto, money play)\n")
    print("| pairing | games | first wins | 95% (Wilson) | first's points per game | s per game |")
    print("| --- | --- | --- | --- | --- | --- |")
    plakoto = PRESETS["plakoto"]
    vstats = Stats()
    deep = level_chooser(Level.EXPERT, vstats, 0, 0)
    shallow = level_chooser(Level.ADVANCED, vstats, 0, 0)
    rng = random.Random(1)
    print(row("search ply 1 (advanced) vs random", match_up(shallow, random_chooser(rng), plakoto, 0,
                                                                args.variant_games, "search-random")), flush=True)
    print(row("search ply 2 (expert) vs ply 1 (advanced)", match_up(deep, shallow, plakoto, 0,
                                                                      args.variant_games, "search-deep")), flush=True)

    latency_table(((stats, ""), (vstats, " (plakoto, search)")))
    print(f"\ntotal {time.perf_counter() - began:.0f} s")


def latency_table(sources: tuple[tuple[Stats, str], ...]) -> None:
    levels = list(Level)
    print("\n#### Latency per RPC and level (ms)\n")
    print("| RPC | level | calls | p50 | p95 | p99 | max |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for source, tag in sources:
        for (rpc, name), v in sorted(source.latency.items(), key=lambda kv: (kv[0][0], levels.index(Level(kv[0][1])))):
            ms = [1000 * s for s in v]
            print(f"| {rpc}{tag} | {name} | {len(ms)} | {statistics.median(ms):.1f} | {pct(ms, 0.95):.1f} | "
                  f"{pct(ms, 0.99):.1f} | {max(ms):.1f} |")


def cube_only(games: int) -> None:
    """EXPERT against ADVANCED, international, the cube timed on every choice."""
    began = time.perf_counter()
    stats = Stats()
    expert = level_chooser(Level.EXPERT, stats, 0, 1)
    advanced = level_chooser(Level.ADVANCED, stats, 0, 1)
    configs = [(r, n) for r, n in CONFIGS if PRESETS[r].cube]
    per_config = max(2, 2 * math.ceil(games / len(configs) / 2))
    for rules_name, length in configs:
        t = match_up(expert, advanced, PRESETS[rules_name], length, per_config, f"cube/{rules_name}/{length}")
        print(row(f"expert vs advanced, {rules_name} {length}-point", t), flush=True)
    latency_table(((stats, ""),))
    print(f"\ntotal {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
