"""Type stub of the compiled accelerator (service/accel/src/lib.rs); shipped in its wheel."""

def legal_moves_wire(
    board: tuple[int, ...], on_roll: int, d1: int, d2: int, view: int
) -> tuple[int, int, bytes]:
    """(dice used, number of moves, the ListLegalMovesResponse ``moves`` field as wire bytes).

    :param board: the 26 ints of ``tavla.core.Position.board`` (a tuple); ``on_roll`` 1 white, 2 black.
    :param view: 0 FULL, 1 BASIC (``tavla.server.wire``).
    :raises ValueError: dice not 1-6, a bad side or view, an impossible board, a finished game.
    :raises TypeError: ``board`` is not a tuple of ints.
    """

def legal_moves_response(
    board: tuple[int, ...], on_roll: int, d1: int, d2: int, view: int
) -> tuple[int, bytes]:
    """(number of moves, the whole serialized ListLegalMovesResponse): :func:`legal_moves_wire`'s
    bytes followed by ``dice_used`` (field 2, left out when 0). Same arguments and errors."""
