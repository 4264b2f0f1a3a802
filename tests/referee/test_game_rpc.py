"""The referee API over gRPC: whole matches through NewMatch / ListActions / Act only,
every state verified (signature, sequence, dice against the revealed seed); tampering refused.

The server here runs in state mode ``require`` with two keys (k2 signs, k1 verifies) and a fixed
dice key, as the Helm chart runs it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from game_driver import DICE_SECRET, KEYS, SIGNER, Checker, choose, play_match
from tavla.core.match.dice_commit import DiceKey
from tavla.server.process.app import start_in_process
from tavla.server.api.engine import Engine
from tavla.server.api.servicers import for_engine
from tavla.referee.keys import StateMode, StateSigner
from tavla.v1 import clock_pb2, game_pb2, match_pb2
import rpc_api as api
from tavla.v1 import types_pb2 as pb

G = game_pb2


def start(mode: StateMode, keys=KEYS, *, test_inputs: bool = False,
          address: bool = False) -> tuple[grpc.Server, api.AnyStub]:
    engine = Engine(dice_key=DiceKey(DICE_SECRET, shared=True),
                    signer=StateSigner(mode, keys, shared=True), test_inputs=test_inputs)
    server, port = start_in_process(by_service=for_engine(engine))
    if address:
        return server, f"127.0.0.1:{port}"
    return server, api.AnyStub(grpc.insecure_channel(f"127.0.0.1:{port}"))


def dice(*values: int) -> list[tuple[str, str]]:
    """The metadata of a test server's dice (--test-inputs, mode off)."""
    return [("x-tavla-test-dice", ",".join(map(str, values)))]


@pytest.fixture(scope="module")
def referee() -> Iterator[api.AnyStub]:
    server, stub = start(StateMode.REQUIRE)
    yield stub
    server.stop(None)


def refusal(call, *args) -> tuple[grpc.StatusCode, str, str]:
    """(code, ErrorInfo reason or "", BadRequest field or "") of a refused call."""
    with pytest.raises(grpc.RpcError) as err:
        call(*args)
    status = rpc_status.from_call(err.value)
    reason = field = ""
    for detail in status.details if status else ():
        info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
        if detail.Unpack(info):
            reason = info.reason
        elif detail.Unpack(bad):
            field = bad.field_violations[0].field
    return err.value.code(), reason, field


# ---------------------------------------------------------------------------------------------
# Whole matches


def test_turkish_five_point_match(referee):
    """Turkish rules (R3 Turkish start, no cube, katmerli mars pays 2) to 5 points."""
    checker = Checker(SIGNER)
    request = api.NewMatchRequest(ruleset=pb.Ruleset(preset="turkish"), length=5)
    game, kinds = play_match(referee, checker, request, seed=5, resign=0.01)
    assert game.phase == G.GAME_PHASE_MATCH_OVER
    assert 5 in (game.match.white_score, game.match.black_score)
    assert G.ACTION_KIND_DOUBLE not in kinds  # no cube in the Turkish preset (R19)
    assert checker.games >= 1 and checker.games == game.match.games_played
    assert checker.largest <= 512  # the signed state does not grow with the game


def test_international_seven_point_match_with_the_cube(referee):
    """International rules, 7 points, doubles taken and dropped, Crawford (R18-R21)."""
    checker = Checker(SIGNER)
    request = api.NewMatchRequest(ruleset=pb.Ruleset(preset="international"), length=7)
    game, kinds = play_match(referee, checker, request, seed=7, double=0.2, drop=0.4)
    assert game.phase == G.GAME_PHASE_MATCH_OVER
    assert 7 in (game.match.white_score, game.match.black_score)
    assert {G.ACTION_KIND_DOUBLE, G.ACTION_KIND_TAKE} <= set(kinds)
    assert checker.games == game.match.games_played and checker.largest <= 512


def test_money_play_with_beavers_and_jacoby(referee):
    """Money play, beavers and raccoons (GNU Backgammon's `set beavers`), Jacoby: six games."""
    checker = Checker(SIGNER)
    request = api.NewMatchRequest(ruleset=pb.Ruleset(preset="international", beavers=True, jacoby=True),
                                  length=0)
    rng = random.Random(11)
    response = referee.NewMatch(request)
    signed, game = response.state, checker.check(response.state, response.view)
    kinds: list[int] = []
    while game.match.games_played < 6:
        listed = referee.ListActions(api.ListActionsRequest(state=signed))
        action = choose(list(listed.actions), rng, double=0.3, drop=0.2, beaver=1.0)  # every double beavered
        kinds.append(action.kind)
        answer = referee.Act(api.ActRequest(state=signed, action=action))
        signed, game = answer.state, checker.check(answer.state, answer.view, answer.events)
        if answer.events.HasField("outcome") and answer.events.outcome.ending == match_pb2.GAME_ENDING_BORNE_OFF:
            outcome = answer.events.outcome
            if outcome.kind != pb.RESULT_KIND_SINGLE and len([k for k in kinds if k == G.ACTION_KIND_TAKE]) == 0:
                assert outcome.points == 1  # Jacoby: an unturned cube pays a gammon as a single
    assert {G.ACTION_KIND_BEAVER, G.ACTION_KIND_RACCOON} <= set(kinds)
    assert game.phase == G.GAME_PHASE_GAME_OVER and checker.games == 6


# ---------------------------------------------------------------------------------------------
# Where the older RPCs disagreed, as the referee sees it


def _act(referee, signed, kind, **fields):
    return referee.Act(api.ActRequest(state=signed, action=G.GameAction(kind=kind, **fields)))


def _to_roll_or_double(referee, request) -> game_pb2.SignedGameState:
    """Start a game and play the first move, so the other side is on roll before rolling."""
    answer = _act(referee, referee.NewMatch(request).state, G.ACTION_KIND_START_GAME)
    while answer.view.phase == G.GAME_PHASE_MOVING:
        listed = referee.ListActions(api.ListActionsRequest(state=answer.state))
        action = choose(list(listed.actions), random.Random(1))
        answer = referee.Act(api.ActRequest(state=answer.state, action=action))
    return answer.state


def test_no_resignation_while_a_double_awaits_its_answer(referee):
    """A resignation is neither listed nor accepted while a double is pending (R19)."""
    signed = _to_roll_or_double(referee, api.NewMatchRequest(length=7))
    doubled = _act(referee, signed, G.ACTION_KIND_DOUBLE)
    assert doubled.view.phase == G.GAME_PHASE_CUBE_DECISION
    listed = referee.ListActions(api.ListActionsRequest(state=doubled.state))
    assert {a.kind for a in listed.actions} == {G.ACTION_KIND_TAKE, G.ACTION_KIND_DROP}
    assert listed.view.side_to_act != listed.view.position.on_roll  # the doubled side decides
    code, reason, _ = refusal(_act, referee, doubled.state, G.ACTION_KIND_RESIGN)
    assert code == grpc.StatusCode.INVALID_ARGUMENT  # resign_kind missing: bad input
    code, reason, _ = refusal(lambda: _act(referee, doubled.state, G.ACTION_KIND_RESIGN,
                                           resign_kind=pb.RESULT_KIND_SINGLE))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "WRONG_PHASE")


def test_the_older_rpcs_refuse_the_same_resignation(engine):
    """Once ended in an outcome UpdateMatch refused: match {length 7, cube offered by white}, black
    offers a single, white accepts. AnswerResignation and OfferResignation now refuse it as
    UpdateMatch would."""
    match = match_pb2.MatchState(length=7, cube=match_pb2.CubeState(offered_by=pb.SIDE_WHITE))
    offer = match_pb2.ResignationOffer(side=pb.SIDE_BLACK, kind=pb.RESULT_KIND_SINGLE)
    for call, request in ((engine.AnswerResignation, api.AnswerResignationRequest(match=match, offer=offer,
                                                                                  accept=True)),
                          (engine.OfferResignation, api.OfferResignationRequest(match=match, offer=offer))):
        code, reason, _ = refusal(call, request)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "DOUBLE_PENDING")


def test_the_older_rpcs_answer_a_beaver(engine):
    """After a beaver the doubler may take, drop (paying 2) or raccoon (money play)."""
    rules = pb.Ruleset(beavers=True)
    beavered = engine.ApplyCubeAction(api.ApplyCubeActionRequest(
        ruleset=rules, match=match_pb2.MatchState(cube=match_pb2.CubeState(offered_by=pb.SIDE_WHITE)),
        side=pb.SIDE_BLACK, action=match_pb2.CUBE_ACTION_BEAVER)).match
    assert (beavered.cube.value, beavered.cube.owner, beavered.cube.redoubles) == (2, pb.SIDE_BLACK, 1)
    listed = engine.ListCubeActions(api.ListCubeActionsRequest(ruleset=rules, match=beavered, side=pb.SIDE_WHITE))
    assert list(listed.actions) == [match_pb2.CUBE_ACTION_TAKE, match_pb2.CUBE_ACTION_DROP,
                                    match_pb2.CUBE_ACTION_RACCOON]
    dropped = engine.ApplyCubeAction(api.ApplyCubeActionRequest(ruleset=rules, match=beavered, side=pb.SIDE_WHITE,
                                                                action=match_pb2.CUBE_ACTION_DROP))
    assert (dropped.outcome.winner, dropped.outcome.points) == (pb.SIDE_BLACK, 2)


# ---------------------------------------------------------------------------------------------
# Tampering


def _started(referee) -> api.ActResponse:
    return _act(referee, referee.NewMatch(api.NewMatchRequest(length=7)).state, G.ACTION_KIND_START_GAME)


def _fields(message, prefix=""):
    """Every set scalar field path of ``message`` (repeated ones by index)."""
    for field, value in message.ListFields():
        name = f"{prefix}{field.name}"
        if field.message_type is not None:
            items = value if field.is_repeated else [value]
            for i, item in enumerate(items):
                yield from _fields(item, f"{name}[{i}]." if field.is_repeated else f"{name}.")
        elif field.is_repeated:
            for i, item in enumerate(value):
                yield f"{name}[{i}]", field, item
        else:
            yield name, field, value


def test_every_field_of_a_signed_state_changed_is_refused(referee):
    started = _started(referee)
    game = game_pb2.GameState.FromString(started.state.state)
    paths = [path for path, _, _ in _fields(game)]
    unset = [f.name for f in game.DESCRIPTOR.fields if f.name not in {d.name for d, _ in game.ListFields()}]
    assert len(paths) > 20 and unset
    for path in paths + [f"+{name}" for name in unset]:
        altered = game_pb2.GameState()
        altered.CopyFrom(game)
        _change(altered, path)
        assert altered.SerializeToString(deterministic=True) != game.SerializeToString(deterministic=True), path
        signed = game_pb2.SignedGameState(state=altered.SerializeToString(deterministic=True),
                                          key_id=started.state.key_id, signature=started.state.signature)
        for call, request in ((referee.ListActions, api.ListActionsRequest(state=signed)),
                              (referee.Act, api.ActRequest(state=signed, action=G.GameAction(kind=G.ACTION_KIND_UNDO)))):
            code, reason, _ = refusal(call, request)
            assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "STATE_SIGNATURE_INVALID"), path


def _change(message, path: str) -> None:
    if path.startswith("+"):  # set a field the state leaves unset
        field = message.DESCRIPTOR.fields_by_name[path[1:]]
        value = getattr(message, field.name)
        if field.message_type is not None:
            value.add() if field.is_repeated else value.SetInParent()
        elif field.is_repeated:
            value.append(1)
        else:
            setattr(message, field.name, "x" if field.type == field.TYPE_STRING else 1)
        return
    *parents, leaf = path.split(".")
    target = message
    for part in parents:
        name, _, index = part.partition("[")
        target = getattr(target, name)[int(index[:-1])] if index else getattr(target, name)
    name, _, index = leaf.partition("[")
    if index:
        values = getattr(target, name)
        values[int(index[:-1])] = _other(values[int(index[:-1])])
    else:
        setattr(target, name, _other(getattr(target, name)))


def _other(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 if value < 2**31 else value - 1
    if isinstance(value, str):
        return value + "x"
    return value + b"x"


def test_signature_byte_flipped_unknown_key_and_unsigned_are_refused(referee):
    signed = _started(referee).state
    cases = {
        "STATE_SIGNATURE_INVALID": game_pb2.SignedGameState(
            state=signed.state, key_id=signed.key_id, signature=bytes([signed.signature[0] ^ 1]) + signed.signature[1:]),
        "STATE_KEY_UNKNOWN": game_pb2.SignedGameState(state=signed.state, key_id="k9", signature=signed.signature),
        "STATE_UNSIGNED": game_pb2.SignedGameState(state=signed.state),
    }
    for reason, bad in cases.items():
        assert refusal(referee.ListActions, api.ListActionsRequest(state=bad))[:2] == (
            grpc.StatusCode.INVALID_ARGUMENT, reason)
    forged = StateSigner(StateMode.SIGN, (("k2", b"\x07" * 32),), shared=True).seal(signed.state)
    bad = game_pb2.SignedGameState(state=forged.state, key_id=forged.key_id, signature=forged.signature)
    assert refusal(referee.ListActions, api.ListActionsRequest(state=bad))[1] == "STATE_SIGNATURE_INVALID"


def test_garbage_state_bytes_are_bad_input_not_internal(referee):
    for raw in (b"\xff\xff\xff", b"", game_pb2.GameState(version=9).SerializeToString(),
                game_pb2.GameState(version=1, phase=G.GAME_PHASE_MOVING).SerializeToString()):
        sealed = SIGNER.seal(raw)  # signed right: only the bytes are bad
        request = api.ListActionsRequest(state=game_pb2.SignedGameState(state=sealed.state, key_id=sealed.key_id,
                                                                        signature=sealed.signature))
        code, _, field = refusal(referee.ListActions, request)
        assert code == grpc.StatusCode.INVALID_ARGUMENT and field.startswith(("state", "position")), raw


@pytest.mark.parametrize("step, field", [
    (pb.CheckerMove(from_point=4294967295, to_point=3), "action.step.from_point"),
    (pb.CheckerMove(from_point=8, to_point=26), "action.step.to_point"),
    (pb.CheckerMove(from_point=8, to_point=3, die=7), "action.step.die"),
])
def test_a_step_off_the_board_is_refused_on_the_action_field(referee, step, field):
    # the request's own field (ActRequest.action.step), not the turn's `steps`
    first = referee.NewMatch(api.NewMatchRequest(ruleset=pb.Ruleset(preset="turkish"), length=5)).state
    started = referee.Act(api.ActRequest(state=first, action=game_pb2.GameAction(kind=G.ACTION_KIND_START_GAME))).state
    request = api.ActRequest(state=started, action=game_pb2.GameAction(kind=G.ACTION_KIND_STEP, step=step))
    assert refusal(referee.Act, request) == (grpc.StatusCode.INVALID_ARGUMENT, "", field)


@pytest.mark.parametrize("seconds, nanos, why", [
    (-1, 0, "before 1970"), (1_700_000_000, 1, "whole number of milliseconds"),
    (1_700_000_000, 1_000_000_000, "nanos"), (253_402_300_800, 0, "year 9999"),
])
def test_a_bad_turn_start_time_is_refused_on_its_field(referee, seconds, nanos, why):
    """The clock's Timestamp (whole milliseconds since the epoch, R23-R25) is checked like
    any input: a state signed with it, but not one the server made, names the field."""
    new = referee.NewMatch(api.NewMatchRequest(length=3, clock=clock_pb2.ClockSettings(
        preset=clock_pb2.CLOCK_PRESET_RESERVE)))
    state = game_pb2.GameState.FromString(new.state.state)
    assert state.clock.turn_start_time == new.view.clock.turn_start_time  # the view shows the state's
    assert state.clock.turn_start_time.nanos % 1_000_000 == 0
    state.clock.turn_start_time.seconds, state.clock.turn_start_time.nanos = seconds, nanos
    sealed = SIGNER.seal(state.SerializeToString(deterministic=True))
    bad = game_pb2.SignedGameState(state=sealed.state, key_id=sealed.key_id, signature=sealed.signature)
    with pytest.raises(grpc.RpcError) as err:
        referee.ListActions(api.ListActionsRequest(state=bad))
    assert refusal(referee.ListActions, api.ListActionsRequest(state=bad))[::2] == (
        grpc.StatusCode.INVALID_ARGUMENT, "state.clock.turn_start_time")
    assert why in err.value.details()


def test_an_old_key_still_verifies_after_rotation_and_a_removed_one_does_not():
    """Keys rotate: the first signs, every key verifies (docs/security.md)."""
    old_server, old = start(StateMode.REQUIRE, keys=(("k1", b"\x01" * 32),))
    new_server, new = start(StateMode.REQUIRE, keys=KEYS)  # k2 first, k1 still verifies
    gone_server, gone = start(StateMode.REQUIRE, keys=(("k2", b"\x02" * 32),))
    try:
        signed = old.NewMatch(api.NewMatchRequest(length=5)).state
        assert signed.key_id == "k1"
        moved = new.Act(api.ActRequest(state=signed, action=G.GameAction(kind=G.ACTION_KIND_START_GAME)))
        assert moved.state.key_id == "k2"  # re-signed with the new first key
        assert refusal(gone.ListActions, api.ListActionsRequest(state=signed))[1] == "STATE_KEY_UNKNOWN"
        gone.ListActions(api.ListActionsRequest(state=moved.state))
    finally:
        for server in (old_server, new_server, gone_server):
            server.stop(None)


def test_a_replayed_state_rolls_the_same_dice(referee):
    """Re-submitting a state gives the same dice (R22): they are fixed by the state and the key."""
    signed = _to_roll_or_double(referee, api.NewMatchRequest(length=7))
    first = _act(referee, signed, G.ACTION_KIND_ROLL)
    again = _act(referee, signed, G.ACTION_KIND_ROLL)
    assert list(first.events.rolled) == list(again.events.rolled) and len(first.events.rolled) == 2
    assert first.state == again.state
    other = referee.NewMatch(api.NewMatchRequest(length=7)).state  # another match: its own dice
    starts = {tuple((t.white_die, t.black_die) for t in _act(
        referee, referee.NewMatch(api.NewMatchRequest(length=7)).state, G.ACTION_KIND_START_GAME).events.roll_off)
        for _ in range(8)}
    assert other.state != signed.state and len(starts) > 1


def test_client_dice_and_time_are_refused_under_require(referee):
    signed = referee.NewMatch(api.NewMatchRequest(length=7)).state
    start_game = G.GameAction(kind=G.ACTION_KIND_START_GAME)
    request = api.ActRequest(state=signed, action=start_game)
    assert refusal(lambda: referee.Act(request, metadata=dice(6, 1)))[1] == "CLIENT_DICE_REFUSED"
    now = [("x-tavla-test-now-ms", "1")]
    assert refusal(lambda: referee.Act(request, metadata=now))[1] == "CLIENT_TIME_REFUSED"
    assert refusal(lambda: referee.ListActions(api.ListActionsRequest(state=signed), metadata=now))[1] == (
        "CLIENT_TIME_REFUSED")


def test_test_inputs_are_refused_without_the_option_even_in_mode_off():
    """A server in mode off without --test-inputs rolls and measures itself."""
    server, plain = start(StateMode.OFF)
    try:
        signed = plain.NewMatch(api.NewMatchRequest(length=7)).state
        request = api.ActRequest(state=signed, action=G.GameAction(kind=G.ACTION_KIND_START_GAME))
        assert refusal(lambda: plain.Act(request, metadata=dice(6, 1)))[1] == "CLIENT_DICE_REFUSED"
        bad = [("x-tavla-test-dice", "6,x")]
        assert refusal(lambda: plain.Act(request, metadata=bad))[2] == "x-tavla-test-dice"
    finally:
        server.stop(None)


def test_timed_match_time_is_the_servers():
    """A timed match stamps the server's time into the state; nobody claims a timeout early."""
    server, referee = start(StateMode.REQUIRE)
    try:
        request = api.NewMatchRequest(length=3, clock=clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_RESERVE))
        new = referee.NewMatch(request)
        assert new.view.clock.turn_start_time.ToMilliseconds() > 1_700_000_000_000
        started = _act(referee, new.state, G.ACTION_KIND_START_GAME)
        assert started.view.clock.turn_start_time.ToMilliseconds() >= new.view.clock.turn_start_time.ToMilliseconds()
        mover = started.view.side_to_act
        claim = G.GameAction(kind=G.ACTION_KIND_CLAIM_TIMEOUT, side=pb.SIDE_BLACK if mover == pb.SIDE_WHITE else pb.SIDE_WHITE)
        assert refusal(referee.Act, api.ActRequest(state=started.state, action=claim))[1] == "NOT_TIMED_OUT"
        listed = referee.ListActions(api.ListActionsRequest(state=started.state))
        assert G.ACTION_KIND_CLAIM_TIMEOUT not in {a.kind for a in listed.actions}
    finally:
        server.stop(None)


def test_declared_time_in_mode_off_forfeits_on_the_clock():
    """A test server (mode off, --test-inputs) takes the caller's time (tests, replays): 61 s on
    one RESERVE move passes the 60 s cap, so the other side's claim wins the match (R24)."""
    server, referee = start(StateMode.OFF, test_inputs=True)
    at = lambda ms: [("x-tavla-test-now-ms", str(ms))]  # noqa: E731
    try:
        request = api.NewMatchRequest(length=3, clock=clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_RESERVE))
        new = referee.NewMatch(request)
        t0 = 1_600_000_000_000  # 2020: the real time is far later
        started = referee.Act(api.ActRequest(state=new.state, action=G.GameAction(kind=G.ACTION_KIND_START_GAME)),
                              metadata=dice(6, 1) + at(t0))
        assert started.view.clock.turn_start_time.ToMilliseconds() == t0 and started.view.side_to_act == pb.SIDE_WHITE
        listed_late = referee.ListActions(api.ListActionsRequest(state=started.state))
        assert G.ACTION_KIND_CLAIM_TIMEOUT in {a.kind for a in listed_late.actions}  # real time is far later
        claim = G.GameAction(kind=G.ACTION_KIND_CLAIM_TIMEOUT)
        early = refusal(lambda: referee.Act(api.ActRequest(state=started.state, action=claim), metadata=at(t0 + 59_000)))
        assert early[1] == "NOT_TIMED_OUT"
        # each kind only as itself: START_GAME after the time ran out is still WRONG_PHASE
        start_late = refusal(lambda: referee.Act(api.ActRequest(
            state=started.state, action=G.GameAction(kind=G.ACTION_KIND_START_GAME)), metadata=at(t0 + 61_000)))
        assert start_late[1] == "WRONG_PHASE"
        late = referee.Act(api.ActRequest(state=started.state, action=claim), metadata=at(t0 + 61_000))
        assert late.events.forfeit.reason == clock_pb2.FORFEIT_REASON_MOVE_TIME_CAP
        assert late.view.phase == G.GAME_PHASE_MATCH_OVER and late.view.match.winner == pb.SIDE_BLACK
        assert late.events.records[-1].kind == G.ACTION_KIND_CLAIM_TIMEOUT
    finally:
        server.stop(None)


def test_altered_unsigned_states_in_mode_off_are_answered_or_refused_never_internal():
    """Mode off trusts the state, but a state that does not fit the rules is bad input: every
    field of several real states changed (or set), then ListActions and Act: OK or
    INVALID_ARGUMENT, never INTERNAL."""
    server, referee = start(StateMode.OFF, test_inputs=True)
    try:
        states = []
        answer = _act(referee, referee.NewMatch(api.NewMatchRequest(
            length=0, ruleset=pb.Ruleset(beavers=True),
            clock=clock_pb2.ClockSettings(preset=clock_pb2.CLOCK_PRESET_EXTENSIONS))).state, G.ACTION_KIND_START_GAME)
        decoded = lambda answer: game_pb2.GameState.FromString(answer.state.state)  # noqa: E731
        states.append(decoded(answer))
        step = next(a for a in referee.ListActions(api.ListActionsRequest(state=answer.state)).actions
                    if a.kind == G.ACTION_KIND_STEP)
        states.append(decoded(referee.Act(api.ActRequest(state=answer.state, action=step))))
        signed = _to_roll_or_double(referee, api.NewMatchRequest(length=0, ruleset=pb.Ruleset(beavers=True)))
        states.append(decoded(_act(referee, _act(referee, signed, G.ACTION_KIND_DOUBLE).state, G.ACTION_KIND_BEAVER)))
        states.append(decoded(_act(referee, signed, G.ACTION_KIND_RESIGN, resign_kind=pb.RESULT_KIND_GAMMON)))
        codes = set()
        actions = [G.GameAction(kind=k) for k in (G.ACTION_KIND_START_GAME, G.ACTION_KIND_ROLL, G.ACTION_KIND_TAKE,
                                                   G.ACTION_KIND_RACCOON, G.ACTION_KIND_UNDO, G.ACTION_KIND_CONFIRM_MOVE,
                                                   G.ACTION_KIND_ACCEPT_RESIGNATION, G.ACTION_KIND_CLAIM_TIMEOUT)]
        for game in states:
            paths = [p for p, _, _ in _fields(game)]
            unset = [f.name for f in game.DESCRIPTOR.fields if f.name not in {d.name for d, _ in game.ListFields()}]
            for path in paths + [f"+{name}" for name in unset]:
                altered = game_pb2.GameState()
                altered.CopyFrom(game)
                _change(altered, path)
                state = game_pb2.SignedGameState(state=altered.SerializeToString())
                calls = [(referee.ListActions, api.ListActionsRequest(state=state))]
                calls += [(referee.Act, api.ActRequest(state=state, action=a)) for a in actions]
                for call, request in calls:
                    try:
                        call(request, metadata=dice(3, 1, 5, 5))
                        codes.add(grpc.StatusCode.OK)
                    except grpc.RpcError as err:
                        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (path, err.details())
                        codes.add(err.code())
        assert codes == {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT}
    finally:
        server.stop(None)


@pytest.fixture(scope="module")
def test_server() -> Iterator[str]:
    """The address of a test server: mode off, --test-inputs."""
    server, address = start(StateMode.OFF, test_inputs=True, address=True)
    yield address
    server.stop(None)


def test_an_illegal_step_through_act_names_the_step_and_the_dice(test_server):
    """Act's rule errors carry the same ErrorInfo metadata as ListLegalSteps' (move, dice), so the
    player's message names the roll (found by a fresh-user trial: it read "?")."""
    from tavla.client import Client, EngineError

    with Client(test_server, locale="tr") as client:
        state = client.new_match(1).state
        state = client.act(state, "start_game", dice=[5, 2]).state  # a test server: the test gives the dice
        with pytest.raises(EngineError) as info:
            client.act(state, "step", step={"from_point": 13, "to_point": 9})
    assert info.value.reason == "WRONG_DICE"
    assert info.value.metadata == {"move": "13/9", "dice": "5-2"}
    assert info.value.localized == "Bu hamle penç dü (5-2) zarıyla oynanamaz."


def test_a_state_at_the_largest_sequence_is_invalid_argument_on_its_field(test_server):
    """An unsigned state (mode off) with sequence 2**64 - 1 would overflow the next state's number."""
    from tavla.client import Client, EngineError

    with Client(test_server) as client:
        game = game_pb2.GameState.FromString(client.new_match(1).state.state)
        game.sequence = 2**64 - 1
        with pytest.raises(EngineError) as info:
            client.act(game_pb2.SignedGameState(state=game.SerializeToString()), "start_game", dice=[5, 2])
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT and info.value.fields == ("state.sequence",)
