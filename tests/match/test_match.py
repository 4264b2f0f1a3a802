"""Match score (RULES.md R18, R20, R21): points = kind x cube with the katmerli rule, capped at the
match length; the Crawford game and post-Crawford; match over and winner; the next starter under
the start rule (R3); resignations and forfeits. Properties: scores never exceed what the games
paid, and a Crawford game happens exactly once in a match where a side reaches length - 1."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.core import (
    ActionReason,
    Cube,
    GameEnding,
    GameOutcome,
    IllegalActionError,
    InvalidInputError,
    MatchState,
    ResignationOffer,
    ResultKind,
    Side,
    check_match,
    preset,
    update_match,
)
from tavla.core.game import Action, ActionKind, lowlevel, machine
from tavla.core.match.resign import answer

W, B = Side.WHITE, Side.BLACK
INTL = preset("international")
TURKISH = preset("turkish")
S, G, BG = ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON


def won(winner, kind=S, ending=GameEnding.BORNE_OFF):
    return GameOutcome(winner, ending, kind)


# --- R20: points = result x cube, R17 katmerli rule --------------------------------------------


@pytest.mark.parametrize(
    "kind, cube, rules, paid",
    [
        (S, 1, INTL, 1), (G, 1, INTL, 2), (BG, 1, INTL, 3),
        (S, 2, INTL, 2), (G, 2, INTL, 4), (BG, 2, INTL, 6),  # seed 001's Puanlama examples
        (BG, 1, TURKISH, 2), (BG, 4, replace(TURKISH, cube=True), 8),  # katmerli mars as mars
    ],
)
def test_points_are_kind_times_cube_r20(kind, cube, rules, paid):
    owner = W if cube > 1 else None
    length = 11 if rules is not INTL else 25
    update = update_match(MatchState(length=length, cube=Cube(cube, owner)), rules, won(B, kind))
    assert (update.points_paid, update.points_scored) == (paid, paid)
    assert update.state.scores == (0, paid)


def test_drop_pays_the_cube_before_the_double_r19():
    state = MatchState(length=7, cube=Cube(2, B, B))  # black redoubles to 4, white drops
    update = update_match(state, INTL, won(B, ending=GameEnding.DROP))
    assert (update.points_paid, update.state.scores) == (2, (0, 2))


def test_jacoby_money_play_gammons_count_only_once_the_cube_is_turned():
    jacoby = replace(INTL, jacoby=True)
    assert update_match(MatchState(), jacoby, won(W, G)).points_paid == 1
    assert update_match(MatchState(cube=Cube(2, B)), jacoby, won(W, G)).points_paid == 4
    assert update_match(MatchState(length=7), jacoby, won(W, G)).points_paid == 2  # not in matches


# --- R18: match length, excess points, match over ----------------------------------------------


def test_excess_points_do_not_carry_r18():
    # match0068: a backgammon at cube 2 (6) for a side needing 1
    state = MatchState(length=5, scores=(1, 4), post_crawford=True, cube=Cube(2, W), games_played=2)
    update = update_match(state, INTL, won(B, BG))
    assert (update.points_paid, update.points_scored) == (6, 1)
    assert update.state.scores == (1, 5) and update.state.winner is B and update.state.over


def test_match_over_refuses_more_games():
    over = MatchState(length=3, scores=(3, 1), winner=W)
    with pytest.raises(IllegalActionError) as err:
        update_match(over, INTL, won(B))
    assert err.value.reason is ActionReason.MATCH_OVER


def test_money_play_never_ends_but_by_forfeit():
    state = MatchState()
    for _ in range(30):
        state = update_match(state, INTL, won(W, BG)).state
    assert state.scores == (90, 0) and not state.over and state.games_played == 30
    ended = update_match(state, INTL, won(B, ending=GameEnding.FORFEIT_MATCH)).state
    assert ended.over and ended.winner is B and ended.scores == (90, 1)


@pytest.mark.parametrize("length, allowed", [(1, True), (3, True), (11, True), (2, False), (13, False), (0, False)])
def test_turkish_lengths_r18(length, allowed):
    state = MatchState(length=length)
    if allowed:
        check_match(state, TURKISH)
    else:
        with pytest.raises(InvalidInputError) as err:
            check_match(state, TURKISH)
        assert err.value.field == "match.length"


def test_international_any_length_up_to_64_and_money():
    for length in (0, 1, 2, 13, 25, 64):
        check_match(MatchState(length=length), INTL)
    # R18: every real record format stays within 64 points (GNU Backgammon's limit)
    for length in (65, 1000, 2**30 + 1):
        with pytest.raises(InvalidInputError, match="1-64"):
            check_match(MatchState(length=length), INTL)


# --- R21: the Crawford game ---------------------------------------------------------------------


def test_crawford_game_follows_the_first_time_a_side_reaches_length_minus_one_r21():
    # seed 001's example: 8 in a 9-point match
    state = MatchState(length=9, scores=(6, 3), games_played=4)
    crawford = update_match(state, INTL, won(W, G)).state
    assert crawford.scores == (8, 3) and crawford.crawford and not crawford.post_crawford
    # "Skor olarak geriden gelen oyuncu küpsüz oyunu alırsa, küp yeniden oyuna dahil edilir."
    post = update_match(crawford, INTL, won(B)).state
    assert post.scores == (8, 4) and not post.crawford and post.post_crawford
    again = update_match(post, INTL, won(B, G)).state  # no second Crawford game
    assert again.scores == (8, 6) and not again.crawford and again.post_crawford
    trailer_reaches = update_match(again, INTL, won(B, G)).state
    assert trailer_reaches.scores == (8, 8) and not trailer_reaches.crawford


def test_crawford_game_won_by_the_leader_ends_the_match():
    crawford = MatchState(length=9, scores=(8, 3), crawford=True, games_played=5)
    over = update_match(crawford, INTL, won(W)).state
    assert over.over and over.winner is W and not over.crawford


def test_no_crawford_without_the_rule_or_the_cube():
    state = MatchState(length=9, scores=(6, 3))
    assert not update_match(state, replace(INTL, crawford=False), won(W, G)).state.crawford
    assert not update_match(MatchState(length=9, scores=(6, 3)), replace(TURKISH, match_lengths=()),
                            won(W, G)).state.crawford


def test_jumping_past_length_minus_one_is_no_crawford():
    assert not update_match(MatchState(length=7, scores=(4, 0)), INTL, won(W)).state.crawford  # 5
    after = update_match(MatchState(length=7, scores=(4, 2)), INTL, won(B, BG)).state
    assert after.scores == (4, 5) and not after.crawford


@pytest.mark.parametrize(
    "state, field",
    [
        (MatchState(length=7, scores=(6, 2)), "match.crawford"),  # flags missing at 6
        (MatchState(length=7, scores=(5, 2), crawford=True), "match.crawford"),  # nobody at 6
        (MatchState(length=7, scores=(6, 6), crawford=True), "match.crawford"),  # both at 6
        (MatchState(length=7, scores=(5, 2), post_crawford=True), "match.post_crawford"),
        (MatchState(length=7, scores=(6, 2), crawford=True, post_crawford=True), "match.crawford"),
        (MatchState(length=7, scores=(7, 2)), "match.white_score"),  # at the length, no winner
    ],
)
def test_inconsistent_match_states_are_bad_input(state, field):
    with pytest.raises(InvalidInputError) as err:
        check_match(state, INTL)
    assert err.value.field == field


# --- R3: who starts the next game ---------------------------------------------------------------


def test_next_starter_turkish_is_the_winner_international_rolls_off():
    assert update_match(MatchState(length=5), TURKISH, won(B)).next_starter is B
    assert update_match(MatchState(length=7), INTL, won(B)).next_starter is None
    assert update_match(MatchState(length=1), TURKISH, won(B)).next_starter is None  # match over


# --- resignations and forfeits ------------------------------------------------------------------


def test_resignation_offer_and_answer():
    state = MatchState(length=7, cube=Cube(2, W))
    offer = ResignationOffer(B, G)
    accepted = Action(ActionKind.ACCEPT_RESIGNATION, W)  # what OfferResignation prices an offer at
    assert machine.answer_resignation(lowlevel.answering(INTL, state, offer), accepted).points == 4
    assert answer(state, INTL, offer, accept=False) is None
    outcome = answer(state, INTL, offer, accept=True)
    assert outcome == GameOutcome(W, GameEnding.RESIGNATION, G)
    assert update_match(state, INTL, outcome).state.scores == (4, 0)


def test_forfeits():
    state = MatchState(length=13, scores=(3, 11), cube=Cube(4, B), games_played=9)
    game = update_match(state, INTL, won(B, S, GameEnding.FORFEIT_GAME))
    assert (game.points_paid, game.points_scored, game.state.winner) == (4, 2, B)
    match = update_match(MatchState(length=13, scores=(3, 1)), INTL, won(W, S, GameEnding.FORFEIT_MATCH))
    assert (match.points_paid, match.points_scored, match.state.scores) == (10, 10, (13, 1))
    assert match.state.winner is W


# --- properties ---------------------------------------------------------------------------------

# the endings every variant has (MOTHER_PINNED and DRAW end only plakoto: tests/variants)
endings = st.sampled_from([e for e in GameEnding if e not in (GameEnding.MOTHER_PINNED, GameEnding.DRAW)])
kinds = st.sampled_from(list(ResultKind))
games = st.lists(st.tuples(st.sampled_from(list(Side)), endings, kinds, st.sampled_from([0, 1, 2, 3, 4, 5, 6])),
                 min_size=1, max_size=80)


def play(length: int, results, rules=INTL):
    """Play games until the match ends; returns [(state before, update)]."""
    state = MatchState(length=length)
    played = []
    for winner, ending, kind, log_cube in results:
        if state.over:
            break
        cube = 1 if state.crawford or not rules.cube else 2 ** log_cube
        # the loser took the last double, except on a drop, where the winner doubled (R19)
        owner = winner if ending is GameEnding.DROP else winner.other
        before = replace(state, cube=Cube(cube, None if cube == 1 else owner))
        update = update_match(before, rules, GameOutcome(winner, ending, kind))
        played.append((before, update))
        state = update.state
    return played


@settings(max_examples=400)
@given(st.integers(1, 25), games, st.sampled_from([INTL, TURKISH, replace(INTL, crawford=False)]))
def test_scores_never_exceed_what_the_games_paid(length, results, rules):
    rules = replace(rules, match_lengths=())
    paid = {W: 0, B: 0}
    for before, update in play(length, results, rules):
        winner = update.state.previous_winner
        paid[winner] += update.points_paid
        assert 0 <= update.points_scored <= update.points_paid
        after = update.state
        assert after.score(W) <= paid[W] and after.score(B) <= paid[B]
        assert after.score(W) + after.score(B) == before.score(W) + before.score(B) + update.points_scored
        assert max(after.scores) <= length
        assert after.over == (max(after.scores) == length)


@settings(max_examples=400)
@given(st.integers(2, 25), games)
def test_a_crawford_game_happens_exactly_once_when_a_side_reaches_length_minus_one(length, results):
    played = play(length, results)
    crawford_games = sum(before.crawford for before, _ in played)
    reached = any(length - 1 in u.state.scores and not u.state.over for _, u in played)
    # the Crawford game is played when the match has not ended at it
    assert crawford_games <= 1
    if crawford_games == 0 and reached:
        # reached only by the last update: the Crawford game is the next, not yet played
        last = played[-1][1].state
        assert last.crawford
    if crawford_games == 1:
        index = next(i for i, (before, _) in enumerate(played) if before.crawford)
        assert length - 1 in played[index][0].scores
        assert all(length - 1 not in b.scores for b, _ in played[:index])  # first time reached
        assert all(not b.crawford for b, _ in played[index + 1:])
    if not reached:
        assert crawford_games == 0
