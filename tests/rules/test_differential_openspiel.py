"""Differential test against OpenSpiel's backgammon (PyPI ``open-spiel``), a second independent
move generator beside GNU Backgammon.

Positions: random OpenSpiel games (seeds 1-4, each action chosen uniformly by a seeded
``random.Random``), every decision of every turn, 8,000 (position, roll) pairs in all. For each,
the set of positions OpenSpiel's legal actions reach at the end of the turn (both halves of a
double, which OpenSpiel plays as two actions) must equal our set of results (R4-R14).
"""

from __future__ import annotations

import random
import re

import pyspiel
import pytest

from tavla.core.rules.movegen import generate

# the oracles check the pure-Python generator, whatever this session installed (conftest.py)
pytestmark = [pytest.mark.usefixtures("pure_generator"), pytest.mark.slow]  # an oracle suite: not in test-fast


GAME = pyspiel.load_game("backgammon")


def our_board(state, mover: int) -> tuple[int, ...]:
    """OpenSpiel's board in our 26-int layout, seen by ``mover``.

    Player 1's index i is its point i + 1; player 0 runs the other way (index i = its point
    24 - i). The bar is what is neither on the board nor borne off ("Scores" line).
    """
    other = 1 - mover
    b = [0] * 26
    for p in range(1, 25):
        i = p - 1 if mover == 1 else 24 - p
        b[p] = state.board(mover, i) - state.board(other, i)
    off = dict(zip("XO", map(int, re.search(r"Scores, X: (\d+), O: (\d+)", str(state)).groups())))
    on_board = [sum(state.board(pl, i) for i in range(24)) for pl in (0, 1)]
    bars = [15 - on_board[pl] - off["XO"[pl]] for pl in (0, 1)]
    b[25] = bars[mover]
    b[0] = -bars[other]
    return tuple(b)


def dice_of(state) -> tuple[int, int]:
    text = re.search(r"Dice: (\d)(\d)", str(state))
    return int(text.group(1)), int(text.group(2))


def turn_results(state, mover: int) -> set:
    """Boards at the end of the mover's turn over every sequence of OpenSpiel actions."""
    found = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and not child.is_chance_node() and child.current_player() == mover:
            found |= turn_results(child, mover)  # the second half of a double
        else:
            found.add(our_board(child, mover))
    return found


def game_pairs(seed: int, count: int):
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        state = GAME.new_initial_state()
        fresh_turn = True
        while not state.is_terminal() and len(pairs) < count:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                fresh_turn = True
                continue
            mover = state.current_player()
            if fresh_turn:
                pairs.append((state.clone(), mover))
                fresh_turn = False
            state.apply_action(rng.choice(state.legal_actions()))
    return pairs


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_openspiel_games_match(seed):
    bad = []
    pairs = game_pairs(seed, 2000)
    for state, mover in pairs:
        board = our_board(state, mover)
        ours = set(generate(board, *dice_of(state))[1])
        theirs = turn_results(state, mover)
        if ours != theirs:
            bad.append((board, dice_of(state), len(ours), len(theirs)))
    assert not bad, f"{len(bad)} of {len(pairs)} differ, first: {bad[:3]}"
