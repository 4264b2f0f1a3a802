"""Rulesets (RULES.md R3, R16-R21): one engine, options as data, and the variant they play.

A ruleset names its variant (``variant``: the board geometry and rules family of
:mod:`tavla.core.rules.variant`, resolved by :func:`tavla.core.rules.variant.find_variant`); the options
here (who starts, what a katmerli mars pays, the cube, match lengths) are played on any variant
that has them. The ``international`` preset plays backgammon, ``turkish`` plays tavla.

Each registered variant has one preset, made from its class data (``preset``,
``preset_options``, ``options``, ``description``: :mod:`tavla.core.rules.variant`); presets are
looked up by name, or by a variant's name or alias, through :func:`preset`; every option of a
preset can be overridden with :func:`dataclasses.replace`. :data:`PRESET_INFO` describes each
preset for frontends (``ListRulesets``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from tavla.core.rules.backgammon import Backgammon, TurkishTavla
from tavla.core.errors import InvalidInputError
from tavla.core.rules.variant import Variant, find_variant, load_variants, variants

MAX_CUBE = 64  # R19: the cube goes up to 64
# Largest cube_limit accepted: online sites set 1024 (the match records' CubeLimit header);
# anything up to 2**30 keeps every score inside 32 bits.
MAX_CUBE_LIMIT = 1 << 30
TURKISH_MATCH_LENGTHS: tuple[int, ...] = TurkishTavla.preset_options["match_lengths"]  # type: ignore[assignment]  # R18
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
    # the variants' own options (``Variant.options``; a test checks these defaults are theirs)
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
        the rules it is played under rather than options that cannot apply."""
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


def _preset_of(variant: type[Variant]) -> Ruleset:
    """A variant's preset: its ``preset_options`` over the defaults, its own options' defaults,
    and without a cube (so without the Crawford rule, R21) where it has none."""
    given = dict(variant.preset_options)
    for key, enum_type in (("start", StartRule), ("katmerli_mars", KatmerliMarsRule)):
        if key in given:
            given[key] = enum_type(given[key])
    if not variant.cube:
        given.update(cube=False, crawford=False)
    return Ruleset(**{**variant.options, **given, "variant": variant.name})  # type: ignore[arg-type]


#: One preset per registered variant, under the variant's preset name (:meth:`Variant.preset_name`).
PRESETS: dict[str, Ruleset] = {v.preset_name(): _preset_of(v) for v in load_variants()}

#: Each preset for frontends (``ListRulesets``), from its variant's class data.
PRESET_INFO: tuple[PresetInfo, ...] = tuple(
    PresetInfo(v.preset_name(), v.preset_aliases, v.description, PRESETS[v.preset_name()]) for v in variants()
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
    if key in PRESETS:
        return key
    try:  # a variant's name or alias names its preset
        return find_variant(name, "ruleset.preset").preset_name()
    except InvalidInputError:
        known = ", ".join(sorted(PRESETS))
        raise InvalidInputError("ruleset.preset", f"unknown preset {name[:40]!r}; known: {known} "
                                                  "and every variant's name or alias") from None
