"""Signing game states: HMAC-SHA256 with key ids, rotation, and the three modes (docs/security.md).

A signed state is the exact bytes of a serialized ``GameState`` plus the id of the key that
signed it and ``HMAC-SHA256(key, "tavla-state-v1" || 0x00 || key_id || 0x00 || state)``. The first
key signs; every key verifies, so a new key is rolled out by putting it second on every replica,
then first, then removing the old one once no game signed with it is still in play (three
rolling restarts: docs/security.md#rotating-the-state-keys).

Keys come from ``TAVLA_STATE_KEYS`` (``kid1:base64key,kid2:base64key``; each key at least 32
bytes) or a file in the same format (commas or new lines). Modes:

* ``off``: nothing is signed or checked; a test server (``--test-inputs``) also takes dice and
  times from the request metadata (tests, replays; docs/game-state.md).
* ``sign``: every state returned is signed; a state sent back is checked when it carries a
  signature and accepted unsigned (a migration step); the server rolls and measures time.
* ``require``: every state sent back must carry a valid signature of a known key.

No gRPC here: :class:`StateError` is a core :class:`~tavla.core.errors.RuleError`, answered
``INVALID_ARGUMENT`` with an ``ErrorInfo`` whose reason is a :class:`StateReason`.
"""

from __future__ import annotations

import base64
import binascii
import enum
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import NamedTuple

from tavla.core.errors import RuleError

KEYS_ENV = "TAVLA_STATE_KEYS"
MODE_ENV = "TAVLA_STATE_MODE"
MIN_KEY_BYTES = 32
_LABEL = b"tavla-state-v1"
_KID = re.compile(r"^[A-Za-z0-9._-]{1,32}$")


class StateMode(enum.Enum):
    """How strictly states are signed and checked."""

    OFF = "off"
    SIGN = "sign"
    REQUIRE = "require"


def parse_mode(text: str) -> StateMode:
    """The state mode of ``--state-mode`` / ``TAVLA_STATE_MODE``: ``" Sign"`` -> ``SIGN``; empty
    is ``OFF``. The one parser of the setting (the configuration and a servicer made without one).

    :raises ValueError: not off, sign or require.
    """
    lowered = text.strip().lower() or StateMode.OFF.value
    try:
        return StateMode(lowered)
    except ValueError:
        raise ValueError(f"{text!r} is not one of {', '.join(m.value for m in StateMode)}") from None


class StateReason(str, enum.Enum):
    """Why a state or request is refused (ErrorInfo reasons, domain ``tavla.v1``)."""

    STATE_SIGNATURE_INVALID = "STATE_SIGNATURE_INVALID"  # altered, or signed by another key
    STATE_KEY_UNKNOWN = "STATE_KEY_UNKNOWN"  # a key id this server does not hold
    STATE_UNSIGNED = "STATE_UNSIGNED"  # mode require: no signature
    CLIENT_DICE_REFUSED = "CLIENT_DICE_REFUSED"  # test dice sent to a server that is not a test server
    CLIENT_TIME_REFUSED = "CLIENT_TIME_REFUSED"  # a test time sent to a server that is not a test server


class StateError(RuleError):
    """A state or request refused by the signing rules.

    :param reason: the :class:`StateReason`.
    :param message: a sentence saying why.
    """

    def __init__(self, reason: StateReason, message: str) -> None:
        super().__init__(reason, message)
        self.reason: StateReason = reason


class KeyError_(ValueError):
    """A key list that cannot be used (bad format, short key, repeated id)."""


class Signed(NamedTuple):
    """A state's bytes with its key id and signature (empty both when unsigned). A named tuple:
    two are made per Act, and a frozen dataclass costs three times as much to make."""

    state: bytes
    key_id: str = ""
    signature: bytes = b""


def parse_keys(text: str, source: str = KEYS_ENV) -> tuple[tuple[str, bytes], ...]:
    """``kid:base64key`` entries separated by commas or new lines, in order (the first signs).

    :raises KeyError_: an entry without a colon, a bad id (1-32 of ``[A-Za-z0-9._-]``), a key
        that is not base64 or shorter than 32 bytes, or an id given twice; the message names
        ``source`` but never a key.
    """
    keys: list[tuple[str, bytes]] = []
    for n, entry in enumerate(e.strip() for e in re.split(r"[,\n]", text)):
        if not entry or entry.startswith("#"):
            continue
        kid, sep, encoded = entry.partition(":")
        kid = kid.strip()
        if not sep or not _KID.match(kid):
            raise KeyError_(f"{source}: entry {n + 1} is not kid:base64key with a kid of 1-32 letters, "
                            "digits, '.', '_' or '-'")
        try:
            key = base64.b64decode(encoded.strip(), validate=True)
        except (binascii.Error, ValueError):
            raise KeyError_(f"{source}: the key of {kid!r} is not base64") from None
        if len(key) < MIN_KEY_BYTES:
            raise KeyError_(f"{source}: the key of {kid!r} has {len(key)} bytes; at least {MIN_KEY_BYTES} "
                            "(e.g. `openssl rand -base64 32`)")
        if any(kid == k for k, _ in keys):
            raise KeyError_(f"{source}: key id {kid!r} is given twice")
        keys.append((kid, key))
    if not keys:
        raise KeyError_(f"{source}: no key")
    return tuple(keys)


class StateSigner:
    """Signs and checks states with a key list and a mode.

    :ivar shared: whether the keys were configured (every replica holds them) rather than drawn
        at random by this process.
    """

    def __init__(self, mode: StateMode, keys: tuple[tuple[str, bytes], ...], *, shared: bool) -> None:
        if not keys:
            raise KeyError_("no state key")
        self.mode = mode
        self._keys = dict(keys)
        self._signing = keys[0]
        self.shared = shared
        # each key's HMAC with the label and its id already absorbed: a state's MAC copies it
        # and hashes only the state (the key's two padded blocks are not hashed again per call)
        self._started = {kid: hmac.new(key, _LABEL + b"\0" + kid.encode("ascii") + b"\0", hashlib.sha256)
                         for kid, key in keys}

    @classmethod
    def from_settings(cls, mode: StateMode, environ: Mapping[str, str], keys_file: str | None = None) -> StateSigner:
        """The signer of ``mode`` with keys from ``keys_file``, else ``TAVLA_STATE_KEYS``, else a
        random per-process key (one replica only; refused in mode require).

        :raises KeyError_: unusable keys, an unreadable file, or require without keys.
        """
        text, source = environ.get(KEYS_ENV, ""), KEYS_ENV
        if keys_file:
            try:
                with open(keys_file, encoding="utf-8") as f:
                    text, source = f.read(), keys_file
            except OSError as exc:
                raise KeyError_(f"{keys_file}: cannot read the state keys: {exc.strerror}") from None
        if text.strip():
            return cls(mode, parse_keys(text, source), shared=True)
        if mode is StateMode.REQUIRE:
            raise KeyError_(f"state mode require needs keys every replica shares: set {KEYS_ENV} "
                            "or --state-keys-file")
        return cls(mode, (("local", secrets.token_bytes(32)),), shared=False)

    @property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(self._keys)

    def _mac(self, kid: str, state: bytes) -> bytes:
        """HMAC-SHA256 under key ``kid`` of the label, the key id and ``state`` (each ended by a
        zero byte but the state)."""
        mac = self._started[kid].copy()
        mac.update(state)
        return mac.digest()

    def seal(self, state: bytes) -> Signed:
        """``state`` signed with the first key; unsigned in mode off."""
        if self.mode is StateMode.OFF:
            return Signed(state)
        kid = self._signing[0]
        return Signed(state, kid, self._mac(kid, state))

    def open(self, signed: Signed) -> bytes:
        """The state bytes once the signature checks out as the mode asks.

        :raises StateError: ``STATE_UNSIGNED`` (require, no signature), ``STATE_KEY_UNKNOWN``,
            ``STATE_SIGNATURE_INVALID``.
        """
        if self.mode is StateMode.OFF:
            return signed.state
        if not signed.signature and not signed.key_id:
            if self.mode is StateMode.REQUIRE:
                raise StateError(StateReason.STATE_UNSIGNED,
                                 "the state carries no signature; send back the state the server returned")
            return signed.state
        if signed.key_id not in self._started:
            where = "" if self.shared else f" (no {KEYS_ENV} is set: states verify only on the process that signed them)"
            raise StateError(StateReason.STATE_KEY_UNKNOWN,
                             f"the state is signed with key {signed.key_id[:40]!r}, which this server does not hold{where}")
        if not hmac.compare_digest(signed.signature, self._mac(signed.key_id, signed.state)):
            raise StateError(StateReason.STATE_SIGNATURE_INVALID,
                             "the state's signature does not match its bytes: it was altered or not signed by the service")
        return signed.state
