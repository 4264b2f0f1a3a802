"""Rule variants (RULES.md R3, R16, R17, R19): one engine, options as data.

Presets are looked up by name or alias through :func:`preset`, the way python-chess resolves a
variant; every option of a preset can be overridden with :func:`dataclasses.replace`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavla.core.errors import InvalidInputError


class StartRule(enum.Enum):
    """Who starts and with which dice (R3)."""

    INTERNATIONAL = "international"  # roll-off dice are the first move, never a double
    TURKISH = "turkish"  # roll-off winner rolls again; later games the last winner starts


class KatmerliMarsRule(enum.Enum):
    """How a backgammon (katmerli mars, R16) is paid (R17)."""

    COUNTED = "counted"  # 3 points
    AS_MARS = "as_mars"  # reported as katmerli mars, paid 2 like a gammon (mars)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The options of a game. The default is the international rules.

    :ivar start: :class:`StartRule`.
    :ivar katmerli_mars: :class:`KatmerliMarsRule`.
    :ivar cube: whether the doubling cube is in play (R19).
    """

    start: StartRule = StartRule.INTERNATIONAL
    katmerli_mars: KatmerliMarsRule = KatmerliMarsRule.COUNTED
    cube: bool = True


PRESETS: dict[str, Ruleset] = {
    "international": Ruleset(),
    "turkish": Ruleset(StartRule.TURKISH, KatmerliMarsRule.AS_MARS, cube=False),
}
ALIASES = {"backgammon": "international", "tavla": "turkish"}


def preset(name: str) -> Ruleset:
    """The preset called ``name`` (or an alias such as ``tavla``), case-insensitive.

    :raises InvalidInputError: unknown name (field ``ruleset.preset``).
    """
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(sorted([*PRESETS, *ALIASES]))
        raise InvalidInputError("ruleset.preset", f"unknown preset {name!r}; known: {known}") from None
