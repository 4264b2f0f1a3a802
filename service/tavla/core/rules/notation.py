"""Standard move notation: ``24/18 13/9*``, ``bar/22``, ``6/off``, ``8/5(2)``, ``13/7*/6``.

Points are in the mover's numbering (R1). One checker's consecutive steps are written as one
chain, with an intermediate point shown only where it hits; identical chains are grouped with a
count in brackets. :func:`parse` also accepts what real match files write: ``25`` for the bar,
``0`` for off, chains written out step by step, repeats written out, and ``Cannot Move``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tavla.core.errors import InvalidInputError
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.position import BAR, OFF

MAX_LENGTH = 200
_EMPTY = {"", "-", "cannot move", "cannot move.", "no move", "pass"}
_TOKEN = re.compile(r"^(bar|[0-9]{1,2})((?:/(?:[0-9]{1,2}|off|bar)\*?)+)(?:\(([0-9]+)\))?$")
_WAYPOINT = re.compile(r"/([0-9]{1,2}|off|bar)\*?")


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def format_steps(steps: tuple[CheckerMove, ...], as_played: bool = False) -> str:
    """Notation of a sequence of single-die steps; ``""`` for the empty move.

    :param as_played: chain the steps in the order given (each chain one checker's real path,
        chains then written from the highest point), for a variant where which checker moves
        matters (fevga's start rule): its runner's 19/4 and another checker's 24/19 are
        ``24/19 19/4``, never ``24/4``, which no checker could play. Otherwise steps are joined
        from the highest point down, as gnubg writes them.
    """
    chains: list[list[tuple[int, bool]]] = []
    for f, t, _die, hit in (steps if as_played else sorted(steps, key=lambda s: (-s[0], s[1]))):
        for chain in chains:
            if chain[-1][0] == f:  # the same checker moving on
                chain.append((t, hit))
                break
        else:
            chains.append([(f, False), (t, hit)])
    if as_played:
        chains.sort(key=lambda c: (-c[0][0], c[1][0]))  # the order sorted steps give: start down, first landing up
    texts = []
    for chain in chains:
        parts = [_name(chain[0][0])]
        for i, (point, hit) in enumerate(chain[1:], 1):
            if hit or i == len(chain) - 1:
                parts.append(_name(point) + ("*" if hit else ""))
        texts.append("/".join(parts))
    grouped: dict[str, int] = {}
    for text in texts:
        grouped[text] = grouped.get(text, 0) + 1
    return " ".join(t if n == 1 else f"{t}({n})" for t, n in grouped.items())


@dataclass(frozen=True, slots=True)
class Leg:
    """One checker's path as written: ``points[0]`` to ``points[-1]`` through any listed points.

    ``points`` are in the mover's numbering, 25 the bar and 0 off.
    """

    points: tuple[int, ...]

    @property
    def start(self) -> int:
        return self.points[0]

    @property
    def end(self) -> int:
        return self.points[-1]


def parse(text: str, field: str = "move.notation") -> tuple[Leg, ...]:
    """Parse notation into legs, one per checker moved (repeats expanded).

    :raises InvalidInputError: a token is not of the form above, a point is outside 0-25, a
        checker moves backwards, or more than four checkers move.
    """
    if len(text) > MAX_LENGTH:  # a turn is at most four checkers: refuse before any work
        raise InvalidInputError(field, f"{len(text)} characters; a move is at most {MAX_LENGTH}")
    norm = " ".join(text.split())
    if norm.lower() in _EMPTY:
        return ()
    legs: list[Leg] = []
    for token in norm.lower().split():
        m = _TOKEN.match(token)
        if not m:
            raise InvalidInputError(field, f"cannot read {token!r} in {text!r}")
        points = [_point(m.group(1), field, text, start=True)]
        for wp in _WAYPOINT.findall(m.group(2)):
            points.append(_point(wp, field, text))
        for a, b in zip(points, points[1:]):
            if b >= a:
                raise InvalidInputError(field, f"{token!r} in {text!r} moves backwards")
        count = int(m.group(3) or 1)
        if not 1 <= count <= 4:
            raise InvalidInputError(field, f"repeat count ({count}) in {token!r} is not 1-4")
        legs.extend([Leg(tuple(points))] * count)
    if len(legs) > 4:
        raise InvalidInputError(field, f"{text!r} moves {len(legs)} checkers; a turn moves at most 4")
    return tuple(legs)


def _point(word: str, field: str, text: str, start: bool = False) -> int:
    if word == "bar":
        if not start:
            raise InvalidInputError(field, f"a checker cannot move to the bar in {text!r}")
        return BAR
    if word == "off":  # only after a slash: _TOKEN never starts with it
        return OFF
    n = int(word)
    if start and n == 0 or not start and n == BAR or n > BAR:
        raise InvalidInputError(field, f"point {n} is out of range in {text!r}")
    return n
