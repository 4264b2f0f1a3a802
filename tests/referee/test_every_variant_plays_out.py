"""Random games of every variant under each start rule (R3-international, R3-turkish) play out
through the referee with server dice (R22): every call answers (a documented domain error at
most), every action ListActions offers is accepted by Act (all of them in a fifth of the
states, the chosen one in every state), and every game reaches its end
(R15; plakoto's mother and draw, variants-rules.md), so no roll can leave a match stuck.

Each game is a 1-point match with a fixed match id (state mode off keeps it, so the dice
repeat): a failure names its variant, start rule and game. ``TAVLA_RELIABILITY_LONG=1`` plays
ten times as many games and tries every listed action in every state (tests/reliability's
convention).
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from tavla.core import InvalidInputError, RuleError, preset
from tavla.core.game import Action, ActionKind, Phase
from tavla.core.match.dice_commit import DiceKey
from tavla.core.match.ruleset import StartRule
from tavla.referee import Answer, Referee
from tavla.referee.keys import StateMode, StateSigner

K = ActionKind
# mode off, not game_driver.SIGNER: only then is a match id kept as given, so its dice replay
REFEREE = Referee(StateSigner(StateMode.OFF, (("k", b"\x02" * 32),), shared=True),
                  DiceKey(b"dice key of the plays-out test, 32+", shared=True))
LONG = os.environ.get("TAVLA_RELIABILITY_LONG", "") not in ("", "0", "false", "no")
# games per (ruleset, start rule): more for the family, whose first throws have rules of their own
FAMILY_GAMES, BOARD_GAMES = (240, 80) if LONG else (24, 8)
ACTIONS_PER_GAME = 3000  # far above any real game: a stuck match fails, it does not hang
# every preset, and the options that change how checkers move (fevga's prime rule, long
# nardy's 3-3 head exception)
RULESETS = {
    "international": preset("international"), "turkish": preset("turkish"), "portes": preset("portes"),
    "nackgammon": preset("nackgammon"), "hypergammon": preset("hypergammon"), "plakoto": preset("plakoto"),
    "fevga": preset("fevga"), "fevga-no-prime": replace(preset("fevga"), prime_rule=False),
    "long_nardy": preset("long_nardy"), "long_nardy-no-33": replace(preset("long_nardy"), head_three_three=False),
}
CHECK_ALL = 1.0 if LONG else 0.2  # the share of states whose every listed action is tried
WEIGHT = {K.RESIGN: 0.01, K.DOUBLE: 0.1, K.UNDO: 0.1}  # a few, so games mostly end on the board


def play_game(rules, start: StartRule, match_id: str, rng: random.Random) -> tuple[int, set[ActionKind]]:
    """One 1-point match to its end; returns the actions it took and the kinds it played."""
    answer = REFEREE.new_match(replace(rules, start=start), "", 1, match_id=match_id)
    return play_out(answer, match_id, rng)


def play_out(answer: Answer, match_id: str, rng: random.Random) -> tuple[int, set[ActionKind]]:
    """The match of ``answer`` played on by random listed actions to its end."""
    kinds: set[ActionKind] = set()
    for count in range(ACTIONS_PER_GAME):
        assert answer.signed is not None
        opened = REFEREE.open(answer.signed)
        state = opened.state
        listed = REFEREE.list_actions(opened).legal
        if state.phase is Phase.MATCH_OVER:
            assert not listed, (match_id, listed)
            return count, kinds
        assert listed, (match_id, state.phase)
        where = (match_id, state.phase, state.position.board, state.dice, state.steps)
        weights = [WEIGHT.get(a.kind, 1.0) for a in listed]
        confirm = [a for a in listed if a.kind is K.CONFIRM_MOVE]
        chosen = confirm[0] if confirm and rng.random() < 0.9 else rng.choices(listed, weights)[0]
        kinds.add(chosen.kind)
        # every offered action is accepted: all of them in a share of the states (each state's
        # kinds are met in many), the chosen one always
        answers = {}
        for action in listed if rng.random() < CHECK_ALL else (chosen,):
            try:
                answers[action] = REFEREE.act(opened, action)
            except (RuleError, InvalidInputError) as err:  # pragma: no cover - the failure itself
                pytest.fail(f"{where}: listed {action} refused: {err}")
        answer = answers[chosen]
    pytest.fail(f"{match_id}: not over after {ACTIONS_PER_GAME} actions")


@pytest.mark.parametrize("start", list(StartRule), ids=lambda s: s.value)
@pytest.mark.parametrize("name", list(RULESETS))
def test_random_games_play_out(name, start):
    rng = random.Random(f"{name}/{start.value}")
    played: set[ActionKind] = set()
    games = FAMILY_GAMES if RULESETS[name].variant in ("plakoto", "fevga", "long_nardy") else BOARD_GAMES
    for game in range(games):
        _, kinds = play_game(RULESETS[name], start, f"plays-out.{name}.{start.value}.{game}", rng)
        played |= kinds
    assert {K.START_GAME, K.ROLL, K.STEP, K.CONFIRM_MOVE} <= played


NARDY_MATCH_ID = "nardy-first-throw-87"  # with this test's dice key: black 5-5 first, white 5-3 (found once, fixed)


def test_nardy_first_throw_that_one_checker_cannot_play_rolls_and_plays_on():
    """The Turkish start (R3-turkish) in long nardy: black wins the roll-off and throws 5-5
    (24/4, one checker off the head: its 4 is white's 16); white's first throw 5-3 can move one
    checker off the head only (the head rule), and 24/19/16, 24/21/16 land on black's runner,
    so only one die plays, the larger: 24/19 (R7; variants-rules.md, long nardy). ROLL answers with
    that one move offered, and the match plays to its end."""
    rules = replace(RULESETS["long_nardy"], start=StartRule.TURKISH)
    answer = REFEREE.new_match(rules, "long_nardy", 1, match_id=NARDY_MATCH_ID)
    answer = REFEREE.act(REFEREE.open(answer.signed), Action(K.START_GAME))
    assert answer.state.dice == (5, 5) and answer.state.position.on_roll.name == "BLACK"
    for _ in range(4):  # the one checker off the head, 24/19/14/9/4
        listed = REFEREE.list_actions(REFEREE.open(answer.signed)).legal
        answer = REFEREE.act(REFEREE.open(answer.signed), next(a for a in listed if a.kind is K.STEP))
    answer = REFEREE.act(REFEREE.open(answer.signed), Action(K.CONFIRM_MOVE))
    black = answer.state.position.side(answer.state.position.on_roll.other)
    assert black.points[3] == 1 and black.points[23] == 14
    rolled = REFEREE.act(REFEREE.open(answer.signed), Action(K.ROLL))
    assert sorted(rolled.state.dice) == [3, 5]
    steps = [(a.step[0], a.step[1], a.step[2]) for a in rolled.legal if a.kind is K.STEP]
    assert steps == [(24, 19, 5)]
    moved = REFEREE.act(REFEREE.open(rolled.signed), next(a for a in rolled.legal if a.kind is K.STEP))
    assert {a.kind for a in moved.legal} == {K.UNDO, K.CONFIRM_MOVE, K.RESIGN}
    confirmed = REFEREE.act(REFEREE.open(moved.signed), Action(K.CONFIRM_MOVE))
    assert confirmed.state.phase is Phase.ROLL_OR_DOUBLE
    white = confirmed.state.position.side(confirmed.state.position.on_roll.other)
    assert white.points[23] == 14 and white.points[18] == 1
    play_out(confirmed, NARDY_MATCH_ID, random.Random(0))
