"""In-process cost of writing the referee's answers: each message's writer, compiled
(service/accel/src/game.rs, installed by the engine's move generator) and in Python
(``TAVLA_ACCEL=0``), over the answers of whole played matches. Prints figures; asserts nothing.

    PYTHONPATH=service python bench/bench_game_wire.py [--matches 20] [--repeat 5]

The answers of ``--matches`` international 7-point matches (random legal actions, the roll's
and the steps' states as a frontend sees them) are kept, then each writer is timed over all of
them, ``--repeat`` times, best run, in microseconds of CPU per answer (``time.process_time``):
``state`` (``GameState``), ``view`` (``GameView``), ``actions`` (the ``repeated GameAction``
entries) and ``act response`` (the whole ``ActResponse``, its parts given as bytes).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from tavla.core import preset
from tavla.core.game import Phase
from tavla.core.game.machine import turn
from tavla.core.match.dice_commit import DiceKey
from tavla.referee import Referee
from tavla.referee.keys import StateMode, StateSigner
from tavla.server.api.generator import MoveGenerator
from tavla.server.convert import answers
from tavla.server.convert import game as cg
from tavla.server.convert import game_wire as gw


def answers_of(matches: int) -> list[Any]:
    """Every answer of ``matches`` whole matches: (state, preset, analysis, legal, signed, view, events)."""
    referee = Referee(StateSigner(StateMode.REQUIRE, (("bench", b"k" * 32),), shared=True),
                      DiceKey(b"d" * 32, shared=True))
    rng = random.Random(1)
    out = []
    for n in range(matches):
        answer = referee.new_match(preset("international"), "international", 7, match_id=f"m{n}")
        while answer.legal:
            state = answer.state
            analysis = turn(state) if state.phase is Phase.MOVING else None
            out.append((state, "international", analysis, answer.legal, answer.signed, answer.view_bytes,
                        answer.events_bytes or b""))
            answer = referee.act(referee.open(answer.signed), rng.choice(answer.legal))
    return out


def timed(items: list[Any], write: Callable[[Any], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            write(item)
        best = min(best, time.process_time() - start)
    return 1e6 * best / len(items)


WRITERS: dict[str, Callable[[Any], object]] = {
    "state": lambda a: cg.state_to_bytes(a[0], a[1]),
    "view": lambda a: cg.view_bytes(a[0], a[1], a[2]),
    "actions": lambda a: cg.actions_fields(b"\x22", a[3]),
    "act response": lambda a: answers.act_response(a[4].state, a[4].key_id, a[4].signature, a[5], a[6], a[3]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    generator = MoveGenerator.from_env()
    generator.install()
    items = answers_of(args.matches)
    compiled = gw.compiled
    print(f"{len(items)} answers of {args.matches} matches; accelerator: {generator.status}")
    print(f"{'writer':<14} {'compiled us':>12} {'python us':>10}")
    for name, write in WRITERS.items():
        gw.use_compiled(compiled)
        fast = timed(items, write, args.repeat) if compiled is not None else float("nan")
        gw.use_compiled(None)
        slow = timed(items, write, args.repeat)
        print(f"{name:<14} {fast:>12.2f} {slow:>10.2f}")
    gw.use_compiled(compiled)


if __name__ == "__main__":
    main()
