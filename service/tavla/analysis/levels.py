"""The playing levels (docs/analysis.md#levels): how deep the engine looks, how much noise it
adds to its own evaluations (as GNU Backgammon's beginner and intermediate players do), and how
long one decision may take.

Noise is *deterministic*: drawn from a generator seeded by the position, the dice and the level,
so one level always plays the same move in the same position (a replay or a test repeats
itself), as gnubg's "deterministic noise" option.
"""

from __future__ import annotations

import enum
import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass


class Level(enum.Enum):
    """A playing level, weakest first (``tavla.v1.AnalysisLevel``)."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """What a level does.

    :ivar ply: evaluation depth in the XG numbering (1 = the raw net, 2 = one more half-move
        averaged over the 21 rolls); the search player reads 1 as one-ply and 2 as expectimax.
    :ivar noise: standard deviation of the Gaussian noise added to each candidate's equity
        (equity units: points per game, or normalized match equity) before choosing.
    :ivar budget_seconds: the longest one decision may take at this ply; a call with less time
        left than the level's measured cost falls back to one ply less
        (:func:`tavla.analysis.player.effective_ply`).
    """

    ply: int
    noise: float
    budget_seconds: float


#: The levels, spaced so that each beats the one below measurably at the match lengths players
#: choose (bench/bench_levels.py; figures in docs/analysis.md#levels): the 2-ply search gains
#: too little over the bare net for 400 games to show, so every level below it adds noise to
#: the net. EXPERT's budget keeps its move, and apart from it its cube decision, within 1 s on
#: one core.
LEVELS: dict[Level, LevelSpec] = {
    Level.BEGINNER: LevelSpec(ply=1, noise=0.150, budget_seconds=1.0),
    Level.INTERMEDIATE: LevelSpec(ply=1, noise=0.070, budget_seconds=1.0),
    Level.ADVANCED: LevelSpec(ply=1, noise=0.030, budget_seconds=1.0),
    Level.EXPERT: LevelSpec(ply=2, noise=0.0, budget_seconds=1.0),
}


def noise_for(level: Level, key: Sequence[int], count: int) -> list[float]:
    """``count`` deterministic noise values for ``level`` at the decision named by ``key`` (the
    board and the dice): zeros for a level without noise.

    :param key: integers naming the decision (board counts, dice, side); the same key gives the
        same values in any process.
    """
    sigma = LEVELS[level].noise
    if sigma <= 0:
        return [0.0] * count
    seed = hashlib.sha256(repr((level.value, tuple(key))).encode()).digest()
    rng = random.Random(int.from_bytes(seed[:8], "big"))
    return [rng.gauss(0.0, sigma) for _ in range(count)]
