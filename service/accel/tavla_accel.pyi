"""Type stub of the compiled accelerator (service/accel/src/lib.rs); shipped in its wheel."""

from typing import Any

def legal_moves_response(
    board: tuple[int, ...], on_roll: int, d1: int, d2: int, view: int
) -> tuple[int, bytes]:
    """(number of moves, the whole serialized ListLegalMovesResponse): the repeated ``moves``
    field followed by ``dice_used`` (field 2, left out when 0).

    :param board: the 26 ints of ``tavla.core.Position.board`` (a tuple); ``on_roll`` 1 white, 2 black.
    :param view: 0 FULL, 1 BASIC (``tavla.server.convert.wire``).
    :raises ValueError: dice not 1-6, a bad side or view, an impossible board, a finished game.
    :raises TypeError: ``board`` is not a tuple of ints.
    """

def legal_moves_response_from_id(
    position_id: str, on_roll: int, d1: int, d2: int, view: int
) -> tuple[int, bytes]:
    """:func:`legal_moves_response` of the position a GNU Backgammon Position ID gives, ``on_roll``
    (1 white, 2 black) on roll: the ID is read and validated here, accepting exactly the IDs
    ``tavla.core.ids.position_id.decode`` accepts, less a finished game (a side with all 15 off).

    :raises ValueError: anything else: a bad or non-canonical ID, a finished game, dice not 1-6,
        a bad side or view (any int that fits 64 bits; no reason worth showing: the server then
        takes the Python path, which raises the engine's own error).
    :raises TypeError: ``position_id`` is not a str.
    """

def generate(
    board: tuple[int, ...], d1: int, d2: int
) -> tuple[int, dict[tuple[int, ...], tuple[Any, ...]]]:
    """What ``tavla.core.rules.movegen.generate_python(board, d1, d2)`` returns, the same objects in the
    same order: (dice used, {resulting board, 26 ints in the mover's view: the first step
    sequence found reaching it, a tuple of ``CheckerMove``}) (R4-R14). ``tavla.server.api.generator``
    installs it behind ``tavla.core.rules.movegen.generate``.

    :raises ValueError: anything it does not answer (the caller then runs the Python generator):
        dice that are not ints 1-6, a board that is not a tuple of 26 ints of a valid position
        (at most 15 checkers a side, bars not negative), or :func:`set_checker_move` not called.
    """

def set_checker_move(cls: type) -> None:
    """Hand over ``tavla.core.rules.movegen.CheckerMove``, the class :func:`generate` makes its steps of
    (as ``tuple.__new__(cls, (from, to, die, hit))``); a later call replaces it.

    :raises ValueError: ``cls`` is not a tuple subclass whose instances are built that way.
    """

def turn_steps(
    board: tuple[int, ...], high: int, low: int, done: tuple[tuple[int, int, int], ...]
) -> tuple[
    tuple[Any, ...], tuple[int, ...], tuple[int, ...], tuple[Any, ...],
    tuple[Any, ...] | None, tuple[Any, ...] | None, int,
] | None:
    """A turn checker by checker, by backgammon's rules: what ``tavla.core.rules.steps.legal_steps``
    finds after the steps ``done`` (each ``(from, to, die)``, die 0 when not given) from ``board``
    (the mover's 26 ints) with the dice ``high`` >= ``low``: ``(steps played, board after, dice
    left, legal next steps, the legal move's steps when they complete it else None, the forced
    rest else None, dice a legal move uses)``, steps as ``CheckerMove`` (:func:`set_checker_move`).
    ``tavla.server.api.generator`` installs it as ``Backgammon.compiled_steps``.

    :returns: None when a step given is not one legal next step (a route of several dice, an
        illegal step): the caller's tree then answers or names the rule it breaks.
    :raises ValueError: dice not 1-6 or not larger first, a board no valid position has, a
        finished game, or :func:`set_checker_move` not called.
    """

def position_bytes(board: tuple[int, ...], on_roll: int) -> bytes:
    """The serialized ``Position`` (FULL view: side on roll, both sides' checkers with pip
    counts, Position ID, GNUBG ID, XGID) of ``board`` (26 ints, the side on roll's view; 15
    checkers a side) with ``on_roll`` (1 white, 2 black) on roll: what
    ``tavla.server.convert.wire.position(board, on_roll)`` writes; installed there by
    ``tavla.server.api.generator``.

    :raises ValueError: a side other than 1 or 2, a board no valid position has.
    :raises TypeError: ``board`` is not a tuple of ints.
    """

def game_state_bytes(
    version: int, match_id: str, sequence: int, ruleset: bytes, match_: bytes, phase: int,
    position: tuple[int, ...] | bytes, on_roll: int, dice: tuple[int, ...], moves: tuple[Any, ...],
    offer: bytes | None, resume: int, clock: bytes | None, outcome: bytes | None, turn: int,
    commitment: bytes, digest: bytes,
) -> bytes:
    """The bytes of a ``GameState`` (game.proto), what ``tavla.server.convert.game.state_to_bytes``
    writes in Python: ``ruleset``, ``match_`` and the optional ``offer``, ``clock``, ``outcome``
    as their messages' bytes (``None``: not set; ``b""``: set and empty); ``position`` the key's
    bytes, or a board (26 ints, the side on roll's view) whose Position ID's 10 bytes are the
    key; ``moves`` a tuple of ``CheckerMove``; enums and sides as their proto numbers.

    :raises ValueError: a board no valid position has, a step that is not four values, a
        repeated uint32 beyond 32 bits. :raises TypeError: an argument of the wrong type.
    :raises OverflowError: an int beyond 64 bits or negative.
    """

def game_view_bytes(
    match_id: str, sequence: int, ruleset: bytes, match_: bytes, phase: int, side_to_act: int | None,
    position: tuple[int, ...] | bytes, on_roll: int, current: tuple[int, ...] | bytes, current_on_roll: int,
    dice: tuple[int, ...], dice_left: tuple[int, ...], moves: tuple[Any, ...], flags: int,
    forced_steps: tuple[Any, ...], offer: bytes | None, resume: int, clock: bytes | None,
    outcome: bytes | None, turn: int, commitment: bytes, revealed_seed: bytes, digest: bytes,
) -> bytes:
    """The bytes of a ``GameView``, what ``tavla.server.convert.game.view_bytes`` writes in Python:
    ``position`` and ``current`` a ``Position``'s bytes, or a board (26 ints, 15 checkers a side)
    whose FULL ``Position`` is written here (as :func:`position_bytes`) with ``on_roll`` /
    ``current_on_roll`` on roll; ``flags`` 1 move_complete, 2 no_legal_move, 4 forced_move; the
    three digests written in hex; the rest as :func:`game_state_bytes`.

    :raises ValueError: as :func:`game_state_bytes`, or a side on roll other than 1 or 2.
    """

def game_actions_bytes(key: bytes, legal: tuple[Any, ...], kinds: dict[Any, int], results: dict[Any, int]) -> bytes:
    """A response's ``repeated GameAction`` field, ``key`` its tag's bytes: one entry per core
    ``Action`` of ``legal`` (kind, side, step, resign kind), ``kinds`` and ``results`` the action
    kinds' and result kinds' proto numbers; what ``tavla.server.convert.game.actions_fields``
    writes in Python.

    :raises ValueError: a kind without a number, a step that is not four values.
    """

def act_response_bytes(
    state: bytes, key_id: str, signature: bytes, view: bytes, events: bytes, legal: tuple[Any, ...],
    kinds: dict[Any, int], results: dict[Any, int],
) -> bytes:
    """The bytes of an ``ActResponse``: the ``SignedGameState`` of ``state``, ``key_id`` and
    ``signature``, the view's and events' bytes, and ``legal`` as :func:`game_actions_bytes`
    writes it; what ``tavla.server.convert.answers.act_response`` writes in Python.

    :raises ValueError: as :func:`game_actions_bytes`.
    """
