"""Dice on the wire are converted once (convert.dice_from_proto, then the core's check_dice) for
every RPC that takes a roll, so RenderPosition refuses bad dice with the very field and reason
ListLegalMoves gives (R3: a roll is two dice of 1-6), and a huge repeated field is cut off before
any work."""

from __future__ import annotations

import pytest
from statuses import field_violations, rich_status

import rpc_api as api
from tavla.v1 import types_pb2 as pb

START = pb.Position(position_id="4HPwATDgc/ABMA")


@pytest.mark.parametrize("dice", [[5], [5, 1, 2], [0, 3], [7, 1], list(range(1, 7)) * 3, [1] * 1000])
def test_render_and_list_refuse_bad_dice_alike(engine, dice):
    render = field_violations(rich_status(engine, "RenderPosition",
                                          api.RenderPositionRequest(position=START, dice=dice)))
    listed = field_violations(rich_status(engine, "ListLegalMoves",
                                          api.ListLegalMovesRequest(position=START, dice=dice)))
    assert render == listed
    assert [field for field, _ in render] == ["dice"]


def test_too_many_dice_are_refused_by_count_not_read(engine):
    [(field, reason)] = field_violations(rich_status(engine, "RenderPosition",
                                                     api.RenderPositionRequest(position=START, dice=[1] * 1000)))
    assert (field, reason) == ("dice", "has 1000 elements; at most 16")  # the declared bound, before any die is read


def test_render_with_good_dice_still_draws_them(engine):
    answer = engine.RenderPosition(api.RenderPositionRequest(position=START, dice=[6, 5]), timeout=10)
    assert answer.svg.startswith("<svg") and answer.text
