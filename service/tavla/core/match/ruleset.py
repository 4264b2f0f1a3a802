"""Rulesets (RULES.md R3, R16-R21): one engine, options as data, and the variant they play.

A ruleset names its variant (``variant``: the board geometry and rules family of
:mod:`tavla.core.rules.variant`, resolved by :func:`tavla.core.rules.variant.find_variant`); the options
here (who starts, what a katmerli mars pays, the cube, match lengths) are played on any variant
that has them. The ``international`` preset plays backgammon, ``turkish`` plays tavla.

Presets are looked up by name or alias through :func:`preset`, the way python-chess resolves a
variant; every option of a preset can be overridden with :func:`dataclasses.replace`.
:data:`PRESET_INFO` describes each preset for frontends (``ListRulesets``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from tavla.core.rules.backgammon import Backgammon, TurkishTavla
from tavla.core.rules.hypergammon import Hypergammon
from tavla.core.rules.nackgammon import Nackgammon
from tavla.core.rules.portes import Portes
from tavla.core.rules.fevga import Fevga
from tavla.core.rules.long_nardy import LongNardy
from tavla.core.rules.plakoto import Plakoto
from tavla.core.errors import InvalidInputError
from tavla.core.rules.variant import Variant, find_variant

MAX_CUBE = 64  # R19: the cube goes up to 64
# Largest cube_limit accepted: online sites set 1024 (the match records' CubeLimit header);
# anything up to 2**30 keeps every score inside 32 bits.
MAX_CUBE_LIMIT = 1 << 30
TURKISH_MATCH_LENGTHS = (1, 3, 5, 7, 9, 11)  # R18, seed 000
# Longest match: every real record format stays within it (GNU Backgammon's own limit is 64),
# and the analysis engine's match-equity tables are defined only that far.
MAX_MATCH_LENGTH = 64


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

    :ivar start: :class:`StartRule` (R3).
    :ivar katmerli_mars: :class:`KatmerliMarsRule` (R16, R17).
    :ivar cube: whether the doubling cube is in play (R19).
    :ivar crawford: whether the Crawford rule applies in match play (R21); only with the cube.
    :ivar jacoby: money play only: gammons and backgammons pay single until the cube is turned.
    :ivar beavers: money play only: a doubled side may redouble at once and keep the cube.
    :ivar cube_limit: the highest cube value, a power of two (R19: 64).
    :ivar match_lengths: the match lengths allowed; empty means any from 1 to :data:`MAX_MATCH_LENGTH` (R18).
    :ivar money_play: whether unlimited (money) play, match length 0, is allowed (R18).
    :ivar variant: the variant's canonical name (``"backgammon"``, ``"tavla"``); any name or
        alias is accepted and stored canonical (:func:`~tavla.core.rules.variant.find_variant`).
        :attr:`variant_class` is the variant itself.
    :ivar prime_rule: fevga: a prime must be opened when all the opponent's checkers are behind
        it (variants-rules.md, Ours: on); no effect in other variants.
    :ivar head_three_three: long nardy: 3-3 on the first throw takes two checkers off the head,
        as 6-6 and 4-4 do (on); no effect in other variants.
    :ivar koks: long nardy: a mars with a checker left in the winner's starting quarter pays 3
        (off); no effect in other variants.

    :raises InvalidInputError: an unknown variant (``ruleset.variant``), or the cube on for a
        variant without one (``ruleset.cube``).
    """

    start: StartRule = StartRule.INTERNATIONAL
    katmerli_mars: KatmerliMarsRule = KatmerliMarsRule.COUNTED
    cube: bool = True
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    cube_limit: int = MAX_CUBE
    match_lengths: tuple[int, ...] = ()
    money_play: bool = True
    variant: str = Backgammon.name
    prime_rule: bool = True
    head_three_three: bool = True
    koks: bool = False

    def __post_init__(self) -> None:
        found = find_variant(self.variant)
        if found.name != self.variant:
            object.__setattr__(self, "variant", found.name)  # frozen: canonical once, here
        if self.cube and not found.cube:
            raise InvalidInputError("ruleset.cube", f"variant {found.name!r} has no doubling cube")

    @property
    def variant_class(self) -> type[Variant]:
        """The variant this ruleset plays (:mod:`tavla.core.rules.variant`), as its options
        configure it (:meth:`Variant.configured <tavla.core.rules.variant.Variant.configured>`:
        fevga without the prime rule is a subclass of fevga)."""
        return find_variant(self.variant).configured(self)

    @property
    def crawford_in_play(self) -> bool:
        """Whether a Crawford game can happen: the Crawford rule needs the cube (R21)."""
        return self.cube and self.crawford

    def for_length(self, length: int) -> Ruleset:
        """The options that can apply to a match of ``length`` points (0: money play): in match
        play Jacoby and beavers are money-play options and are turned off, so that a state shows
        the rules it is played under rather than options that cannot apply (issue 22)."""
        if length > 0 and (self.jacoby or self.beavers):
            return replace(self, jacoby=False, beavers=False)
        return self

    def allows_length(self, length: int) -> bool:
        """Whether a match of ``length`` points (0: money play) may be played (R18)."""
        if length == 0:
            return self.money_play
        return 0 < length <= MAX_MATCH_LENGTH and (not self.match_lengths or length in self.match_lengths)

    def check_length(self, length: int, field: str = "match.length") -> None:
        """:raises InvalidInputError: ``length`` is not allowed by :meth:`allows_length`."""
        if not self.allows_length(length):
            allowed = (", ".join(map(str, self.match_lengths)) if self.match_lengths
                       else f"1-{MAX_MATCH_LENGTH}")
            money = " or 0 (money play)" if self.money_play else "; money play (0) is off"
            raise InvalidInputError(field, f"match length {length} is not allowed: {allowed}{money} (R18)")


def check_cube_limit(limit: int, field: str = "ruleset.cube_limit") -> int:
    """``limit`` if it is a power of two from 2 to :data:`MAX_CUBE_LIMIT`.

    :raises InvalidInputError: otherwise.
    """
    if not 2 <= limit <= MAX_CUBE_LIMIT or limit & (limit - 1):
        raise InvalidInputError(field, f"{limit} is not a power of two from 2 to {MAX_CUBE_LIMIT}")
    return limit


def check_match_lengths(lengths: tuple[int, ...], field: str = "ruleset.match_lengths") -> tuple[int, ...]:
    """``lengths`` sorted, if each is a length from 1 to :data:`MAX_MATCH_LENGTH`.

    :raises InvalidInputError: a length of 0 (money play is its own option) or too large.
    """
    for n in lengths:
        if not 1 <= n <= MAX_MATCH_LENGTH:
            raise InvalidInputError(field, f"match length {n} is not 1-{MAX_MATCH_LENGTH}; "
                                           "money play is money_play")
    return tuple(sorted(set(lengths)))


@dataclass(frozen=True, slots=True)
class PresetInfo:
    """A named preset, for frontends: its name, aliases, a sentence, and its options."""

    name: str
    aliases: tuple[str, ...]
    description: str
    ruleset: Ruleset


PRESETS: dict[str, Ruleset] = {
    "international": Ruleset(),
    "turkish": Ruleset(StartRule.TURKISH, KatmerliMarsRule.AS_MARS, cube=False,
                       match_lengths=TURKISH_MATCH_LENGTHS, money_play=False, variant=TurkishTavla.name),
}
# The variants on backgammon's board (variants-rules.md): portes without the cube (so without the
# Crawford rule, R21), nackgammon and hypergammon with the international options.
PRESETS.update({
    "portes": Ruleset(cube=False, crawford=False, variant=Portes.name),
    "nackgammon": Ruleset(variant=Nackgammon.name),
    "hypergammon": Ruleset(variant=Hypergammon.name),
})
ALIASES = {"backgammon": "international", "tavla": "turkish", "mahbusa": "plakoto", "tapa": "plakoto",
           "moultezim": "fevga", "uzun_nard": "long_nardy", "narde": "long_nardy", "uzun nard": "long_nardy",
           "long nardy": "long_nardy"}
ALIASES.update({"greek_backgammon": "portes", "greek backgammon": "portes", "nack": "nackgammon",
                "hyper": "hypergammon", "hyper_backgammon": "hypergammon"})
# The pinning and same-direction games (variants-rules.md): no cube in any of them.
PRESETS.update({
    "plakoto": Ruleset(cube=False, crawford=False, variant=Plakoto.name),
    "fevga": Ruleset(cube=False, crawford=False, variant=Fevga.name),
    "long_nardy": Ruleset(cube=False, crawford=False, variant=LongNardy.name),
})

PRESET_INFO: tuple[PresetInfo, ...] = (
    PresetInfo(
        "international", ("backgammon",),
        "International backgammon: the roll-off dice are the first move, a backgammon pays 3, "
        "doubling cube up to 64 with the Crawford rule, any match length or money play.",
        PRESETS["international"],
    ),
    PresetInfo(
        "turkish", ("tavla",),
        "Turkish tavla: the roll-off winner rolls again and later games the last winner starts, "
        "katmerli mars pays 2 like mars, no cube, matches to 1, 3, 5, 7, 9 or 11.",
        PRESETS["turkish"],
    ),
    PresetInfo(
        "portes", ("greek_backgammon",),
        "Portes (Greek backgammon; Turkish: Yunan tavlası): backgammon's start and moves, no cube, "
        "a gammon pays 2 and there is no backgammon (never 3).",
        PRESETS["portes"],
    ),
    PresetInfo(
        "nackgammon", ("nack",),
        "Nackgammon (Turkish: Nack tavlası): backgammon from 2 on the 24-point, 2 on 23, 4 on 13, "
        "3 on 8 and 4 on 6; a backgammon pays 3, cube up to 64 with the Crawford rule.",
        PRESETS["nackgammon"],
    ),
    PresetInfo(
        "hypergammon", ("hyper",),
        "Hypergammon (Turkish: üç pullu tavla): backgammon with 3 checkers a side, on the 24-, 23- "
        "and 22-points; hitting, gammons, backgammons, cube up to 64 with the Crawford rule.",
        PRESETS["hypergammon"],
    ),
    PresetInfo(
        "plakoto", ("mahbusa", "tapa"),
        "Plakoto (Turkish mahbusa): all 15 start on the 24-point, a checker landing on a single "
        "opposing checker pins it, a pinned mother loses 2 unless the pinner's mother is home, "
        "both mothers pinned is a draw (replayed); 2 for a gammon, no cube.",
        PRESETS["plakoto"],
    ),
    PresetInfo(
        "fevga", ("moultezim",),
        "Fevga (Turkish moultezim): both sides move the same way from diagonally opposite "
        "starts, a single checker holds a point, the first checker must pass the opponent's "
        "start before another moves, the own starting quarter never all held; 2 for a gammon, "
        "no cube.",
        PRESETS["fevga"],
    ),
    PresetInfo(
        "long_nardy", ("uzun_nard", "narde"),
        "Long nardy (Turkish uzun nard): both sides move the same way from their heads, one "
        "checker off the head per turn (two with 6-6, 4-4, 3-3 on the first throw), no six "
        "points in a row unless an opposing checker is past them; oin 1, mars 2, no cube.",
        PRESETS["long_nardy"],
    ),
)


def preset(name: str) -> Ruleset:
    """The preset called ``name`` (or an alias such as ``tavla``), case-insensitive.

    :raises InvalidInputError: unknown name (field ``ruleset.preset``).
    """
    return PRESETS[preset_name(name)]


def preset_name(name: str) -> str:
    """The canonical name of the preset called ``name`` or an alias of it.

    :raises InvalidInputError: unknown name (field ``ruleset.preset``).
    """
    key = name.strip().lower().replace("-", "_")
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        known = ", ".join(sorted([*PRESETS, *ALIASES]))
        raise InvalidInputError("ruleset.preset", f"unknown preset {name!r}; known: {known}")
    return key
