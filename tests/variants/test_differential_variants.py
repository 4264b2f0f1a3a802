"""Differential tests of nackgammon and hypergammon against GNU Backgammon (PyPI
``gnubg``, set up with its variation) and OpenSpiel (``backgammon(hyper_backgammon=true)``).

Positions (seeds recorded, so a failure is reproducible):

* gnubg, each variant: random games of our engine from the variant's start (tests/support/
  games.py, each move uniform among our legal results, seeds 1-3, 5,000 (position, roll) pairs
  each: 15,000 a variant), and every one of the 21 rolls on 300 positions of such games (seed
  11: 6,300 a variant). gnubg's cube information carries the variation (``bgv``: 1 nackgammon,
  4 3-chequer hypergammon, gnubg_lib.c's order); move generation itself does not look at it, and
  without gnubg's hypergammon database (not shipped in the wheel) its evaluator only logs, which
  orders the moves but does not choose them: the list compared is complete.
* OpenSpiel, hypergammon: random OpenSpiel games (seeds 1-4, each action uniform among
  OpenSpiel's), every turn, 2,000 pairs a seed (8,000). OpenSpiel cannot start from
  nackgammon's position (its state has no setter), so nackgammon is compared with gnubg only.
* The start positions: gnubg's ``new game`` under ``set variation`` against ours.
* Position IDs: gnubg's ``position_id`` of every board compared (3 checkers a side are valid
  Position IDs: the format writes any count up to 15); XGIDs: gnubg reads ours of every fifth
  board under its variation and answers the same checkers.

Equality is of the sets of resulting positions (``oracle_gnubg``; OpenSpiel's both halves of a
double), R4-R14 on the variant's board.
"""

from __future__ import annotations

import contextlib
import random
import re

import pytest

gnubg = pytest.importorskip("gnubg")
pyspiel = pytest.importorskip("pyspiel")

import oracle_gnubg  # noqa: E402
from games import random_game_pairs  # noqa: E402
from tavla.core import Position, Side  # noqa: E402
from tavla.core.ids import position_id, xgid  # noqa: E402
from tavla.core.rules.hypergammon import Hypergammon  # noqa: E402
from tavla.core.rules.movegen import generate  # noqa: E402
from tavla.core.rules.nackgammon import Nackgammon  # noqa: E402

# the oracles check the pure-Python generator, whatever this session installed (conftest.py)
pytestmark = pytest.mark.usefixtures("pure_generator")

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
VARIANTS = {"nackgammon": (Nackgammon, 1, "nackgammon"), "hypergammon": (Hypergammon, 4, "3-chequer-hypergammon")}


@pytest.fixture
def variation(request):
    """gnubg's cube information for the variant (``bgv``), restored afterwards."""
    variant, bgv, _ = VARIANTS[request.param]
    saved = oracle_gnubg._CUBE
    oracle_gnubg._CUBE = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, bgv)
    yield variant
    oracle_gnubg._CUBE = saved


@contextlib.contextmanager
def gnubg_session(command: str, capfd):
    """A new gnubg session under ``set variation <command>``, back to standard afterwards. An
    earlier test's ``import mat`` leaves gnubg playing one side itself, so ``new session`` would
    show the board after its first move: both players are made human first."""
    try:
        gnubg.command("set threads 1")  # the library build waits for workers otherwise
        gnubg.command("set player 0 human")
        gnubg.command("set player 1 human")
        gnubg.command(f"set variation {command}")
        gnubg.command("new session")
        yield
    finally:
        gnubg.command("set variation standard")
        gnubg.command("new session")
        capfd.readouterr()  # gnubg prints its board


def _compare(pairs, variant):
    bad = []
    for board, dice in pairs:
        used, results = generate(board, *dice, variant)
        ok, detail = oracle_gnubg.agrees(board, dice, used, set(results))
        if not ok:
            bad.append((board, dice, detail))
    return bad


@pytest.mark.parametrize("variation", ["nackgammon", "hypergammon"], indirect=True)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_match_gnubg(variation, seed):
    pairs = random_game_pairs(seed, 5000, variation)
    assert all(sum(n for n in b if n > 0) <= variation.checkers for b, _ in pairs)
    bad = _compare(pairs, variation)
    assert not bad, f"{len(bad)} of {len(pairs)} differ, first: {bad[:3]}"


@pytest.mark.parametrize("variation", ["nackgammon", "hypergammon"], indirect=True)
def test_all_rolls_match_gnubg(variation):
    boards = sorted({b for b, _ in random_game_pairs(11, 3000, variation)})
    boards = random.Random(11).sample(boards, 300)
    pairs = [(b, roll) for b in boards for roll in ROLLS]
    assert len(pairs) == 6300
    bad = _compare(pairs, variation)
    assert not bad, f"{len(bad)} of {len(pairs)} differ, first: {bad[:3]}"


@pytest.mark.parametrize("name", ["nackgammon", "hypergammon"])
def test_position_ids_match_gnubg(name):
    variant = VARIANTS[name][0]
    boards = sorted({b for b, _ in random_game_pairs(5, 2000, variant)})
    for board in boards:
        ours = position_id.encode(Position(board, Side.WHITE, variant))
        assert gnubg.position_id(oracle_gnubg.to_gnubg(board)) == ours, board
        assert position_id.decode(ours, Side.WHITE, variant).board == board
    assert len(boards) > 1000


@pytest.mark.parametrize("name", ["nackgammon", "hypergammon"])
def test_start_position_is_gnubgs(name, capfd):
    variant, _, command = VARIANTS[name]
    with gnubg_session(command, capfd):
        board = gnubg.board()
    start = variant.initial_board()
    # gnubg's board is (side not on roll, side on roll): at the start both are the same
    assert tuple(map(tuple, board)) == tuple(map(tuple, oracle_gnubg.to_gnubg(start)))


@pytest.mark.parametrize("name", ["nackgammon", "hypergammon"])
def test_xgids_read_by_gnubg(name, capfd):
    """gnubg, under the variation, reads our XGID of each board (``set_gnubg_id``) and gives back
    the GNUBG ID of the same checkers: the XGID of 3 checkers a side is gnubg's too."""
    variant, _, command = VARIANTS[name]
    boards = sorted({b for b, _ in random_game_pairs(3, 2000, variant)})[::5]
    bad = []
    with gnubg_session(command, capfd):
        for board in boards:
            position = Position(board, Side.WHITE, variant)
            gnubg.set_gnubg_id(xgid.encode_position(position))
            if gnubg.gnubg_id().split(":")[0] != position_id.encode(position):
                bad.append(board)
    assert len(boards) > 200 and not bad, bad[:3]


# ---------------------------------------------------------------------------------------------
# OpenSpiel's hypergammon


HYPER = pyspiel.load_game("backgammon(hyper_backgammon=true)")


def our_hyper_board(state, mover: int) -> tuple[int, ...]:
    """OpenSpiel's board in our 26-int layout seen by ``mover``, 3 checkers a side (as
    test_differential_openspiel.our_board for 15): the bar is what is neither on the board nor
    borne off."""
    other = 1 - mover
    b = [0] * 26
    for p in range(1, 25):
        i = p - 1 if mover == 1 else 24 - p
        b[p] = state.board(mover, i) - state.board(other, i)
    off = dict(zip("XO", map(int, re.search(r"Scores, X: (\d+), O: (\d+)", str(state)).groups())))
    on_board = [sum(state.board(pl, i) for i in range(24)) for pl in (0, 1)]
    bars = [Hypergammon.checkers - on_board[pl] - off["XO"[pl]] for pl in (0, 1)]
    b[25] = bars[mover]
    b[0] = -bars[other]
    return tuple(b)


def dice_of(state) -> tuple[int, int]:
    text = re.search(r"Dice: (\d)(\d)", str(state))
    return int(text.group(1)), int(text.group(2))


def turn_results(state, mover: int) -> set:
    """Boards at the end of the mover's turn over every sequence of OpenSpiel actions (a
    double is two actions of the same player)."""
    found = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and not child.is_chance_node() and child.current_player() == mover:
            found |= turn_results(child, mover)
        else:
            found.add(our_hyper_board(child, mover))
    return found


def hyper_pairs(seed: int, count: int):
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        state = HYPER.new_initial_state()
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


def test_openspiel_start_is_ours():
    state = HYPER.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert our_hyper_board(state, state.current_player()) == Hypergammon.initial_board()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_openspiel_hypergammon_games_match(seed):
    bad = []
    pairs = hyper_pairs(seed, 2000)
    for state, mover in pairs:
        board = our_hyper_board(state, mover)
        ours = set(generate(board, *dice_of(state), Hypergammon)[1])
        theirs = turn_results(state, mover)
        if ours != theirs:
            bad.append((board, dice_of(state), len(ours), len(theirs)))
    assert len(pairs) == 2000
    assert not bad, f"{len(bad)} of {len(pairs)} differ, first: {bad[:3]}"
