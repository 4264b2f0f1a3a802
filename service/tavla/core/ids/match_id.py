"""GNU Backgammon Match IDs and GNUBG IDs (``position_id:match_id``).

Format (GNU Backgammon manual, "A technical description of the Match ID"; docs/formats.md): a
66-bit match key, bit 1 first, packed little-endian into 9 bytes and written as 12 characters of
base64 without padding. Fields, in bit order: cube log2 (4), cube owner (2: 0, 1, 3 = centred),
dice owner (1), Crawford (1), game state (3), turn (1), double offered (1), resignation (2),
die 1 (3), die 2 (3), match length (15), score of player 0 (15), score of player 1 (15). gnubg
1.x also writes bit 67 as "no Jacoby" (set unless Jacoby is on); bits 68-72 are zero.

Players: gnubg's player 0 is white and player 1 black, as gnubg's SGF export writes them
(``PW`` is player 0) and the SGF backgammon spec recommends (White = O = 0, Black = X = 1).
"""

from __future__ import annotations

import base64
import enum
import re
from dataclasses import dataclass

from tavla.core.ids import position_id
from tavla.core.errors import InvalidInputError
from tavla.core.match.state import Cube, MatchState
from tavla.core.rules.position import Position, Side
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import Variant

_ALPHABET = re.compile("[A-Za-z0-9+/]{12}")
_LENGTH = 12
_MAX15 = 2**15 - 1
PLAYER: dict[Side, int] = {Side.WHITE: 0, Side.BLACK: 1}
SIDE: dict[int, Side] = {0: Side.WHITE, 1: Side.BLACK}


class GameState(enum.IntEnum):
    """Bits 9-11: where the game stands."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4  # ended by a dropped double


@dataclass(frozen=True, slots=True)
class MatchKey:
    """Every field of a Match ID, sides named white (player 0) and black (player 1).

    :ivar cube_value: 1, 2, 4, ... 32768.
    :ivar cube_owner: the side owning the cube; ``None`` while centred.
    :ivar on_roll: the side on roll or that rolled (gnubg's "dice owner").
    :ivar crawford: the game is the Crawford game.
    :ivar game_state: see :class:`GameState`.
    :ivar turn: the side to act: the doubled side while a double is offered, the side asked
        to accept while a resignation is offered, else ``on_roll``.
    :ivar doubled: a double is offered (by ``on_roll``).
    :ivar resigned: 0 none, 1 single, 2 gammon, 3 backgammon (offered by the side not ``turn``).
    :ivar dice: the dice rolled, ``(0, 0)`` before the roll.
    :ivar length: match length, 0 for money play; at most 32767.
    :ivar scores: (white, black) points, each at most 32767.
    :ivar jacoby: the Jacoby rule is on (bit 67 clear).
    """

    cube_value: int = 1
    cube_owner: Side | None = None
    on_roll: Side = Side.WHITE
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: Side = Side.WHITE
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    scores: tuple[int, int] = (0, 0)
    jacoby: bool = False


# (name, width) in bit order; the encoder and decoder both walk this table.
_LAYOUT = (("cube", 4), ("owner", 2), ("on_roll", 1), ("crawford", 1), ("state", 3), ("turn", 1),
           ("doubled", 1), ("resigned", 2), ("die1", 3), ("die2", 3), ("length", 15),
           ("score0", 15), ("score1", 15), ("no_jacoby", 1))


def _check_key(key: MatchKey, field: str) -> None:
    value = key.cube_value
    if value < 1 or value & (value - 1) or value > 2**15:
        raise InvalidInputError(field, f"cube {value} is not a power of two up to 32768")
    d1, d2 = key.dice
    if (d1 == 0) != (d2 == 0) or not (0 <= d1 <= 6 and 0 <= d2 <= 6):
        raise InvalidInputError(field, f"dice {d1}-{d2} are not two values 1-6 (or none)")
    if not 0 <= key.resigned <= 3:
        raise InvalidInputError(field, f"resignation {key.resigned} is not 0-3")
    for name, n in (("length", key.length), ("white score", key.scores[0]), ("black score", key.scores[1])):
        if not 0 <= n <= _MAX15:
            raise InvalidInputError(field, f"{name} {n} does not fit 15 bits (0-{_MAX15})")


def encode(key: MatchKey, field: str = "match.match_id") -> str:
    """The 12-character Match ID of ``key``.

    :raises InvalidInputError: a value the format cannot hold (cube past 32768, length or
        score past 32767, dice not 1-6).
    """
    _check_key(key, field)
    values = {
        "cube": key.cube_value.bit_length() - 1,
        "owner": 3 if key.cube_owner is None else PLAYER[key.cube_owner],
        "on_roll": PLAYER[key.on_roll], "crawford": int(key.crawford), "state": int(key.game_state),
        "turn": PLAYER[key.turn], "doubled": int(key.doubled), "resigned": key.resigned,
        "die1": key.dice[0], "die2": key.dice[1], "length": key.length,
        "score0": key.scores[0], "score1": key.scores[1], "no_jacoby": int(not key.jacoby),
    }
    bits = 0
    n = 0
    for name, width in _LAYOUT:
        bits |= values[name] << n
        n += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode(match_id: str, field: str = "match.match_id") -> MatchKey:
    """Parse a 12-character Match ID.

    :raises InvalidInputError: not 12 base64 characters, cube owner bits ``10``, a game state
        past 4, one die without the other or a die of 7, or bits past the 67th (``field``).
    """
    if len(match_id) != _LENGTH or not _ALPHABET.fullmatch(match_id):
        raise InvalidInputError(field, f"{match_id[:20]!r} is not 12 base64 characters (A-Z a-z 0-9 + /)")
    bits = int.from_bytes(base64.b64decode(match_id), "little")
    v: dict[str, int] = {}
    for name, width in _LAYOUT:
        v[name] = bits & ((1 << width) - 1)
        bits >>= width
    if bits:
        raise InvalidInputError(field, f"{match_id!r} has bits set past bit 67")
    if v["owner"] == 2:
        raise InvalidInputError(field, f"{match_id!r}: cube owner bits 10 name no player")
    if v["state"] > GameState.DROPPED:
        raise InvalidInputError(field, f"{match_id!r}: game state {v['state']} is not 0-4")
    key = MatchKey(
        cube_value=1 << v["cube"], cube_owner=None if v["owner"] == 3 else SIDE[v["owner"]],
        on_roll=SIDE[v["on_roll"]], crawford=bool(v["crawford"]), game_state=GameState(v["state"]),
        turn=SIDE[v["turn"]], doubled=bool(v["doubled"]), resigned=v["resigned"],
        dice=(v["die1"], v["die2"]), length=v["length"], scores=(v["score0"], v["score1"]),
        jacoby=not v["no_jacoby"],
    )
    try:
        _check_key(key, field)
    except InvalidInputError as exc:
        raise InvalidInputError(field, f"{match_id!r}: {exc.reason}") from None
    return key


# ---------------------------------------------------------------------------------------------
# MatchState <-> MatchKey


def key_of_match(state: MatchState, on_roll: Side | None = None, dice: tuple[int, int] = (0, 0),
                 jacoby: bool = False) -> MatchKey:
    """The Match ID fields of ``state``.

    A pending double makes its doubler the side on roll and the doubled side the one to act.
    ``MatchState`` does not say who is on roll otherwise: ``on_roll`` (default white) does.
    """
    cube = state.cube
    roller = cube.offered_by or on_roll or Side.WHITE
    doubled = cube.offered_by is not None
    return MatchKey(
        cube_value=cube.value, cube_owner=cube.owner, on_roll=roller, crawford=state.crawford,
        game_state=GameState.OVER if state.winner is not None else GameState.PLAYING,
        turn=roller.other if doubled else roller, doubled=doubled, dice=dice, length=state.length,
        scores=state.scores, jacoby=jacoby and state.length == 0,
    )


def match_of_key(key: MatchKey, crawford_rule: bool = True) -> MatchState:
    """The :class:`MatchState` a Match ID describes (not yet checked against a ruleset).

    The ID has no post-Crawford flag: with ``crawford_rule`` a side at length - 1 outside the
    Crawford game means post-Crawford, as in gnubg. A score at or past the length names the
    winner. Games played and the previous winner are not in the ID (0 and none).
    """
    length = key.length
    winner = None
    if length:
        for side in Side:
            if key.scores[PLAYER[side]] >= length:
                winner = side
    post = (crawford_rule and winner is None and not key.crawford and length > 1
            and length - 1 in key.scores)
    return MatchState(
        length=length, scores=key.scores, crawford=key.crawford, post_crawford=post,
        cube=Cube(key.cube_value, key.cube_owner, key.on_roll if key.doubled else None), winner=winner,
    )


# ---------------------------------------------------------------------------------------------
# GNUBG ID: position ID and Match ID


def encode_gnubg_id(position: Position, key: MatchKey) -> str:
    """``position_id:match_id``; the position ID is from ``key.on_roll``'s side, as gnubg writes it."""
    pos = position if position.on_roll is key.on_roll else position.swap_turn()
    return f"{position_id.encode(pos)}:{encode(key)}"


def decode_gnubg_id(gnubg_id: str, field: str = "position.gnubg_id",
                    variant: type[Variant] = Backgammon) -> tuple[Position, MatchKey]:
    """Parse ``position_id:match_id`` into a position of ``variant`` (its checker count); the
    side on roll is the Match ID's dice owner.

    :raises InvalidInputError: no single ``:``, or either part is bad (``field``).
    """
    parts = gnubg_id.split(":")
    if len(parts) != 2:
        raise InvalidInputError(field, f"{gnubg_id[:40]!r} is not POSITION_ID:MATCH_ID")
    key = decode(parts[1], field)
    try:
        position = position_id.decode(parts[0], key.on_roll, variant)
    except InvalidInputError as exc:
        raise InvalidInputError(field, exc.reason) from None
    return position, key
