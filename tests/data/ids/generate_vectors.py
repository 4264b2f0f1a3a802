"""Regenerate gnubg_vectors.json from GNU Backgammon (the PyPI ``gnubg`` module, a test
dependency): ``PYTHONPATH=service python tests/data/ids/generate_vectors.py``.

* ``match_ids``: random Match ID fields, encoded by ``gnubg.match_id(cubeinfo, posinfo)``;
  gnubg's players 0 and 1 as gnubg numbers them (cube owner -1 = centred).
* ``xgids``: XGIDs of positions from seeded random games (written by our encoder, or taken from
  public documents for ``public_xgids``), each read by gnubg's ``set_gnubg_id`` and answered with
  ``gnubg.gnubg_id()``, the GNUBG ID gnubg makes of it. gnubg cannot set a position with a
  double offered ("D"), so none has one.

The output is deterministic for a given gnubg version (the seed is fixed).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import gnubg

from tavla.core import Position, Side, legal_moves
from tavla.core.ids import xgid

OUT = Path(__file__).with_name("gnubg_vectors.json")
# Public XGIDs quoted in documentation of XGID tools (sources in README.md beside this file).
PUBLIC_XGIDS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:21:0:0:3:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:8",
    "XGID=-A-B--A---------------d---:0:0:1:00:0:0:0:0:10",
    "XGID=-CCCBBB------------cccbbb-:0:0:1:63:0:0:0:0:8",
    "XGID=b-----B------------c-----C:0:0:1:00:0:0:0:0:8",
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:3:2:0:7:10",
]


def _quiet() -> None:
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("new match 7")


def match_id_vectors(rng: random.Random, n: int) -> list[dict]:
    out: list[dict] = []
    while len(out) < n:
        length = rng.choice([0, 0, 1, 3, 5, 7, 11, 25, 63])  # gnubg crashes past 64 (its MET)
        cube = 1 << rng.randint(0, 15)
        owner = -1 if cube == 1 or rng.random() < 0.2 else rng.randint(0, 1)
        move = rng.randint(0, 1)
        doubled = int(rng.random() < 0.2)
        resigned = 0 if doubled else rng.choice([0, 0, 1, 2, 3])
        turn = 1 - move if doubled or resigned else move
        dice = (0, 0) if doubled or rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
        # gnubg's cubeinfo zeroes the score in money play
        score = (rng.randint(0, length - 1), rng.randint(0, length - 1)) if length else (0, 0)
        crawford = int(length > 1 and length - 1 in score and rng.random() < 0.5)
        gamestate = rng.choice([0, 1, 1, 1, 2, 3, 4])
        jacoby = int(length == 0 and rng.random() < 0.5)
        try:
            ci = gnubg.cube_info(cube, owner, move, length, score, crawford, 0)
        except RuntimeError:  # gnubg refuses some combinations (SetCubeInfo); draw again
            continue
        ci["jacoby"] = jacoby
        # gnubg.match_id writes the larger die first, whatever the order given
        pi = gnubg.pos_info(turn, resigned, doubled, gamestate, dice)
        out.append({"cube": cube, "cube_owner": owner, "move": move, "turn": turn, "crawford": crawford,
                    "gamestate": gamestate, "doubled": doubled, "resigned": resigned, "dice": sorted(dice, reverse=True),
                    "length": length, "score": list(score), "jacoby": jacoby,
                    "match_id": gnubg.match_id(ci, pi)})
    return out


def random_positions(rng: random.Random, n: int) -> list[Position]:
    found: list[Position] = []
    while len(found) < n:
        pos = Position.initial(rng.choice([Side.WHITE, Side.BLACK]))
        while pos.winner is None and len(found) < n:
            if rng.random() < 0.15:
                found.append(pos)
            pos = rng.choice(legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))).result
    return found


def xgid_vectors(rng: random.Random, n: int) -> list[dict]:
    texts = list(PUBLIC_XGIDS)
    for pos in random_positions(rng, n):
        length = rng.choice([0, 3, 5, 7, 9, 11, 15])
        cube = 1 << rng.randint(0, 6) if rng.random() < 0.5 else 1
        owner = None if cube == 1 else rng.choice([Side.WHITE, Side.BLACK])
        scores = (rng.randint(0, length - 1), rng.randint(0, length - 1)) if length else (0, 0)
        crawford = bool(length and length - 1 in scores and scores[0] != scores[1] and rng.random() < 0.5)
        if crawford:  # no cube in the Crawford game: gnubg resets it on reading one
            cube, owner = 1, None
        dice = (rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.6 else (0, 0)
        jacoby = bool(not length and rng.random() < 0.5)
        texts.append(xgid.encode(xgid.Xgid(pos, cube, owner, "", dice, scores, crawford, jacoby,
                                           False, length, 10)))
    out = []
    for text in texts:
        gnubg.set_gnubg_id(text)
        out.append({"xgid": text, "gnubg_id": gnubg.gnubg_id()})
    return out


def main() -> int:
    _quiet()
    rng = random.Random(20261130)
    data = {"generator": "tests/data/ids/generate_vectors.py",
            "gnubg_version": gnubg.__version__ if hasattr(gnubg, "__version__") else "unknown",
            "match_ids": match_id_vectors(rng, 400), "xgids": xgid_vectors(rng, 300),
            "public_xgids": PUBLIC_XGIDS}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}: {len(data['match_ids'])} match IDs, {len(data['xgids'])} XGIDs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
