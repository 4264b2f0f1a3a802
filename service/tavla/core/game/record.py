"""The running digest of a match's record (docs/game-state.md): the state keeps 32 bytes, not
the record, and a record kept by a client checks against them.

``digest_0`` is 32 zero bytes (a new match); each entry ``e`` (its serialized bytes, as the
referee sends them in ``GameEvents.records``) gives ``digest' = SHA-256("tavla-record-v1" ||
digest || e)``. A changed, dropped, added or reordered entry changes every digest after it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from tavla.core.errors import InvalidInputError
from tavla.core.game.state import EMPTY_DIGEST

LABEL = b"tavla-record-v1"


def extend(digest: bytes, entry: bytes) -> bytes:
    """The digest after ``entry``: SHA-256(label || digest || entry), 32 bytes."""
    return hashlib.sha256(LABEL + digest + entry).digest()


def digest_of(entries: Iterable[bytes], start: bytes = EMPTY_DIGEST) -> bytes:
    """The digest of ``entries`` in order, from ``start`` (a new match's digest by default)."""
    digest = start
    for entry in entries:
        digest = extend(digest, entry)
    return digest


def check_record(entries: Iterable[bytes], digest: bytes, field: str = "record") -> None:
    """Nothing if ``entries`` (every entry since the match began, in order) lead to ``digest``.

    :raises InvalidInputError: on ``field``: they do not (an entry changed, missing, added or
        out of order), naming how many entries were given.
    """
    given = list(entries)
    if not hmac.compare_digest(digest_of(given), digest):
        raise InvalidInputError(field, f"the {len(given)} entries do not match the state's record digest: "
                                       "give every entry the match's Act answers returned, unchanged and "
                                       "in order")
