"""An independent brute-force move generator for the tavla family, written from the rules text alone.

Written from docs/variants-rules.md (the variants; the readings marked **Ours**) and RULES.md
(R1..R26) without reading the engine's generator (service/tavla/core/rules/), so that the two can be
compared. It favours clarity over speed: every order of the
dice, every checker for every die, single steps, then the R7 filter over whole plays.

Entry points (the neutral format of tests/variants/reference/NEUTRAL.md):

- ``legal_results(pos, d1, d2, **options) -> set[frozen position]``
- ``outcome(pos, **options) -> None | (winner, points)``
- ``freeze(pos)`` / ``thaw(frozen)``

plus helpers for the fixtures and tests: ``start_position``, ``legal_plays``, ``apply_play``,
``legal_first_steps``, ``own_to_white`` and ``white_to_own``.

Options (keyword arguments, defaults per variants-rules.md "Ours"): ``fevga_prime_rule=True``,
``nardy_three_three=True`` (3-3 is a first-throw head exception), ``koks=False``.
"""

from .core import (
    CHECKERS,
    VARIANTS,
    apply_play,
    apply_step,
    chain_moves,
    freeze,
    legal_first_steps,
    legal_plays,
    legal_results,
    legal_steps,
    outcome,
    own_to_white,
    start_position,
    thaw,
    white_to_own,
)
from .selfplay import self_play

__all__ = [
    "CHECKERS",
    "VARIANTS",
    "apply_play",
    "apply_step",
    "chain_moves",
    "freeze",
    "legal_first_steps",
    "legal_plays",
    "legal_results",
    "legal_steps",
    "outcome",
    "self_play",
    "own_to_white",
    "start_position",
    "thaw",
    "white_to_own",
]
