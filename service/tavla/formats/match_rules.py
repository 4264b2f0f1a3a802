"""The match options a record's headers set: :class:`MatchRules` (the cube limit, Crawford, the
variant, the preset, money play), read by the writers, the replay and the review alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tavla.core import InvalidInputError, StartRule, preset
from tavla.core.match.ruleset import preset_name
from tavla.formats import variation
from tavla.formats.matreader import Match

FORFEIT_PLAY = "????"  # a .mat game that ended by forfeit (no move recorded)
DEFAULT_CUBE_LIMIT = 64
RULESET_HEADER = "Ruleset"  # ExportMatch's header: the preset the match was played under


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The match options a record's headers set (``CubeLimit``, ``Crawford``, gnubg's
    ``Variation``: the ``variant``, :mod:`tavla.formats.variation`; ExportMatch's ``Ruleset``:
    the ``preset`` whose other options the match is played under, ``international`` when the
    header is absent), and whether it is played as a money session (``money``; ``jacoby``:
    gammons pay single until the cube turns).

    ``turkish_start`` and ``cube`` are the preset's: the roll-off winner rolls again and later
    games the last winner starts (R3-turkish); whether there is a cube (R19).
    ``unknown_variation``: the reason a ``Variation`` header names no variant here ("" if none);
    the replay then reports it and compares nothing. ``unknown_ruleset``: the same for a
    ``Ruleset`` header naming no preset (the record is then checked under ``international``)."""

    cube_limit: int = DEFAULT_CUBE_LIMIT
    crawford: bool = True
    money: bool = False
    jacoby: bool = False
    variant: str = "backgammon"
    unknown_variation: str = ""
    preset: str = "international"
    turkish_start: bool = False
    cube: bool = True
    unknown_ruleset: str = ""

    @classmethod
    def of(cls, match: Match) -> MatchRules:
        return cls.from_headers(match.headers)

    @classmethod
    def from_headers(cls, headers: Mapping[str, str], mode: str = "match") -> MatchRules:
        limit = headers.get("CubeLimit", "")
        crawford = headers.get("Crawford", "On").strip().lower() != "off"
        name, unknown_ruleset = "international", ""
        if RULESET_HEADER in headers:
            try:
                name = preset_name(headers[RULESET_HEADER])
            except InvalidInputError:
                unknown_ruleset = (f"ruleset {headers[RULESET_HEADER][:40]!r} is not a preset here: "
                                   "checked under international")
        rules = preset(name)
        try:
            variant, unknown = (variation.variant_of_headers(headers) if variation.HEADER in headers
                                else rules.variant), ""
        except variation.UnknownVariationError as exc:
            variant, unknown = "backgammon", str(exc)
        return cls(int(limit) if limit.isdigit() else DEFAULT_CUBE_LIMIT, crawford and rules.cube,
                   money=mode.startswith("money"), jacoby=mode == "money-jacoby", variant=variant,
                   unknown_variation=unknown, preset=name, turkish_start=rules.start is StartRule.TURKISH,
                   cube=rules.cube, unknown_ruleset=unknown_ruleset)

    def describe(self, length: int) -> str:
        """The rules in words, e.g. ``7-point match, Crawford on, cube limit 1024`` (led by the
        preset when it is not international, then the variant when it is not the preset's:
        ``nackgammon, 5-point match, ...``, ``turkish, 3-point match, no cube``)."""
        lead = "" if self.preset == "international" else f"{self.preset}, "
        if self.variant != preset(self.preset).variant:
            lead += f"{self.variant}, "
        cube = f"cube limit {self.cube_limit}" if self.cube else "no cube"
        if self.money:
            return f"{lead}money session, Jacoby {'on' if self.jacoby else 'off'}, {cube}"
        if not self.cube:
            return f"{lead}{length}-point match, {cube}"
        return f"{lead}{length}-point match, Crawford {'on' if self.crawford else 'off'}, {cube}"
