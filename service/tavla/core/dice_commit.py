"""Commit-reveal for verifiable dice, with no server memory (R22; docs/dice.md).

The server commits to a secret seed before a roll and reveals it after, so a player can check
that the dice were fixed before the position they were used in was known:

1. :meth:`DiceKey.commit`: a random 16-byte ``nonce``; the server seed is
   ``HMAC-SHA256(K, "tavla-dice-v1/seed" || nonce)``, the commitment ``SHA-256(server_seed)``
   (hex), and the token ``"tv1." + base64url(nonce || tag)`` with
   ``tag = HMAC-SHA256(K, "tavla-dice-v1/token" || nonce)[:16]``. The caller publishes the
   commitment and keeps the token; neither reveals the seed.
2. The players choose a client seed after seeing the commitment.
3. :meth:`DiceKey.open` turns the token back into the server seed (the tag proves this key
   issued it); the dice are :func:`tavla.core.dice.seeded_dice` of the two seeds, and the server
   seed is revealed with them.

No replica remembers anything: any replica holding the same key ``K`` opens any token. ``K`` is
derived from ``TAVLA_DICE_KEY`` (at least 32 characters, the same on every replica); without it
each process draws a random key, and a token only opens on the process that issued it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from tavla.core.dice import SCHEME, check_client_seed, seeded_dice
from tavla.core.errors import InvalidInputError

KEY_ENV = "TAVLA_DICE_KEY"
MIN_KEY_LENGTH = 32  # characters of TAVLA_DICE_KEY
TOKEN_PREFIX = "tv1."
NONCE_BYTES = 16
TAG_BYTES = 16
_KEY_LABEL = b"tavla-dice-v1/key"
_SEED_LABEL = b"tavla-dice-v1/seed"
_TOKEN_LABEL = b"tavla-dice-v1/token"
_GAME_LABEL = b"tavla-dice-v1/game"


@dataclass(frozen=True, slots=True)
class Commitment:
    """What :meth:`DiceKey.commit` hands out: the public commitment and the sealed token."""

    commitment: str  # hex SHA-256 of the server seed
    token: str  # sent back to roll; opens only with the key


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
        roll is :func:`tavla.core.dice.seeded_dice` of it with the roll's tag as the client seed
        (docs/security.md)."""
        mid = match_id.encode("utf-8")
        body = len(mid).to_bytes(4, "big") + mid + (game & 0xFFFFFFFF).to_bytes(4, "big")
        return self._mac(_GAME_LABEL, body)

    def commit(self) -> Commitment:
        """A new commitment and its token."""
        nonce = secrets.token_bytes(NONCE_BYTES)
        seed = self._mac(_SEED_LABEL, nonce)
        tag = self._mac(_TOKEN_LABEL, nonce)[:TAG_BYTES]
        token = TOKEN_PREFIX + base64.urlsafe_b64encode(nonce + tag).decode("ascii").rstrip("=")
        return Commitment(commitment_of(seed), token)

    def open(self, token: str, field: str = "seed.token") -> bytes:
        """The server seed sealed in ``token``.

        :raises InvalidInputError: not a token, or not issued with this key (another deployment,
            or another process when ``TAVLA_DICE_KEY`` is unset).
        """
        if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            raise InvalidInputError(field, "is not a token from CommitDice")
        body = token[len(TOKEN_PREFIX):]
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            raise InvalidInputError(field, "is not a token from CommitDice") from None
        if len(raw) != NONCE_BYTES + TAG_BYTES:
            raise InvalidInputError(field, "is not a token from CommitDice")
        nonce, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
        if not hmac.compare_digest(tag, self._mac(_TOKEN_LABEL, nonce)[:TAG_BYTES]):
            where = "" if self.shared else (
                f" (no {KEY_ENV} is set: a token opens only on the process that issued it)")
            raise InvalidInputError(field, f"was not issued with this server's dice key{where}")
        return self._mac(_SEED_LABEL, nonce)

    def stream(self, token: str, client_seed: str, field: str = "seed") -> tuple[Iterator[int], DiceProof]:
        """The verifiable die stream of ``token`` and ``client_seed``, and the proof to reveal.

        :raises InvalidInputError: a bad token (``seed.token``) or client seed (``seed.client_seed``).
        """
        check_client_seed(client_seed, f"{field}.client_seed")
        seed = self.open(token, f"{field}.token")
        proof = DiceProof(SCHEME, commitment_of(seed), seed.hex(), client_seed)
        return seeded_dice(seed, client_seed), proof


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
