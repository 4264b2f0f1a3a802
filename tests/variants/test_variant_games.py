"""Whole games of plakoto, fevga and long nardy through the referee's core functions
(``tavla.core.game``: new_match, list_actions, act), with random actions (Hypothesis picks the
seeds): checkers are conserved, every reached state is a legal position of its variant (it
rebuilds from its two sides' views), the turn's bookkeeping is clear between turns, no cube
action is ever offered, and every game ends."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.core import Position, Ruleset, Side
from tavla.core import game
from tavla.core.game import Action, ActionKind, Phase
from tavla.core.match.ruleset import preset
from tavla.core.match.violations import CubeError
from tavla.core.rules.outcome import GameEnding
from tavla.core.rules.scoring import ResultKind

K = ActionKind
VARIANTS = ("plakoto", "fevga", "long_nardy")
MAX_ACTIONS = 20000


def _dice(seed: int):
    rng = random.Random(seed * 7919 + 1)
    while True:
        yield rng.randint(1, 6)


def check_position(position: Position) -> None:
    """The position is one its variant can hold: each side 15 checkers, and it is rebuilt from
    its two sides' views (no point of both sides but a pin, pins under a pinner)."""
    variant = position.variant
    white, black = position.side(Side.WHITE), position.side(Side.BLACK)
    for view in (white, black):
        assert sum(view.points) + view.bar + view.off == variant.checkers
        assert view.bar == 0
    rebuilt = Position.from_sides(position.on_roll, white, black, variant)
    assert rebuilt.board[:26] == position.board[:26]
    assert rebuilt.side(Side.WHITE) == white and rebuilt.side(Side.BLACK) == black


def play_match(rules: Ruleset, length: int, seed: int) -> tuple[game.GameState, list[game.Transition]]:
    rng = random.Random(seed)
    dice = _dice(seed)
    state = game.new_match(rules, length)
    done: list[game.Transition] = []
    for _ in range(MAX_ACTIONS):
        if state.phase is Phase.MATCH_OVER:
            return state, done
        actions = game.list_actions(state)
        assert not any(a.kind in (K.DOUBLE, K.TAKE, K.DROP, K.BEAVER, K.RACCOON) for a in actions)
        actions = [a for a in actions if a.kind not in (K.RESIGN, K.UNDO, K.CLAIM_TIMEOUT)]
        confirm = [a for a in actions if a.kind is K.CONFIRM_MOVE]
        action = confirm[0] if confirm else rng.choice(actions)
        result = game.act(state, action, dice=dice)
        done.append(result)
        state = result.state
        assert state.position.variant is rules.variant_class
        if state.phase is not Phase.MOVING or not state.steps:
            assert state.position.board[26:] in ((0, 0),) or rules.variant == "plakoto"
        check_position(state.position)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1))
def test_whole_matches_end_with_checkers_conserved(name, seed):
    rules = preset(name)
    final, transitions = play_match(rules, 3, seed)
    ends = [t.game_over for t in transitions if t.game_over is not None]
    assert ends and final.match.winner is not None
    scored = sum(t.points for t in transitions if t.game_over is not None)
    assert max(final.match.scores) == 3 or scored >= 3
    for t in transitions:
        over = t.game_over
        if over is None:
            continue
        if over.ending is GameEnding.DRAW:
            assert name == "plakoto" and over.winner is None and t.points == 0
        elif over.ending is GameEnding.MOTHER_PINNED:
            assert name == "plakoto" and t.points == 2
        else:
            assert over.ending is GameEnding.BORNE_OFF
            assert over.kind in rules.variant_class.kinds and over.kind is not ResultKind.BACKGAMMON
            assert t.points == (2 if over.kind is ResultKind.GAMMON else 1)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_cube_action_is_refused_with_the_variant_named(name):
    rules = preset(name)
    state = game.new_match(rules, 3)
    state = game.act(state, Action(K.START_GAME), dice=_dice(1)).state
    while state.phase is not Phase.ROLL_OR_DOUBLE:
        actions = game.list_actions(state)
        confirm = [a for a in actions if a.kind is K.CONFIRM_MOVE]
        step = [a for a in actions if a.kind is K.STEP]
        state = game.act(state, confirm[0] if confirm else step[0], dice=_dice(2)).state
    with pytest.raises(CubeError, match="without a doubling cube"):
        game.act(state, Action(K.DOUBLE))


def test_a_draw_in_the_match_score():
    from tavla.core import InvalidInputError, MatchState, update_match
    from tavla.core.rules.outcome import GameOutcome

    rules = preset("plakoto")
    state = MatchState(length=5, scores=(2, 1), games_played=3, previous_winner=Side.WHITE)
    update = update_match(state, rules, GameOutcome(None, GameEnding.DRAW))
    assert (update.points_paid, update.points_scored, update.next_starter) == (0, 0, None)
    after = update.state
    assert after.scores == (2, 1) and after.games_played == 4 and after.previous_winner is Side.WHITE
    assert after.winner is None and not after.crawford
    with pytest.raises(InvalidInputError):
        update_match(state, rules, GameOutcome(Side.WHITE, GameEnding.DRAW))
    with pytest.raises(InvalidInputError):
        update_match(state, preset("international"), GameOutcome(Side.WHITE, GameEnding.MOTHER_PINNED))
    mother = update_match(state, rules, GameOutcome(Side.BLACK, GameEnding.MOTHER_PINNED, ResultKind.GAMMON))
    assert mother.points_scored == 2 and mother.state.scores == (2, 3)


def test_resignations_offer_only_the_variants_kinds():
    state = game.new_match(preset("fevga"), 3)
    state = game.act(state, Action(K.START_GAME), dice=_dice(3)).state
    kinds = {a.resign_kind for a in game.list_actions(state) if a.kind is K.RESIGN}
    assert kinds == {ResultKind.SINGLE, ResultKind.GAMMON}
    from tavla.core import InvalidInputError
    with pytest.raises(InvalidInputError, match="no backgammon"):
        game.act(state, Action(K.RESIGN, resign_kind=ResultKind.BACKGAMMON))
