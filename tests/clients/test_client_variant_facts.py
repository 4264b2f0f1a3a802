"""The Python client reads each variant's facts from ListRulesets (``variant_table``,
``variant_facts``) against a live server, and uses them: a side's checkers in the starting
position, the way the two sides' numberings meet."""

from __future__ import annotations

import asyncio

import pytest

from tavla.client import START_POSITION_ID, AsyncClient, Client, EngineError
from tavla.client.variants import variant_key


def _other_point(point: int, same: bool) -> int:
    """Point ``point`` of one side's numbering in the other's (docs/variants.md)."""
    return (point + 11) % 24 + 1 if same else 25 - point


def test_facts_are_read_by_any_name(server_address: str) -> None:
    with Client(server_address) as c:
        table = c.variant_table()
        assert c.variant_table() is table  # one ListRulesets call, kept
        plakoto = c.variant_facts("Mahbusa")
        assert (plakoto.name, plakoto.direction, plakoto.contact, plakoto.bar, plakoto.checkers, plakoto.home) == \
            ("plakoto", "opposite", "pin", False, 15, 6)
        gul_bara = c.variant_facts("gul-bara")
        assert (gul_bara.name, gul_bara.direction, gul_bara.contact, gul_bara.doubles_cascade) == \
            ("gul_bara", "same", "none", True)
        assert c.variant_facts("international").name == "backgammon"  # a preset's name
        assert c.variant_facts("hyper").checkers == 3
        assert [(o.name, o.default_value) for o in c.variant_facts("fevga").options] == [("prime_rule", True)]
        assert table.same_direction("long nardy") and not table.same_direction("turkish")


def test_an_unknown_variant_is_an_error_naming_it(server_address: str) -> None:
    with Client(server_address) as c, pytest.raises(KeyError, match="unknown variant 'chess'.*plakoto"):
        c.variant_facts("chess")


@pytest.mark.parametrize("preset", ["international", "hypergammon", "plakoto", "fevga", "gul_bara"])
def test_the_starting_position_has_the_facts_checkers(server_address: str, preset: str) -> None:
    with Client(server_address, ruleset=preset) as c:
        facts = c.variant_facts(preset)
        board = c.get_initial_position().board
    assert sum(board.white.points) + board.white.bar == facts.checkers
    assert sum(board.black.points) + board.black.bar == facts.checkers


@pytest.mark.parametrize("preset", ["plakoto", "fevga", "gul_bara", "long_nardy"])
def test_the_direction_says_where_the_other_head_stands(server_address: str, preset: str) -> None:
    # every checker starts on its side's 24 point; 6-6 takes white's head to its 12 point
    # unless black's head, black's 24 read in white's numbering by the direction, stands there
    with Client(server_address, ruleset=preset) as c:
        facts = c.variant_facts(preset)
        start = c.get_initial_position()
        reached = {cm.to_point for m in c.list_legal_moves(start, (6, 6)) for cm in m.checker_moves}
    assert start.board.white.points[23] == start.board.black.points[23] == facts.checkers
    blocked = _other_point(24, facts.direction == "same") == 12
    assert (12 in reached) is not blocked, reached


def test_the_asyncio_client_reads_them_too(server_address: str) -> None:
    async def run() -> tuple[str, bool]:
        async with AsyncClient(server_address) as c:
            first = await c.variant_facts("narde")
            again = await c.variant_table()
            return first.name, again.same_direction("fevga")
    assert asyncio.run(run()) == ("long_nardy", True)


def test_roll_dice_reads_the_position_under_the_ruleset(server_address: str) -> None:
    with Client(server_address) as c:
        assert len(c.roll_dice(position=START_POSITION_ID).dice) == 2
        with pytest.raises(EngineError) as err:  # 15 checkers a side: not a hypergammon position
            c.roll_dice(position=START_POSITION_ID, ruleset="hypergammon")
    assert err.value.code.name == "INVALID_ARGUMENT" and "position" in str(err.value)


def test_names_compare_as_the_server_compares_them() -> None:
    assert variant_key("  Long-Nardy ") == variant_key("long  nardy") == "long_nardy"
