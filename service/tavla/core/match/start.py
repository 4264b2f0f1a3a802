"""Who starts a game and with which dice (R3).

International: each side rolls one die, ties are rolled again, and the higher die starts by
playing the two dice just rolled, so the first move is never a double; every game of a match.
Turkish: the first game is rolled off the same way, and the winner then rolls both dice again
(a double is possible); in later games the winner of the previous game starts and rolls.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tavla.core.match.dice import given_dice, roll
from tavla.core.errors import InvalidInputError
from tavla.core.match.state import MatchState, require_not_over
from tavla.core.rules.position import Side
from tavla.core.match.ruleset import Ruleset, StartRule

MAX_GIVEN_THROWS = 100  # roll-off throws accepted from a caller; 100 ties in a row is (1/6)^99


@dataclass(frozen=True, slots=True)
class Start:
    """How a game starts.

    :ivar starter: the side that plays first.
    :ivar dice: the dice of its first turn, larger first for a roll-off pair.
    :ivar roll_off: the roll-off throws in order, each (white's die, black's die); the last one
        decides; empty when the previous winner starts (Turkish).
    """

    starter: Side
    dice: tuple[int, int]
    roll_off: tuple[tuple[int, int], ...]


def needs_roll_off(rules: Ruleset, state: MatchState) -> bool:
    """Whether this game starts with a roll-off: always, except Turkish games after the first."""
    return not (rules.start is StartRule.TURKISH and state.previous_winner is not None)


def start_game(rules: Ruleset, state: MatchState, source: Iterator[int]) -> Start:
    """Start a game drawing dice from ``source`` (secure, given or seeded, :mod:`tavla.core.match.dice`).

    :raises IllegalActionError: ``MATCH_OVER``.
    :raises InvalidInputError: ``source`` gives a value outside 1-6 or runs out.
    """
    require_not_over(state)
    if not needs_roll_off(rules, state):
        assert state.previous_winner is not None
        return Start(state.previous_winner, roll(source), ())
    throws = []
    while True:
        white, black = roll(source)
        throws.append((white, black))
        if white != black:  # a tie is rolled again
            break
    starter = Side.WHITE if white > black else Side.BLACK
    if rules.start is StartRule.INTERNATIONAL:
        dice = (max(white, black), min(white, black))  # the roll-off dice are the first move
    else:
        dice = roll(source)  # the winner rolls both dice again
    return Start(starter, dice, tuple(throws))


def start_with_given_dice(rules: Ruleset, state: MatchState, roll_off: Sequence[tuple[int, int]],
                          dice: Sequence[int]) -> Start:
    """Start a game with dice rolled elsewhere: the roll-off throws and, Turkish, the first roll.

    :raises InvalidInputError: the throws do not fit the rule: a roll-off where none is due or
        none where one is, a decided throw before the last, a tie last, first-turn dice with the
        international rule (they are the roll-off dice) or not two of them with the Turkish one;
        a value outside 1-6 (fields ``roll_off``, ``dice``).
    :raises IllegalActionError: ``MATCH_OVER``.
    """
    require_not_over(state)
    if needs_roll_off(rules, state):
        if not roll_off:
            raise InvalidInputError("roll_off", "a roll-off decides who starts this game (R3)")
        if len(roll_off) > MAX_GIVEN_THROWS:
            raise InvalidInputError("roll_off", f"{len(roll_off)} throws; at most {MAX_GIVEN_THROWS}")
        for i, (white, black) in enumerate(roll_off):
            last = i == len(roll_off) - 1
            if last and white == black:
                raise InvalidInputError("roll_off", f"the last throw {white}-{black} is a tie; ties are rolled again (R3)")
            if not last and white != black:
                raise InvalidInputError("roll_off", f"throw {i + 1} ({white}-{black}) already decides; "
                                                    "only ties are rolled again (R3)")
    elif roll_off:
        starter = state.previous_winner.name.lower() if state.previous_winner else "the previous winner"
        raise InvalidInputError("roll_off", f"no roll-off: {starter} won the last game and starts "
                                            "(R3, Turkish)")
    wanted = 0 if rules.start is StartRule.INTERNATIONAL else 2
    if len(dice) != wanted:
        why = ("the roll-off dice are the first move (R3, international)" if not wanted
               else "the starter rolls both dice (R3, Turkish)")
        raise InvalidInputError("dice", f"needs {wanted} dice, got {len(dice)}: {why}")
    flat = itertools.chain.from_iterable(roll_off)
    source = itertools.chain(given_dice(flat, "roll_off"), given_dice(dice, "dice"))
    return start_game(rules, state, source)
