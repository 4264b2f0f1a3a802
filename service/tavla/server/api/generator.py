"""The move generator an engine is built with: the optional compiled accelerator
(``tavla_accel``, built from service/accel) or the pure-Python core, chosen once at start-up.

:class:`MoveGenerator` answers ListLegalMoves whole when compiled: :meth:`~MoveGenerator.legal_moves_response`
generates the moves and writes the answer in Rust, in one call, and
:attr:`~MoveGenerator.response_from_id` answers the common request (a Position ID) from the ID
itself; pure, both answer ``None`` and the caller takes the Python path (``core.legal_moves`` +
:mod:`tavla.server.convert.wire`). Both give the same bytes: tests/accel/test_accel.py compares
them on every (position, roll) of the match corpus. Errors are the core's either way: when the
extension refuses a call (bad dice, a finished game), ``check_dice`` and then ``check_not_over``
raise the core's error.

:meth:`~MoveGenerator.install`, called by whoever builds the engine (never at import), puts the
extension's generator under ``core.movegen.generate`` for the variants whose rules it
implements: ``Backgammon.compiled_generate``, which Turkish tavla and every other subclass that
moves as backgammon does inherits (a subclass that redefines a move rule drops it,
:data:`tavla.core.rules.variant.MOVE_RULES`); the answers are the pure generator's
(tests/accel/test_accel_generate.py). The core itself imports neither this module nor the extension.

``TAVLA_ACCEL`` (docs/configuration.md): ``auto`` (default) uses the extension when installed;
``0``/``off`` forces pure Python; ``1``/``on`` requires it (the server refuses to start without it).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

from tavla.core.rules import movegen
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.moves import check_dice, check_not_over
from tavla.core.rules.variant import Variant
from tavla.core.rules.position import Position
from tavla.server.convert import game_wire, wire

ENV = "TAVLA_ACCEL"
_VIEWS = (0, 1)  # tavla.server.convert.wire.FULL and BASIC: what service/accel/src/wire.rs writes
_OFF = {"0", "off", "false", "no"}
_ON = {"1", "on", "true", "yes"}
#: The variant whose move rules service/accel/src/movegen.rs implements (its `Backgammon` rules).
COMPILED_VARIANT = Backgammon
#: The signature of :attr:`MoveGenerator.response_from_id`.
FromId = Callable[[str, int, int, int, int], tuple[int, bytes]]


def setting(environ: Mapping[str, str] | None = None) -> str:
    """``TAVLA_ACCEL`` as given (lower case, trimmed; ``auto`` when unset)."""
    return (os.environ if environ is None else environ).get(ENV, "auto").strip().lower()


def _load(value: str) -> ModuleType | None:
    if value in _OFF:
        return None
    try:
        return importlib.import_module("tavla_accel")
    except ImportError:
        return None


def check_setting(environ: Mapping[str, str] | None = None) -> None:
    """``tavla-engine serve`` checks this before it starts.

    :raises ValueError: ``TAVLA_ACCEL`` is not auto, on or off, or is on and the extension is
        not installed.
    """
    value = setting(environ)
    if value not in _OFF | _ON | {"auto", ""}:
        raise ValueError(f"{ENV}={value!r} is not auto, 1/on or 0/off")
    if value in _ON and _load(value) is None:
        raise ValueError(f"{ENV}={value} requires the accelerator, but tavla_accel is not installed "
                         "(pip install . with Rust >= 1.85 and cargo on PATH)")


_PLAYS: dict[type[Variant], bool] = {COMPILED_VARIANT: True}


def plays(variant: type[Variant]) -> bool:
    """Whether the extension's whole-call paths (moves and the wire answer) serve positions of
    ``variant``: it moves as backgammon does and has 15 checkers (the borne-off counts written)."""
    ok = _PLAYS.get(variant)
    if ok is None:
        ok = _PLAYS[variant] = (variant.moves_as(COMPILED_VARIANT)
                                and variant.checkers == COMPILED_VARIANT.checkers)
    return ok


@dataclass(frozen=True, slots=True)
class MoveGenerator:
    """The compiled extension (``ext``), or the pure core (``ext`` ``None``), and why.

    :ivar status: for the start-up log: ``rust``, or ``python (...)`` with the reason.
    """

    ext: ModuleType | None
    status: str

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> MoveGenerator:
        """The generator ``TAVLA_ACCEL`` chooses (not checked: :func:`check_setting` does)."""
        value = setting(environ)
        ext = _load(value)
        if ext is not None:
            return cls(ext, "rust")
        return cls.pure("python (TAVLA_ACCEL=0)" if value in _OFF else "python (tavla_accel not installed)")

    @classmethod
    def pure(cls, status: str = "python (TAVLA_ACCEL=0)") -> MoveGenerator:
        """The pure-Python core alone."""
        return cls(None, status)

    @property
    def active(self) -> bool:
        """Whether the compiled extension answers (the ``tavla_accelerator_active`` metric)."""
        return self.ext is not None

    @property
    def response_from_id(self) -> FromId | None:
        """The extension's whole-call path straight from a Position ID (``None`` when pure):
        ``(position_id, on_roll 1|2, d1, d2, view) -> (number of moves, the serialized
        ListLegalMovesResponse)``. It accepts exactly the IDs core.position_id.decode accepts,
        less finished games, and raises ValueError for anything else: the caller then takes the
        full path, which raises the engine's error."""
        if self.ext is None:
            return None
        answer: FromId = self.ext.legal_moves_response_from_id
        return answer

    def install(self) -> None:
        """Make the move generator of the backgammon-geometry variants (``core.movegen.generate``
        for their positions, behind ApplyMove, ListLegalSteps, Act, replays, ValidateMatch) this
        one's: it sets ``COMPILED_VARIANT.compiled_generate`` and, for a turn's steps (Act,
        ListActions, ListLegalSteps), ``compiled_steps``; and the codec's writers of a
        ``Position`` (:func:`tavla.server.convert.wire.use_compiled`) and of the referee's state,
        view and actions (:func:`tavla.server.convert.game_wire.use_compiled`); ``None`` when pure. The core's
        generator is one per process: the engine built last decides.

        :raises ValueError: the extension does not accept ``CheckerMove`` (cannot happen with the
            core's class; a failure here is a bug, so start-up fails loudly).
        """
        if self.ext is None:
            movegen.use_compiled(None, COMPILED_VARIANT)
            wire.use_compiled(None)
            game_wire.use_compiled(None)
            return
        self.ext.set_checker_move(movegen.CheckerMove)
        wire.use_compiled(self.ext.position_bytes)
        game_wire.use_compiled(game_wire.Compiled(self.ext.game_state_bytes, self.ext.game_view_bytes,
                                                  self.ext.game_actions_bytes, self.ext.act_response_bytes))
        movegen.use_compiled(self.ext.generate, COMPILED_VARIANT, steps=self.ext.turn_steps)

    def legal_moves_response(self, position: Position, dice: Sequence[int], view: int) -> tuple[int, bytes] | None:
        """(number of moves, the whole serialized ``ListLegalMovesResponse``: the bytes
        :func:`tavla.server.convert.wire.legal_moves_response` makes of the pure path's moves), or
        ``None`` when pure, when the extension does not write ``view`` or does not play the
        position's variant: then use ``core.legal_moves`` and :mod:`tavla.server.convert.wire`.

        :param view: :data:`tavla.server.convert.wire.FULL` or :data:`~tavla.server.convert.wire.BASIC`.
        :raises InvalidInputError: bad dice.
        :raises GameOverError: a side has already borne off all 15 (R15).
        """
        ext = self.ext
        if ext is None or not plays(position.variant):  # a variant it does not play
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
