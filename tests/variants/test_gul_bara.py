"""Gul bara (docs/variants.md, "Gul bara"; Wikipedia "Gul bara", eightygames.wordpress.com,
totalshareware and funwithpuzzles descriptions): the engine against an independent reference
written from the rules text (tests/support/gul_bara_reference.py) on thousands of random
positions and rolls, hand-made positions each showing one rule, the cascade of doubles through
the game machine, and every RPC: ListLegalMoves, ApplyMove, ListLegalSteps, and whole matches
through the referee's Act with server dice."""

from __future__ import annotations

import random
from dataclasses import replace

import grpc
import pytest

import gul_bara_reference as ref
from tavla.core import Position, Side, SideView, find_variant, legal_moves, legal_steps, resolve
from tavla.core import game
from tavla.core.errors import IllegalMoveError, IllegalReason
from tavla.core.game import Action, ActionKind, Phase
from tavla.core.match.ruleset import preset
from tavla.core.rules import notation
from tavla.core.rules.gul_bara import GulBara
from tavla.v1 import game_pb2 as G
from tavla.v1 import types_pb2 as pb
import rpc_api as api
from game_driver import SIGNER, Checker, play_match



def view(points: dict[int, int]) -> SideView:
    return SideView(tuple(points.get(p, 0) for p in range(1, 25)), 0, 15 - sum(points.values()))


def position(white: dict[int, int], black: dict[int, int], on_roll: Side = Side.WHITE) -> Position:
    return Position.from_sides(on_roll, view(white), view(black), GulBara)


def counts(v: SideView) -> ref.Side:
    return (v.off, *v.points)


def test_registered_by_name_aliases_and_preset():
    for name in ("gul_bara", "gioul", "gul-bara", "Gul Bara", "rosespring"):
        assert find_variant(name) is GulBara
        assert preset(name).variant == "gul_bara"
    rules = preset("gioul")
    assert (rules.cube, rules.crawford, rules.variant_class) == (False, False, GulBara)
    assert GulBara.title_tr == "Gül bara" and GulBara.direction.value == "same" and not GulBara.bar


# -- the reference ---------------------------------------------------------------------------------


def _random_side(rng: random.Random, taken: set[int], own_to_white) -> dict[int, int]:
    """15 checkers of one side on random points (its own numbering) not in ``taken`` (white's
    numbering), some borne off; home-heavy at times so that bearing off is tried."""
    points: dict[int, int] = {}
    top = rng.choice((6, 12, 24, 24))
    for _ in range(15):
        if rng.random() < 0.15:
            continue  # borne off
        p = rng.randint(1, top)
        if own_to_white(p) in taken:
            continue
        points[p] = points.get(p, 0) + 1
    return points


@pytest.mark.parametrize("seed", range(4))
def test_the_engine_agrees_with_the_reference_on_random_positions(seed):
    """1000 random positions and rolls a seed (4000 in all): the same legal end positions and
    the same number of dice played (one throw: a double four times, R6, R7)."""
    rng = random.Random(seed)
    compared = 0
    while compared < 1000:
        black = _random_side(rng, set(), ref.their_point)
        taken = {ref.their_point(q) for q in black}
        white = _random_side(rng, taken, lambda p: p)
        if not white or not black:
            continue
        pos = position(white, black)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        moves = legal_moves(pos, (d1, d2))
        got = {counts(m.result.side(Side.WHITE)) for m in moves}
        theirs = counts(pos.side(Side.BLACK))
        want, used = ref.throw_plays(counts(pos.side(Side.WHITE)), theirs, d1, d2)
        assert got == want, (white, black, d1, d2)
        assert moves[0].dice_used == used
        assert all(counts(m.result.side(Side.BLACK)) == theirs for m in moves)  # no hitting
        compared += 1


def test_the_cascade_agrees_with_the_reference():
    for turn in range(1, 8):
        for d in range(1, 7):
            throws, dice = [], (d, d)
            while True:
                throws.append(dice)
                follow = GulBara.next_throw(dice, turn)
                if follow is None:
                    break
                dice = follow
            assert tuple(throws) == ref.cascade(d, turn)
        assert GulBara.next_throw((5, 3), turn) is None


# -- hand-made positions, each one rule ---------------------------------------------------------------


def test_start_six_six_plays_four_checkers_to_the_eighteen():
    """The opponent's head (white's 12) blocks a second six: 6-6 is 24/18(4)."""
    moves = legal_moves(Position.initial(variant=GulBara), (6, 6))
    assert [m.notation for m in moves] == ["24/18(4)"]


def test_a_single_checker_holds_a_point():
    """No hitting: black's lone checker on white's 18 (black's 6) closes it to white, so 6-1
    from the head is 24/23/17 only."""
    pos = position({24: 15}, {6: 1, 24: 14})
    assert [m.notation for m in legal_moves(pos, (6, 1))] == ["24/17"]
    with pytest.raises(IllegalMoveError) as err:
        resolve(pos, (6, 1), notation.parse("24/18 24/23"))
    assert err.value.reason is IllegalReason.POINT_BLOCKED


def test_bear_off_larger_die_only_from_the_highest_point():
    """R12: a 6 bears off the checker on 4 only when nothing stands on 5 or 6."""
    pos = position({4: 1, 2: 1}, {12: 15})
    assert {m.notation for m in legal_moves(pos, (6, 5))} == {"4/off 2/off"}
    higher = position({5: 1, 3: 1, 2: 1}, {12: 15})
    assert "5/off" in {s.split()[0] for s in (m.notation for m in legal_moves(higher, (6, 1)))}
    outside = position({9: 1, 2: 1}, {12: 15})  # R11: the checker on 9 is still out after 9/8
    with pytest.raises(IllegalMoveError) as err:
        resolve(outside, (2, 1), notation.parse("2/off 9/8"))
    assert err.value.reason is IllegalReason.BEAR_OFF_NOT_ALLOWED


# -- the cascade through the game machine -------------------------------------------------------------


def _moving(turn: int, dice: tuple[int, int], pos: Position) -> game.GameState:
    state = game.new_match(preset("gul_bara"), 1)
    return replace(state, phase=Phase.MOVING, position=pos, dice=dice, steps=(), turn=turn)


def _confirm(state: game.GameState, steps) -> game.Transition:
    for s in steps:
        state = game.act(state, Action(ActionKind.STEP, step=s)).state
    return game.act(state, Action(ActionKind.CONFIRM_MOVE))


def test_a_later_double_played_in_full_goes_on_with_the_next():
    """Throw 4 of the game: 5-5 played in full, then 6-6 by the same side; then the opponent."""
    pos = position({24: 15}, {24: 15})
    start = _moving(4, (5, 5), pos)
    five = legal_steps(pos, (5, 5))
    first = next(m for m in legal_moves(pos, (5, 5)) if m.notation == "24/19(4)")
    after = _confirm(start, first.steps)
    assert after.state.phase is Phase.MOVING and after.state.dice == (6, 6)
    assert after.state.position.on_roll is Side.WHITE and after.state.turn == 4
    assert after.state.position.side(Side.WHITE).points[18] == 4 and five.next_steps
    sixes = legal_moves(after.state.position, (6, 6))
    done = _confirm(after.state, sixes[0].steps)
    assert done.state.phase is Phase.ROLL_OR_DOUBLE and done.state.position.on_roll is Side.BLACK


def test_an_early_double_does_not_cascade():
    pos = position({24: 15}, {24: 15})
    move = legal_moves(pos, (3, 3))[0]
    done = _confirm(_moving(3, (3, 3), pos), move.steps)
    assert done.state.phase is Phase.ROLL_OR_DOUBLE and done.state.position.on_roll is Side.BLACK


def test_a_double_not_played_in_full_ends_the_turn():
    """White's only checker that can move a 4: its fourth 4 is blocked, so 5-5 and 6-6 are lost."""
    # white 24 x1 and 14 home; black's head on white's 12: 24/20/16, then 16/12 is blocked
    pos = position({24: 1, 2: 14}, {20: 1, 24: 14})  # black's 20 is white's 8
    moves = legal_moves(pos, (4, 4))
    assert moves[0].dice_used < 4
    done = _confirm(_moving(9, (4, 4), pos), moves[0].steps)
    assert done.state.phase is Phase.ROLL_OR_DOUBLE and done.state.position.on_roll is Side.BLACK


# -- every RPC ------------------------------------------------------------------------------------


def test_rules_rpcs(stub):
    rules = pb.Ruleset(preset="gul_bara")
    start = stub.GetInitialPosition(api.GetInitialPositionRequest(ruleset=rules)).position
    assert start.board.white.points[23] == 15 and len(start.ids.family_id) == 32
    listed = stub.ListLegalMoves(api.ListLegalMovesRequest(ruleset=rules, position=start, dice=[6, 6]))
    assert [m.notation for m in listed.moves] == ["24/18(4)"] and listed.dice_used == 4
    applied = stub.ApplyMove(api.ApplyMoveRequest(ruleset=rules, position=start, dice=[5, 3],
                                                  move=pb.Move(notation="24/16")))
    assert applied.move.result.on_roll == pb.SIDE_BLACK and applied.move.result.board.white.points[15] == 1
    steps = stub.ListLegalSteps(api.ListLegalStepsRequest(ruleset=rules, position=start, dice=[5, 3]))
    assert {(s.from_point, s.to_point) for s in steps.next_steps} == {(24, 19), (24, 21)}
    with pytest.raises(grpc.RpcError) as err:
        stub.ApplyMove(api.ApplyMoveRequest(ruleset=rules, position=start, dice=[6, 6],
                                            move=pb.Move(notation="24/12")))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("seed", (3, 11, 29))
def test_whole_matches_through_the_referee(stub, seed):
    checker = Checker(SIGNER)
    request = api.NewMatchRequest(ruleset=pb.Ruleset(preset="gul_bara"), length=3)
    final, kinds = play_match(stub, checker, request, seed=seed, list_every=5)
    assert final.phase == G.GAME_PHASE_MATCH_OVER and checker.games >= 1
    assert max(final.match.white_score, final.match.black_score) >= 3
    assert G.ACTION_KIND_DOUBLE not in kinds and final.ruleset.variant == "gul_bara"


def test_cascades_happen_in_random_games():
    """Through the game machine: some confirmed moves leave the same side moving (a cascade)."""
    cascades = 0
    for seed in range(6):
        rng, dice_rng = random.Random(seed), random.Random(seed + 100)
        dice = iter(lambda: dice_rng.randint(1, 6), 0)
        state = game.new_match(preset("gul_bara"), 1)
        for _ in range(5000):
            if state.phase is Phase.MATCH_OVER:
                break
            actions = [a for a in game.list_actions(state)
                       if a.kind not in (ActionKind.RESIGN, ActionKind.UNDO, ActionKind.CLAIM_TIMEOUT)]
            confirm = [a for a in actions if a.kind is ActionKind.CONFIRM_MOVE]
            before = state
            state = game.act(state, confirm[0] if confirm else rng.choice(actions), dice=dice).state
            if confirm and state.phase is Phase.MOVING:
                cascades += 1
                assert state.turn == before.turn > 3 and state.dice[0] == before.dice[0] + 1
                assert state.position.on_roll is before.position.on_roll
        assert state.phase is Phase.MATCH_OVER
    assert cascades > 10
