"""A game's turns as the game machine counts them, read from a record's rolls: a throw that goes
on in the same turn (gul bara's cascade of doubles, :meth:`tavla.core.rules.variant.Variant.next_throw`)
is the same player's next roll, and does not start a turn."""

from __future__ import annotations

from tavla.core.rules.variant import Variant

__all__ = ["Turns"]


class Turns:
    """Follows one game's rolls in record order.

    Call :meth:`roll` before each roll is played and :meth:`played` after it.
    """

    def __init__(self, variant: type[Variant]) -> None:
        self.variant = variant
        self.count = 0  # the game's turns so far, this one included (the first roll counts 1)
        #: the player and dice the turn goes on with, after a throw that goes on; else None
        self.follow: tuple[int, tuple[int, int]] | None = None

    def roll(self, player: int, dice: tuple[int, int]) -> bool:
        """Whether this roll goes on the turn before it (else it starts a turn)."""
        goes_on = self.follow == (player, dice)
        if not goes_on:
            self.count += 1
        self.follow = None
        return goes_on

    def played(self, player: int, dice: tuple[int, int], dice_used: int, over: bool) -> None:
        """The roll was played with ``dice_used`` dice; ``over``: it ended the game."""
        if not over and dice_used == len(self.variant.dice_to_play(*dice)):
            goes_on = self.variant.next_throw(dice, self.count)
            self.follow = (player, goes_on) if goes_on else None
