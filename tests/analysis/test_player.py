"""Levels, cube advice, the search player and the referee's computer side (tavla.analysis)."""

from __future__ import annotations

import pytest

from tavla.analysis import player, search
from tavla.analysis.levels import Level, noise_for
from tavla.core import MatchState, Position, Ruleset, Side, SideView, legal_moves, preset
from tavla.core.match.state import Cube

pytest.importorskip("bgsage")


@pytest.fixture(autouse=True)
def _fresh_costs(monkeypatch):
    """Each test starts with no measured 2-ply cost: a slow spell of the shared machine in an
    earlier test must not make EXPERT fall back to 1 ply here."""
    monkeypatch.setattr(player, "_cost", {})


def test_noise_is_deterministic_shrinks_by_level_and_is_absent_at_expert():
    key = (1, 2, 3)
    assert noise_for(Level.BEGINNER, key, 4) == noise_for(Level.BEGINNER, key, 4)
    assert noise_for(Level.BEGINNER, key, 4) != noise_for(Level.BEGINNER, (1, 2, 4), 4)
    spread = [sum(abs(x) for x in noise_for(level, key, 200)) for level in Level]
    assert spread[0] > spread[1] > spread[2] > spread[3] == 0.0
    assert noise_for(Level.EXPERT, key, 3) == [0.0, 0.0, 0.0]


def test_every_level_ranks_every_legal_move_and_reports_the_loss():
    pos = Position.initial()
    for level in Level:
        s = player.suggest_move(pos, (6, 5), Ruleset(), MatchState(), level)
        assert len(s.moves) == len(legal_moves(pos, (6, 5)))
        assert min(m.equity_loss for m in s.moves) == 0.0
        assert s.evaluator is player.Evaluator.NEURAL_NET
    expert = player.suggest_move(pos, (6, 5), Ruleset(), MatchState(), Level.EXPERT)
    assert expert.ply == 2 and expert.moves[0].move.notation == "24/13"


def test_a_roll_with_no_legal_move_gives_the_empty_move():
    # white on the bar against a closed board (R6, R7): 6-6 cannot enter
    white = SideView(tuple([0] * 12 + [14] + [0] * 11), 1, 0)
    black = SideView(tuple([2] * 6 + [0] * 18), 0, 3)
    pos = Position.from_sides(Side.WHITE, white, black)
    s = player.suggest_move(pos, (6, 6), Ruleset(), MatchState(), Level.ADVANCED)
    assert [m.move.notation for m in s.moves] == [""]
    assert s.moves[0].probs.win < 0.5


def test_tavla_ranks_by_its_own_scoring_without_a_cube():
    rules = preset("turkish")
    pos = Position.initial(variant=rules.variant_class)
    s = player.suggest_move(pos, (6, 5), rules, MatchState(length=5), Level.ADVANCED)
    best = min(s.moves, key=lambda m: m.equity_loss)  # the level's noise may choose another
    assert best.move.notation == "24/13"
    # match play without a cube: 2 x MWC - 1, within a game's worth of a 5-point match
    assert abs(best.equity) < 0.5
    cube = player.suggest_cube(pos, rules, MatchState(length=5), Level.ADVANCED)
    assert not cube.available and cube.denial is not None and cube.denial.value == "CUBE_DISABLED"


def test_a_big_racing_lead_is_a_double_and_a_drop():
    # R19: a pure race, white 40 pips to black's 80, both with 5 off (no gammon): money play
    white = SideView((0, 2, 2, 2, 2, 2) + (0,) * 18, 0, 5)
    black = SideView((0,) * 5 + (2, 2, 2, 2, 2) + (0,) * 14, 0, 5)
    pos = Position.from_sides(Side.WHITE, white, black)
    c = player.suggest_cube(pos, Ruleset(), MatchState(), Level.ADVANCED)
    assert c.available and c.cube.should_double and not c.cube.should_take
    assert c.advice is player.CubeAdvice.DOUBLE_PASS
    # the Crawford game (R21): no double at all
    crawford = MatchState(length=5, scores=(4, 2), crawford=True)
    assert not player.suggest_cube(pos, Ruleset(), crawford, Level.ADVANCED).available
    # the opponent owns the cube (R19)
    owned = MatchState(cube=Cube(2, Side.BLACK))
    c = player.suggest_cube(pos, Ruleset(), owned, Level.ADVANCED)
    assert not c.available and c.denial.value == "CUBE_OWNED_BY_OPPONENT"


def test_the_search_player_prefers_hitting_and_making_points_to_a_random_move():
    pos = Position.initial()
    ranked = search.rank(pos, (3, 1), 1)
    assert ranked[0].move.notation == "8/5 6/5"
    deep = search.rank(pos, (3, 1), 2)
    assert deep[0].ply == 2 and len(deep) == len(ranked)


def test_the_search_player_is_chosen_for_a_variant_without_a_net():
    from tavla.core.rules.backgammon import Backgammon
    from tavla.core.rules.variant import register, unregister

    class StandIn(Backgammon):  # backgammon's rules under a name the engine has no net for
        name = "stand_in_for_a_new_variant"
        aliases = ()

    register(StandIn)
    try:
        assert player.evaluator_for(StandIn) is player.Evaluator.SEARCH
        pos = Position.initial(variant=StandIn)
        s = player.suggest_move(pos, (3, 1), Ruleset(), MatchState(), Level.EXPERT)
        assert s.evaluator is player.Evaluator.SEARCH and s.moves[0].move.notation == "8/5 6/5"
    finally:
        unregister(StandIn)


def test_the_expert_drops_to_one_ply_when_time_is_short_and_comes_back():
    from tavla.analysis import player as p

    kind = p.Evaluator.NEURAL_NET
    p.suggest_move(Position.initial(), (6, 5), Ruleset(), MatchState(), Level.EXPERT)  # measures 2-ply
    assert p.effective_ply(Level.EXPERT, kind) == 2
    assert p.effective_ply(Level.EXPERT, kind, time_left=0.0) == 1  # no time for the deeper search
    assert p.suggest_move(Position.initial(), (6, 5), Ruleset(), MatchState(), Level.EXPERT, time_left=0.0).ply == 1
    saved = dict(p._cost)
    try:
        p._cost[(kind, 2, p.Decision.MOVE)] = 100.0  # a slow spell far past the budget
        plies = [p.effective_ply(Level.EXPERT, kind) for _ in range(40)]
        assert plies[0] == 1 and plies[-1] == 2  # forgotten little by little
    finally:
        p._cost.clear()
        p._cost.update(saved)


def test_the_expert_cube_decision_has_its_own_budget_and_falls_back_to_one_ply():
    from tavla.analysis import player as p

    kind = p.Evaluator.NEURAL_NET
    pos = Position.initial()
    first = p.suggest_cube(pos, Ruleset(), MatchState(), Level.EXPERT)  # measures the 2-ply cube
    assert first.cube.ply == 2
    assert (kind, 2, p.Decision.PRE_ROLL) in p._cost
    p._cost[(kind, 2, p.Decision.PRE_ROLL)] = 100.0  # the cube's slow spell, past its budget
    assert p.suggest_cube(pos, Ruleset(), MatchState(), Level.EXPERT).cube.ply == 1
    assert p.suggest_move(pos, (6, 5), Ruleset(), MatchState(), Level.EXPERT).ply == 2  # the move's own cost
    assert p.suggest_cube(pos, Ruleset(), MatchState(), Level.EXPERT, time_left=0.0).cube.ply == 1


def test_the_expert_cube_decision_is_the_two_ply_chances_through_janowski():
    from tavla.analysis import engine
    from tavla.analysis.equity import Stakes

    race = Position.from_sides(Side.WHITE, SideView((0, 2, 2, 2, 2, 2) + (0,) * 18, 0, 5),
                               SideView((0,) * 5 + (2, 2, 2, 2, 2) + (0,) * 14, 0, 5))
    for pos, double, take in ((race, True, False), (Position.initial(), False, True)):
        stakes = Stakes.of(Ruleset(), MatchState(), pos.on_roll)
        c = engine.shared().cube(pos, stakes, 2)
        assert c.ply == 2 and c.probs == engine.shared().pre_roll(pos, stakes, 2)[0]
        assert (c.should_double, c.should_take, c.double_pass) == (double, take, 1.0)
    assert engine.shared().cube(race, Stakes(), 2).no_double > 0.9  # far ahead, no gammon left


def test_the_search_player_never_doubles_and_drops_only_past_its_take_point():
    from tavla.core.rules.backgammon import Backgammon
    from tavla.core.rules.variant import register, unregister

    class StandIn(Backgammon):
        name = "stand_in_for_the_cube"
        aliases = ()

    register(StandIn)
    try:
        ahead = Position.from_sides(Side.WHITE, SideView((0, 2, 2, 2, 2, 2) + (0,) * 18, 0, 5),
                                    SideView((0,) * 5 + (2, 2, 2, 2, 2) + (0,) * 14, 0, 5), StandIn)
        c = player.suggest_cube(ahead, Ruleset(), MatchState(), Level.EXPERT)
        assert c.evaluator is player.Evaluator.SEARCH and c.available
        assert not c.cube.should_double and c.advice is player.CubeAdvice.NO_DOUBLE
        assert not c.cube.should_take  # far past the take point: its opponent would drop
        even = player.suggest_cube(Position.initial(variant=StandIn), Ruleset(), MatchState(), Level.EXPERT)
        assert even.cube.should_take and not even.cube.should_double
    finally:
        unregister(StandIn)


@pytest.mark.parametrize(("dice", "best"), [((6, 5), "24/13"), ((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"),
                                            ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3")])
def test_the_search_player_plays_the_standard_opening_moves(dice, best):
    assert search.rank(Position.initial(), dice, 1)[0].move.notation == best


def test_without_the_engine_every_variant_gets_the_search_player(monkeypatch):
    from tavla.analysis import engine

    monkeypatch.setattr(engine, "available", lambda: False)
    s = player.suggest_move(Position.initial(), (3, 1), Ruleset(), MatchState(), Level.ADVANCED)
    best = min(s.moves, key=lambda m: m.equity_loss)  # the level's noise may choose another
    assert s.evaluator is player.Evaluator.SEARCH and best.move.notation == "8/5 6/5"


def _roll_or_double(preset_name: str):
    """A 7-point match's first game, white on roll before its roll with the cube centred."""
    from dataclasses import replace

    from tavla.core.game import machine
    from tavla.core.game.state import Phase

    return replace(machine.new_match(preset(preset_name), 7), phase=Phase.ROLL_OR_DOUBLE)


def test_suggest_action_reports_the_ply_its_cube_decision_used():
    """A cube action's ply is the cube decision's (its own time budget), not the move's: with
    the 2-ply cube past its budget the expert doubles, takes and drops at 1 ply while its moves
    stay at 2; START_GAME and CONFIRM_MOVE evaluate nothing (ply 0)."""
    import math

    from tavla.analysis import jobs
    from tavla.core.game import machine
    from tavla.core.game.state import Action, ActionKind, Phase

    kind = player.Evaluator.NEURAL_NET
    player._cost[(kind, 2, player.Decision.PRE_ROLL)] = 100.0  # the cube's slow spell
    assert player.effective_ply(Level.EXPERT, kind) == 2  # what the reply said before
    state = _roll_or_double("international")
    choice = jobs.suggest_action(state, tuple(machine.list_actions(state)), Level.EXPERT, math.inf)
    assert choice.action.kind in (ActionKind.ROLL, ActionKind.DOUBLE)
    assert (choice.evaluator, choice.ply) == (kind, 1)
    doubled = machine.act(state, Action(ActionKind.DOUBLE, Side.WHITE)).state
    answer = jobs.suggest_action(doubled, tuple(machine.list_actions(doubled)), Level.EXPERT, math.inf)
    assert answer.action.kind in (ActionKind.TAKE, ActionKind.DROP) and answer.action.side is Side.BLACK
    assert answer.ply == 1
    rolled = machine.act(state, Action(ActionKind.ROLL, Side.WHITE), dice=iter([6, 5])).state
    assert rolled.phase is Phase.MOVING
    step = jobs.suggest_action(rolled, tuple(machine.list_actions(rolled)), Level.EXPERT, math.inf)
    assert (step.action.kind, step.ply) == (ActionKind.STEP, 2)  # the move's own budget
    start = machine.new_match(preset("international"), 7)
    assert jobs.suggest_action(start, tuple(machine.list_actions(start)), Level.EXPERT, math.inf).ply == 0
    while ActionKind.CONFIRM_MOVE not in {a.kind for a in machine.list_actions(rolled)}:  # play the move's steps
        played = player.suggest_action(rolled, machine.list_actions(rolled), Level.EXPERT).action
        rolled = machine.act(rolled, played).state
    confirm = player.suggest_action(rolled, machine.list_actions(rolled), Level.EXPERT)
    assert (confirm.action.kind, confirm.ply) == (ActionKind.CONFIRM_MOVE, 0)


def test_the_search_players_cube_decision_is_one_ply_at_every_level():
    """The search player weighs a double by each roll's best one-ply move whatever the level,
    so its cube answers say ply 1 at the expert level too (its moves there are 2-ply)."""
    import math

    from tavla.analysis import jobs
    from tavla.core.game import machine
    from tavla.core.game.state import Action, ActionKind

    state = _roll_or_double("hypergammon")
    assert player.evaluator_for(state.position.variant) is player.Evaluator.SEARCH
    assert player.suggest_cube(state.position, state.ruleset, state.match, Level.EXPERT).cube.ply == 1
    doubled = machine.act(state, Action(ActionKind.DOUBLE, Side.WHITE)).state
    answer = jobs.suggest_action(doubled, tuple(machine.list_actions(doubled)), Level.EXPERT, math.inf)
    assert answer.action.kind is ActionKind.TAKE  # the start: about even, past the take point
    assert (answer.evaluator, answer.ply) == (player.Evaluator.SEARCH, 1)
