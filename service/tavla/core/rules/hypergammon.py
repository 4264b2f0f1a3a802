"""Hypergammon (variants-rules.md "Hypergammon"; GNU Backgammon's 3-chequer hypergammon, OpenSpiel's
``backgammon(hyper_backgammon=true)``): backgammon with 3 checkers a side, one each on the 24-,
23- and 22-point. Hitting, bar, bear-off, gammons, backgammons and the cube as in backgammon.

The checker count is the variant's (``checkers = 3``): :meth:`Position.from_sides
<tavla.core.rules.position.Position.from_sides>`, the ID decoders and scoring check it, and the
bear-off figures use a first-off table for 3 checkers (:mod:`tavla.core.rules.bearoff_db`). The
moves are backgammon's, so the compiled generator plays them; the server's whole-call
ListLegalMoves answer in Rust writes 15-checker borne-off counts, so hypergammon's answers take
the Python encoder (``tavla.server.api.generator.plays``).
"""

from __future__ import annotations

from typing import ClassVar

from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import register


@register
class Hypergammon(Backgammon):
    """Hypergammon: 3 checkers a side; class data only."""

    name = "hypergammon"
    aliases: ClassVar[tuple[str, ...]] = ("hyper", "hyper_backgammon", "hypergammon3")
    title = "Hypergammon"
    title_tr: ClassVar[str] = "Hipergammon (üç pullu tavla)"
    checkers = 3
    start: ClassVar[tuple[tuple[int, int], ...]] = ((24, 1), (23, 1), (22, 1))
    preset_aliases = ("hyper",)
    description = ("Hypergammon (Turkish: üç pullu tavla): backgammon with 3 checkers a side, on the 24-, 23- "
                   "and 22-points; hitting, gammons, backgammons, cube up to 64 with the Crawford rule.")
    gnubg_header = "HyperGammon (3)"
    gnubg_rule = "Hypergammon3"
