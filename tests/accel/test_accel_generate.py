"""The compiled move generator (``tavla_accel.generate``) against the pure-Python one.

``core.movegen.generate`` is what ApplyMove, ListLegalSteps, Act, replays and ValidateMatch list
moves with; an engine built with the extension (``tavla.server.api.generator``) installs ``tavla_accel.generate``
onto the backgammon variant (``Backgammon.compiled_generate``, inherited by tavla), which
``generate`` calls first for its positions. That must return exactly what ``movegen.generate_python`` returns (R4-R14): the same
dice used, the same resulting boards with the same step sequences (R7: the first sequence
found per board, the larger die when only one can be played), in the same dict order, the steps
being ``CheckerMove`` instances, on every (position, roll) of the 79 real matches with the dice
in both orders, random games, scattered positions (bar, borne off) with all 36 rolls, the
hardest pairs of bench/data/hardest.txt and the bear-off database's home boards.

Not silently skipped: without the extension these tests FAIL, unless ``TAVLA_ACCEL_EXPECTED=0``
says it is not built on purpose (``make test`` builds it: ``make accel-test``).
"""

from __future__ import annotations

import random

import pytest

from tavla import core
from tavla.core import Position
from tavla.core.rules import movegen
from tavla.core.rules.backgammon import Backgammon, TurkishTavla
from tavla.core.rules import bearoff_db as bdb
from tavla.core.rules.movegen import CheckerMove, generate_python
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import read_match
from tavla.server.api import generator
from tavla.server.api.generator import MoveGenerator
from hardest_pairs import hardest_pairs
from test_accel import _extension_built, _python, MATCHES, scattered, tavla_accel  # noqa: F401
from games import random_game_pairs

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)]


@pytest.fixture(autouse=True)
def _builds_checker_moves() -> None:
    # what installing the extension sets (movegen.use_accelerator); alone, this module has not
    if tavla_accel is not None:
        tavla_accel.set_checker_move(CheckerMove)


def assert_same(board: tuple[int, ...], d1: int, d2: int) -> None:
    expected = generate_python(board, d1, d2)
    got = tavla_accel.generate(board, d1, d2)
    where = board, d1, d2
    assert got == expected, where
    assert type(got) is tuple and type(got[1]) is dict, where
    assert list(got[1].items()) == list(expected[1].items()), where  # the same order
    for after, steps in got[1].items():
        assert type(after) is tuple and type(steps) is tuple, where
        assert all(type(s) is CheckerMove for s in steps), where
        # the fields' own types, as the pure generator makes them (hash and repr agree too)
        assert all(type(s.from_point) is int and type(s.die) is int and type(s.hit) is bool for s in steps)


def assert_all_same(pairs: list[tuple[tuple[int, ...], tuple[int, int]]]) -> None:
    for board, (d1, d2) in pairs:
        assert_same(board, d1, d2)
        assert_same(board, d2, d1)  # the dice in the other order: the same answer (R7)


@pytest.fixture(scope="module")
def match_pairs() -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    pairs: list[tuple[tuple[int, ...], tuple[int, int]]] = []
    if not hasattr(tavla_accel, "generate"):  # the test fails anyway (_extension_built)
        return pairs
    engine = LocalEngine()
    for path in MATCHES:
        replay(read_match(path), engine, on_roll=lambda pos, dice: pairs.append((pos.board, tuple(dice))))
    return pairs


def test_every_match_pair_both_dice_orders(match_pairs):
    assert len(MATCHES) == 79 and len(match_pairs) > 20_000
    assert_all_same(match_pairs)


def test_random_games():
    pairs = random_game_pairs(21, 4000)
    assert len(pairs) == 4000
    assert_all_same(pairs)


def test_random_scattered_positions_every_roll():
    # bar checkers (R8, R9, R10), borne-off checkers and bearing off (R11-R13), either side's view
    rng = random.Random(7)
    for _ in range(300):
        board = scattered(rng).board
        for d1, d2 in ROLLS:
            assert_same(board, d1, d2)


def test_hardest_pairs():
    pairs = [(position.board, dice) for position, dice in hardest_pairs()]
    assert len(pairs) >= 5
    assert_all_same(pairs)
    assert max(len(generate_python(b, *d)[1]) for b, d in pairs) > 500  # the big answers are in


def test_bear_off_database_boards():
    # core/rules/bearoff_db.py's boards: the mover's checkers home, the opponent's all off
    for index in range(0, bdb.N_POSITIONS, 37):
        board = tuple([0, *bdb.position_counts(index)] + [0] * 19)
        for d1, d2 in ROLLS:
            assert_same(board, d1, d2)


def test_rule_cases_by_hand():
    start = Position.initial().board
    # 5-1 from the start: 8 plays, the 5 tried first (R7); 24/18 is found only as 24/23 23/18,
    # the 5 first being blocked (R5), and that is the sequence kept
    used, moves = tavla_accel.generate(start, 1, 5)
    assert used == 2 and len(moves) == 8
    sequences = list(moves.values())
    assert sequences[0] == (CheckerMove(13, 8, 5, False), CheckerMove(24, 23, 1, False))
    assert sequences[-1] == (CheckerMove(24, 23, 1, False), CheckerMove(23, 18, 5, False))
    # a finished game for the mover (all 15 off): nothing to play, the board unchanged
    done = (0, -2) + (0,) * 24
    assert tavla_accel.generate(done, 3, 1) == generate_python(done, 3, 1) == (0, {done: ()})


@pytest.mark.parametrize("args", [
    (Position.initial().board, 0, 1),
    (Position.initial().board, 7, 1),
    (Position.initial().board, 3.0, 1),
    (Position.initial().board, True, 1),
    (list(Position.initial().board), 3, 1),  # not a tuple
    (Position.initial().board[:25], 3, 1),  # not 26 counts
    (Position.initial().board[:24] + (0, 16), 3, 1),  # a count no board has
    ((0, -8, -8) + (0,) * 22 + (1,), 3, 1),  # 16 checkers of the opponent
    ((1,) * 16 + (0,) * 9 + (0,), 3, 1),  # 16 checkers of the mover
    (Position.initial().board[:25] + (-1,), 3, 1),  # a negative bar
    (Position.initial().board[:24] + ("x", 0), 3, 1),
])
def test_what_it_refuses_the_python_generator_answers(args):
    with pytest.raises(ValueError):
        tavla_accel.generate(*args)
    board, d1, d2 = args
    if len(board) == 26 and type(d1) is int and 1 <= d1 <= 6 and all(isinstance(v, int) for v in board):
        # the seam hands a refused call to the pure generator
        assert movegen.generate(*args) == generate_python(*args)


def test_set_checker_move_refuses_what_it_cannot_build():
    class Reversed(tuple):
        def __new__(cls, *fields):
            return tuple.__new__(cls, reversed(fields))

    with pytest.raises(ValueError):
        tavla_accel.set_checker_move(int)
    with pytest.raises(ValueError):
        tavla_accel.set_checker_move(Reversed)
    # the core's class is still the one used
    assert all(type(s) is CheckerMove for s in next(iter(tavla_accel.generate(Position.initial().board, 3, 1)[1].values())))


@pytest.fixture(scope="module")
def compiled():
    """The generator the server is built with, installed as an engine's constructor does."""
    chosen = MoveGenerator.from_env()
    if not chosen.active:
        pytest.fail(f"the server would not use the accelerator: {chosen.status}")
    chosen.install()
    return chosen


def test_the_core_uses_it_when_the_accelerator_is_active(monkeypatch, compiled):
    # an attribute of the backgammon-geometry variants, not a global of the core
    assert Backgammon.compiled_generate is tavla_accel.generate
    assert TurkishTavla.compiled_generate is tavla_accel.generate  # inherited: the same moves
    assert "compiled_generate" not in TurkishTavla.__dict__
    calls = []

    def spy(board, d1, d2):
        calls.append((board, d1, d2))
        return tavla_accel.generate(board, d1, d2)

    monkeypatch.setattr(Backgammon, "compiled_generate", spy)
    position = Position.initial()
    moves = core.legal_moves(position, (6, 5))
    assert calls == [(position.board, 6, 5)] and len(moves) == 7
    core.legal_steps(position, (6, 5), ())  # a turn's steps: the compiled analysis, its own moves
    assert len(calls) == 1
    monkeypatch.setattr(Backgammon, "compiled_steps", None)
    core.legal_steps(position, (6, 5), (CheckerMove(24, 18, 6, False),))  # the tree lists the moves with the generator
    assert len(calls) == 2
    tavla = Position.initial(variant=TurkishTavla)
    assert core.legal_moves(tavla, (6, 5)) == moves and len(calls) == 3
    # turned off (an engine built with TAVLA_ACCEL=0): the pure generator alone
    MoveGenerator.pure().install()
    assert Backgammon.compiled_generate is None and TurkishTavla.compiled_generate is None
    before = len(calls)
    assert core.legal_moves(position, (6, 5)) == moves
    assert len(calls) == before
    compiled.install()
    assert Backgammon.compiled_generate is tavla_accel.generate


def test_a_variant_that_moves_otherwise_does_not_inherit_it(compiled):
    # a subclass redefining a move rule (here the home board) is not what the extension plays
    class OtherHome(Backgammon):
        name = "other_home"
        home = 5

    class OtherStart(Backgammon):  # class data only: the same moves, the compiled generator kept
        name = "other_start"
        start = ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))

    class ThreeCheckers(Backgammon):  # the same moves, but the wire answer counts 15 checkers
        name = "three_checkers"
        checkers = 3
        start = ((24, 1), (23, 1), (22, 1))

    assert OtherHome.compiled_generate is None
    assert OtherStart.compiled_generate is Backgammon.compiled_generate is tavla_accel.generate
    # the whole-call ListLegalMoves paths: only for variants that move as backgammon, 15 a side
    assert generator.plays(Backgammon) and generator.plays(TurkishTavla) and generator.plays(OtherStart)
    assert not generator.plays(OtherHome) and not generator.plays(ThreeCheckers)
    position = Position(ThreeCheckers.initial_board(), core.Side.WHITE, ThreeCheckers)
    assert compiled.legal_moves_response(position, (3, 1), 0) is None  # the pure path answers
    assert ThreeCheckers.compiled_generate is tavla_accel.generate  # its moves: the same generator
    assert core.legal_moves(position, (3, 1)) == core.legal_moves(Position(position.board), (3, 1))


@pytest.mark.parametrize("name", ["portes", "nackgammon", "hypergammon"])
def test_the_variants_on_backgammons_board_keep_it(name, compiled):
    # the variants on backgammon's board: their moves are backgammon's, so the compiled generator
    # plays them; it holds no 15-checker assumption (R11 asks only that no checker be outside home),
    # checked here on random games of each from its own start, the dice in both orders
    variant = core.find_variant(name)
    assert variant.compiled_generate is tavla_accel.generate
    assert generator.plays(variant) == (variant.checkers == 15)  # the wire answer: 15 a side only
    for board, (d1, d2) in random_game_pairs(21, 1500, variant):
        assert_same(board, d1, d2)
        assert_same(board, d2, d1)


def test_tavla_accel_0_leaves_the_pure_generator():
    code = ("from tavla.server.api.generator import MoveGenerator; from tavla.core import Backgammon, TurkishTavla\n"
            "g = MoveGenerator.from_env(); before = Backgammon.compiled_generate is None; g.install()\n"
            "print(g.active, before, Backgammon.compiled_generate is None, TurkishTavla.compiled_generate is None)")
    # importing installs nothing: building the engine (install) does
    assert _python(code, TAVLA_ACCEL="0").stdout.split("\n")[0] == "False True True True"
    assert _python(code, TAVLA_ACCEL="auto").stdout.split("\n")[0] == "True True False False"


def test_the_core_alone_imports_neither_the_server_nor_the_extension():
    # the seam: the pure core (a library on its own) keeps its own generator; no variant has a
    # compiled one until the server installs it
    code = ("import sys, tavla.core as c, tavla.core.game\n"
            "c.legal_moves(c.position_id.decode('4HPwATDgc/ABMA'), (6, 6))\n"
            "print(sorted(m for m in sys.modules if m.startswith(('tavla_accel', 'tavla.server'))),\n"
            "      {v.compiled_generate for v in c.variants()})")
    out = _python(code)
    assert out.stdout.strip() == "[] {None}", out.stderr


def test_use_accelerator_installs_the_extension_into_the_core_alone():
    # what a library user calls (docs/library.md): no server module, the same plays as the pure search
    code = ("import sys, tavla.core as c\n"
            "from tavla.core.rules import movegen\n"
            "used = movegen.use_accelerator()\n"
            "board = c.position_id.decode('4HPwATDgc/ABMA').board\n"
            "same = movegen.generate(board, 6, 5) == movegen.generate_python(board, 6, 5)\n"
            "print(used, c.TurkishTavla.compiled_generate is not None, same,\n"
            "      sorted(m for m in sys.modules if m.startswith('tavla.server')))")
    out = _python(code)
    assert out.stdout.strip() == "True True True []", out.stderr
