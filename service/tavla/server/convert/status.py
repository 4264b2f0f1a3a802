"""Errors as gRPC statuses with rich details (AIP-193): the one mapping, used by the error
interceptor (:mod:`tavla.server.pipeline.errors`) and by servicers that answer a stream.

Every failure a client can cause is ``INVALID_ARGUMENT``:

* :class:`~tavla.core.InvalidInputError` -> ``google.rpc.BadRequest`` with one field violation
  (``field`` = the request field path, ``description`` = the reason).
* :class:`IllegalMove` (a core :class:`~tavla.core.IllegalMoveError` plus the move as sent) ->
  ``google.rpc.ErrorInfo(reason=<IllegalReason>, domain="tavla.v1", metadata={"move", "dice"})``.
* :class:`GameOver` -> ``ErrorInfo(reason="GAME_OVER")`` and a field violation on ``position``.
* A request whose bytes do not parse as the request message -> ``INVALID_ARGUMENT``.
* A request field outside the bounds declared beside it in proto/ (:mod:`tavla.server.convert.contract`,
  checked here before the handler) -> ``INVALID_ARGUMENT`` with a field violation naming it.
* An answer a field of which cannot hold its value (protobuf's "Value out of range"): a bound on
  the input is missing, but the input caused it -> ``INVALID_ARGUMENT`` naming ``request``, and a
  warning in the log. Every RPC's inputs are bounded so that this does not happen.

Each status also carries a ``google.rpc.LocalizedMessage`` worded for players
(:mod:`tavla.core.i18n.messages`), in the locale the request metadata picks: ``x-tavla-locale``, else
``accept-language`` (``en`` or ``tr``; English by default). The status message stays the
developer's.

Anything else is a bug: it is logged with its traceback and answered ``INTERNAL`` with a generic
message, and the server carries on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.protobuf import message as pb_message
from google.rpc import code_pb2, error_details_pb2, status_pb2

from tavla.core import (
    GameNotOverError,
    GameOverError,
    IllegalMoveError,
    InvalidInputError,
    RuleError,
    Side,
    TavlaError,
)
from tavla.core.i18n import messages

DOMAIN = "tavla.v1"
GAME_OVER = "GAME_OVER"
# Core messages quote the input. Status messages travel in HTTP/2 trailers, which clients cap
# (8 KiB by default), so an echoed megabyte would turn a clean INVALID_ARGUMENT into a transport
# error on the client. Both the message and each detail string are cut to this many UTF-8 bytes.
MAX_TEXT = 512


class GameOver(Exception):
    """A move was asked for in a position where a side has already won (R15: borne off all its
    ``checkers``, 15 or the variant's; or ``ending`` ``mother_pinned``) or the game is drawn."""

    def __init__(self, winner: Side | None, text: str = "", checkers: int = 15, ending: str = "") -> None:
        super().__init__(text or f"the game is over: {winner.name.lower() if winner else 'a draw'}"
                                 + (f" has borne off all {checkers} checkers (R15)" if winner else ""))
        self.winner = winner
        self.checkers = checkers
        self.ending = ending or ("borne_off" if winner else "draw")

    @classmethod
    def of(cls, exc: GameOverError) -> GameOver:
        """The core's :class:`~tavla.core.GameOverError` as the RPC error (its text, winner,
        checker count and ending)."""
        return cls(exc.winner, str(exc), exc.checkers, exc.ending)  # type: ignore[arg-type]


class IllegalMove(Exception):
    """A core :class:`IllegalMoveError` with the move and dice as the client sent them."""

    def __init__(self, error: IllegalMoveError, move: str, dice: Sequence[int]) -> None:
        super().__init__(error.message)
        self.error = error
        self.move = move
        self.dice = tuple(dice)


LOCALE_KEYS = ("x-tavla-locale", "accept-language")  # request metadata, first wins


def locale_of(metadata: Sequence[tuple[str, Any]] | None) -> str:
    """The locale of the player messages for a call's invocation metadata (``en`` by default)."""
    values = {key.lower(): value for key, value in metadata or () if isinstance(value, str)}
    return messages.pick_locale(values.get(LOCALE_KEYS[0]), values.get(LOCALE_KEYS[1]))


def status_for(exc: BaseException, locale: str = messages.DEFAULT_LOCALE) -> status_pb2.Status | None:
    """The ``google.rpc.Status`` for an expected error, or ``None`` for a bug; with a
    ``LocalizedMessage`` in ``locale`` for every expected error."""
    status = _developer_status(exc)
    return None if status is None else localized(status, locale)


def localized(status: status_pb2.Status, locale: str) -> status_pb2.Status:
    """``status`` with the player's ``LocalizedMessage`` in ``locale`` added to its details."""
    text = _player_text(status, locale)
    status.details.add().Pack(error_details_pb2.LocalizedMessage(locale=locale, message=_cut(text)))
    return status


def _player_text(status: status_pb2.Status, locale: str) -> str:
    # the reason's sentence if the catalogue has one, else the first field's
    field = ""
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            text = messages.for_reason(info.reason, locale, dict(info.metadata), status.message)
            if text is not None:
                return text
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR) and not field:
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            field = bad.field_violations[0].field if bad.field_violations else ""
    return messages.for_field(field, locale)


def _developer_status(exc: BaseException) -> status_pb2.Status | None:
    if isinstance(exc, InvalidInputError):
        return invalid_argument(str(exc), bad_request(exc.field, exc.reason))
    if isinstance(exc, IllegalMove):
        info = _error_info(exc.error.reason.value, move=exc.move, dice="-".join(map(str, exc.dice[:4])))
        return invalid_argument(exc.error.message, info)
    if isinstance(exc, RuleError):  # moves, cube, clock, actions: raised without the request's move
        return invalid_argument(exc.message, _error_info(str(exc.reason.value)))
    if isinstance(exc, GameOverError):
        exc = GameOver.of(exc)
    if isinstance(exc, GameOver):
        return invalid_argument(
            str(exc),
            _error_info(GAME_OVER, winner=exc.winner.name.lower() if exc.winner else "draw",
                        checkers=str(exc.checkers), ending=exc.ending),
            bad_request("position", str(exc)),
        )
    if isinstance(exc, GameNotOverError):  # scoring an unfinished game
        return invalid_argument(str(exc), bad_request("position", str(exc)))
    if isinstance(exc, TavlaError):  # any other deliberate core error is still about the input
        return invalid_argument(str(exc))
    return None


def invalid_argument(message: str, *details: pb_message.Message) -> status_pb2.Status:
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=_cut(message))
    for detail in details:
        status.details.add().Pack(detail)
    return status


def bad_request(field: str, description: str) -> error_details_pb2.BadRequest:
    return error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=_cut(field), description=_cut(description))
        ]
    )


def _error_info(reason: str, **metadata: str) -> error_details_pb2.ErrorInfo:
    return error_details_pb2.ErrorInfo(
        reason=reason, domain=DOMAIN, metadata={k: _cut(v) for k, v in metadata.items()}
    )


def _cut(text: str) -> str:
    # by UTF-8 bytes: a 4-byte character is 12 bytes once percent-encoded in grpc-message
    data = text.encode("utf-8")
    if len(data) <= MAX_TEXT:
        return text
    return data[: MAX_TEXT - 3].decode("utf-8", errors="ignore") + "..."
