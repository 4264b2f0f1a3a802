"""Commit-reveal for verifiable dice, with no server memory (R22; docs/dice.md).

The server commits to a secret seed before a roll and reveals it after, so a player can check
that the dice were fixed before the position they were used in was known:

1. The players fix their client seed first and send only its SHA-256 (``client_seed_sha256``).
2. :meth:`DiceKey.commit`: a random 16-byte ``nonce``; the server seed is
   ``HMAC-SHA256(K, "tavla-dice-v1/seed" || nonce)``, the commitment ``SHA-256(server_seed)``
   (hex), and the token ``"tv2." + base64url_nopad(nonce || u32be(expires) || H || tag)`` with
   ``H`` the client seed's SHA-256 and
   ``tag = HMAC-SHA256(K, "tavla-dice-v2/token" || nonce || u32be(expires) || H)[:16]``.
   The caller publishes the commitment and keeps the token; neither reveals the seed.
3. :meth:`DiceKey.open` checks the token (canonical spelling, the tag, not expired) and turns it
   back into the server seed; the dice are :func:`tavla.core.match.dice.seeded_dice` of the server seed
   and the client seed whose SHA-256 is ``H``, and the server seed is revealed with them.

Binding the client seed at commit time means whoever holds a token cannot try client seeds until
the dice suit them; the expiry (:data:`TOKEN_SECONDS`) limits how long a token is worth keeping.
No replica remembers anything: any replica holding the same key ``K`` opens any token. ``K`` is
derived from ``TAVLA_DICE_KEY`` (at least 32 characters, the same on every replica); without it
each process draws a random key, and a token only opens on the process that issued it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from tavla.core.match.dice import SCHEME, check_client_seed, seeded_dice
from tavla.core.errors import InvalidInputError

KEY_ENV = "TAVLA_DICE_KEY"
MIN_KEY_LENGTH = 32  # characters of TAVLA_DICE_KEY
TOKEN_PREFIX = "tv2."
NONCE_BYTES = 16
EXPIRY_BYTES = 4
HASH_BYTES = 32
TAG_BYTES = 16
TOKEN_BYTES = NONCE_BYTES + EXPIRY_BYTES + HASH_BYTES + TAG_BYTES
#: Seconds a token stays valid after CommitDice.
TOKEN_SECONDS = 600
_KEY_LABEL = b"tavla-dice-v1/key"
_SEED_LABEL = b"tavla-dice-v1/seed"
_TOKEN_LABEL = b"tavla-dice-v2/token"
_GAME_LABEL = b"tavla-dice-v1/game"
_TOKEN_CHARS = -(-TOKEN_BYTES * 4 // 3)  # base64url without padding
_TOKEN_BODY = re.compile(r"[A-Za-z0-9_-]{%d}" % _TOKEN_CHARS)
_SHA256_HEX = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class Commitment:
    """What :meth:`DiceKey.commit` hands out: the public commitment and the sealed token."""

    commitment: str  # hex SHA-256 of the server seed
    token: str  # sent back to roll; opens only with the key
    expires: int  # Unix time (seconds) after which the token is refused


@dataclass(frozen=True, slots=True)
class DiceProof:
    """Everything a player needs to recompute a verifiable roll (docs/dice.md)."""

    scheme: str
    commitment: str
    server_seed: str  # hex, revealed
    client_seed: str


class DiceKey:
    """The key that seals server seeds into tokens; one per deployment (or per process).

    :ivar shared: whether the key came from :data:`KEY_ENV` (every replica can open the tokens)
        rather than being drawn at random by this process.
    """

    def __init__(self, secret: bytes, *, shared: bool) -> None:
        self._key = hashlib.sha256(_KEY_LABEL + secret).digest()
        self.shared = shared

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> DiceKey:
        """The key from ``environ[KEY_ENV]``, else a random per-process key.

        :raises ValueError: the variable is set but shorter than :data:`MIN_KEY_LENGTH`.
        """
        value = environ.get(KEY_ENV, "")
        if not value:
            return cls.random()
        if len(value) < MIN_KEY_LENGTH:
            raise ValueError(f"{KEY_ENV} has {len(value)} characters; use at least {MIN_KEY_LENGTH} "
                             "random ones, e.g. `openssl rand -hex 32`")
        return cls(value.encode("utf-8"), shared=True)

    @classmethod
    def random(cls) -> DiceKey:
        """A fresh random key: tokens open only in this process (one replica)."""
        return cls(secrets.token_bytes(32), shared=False)

    def _mac(self, label: bytes, nonce: bytes) -> bytes:
        return hmac.new(self._key, label + nonce, hashlib.sha256).digest()

    def game_secret(self, match_id: str, game: int) -> bytes:
        """The secret that fixes every roll of game ``game`` (0 = the first) of a match:
        ``HMAC-SHA256(K, "tavla-dice-v1/game" || u32be(len) || match_id || u32be(game))``. The
        referee publishes its :func:`commitment_of` before the game and reveals it after; each
        roll is :func:`tavla.core.match.dice.seeded_dice` of it with the roll's tag as the client seed
        (docs/security.md)."""
        mid = match_id.encode("utf-8")
        body = len(mid).to_bytes(4, "big") + mid + (game & 0xFFFFFFFF).to_bytes(4, "big")
        return self._mac(_GAME_LABEL, body)

    def commit(self, client_seed_sha256: str, *, now: float | None = None,
               field: str = "client_seed_sha256") -> Commitment:
        """A new commitment and its token, bound to the client seed whose SHA-256 is given.

        :param client_seed_sha256: hex SHA-256 of the client seed's UTF-8 bytes (64 characters,
            lower or upper case).
        :param now: Unix time to count the expiry from (tests); the clock by default.
        :raises InvalidInputError: not 64 hex characters.
        """
        digest = client_seed_sha256.strip().lower()
        if not _SHA256_HEX.fullmatch(digest):
            what = "is required" if not digest else "is not 64 hex characters"
            raise InvalidInputError(field, f"{what}: the hex SHA-256 of the client seed the players fixed "
                                           "before asking for the commitment")
        nonce = secrets.token_bytes(NONCE_BYTES)
        expires = int(time.time() if now is None else now) + TOKEN_SECONDS
        sealed = nonce + expires.to_bytes(EXPIRY_BYTES, "big") + bytes.fromhex(digest)
        tag = self._mac(_TOKEN_LABEL, sealed)[:TAG_BYTES]
        token = TOKEN_PREFIX + base64.urlsafe_b64encode(sealed + tag).decode("ascii").rstrip("=")
        return Commitment(commitment_of(self._mac(_SEED_LABEL, nonce)), token, expires)

    def open(self, token: str, client_seed: str, field: str = "seed", *, now: float | None = None) -> bytes:
        """The server seed sealed in ``token``, if ``client_seed`` is the one it was committed with.

        Only the spelling CommitDice gave opens a token (no padding, no other alphabet, no
        trailing bits), so a record keyed on the token cannot be fooled by another spelling;
        records should key on the commitment all the same.

        :raises InvalidInputError: on ``{field}.token``: not a token, not issued with this key
            (another deployment, or another process when ``TAVLA_DICE_KEY`` is unset), or
            expired; on ``{field}.client_seed``: not the committed client seed.
        """
        where = f"{field}.token"
        body = token[len(TOKEN_PREFIX):] if token.startswith(TOKEN_PREFIX) else ""
        if not _TOKEN_BODY.fullmatch(body):
            raise InvalidInputError(where, "is not a token from CommitDice")
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            raise InvalidInputError(where, "is not a token from CommitDice") from None
        if len(raw) != TOKEN_BYTES or base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=") != body:
            raise InvalidInputError(where, "is not a token from CommitDice")
        sealed, tag = raw[:-TAG_BYTES], raw[-TAG_BYTES:]
        if not hmac.compare_digest(tag, self._mac(_TOKEN_LABEL, sealed)[:TAG_BYTES]):
            note = "" if self.shared else (
                f" (no {KEY_ENV} is set: a token opens only on the process that issued it)")
            raise InvalidInputError(where, f"was not issued with this server's dice key{note}")
        nonce = sealed[:NONCE_BYTES]
        expires = int.from_bytes(sealed[NONCE_BYTES:NONCE_BYTES + EXPIRY_BYTES], "big")
        if (time.time() if now is None else now) > expires:
            raise InvalidInputError(where, f"has expired ({TOKEN_SECONDS} s after CommitDice); commit again")
        committed = sealed[NONCE_BYTES + EXPIRY_BYTES:]
        if not hmac.compare_digest(hashlib.sha256(client_seed.encode("utf-8")).digest(), committed):
            raise InvalidInputError(f"{field}.client_seed",
                                    "is not the client seed whose SHA-256 was given to CommitDice")
        return self._mac(_SEED_LABEL, nonce)

    def stream(self, token: str, client_seed: str, field: str = "seed", *,
               now: float | None = None) -> tuple[Iterator[int], DiceProof]:
        """The verifiable die stream of ``token`` and ``client_seed``, and the proof to reveal.

        :raises InvalidInputError: a bad token (``seed.token``) or client seed (``seed.client_seed``).
        """
        check_client_seed(client_seed, f"{field}.client_seed")
        seed = self.open(token, client_seed, field, now=now)
        proof = DiceProof(SCHEME, commitment_of(seed), seed.hex(), client_seed)
        return seeded_dice(seed, client_seed), proof


def client_seed_sha256(client_seed: str) -> str:
    """What CommitDice takes: the hex SHA-256 of the client seed's UTF-8 bytes."""
    return hashlib.sha256(client_seed.encode("utf-8")).hexdigest()


def commitment_of(server_seed: bytes) -> str:
    """The commitment to ``server_seed``: its SHA-256, hex."""
    return hashlib.sha256(server_seed).hexdigest()


def verify(proof: DiceProof, dice: Sequence[int]) -> bool:
    """Whether ``dice`` are the first dice of the proof's stream and the seed matches the commitment.

    This is the check docs/dice.md spells out for players; it needs no key.
    """
    try:
        seed = bytes.fromhex(proof.server_seed)
    except ValueError:
        return False
    if proof.scheme != SCHEME or not hmac.compare_digest(commitment_of(seed), proof.commitment.lower()):
        return False
    stream = seeded_dice(seed, proof.client_seed)
    return all(next(stream) == d for d in dice)
