"""The compiled accelerator (service/accel, ``tavla_accel``) against the pure-Python path.

For ListLegalMoves the Rust extension generates the moves and writes the whole serialized answer
in one call (``legal_moves_response``, what the servicer sends); it must give the very same bytes
(the moves, then dice used) and move count as ``core.legal_moves``
(R4-R14) + ``server/convert/wire.py``, in both views, on every (position, roll) of the 79 real matches in
tests/data/matches, on random games, on random scattered positions (bar, borne off, both sides on
roll) and on the hardest pairs of bench/data/hardest.txt; errors must be the same too.

Not silently skipped: without the extension these tests FAIL, unless ``TAVLA_ACCEL_EXPECTED=0``
says it is not built on purpose (``make test`` builds it: ``make accel-test``).
"""

from __future__ import annotations

import glob
import os
import random
import subprocess
import sys

import pytest

from tavla import core
from tavla.core import GameOverError, InvalidInputError, Position, Side, SideView
from tavla.core.rules.backgammon import Backgammon
from tavla.replay.driver import replay
from tavla.replay.engines import LocalEngine
from tavla.formats.matreader import read_match
from tavla.server.api import generator
from tavla.server.api.generator import MoveGenerator
from tavla.server.convert import common as convert
from tavla.server.convert import wire
from hardest_pairs import hardest_pairs
from games import random_game_pairs

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATCHES = sorted(glob.glob(os.path.join(HERE, "data", "matches", "*.mat")))
VIEWS = (wire.FULL, wire.BASIC)
COMPILED = MoveGenerator.from_env()  # what the server is built with

try:
    import tavla_accel
except ImportError:  # pragma: no cover - the guard below decides
    tavla_accel = None



@pytest.fixture(autouse=True)
def _extension_built() -> None:
    # every test fails (not skips) without the extension, unless it is not expected
    if tavla_accel is None:
        if os.environ.get("TAVLA_ACCEL_EXPECTED", "1") == "0":
            pytest.skip("tavla_accel not built and TAVLA_ACCEL_EXPECTED=0")
        pytest.fail("tavla_accel is not installed: build it (pip install -e ./service with cargo on PATH, or "
                    "make accel-test), or set TAVLA_ACCEL_EXPECTED=0 to run without it", pytrace=False)


@pytest.fixture(autouse=True)
def _pure_generator(monkeypatch) -> None:
    # `pure` below is the path without the extension: the core's own generator, not the
    # compiled one the engine's MoveGenerator installs behind it (tests/accel/test_accel_generate.py)
    monkeypatch.setattr(Backgammon, "compiled_generate", None)


def pure(position: Position, dice: tuple[int, int], view: int) -> tuple[int, bytes]:
    """What the server sends without the accelerator (servicer.ListLegalMoves): the number of
    moves and the whole serialized ListLegalMovesResponse."""
    moves = core.legal_moves(position, dice)
    return len(moves), wire.legal_moves_response(convert.moves_to_wire(moves, view), moves[0].dice_used)


def compiled(position: Position, dice: tuple[int, int], view: int) -> tuple[int, bytes]:
    return tavla_accel.legal_moves_response(position.board, position.on_roll.value, dice[0], dice[1], view)


def assert_same(pairs: list[tuple[Position, tuple[int, int]]]) -> None:
    for position, dice in pairs:
        for view in VIEWS:
            where = core.position_id.encode(position), position.on_roll.name, dice, view
            assert compiled(position, dice, view) == pure(position, dice, view), where


@pytest.fixture(scope="module")
def match_pairs() -> list[tuple[Position, tuple[int, int]]]:
    if tavla_accel is None:
        return []
    pairs: list[tuple[Position, tuple[int, int]]] = []
    engine = LocalEngine()
    for path in MATCHES:
        replay(read_match(path), engine, on_roll=lambda pos, dice: pairs.append((pos, dice)))
    return pairs


def test_every_match_pair_is_byte_identical(match_pairs):
    assert len(MATCHES) == 79 and len(match_pairs) > 20_000
    assert_same(match_pairs)


def test_every_match_pair_with_the_dice_swapped(match_pairs):
    # the moves' order and steps must not depend on the order the dice are given in (R7)
    assert_same([(p, (d[1], d[0])) for p, d in match_pairs if d[0] != d[1]][::3])


def test_random_games_both_sides():
    rng = random.Random(12)
    pairs = [(Position(board, rng.choice((Side.WHITE, Side.BLACK))), dice)
             for board, dice in random_game_pairs(21, 4000)]
    assert_same(pairs)


def scattered(rng: random.Random) -> Position:
    """A random legal position: each side's 15 checkers over its points, bar and off."""
    while True:
        views = []
        for side in (Side.WHITE, Side.BLACK):
            points = [0] * 24
            bar = off = 0
            for _ in range(15):
                where = rng.random()
                if where < 0.05:
                    bar += 1
                elif where < 0.2:
                    off += 1
                else:
                    points[rng.randrange(24) if rng.random() < 0.5 else rng.randrange(6)] += 1
            views.append(SideView(tuple(points), bar, off))
        white, black = views
        if any(white.points[p] and black.points[23 - p] for p in range(24)):
            continue
        if white.off == 15 or black.off == 15:
            continue
        return Position.from_sides(rng.choice((Side.WHITE, Side.BLACK)), white, black)


def test_random_scattered_positions_every_roll():
    rng = random.Random(7)
    positions = [scattered(rng) for _ in range(300)]
    assert_same([(p, (d1, d2)) for p in positions for d1 in range(1, 7) for d2 in range(1, 7)])


def test_hardest_pairs():
    pairs = hardest_pairs()
    assert len(pairs) >= 5
    assert_same(pairs)
    assert max(compiled(p, d, wire.FULL)[0] for p, d in pairs) > 500  # the big answers are in


def test_start_position_answer_is_the_known_one():
    count, data = compiled(Position.initial(), (5, 1), wire.FULL)
    assert count == 8  # 24/23 13/8, 13/7, 13/8 6/5, 24/23 8/3, 8/3 8/7, 8/3 6/5, 8/2, 24/18
    assert b"24/23 13/8" in data and b"4PPgASjgc/ABMA" in data
    assert data.endswith(b"\x10\x02")  # dice_used (field 2): both dice


def test_the_server_path_uses_it_and_matches(match_pairs, monkeypatch):
    # the servicer's generator (tavla.server.api.generator): with the extension and without it
    compiled = MoveGenerator.from_env()
    if not compiled.active:
        pytest.fail(f"the server would not use the accelerator: {compiled.status}")
    for position, dice in match_pairs[::50]:
        for view in VIEWS:
            assert compiled.legal_moves_response(position, dice, view) == pure(position, dice, view)
    assert MoveGenerator.pure().legal_moves_response(*match_pairs[0], wire.FULL) is None


def finished() -> Position:
    white = SideView(tuple([0] * 24), 0, 15)
    black = SideView(tuple([2] + [0] * 23), 0, 13)
    return Position.from_sides(Side.BLACK, white, black)


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (-1, 3), (3,), (1, 2, 3), ()])
def test_bad_dice_raise_the_same_error(dice):
    with pytest.raises(InvalidInputError) as expected:
        core.legal_moves(Position.initial(), dice)
    with pytest.raises(InvalidInputError) as got:
        COMPILED.legal_moves_response(Position.initial(), dice, wire.FULL)
    assert (got.value.field, got.value.reason) == (expected.value.field, expected.value.reason)


def test_bad_dice_of_a_finished_game_are_reported_first():
    # the core checks the dice before the game's end
    with pytest.raises(InvalidInputError) as expected:
        core.legal_moves(finished(), (0, 1))
    with pytest.raises(InvalidInputError) as got:
        COMPILED.legal_moves_response(finished(), (0, 1), wire.FULL)
    assert got.value.reason == expected.value.reason


def test_finished_game_raises_the_same_error():
    with pytest.raises(GameOverError) as expected:
        core.legal_moves(finished(), (3, 1))
    with pytest.raises(GameOverError) as got:
        COMPILED.legal_moves_response(finished(), (3, 1), wire.FULL)
    assert str(got.value) == str(expected.value) and got.value.winner is expected.value.winner


@pytest.mark.parametrize("args, why", [
    ((Position.initial().board, 1, 0, 3, 0), "dice"),
    ((Position.initial().board, 3, 1, 3, 0), "on_roll"),
    ((Position.initial().board, 1, 1, 3, 2), "view"),
    ((Position.initial().board[:25], 1, 1, 3, 0), None),  # 25 ints: not a board
    (((16,) + Position.initial().board[1:], 1, 1, 3, 0), "board"),
    ((Position.initial().board[:25] + (-1,), 1, 1, 3, 0), "board"),  # a negative own bar
    ((Position.initial().board[:25] + (200,), 1, 1, 3, 0), "out of range"),
    ((finished().board, 2, 3, 1, 0), "game is over"),
])
def test_the_extension_refuses_what_python_never_passes(args, why):
    # a bug on the Python side gives a ValueError, never a wrong answer or a crash
    with pytest.raises(ValueError) as info:
        tavla_accel.legal_moves_response(*args)
    if why:
        assert why in str(info.value)


def test_a_board_that_is_not_a_tuple_of_ints_is_refused():
    with pytest.raises(TypeError):
        tavla_accel.legal_moves_response(list(Position.initial().board), 1, 3, 1, 0)
    with pytest.raises(TypeError):
        tavla_accel.legal_moves_response(("x",) + Position.initial().board[1:], 1, 3, 1, 0)


class _Index:
    """Not an int, but usable as one (``__index__``): read as ``operator.index`` reads it."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize("view", [wire.FULL, wire.BASIC])
def test_counts_that_are_not_the_cached_small_ints_read_the_same(view):
    # The extension recognises the interpreter's cached ints -5..15 by address and reads any
    # other object by value: int subclass objects, bools and __index__ objects must give the
    # same answer.
    subclass = type("Int", (int,), {})
    for pos, dice in [(Position.initial(), (3, 1)), (Position.initial(), (6, 6))]:
        board = pos.board
        expected = tavla_accel.legal_moves_response(board, 1, *dice, view)
        for convert_count in (subclass, _Index):
            same = tuple(convert_count(v) for v in board)
            assert tavla_accel.legal_moves_response(same, 1, *dice, view) == expected
    one = Position.initial().board[:24] + (True, 0)
    assert tavla_accel.legal_moves_response(one, 1, 3, 1, view) == tavla_accel.legal_moves_response(
        Position.initial().board[:24] + (1, 0), 1, 3, 1, view)


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, **env}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=60,
                          check=False)


def test_tavla_accel_0_forces_the_pure_path():
    out = _python("from tavla.server.api.generator import MoveGenerator; from tavla.server.convert import wire\n"
                  "from tavla.core import Position\ng = MoveGenerator.from_env()\n"
                  "print(g.active, g.status, g.legal_moves_response(Position.initial(), (3, 1), wire.FULL))",
                  TAVLA_ACCEL="0")
    assert out.stdout.split("\n")[0] == "False python (TAVLA_ACCEL=0) None", out.stderr


@pytest.mark.parametrize("setting, message", [
    ("maybe", "TAVLA_ACCEL='maybe' is not auto, 1/on or 0/off"),
    ("on", None),  # installed: accepted
])
def test_the_setting_is_checked_at_start(setting, message):
    out = _python("from tavla.server.api import generator\ngenerator.check_setting()\n"
                  "print('ok', generator.MoveGenerator.from_env().status)",
                  TAVLA_ACCEL=setting)
    if message is None:
        assert out.stdout.strip() == "ok rust", out.stderr
    else:
        assert out.returncode != 0 and message in out.stderr


def test_serve_refuses_to_start_when_required_and_missing(tmp_path):
    # a tavla_accel that cannot be imported stands in for a missing extension
    (tmp_path / "tavla_accel.py").write_text("raise ImportError('not built')\n")
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-m", "tavla", "serve", "--port", "0"], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": path, "TAVLA_ACCEL": "1"}, timeout=60, check=False)
    assert out.returncode == 2
    assert "TAVLA_ACCEL=1 requires the accelerator, but tavla_accel is not installed" in out.stderr


def test_the_metric_says_the_accelerator_runs():
    import prometheus_client

    from tavla.server.pipeline import metrics

    metrics.worker_started(MoveGenerator.from_env().active)
    assert prometheus_client.REGISTRY.get_sample_value("tavla_accelerator_active") == 1


def test_a_view_the_extension_does_not_write_takes_the_pure_path():
    assert wire.FULL in generator._VIEWS and wire.BASIC in generator._VIEWS
    assert MoveGenerator.from_env().legal_moves_response(Position.initial(), (3, 1), 7) is None
