"""Plakoto (Greek) = mahbusa (Turkish) = tapa (Bulgarian): the pinning game (variants-rules.md).

All 15 checkers start on the own 24-point; the sides move in opposite directions. There is no
hitting and no bar: a checker landing on a single opposing checker **pins** it, and the pinned
checker stays under the pinner until every checker on top has left (bearing off included). A
point is closed to a side when the opponent has two or more checkers there, or pins one of that
side's checkers there. A side bears off only with all 15 home and none pinned.

The **mother** is the last checker on a side's start point (its 24). When it is pinned there,
that side loses 2 points, unless the pinner's own mother is still on its start point: then play
goes on, and if both mothers end up pinned the game is a draw (it scores nothing and is replayed
in a match). Otherwise 1 point, 2 when the loser has borne off nothing; no cube. (**Ours** in
variants-rules.md; the mother loss pays as a gammon, kind ``GAMMON`` with the ending
``mother_pinned``.)

The board: :mod:`tavla.core.rules.geometry` (28 ints: the free stacks, and two masks of pinned
checkers in ``board[26]``, mine, and ``board[27]``, theirs). A pin is a step's ``hit`` flag:
notation writes it as a hit, ``13/7*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tavla.core.errors import IllegalReason, InvalidInputError
from tavla.core.rules.geometry import SIZE, mirror_mask, where
from tavla.core.rules.variant import FAMILY_ID, Board, Contact, Direction, ResultKind, Variant, bear_off_refusal, bears_off, register

if TYPE_CHECKING:
    from tavla.core.rules.position import Position, Side, SideView

R = IllegalReason
MINE = 26  # mask of the mover's points where a mover's checker is pinned
THEIRS = 27  # mask of the mover's points where an opponent's checker is pinned (under the mover's)
HEAD = 24  # each side's start point, where its mother stands
MOTHER_MINE = 1 << HEAD  # the mover's mother pinned (bit 24 of MINE)
MOTHER_THEIRS = 1 << 1  # the opponent's mother pinned: its 24 is the mover's 1 (bit 1 of THEIRS)


class Plakoto(Variant):
    """Plakoto, mahbusa, tapa: pins, the mother rule, a draw when both mothers are pinned."""

    name = "plakoto"
    aliases: ClassVar[tuple[str, ...]] = ("mahbusa", "tapa")
    title = "Plakoto"
    title_tr: ClassVar[str] = "Mahbusa"
    preset_aliases = ("mahbusa", "tapa")
    description = ("Plakoto (Turkish mahbusa): all 15 start on the 24-point, a checker landing on a single "
                   "opposing checker pins it, a pinned mother loses 2 unless the pinner's mother is home, "
                   "both mothers pinned is a draw (replayed); 2 for a gammon, no cube.")
    start = ((24, 15),)
    direction = Direction.OPPOSITE
    contact = Contact.PIN
    bar = False
    cube = False
    kinds = (ResultKind.SINGLE, ResultKind.GAMMON)
    kind_names = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon"}
    codecs: ClassVar[dict[str, str]] = {FAMILY_ID: "tavla.core.ids.family_id"}

    @classmethod
    def initial_board(cls) -> Board:
        b = [0] * SIZE
        b[24], b[1] = 15, -15
        return tuple(b)

    @staticmethod
    def flip(board: Board) -> Board:
        return (0, *(-x for x in board[24:0:-1]), 0, mirror_mask(board[THEIRS]), mirror_mask(board[MINE]))

    @staticmethod
    def side_counts(board: Board, on_roll: bool) -> bytes:
        if on_roll:
            mine, pins = board[1:25], board[MINE]
            return bytes([(x if x > 0 else 0) + (pins >> p & 1) for p, x in enumerate(mine, 1)] + [0])
        pins = board[THEIRS]
        return bytes([(-board[25 - q] if board[25 - q] < 0 else 0) + (pins >> (25 - q) & 1)
                      for q in range(1, 25)] + [0])

    @staticmethod
    def side_pinned(board: Board, on_roll: bool) -> tuple[int, ...]:
        if on_roll:
            mask = board[MINE]
            return tuple(p for p in range(1, 25) if mask >> p & 1)
        mask = board[THEIRS]
        return tuple(25 - p for p in range(24, 0, -1) if mask >> p & 1)

    @classmethod
    def board_from_sides(cls, on_roll: Side, mine: SideView, theirs: SideView) -> Board:
        b = [0] * SIZE
        me, them = on_roll.name.lower(), on_roll.other.name.lower()
        my_pins, their_pins = set(mine.pinned), set(theirs.pinned)
        for side, view, pins in ((me, mine, my_pins), (them, theirs, their_pins)):
            for q in pins:
                if not 1 <= q <= 24 or view.points[q - 1] != 1:
                    raise InvalidInputError(f"position.board.{side}.pinned",
                                            f"point {q}: a pinned checker is the one checker of "
                                            f"{side} on a point of 1-24")
        for p in range(1, 25):
            m, t = mine.points[p - 1], theirs.points[24 - p]
            if m and t:
                if p in my_pins and 25 - p not in their_pins:
                    b[p], b[MINE] = -t, b[MINE] | 1 << p
                elif 25 - p in their_pins and p not in my_pins:
                    b[p], b[THEIRS] = m, b[THEIRS] | 1 << p
                else:
                    raise InvalidInputError(
                        f"position.board.{me}.points",
                        f"point {p} of {me} (point {25 - p} of {them}) holds checkers of both sides; "
                        "one side's single checker there must be pinned (its `pinned`)")
            elif (m and p in my_pins) or (t and 25 - p in their_pins):
                raise InvalidInputError(f"position.board.{me if m else them}.pinned",
                                        f"point {p if m else 25 - p} has no opposing checker to pin it")
            else:
                b[p] = m - t
        if mine.bar or theirs.bar:
            raise InvalidInputError(f"position.board.{me if mine.bar else them}.bar",
                                    "plakoto has no bar: checkers are pinned, never hit")
        return tuple(b)

    @staticmethod
    def sources(b: list[int], die: int, outside: int, top: int = 24, bottom: int = 1) -> list[int]:
        """The single-step rule of plakoto: a free checker of the mover moves ``die`` to a point
        that is not closed (two or more opposing checkers, or one pinning a mover's checker
        there); bearing off with all 15 home and none pinned (``outside`` counts the pinned),
        a larger die from the highest occupied point (R11, R12)."""
        found = []
        pinned_mine = b[MINE]
        for f in range(min(top, 24), bottom - 1, -1):
            if b[f] > 0:
                t = f - die
                if t > 0:
                    x = b[t]
                    if x >= 0 or (x == -1 and not pinned_mine >> t & 1):
                        found.append(f)
                elif not outside and bears_off(b, f, die, 0):  # R11, R12
                    found.append(f)
        return found

    @staticmethod
    def play(b: list[int], f: int, die: int) -> tuple[int, bool]:
        t = f - die
        b[f] -= 1
        if b[f] == 0 and b[THEIRS] >> f & 1:  # the last pinner leaves: the pinned checker is free
            b[f] = -1
            b[THEIRS] ^= 1 << f
        if t <= 0:
            return 0, False
        if b[t] == -1:  # a single opposing checker: pinned under the mover's
            b[t] = 1
            b[THEIRS] |= 1 << t
            return t, True
        b[t] += 1
        return t, False

    @staticmethod
    def unplay(b: list[int], f: int, t: int, hit: bool) -> None:
        if t:
            if hit:
                b[t] = -1
                b[THEIRS] ^= 1 << t
            else:
                b[t] -= 1
        if b[f] == -1:  # play freed the checker it had pinned here
            b[f] = 1
            b[THEIRS] |= 1 << f
        else:
            b[f] += 1

    @staticmethod
    def outside_count(b: list[int] | Board) -> int:
        """The mover's free checkers on points 7-24 and its pinned checkers anywhere."""
        return sum([n for n in b[7:25] if n > 0]) + b[MINE].bit_count()

    @classmethod
    def refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str]:
        if not 1 <= f <= 24 or b[f] <= 0:
            if 1 <= f <= 24 and b[MINE] >> f & 1:
                return R.NO_CHECKER_THERE, f"the checker on {f} is pinned until the opposing checkers leave"
            return R.NO_CHECKER_THERE, f"no free checker of the side on roll on {where(f)} (R4)"
        t = f - die
        if t > 0:
            if b[t] == -1:
                return R.POINT_BLOCKED, f"point {t} is closed: the opposing checker there pins one of yours"
            return R.POINT_BLOCKED, f"point {t} is held by two or more opposing checkers"
        if b[MINE]:
            return R.BEAR_OFF_NOT_ALLOWED, "no checker may bear off while one of yours is pinned"
        return bear_off_refusal(b, f, die, cls.outside_count(b))

    # -- the end --------------------------------------------------------------------------------

    @staticmethod
    def _mothers(board: Board) -> tuple[bool, bool, bool, bool]:
        """(mover's mother pinned, opponent's pinned, mover's mother still home, opponent's)."""
        return (bool(board[MINE] & MOTHER_MINE), bool(board[THEIRS] & MOTHER_THEIRS),
                board[24] > 0, board[1] < 0)

    @classmethod
    def drawn(cls, position: Position) -> bool:
        mine, theirs, _, _ = cls._mothers(position.board)
        return mine and theirs

    @classmethod
    def winner(cls, position: Position) -> Side | None:
        """All 15 borne off (R15), or the opponent's mother pinned while the pinner's own mother
        has left its start point; ``None`` during play and in a draw."""
        board = position.board
        if not any(cls.side_counts(board, True)):
            return position.on_roll
        if not any(cls.side_counts(board, False)):
            return position.on_roll.other
        mine, theirs, mine_home, theirs_home = cls._mothers(board)
        if mine and theirs:
            return None
        if mine and not theirs_home:
            return position.on_roll.other
        if theirs and not mine_home:
            return position.on_roll
        return None

    @classmethod
    def _mother_lost(cls, position: Position, winner: Side) -> bool:
        loser = position.side(winner.other)
        return 24 in loser.pinned and any(loser.points)

    @classmethod
    def ending(cls, position: Position, winner: Side) -> str:
        return "mother_pinned" if cls._mother_lost(position, winner) else "borne_off"

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        """A mother loss pays 2 (as a gammon); else single if the loser has borne off a checker,
        gammon (2) if none (variants-rules.md, Ours)."""
        if cls._mother_lost(position, winner):
            return ResultKind.GAMMON
        return ResultKind.SINGLE if position.side(winner.other).off else ResultKind.GAMMON


register(Plakoto)
