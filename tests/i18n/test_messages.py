"""Player-facing messages: a google.rpc.LocalizedMessage in English or Turkish
beside every error's developer message, from the one catalogue tavla.core.i18n.messages, in the locale
the request metadata picks (x-tavla-locale, else accept-language)."""

from __future__ import annotations

import re

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavla.core import ActionReason, IllegalReason
from tavla.core.i18n import messages
from tavla.server.convert.status import GAME_OVER
import rpc_api as api
from tavla.v1 import match_pb2
from tavla.v1 import types_pb2 as pb

TIMEOUT = 10
START = pb.Position(position_id="4HPwATDgc/ABMA")


def _fail(call, request, metadata=()):
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=TIMEOUT, metadata=metadata)
    status = rpc_status.from_call(info.value)
    localized = [d for d in status.details if d.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR)]
    assert len(localized) == 1
    message = error_details_pb2.LocalizedMessage()
    localized[0].Unpack(message)
    return status, message


def test_the_catalogue_covers_every_reason_in_both_locales():
    reasons = {r.value for r in IllegalReason} | {r.value for r in ActionReason} | {GAME_OVER}
    assert reasons <= set(messages.REASONS)
    for reason in reasons:
        for locale in messages.LOCALES:
            text = messages.for_reason(reason, locale, {"dice": "5-1", "winner": "black"}, "point 7 (R5)")
            assert text and "{" not in text and not re.search(r"\bR\d", text), (reason, locale, text)
    for key, texts in messages.FIELDS.items():
        assert set(texts) == set(messages.LOCALES), key


@pytest.mark.parametrize(("x_tavla", "accept", "locale"), [
    (None, None, "en"), ("tr", None, "tr"), ("tr-TR", "en", "tr"), ("de", "tr", "tr"),
    (None, "tr-TR,tr;q=0.9,en-US;q=0.8", "tr"), (None, "de, en;q=0.5, tr;q=0.7", "tr"),
    (None, "fr", "en"), (None, "tr;q=0", "en"), ("en", "tr", "en"),
])
def test_locale_from_the_metadata(x_tavla, accept, locale):
    assert messages.pick_locale(x_tavla, accept) == locale


def test_an_illegal_move_in_turkish_reads_as_a_player_would_say_it(engine):
    request = api.ApplyMoveRequest(position=START, dice=[5, 1], move=pb.Move(notation="13/8"))
    status, message = _fail(engine.ApplyMove, request, [("x-tavla-locale", "tr")])
    assert message.locale == "tr"
    assert message.message == "Penç yek (5-1) attın; iki zar da oynanabiliyor, ikisini de oynamak zorundasın."
    assert "R7" in status.message  # the developer message stays
    _, english = _fail(engine.ApplyMove, request)
    assert (english.locale, english.message) == ("en", "With 5-1 both dice can be played, so you must play both.")


def test_a_blocked_point_is_named_in_the_players_numbering(engine):
    # white's 24/19 with a 5 lands on black's 6-point, white's 19 (R5)
    request = api.ApplyMoveRequest(position=START, dice=[5, 5], move=pb.Move(notation="24/19(2) 13/8(2)"))
    _, message = _fail(engine.ApplyMove, request, [("accept-language", "tr-TR,tr;q=0.9")])
    assert message.message == ("19. hane rakibin kapısı: orada rakibin iki ya da daha çok pulu var, "
                               "oraya pul konmaz.")


def test_bad_input_and_match_rules_in_turkish(engine):
    tr = [("x-tavla-locale", "tr")]
    _, message = _fail(engine.ListLegalMoves, api.ListLegalMovesRequest(position=START, dice=[7, 1]), tr)
    assert message.message == "Zarlar 1 ile 6 arasında iki sayı olmalı."
    crawford = match_pb2.MatchState(length=9, white_score=8, black_score=3, crawford=True)
    request = api.ApplyCubeActionRequest(match=crawford, side=pb.SIDE_BLACK, action=match_pb2.CUBE_ACTION_DOUBLE)
    _, message = _fail(engine.ApplyCubeAction, request, tr)
    assert message.message == "Bu oyun küpsüz oyun (Crawford kuralı): küp kullanılmaz."
    _, message = _fail(engine.StartGame, api.StartGameRequest(ruleset=pb.Ruleset(preset="tavla")), tr)
    assert message.message.startswith("Bu kurallarla bu maç uzunluğu oynanmaz")
    finished = pb.Position(position_id="APD/A0AAAAAAAA")
    _, message = _fail(engine.ApplyMove, api.ApplyMoveRequest(position=finished, dice=[2, 1],
                                                              move=pb.Move(notation="13/11")), tr)
    assert message.message == "Oyun bitti: Beyaz 15 pulunun hepsini topladı."


@pytest.mark.parametrize(("field", "key"), [
    ("position.board.white.points", "position"), ("position.position_id", "position"),
    ("match.cube.owner", "match.cube"), ("match.length", "match.length"), ("match.white_score", "match"),
    ("seed.token", "seed"), ("move.notation", "move"), ("settings.move_time", "settings"), ("bogus", ""),
    ("given.roll_off", "given.roll_off"), ("given.dice", "given.dice"), ("elapsed", "elapsed"),
])
def test_a_field_is_worded_by_its_longest_listed_prefix(field, key):
    for locale in messages.LOCALES:
        assert messages.for_field(field, locale) == messages.FIELDS[key][locale]


def test_an_undecodable_request_has_a_player_message_too(channel):
    call = channel.unary_unary("/tavla.v1.RulesService/NameRoll")  # raw bytes, no serializer
    with pytest.raises(grpc.RpcError) as info:
        call(b"\xff\xff", timeout=TIMEOUT, metadata=[("x-tavla-locale", "tr")])
    status = rpc_status.from_call(info.value)
    texts = [d for d in status.details if d.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR)]
    message = error_details_pb2.LocalizedMessage()
    texts[0].Unpack(message)
    assert (message.locale, message.message) == ("tr", "İstek okunamadı.")


def test_a_referee_state_field_is_not_worded_as_the_clock():
    # the referee's `state.*` fields (a SignedGameState and the GameState inside it) and
    # AdvanceClock's `state` (a ClockState) share the prefix "state"
    from tavla.core.i18n import messages

    for field in ("state.state", "state.position", "state.clock.turn_start_time"):
        assert messages.for_field(field, "en").startswith("The game state is not one the service made")
        assert messages.for_field(field, "tr").startswith("Oyun durumu")
    assert messages.for_field("state.white.reserve", "en") == "The clock does not fit its settings."


def test_a_referee_action_field_is_not_worded_as_a_cube_action():
    from tavla.core.i18n import messages

    for field in ("action.kind", "action.step.from_point", "action.resign_kind"):
        assert messages.for_field(field, "en") == "Choose one of the actions the last answer listed."
    assert messages.for_field("action", "en").startswith("Choose a cube action")  # ApplyCubeAction


@pytest.mark.parametrize(("variant", "mover", "other", "english", "turkish"), [
    # hypergammon (3 checkers a side): white has borne off all 3 (R15)
    ("hypergammon", {}, {24: 1, 23: 1, 22: 1}, "The game is over: White has borne off all 3 checkers.",
     "Oyun bitti: Beyaz 3 pulunun hepsini topladı."),
    ("backgammon", {}, {13: 15}, "The game is over: White has borne off all 15 checkers.",
     "Oyun bitti: Beyaz 15 pulunun hepsini topladı."),
])
def test_game_over_names_the_variants_checker_count(engine, variant, mover, other, english, turkish):
    from tavla.core import Position, Side, SideView, find_variant
    from tavla.core.ids import position_id

    kind = find_variant(variant)

    def side(points):
        counts = tuple(points.get(p, 0) for p in range(1, 25))
        return SideView(counts, 0, kind.checkers - sum(counts))

    board = Position.from_sides(Side.BLACK, side(mover), side(other), kind)
    msg = pb.Position(position_id=position_id.encode(board), on_roll=pb.SIDE_BLACK)
    request = api.ListLegalMovesRequest(position=msg, dice=[6, 5], ruleset=pb.Ruleset(variant=variant))
    status, message = _fail(engine.ListLegalMoves, request)
    assert message.message == english
    _, message = _fail(engine.ListLegalMoves, request, [("x-tavla-locale", "tr")])
    assert message.message == turkish


def test_no_player_message_says_15_checkers():
    """The variants have 3 (hypergammon) or 15 checkers: no catalogue sentence fixes the count."""
    texts = [t for by_locale in messages.REASONS.values() for pair in by_locale.values() for t in pair]
    texts += [t for by_locale in messages.FIELDS.values() for t in by_locale.values()]
    assert not [t for t in texts if re.search(r"\b15\b", t)]
