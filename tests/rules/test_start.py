"""Who starts (RULES.md R3): the roll-off, ties re-rolled, and the first turn's dice under the
international rule (the roll-off dice, never a double) and the Turkish one (the winner rolls
again; later games the previous winner starts). Dice rolled elsewhere are checked against the
rule; the server's own dice come from the secure source."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tavla.core import (
    IllegalActionError,
    InvalidInputError,
    MatchState,
    Side,
    preset,
    start_game,
    start_with_given_dice,
)
from tavla.core.match.dice import secure_dice
from tavla.core.match.start import needs_roll_off

INTERNATIONAL = preset("international")
TURKISH = preset("turkish")
NEW = MatchState(length=7)


def test_international_roll_off_dice_are_the_first_move():
    # R3-international: white throws 3, black 5: black starts with 5-3.
    start = start_game(INTERNATIONAL, NEW, iter([3, 5]))
    assert (start.starter, start.dice, start.roll_off) == (Side.BLACK, (5, 3), ((3, 5),))


def test_ties_are_rolled_again():
    start = start_game(INTERNATIONAL, NEW, iter([4, 4, 2, 2, 6, 1]))
    assert start.roll_off == ((4, 4), (2, 2), (6, 1))
    assert (start.starter, start.dice) == (Side.WHITE, (6, 1))


def test_international_first_move_never_a_double():
    for _ in range(2000):
        start = start_game(INTERNATIONAL, NEW, secure_dice())
        assert start.dice[0] != start.dice[1]
        assert all(w == b for w, b in start.roll_off[:-1])


def test_turkish_first_game_winner_rolls_again():
    # R3-turkish (seed 000): the roll-off winner rolls both dice again, a double is possible.
    start = start_game(TURKISH, MatchState(length=5), iter([2, 6, 4, 4]))
    assert (start.starter, start.dice, start.roll_off) == (Side.BLACK, (4, 4), ((2, 6),))


def test_turkish_later_games_previous_winner_starts():
    state = MatchState(length=5, scores=(1, 0), previous_winner=Side.WHITE, games_played=1)
    assert not needs_roll_off(TURKISH, state)
    start = start_game(TURKISH, state, iter([3, 3]))
    assert (start.starter, start.dice, start.roll_off) == (Side.WHITE, (3, 3), ())


def test_international_rolls_off_every_game():
    # 001 Özet: "Bu kural bir müsabaka içinde oynanan her el için tekrarlanır."
    state = MatchState(length=7, scores=(1, 0), previous_winner=Side.WHITE, games_played=1)
    assert needs_roll_off(INTERNATIONAL, state)
    assert start_game(INTERNATIONAL, state, iter([1, 2])).starter is Side.BLACK


def test_turkish_doubles_happen_with_the_server_dice():
    seen = Counter(start_game(TURKISH, MatchState(length=5), secure_dice()).dice[0] ==
                   start_game(TURKISH, MatchState(length=5), secure_dice()).dice[1] for _ in range(600))
    assert seen[True] > 0  # probability of no double in 600 starts: (5/6)^600


@pytest.mark.parametrize(
    "rules, state, roll_off, dice, field",
    [
        (INTERNATIONAL, NEW, [], [], "roll_off"),  # a roll-off is due
        (INTERNATIONAL, NEW, [(3, 3)], [], "roll_off"),  # the last throw is a tie
        (INTERNATIONAL, NEW, [(5, 3), (2, 1)], [], "roll_off"),  # the first already decided
        (INTERNATIONAL, NEW, [(5, 3)], [5, 3], "dice"),  # the roll-off dice are the first move
        (TURKISH, MatchState(length=5), [(5, 3)], [], "dice"),  # the winner rolls again
        (TURKISH, MatchState(length=5, scores=(1, 0), previous_winner=Side.WHITE, games_played=1),
         [(5, 3)], [2, 2], "roll_off"),  # no roll-off: the previous winner starts
        (INTERNATIONAL, NEW, [(7, 3)], [], "roll_off"),  # not a die
    ],
)
def test_given_dice_must_fit_the_rule(rules, state, roll_off, dice, field):
    with pytest.raises(InvalidInputError) as err:
        start_with_given_dice(rules, state, roll_off, dice)
    assert err.value.field == field


def test_given_dice_physical_roll_off():
    start = start_with_given_dice(TURKISH, MatchState(length=5), [(4, 4), (1, 5)], [6, 5])
    assert (start.starter, start.dice, start.roll_off) == (Side.BLACK, (6, 5), ((4, 4), (1, 5)))


def test_no_start_after_the_match():
    with pytest.raises(IllegalActionError):
        start_game(INTERNATIONAL, replace(NEW, scores=(7, 2), winner=Side.WHITE), iter([1, 2]))
