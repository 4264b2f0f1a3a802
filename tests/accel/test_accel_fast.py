"""ListLegalMoves straight from a Position ID: ``tavla_accel.legal_moves_response_from_id`` and the
servicer's fast path that calls it (service/accel/src/position_id.rs, server/api/rules.py).

The extension reads and validates the ID itself. It must accept exactly the IDs
``core.position_id.decode`` accepts (GNU Backgammon's Position ID format; R1 counts), less a
finished game (R15), and answer those with the very bytes of the existing path
(``legal_moves_response`` of the decoded board, itself pinned to pure Python by
tests/accel/test_accel.py); the server must answer every request, good or bad, exactly as without it.

Not silently skipped: as tests/accel/test_accel.py, these FAIL without the extension unless
``TAVLA_ACCEL_EXPECTED=0``.
"""

from __future__ import annotations

import base64

import grpc
import prometheus_client
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tavla.core import CHECKERS, InvalidInputError, Position, Side, SideView
from tavla.core.ids import position_id
from tavla.server.api.generator import MoveGenerator
from tavla.server.api.engine import Engine
from tavla.server.api import services
from tavla.server.api.rules import RulesService
from tavla.server.api.servicers import for_engine
from tavla.server.pipeline import metrics
from tavla.server.process.app import start_in_process
from tavla.server.convert import wire
import rpc_api as api
from tavla.v1 import types_pb2 as pb
from test_accel import _extension_built, _python, match_pairs, tavla_accel  # noqa: F401 (fixtures)

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
START_ID = "4HPwATDgc/ABMA"
VIEWS = (wire.FULL, wire.BASIC)
SIDES = (Side.WHITE, Side.BLACK)
TIMEOUT = 30


def existing(text: str, side: Side, dice: tuple[int, int], view: int) -> tuple[int, bytes] | None:
    """What the server answered before: decode (as convert.position_from_proto), refuse a finished
    game (playable), then the extension on the board; None where the server raises an error."""
    try:
        position = position_id.decode(text, side)
    except InvalidInputError:
        return None
    if position.winner is not None:
        return None
    return tavla_accel.legal_moves_response(position.board, side.value, dice[0], dice[1], view)


def fast(text: str, side: Side, dice: tuple[int, int], view: int) -> tuple[int, bytes] | None:
    try:
        return tavla_accel.legal_moves_response_from_id(text, side.value, dice[0], dice[1], view)
    except ValueError:
        return None


def assert_same(text: str, dice: tuple[int, int] = (3, 1)) -> bool:
    """Fast and existing paths agree for both sides on roll and both views; True if accepted."""
    answers = set()
    for side in SIDES:
        for view in VIEWS:
            got = fast(text, side, dice, view)
            assert got == existing(text, side, dice, view), (text, side, dice, view)
            answers.add(got is not None)
    assert len(answers) == 1  # neither the side nor the view decides whether an ID is accepted
    return answers.pop()


def id_from_bits(bits: list[int], spare: int = 0) -> str:
    """14 characters of the first 80 ``bits`` (first bit lowest, as the format packs them) and
    ``spare`` (0-15) in the last character's 4 spare bits."""
    value = sum(b << i for i, b in enumerate(bits[:80]))
    text = base64.b64encode(value.to_bytes(10, "little")).decode("ascii")[:14]
    return text[:13] + ALPHABET[ALPHABET.index(text[13]) | spare]


def id_from_counts(not_on_roll: list[int], on_roll: list[int], tail: list[int] = (), spare: int = 0) -> str:
    """An ID of two sides' 25 counts (points 1-24, bar; own numbering), unchecked: any counts."""
    bits: list[int] = []
    for n in list(not_on_roll) + list(on_roll):
        bits += [1] * n + [0]
    return id_from_bits(bits + list(tail) + [0] * 80, spare)


def start_counts() -> list[int]:
    counts = [0] * 25
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        counts[point - 1] = n
    return counts


# --- the match corpus: every (position, roll), both sides on roll, both views ---------------------


def test_every_match_pair_is_answered_the_same(match_pairs):
    assert len(match_pairs) > 20_000
    for position, dice in match_pairs:
        text = position_id.encode(position)
        for side in SIDES:  # the same checkers with either colour on roll
            for view in VIEWS:
                expected = existing(text, side, dice, view)
                assert expected is not None
                assert fast(text, side, dice, view) == expected, (text, side, dice, view)


def test_start_position_answer_is_the_known_one():
    count, data = tavla_accel.legal_moves_response_from_id(START_ID, 1, 5, 1, wire.FULL)
    assert count == 8 and b"24/23 13/8" in data and b"4PPgASjgc/ABMA" in data  # R2, as gnubg lists 51
    assert data.endswith(b"\x10\x02")  # dice_used 2
    assert tavla_accel.legal_moves_response_from_id(START_ID, 2, 5, 1, wire.FULL) == existing(
        START_ID, Side.BLACK, (5, 1), wire.FULL)


# --- IDs that decode refuses, or a finished game ------------------------------------------------


def _sixteen_on_one_point() -> str:
    counts = start_counts()
    counts[5] += 1  # 16 checkers in all
    return id_from_counts(start_counts(), counts)


def _overlap() -> str:
    mine = start_counts()
    mine[0] = 1  # my point 1 is the opponent's 24, where it has 2
    mine[23] -= 1
    return id_from_counts(start_counts(), mine)


def _game_over(side_done: str) -> str:
    done, playing = [0] * 25, [0] * 25
    playing[5] = 3
    return id_from_counts(done, playing) if side_done == "not on roll" else id_from_counts(playing, done)


REFUSED = {
    "spare bits set": START_ID[:13] + ALPHABET[ALPHABET.index(START_ID[13]) | 1],
    "each spare bit": START_ID[:13] + ALPHABET[ALPHABET.index(START_ID[13]) | 8],
    "13 characters": START_ID[:13],
    "15 characters": START_ID + "A",
    "empty": "",
    "padding": START_ID[:12] + "==",
    "url-safe alphabet": START_ID.replace("/", "_"),
    "a space": START_ID[:13] + " ",
    "non-ASCII": START_ID[:13] + "é",
    "non-ASCII, 14 bytes": START_ID[:12] + "é",  # 13 characters, 14 UTF-8 bytes
    "a NUL": START_ID[:13] + "\x00",
    "16 checkers for the side on roll": _sixteen_on_one_point(),
    "16 checkers over several points": id_from_counts(start_counts(), [1] * 16 + [0] * 9),
    "16 checkers for the side not on roll": id_from_counts([16] + [0] * 24, start_counts()),
    "16 on the bar": id_from_counts(start_counts(), [0] * 24 + [16]),
    "a point held by both sides": _overlap(),
    "both on point 24/1": id_from_counts([1] + [0] * 24, [0] * 23 + [1, 0]),
    "a bit past the two sides": id_from_counts([1] + [0] * 24, [1] + [0] * 24, tail=[1]),
    "fewer than 50 zero bits": id_from_bits([1] * 80),
    "all ones": "//////////////",
    "both sides borne off": "AAAAAAAAAAAAAA",
    "game over: the side not on roll is off": _game_over("not on roll"),
    "game over: the side on roll is off": _game_over("on roll"),
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_refused_exactly_when_the_server_refuses(text):
    assert assert_same(text) is False


ACCEPTED = {
    "start": START_ID,
    "a bar checker each": id_from_counts(start_counts()[:24] + [0], [0] * 23 + [2, 1]),
    "one checker each, on the bar": id_from_counts([0] * 24 + [1], [0] * 24 + [1]),
    "15 on one point": id_from_counts([0] * 23 + [15, 0], [0, 15] + [0] * 23),
    "15 on the bar": id_from_counts([0] * 24 + [15], [0] * 24 + [15]),
    "each on its own point 1": id_from_counts([1] + [0] * 24, [1] + [0] * 24),
}


@pytest.mark.parametrize("text", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted_exactly_when_the_server_accepts(text):
    for dice in ((3, 1), (6, 6), (2, 5)):
        assert assert_same(text, dice) is True


@pytest.mark.parametrize("args", [
    (START_ID, 0, 3, 1, 0), (START_ID, 3, 3, 1, 0), (START_ID, -1, 3, 1, 0),  # sides
    (START_ID, 1, 0, 1, 0), (START_ID, 1, 7, 1, 0), (START_ID, 1, 3, 256 + 3, 0),  # dice
    (START_ID, 1, -3, 1, 0), (START_ID, 1, 3, 2**32 - 1, 0),
    (START_ID, 1, 3, 1, 2), (START_ID, 1, 3, 1, -1), (START_ID, 1, 3, 1, 256),  # views
])
def test_other_arguments_are_refused_with_value_error(args):
    # ValueError for every value a request can carry, never OverflowError: the caller catches one
    with pytest.raises(ValueError):
        tavla_accel.legal_moves_response_from_id(*args)


def test_an_id_that_is_not_a_string_is_a_type_error():
    with pytest.raises(TypeError):
        tavla_accel.legal_moves_response_from_id(START_ID.encode(), 1, 3, 1, 0)


# --- Hypothesis: random, near-valid and mutated IDs -----------------------------------------------


@st.composite
def side_counts(draw) -> list[int]:
    """25 counts of 0-17 checkers in all, bunched on a few slots so that sides often overlap."""
    counts = [0] * 25
    slots = draw(st.lists(st.integers(0, 24), max_size=6, min_size=1))
    for _ in range(draw(st.integers(0, 17))):
        counts[draw(st.sampled_from(slots))] += 1
    return counts


@st.composite
def near_ids(draw) -> str:
    """IDs built from counts (valid or not), with sometimes a stray bit after them or spare bits."""
    tail = draw(st.one_of(st.just([]), st.lists(st.integers(0, 1), max_size=30)))
    spare = draw(st.one_of(st.just(0), st.integers(1, 15)))
    return id_from_counts(draw(side_counts()), draw(side_counts()), tail, spare)


def mutate(text: str, data: st.DataObject) -> str:
    how = data.draw(st.sampled_from(["char", "bit", "insert", "delete", "non-alphabet"]))
    i = data.draw(st.integers(0, len(text) - 1))
    if how == "char":
        return text[:i] + data.draw(st.sampled_from(ALPHABET)) + text[i + 1:]
    if how == "bit" and text[i] in ALPHABET:
        return text[:i] + ALPHABET[ALPHABET.index(text[i]) ^ 1 << data.draw(st.integers(0, 5))] + text[i + 1:]
    if how == "insert":
        return text[:i] + data.draw(st.sampled_from(ALPHABET)) + text[i:]
    if how == "delete":
        return text[:i] + text[i + 1:]
    return text[:i] + data.draw(st.sampled_from("=-_ .\n\x00éİ€😀")) + text[i + 1:]


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
SETTINGS = settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=st.text(ALPHABET, min_size=14, max_size=14), dice=DICE)
def test_random_alphabet_strings(text, dice):
    assert_same(text, dice)


@SETTINGS
@given(text=near_ids(), dice=DICE)
def test_ids_built_from_any_counts(text, dice):
    assert_same(text, dice)


@SETTINGS
@given(data=st.data(), dice=DICE)
def test_mutated_valid_ids(match_pairs, data, dice):
    position = data.draw(st.sampled_from(match_pairs[::50]))[0]
    text = position_id.encode(position)
    for _ in range(data.draw(st.integers(1, 3))):
        text = mutate(text, data)
        assume(text)
    assert_same(text, dice)


@SETTINGS
@given(text=st.text(max_size=20), dice=DICE)
def test_any_text(text, dice):
    assert_same(text, dice)


def test_the_generators_reach_both_answers():
    # near_ids must give accepted IDs and each kind of refusal, or the test above proves little
    found = {"accepted": 0, "refused": 0}

    @settings(max_examples=300, database=None)
    @given(text=near_ids())
    def tally(text):
        found["accepted" if fast(text, Side.WHITE, (3, 1), 0) else "refused"] += 1

    tally()
    assert found["accepted"] >= 20 and found["refused"] >= 20, found


# --- through the server: the same answer or the same error as without the fast path -------------


class _FromId:
    """The extension, its Position ID path replaced by ``from_id`` (``None``: no such path)."""

    def __init__(self, ext, from_id) -> None:
        self._ext, self.legal_moves_response_from_id = ext, from_id

    def __getattr__(self, name):
        return getattr(self._ext, name)


def _with_from_id(servicer: RulesService, from_id, monkeypatch) -> None:
    generator = servicer.engine.generator
    monkeypatch.setattr(servicer.engine, "generator", MoveGenerator(_FromId(generator.ext, from_id), generator.status))


@pytest.fixture(scope="module")
def served():
    """(the servicer, a stub of its server): the server's generator and metrics, the servicer at hand."""
    servicers = for_engine(Engine(observer=metrics.ENGINE))
    servicer = servicers[services.RULES]
    server, port = start_in_process(by_service=servicers)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield servicer, api.AnyStub(channel)
    server.stop(None)


def _outcome(engine, request: api.ListLegalMovesRequest):
    try:
        return "OK", engine.ListLegalMoves(request, timeout=TIMEOUT).SerializeToString()
    except grpc.RpcError as error:
        return error.code(), error.details(), dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")


def _position(text: str, on_roll: int = pb.SIDE_UNSPECIFIED, **more) -> pb.Position:
    return pb.Position(position_id=text, on_roll=on_roll, **more)


def _board(position: Position) -> pb.Board:
    def side(view: SideView) -> pb.SideCheckers:
        return pb.SideCheckers(points=view.points, bar=view.bar, borne_off=view.off)
    return pb.Board(white=side(position.side(Side.WHITE)), black=side(position.side(Side.BLACK)))


START = Position.initial()
REQUESTS = {
    # taken by the fast path
    "start, white by default": api.ListLegalMovesRequest(position=_position(START_ID), dice=[5, 1]),
    "start, black, basic": api.ListLegalMovesRequest(
        position=_position(START_ID, pb.SIDE_BLACK), dice=[6, 6], view=api.MOVE_VIEW_BASIC),
    "full view named": api.ListLegalMovesRequest(
        position=_position(START_ID, pb.SIDE_WHITE), dice=[2, 4], view=api.MOVE_VIEW_FULL),
    "a valid ruleset": api.ListLegalMovesRequest(
        position=_position(START_ID), dice=[3, 1], ruleset=pb.Ruleset(preset="turkish")),
    # refused by the fast path: the full path's error
    "spare bits": api.ListLegalMovesRequest(position=_position(REFUSED["spare bits set"]), dice=[3, 1]),
    "16 checkers": api.ListLegalMovesRequest(position=_position(REFUSED["16 checkers for the side on roll"]),
                                             dice=[3, 1]),
    "overlap": api.ListLegalMovesRequest(position=_position(REFUSED["a point held by both sides"]), dice=[3, 1]),
    "13 characters": api.ListLegalMovesRequest(position=_position(START_ID[:13]), dice=[3, 1]),
    "non-ASCII": api.ListLegalMovesRequest(position=_position(START_ID[:13] + "é"), dice=[3, 1]),
    "game over, white off": api.ListLegalMovesRequest(
        position=_position(REFUSED["game over: the side not on roll is off"], pb.SIDE_BLACK), dice=[3, 1]),
    "game over, on roll off": api.ListLegalMovesRequest(
        position=_position(REFUSED["game over: the side on roll is off"]), dice=[3, 1]),
    "game over and bad dice": api.ListLegalMovesRequest(
        position=_position(REFUSED["game over: the side on roll is off"]), dice=[0, 1]),
    "die 0": api.ListLegalMovesRequest(position=_position(START_ID), dice=[0, 1]),
    "die 7": api.ListLegalMovesRequest(position=_position(START_ID), dice=[3, 7]),
    "die 2^32-1": api.ListLegalMovesRequest(position=_position(START_ID), dice=[3, 2**32 - 1]),
    "one die": api.ListLegalMovesRequest(position=_position(START_ID), dice=[3]),
    "three dice": api.ListLegalMovesRequest(position=_position(START_ID), dice=[3, 1, 2]),
    "no dice": api.ListLegalMovesRequest(position=_position(START_ID)),
    "unknown view": api.ListLegalMovesRequest(position=_position(START_ID), dice=[3, 1], view=7),
    "unknown side": api.ListLegalMovesRequest(position=_position(START_ID, 3), dice=[3, 1]),
    "bad preset": api.ListLegalMovesRequest(
        position=_position(START_ID), dice=[3, 1], ruleset=pb.Ruleset(preset="nope")),
    "bad preset and bad ID": api.ListLegalMovesRequest(
        position=_position(START_ID[:13]), dice=[3, 1], ruleset=pb.Ruleset(preset="nope")),
    "bad cube limit": api.ListLegalMovesRequest(
        position=_position(START_ID), dice=[3, 1], ruleset=pb.Ruleset(cube_limit=3)),
    "bad start rule": api.ListLegalMovesRequest(position=_position(START_ID), dice=[3, 1],
                                                ruleset=pb.Ruleset(start=9)),
    # other shapes: never the fast path
    "empty position": api.ListLegalMovesRequest(position=pb.Position(), dice=[3, 1]),
    "board": api.ListLegalMovesRequest(position=pb.Position(on_roll=pb.SIDE_WHITE, board=_board(START)),
                                       dice=[3, 1]),
    "gnubg_id": api.ListLegalMovesRequest(position=pb.Position(gnubg_id=START_ID + ":cAkAAAAAAAAA"), dice=[3, 1]),
    "bad xgid": api.ListLegalMovesRequest(position=pb.Position(xgid="XGID=junk"), dice=[3, 1]),
}
FAST = {"start, white by default", "start, black, basic", "full view named", "a valid ruleset"}
OK = FAST | {"board", "gnubg_id"}


@pytest.mark.parametrize("name", REQUESTS)
def test_the_server_answers_as_without_the_fast_path(served, monkeypatch, name):
    servicer, engine = served
    assert servicer.engine.generator.response_from_id is tavla_accel.legal_moves_response_from_id
    calls: list[object] = []

    def spy(*args):
        try:
            answer = tavla_accel.legal_moves_response_from_id(*args)
        except ValueError:
            calls.append("refused")
            raise
        calls.append("answered")
        return answer

    request = REQUESTS[name]
    _with_from_id(servicer, spy, monkeypatch)
    with_fast = _outcome(engine, request)
    _with_from_id(servicer, None, monkeypatch)
    without = _outcome(engine, request)
    assert with_fast == without
    assert ("answered" in calls) == (name in FAST), calls
    assert (with_fast[0] == "OK") == (name in OK)
    if with_fast[0] != "OK":
        assert with_fast[0] == grpc.StatusCode.INVALID_ARGUMENT and with_fast[2]  # with its details


def _sample(name: str, **labels: str) -> float:
    return prometheus_client.REGISTRY.get_sample_value(name, labels) or 0.0


def _metric_deltas(engine, request) -> tuple[float, ...]:
    names = [("tavla_legal_moves_count", {}), ("tavla_legal_moves_sum", {}),
             ("tavla_move_generation_seconds_count", {"grpc_method": "ListLegalMoves"})]
    before = [_sample(n, **labels) for n, labels in names]
    engine.ListLegalMoves(request, timeout=TIMEOUT)
    return tuple(_sample(n, **labels) - b for (n, labels), b in zip(names, before))


def test_the_metrics_count_the_same(served, monkeypatch):
    servicer, engine = served
    request = REQUESTS["start, black, basic"]
    moves = len(engine.ListLegalMoves(request, timeout=TIMEOUT).moves)
    with_fast = _metric_deltas(engine, request)
    _with_from_id(servicer, None, monkeypatch)
    assert with_fast == _metric_deltas(engine, request) == (1, moves, 1)


def test_off_means_no_fast_path():
    out = _python("from tavla.server.api.generator import MoveGenerator; print(MoveGenerator.from_env().response_from_id)",
                  TAVLA_ACCEL="0")
    assert out.stdout.strip() == "None", out.stderr
