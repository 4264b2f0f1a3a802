"""Turkish names (RULES.md R26): every roll in Persian numerals, larger die first, doubles by
their own names; seed 000's spellings returned, seed 004's two-word spellings accepted; "gele"."""

from __future__ import annotations

import pytest

from tavla.core import InvalidInputError
from tavla.core.i18n import names
import rpc_api as api

TIMEOUT = 30

# seed 000's table, as written there (capitalised) -> roll
SEED_000 = {
    "Düşeş": (6, 6), "Şeşbeş": (6, 5), "Şeş cihar": (6, 4), "Şeş se": (6, 3), "Şeş dü": (6, 2),
    "Şeş yek": (6, 1), "Dübeş": (5, 5), "Penç cihar": (5, 4), "Penç se": (5, 3), "Penç dü": (5, 2),
    "Penç yek": (5, 1), "Dört cihar": (4, 4), "Cihar se": (4, 3), "Cihar dü": (4, 2),
    "Cihar yek": (4, 1), "Düse": (3, 3), "Se dü": (3, 2), "Se yek": (3, 1), "Dubara": (2, 2),
    "Dü yek": (2, 1), "Hepyek": (1, 1),
}
# seed 004's spellings of the same rolls
SEED_004 = {"hep yek": (1, 1), "dubara": (2, 2), "dü se": (3, 3), "dört cihar": (4, 4),
            "dü beş": (5, 5), "dü şeş": (6, 6), "şeş beş": (6, 5)}


@pytest.mark.parametrize("name, roll", SEED_000.items())
def test_every_roll_has_seed_000s_name(name, roll):
    assert names.roll_name(*roll) == name.lower()
    assert names.roll_name(roll[1], roll[0]) == name.lower()  # either order
    assert names.roll_from_name(name) == roll


@pytest.mark.parametrize("name, roll", SEED_004.items())
def test_seed_004_spellings_are_aliases(name, roll):
    assert names.roll_from_name(name) == roll
    canonical = names.roll_name(*roll)
    assert name == canonical or name in names.roll_aliases(*roll)


def test_the_table_covers_all_21_rolls():
    assert len(names.ROLL_NAMES) == 21
    assert {names.roll_numbers(a, b) for a in range(1, 7) for b in range(1, 7)} == {
        f"{a}-{b}" for a in range(1, 7) for b in range(1, a + 1)}


def test_persian_numerals_larger_die_first():
    # R26: non-doubles are "<larger> <smaller>" in Persian numerals, except 6-5 (one word)
    for (hi, lo), (name, _) in names.ROLL_NAMES.items():
        if hi != lo and (hi, lo) != (6, 5):
            assert name == f"{names.NUMERALS[hi]} {names.NUMERALS[lo]}"


def test_unknown_names_and_dice():
    with pytest.raises(InvalidInputError):
        names.roll_from_name("sekiz")
    with pytest.raises(InvalidInputError):
        names.roll_name(0, 7)


def test_gele_and_results():
    assert names.GELE == "gele"
    assert names.RESULT_NAMES == {"gammon": "mars", "backgammon": "katmerli mars"}


def test_name_roll_rpc(engine):
    response = engine.NameRoll(api.NameRollRequest(dice=[5, 6]), timeout=TIMEOUT)
    assert (response.name.turkish, list(response.name.aliases), response.name.numbers) == (
        "şeşbeş", ["şeş beş"], "6-5")
    assert engine.NameRoll(api.NameRollRequest(dice=[4, 4]), timeout=TIMEOUT).name.turkish == "dört cihar"


def test_start_and_roll_responses_name_their_rolls(engine):
    start = engine.StartGame(api.StartGameRequest(), timeout=TIMEOUT)
    assert start.dice_name.turkish == names.roll_name(*start.dice)
    assert all(t.name.turkish == names.roll_name(t.white_die, t.black_die) for t in start.roll_off)
    roll = engine.RollDice(api.RollDiceRequest(), timeout=TIMEOUT)
    assert roll.name.turkish == names.roll_name(*roll.dice)
