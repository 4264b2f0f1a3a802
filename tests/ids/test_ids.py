"""Match IDs, GNUBG IDs and XGIDs (docs/formats.md): fixed gnubg vectors, public vectors,
exact round trips (Hypothesis) and a live differential test against GNU Backgammon."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.core import InvalidInputError, MatchState, Position, Side, legal_moves
from tavla.core.ids import match_id
from tavla.core.ids import position_id
from tavla.core.ids import xgid
from tavla.core.ids.match_id import GameState, MatchKey
from tavla.core.match.state import Cube
from tavla.core.ids.xgid import Xgid

from gnubg_child import GnubgChild

VECTORS = json.loads((Path(__file__).parent.parent / "data" / "ids" / "gnubg_vectors.json").read_text())
PLAYER_SIDE = {0: Side.WHITE, 1: Side.BLACK}


def _key_of_vector(v: dict) -> MatchKey:
    return MatchKey(
        cube_value=v["cube"], cube_owner=None if v["cube_owner"] == -1 else PLAYER_SIDE[v["cube_owner"]],
        on_roll=PLAYER_SIDE[v["move"]], crawford=bool(v["crawford"]), game_state=GameState(v["gamestate"]),
        turn=PLAYER_SIDE[v["turn"]], doubled=bool(v["doubled"]), resigned=v["resigned"],
        dice=tuple(v["dice"]), length=v["length"], scores=tuple(v["score"]), jacoby=bool(v["jacoby"]),
    )


def _larger_first(dice):
    # gnubg writes the larger die first in the IDs it makes; our codecs keep the order given
    return tuple(sorted(dice, reverse=True))


# ---------------------------------------------------------------------------------------------
# Fixed vectors written by gnubg (tests/data/ids/generate_vectors.py)


def test_vector_file_covers_every_field():
    keys = [_key_of_vector(v) for v in VECTORS["match_ids"]]
    assert len(keys) == 400
    assert {k.game_state for k in keys} == set(GameState)
    assert {k.resigned for k in keys} == {0, 1, 2, 3}
    assert any(k.doubled for k in keys) and any(k.crawford for k in keys) and any(k.jacoby for k in keys)
    assert {k.cube_owner for k in keys} == {None, Side.WHITE, Side.BLACK}
    assert max(k.cube_value for k in keys) == 2**15


@pytest.mark.parametrize("i", range(0, 400, 1))
def test_match_id_vectors(i):
    v = VECTORS["match_ids"][i]
    key = _key_of_vector(v)
    assert match_id.encode(key) == v["match_id"]
    assert match_id.decode(v["match_id"]) == key


def test_xgid_vectors_give_gnubgs_gnubg_id():
    """XGID -> (our decoder) -> GNUBG ID (our encoder) equals what gnubg makes of the XGID."""
    assert len(VECTORS["xgids"]) == 308
    for v in VECTORS["xgids"]:
        x = xgid.decode(v["xgid"])
        key = MatchKey(cube_value=x.cube_value, cube_owner=x.cube_owner, on_roll=x.position.on_roll,
                       crawford=x.crawford, turn=x.turn, dice=_larger_first(x.dice), length=x.length,
                       scores=x.scores, jacoby=x.jacoby)
        assert match_id.encode_gnubg_id(x.position, key) == v["gnubg_id"], v["xgid"]
        assert xgid.encode(x) == v["xgid"]  # every vector is canonical
        position, back = match_id.decode_gnubg_id(v["gnubg_id"])
        assert position == x.position and back == key


# ---------------------------------------------------------------------------------------------
# Public vectors (quoted in documentation of XGID and gnubg tools)


def test_start_position_ids():
    start = Position.initial(Side.WHITE)
    assert xgid.encode(Xgid(start)) == "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10"
    assert xgid.encode(Xgid(start.swap_turn())) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert match_id.encode_gnubg_id(start, MatchKey()) == "4HPwATDgc/ABMA:MAEAAAAAAAAE"


def test_public_gnubg_ids():
    # "gnubg=4HPwATDgc/ABMA:cAkAAAAAAAAA" (bgboard README): written without bit 67, so Jacoby on
    position, key = match_id.decode_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert position == Position.initial(Side.BLACK)
    assert key == MatchKey(on_roll=Side.BLACK, turn=Side.BLACK, jacoby=True)
    # gnuid2xgid(pos_id = "4HPwATDgc/ABMA", match_id = "8IhuACAACAAE") (R package backgammon)
    assert match_id.decode("8IhuACAACAAE") == MatchKey(
        on_roll=Side.BLACK, turn=Side.BLACK, crawford=True, game_state=GameState.NONE, dice=(5, 3),
        length=3, scores=(2, 1))


def test_public_xgids():
    x = xgid.decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:21:0:0:3:0:10")
    assert x.position == Position.initial(Side.BLACK) and x.dice == (2, 1) and x.jacoby and x.beavers
    x = xgid.decode("XGID=b-----B------------c-----C:0:0:1:00:0:0:0:0:8")
    assert x.position.side(Side.WHITE).bar == 2 and x.position.side(Side.BLACK).bar == 3
    assert x.position.side(Side.BLACK).points[5] == 2  # B on X's 6 point
    assert x.position.side(Side.WHITE).points[5] == 3  # c on X's 19 = O's 6
    assert x.max_cube_log2 == 8
    x = xgid.decode("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:3:2:0:7:10")
    assert (x.cube_value, x.cube_owner, x.scores, x.length, x.dice) == (2, Side.BLACK, (2, 3), 7, (5, 2))


def test_double_offered_xgid():
    # X (black) doubled O (white) to 4: white must answer, black is on roll
    x = xgid.decode("XGID=-b----E-C---eE---c-e----B-:1:1:-1:D:2:4:0:7:10")
    assert x.position.on_roll is Side.BLACK and x.turn is Side.WHITE and x.cube_action == "D"
    key = MatchKey(cube_value=2, cube_owner=Side.BLACK, on_roll=Side.BLACK, turn=Side.WHITE, doubled=True,
                   length=7, scores=(4, 2))
    state = match_id.match_of_key(key)
    assert state.cube == Cube(2, Side.BLACK, Side.BLACK)
    assert match_id.key_of_match(state) == key


# ---------------------------------------------------------------------------------------------
# MatchState <-> Match ID


def test_match_state_round_trip_and_crawford_flags():
    state = MatchState(length=7, scores=(6, 3), post_crawford=True, cube=Cube(4, Side.BLACK))
    key = match_id.key_of_match(state, Side.BLACK)
    assert (key.on_roll, key.cube_value, key.cube_owner, key.crawford) == (Side.BLACK, 4, Side.BLACK, False)
    assert match_id.match_of_key(key) == state
    # without the Crawford rule the same score is not post-Crawford (R21)
    assert match_id.match_of_key(key, crawford_rule=False).post_crawford is False
    crawford = MatchState(length=7, scores=(6, 3), crawford=True)
    assert match_id.match_of_key(match_id.key_of_match(crawford)) == crawford


def test_finished_match_has_a_winner():
    state = MatchState(length=5, scores=(5, 2), winner=Side.WHITE, games_played=4)
    key = match_id.key_of_match(state)
    assert key.game_state is GameState.OVER
    assert match_id.match_of_key(key).winner is Side.WHITE


# ---------------------------------------------------------------------------------------------
# Malformed input


def _raw_match_id(extra_bits: int = 0, **raw: int) -> str:
    """A Match ID packed from raw field values, bypassing the encoder's checks."""
    import base64

    values = {"owner": 3, "state": 1, "no_jacoby": 1, **raw}
    bits, n = 0, 0
    for name, width in match_id._LAYOUT:
        bits |= values.get(name, 0) << n
        n += width
    bits |= extra_bits << n
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


@pytest.mark.parametrize("text, why", [
    ("", "12 base64"), ("MAEAAAAAAAA", "12 base64"), ("MAEAAAAAAAAEE", "12 base64"),
    ("MAEAAAAAAA!E", "12 base64"), (_raw_match_id(extra_bits=1), "past bit 67"),
    (_raw_match_id(owner=2), "cube owner bits 10"), (_raw_match_id(state=5), "game state 5"),
    (_raw_match_id(die1=3), "dice"), (_raw_match_id(die1=7, die2=1), "dice"),
])
def test_bad_match_ids(text, why):
    with pytest.raises(InvalidInputError, match=why) as err:
        match_id.decode(text)
    assert err.value.field == "match.match_id"


@pytest.mark.parametrize("text, why", [
    ("4HPwATDgc/ABMA", "POSITION_ID:MATCH_ID"), ("4HPwATDgc/ABMA:MAEAAAAAAAAE:x", "POSITION_ID:MATCH_ID"),
    ("4HPwATDgc/ABM:MAEAAAAAAAAE", "14 characters"), ("4HPwATDgc/ABMA:MAEAAAAAAA", "12 base64"),
])
def test_bad_gnubg_ids(text, why):
    with pytest.raises(InvalidInputError, match=why) as err:
        match_id.decode_gnubg_id(text)
    assert err.value.field == "position.gnubg_id"


START = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize("text, why", [
    ("XGID=", "an XGID has 10"), (f"XGID={START}:0:0:1:00:0:0:0", "an XGID has 10"),
    (f"XGID={START}-:0:0:1:00:0:0:0:0:10", "27 characters"),
    (f"XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10", "'Z'"),
    (f"XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "'P'"),
    (f"XGID=Bb----E-C---eE---c-e----A-:0:0:1:00:0:0:0:0:10", "bar"),
    (f"XGID=-b----E-C---eE---c-e----Bc:0:0:1:00:0:0:0:0:10", "bar"),
    (f"XGID=-b----F-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "16 checkers"),
    (f"XGID={START}:0:2:1:00:0:0:0:0:10", "cube owner 2"),
    (f"XGID={START}:0:0:0:00:0:0:0:0:10", "turn 0"),
    (f"XGID={START}:0:0:1:70:0:0:0:0:10", "dice"), (f"XGID={START}:0:0:1:0:0:0:0:0:10", "dice"),
    (f"XGID={START}:0:0:1:X:0:0:0:0:10", "dice"), (f"XGID={START}:00:0:1:00:0:0:0:0:10", "whole number"),
    (f"XGID={START}:0:0:+1:00:0:0:0:0:10", "whole number"), (f"XGID={START}:0:-0:1:00:0:0:0:0:10", "whole"),
    (f"XGID={START}:0:0:1:00:0:0:2:7:10", "flags"), (f"XGID={START}:0:0:1:00:0:0:4:0:10", "flags"),
    (f"XGID={START}:31:0:1:00:0:0:0:0:10", r"past 2\^30"), (f"XGID={START}:0:0:1:00:0:0:0:9999999999:10", "too large"),
])
def test_bad_xgids(text, why):
    with pytest.raises(InvalidInputError, match=why) as err:
        xgid.decode(text)
    assert err.value.field == "position.xgid"


def test_xgid_both_sides_on_one_point_is_impossible_to_write():
    # one character per point: a point holds one side's checkers, so only counts can be wrong
    x = xgid.decode(f"{START}:0:0:1:00:0:0:0:0")  # no prefix, 9 fields: max cube reads 10
    assert xgid.encode(x) == f"XGID={START}:0:0:1:00:0:0:0:0:10"


# ---------------------------------------------------------------------------------------------
# Exact round trips (Hypothesis)

sides = st.sampled_from([Side.WHITE, Side.BLACK])


@st.composite
def match_keys(draw):
    cube = 1 << draw(st.integers(0, 15))
    rolled = draw(st.booleans())
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0)
    return MatchKey(
        cube_value=cube, cube_owner=draw(st.none() | sides), on_roll=draw(sides), crawford=draw(st.booleans()),
        game_state=draw(st.sampled_from(list(GameState))), turn=draw(sides), doubled=draw(st.booleans()),
        resigned=draw(st.integers(0, 3)), dice=dice, length=draw(st.integers(0, 2**15 - 1)),
        scores=(draw(st.integers(0, 2**15 - 1)), draw(st.integers(0, 2**15 - 1))), jacoby=draw(st.booleans()),
    )


@given(match_keys())
def test_match_id_round_trip(key):
    text = match_id.encode(key)
    assert len(text) == 12
    assert match_id.decode(text) == key


@given(st.binary(min_size=9, max_size=9))
def test_every_valid_match_id_re_encodes_to_itself(raw):
    import base64

    text = base64.b64encode(raw).decode()
    try:
        key = match_id.decode(text)
    except InvalidInputError:
        return
    assert match_id.encode(key) == text


@st.composite
def positions(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    pos = Position.initial(draw(sides))
    for _ in range(draw(st.integers(0, 80))):
        nxt = rng.choice(legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))).result
        if nxt.winner is not None:
            break
        pos = nxt
    return pos


@st.composite
def xgids(draw):
    length = draw(st.integers(0, 25))
    action = draw(st.sampled_from(["", "", "D", "B", "R"]))
    rolled = not action and draw(st.booleans())
    return Xgid(
        position=draw(positions()), cube_value=1 << draw(st.integers(0, 12)),
        cube_owner=draw(st.none() | sides), cube_action=action,
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0),
        scores=(draw(st.integers(0, 99)), draw(st.integers(0, 99))),
        crawford=bool(length) and draw(st.booleans()), jacoby=not length and draw(st.booleans()),
        beavers=not length and draw(st.booleans()), length=length, max_cube_log2=draw(st.integers(0, 12)),
    )


@settings(max_examples=300)
@given(xgids())
def test_xgid_round_trip(x):
    text = xgid.encode(x)
    assert xgid.decode(text) == x
    assert xgid.encode(xgid.decode(text)) == text
    assert xgid.decode(text[len("XGID="):]) == x  # the prefix is optional on input


@given(positions())
def test_fast_xgid_and_gnubg_id_of_a_position(pos):
    assert xgid.encode_position(pos) == xgid.encode(Xgid(pos))
    text = match_id.encode_gnubg_id(pos, MatchKey(on_roll=pos.on_roll, turn=pos.on_roll))
    assert match_id.decode_gnubg_id(text)[0] == pos
    assert text.split(":")[0] == position_id.encode(pos)


# ---------------------------------------------------------------------------------------------
# Live differential: gnubg itself, on fields and positions it has not seen in the vector file


@pytest.fixture(scope="module")
def live_gnubg():
    """gnubg in a child of its own: other modules leave their matches in this process's gnubg."""
    child = GnubgChild()
    child.command("set player 0 human")
    child.command("set player 1 human")
    child.command("new match 7")
    yield child
    child.close()


@settings(max_examples=150)
@given(key=match_keys())
def test_live_match_id_against_gnubg(live_gnubg, key):
    length = key.length % 64  # gnubg's match tables stop at 64 points
    # gnubg's cubeinfo zeroes money-play scores, and it writes the larger die first
    scores = (key.scores[0] % length, key.scores[1] % length) if length else (0, 0)
    crawford = key.crawford and length > 1 and length - 1 in scores
    key = MatchKey(key.cube_value, key.cube_owner, key.on_roll, crawford, key.game_state, key.turn,
                   key.doubled, key.resigned, _larger_first(key.dice), length, scores, key.jacoby)
    owner = -1 if key.cube_owner is None else match_id.PLAYER[key.cube_owner]
    try:
        ci = live_gnubg.cube_info(key.cube_value, owner, match_id.PLAYER[key.on_roll], length, scores,
                                  int(crawford), 0)
    except RuntimeError:
        return  # a combination gnubg's SetCubeInfo refuses
    ci["jacoby"] = int(key.jacoby)
    pi = live_gnubg.pos_info(match_id.PLAYER[key.turn], key.resigned, int(key.doubled), int(key.game_state),
                             key.dice)
    assert live_gnubg.match_id(ci, pi) == match_id.encode(key)


@settings(max_examples=60)
@given(x=xgids())
def test_live_xgid_against_gnubg(live_gnubg, x):
    if x.cube_action:
        return  # gnubg steps back from a pending double when it reads one
    if x.length:
        # no Crawford game here: gnubg resets the cube in one
        x = Xgid(x.position, x.cube_value, x.cube_owner, "", x.dice,
                 (x.scores[0] % x.length, x.scores[1] % x.length), False, False, False, x.length, 10)
    else:  # gnubg keeps no score in money play
        x = Xgid(x.position, x.cube_value, x.cube_owner, "", x.dice, (0, 0), False, x.jacoby, x.beavers, 0,
                 x.max_cube_log2)
    live_gnubg.set_gnubg_id(xgid.encode(x))
    key = MatchKey(cube_value=x.cube_value, cube_owner=x.cube_owner, on_roll=x.position.on_roll,
                   crawford=x.crawford, turn=x.turn, dice=_larger_first(x.dice), length=x.length,
                   scores=x.scores, jacoby=x.jacoby)
    assert live_gnubg.gnubg_id() == match_id.encode_gnubg_id(x.position, key)
