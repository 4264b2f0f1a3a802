"""The core's generator against the independent reference generator: thousands of positions from
seeded random self-play through the core, every one of the 21 rolls, and the sets of reachable
positions compared in the neutral format (tests/support/variant_neutral.py,
tests/variants/reference/NEUTRAL.md).

The reference (tests/variants/reference/, written from variants-rules.md alone by another person,
without reading the core) covers plakoto, fevga, long nardy and portes. Also: the adapter itself
round-trips every position it meets.
"""

from __future__ import annotations

import pytest

from variants import reference
from variant_neutral import core_outcome, core_results, freeze, from_core, to_core
from variant_positions import self_play_positions

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 rolls
POSITIONS = 400  # per variant: x 21 rolls = 8400 comparisons each
VARIANTS = ["plakoto", "fevga", "long_nardy", "portes"]


@pytest.mark.parametrize("name", VARIANTS)
def test_adapter_round_trips_self_play_positions(name):
    for position in self_play_positions(name, 5, 200):
        neutral = from_core(position)
        assert to_core(neutral) == position
        assert freeze(from_core(to_core(neutral))) == freeze(neutral)


@pytest.mark.parametrize("name", VARIANTS)
def test_core_matches_the_reference_on_self_play_positions(name):
    differ = []
    for i, position in enumerate(self_play_positions(name, 2026, POSITIONS)):
        neutral = from_core(position)
        for d1, d2 in ROLLS:
            ours = core_results(neutral, d1, d2)
            theirs = reference.legal_results(neutral, d1, d2)
            if ours != set(theirs):
                differ.append((i, neutral, (d1, d2), sorted(ours - set(theirs))[:3], sorted(set(theirs) - ours)[:3]))
    assert not differ, f"{len(differ)} of {POSITIONS * len(ROLLS)} differ; first: {differ[0]}"


def _thaw(frozen):
    variant, on_roll, points, bw, bb, ow, ob = frozen
    return {"variant": variant, "on_roll": on_roll, "points": dict(points), "bar": {"W": bw, "B": bb},
            "off": {"W": ow, "B": ob}}


@pytest.mark.parametrize("name", VARIANTS)
def test_outcomes_match_the_reference_on_reached_positions(name):
    differ = []
    for position in self_play_positions(name, 7, POSITIONS // 4):
        neutral = from_core(position)
        for d1, d2 in ROLLS:
            for frozen in core_results(neutral, d1, d2):
                after = _thaw(frozen)
                ours, theirs = core_outcome(after), reference.outcome(after)
                if ours != (tuple(theirs) if theirs is not None else None):
                    differ.append((after, ours, theirs))
    assert not differ, f"{len(differ)} outcomes differ; first: {differ[0]}"
