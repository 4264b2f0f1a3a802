"""Write the variant match records of this folder with GNU Backgammon itself (the PyPI ``gnubg``
module, a test dependency): ``PYTHONPATH=service python tests/data/variants/make_gnubg_records.py``.

* nackgammon: gnubg plays both sides (0-ply, its own dice and cube decisions) a 5-point match
  under ``set variation nackgammon``, then ``export match mat`` and ``save match``.
* hypergammon: gnubg's wheel has no hypergammon database, so its evaluator cannot play the
  variant (it resigns at once); both players are made human and this script enters the moves:
  gnubg rolls its own dice, each move is one drawn (seeded) from our engine's legal moves and
  typed as a gnubg ``move`` command, which gnubg checks against its own rules (a move it refuses
  stops the script). Doubles are offered and taken or dropped at random. Then the same export.

gnubg's library build needs ``set threads 1`` (it waits for worker threads otherwise). The
output is deterministic for a given gnubg version (fixed seeds).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import gnubg

from tavla.core import Position, Side, legal_moves
from tavla.core.rules.hypergammon import Hypergammon

OUT = Path(__file__).parent
SETUP = ["set threads 1", "set display off", "set sound enable off", "set rng mersenne"]


def command(text: str) -> None:
    gnubg.command(text)


def export(stem: str) -> None:
    for ext in ("mat", "sgf"):  # gnubg does not overwrite a file without asking
        (OUT / f"{stem}.{ext}").unlink(missing_ok=True)
    command(f"export match mat {OUT / stem}.mat")
    command(f"save match {OUT / stem}.sgf")


def nackgammon(seed: int, length: int) -> None:
    for c in [*SETUP, f"set seed {seed}", "set variation nackgammon", "set player 0 gnubg",
              "set player 1 gnubg", *(f"set player {p} {w} evaluation plies 0" for p in (0, 1)
                                      for w in ("chequerplay", "cubedecision")), f"new match {length}"]:
        command(c)
    export(f"gnubg_nackgammon_{length}pt")


def _our_board(board) -> tuple[int, ...]:
    """gnubg's (side not on roll, side on roll) as our 26-int board of the side on roll."""
    other, mover = board
    b = [0] * 26
    for p in range(1, 25):
        b[p] = mover[p - 1] - other[24 - p]
    b[25], b[0] = mover[24], -other[24]
    return tuple(b)


def _text(steps) -> str:
    where = {25: "bar", 0: "off"}
    return " ".join(f"{where.get(s.from_point, s.from_point)}/{where.get(s.to_point, s.to_point)}" for s in steps)


def hypergammon(seed: int, length: int) -> None:
    rng = random.Random(seed)
    for c in [*SETUP, f"set seed {seed}", "set variation 3-chequer-hypergammon", "set automatic roll off", "set player 0 human",
              "set player 1 human", f"new match {length}"]:
        command(c)
    for _ in range(5000):
        info = gnubg.pos_info()
        if info["gamestate"] != 1:  # the game is over: the next one, or the match is won
            command("new game")
            if gnubg.pos_info()["gamestate"] != 1:
                break
            continue
        if info["doubled"]:
            command("drop" if rng.random() < 0.3 else "take")
            continue
        if info["dice"] == (0, 0):
            if rng.random() < 0.04:
                command("double")
                if gnubg.pos_info()["doubled"]:
                    continue
            command("roll")
            continue
        before = gnubg.board()
        position = Position(_our_board(before), Side.WHITE, Hypergammon)
        move = rng.choice(legal_moves(position, info["dice"]))
        if move.steps:
            command(f"move {_text(move.steps)}")
            if gnubg.board() == before:
                sys.exit(f"gnubg refused {_text(move.steps)} with {info['dice']} on {before}")
    export(f"gnubg_hypergammon_{length}pt")


if __name__ == "__main__":
    nackgammon(20, 5)
    hypergammon(30, 9)
