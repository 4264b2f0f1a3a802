"""Gul bara (Bulgarian and Turkish "gül bara", also "rosespring backgammon", "crazy narde"):
docs/variants.md, "Gul bara", where the sources and the readings taken are listed.

All 15 checkers start on the own 24; both sides move the same way round the board (the heads are
the mover's 24 and 12); no hitting, no bar, a single checker holds a point
(:mod:`tavla.core.rules.same_direction`). No start rule and no blocking rule: a checker goes to
any point the opponent does not hold. Bear-off is backgammon's (R11, R12); 1 point, 2 (mars)
when the loser has borne off nothing; no cube. **Ours**:

* the doubles (the turn hook, :meth:`GulBara.next_throw`): in the first three throws of the
  game a double plays four times, as in backgammon. From the fourth throw on, a double ``d-d``
  whose four dice are all played is followed in the same turn by ``(d+1)-(d+1)``, and so on up
  to 6-6 (3-3 plays four 3s, then four 4s, four 5s, four 6s);
* each double of that cascade is one throw, played by R6 and R7 (as many of its dice as can
  be); a throw not played in full ends the turn: the doubles left are lost (Wikipedia's and
  eightygames' reading gives them to the opponent instead; docs/variants.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from tavla.core.rules.same_direction import SameDirection, plain_step
from tavla.core.rules.variant import ResultKind, register

#: The throws of a game (the first roll counts 1) whose doubles play four times only.
PLAIN_THROWS = 3


@register
class GulBara(SameDirection):
    """Gul bara: fevga's board without its start and blocking rules; later doubles cascade."""

    name = "gul_bara"
    aliases: ClassVar[tuple[str, ...]] = ("gioul", "gulbara", "rosespring", "crazy_narde")
    title = "Gul bara"
    title_tr: ClassVar[str] = "Gül bara"
    kind_names = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "mars"}
    # no rule lets a lower checker's step open one for a higher checker (no start or prime
    # rule, no hitting): a double's steps are tried highest source first, as in backgammon
    ordered_doubles = True
    preset_aliases = ("gioul",)
    description = ("Gul bara (Turkish gül bara): both sides move the same way from diagonally opposite "
                   "starts, a single checker holds a point, from the fourth throw of the game a double "
                   "played in full is followed by the next up to 6-6; 2 for a mars, no cube.")

    @staticmethod
    def sources(b: list[int], die: int, outside: int, top: int = 24, bottom: int = 1) -> list[int]:
        """The single-step rule of gul bara: a checker of the mover goes to a point the opponent
        does not hold, or bears off by R11 and R12."""
        return [f for f in range(min(top, 24), bottom - 1, -1) if b[f] > 0 and plain_step(b, f, f - die, outside)]

    @classmethod
    def next_throw(cls, dice: Sequence[int], turn: int) -> tuple[int, int] | None:
        """After a double played in full from the fourth throw of the game on, the next double up
        to 6-6 (the cascade); else ``None``."""
        if len(dice) == 2 and dice[0] == dice[1] < 6 and turn > PLAIN_THROWS:
            return dice[0] + 1, dice[0] + 1
        return None
