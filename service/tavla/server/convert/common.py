"""Conversions between tavla.v1 messages and :mod:`tavla.core` values, and nothing else.

Input conversions validate what the proto types cannot (enum values, point ranges, which of two
alternative fields is given) and raise :class:`~tavla.core.InvalidInputError` naming the request
field, e.g. ``position.on_roll``; the checker counts themselves are validated by the core
(:meth:`Position.from_sides`, :func:`position_id.decode`). Output conversions always succeed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TypeVar

from tavla import core
from tavla.core import (
    CheckerMove,
    InvalidInputError,
    Position,
    Ruleset,
    Side,
    SideView,
)
from tavla.core.rules.bearoff import BearOffInfo, RaceOdds
from tavla.core.rules.notation import Leg
from tavla.core.match.ruleset import check_cube_limit, check_match_lengths
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import FAMILY_ID, Variant, variants
from tavla.server.convert import contract, family
from tavla.server.convert import ids as convert_ids
from tavla.server.convert import wire
from tavla.server.convert.enums import KATMERLI, SIDES, STARTS
from tavla.v1 import bearoff_pb2
from tavla.v1 import rules_service_pb2 as api
from tavla.v1 import types_pb2 as pb

T = TypeVar("T")

DEFAULT_PRESET = "international"
BAR_POINT = 25  # CheckerMove.from_point of a checker entering from the bar
MAX_CHECKER_MOVES = 4  # a double moves at most four checkers (R6)
# The bounds the request fields declare (proto/), for the converters' own checks of values that
# reach them without passing the call pipeline. The longest real notation is four hitting
# chains, well under 100 characters: the cap stops a multi-megabyte string from costing seconds
# in the parser. A roll has two dice, a ruleset a handful of match lengths.
MAX_NOTATION_LENGTH = contract.declared(pb.Move, "notation").max_len
MAX_DICE = contract.declared(api.ListLegalMovesRequest, "dice").max_items
MAX_MATCH_LENGTHS = contract.declared(pb.MatchLengths, "lengths").max_items

_VIEWS: dict[int, int] = {
    api.MOVE_VIEW_UNSPECIFIED: wire.FULL,
    api.MOVE_VIEW_FULL: wire.FULL,
    api.MOVE_VIEW_BASIC: wire.BASIC,
}


# ---------------------------------------------------------------------------------------------
# Requests -> core


#: Every variant's own ruleset options (``Variant.options``: fevga's ``prime_rule``, ...), each
#: a field of the API's ``Ruleset`` and of the core's.
VARIANT_OPTIONS: tuple[str, ...] = tuple(dict.fromkeys(o for v in variants() for o in v.options))


def ruleset_from_proto(msg: pb.Ruleset) -> Ruleset:
    """The core :class:`Ruleset`: the preset (empty = international), then each set field.

    UNSPECIFIED enums and unset optional fields keep the preset's values (R3, R17-R21).

    :raises InvalidInputError: unknown preset name (``ruleset.preset``), an enum number this
        version does not know (``ruleset.start``, ``ruleset.katmerli_mars``), a cube limit that is
        not a power of two (``ruleset.cube_limit``), a bad match length
        (``ruleset.match_lengths.lengths``), an unknown variant (``ruleset.variant``) or the cube
        on for a variant without one (``ruleset.cube``).
    """
    rules = core.preset(msg.preset or DEFAULT_PRESET)
    if msg.start != pb.START_RULE_UNSPECIFIED:
        rules = replace(rules, start=STARTS.from_proto(msg.start, "ruleset.start"))
    if msg.katmerli_mars != pb.KATMERLI_MARS_RULE_UNSPECIFIED:
        rules = replace(rules, katmerli_mars=KATMERLI.from_proto(msg.katmerli_mars, "ruleset.katmerli_mars"))
    if msg.HasField("cube"):
        rules = replace(rules, cube=msg.cube)
    # Match-play options (R18-R21), each kept from the preset unless set.
    if msg.HasField("crawford"):
        rules = replace(rules, crawford=msg.crawford)
    if msg.HasField("jacoby"):
        rules = replace(rules, jacoby=msg.jacoby)
    if msg.HasField("beavers"):
        rules = replace(rules, beavers=msg.beavers)
    if msg.HasField("cube_limit"):
        rules = replace(rules, cube_limit=check_cube_limit(msg.cube_limit, "ruleset.cube_limit"))
    if msg.HasField("match_lengths"):
        if len(msg.match_lengths.lengths) > MAX_MATCH_LENGTHS:
            raise InvalidInputError("ruleset.match_lengths.lengths",
                                    f"has {len(msg.match_lengths.lengths)} lengths; at most {MAX_MATCH_LENGTHS}")
        lengths = check_match_lengths(tuple(msg.match_lengths.lengths), "ruleset.match_lengths.lengths")
        rules = replace(rules, match_lengths=lengths, money_play=msg.match_lengths.money_play)
    for option in VARIANT_OPTIONS:  # the variants' own options (Variant.options)
        if msg.HasField(option):
            rules = replace(rules, **{option: getattr(msg, option)})
    if msg.variant:  # last: the options above are checked against the variant (its cube)
        rules = replace(rules, variant=msg.variant)
    return rules


def side_from_proto(value: int, field: str, default: Side | None = None) -> Side:
    """A :class:`Side` from the enum number; SIDE_UNSPECIFIED gives ``default``.

    :raises InvalidInputError: unspecified with no default ("required"), or an unknown number.
    """
    if value == pb.SIDE_UNSPECIFIED and default is not None:
        return default
    return SIDES.from_proto(value, field)


def position_from_proto(msg: pb.Position, variant: type[core.Variant] = core.Backgammon) -> Position:
    """A validated core :class:`Position` of ``variant`` (the request ruleset's, default
    backgammon) from the one encoding of its ``checkers`` oneof (R1); the checker counts are the
    variant's (hypergammon: 3 a side).

    ``board`` needs ``on_roll``; with ``position_id`` an unset ``on_roll`` means white; with
    ``gnubg_id`` or ``xgid`` see :func:`tavla.server.convert.ids.position_from_ids`. ``ids`` is
    output only and ignored.

    :raises InvalidInputError: no encoding given (field ``position``); ``on_roll`` missing with
        ``board`` or unknown (``position.on_roll``); bad counts or a point held by both sides
        (``position.board...``, from the core); a bad Position ID (``position.position_id``,
        from the core).
    """
    which = msg.WhichOneof("checkers")
    if which is None:
        raise InvalidInputError("position", "give board, position_id, gnubg_id, xgid or family_id")
    if variant.codecs.get(FAMILY_ID):  # plakoto, fevga, long nardy: the board or the Family ID
        if which == "family_id":
            return family.position_from_id(msg, variant)
        if which != "board":
            variant.codec(which, f"position.{which}")  # raises: the variant has no such ID
        on_roll = side_from_proto(msg.on_roll, "position.on_roll")
        return Position.from_sides(on_roll, _view(msg.board.white), _view(msg.board.black), variant)
    if which == "family_id":
        variant.codec(FAMILY_ID, "position.family_id")  # raises: backgammon's board has no Family ID
    if which in ("gnubg_id", "xgid"):  # the ID fields (docs/formats.md) take their own path
        return convert_ids.position_from_ids(msg, variant)
    if which == "position_id":
        return core.position_id.decode(msg.position_id, side_from_proto(msg.on_roll, "position.on_roll", Side.WHITE),
                                       variant)
    on_roll = side_from_proto(msg.on_roll, "position.on_roll")
    return Position.from_sides(on_roll, _view(msg.board.white), _view(msg.board.black), variant)


def _view(msg: pb.SideCheckers) -> SideView:
    # pip_count is output only, so it is ignored; the core checks lengths and totals.
    if len(msg.pinned) > 24:
        raise InvalidInputError("position.board.pinned", f"has {len(msg.pinned)} points; there are 24")
    return SideView(tuple(msg.points), msg.bar, msg.borne_off, tuple(sorted(set(msg.pinned))))


def dice_from_proto(dice: Sequence[int]) -> tuple[int, ...]:
    """The roll as a tuple; the core's :func:`check_dice` validates it (field ``dice``).

    :raises InvalidInputError: more than :data:`MAX_DICE` values (no work is done on them).
    """
    if len(dice) > MAX_DICE:
        raise InvalidInputError("dice", f"has {len(dice)} values; a roll is two dice")
    return tuple(dice)


def notation_legs(text: str) -> tuple[Leg, ...]:
    """Legs of a move given by notation (field ``move.notation``); ``""`` is the empty move.

    :raises InvalidInputError: longer than :data:`MAX_NOTATION_LENGTH`, or unreadable (core).
    """
    if len(text) > MAX_NOTATION_LENGTH:
        raise InvalidInputError(
            "move.notation", f"is {len(text)} characters; a move is at most {MAX_NOTATION_LENGTH}"
        )
    return core.notation.parse(text, field="move.notation")


def checker_move_legs(moves: Sequence[pb.CheckerMove]) -> tuple[Leg, ...]:
    """Legs of a move given by checker moves: one leg per checker move (``die``/``hit`` ignored).

    :raises InvalidInputError: more than four checker moves, a ``from_point`` outside 1-25, a
        ``to_point`` outside 0-24, or a move that does not go forward (``move.checker_moves``).
    """
    field = "move.checker_moves"
    if len(moves) > MAX_CHECKER_MOVES:
        raise InvalidInputError(field, f"has {len(moves)} checker moves; a turn has at most 4 (R6)")
    legs = []
    for i, m in enumerate(moves):
        if not 1 <= m.from_point <= BAR_POINT:
            raise InvalidInputError(field, f"move {i}: from_point {m.from_point} is not 1-24 or 25 (bar)")
        if m.to_point >= BAR_POINT:
            raise InvalidInputError(field, f"move {i}: to_point {m.to_point} is not 1-24 or 0 (off)")
        if m.to_point >= m.from_point:
            raise InvalidInputError(
                field, f"move {i}: {m.from_point}/{m.to_point} does not move forward (R4)"
            )
        legs.append(Leg((m.from_point, m.to_point)))
    return tuple(legs)


def move_text(msg: pb.Move) -> str:
    """The move as the client wrote it, for error messages: notation, else the checker moves."""
    if msg.notation:
        return msg.notation[:MAX_NOTATION_LENGTH]
    return " ".join(f"{m.from_point}/{m.to_point}" for m in msg.checker_moves[:MAX_CHECKER_MOVES + 1])


@contextmanager
def under(prefix: str) -> Iterator[None]:
    """Re-raise an :class:`InvalidInputError` raised in the block with its field under
    ``prefix`` (``roll_off`` becomes ``given.roll_off``): the core names the values it checks,
    the request nests them in a message."""
    try:
        yield
    except InvalidInputError as exc:
        raise InvalidInputError(f"{prefix}.{exc.field}", exc.reason) from None


def _enum(table: dict[int, T], value: int, field: str) -> T:
    # proto3 enums are open: an unknown number arrives as a plain int and must be rejected here.
    try:
        return table[value]
    except KeyError:
        raise InvalidInputError(field, f"unknown value {value}") from None


# ---------------------------------------------------------------------------------------------
# Core -> responses


def side_to_proto(side: Side) -> pb.Side:
    """The tavla.v1 ``Side`` number of ``side``."""
    number: pb.Side = SIDES.to_proto(side)
    return number


def optional_side_from_proto(value: int, field: str) -> Side | None:
    """A :class:`Side`, or ``None`` for SIDE_UNSPECIFIED (a centred cube, no winner yet).

    :raises InvalidInputError: an unknown side number, on ``field``.
    """
    return None if value == pb.SIDE_UNSPECIFIED else side_from_proto(value, field)


def optional_side_to_proto(side: Side | None) -> pb.Side:
    """The ``Side`` number; SIDE_UNSPECIFIED for ``None``."""
    return pb.SIDE_UNSPECIFIED if side is None else side_to_proto(side)


def position_to_proto(position: Position) -> pb.Position:
    """A ``Position`` message with ``on_roll``, ``board`` (with pip counts) and ``ids``
    (``position_id``, ``gnubg_id``, ``xgid``), written by :mod:`tavla.server.convert.wire`."""
    if len(position.board) == family.BOARD_SIZE:  # plakoto, fevga, long nardy
        return family.position_to_proto(position)
    msg: pb.Position = pb.Position.FromString(
        wire.position(position.board, position.on_roll, checkers=position.variant.checkers))
    return msg


def checker_move_to_proto(step: CheckerMove) -> pb.CheckerMove:
    """A ``CheckerMove`` message (mover's numbering, 25 = bar, 0 = off)."""
    return pb.CheckerMove(from_point=step.from_point, to_point=step.to_point, die=step.die, hit=step.hit)


def move_to_proto(move: core.Move) -> pb.Move:
    """A ``Move`` message: canonical notation, checker moves in a playable order, and result."""
    if len(move.board_after) == family.BOARD_SIZE:
        return family.move_to_proto(move)
    msg: pb.Move = pb.Move.FromString(wire.move(move.steps, move.board_after, move.mover.on_roll,
                                                checkers=move.mover.variant.checkers))
    return msg


def move_view_from_proto(value: int) -> int:
    """The :mod:`~tavla.server.convert.wire` view of a ``MoveView`` number; UNSPECIFIED is FULL.

    :raises InvalidInputError: an unknown number (field ``view``).
    """
    return _enum(_VIEWS, value, "view")


def moves_to_wire(moves: Sequence[core.Move], view: int = wire.FULL) -> bytes:
    """The serialized ``moves`` field of a ListLegalMovesResponse, all moves of one position."""
    if not moves:
        return b""
    if len(moves[0].board_after) == family.BOARD_SIZE:
        return family.moves_to_wire(moves, view)
    mover = moves[0].mover
    return wire.moves([(m.steps, m.board_after) for m in moves], mover.on_roll, view,
                      checkers=mover.variant.checkers)


def bear_off_status_to_proto(info: BearOffInfo) -> bearoff_pb2.BearOffStatus:
    msg = bearoff_pb2.BearOffStatus(
        side=side_to_proto(info.side), can_bear_off=info.can_bear_off, borne_off=info.checkers_off,
        pip_count=info.pip_count, contact=info.contact,
    )
    if info.expected_rolls is not None:
        assert info.epc is not None  # bear_off_info sets both, from the database, or neither
        msg.expected_rolls = info.expected_rolls
        msg.effective_pip_count = info.epc
        msg.rolls_distribution.extend(info.distribution)
    return msg


def race_odds_to_proto(odds: RaceOdds) -> bearoff_pb2.RaceOdds:
    return bearoff_pb2.RaceOdds(
        on_roll=side_to_proto(odds.on_roll), win=odds.win, win_gammon=odds.win_gammon,
        lose_gammon=odds.lose_gammon, expected_points=odds.expected_points,
    )
