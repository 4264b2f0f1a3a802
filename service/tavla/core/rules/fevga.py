"""Fevga (Greek) = moultezim (Turkish): the running game (variants-rules.md).

All 15 checkers start on the own 24 (the two start points diagonally opposite: the mover's 24
and 12); both sides move the same way; no hitting, a single checker holds a point
(:mod:`tavla.core.rules.same_direction`). **Ours** (variants-rules.md):

* the start rule (brainking): a side's first checker must pass the opponent's start point (its
  own 12, so reach its 11 or lower) before any other checker of that side moves;
* a side may not occupy all six points of its own starting quarter (19-24) at once;
* the prime rule (:mod:`tavla.core.rules.same_direction`), a ruleset option (``prime_rule``),
  on by default;
* bear-off as backgammon; 1 point, 2 when the loser has borne off nothing; no cube.
"""

from __future__ import annotations

from functools import cache
from collections.abc import Sequence
from typing import ClassVar

from tavla.core.errors import IllegalReason
from tavla.core.rules.geometry import held_mask, lead
from tavla.core.rules.same_direction import HEAD, SameDirection, plain_step, prime_after
from tavla.core.rules.variant import ResultKind, Variant, register

R = IllegalReason
PASSED = 11  # the first checker has passed the opponent's start point (the mover's 12)


def _runner(b: Sequence[int]) -> int:
    """The point of the side's first checker while it has not passed the opponent's start point
    and no other checker has moved (14 on the head, one checker on 12-23), else 0."""
    if b[HEAD] != 14:
        return 0
    for p in range(23, PASSED, -1):
        if b[p] > 0:
            return p
    return 0


def _quarter_full(b: list[int], f: int, t: int) -> bool:
    """Whether the mover would hold all of 19-24 after moving one checker ``f`` -> ``t``."""
    for p in range(19, 25):
        n = b[p] - (p == f) + (p == t)
        if n <= 0:
            return False
    return True


def _make_sources(prime: bool):  # type: ignore[no-untyped-def]
    def sources(b: list[int], die: int, outside: int, top: int = 24, bottom: int = 1) -> list[int]:
        """The single-step rule of fevga: the start rule, an open or own point, the own starting
        quarter never all held, the prime rule (when on), backgammon's bear-off (R11, R12)."""
        runner = _runner(b)
        found = []
        mask0 = lead_q = 0
        if prime:
            mask0, lead_q = held_mask(b), lead(b)
        for f in range(min(top, 24), bottom - 1, -1):
            if b[f] > 0 and (not runner or f == runner):
                t = f - die
                if not plain_step(b, f, t, outside):
                    continue
                if t > 18 and _quarter_full(b, f, t):
                    continue
                if prime and prime_after(b, f, t, mask0, lead_q):
                    continue
                found.append(f)
        return found

    return staticmethod(sources)


class Fevga(SameDirection):
    """Fevga, moultezim: the start rule, the starting-quarter block, the prime rule."""

    name = "fevga"
    aliases: ClassVar[tuple[str, ...]] = ("moultezim",)
    title = "Fevga"
    title_tr: ClassVar[str] = "Moultezim"
    kind_names = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon"}
    prime_rule = True
    options = {"prime_rule": True}
    preset_aliases = ("moultezim",)
    description = ("Fevga (Turkish moultezim): both sides move the same way from diagonally opposite "
                   "starts, a single checker holds a point, the first checker must pass the opponent's "
                   "start before another moves, the own starting quarter never all held; 2 for a gammon, "
                   "no cube.")
    sources = _make_sources(True)

    @classmethod
    def chains_as_played(cls, board: Sequence[int]) -> bool:
        """While the start rule holds (a runner out), the runner and the others are told apart:
        19/4 24/19 is not 24/4."""
        return _runner(board) != 0

    @classmethod
    def rule_refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str] | None:
        runner = _runner(b)
        if runner and f != runner:
            return (R.NO_CHECKER_THERE, f"no other checker moves before the first one (on {runner}) "
                                        "has passed the opponent's start point (fevga's start rule)")
        t = f - die
        if t > 18 and _quarter_full(b, f, t):
            return R.POINT_BLOCKED, "a side may not hold all six points of its starting quarter (19-24)"
        return None

    @classmethod
    def configured(cls, ruleset: object) -> type[Variant]:
        return cls if getattr(ruleset, "prime_rule", True) else _without_prime()


@cache
def _without_prime() -> type[Fevga]:
    class FevgaNoPrimeRule(Fevga):
        """Fevga with the prime rule turned off (ruleset option ``prime_rule``)."""

        prime_rule = False
        sources = _make_sources(False)

    return FevgaNoPrimeRule


register(Fevga)
