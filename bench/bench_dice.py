"""Benchmark of the dice (RULES.md R22, docs/dice.md). Prints figures; asserts nothing.

    PYTHONPATH=service python bench/bench_dice.py [--rolls 100000] [--client-seed bench]

For each source, the server's secure one (:func:`tavla.core.match.dice.secure_dice`, the OS's CSPRNG)
and the verifiable one (:func:`tavla.core.match.dice.seeded_dice` of a fresh committed seed), it rolls
``--rolls`` pairs and prints Pearson's chi-square statistic, degrees of freedom and p-value for:
the 36 ordered outcomes, the six faces of each die, and doubles against 1/6; then the rolls per
second of each source. A p-value under 0.001 deserves a second run; one run in a thousand shows
one by chance, which is why this is a benchmark and not a test.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from collections.abc import Iterator, Sequence

from tavla.core.match import dice
from tavla.core.match import dice_commit
from tavla.core.match.dice_commit import DiceKey


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> float:
    """Pearson's statistic."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected))


def p_value(chi2: float, df: int) -> float:
    """P(X >= chi2) for X ~ chi-square(df): the regularized upper incomplete gamma Q(df/2, chi2/2)."""
    a, x = df / 2, chi2 / 2
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # series for the lower part P, then Q = 1 - P
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(log_front))


def rows(name: str, rolls: list[tuple[int, int]]) -> list[tuple[str, str, float, int, float]]:
    n = len(rolls)
    out = []
    pairs = Counter(rolls)
    observed = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
    chi = chi_square(observed, [n / 36] * 36)
    out.append((name, "36 ordered outcomes", chi, 35, p_value(chi, 35)))
    for i, label in ((0, "first"), (1, "second")):
        faces = Counter(r[i] for r in rolls)
        chi = chi_square([faces[f] for f in range(1, 7)], [n / 6] * 6)
        out.append((name, f"faces, {label} die", chi, 5, p_value(chi, 5)))
    doubles = sum(a == b for a, b in rolls)
    chi = chi_square([doubles, n - doubles], [n / 6, 5 * n / 6])
    out.append((name, "doubles vs 1/6", chi, 1, p_value(chi, 1)))
    return out


def draw(source: Iterator[int], count: int) -> tuple[list[tuple[int, int]], float]:
    t0 = time.perf_counter()
    rolls = [dice.roll(source) for _ in range(count)]
    return rolls, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000, help="rolls per source (default %(default)s)")
    parser.add_argument("--client-seed", default="bench", help="client seed of the verifiable source")
    args = parser.parse_args()

    key = DiceKey.random()
    commitment = key.commit(dice_commit.client_seed_sha256(args.client_seed))
    seeded, proof = key.stream(commitment.token, args.client_seed)
    sources = {"secure": dice.secure_dice(), "verifiable": seeded}
    print(f"{args.rolls} rolls per source; verifiable commitment {proof.commitment[:16]}..., "
          f"client seed {args.client_seed!r}")
    print(f"{'source':<11} {'test':<24} {'chi2':>8} {'df':>5} {'p-value':>9}")
    speeds = []
    for name, source in sources.items():
        rolls, seconds = draw(source, args.rolls)
        speeds.append((name, args.rolls / seconds))
        for src, test, chi, df, p in rows(name, rolls):
            print(f"{src:<11} {test:<24} {chi:8.2f} {df:5d} {p:9.3f}")
    for name, rate in speeds:
        print(f"{name:<11} {rate:,.0f} rolls/s")


if __name__ == "__main__":
    main()
