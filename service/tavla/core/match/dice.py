"""Dice (R22): where the numbers come from. Never the :mod:`random` module.

Three sources, each an endless iterator of die values 1-6 that callers draw from in order:

* :func:`secure_dice`: the operating system's CSPRNG through :mod:`secrets`;
* :func:`given_dice`: dice rolled elsewhere (physical dice, a client's RNG), checked 1-6;
* :func:`seeded_dice`: the verifiable stream of a committed server seed and a client seed
  (docs/dice.md): ``HMAC-SHA256(server_seed, "tavla-dice-v1/dice" || u32be(i) || client_seed)``
  for i = 0, 1, 2, ...; each byte below 252 gives the die ``byte % 6 + 1`` (252 = 42 x 6, so the
  six faces are equally likely), bytes 252-255 are skipped.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Iterator

from tavla.core.errors import InvalidInputError

SCHEME = "tavla-dice-v1"
DICE_LABEL = b"tavla-dice-v1/dice"
ACCEPT_BELOW = 252  # 42 x 6: the largest multiple of 6 a byte can hold
MAX_CLIENT_SEED = 256  # characters


def secure_die() -> int:
    """One die, 1-6, from the operating system's CSPRNG."""
    return secrets.randbelow(6) + 1


def secure_dice() -> Iterator[int]:
    """An endless stream of :func:`secure_die`."""
    while True:
        yield secure_die()


def given_dice(values: Iterable[int], field: str = "dice") -> Iterator[int]:
    """The dice a caller rolled elsewhere, each checked to be 1-6.

    :raises InvalidInputError: a value outside 1-6 (when it is drawn).
    """
    for value in values:
        if not 1 <= value <= 6:
            raise InvalidInputError(field, f"die {value} is not 1-6")
        yield value


def check_client_seed(client_seed: str, field: str = "seed.client_seed") -> str:
    """``client_seed`` if it is 1-256 characters.

    :raises InvalidInputError: empty (a roll that only the server's seed decides could have been
        chosen when the seed was) or longer than :data:`MAX_CLIENT_SEED`.
    """
    if not client_seed:
        raise InvalidInputError(field, "is required: the client's randomness, fixed before CommitDice (its SHA-256 "
                                       "went with that request)")
    if len(client_seed) > MAX_CLIENT_SEED:
        raise InvalidInputError(field, f"is {len(client_seed)} characters; at most {MAX_CLIENT_SEED}")
    return client_seed


def seeded_dice(server_seed: bytes, client_seed: str) -> Iterator[int]:
    """The verifiable die stream of ``server_seed`` and ``client_seed`` (module docstring)."""
    suffix = client_seed.encode("utf-8")
    for i in itertools.count():
        block = hmac.new(server_seed, DICE_LABEL + i.to_bytes(4, "big") + suffix, hashlib.sha256).digest()
        for byte in block:
            if byte < ACCEPT_BELOW:
                yield byte % 6 + 1


def roll(source: Iterator[int]) -> tuple[int, int]:
    """Two dice drawn from ``source``, in the order drawn."""
    return next(source), next(source)
