"""Every variant through the referee from the Python client: one whole 3-point match
of each preset ``ListRulesets`` lists, by NewMatch / ListActions / Act against a live server,
random legal actions (seeded), checking that it ends with a winner (a plakoto game may end
drawn, GAME_ENDING_DRAW, and the match goes on), and that the score adds up: each won game
adds its points, capped at what the winner needed (R18), a draw adds nothing."""

from __future__ import annotations

import random

import pytest

from tavla.client import Client
from tavla.v1 import game_pb2
from tavla.v1 import match_pb2
from tavla.v1 import types_pb2 as pb

VARIANT_PRESETS = ["international", "turkish", "portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy"]
MAX_ACTIONS = 20_000  # per match: a guard against a match that never ends, not a speed figure
# what a random player does: play on (never resign or double, so the match is played out)
PLAYING = {game_pb2.ACTION_KIND_START_GAME, game_pb2.ACTION_KIND_ROLL, game_pb2.ACTION_KIND_STEP,
           game_pb2.ACTION_KIND_CONFIRM_MOVE, game_pb2.ACTION_KIND_TAKE}


def test_every_variant_is_a_preset(server_address: str) -> None:
    with Client(server_address) as c:
        listed = {p.name: p.ruleset.variant for p in c.list_rulesets().presets}
    assert set(VARIANT_PRESETS) <= set(listed), listed
    assert {listed[p] for p in VARIANT_PRESETS} == {"backgammon", "tavla", "portes", "nackgammon", "hypergammon",
                                                    "plakoto", "fevga", "long_nardy"}


@pytest.mark.parametrize("preset", VARIANT_PRESETS)
def test_a_whole_match_of_every_variant(server_address: str, preset: str) -> None:
    rng = random.Random(f"variant-{preset}")
    with Client(server_address, ruleset=preset) as c:
        answer = c.new_match(3)
        state, view, actions = answer.state, answer.view, list(answer.actions)
        assert view.ruleset.preset == preset
        length = view.match.length
        scores = {pb.SIDE_WHITE: 0, pb.SIDE_BLACK: 0}
        games = draws = 0
        for _ in range(MAX_ACTIONS):
            if not actions:
                break
            playing = [a for a in actions if a.kind in PLAYING] or actions
            answer = c.act(state, rng.choice(playing))
            state, view, actions = answer.state, answer.view, list(answer.actions)
            if answer.events.HasField("outcome"):
                games += 1
                out = answer.events.outcome
                if out.winner == pb.SIDE_UNSPECIFIED:
                    # only plakoto draws (both mothers pinned), and a draw scores nothing
                    assert preset == "plakoto" and out.ending == match_pb2.GAME_ENDING_DRAW, out
                    draws += 1
                else:
                    scores[out.winner] += min(out.points, length - scores[out.winner])
                assert (view.match.white_score, view.match.black_score) == (scores[pb.SIDE_WHITE], scores[pb.SIDE_BLACK])
        # the match is over: no action left, a winner with the match's length
        assert view.phase == game_pb2.GAME_PHASE_MATCH_OVER and not actions, view.phase
        assert view.match.winner in (pb.SIDE_WHITE, pb.SIDE_BLACK)
        assert scores[view.match.winner] == length and scores[3 - view.match.winner] < length
        assert 1 <= games - draws <= 2 * length - 1  # won games: at least one, at most a game short of both at length
        assert view.ruleset.cube == (preset in ("international", "nackgammon", "hypergammon"))
        assert c.list_actions(state).actions == []
