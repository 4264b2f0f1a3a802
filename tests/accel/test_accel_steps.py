"""The compiled turn analysis (``tavla_accel.turn_steps``) and the compiled ``Position`` writer
(``tavla_accel.position_bytes``) against the pure-Python ones.

An engine built with the extension installs ``turn_steps`` beside the compiled generator
(``Variant.compiled_steps``), and :func:`tavla.core.rules.steps.legal_steps` answers with it the
common path of a turn (every step given one legal next step): the legal next steps, whether
the move is complete and which, whether the rest is forced. Its answer must be the tree's
(``_Turn``) in every field and order, on every analysis of whole random games of each variant
it serves (the steps chosen at random, bear-offs with and without their die), and a step it
does not answer (a route of several dice, an illegal step) must get the tree's answer or error.
The variants it does not serve take the tree alone.

Not silently skipped: without the extension these tests FAIL, unless ``TAVLA_ACCEL_EXPECTED=0``
says it is not built on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tavla import core
from tavla.core import Position
from tavla.core.errors import IllegalMoveError, InvalidInputError
from tavla.core.rules import steps
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.moves import legal_moves
from tavla.server.convert import wire
from tavla.server.api.generator import MoveGenerator
from test_accel import _extension_built, tavla_accel  # noqa: F401

SERVED = ("backgammon", "tavla", "portes", "nackgammon", "hypergammon")


@pytest.fixture(scope="module")
def compiled() -> Iterator[MoveGenerator]:
    """The generator the server is built with, installed as an engine's constructor does."""
    chosen = MoveGenerator.from_env()
    if not chosen.active:
        pytest.fail(f"the server would not use the accelerator: {chosen.status}")
    chosen.install()
    yield chosen


def _pure(position: Position, dice: tuple[int, int], done: tuple[CheckerMove, ...]) -> steps.StepState:
    """The tree's answer: the compiled analysis set aside, nothing kept."""
    variant = Backgammon
    saved = variant.compiled_steps
    variant.compiled_steps = None
    steps.clear_cache()
    try:
        return steps.legal_steps(position, dice, done)
    finally:
        variant.compiled_steps = saved
        steps.clear_cache()


def _both(position: Position, dice: tuple[int, int], done: tuple[CheckerMove, ...]) -> steps.StepState:
    steps.clear_cache()
    got = steps.legal_steps(position, dice, done)
    expected = _pure(position, dice, done)
    where = position, dice, done
    assert got == expected, where  # steps, position, dice left, next steps, complete, move, gele, forced
    assert got.move == expected.move and (got.move is None or got.move.steps == expected.move.steps), where
    assert got.move is None or got.move.mover == position, where
    assert all(type(s) is CheckerMove and type(s.hit) is bool for s in got.next_steps + got.steps), where
    assert type(got.position.board) is tuple and type(got.dice_left) is tuple, where
    return got


def _played_turns(variant: type, seed: int, games: int) -> Iterator[tuple[Position, tuple[int, int], tuple]]:
    """Every (position, dice, steps so far) of ``games`` random games of ``variant``, a random
    legal next step at a time (a bear-off's die left out half the time), to the turn's end."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.initial(variant=variant)
        while position.winner is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            done: tuple[CheckerMove, ...] = ()
            while True:
                yield position, dice, done
                state = steps.legal_steps(position, dice, done)
                if state.complete or not state.next_steps:
                    break
                step = rng.choice(state.next_steps)
                if step.to_point == 0 and rng.random() < 0.5:
                    step = CheckerMove(step.from_point, 0, 0, step.hit)  # the die not given (R12)
                done += (step,)
            position = (state.move or legal_moves(position, dice)[0]).result


@pytest.mark.parametrize("name", SERVED)
def test_the_compiled_turn_analysis_is_the_trees(name, compiled, monkeypatch):
    variant = core.find_variant(name)
    assert variant.compiled_steps is tavla_accel.turn_steps
    calls = []

    def spy(*args):
        answer = tavla_accel.turn_steps(*args)
        calls.append(answer is not None)
        return answer

    monkeypatch.setattr(Backgammon, "compiled_steps", spy)
    games = 40 if name in ("backgammon", "tavla") else 12
    seen = complete = forced = 0
    for position, dice, done in _played_turns(variant, 7, games):
        got = _both(position, dice, done)
        seen, complete, forced = seen + 1, complete + got.complete, forced + got.forced
    assert calls and all(calls) and len(calls) >= seen  # it answered every one of them
    assert seen > (2000 if games == 40 else 500) and complete and forced


def test_steps_it_does_not_answer_get_the_trees_answer(compiled):
    start = Position.initial()
    # a route of several dice: the tree finds it
    assert _both(start, (6, 5), (CheckerMove(24, 13, 0, False),)).complete
    assert _both(start, (3, 3), (CheckerMove(24, 15, 0, False),)).dice_left == (3,)
    assert tavla_accel.turn_steps(start.board, 6, 5, ((24, 13, 0),)) is None
    # illegal steps and steps outside the board: the core's errors, as the tree raises them
    for done, error in ((CheckerMove(24, 20, 0, False), IllegalMoveError),
                        (CheckerMove(6, 1, 0, False), IllegalMoveError),  # blocked: R5
                        (CheckerMove(30, 24, 0, False), InvalidInputError)):
        steps.clear_cache()
        with pytest.raises(error) as caught:
            steps.legal_steps(start, (6, 5), (done,))
        with pytest.raises(error) as pure:
            _pure(start, (6, 5), (done,))
        assert str(caught.value) == str(pure.value)
    # outside its domain: refused, and the core answers
    with pytest.raises(ValueError):
        tavla_accel.turn_steps(start.board, 1, 6, ())  # the larger die first
    finished = tuple(max(v, 0) for v in start.board)  # the other side has borne off all 15
    with pytest.raises(ValueError):
        tavla_accel.turn_steps(finished, 6, 5, ())


@pytest.mark.parametrize("name", ["plakoto", "fevga", "long_nardy", "gul_bara"])
def test_the_other_variants_take_the_tree(name, compiled):
    variant = core.find_variant(name)
    assert variant.compiled_generate is None and variant.compiled_steps is None
    answer = steps.legal_steps(Position.initial(variant=variant), (6, 5), ())
    assert answer.next_steps


def test_a_pure_engine_drops_both(compiled):
    MoveGenerator.pure().install()
    try:
        assert Backgammon.compiled_steps is None and wire._compiled_position is None
    finally:
        compiled.install()
    assert Backgammon.compiled_steps is tavla_accel.turn_steps
    assert wire._compiled_position is tavla_accel.position_bytes


@pytest.mark.parametrize("name", SERVED)
def test_the_compiled_position_writer_is_the_pythons(name, compiled, monkeypatch):
    variant = core.find_variant(name)
    rng = random.Random(11)
    seen = 0
    for _ in range(30):
        position = Position.initial(variant=variant)
        while True:
            for side in core.Side:
                got = wire.position(position.board, side, checkers=variant.checkers)
                monkeypatch.setattr(wire, "_compiled_position", None)
                assert got == wire.position(position.board, side, checkers=variant.checkers), (position, side)
                monkeypatch.setattr(wire, "_compiled_position", tavla_accel.position_bytes)
                seen += 1
            if position.winner is not None:  # a finished game's position is written too
                break
            position = rng.choice(legal_moves(position, (rng.randint(1, 6), rng.randint(1, 6)))).result
    assert seen > 1000
    assert tavla_accel.position_bytes(Position.initial().board, 1) == wire.position(Position.initial().board, core.Side.WHITE)
    with pytest.raises(ValueError):
        tavla_accel.position_bytes(Position.initial().board, 3)
