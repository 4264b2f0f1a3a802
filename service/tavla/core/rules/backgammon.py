"""The backgammon geometry, and its first two variants: backgammon and Turkish tavla (R1-R17).

The board (:mod:`tavla.core.rules.position`) is one tuple of 26 ints seen from the side on roll:
``board[1..24]`` > 0 its checkers on its point p, < 0 the opponent's there (the opponent's
point 25 - p: opposite directions); ``board[25]`` its bar; ``board[0]`` minus the opponent's bar.

:class:`Backgammon` holds the geometry's hooks, among them **the single-step rule**
(:meth:`Backgammon.sources`, R4-R14) that the generator, the diagnosis of illegal moves and the
steps of a turn all use. :class:`TurkishTavla` plays by the same rules on the same board: what
differs between the international and the Turkish game today (who starts, what a katmerli mars
pays, the cube) are :class:`~tavla.core.match.ruleset.Ruleset` options, so a variant with another start
(nackgammon) or fewer checkers (hypergammon) is a subclass that changes class data only.

No imports of the position, the generator or the ruleset: they import this module.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, ClassVar

from tavla.core.i18n import names
from tavla.core.errors import IllegalReason, InvalidInputError
from tavla.core.rules.variant import (
    GNUBG_ID,
    POSITION_ID,
    XGID,
    Board,
    Contact,
    Direction,
    ResultKind,
    Variant,
    bear_off_refusal,
    bears_off,
    register,
)

if TYPE_CHECKING:
    from tavla.core.rules.position import Position, Side, SideView

POINTS = 24
BAR = 25  # index of the on-roll side's bar, and the "from" of an entering checker
OFF = 0  # the "to" of a checker borne off
R = IllegalReason

# A board value as a signed byte -> the count of the side it belongs to, else 0 (for translate).
_MINE = bytes(range(128)) + bytes(128)
_THEIRS = bytes(129) + bytes(range(127, 0, -1))
_pack_board = struct.Struct("26b").pack


def side_counts(board: Board, on_roll: bool) -> bytes:
    """25 counts of one side in its own numbering, points 1..24 then the bar, as bytes.

    :param on_roll: the side on roll (else the other side). Byte operations rather than a Python
        loop: Position IDs and answers need this for every resulting position.
    """
    raw = _pack_board(*board)
    return raw[1:].translate(_MINE) if on_roll else raw[24::-1].translate(_THEIRS)


def flip_board(board: Board) -> Board:
    """The same board seen from the other side."""
    return tuple(-x for x in reversed(board))


def _where(point: int) -> str:
    return "bar" if point == BAR else "off" if point == 0 else str(point)


class Backgammon(Variant):
    """International backgammon: 15 checkers a side, 2 on 24, 5 on 13, 3 on 8, 5 on 6 (R2);
    opposite directions; a single checker is hit to the bar (R5, R8); a backgammon pays 3
    (R16, R17) and the cube is played (R19)."""

    name = "backgammon"
    aliases: ClassVar[tuple[str, ...]] = ("international", "international_backgammon")
    title = "Backgammon"
    start: ClassVar[tuple[tuple[int, int], ...]] = ((24, 2), (13, 5), (8, 3), (6, 5))
    direction = Direction.OPPOSITE
    contact = Contact.HIT
    bar = True
    cube = True
    codecs = {POSITION_ID: "tavla.core.ids.position_id", GNUBG_ID: "tavla.core.ids.match_id", XGID: "tavla.core.ids.xgid"}
    preset = "international"
    preset_aliases = ("backgammon",)
    description = ("International backgammon: the roll-off dice are the first move, a backgammon pays 3, "
                   "doubling cube up to 64 with the Crawford rule, any match length or money play.")
    record_names = ("standard", "standard backgammon")  # gnubg's Variation values for plain backgammon
    engine_net = True

    @classmethod
    def initial_board(cls) -> Board:
        b = [0] * 26
        for point, n in cls.start:
            b[point] += n
            b[25 - point] -= n
        return tuple(b)

    flip = staticmethod(flip_board)
    side_counts = staticmethod(side_counts)

    @classmethod
    def board_from_sides(cls, on_roll: Side, mine: SideView, theirs: SideView) -> Board:
        b = [0] * 26
        for p in range(1, 25):
            m, t = mine.points[p - 1], theirs.points[24 - p]
            if m and t:
                raise InvalidInputError(
                    f"position.board.{on_roll.name.lower()}.points",
                    f"point {p} of {on_roll.name.lower()} (point {25 - p} of "
                    f"{on_roll.other.name.lower()}) holds checkers of both sides",
                )
            b[p] = m - t
        b[BAR] = mine.bar
        b[0] = -theirs.bar
        return tuple(b)

    @staticmethod
    def sources(b: list[int], die: int, outside: int, top: int = BAR, bottom: int = 1) -> list[int]:
        """The single-step rule of backgammon (R4-R14): points (25 = bar) from which ``die`` can
        be played now, highest first.

        :param outside: the mover's checkers outside its home board (points 7-25), for R11.
        :param top: highest point to consider; the doubles search passes the last source so that
            the same dice in another order are not tried again (the bar, 25, is empty in the loop).
        :param bottom: lowest point to consider (one checker's step: ``top`` = ``bottom``).
        """
        if b[BAR]:  # R8: bar checkers first; R9: die n enters on point 25 - n
            return [BAR] if b[BAR - die] >= -1 else []
        found = []
        for f in range(top, bottom - 1, -1):
            if b[f] > 0:
                t = f - die
                if t > 0:
                    if b[t] >= -1:  # R5: open, own, or a blot
                        found.append(f)
                elif not outside and bears_off(b, f, die, 0):  # R11, R12
                    found.append(f)
        return found

    @staticmethod
    def play(b: list[int], f: int, die: int) -> tuple[int, bool]:
        t = f - die
        b[f] -= 1
        if t <= 0:
            return 0, False
        if b[t] == -1:  # R5, R8: hit the blot, it goes to the opponent's bar
            b[t] = 1
            b[0] -= 1
            return t, True
        b[t] += 1
        return t, False

    @staticmethod
    def unplay(b: list[int], f: int, t: int, hit: bool) -> None:
        b[f] += 1
        if t:
            if hit:
                b[t] = -1
                b[0] += 1
            else:
                b[t] -= 1

    @staticmethod
    def outside_count(b: list[int] | Board) -> int:
        """The mover's checkers on points 7-24 and the bar (R11)."""
        return b[BAR] + sum([n for n in b[7:BAR] if n > 0])  # a list: faster than a generator here

    @classmethod
    def refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str]:
        # The clauses of sources, in the order a player meets them; sources refused the step,
        # so the first clause that applies is the one broken.
        if b[BAR] and f != BAR:
            return R.MUST_ENTER_FROM_BAR, f"a checker on the bar must enter before {f} moves (R8)"
        if b[f] <= 0:
            return R.NO_CHECKER_THERE, f"no checker of the side on roll on {_where(f)} (R4)"
        t = f - die
        if t > 0:
            return R.POINT_BLOCKED, f"point {t} is held by two or more opposing checkers (R5, R9)"
        return bear_off_refusal(b, f, die, cls.outside_count(b), cls.checkers, "R11, R14")

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        """R15: single if the loser has borne off a checker, else gammon (mars). R16: backgammon
        (katmerli mars) if the loser has borne off none and has a checker on the bar or in the
        winner's home board (the loser's points 19-24)."""
        loser = position.side(winner.other)
        if loser.off:
            return ResultKind.SINGLE
        if loser.bar or any(loser.points[18:]):
            return ResultKind.BACKGAMMON
        return ResultKind.GAMMON


class TurkishTavla(Backgammon):
    """Turkish tavla: backgammon's board, start and moves (seeds 000-004); the Turkish start
    rule, katmerli mars paid as mars and no cube are the ``turkish`` preset's options."""

    name = "tavla"
    aliases: ClassVar[tuple[str, ...]] = ("turkish", "turkish_tavla", "tavla_turkish")
    title = "Tavla"
    title_tr = "Tavla"
    kind_names = {ResultKind.SINGLE: "single", ResultKind.GAMMON: names.RESULT_NAMES["gammon"],
                  ResultKind.BACKGAMMON: names.RESULT_NAMES["backgammon"]}
    preset = "turkish"
    preset_aliases = ("tavla",)
    preset_options = {"start": "turkish", "katmerli_mars": "as_mars", "cube": False,
                      "match_lengths": (1, 3, 5, 7, 9, 11), "money_play": False}  # R3, R17, R18, seed 000
    description = ("Turkish tavla: the roll-off winner rolls again and later games the last winner starts, "
                   "katmerli mars pays 2 like mars, no cube, matches to 1, 3, 5, 7, 9 or 11.")
    engine_net = True


register(Backgammon)
register(TurkishTavla)
