"""The no-cube match equity table for every match length, and lengths beyond the engine's range
refused by field (docs/analysis.md#cost-and-limits)."""

from __future__ import annotations

import pytest

from tavla.analysis import equity
from tavla.analysis.equity import Stakes, no_cube_met
from tavla.core.match.ruleset import MAX_MATCH_LENGTH
from tavla.core import InvalidInputError, MatchState
from tavla.core.match.ruleset import preset
from tavla.core.rules.position import Side


def test_every_length_up_to_the_limit_has_an_equity_without_recursion() -> None:
    assert no_cube_met(MAX_MATCH_LENGTH, MAX_MATCH_LENGTH) == pytest.approx(0.5)
    for away in range(1, MAX_MATCH_LENGTH + 1):
        assert 0.0 < no_cube_met(away, MAX_MATCH_LENGTH) < 1.0
    assert no_cube_met(1, MAX_MATCH_LENGTH) > no_cube_met(2, MAX_MATCH_LENGTH)


def test_a_long_match_far_past_the_old_recursion_depth() -> None:
    # 400 away each used to be a RecursionError (INTERNAL from EvaluatePosition)
    assert equity.no_cube_met_unbounded(400, 400) == pytest.approx(0.5)
    assert equity.no_cube_met_unbounded(399, 400) > 0.5


def test_the_table_matches_the_recurrence() -> None:
    single = 1.0 - equity.GAMMON_SHARE - equity.BACKGAMMON_SHARE

    def slow(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return sum(0.5 * s * (slow(a - k, b) + slow(a, b - k))
                   for s, k in ((single, 1), (equity.GAMMON_SHARE, 2), (equity.BACKGAMMON_SHARE, 3)))

    for a, b in ((1, 1), (2, 3), (5, 4), (7, 7)):
        assert no_cube_met(a, b) == pytest.approx(slow(a, b), abs=1e-12)


@pytest.mark.parametrize("length", [MAX_MATCH_LENGTH + 1, 401, 2**30 + 1])
def test_a_length_beyond_the_engine_range_is_invalid_input_naming_the_field(length: int) -> None:
    match = MatchState(length=length)
    with pytest.raises(InvalidInputError) as err:
        Stakes.of(preset("backgammon"), match, Side.WHITE)
    assert err.value.field == "match.length"
    with pytest.raises(InvalidInputError):
        no_cube_met(length, length)
