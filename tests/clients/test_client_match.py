"""The Python client plays whole matches with its helpers only: no request messages, no
stub, no enum numbers. An international 3-point match (cube, checker-by-checker steps for white,
whole moves for black, the clock) and a Turkish 3-point match ended by a resignation, against the
session server; each answer's GameOutcome goes to UpdateMatch unchanged."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tavla.client import AsyncClient, Client, EngineError, match_state
from tavla.v1 import match_pb2
from tavla.v1 import types_pb2 as pb

MAX_TURNS = 3000  # a game of backgammon ends with probability 1; this only stops a bug


def _play_turn_by_steps(engine: Client, position, dice, match):
    """Drag checkers one step at a time, always the first step offered; the complete answer."""
    steps = []
    answer = engine.legal_steps(position, dice, steps, match=match)
    while not answer.complete:
        step = answer.next_steps[0]
        steps.append((step.from_point, step.to_point, step.die))
        answer = engine.legal_steps(position, dice, steps, match=match)
    assert answer.position.on_roll == position.on_roll  # the turn is still the mover's
    return answer.move.result, answer.HasField("outcome"), answer.outcome


def _play_game(engine: Client, match, clock):
    start = engine.start_game(match)
    assert list(start.dice) == sorted(start.dice, reverse=True)  # every roll: larger first
    position, dice = start.position, list(start.dice)
    for _ in range(MAX_TURNS):
        side = "white" if position.on_roll == pb.SIDE_WHITE else "black"
        if not dice:
            options = engine.cube_actions(match, side)
            if match_pb2.CUBE_ACTION_DOUBLE in options.actions and match.cube.value == 1:
                match = engine.apply_cube_action(match, side, "double").match
                other = "black" if side == "white" else "white"
                match = engine.apply_cube_action(match, other, "take").match
            roll = engine.roll_dice(position=position)
            assert roll.name.numbers == f"{roll.dice[0]}-{roll.dice[1]}"
            dice = list(roll.dice)
        if side == "white":
            position, over, outcome = _play_turn_by_steps(engine, position, dice, match)
        else:
            played = engine.apply_move(position, dice, engine.legal_moves(position, dice)[0], match=match)
            position, over, outcome = played.move.result, played.HasField("outcome"), played.outcome
        ticked = engine.advance_clock(side, timedelta(milliseconds=1500), settings={"preset": "CLOCK_PRESET_RESERVE"},
                                      state=clock)
        assert ticked.charged.ToMilliseconds() == 0  # R24: inside the 12 s free per move
        assert not ticked.HasField("forfeit")
        clock = ticked.state
        dice = []
        if over:
            scored = engine.score_game(position, match=match)
            assert scored.outcome == outcome  # the same end of the game from both RPCs
            return match, outcome, clock
    raise AssertionError("the game did not end")


def test_an_international_match_with_helpers_only(server_address: str) -> None:
    with Client(server_address, ruleset="international") as engine:
        assert engine.resolve_ruleset().ruleset.crawford
        names = [p.name for p in engine.list_rulesets().presets]
        assert names[:2] == ["international", "turkish"] and {"portes", "nackgammon", "hypergammon"} <= set(names)
        match, clock, games = match_state(3), None, 0
        while True:
            match, outcome, clock = _play_game(engine, match, clock)
            assert outcome.ending == match_pb2.GAME_ENDING_BORNE_OFF and outcome.points >= match.cube.value
            update = engine.update_match(match, outcome)
            games += 1
            assert update.points_scored == min(outcome.points, 3 - (match.white_score if outcome.winner == 1
                                                                    else match.black_score))
            match = update.match
            if update.match.winner:  # the match is over
                break
        assert max(match.white_score, match.black_score) == 3 and match.games_played == games
        try:
            engine.start_game(match)
        except EngineError as err:
            assert err.reason == "MATCH_OVER"
        else:
            raise AssertionError("a finished match starts no game")


def test_the_asyncio_client_has_the_same_helpers(server_address: str) -> None:
    async def run() -> tuple:
        async with AsyncClient(server_address, ruleset="turkish", locale="tr") as engine:
            start = await engine.start_game(match_state(5), roll_off=[(2, 5)], dice=[1, 3])
            steps = await engine.legal_steps(start.position, start.dice, [(24, 21)])
            ruleset = await engine.resolve_ruleset()
            try:
                await engine.apply_move(start.position, start.dice, "13/8")
            except EngineError as err:
                return list(start.dice), list(steps.dice_left), ruleset.ruleset.crawford, err.localized
            return ()

    dice, left, crawford, message = asyncio.run(run())
    assert (dice, left, crawford) == ([3, 1], [1], False)
    assert message == "Bu hamle se yek (3-1) zarıyla oynanamaz."


def test_a_turkish_match_with_helpers_only(server_address: str) -> None:
    with Client(server_address, ruleset="tavla", locale="tr") as engine:
        match = match_state(3)
        name = engine.name_roll([6, 5]).name
        assert (name.turkish, name.numbers) == ("şeşbeş", "6-5")
        commitment = engine.commit_dice(client_seed="ali:1 ayşe:2")
        start = engine.start_game(match, seed={"token": commitment.token, "client_seed": "ali:1 ayşe:2"})
        assert start.proof.commitment == commitment.commitment and start.roll_off
        # the request holds one source of dice (its oneof): given dice and a seed are refused here
        with pytest.raises(ValueError, match="or a seed, not both"):
            engine.start_game(match, roll_off=[(2, 5)], dice=[1, 3], seed={"token": commitment.token})
        # the side on roll resigns a mars at once; the other accepts: 2 points (R16)
        loser = "white" if start.starter == pb.SIDE_WHITE else "black"
        offer = engine.offer_resignation(match, (loser, "mars"))
        assert offer.outcome.points == 2
        answer = engine.answer_resignation(match, (loser, "mars"), accept=True)
        update = engine.update_match(match, answer.outcome)
        match = update.match
        assert update.next_starter == update.match.previous_winner != pb.SIDE_UNSPECIFIED
        # the next game starts without a roll-off (R3, Turkish) and is played to its end
        while not update.match.winner:
            nxt = engine.start_game(match)
            assert not nxt.roll_off and nxt.starter == match.previous_winner
            match, outcome, _ = _play_game(engine, match, None)
            update = engine.update_match(match, outcome)
            match = update.match
        assert update.match.winner in (pb.SIDE_WHITE, pb.SIDE_BLACK)
        try:
            engine.apply_move("4HPwATDgc/ABMA", (5, 1), "13/8")
        except EngineError as err:  # the player's sentence, in Turkish
            assert err.locale == "tr" and "iki zar da oynanabiliyor" in err.localized
        else:
            raise AssertionError("13/8 with 5-1 is illegal (R7)")
