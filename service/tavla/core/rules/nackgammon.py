"""Nackgammon (variants-rules.md "Nackgammon"; dailygammon's help, GNU Backgammon's ``InitBoard``):
backgammon with Nick Ballard's start, 2 on the 24-point, 2 on 23, 4 on 13, 3 on 8 and 4 on 6
for each side. Everything else is backgammon's (R4-R21): hitting, bar, bear-off, gammons,
backgammons and the cube.
"""

from __future__ import annotations

from typing import ClassVar

from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import register


@register
class Nackgammon(Backgammon):
    """Nackgammon: class data only, so the compiled generator and the ID codecs are
    backgammon's."""

    name = "nackgammon"
    aliases: ClassVar[tuple[str, ...]] = ("nack", "nack_gammon")
    title = "Nackgammon"
    title_tr: ClassVar[str] = "Nackgammon (Nack tavlası)"
    start: ClassVar[tuple[tuple[int, int], ...]] = ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))
    preset_aliases = ("nack",)
    description = ("Nackgammon (Turkish: Nack tavlası): backgammon from 2 on the 24-point, 2 on 23, 4 on 13, "
                   "3 on 8 and 4 on 6; a backgammon pays 3, cube up to 64 with the Crawford rule.")
    gnubg_header = "NackGammon"
    gnubg_rule = "Nackgammon"
