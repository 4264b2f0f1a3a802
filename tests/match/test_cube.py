"""The doubling cube (RULES.md R19-R21): who may double and when, take / drop / beaver, the cube
limit, the Crawford game, the dead cube in match play; and the property that the cube stays a
power of two no higher than 64 whatever legal actions are taken."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.core import (
    ActionReason,
    Cube,
    CubeAction,
    GameEnding,
    GameOutcome,
    ResultKind,
    points_paid,
    CubeError,
    InvalidInputError,
    MatchState,
    Side,
    apply_cube_action,
    check_match,
    cube_options,
    preset,
)

W, B = Side.WHITE, Side.BLACK
INTL = preset("international")
MONEY = MatchState()
D, T, P, BV = CubeAction.DOUBLE, CubeAction.TAKE, CubeAction.DROP, CubeAction.BEAVER


def refused(state, side, action, rules=INTL) -> ActionReason:
    with pytest.raises(CubeError) as err:
        apply_cube_action(state, rules, side, action)
    return err.value.reason


def test_centred_cube_either_side_may_double_r19():
    for side in Side:
        assert cube_options(MONEY, INTL, side).actions == (D,)


def test_double_then_take_doubles_and_passes_the_cube_r19():
    offered = apply_cube_action(MONEY, INTL, W, D).state
    assert offered.cube == Cube(1, None, W)
    assert cube_options(offered, INTL, B).actions == (T, P)
    assert cube_options(offered, INTL, W).actions == ()  # the doubler waits
    taken = apply_cube_action(offered, INTL, B, T).state
    assert taken.cube == Cube(2, B, None)
    assert cube_options(taken, INTL, W).denial is ActionReason.CUBE_OWNED_BY_OPPONENT
    assert cube_options(taken, INTL, B).actions == (D,)  # the owner may redouble
    redoubled = apply_cube_action(apply_cube_action(taken, INTL, B, D).state, INTL, W, T).state
    assert redoubled.cube == Cube(4, W, None)


def test_drop_ends_the_game_the_doubler_wins_the_value_before_the_double_r19():
    # seed 001: "Reddederse zarı gösteren 1 puanı ... alır", and at 4 the doubler takes 2.
    state = replace(MONEY, cube=Cube(2, W))
    result = apply_cube_action(apply_cube_action(state, INTL, W, D).state, INTL, B, P)
    assert result.outcome is not None
    assert (result.outcome.winner, result.outcome.ending) == (W, GameEnding.DROP)
    assert result.state.cube == Cube(2, W)


def test_cube_limit_64_r19():
    at_limit = replace(MONEY, cube=Cube(64, W))
    assert cube_options(at_limit, INTL, W).denial is ActionReason.CUBE_AT_LIMIT
    assert refused(at_limit, W, D) is ActionReason.CUBE_AT_LIMIT
    assert cube_options(replace(MONEY, cube=Cube(32, W)), INTL, W).actions == (D,)
    bigger = replace(INTL, cube_limit=1024)  # the match records' CubeLimit header
    assert cube_options(at_limit, bigger, W).actions == (D,)


def test_no_cube_in_the_crawford_game_r21():
    crawford = MatchState(length=9, scores=(8, 3), crawford=True)
    for side in Side:
        assert cube_options(crawford, INTL, side).denial is ActionReason.CRAWFORD_GAME
        assert refused(crawford, side, D) is ActionReason.CRAWFORD_GAME


def test_post_crawford_the_trailer_doubles_the_leader_is_dead_r21():
    post = MatchState(length=9, scores=(8, 3), post_crawford=True)
    assert cube_options(post, INTL, B).actions == (D,)
    assert cube_options(post, INTL, W).denial is ActionReason.DEAD_CUBE


def test_dead_cube_in_match_play():
    # black needs 2: at cube 2 a single win already wins the match, so redoubling is dead
    state = MatchState(length=7, scores=(3, 5), cube=Cube(2, B))
    assert cube_options(state, INTL, B).denial is ActionReason.DEAD_CUBE
    assert refused(state, B, D) is ActionReason.DEAD_CUBE
    assert cube_options(replace(state, cube=Cube(2, W)), INTL, W).actions == (D,)  # white needs 4
    assert cube_options(MatchState(length=1), INTL, W).denial is ActionReason.DEAD_CUBE  # 1-pointer


def test_cube_disabled_turkish():
    turkish = preset("turkish")
    state = MatchState(length=5)
    assert cube_options(state, turkish, W).denial is ActionReason.CUBE_DISABLED
    assert refused(state, W, D, turkish) is ActionReason.CUBE_DISABLED


def test_answers_need_a_pending_double_and_the_other_side():
    assert refused(MONEY, B, T) is ActionReason.NO_DOUBLE_PENDING
    offered = apply_cube_action(MONEY, INTL, W, D).state
    assert refused(offered, W, T) is ActionReason.NOT_YOUR_DECISION
    assert refused(offered, B, D) is ActionReason.DOUBLE_PENDING


def test_beavers_money_play_only():
    beavers = replace(INTL, beavers=True)
    offered = apply_cube_action(MONEY, beavers, W, D).state
    assert cube_options(offered, beavers, B).actions == (T, P, BV)
    beavered = apply_cube_action(offered, beavers, B, BV).state
    assert beavered.cube == Cube(2, B, B, 1)  # black took (2, its cube) and redoubled to 4
    assert refused(offered, B, BV) is ActionReason.BEAVER_NOT_ALLOWED  # beavers off
    match_offered = apply_cube_action(MatchState(length=7), beavers, W, D).state
    assert BV not in cube_options(match_offered, beavers, B).actions
    assert refused(match_offered, B, BV, beavers) is ActionReason.BEAVER_NOT_ALLOWED
    near_limit = apply_cube_action(replace(MONEY, cube=Cube(32, W)), beavers, W, D).state
    assert BV not in cube_options(near_limit, beavers, B).actions  # 32 x 4 passes 64


def test_match_over_refuses_cube_actions():
    over = MatchState(length=7, scores=(7, 2), winner=W)
    assert cube_options(over, INTL, W).actions == ()
    assert refused(over, W, D) is ActionReason.MATCH_OVER


RC = CubeAction.RACCOON
BEAVERS = replace(INTL, beavers=True)


def test_after_a_beaver_the_doubler_takes_drops_or_raccoons():
    """After a beaver the original doubler answers (money play, beavers on), as GNU
    Backgammon's `set beavers`: take (cube 4, the beaver keeps it), drop (pays 2: the stake the
    beaver took), or raccoon (cube 8 once taken, still the beaver's). R19."""
    offered = apply_cube_action(MONEY, BEAVERS, W, D).state
    beavered = apply_cube_action(offered, BEAVERS, B, BV).state
    assert cube_options(beavered, BEAVERS, W).actions == (T, P, RC)
    assert cube_options(beavered, BEAVERS, B).actions == ()  # black waits for white's answer
    assert apply_cube_action(beavered, BEAVERS, W, T).state.cube == Cube(4, B)
    dropped = apply_cube_action(beavered, BEAVERS, W, P)
    assert dropped.outcome == GameOutcome(B, GameEnding.DROP)
    assert points_paid(dropped.outcome, dropped.state, BEAVERS) == 2
    assert refused(beavered, B, T, BEAVERS) is ActionReason.NOT_YOUR_DECISION
    raccooned = apply_cube_action(beavered, BEAVERS, W, RC).state
    assert raccooned.cube == Cube(4, B, W, 2)
    assert check_match(raccooned, BEAVERS) == raccooned
    assert cube_options(raccooned, BEAVERS, B).actions == (T, P)  # no raccoon of a raccoon
    assert apply_cube_action(raccooned, BEAVERS, B, T).state.cube == Cube(8, B)
    lost = apply_cube_action(raccooned, BEAVERS, B, P)
    assert lost.outcome == GameOutcome(W, GameEnding.DROP)
    assert points_paid(lost.outcome, lost.state, BEAVERS) == 4
    assert refused(offered, B, RC, BEAVERS) is ActionReason.RACCOON_NOT_ALLOWED


class GnubgCube:
    """GNU Backgammon's cube bookkeeping, as its match-state update (play.c, ApplyMoveRecord)
    documents it, modelled independently as the oracle of the raccoon decision: the side
    ``on_roll`` (gnubg's fMove) doubles; a redouble while doubled (beaver, then raccoon) doubles
    the cube and gives it to the side NOT on roll; a take doubles it and gives it to the side not
    on roll; a drop pays the cube's value before the answer to the side that did not drop."""

    def __init__(self, on_roll: Side) -> None:
        self.on_roll, self.value, self.owner, self.doubled, self.turn = on_roll, 1, None, False, on_roll

    def act(self, action: CubeAction) -> tuple[Side, int] | None:
        """Apply ``action`` by the side whose turn it is; a drop returns (winner, points)."""
        if action is CubeAction.DOUBLE:
            self.doubled = True
        elif action in (CubeAction.BEAVER, CubeAction.RACCOON):  # gnubg's "redouble"
            self.value, self.owner = 2 * self.value, self.on_roll.other
        elif action is CubeAction.TAKE:
            self.value, self.owner, self.doubled, self.turn = 2 * self.value, self.on_roll.other, False, self.on_roll
            return None
        else:
            return self.turn.other, self.value
        self.turn = self.turn.other
        return None


@pytest.mark.parametrize("answers", [(T,), (P,), (BV, T), (BV, P), (BV, RC, T), (BV, RC, P)])
def test_beaver_and_raccoon_follow_gnubg(answers):
    """After a raccoon the cube stays the beaver's, as in GNU Backgammon: its redouble (a beaver
    or a raccoon) and its take both give the cube to the side not on roll, which is the side that
    beavered (play.c, ApplyMoveRecord, MOVE_DOUBLE / MOVE_TAKE). A raccoon is the doubler's
    redouble, not a take, so the cube does not pass to the raccooner; dropped, each answer pays
    the cube's value before it (R19)."""
    oracle, match, mover = GnubgCube(W), MONEY, W
    for action in (D, *answers):
        result = apply_cube_action(match, BEAVERS, mover, action)
        dropped = oracle.act(action)
        match = result.state
        if dropped is not None:
            assert result.outcome is not None
            assert (result.outcome.winner, points_paid(result.outcome, match, BEAVERS)) == dropped
            return
        assert (match.cube.value, match.cube.owner) == (oracle.value, oracle.owner)
        if oracle.doubled:
            assert match.cube.decider is oracle.turn
            mover = oracle.turn
    assert match.cube == Cube(oracle.value, oracle.owner)


def test_a_centred_cube_above_one_is_money_plays_automatic_double():
    """Automatic doubles (money play) leave the cube centred above 1; either side may
    double it (R19), and Jacoby still counts it as unturned."""
    auto = replace(MONEY, cube=Cube(2, None))
    assert check_match(auto, INTL) == auto
    assert cube_options(auto, INTL, W).actions == (D,)
    assert cube_options(auto, INTL, B).actions == (D,)
    assert apply_cube_action(apply_cube_action(auto, INTL, B, D).state, INTL, W, T).state.cube == Cube(4, W)
    jacoby = replace(INTL, jacoby=True)
    assert points_paid(GameOutcome(W, GameEnding.BORNE_OFF, ResultKind.GAMMON), auto, jacoby) == 2


@pytest.mark.parametrize(
    "state, field",
    [
        (replace(MONEY, cube=Cube(3, W)), "match.cube.value"),  # not a power of two
        (replace(MONEY, cube=Cube(128, W)), "match.cube.value"),  # over the limit
        (replace(MONEY, cube=Cube(1, W)), "match.cube.owner"),  # owned at 1
        (MatchState(length=7, cube=Cube(2, None)), "match.cube.owner"),  # centred at 2 in a match
        (replace(MONEY, cube=Cube(2, W, B)), "match.cube.offered_by"),  # doubling the other's cube
        (replace(MONEY, cube=Cube(64, W, W)), "match.cube.offered_by"),  # a double past 64
        (MatchState(length=9, scores=(8, 3), crawford=True, cube=Cube(2, W)), "match.cube"),
    ],
)
def test_inconsistent_cubes_are_bad_input(state, field):
    with pytest.raises(InvalidInputError) as err:
        check_match(state, INTL)
    assert err.value.field == field


@settings(max_examples=300)
@given(st.lists(st.tuples(st.sampled_from(list(Side)), st.sampled_from(list(CubeAction))), max_size=60),
       st.booleans(), st.sampled_from([0, 1, 3, 7, 25]))
def test_cube_stays_a_power_of_two_up_to_64(actions, beavers, length):
    rules = replace(INTL, beavers=beavers)
    state = MatchState(length=length)
    for side, action in actions:
        legal = cube_options(state, rules, side).actions
        try:
            result = apply_cube_action(state, rules, side, action)
        except CubeError:
            assert action not in legal  # refused exactly when not listed
            continue
        assert action in legal
        if result.outcome is not None:
            state = MatchState(length=length)  # a drop ends the game; the next starts centred
            continue
        state = check_match(result.state, rules)
        value = state.cube.value
        assert value & (value - 1) == 0 and 1 <= value <= 64
