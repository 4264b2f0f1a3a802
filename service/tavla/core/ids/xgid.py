"""eXtreme Gammon IDs (XGID).

Format (eXtreme Gammon's position ID, as XG, gnubg's ``set xgid`` and BGBlitz read it; details
and sources in docs/formats.md)::

    XGID=<26 checker chars>:<cube log2>:<cube owner>:<turn>:<dice>:<score X>:<score O>:<flags>:<length>:<max cube log2>

* Checkers: 26 characters from the bottom player X's view: index 0 is O's bar, 1-24 X's points
  1-24, 25 X's bar. ``-`` is empty, ``A``-``O`` are 1-15 checkers of X, ``a``-``o`` of O.
* Cube owner: 1 X, -1 O, 0 centred. Turn: 1 X, -1 O, the side to act.
* Dice: ``00`` not rolled yet, two digits 1-6 rolled, ``D`` the side to act has been doubled
  (``B`` beavered, ``R`` raccooned): the side on roll is then the other one.
* Flags: in a match 1 for the Crawford game; in money play bit 1 Jacoby, bit 2 beavers.

Sides: X is black and O is white, so that XGID's players are gnubg's (X = player 1 = black,
see :mod:`tavla.core.ids.match_id`).

XGID is a codec of the backgammon-geometry variants (``Variant.codecs``, key
:data:`~tavla.core.rules.variant.XGID`): a position of a variant without it is refused with
:class:`~tavla.core.rules.variant.CodecError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.core.errors import InvalidInputError
from tavla.core.ids.match_id import MatchKey
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.position import CHECKERS, Position, Side, SideView
from tavla.core.rules.variant import XGID, Variant

PREFIX = "XGID="
X, O = Side.BLACK, Side.WHITE
_SIGN = {X: 1, O: -1}
_CUBE_ACTIONS = ("D", "B", "R")


@dataclass(frozen=True, slots=True)
class Xgid:
    """Every field of an XGID.

    :ivar position: the checkers, with the side on roll (the doubler while a double is offered).
    :ivar cube_value: 1, 2, 4, ...
    :ivar cube_owner: the side owning the cube; ``None`` while centred.
    :ivar cube_action: ``""``, or ``"D"``, ``"B"``, ``"R"`` when the side not on roll has been
        doubled, beavered or raccooned and must answer.
    :ivar dice: the roll, ``(0, 0)`` before it (and with a cube action).
    :ivar scores: (white, black) points.
    :ivar crawford: the Crawford game (match play only).
    :ivar jacoby: the Jacoby rule (money play only).
    :ivar beavers: beavers allowed (money play only).
    :ivar length: match length, 0 for money play.
    :ivar max_cube_log2: the cube limit as a power of two (XG's default 10: 1024).
    """

    position: Position
    cube_value: int = 1
    cube_owner: Side | None = None
    cube_action: str = ""
    dice: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    length: int = 0
    max_cube_log2: int = 10

    @property
    def turn(self) -> Side:
        """The side to act: the answering side during a cube action, else the side on roll."""
        return self.position.on_roll.other if self.cube_action else self.position.on_roll


def encode(x: Xgid, field: str = "position.xgid") -> str:
    """The canonical XGID string (with the ``XGID=`` prefix).

    :raises InvalidInputError: inconsistent fields (a cube action with dice, Crawford in money
        play, Jacoby or beavers in a match, negative numbers) under ``field``.
    :raises CodecError: the position's variant has no XGID (``ruleset.variant``).
    """
    _has_xgid(x.position.variant)
    _check(x, field)
    owner = 0 if x.cube_owner is None else _SIGN[x.cube_owner]
    dice = x.cube_action or f"{x.dice[0]}{x.dice[1]}"
    flags = int(x.crawford) if x.length else int(x.jacoby) | 2 * int(x.beavers)
    fields = [_checkers(x.position), x.cube_value.bit_length() - 1, owner, _SIGN[x.turn], dice,
              x.scores[1], x.scores[0], flags, x.length, x.max_cube_log2]
    return PREFIX + ":".join(str(f) for f in fields)


def _has_xgid(variant: type[Variant], field: str = "ruleset.variant") -> None:
    if XGID not in variant.codecs:
        variant.codec(XGID, field)  # raises, naming the variant


def _check(x: Xgid, field: str) -> None:
    v = x.cube_value
    if v < 1 or v & (v - 1):
        raise InvalidInputError(field, f"cube {v} is not a power of two")
    if x.cube_action not in ("",) + _CUBE_ACTIONS:
        raise InvalidInputError(field, f"cube action {x.cube_action!r} is not D, B or R")
    d1, d2 = x.dice
    if x.cube_action and x.dice != (0, 0):
        raise InvalidInputError(field, "a cube action is answered before any dice are rolled")
    if (d1, d2) != (0, 0) and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidInputError(field, f"dice {d1}{d2} are not two values 1-6")
    if min(x.scores) < 0 or x.length < 0 or x.max_cube_log2 < 0:
        raise InvalidInputError(field, "scores, length and max cube cannot be negative")
    if x.length and (x.jacoby or x.beavers):
        raise InvalidInputError(field, "Jacoby and beavers are money-play flags; the length is not 0")
    if not x.length and x.crawford:
        raise InvalidInputError(field, "the Crawford flag needs a match length")


def _number(text: str, field: str, what: str, signed: bool = False) -> int:
    body = text[1:] if signed and text.startswith("-") else text
    # canonical decimal only, so that encode(decode(s)) == s
    if not body.isdigit() or not body.isascii() or (len(body) > 1 and body[0] == "0") or text == "-0":
        raise InvalidInputError(field, f"{what} {text[:12]!r} is not a whole number")
    if len(body) > 9:
        raise InvalidInputError(field, f"{what} {text[:12]!r} is too large")
    return int(text)


def decode(text: str, field: str = "position.xgid", variant: type[Variant] = Backgammon) -> Xgid:
    """Parse an XGID, with or without the ``XGID=`` prefix; 9 fields (no max cube) read as 10;
    the position is one of ``variant``.

    :raises InvalidInputError: a wrong field count, a bad checker character, more than 15
        checkers for a side (the variant's count), a side's checker on the other's bar, both
        sides on one point, a bad number, or fields that contradict each other (``field``).
    :raises CodecError: ``variant`` has no XGID (``field``).
    """
    _has_xgid(variant, field)
    checkers = variant.checkers
    body = text[len(PREFIX):] if text.startswith(PREFIX) else text
    parts = body.split(":")
    if len(parts) not in (9, 10):
        raise InvalidInputError(field, f"{text[:40]!r} has {len(parts)} colon-separated field(s); an XGID has 10")
    board = parts[0]
    if len(board) != 26:
        raise InvalidInputError(field, f"the checkers are {len(board)} characters, not 26")
    counts = {X: [0] * 26, O: [0] * 26}  # index = X's numbering, 0 O's bar, 25 X's bar
    for i, c in enumerate(board):
        if c == "-":
            continue
        if "A" <= c <= "O":
            counts[X][i] = ord(c) - ord("A") + 1
        elif "a" <= c <= "o":
            counts[O][i] = ord(c) - ord("a") + 1
        else:
            raise InvalidInputError(field, f"checker character {c!r} at {i} is not -, A-O or a-o")
    if counts[X][0] or counts[O][25]:
        raise InvalidInputError(field, "index 0 is O's bar and 25 X's bar; a side's checkers are on the other's")
    black_points = tuple(counts[X][1:25])
    white_points = tuple(counts[O][25 - p] for p in range(1, 25))
    views = {}
    for side, points, bar in ((X, black_points, counts[X][25]), (O, white_points, counts[O][0])):
        total = sum(points) + bar
        if total > checkers:
            raise InvalidInputError(field, f"{side.name.lower()} (XGID {'X' if side is X else 'O'}) has "
                                           f"{total} checkers; a side has {checkers}")
        views[side] = SideView(points, bar, checkers - total)

    cube_log = _number(parts[1], field, "cube")
    if cube_log > 30:
        raise InvalidInputError(field, f"cube 2^{cube_log} is past 2^30")
    owner_n = _number(parts[2], field, "cube owner", signed=True)
    turn_n = _number(parts[3], field, "turn", signed=True)
    if owner_n not in (-1, 0, 1):
        raise InvalidInputError(field, f"cube owner {owner_n} is not 1, 0 or -1")
    if turn_n not in (-1, 1):
        raise InvalidInputError(field, f"turn {turn_n} is not 1 or -1")
    dice_text = parts[4]
    action = ""
    dice = (0, 0)
    if dice_text in _CUBE_ACTIONS:
        action = dice_text
    elif len(dice_text) == 2 and dice_text.isdigit() and dice_text.isascii():
        dice = (int(dice_text[0]), int(dice_text[1]))
        if dice != (0, 0) and not all(1 <= d <= 6 for d in dice):
            raise InvalidInputError(field, f"dice {dice_text!r} are not 00 or two digits 1-6")
    else:
        raise InvalidInputError(field, f"dice {dice_text[:8]!r} are not 00, two digits 1-6, D, B or R")
    score_x = _number(parts[5], field, "score")
    score_o = _number(parts[6], field, "score")
    flags = _number(parts[7], field, "Crawford/Jacoby flags")
    length = _number(parts[8], field, "match length")
    max_cube = _number(parts[9], field, "max cube") if len(parts) == 10 else 10
    if flags > (1 if length else 3):
        raise InvalidInputError(field, f"flags {flags} are not 0-1 in a match or 0-3 in money play")
    turn = X if turn_n == 1 else O
    on_roll = turn.other if action else turn
    try:
        position = Position.from_sides(on_roll, views[O], views[X], variant)
    except InvalidInputError as exc:
        raise InvalidInputError(field, exc.reason) from None
    owner = None if owner_n == 0 else (X if owner_n == 1 else O)
    xgid = Xgid(position=position, cube_value=1 << cube_log, cube_owner=owner, cube_action=action,
                dice=dice, scores=(score_o, score_x), crawford=bool(length and flags),
                jacoby=bool(not length and flags & 1), beavers=bool(not length and flags & 2),
                length=length, max_cube_log2=max_cube)
    _check(xgid, field)
    return xgid


# ---------------------------------------------------------------------------------------------
# Fast output for every returned position, and the match fields an XGID carries


_CHARS = {v: "-" if v == 0 else chr(ord("A") + v - 1) if v > 0 else chr(ord("a") - v - 1)
          for v in range(-CHECKERS, CHECKERS + 1)}
# money play, centred cube, no dice, Crawford/Jacoby 0, max cube 10; turn by the side on roll
_POSITION_SUFFIX = {X: ":0:0:1:00:0:0:0:0:10", O: ":0:0:-1:00:0:0:0:0:10"}


def _checkers(position: Position) -> str:
    """The 26 checker characters: the board from X's (black's) view is the XGID string.

    Index 0 of that board is minus O's bar (lowercase), 1-24 signed counts on X's points,
    25 X's bar (uppercase).
    """
    board = position.board if position.on_roll is X else tuple(-v for v in reversed(position.board))
    chars = _CHARS
    return "".join([chars[v] for v in board])


def encode_position(position: Position) -> str:
    """``encode(Xgid(position))``, quickly: no field checks, the match fields all defaults.

    :raises CodecError: the position's variant has no XGID (``ruleset.variant``).
    """
    if XGID not in position.variant.codecs:
        _has_xgid(position.variant)
    return PREFIX + _checkers(position) + _POSITION_SUFFIX[position.on_roll]


def match_key(x: Xgid) -> MatchKey:
    """The Match ID fields an XGID carries: cube, a pending double (``D``), dice, scores,
    Crawford, Jacoby and length; a beaver or raccoon (``B``, ``R``) reads as a pending double."""
    return MatchKey(cube_value=x.cube_value, cube_owner=x.cube_owner, on_roll=x.position.on_roll,
                    crawford=x.crawford, turn=x.turn, doubled=bool(x.cube_action), dice=x.dice,
                    length=x.length, scores=x.scores, jacoby=x.jacoby)
