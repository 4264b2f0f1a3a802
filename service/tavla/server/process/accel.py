"""The optional compiled accelerator (``tavla_accel``, built from service/accel) for ListLegalMoves.

When the extension is installed, :func:`legal_moves_response` (the whole response, what the
servicer sends) generates the moves and writes the answer in Rust, in one call; otherwise it
returns ``None`` and the caller takes the pure-Python path (``core.legal_moves`` + :mod:`tavla.server.convert.wire`). Both give the same bytes: tests/accel/test_accel.py
compares them on every (position, roll) of the match corpus. Errors are the core's either way:
when the extension refuses a call (bad dice, a finished game), ``check_dice`` and then
``check_not_over`` raise the core's error. :data:`response_from_id` answers the common request
(a Position ID) in one call, from the ID itself, for the servicer's fast path.

At import it also installs the extension's move generator onto the variants whose rules it
implements (:func:`install_generator`): ``Backgammon.compiled_generate``, which Turkish tavla and
every other subclass that moves as backgammon does inherits (a subclass that redefines a move
rule drops it, :data:`tavla.core.rules.variant.MOVE_RULES`). ``core.movegen.generate`` then returns
the extension's objects for their positions, the same as the pure generator's
(tests/accel/test_accel_generate.py); the core itself imports neither this module nor the extension.

``TAVLA_ACCEL`` (docs/configuration.md): ``auto`` (default) uses the extension when installed;
``0``/``off`` forces pure Python; ``1``/``on`` requires it (the server refuses to start without it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from types import ModuleType

from tavla.core.rules import movegen
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.moves import check_dice, check_not_over
from tavla.core.rules.variant import Variant
from tavla.core.rules.position import Position

ENV = "TAVLA_ACCEL"
_VIEWS = (0, 1)  # tavla.server.convert.wire.FULL and BASIC: what service/accel/src/wire.rs writes
_OFF = {"0", "off", "false", "no"}
_ON = {"1", "on", "true", "yes"}


def _load(setting: str) -> ModuleType | None:
    if setting in _OFF:
        return None
    try:
        import tavla_accel
    except ImportError:
        return None
    return tavla_accel


_SETTING = os.environ.get(ENV, "auto").strip().lower()
_accel = _load(_SETTING)
ACTIVE = _accel is not None
# The extension's whole-call path, straight from a Position ID (None when the extension is off
# or absent): ``(position_id, on_roll 1|2, d1, d2, view) -> (number of
# moves, the serialized ListLegalMovesResponse)``. It accepts exactly the IDs core.position_id.decode
# accepts, less finished games, and raises ValueError for anything else: the caller then takes
# the full path, which raises the engine's error (the servicer's ListLegalMoves).
response_from_id: Callable[[str, int, int, int, int], tuple[int, bytes]] | None = (
    None if _accel is None else _accel.legal_moves_response_from_id)
# For the startup log and the tavla_accelerator_active metric.
STATUS = "rust" if ACTIVE else "python (TAVLA_ACCEL=0)" if _SETTING in _OFF else "python (tavla_accel not installed)"


# The variant whose move rules service/accel/src/movegen.rs implements (its `Backgammon` rules).
COMPILED_VARIANT = Backgammon


def install_generator(ext: ModuleType | None) -> None:
    """Make the move generator of the backgammon-geometry variants (``core.movegen.generate``
    for their positions, behind ApplyMove, ListLegalSteps, Act, replays, ValidateMatch) the
    extension's ``generate`` when ``ext`` is the extension, else (``None``) the pure generator
    alone. It sets ``COMPILED_VARIANT.compiled_generate``.

    :raises ValueError: the extension does not accept ``CheckerMove`` (cannot happen with the
        core's class; a failure here is a bug, so the import fails loudly).
    """
    if ext is None:
        movegen.use_compiled(None, COMPILED_VARIANT)
        return
    ext.set_checker_move(movegen.CheckerMove)
    movegen.use_compiled(ext.generate, COMPILED_VARIANT)


install_generator(_accel)

_PLAYS: dict[type[Variant], bool] = {COMPILED_VARIANT: True}


def _plays(variant: type[Variant]) -> bool:
    """Whether the extension's whole-call paths (moves and the wire answer) serve positions of
    ``variant``: it moves as backgammon does and has 15 checkers (the borne-off counts written)."""
    ok = _PLAYS.get(variant)
    if ok is None:
        ok = _PLAYS[variant] = (variant.moves_as(COMPILED_VARIANT)
                                and variant.checkers == COMPILED_VARIANT.checkers)
    return ok


plays = _plays  # public: the servicer's Position ID fast path asks it for the ruleset's variant


def check_setting() -> None:
    """``tavla-engine serve`` checks this before it starts.

    :raises ValueError: ``TAVLA_ACCEL`` is not auto, on or off, or is on and the extension is
        not installed.
    """
    if _SETTING not in _OFF | _ON | {"auto", ""}:
        raise ValueError(f"{ENV}={_SETTING!r} is not auto, 1/on or 0/off")
    if _SETTING in _ON and not ACTIVE:
        raise ValueError(f"{ENV}={_SETTING} requires the accelerator, but tavla_accel is not installed "
                         "(pip install . with Rust >= 1.85 and cargo on PATH)")


def legal_moves_response(position: Position, dice: Sequence[int], view: int) -> tuple[int, bytes] | None:
    """(number of moves, the whole serialized ``ListLegalMovesResponse``: the bytes
    :func:`tavla.server.convert.wire.legal_moves_response` makes of the pure path's moves), or
    ``None`` when the accelerator is off, does not write ``view`` or does not play the
    position's variant: then use ``core.legal_moves`` and :mod:`tavla.server.convert.wire`.

    :param view: :data:`tavla.server.convert.wire.FULL` or :data:`~tavla.server.convert.wire.BASIC`.
    :raises InvalidInputError: bad dice.
    :raises GameOverError: a side has already borne off all 15 (R15).
    """
    ext = _accel
    if ext is None or not _plays(position.variant):  # a variant it does not play
        return None
    try:
        d1, d2 = dice
        answer: tuple[int, bytes] = ext.legal_moves_response(
            position.board, position.on_roll, d1, d2, view)  # Side is an IntEnum: 1 or 2
    except (ValueError, TypeError, OverflowError):
        # the extension refuses a view it does not write: checked only now, off the hot path
        if view not in _VIEWS:
            return None
        _core_error(position, dice)
        raise
    return answer


def _core_error(position: Position, dice: Sequence[int]) -> None:
    """The extension refused: raise the core's error, in the core's order (dice first, then a
    finished game), if there is one. Checked only now, off the hot path (the extension checks
    the dice too, and a roll of other than two dice fails the unpacking)."""
    check_dice(dice)
    check_not_over(position)
