"""The referee's responses as wire bytes (referee_service.proto): ``ActResponse`` and
``ListActionsResponse``, each field written in number order as the protobuf library writes it
(tests/referee/test_referee_cache.py checks the bytes equal the message's). Building the
response message would copy the view and every action into it only for gRPC to serialize it
again; the servicers send these bytes as they are (:mod:`tavla.server.api.encoded`)."""

from __future__ import annotations

from tavla.core.game import Action
from tavla.server.convert import game as cg
from tavla.server.convert import game_wire as gw

# The responses' fields as wire tags (field number << 3 | 2, length-delimited)
_ACT_STATE, _ACT_VIEW, _ACT_EVENTS, _ACT_ACTIONS = (gw.tag(n, 2) for n in (1, 2, 3, 4))
_LIST_ACTIONS, _LIST_VIEW = (gw.tag(n, 2) for n in (1, 2))


def act_response(state: bytes, key_id: str, signature: bytes, view: bytes, events: bytes,
                 legal: tuple[Action, ...]) -> bytes:
    """An ``ActResponse``: the signed state (its bytes, key id and signature: a
    ``SignedGameState``), the view's and events' bytes, the legal actions; written by the
    compiled writer when the engine installed it (:func:`tavla.server.convert.game_wire.use_compiled`)."""
    compiled = gw.compiled
    if compiled is not None:
        try:
            return compiled.act(state, key_id, signature, view, events, legal, cg.KIND_NUMBERS, cg.RESULT_NUMBERS)
        except (ValueError, TypeError, OverflowError):  # what it refuses: the Python writer's answer (or error)
            pass
    signed = b"".join((gw.raw(b"\x0a", state), gw.text(b"\x12", key_id), gw.raw(b"\x1a", signature)))
    return b"".join((gw.field(_ACT_STATE, signed), gw.field(_ACT_VIEW, view), gw.field(_ACT_EVENTS, events),
                     cg.actions_fields(_ACT_ACTIONS, legal)))


def list_actions_response(legal: tuple[Action, ...], view: bytes) -> bytes:
    """A ``ListActionsResponse``: the legal actions, then the view's bytes."""
    return cg.actions_fields(_LIST_ACTIONS, legal) + gw.field(_LIST_VIEW, view)
