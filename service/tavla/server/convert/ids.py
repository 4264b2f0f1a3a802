"""The ID fields of Position (``gnubg_id``, ``xgid``) and MatchState (``match_id``, ``gnubg_id``,
``xgid``): reading them, checking they agree with the other fields given, and writing them.

:mod:`tavla.server.convert.common` and :mod:`tavla.server.convert.match` call in here only when an ID
field is set, so requests without one take the old path. Formats: docs/formats.md.
"""

from __future__ import annotations

from dataclasses import replace

from tavla.core import InvalidInputError, MatchState, Position, Side
from tavla.core.ids import match_id
from tavla.core.ids import position_id
from tavla.core.ids import xgid
from tavla.core.match.state import Cube
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import Variant
from tavla.server.convert.enums import SIDES
from tavla.v1 import match_pb2
from tavla.v1 import types_pb2 as pb

# The Match ID of a bare position: money play, centred cube, no dice, Jacoby off (also in
# every Position that tavla.server.convert.wire writes).
MONEY_MATCH_ID = {side: match_id.encode(match_id.MatchKey(on_roll=side, turn=side)) for side in Side}




def _name(side: Side) -> str:
    return side.name.lower()


def position_ids(position: Position, pid: str) -> tuple[str, str]:
    """(gnubg_id, xgid) of a returned position, given its Position ID ``pid``."""
    return f"{pid}:{MONEY_MATCH_ID[position.on_roll]}", xgid.encode_position(position)


def position_from_ids(msg: pb.Position, variant: type[Variant] = Backgammon) -> Position:
    """The position of ``msg`` when its ``checkers`` are a ``gnubg_id`` or an ``xgid``: each gives
    the checkers and the side on roll; ``on_roll``, when set, must agree.

    :raises InvalidInputError: a malformed ID (``position.gnubg_id``, ``position.xgid``), or an
        ``on_roll`` that disagrees with it (named by the ID's field) or is unknown.
    """
    if msg.WhichOneof("checkers") == "gnubg_id":
        field = "position.gnubg_id"
        position = match_id.decode_gnubg_id(msg.gnubg_id, field, variant)[0]
    else:
        field = "position.xgid"
        position = xgid.decode(msg.xgid, field, variant).position
    if msg.on_roll != pb.SIDE_UNSPECIFIED:
        on_roll = SIDES.from_proto(msg.on_roll, "position.on_roll")
        if on_roll is not position.on_roll:
            raise InvalidInputError(field, f"has {_name(position.on_roll)} on roll but position.on_roll "
                                           f"is {_name(on_roll)}")
    return position


# ---------------------------------------------------------------------------------------------
# MatchState


def match_id_of(state: MatchState) -> str:
    """The Match ID returned with ``state`` (white on roll unless a double is pending); empty
    when a value passes what the format holds (length or score past 32767, cube past 32768)."""
    try:
        return match_id.encode(match_id.key_of_match(state))
    except InvalidInputError:
        return ""


def match_from_ids(msg: match_pb2.MatchState, field: str, base: MatchState,
                   rules: Ruleset | None) -> MatchState:
    """``base`` (read from the plain fields) with the fields the ID fields carry.

    Every ID given must describe the same match, and every plain field that is set (non-zero)
    and carried by an ID must agree with it. Games played and the previous winner come from
    the plain fields. Without ``rules`` the Crawford rule is taken to be on.

    :raises InvalidInputError: a malformed ID, a pending beaver or raccoon in an XGID, or a
        disagreement (named by the ID's field).
    """
    crawford_rule = rules.crawford_in_play if rules is not None else True
    found: list[tuple[str, MatchState]] = []
    if msg.match_id:
        f = f"{field}.match_id"
        found.append((f, match_id.match_of_key(match_id.decode(msg.match_id, f), crawford_rule)))
    if msg.gnubg_id:
        f = f"{field}.gnubg_id"
        found.append((f, match_id.match_of_key(match_id.decode_gnubg_id(msg.gnubg_id, f)[1], crawford_rule)))
    if msg.xgid:
        f = f"{field}.xgid"
        x = xgid.decode(msg.xgid, f)
        if x.cube_action in ("B", "R"):
            raise InvalidInputError(f, "a pending beaver or raccoon is not a match state; "
                                       "send the state after it (the cube at x4, owned by the beaver)")
        found.append((f, match_id.match_of_key(xgid.match_key(x), crawford_rule)))
    id_field, state = found[0]
    for other_field, other in found[1:]:
        if other != state:
            raise InvalidInputError(other_field, f"describes a different match than {id_field}")
    _agree(msg, field, id_field, state)
    # a pending beaver or raccoon has no place in the IDs: the plain field says it
    return replace(state, previous_winner=base.previous_winner, games_played=base.games_played,
                   cube=replace(state.cube, redoubles=base.cube.redoubles))


def _agree(msg: match_pb2.MatchState, field: str, id_field: str, state: MatchState) -> None:
    cube: Cube = state.cube

    def side(value: int) -> Side:
        return Side.WHITE if value == pb.SIDE_WHITE else Side.BLACK

    checks = (
        ("length", msg.length != 0 and msg.length != state.length, state.length),
        ("white_score", msg.white_score != 0 and msg.white_score != state.scores[0], state.scores[0]),
        ("black_score", msg.black_score != 0 and msg.black_score != state.scores[1], state.scores[1]),
        ("crawford", msg.crawford and not state.crawford, state.crawford),
        ("post_crawford", msg.post_crawford and not state.post_crawford, state.post_crawford),
        ("cube.value", msg.cube.value not in (0, cube.value), cube.value),
        ("cube.owner", msg.cube.owner != pb.SIDE_UNSPECIFIED and side(msg.cube.owner) is not cube.owner,
         _name(cube.owner) if cube.owner else "centred"),
        ("cube.offered_by", msg.cube.offered_by != pb.SIDE_UNSPECIFIED
         and side(msg.cube.offered_by) is not cube.offered_by,
         _name(cube.offered_by) if cube.offered_by else "no double pending"),
        ("winner", msg.winner != pb.SIDE_UNSPECIFIED and side(msg.winner) is not state.winner,
         _name(state.winner) if state.winner else "no winner"),
    )
    for name, differs, says in checks:
        if differs:
            raise InvalidInputError(id_field, f"says {name} {says}, but {field}.{name} differs")
