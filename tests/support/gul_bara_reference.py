"""An independent reference for gul bara's moves, written from the rules text (docs/variants.md,
"Gul bara": Wikipedia "Gul bara", eightygames.wordpress.com "Gul Bara, Backgammon gone crazy",
the totalshareware and funwithpuzzles descriptions), not from the engine's generator: plain
lists of each side's counts in its own numbering, every order of every die tried, then the
dice rules applied to the finished sequences.

Rules used:
* both sides move the same way: the mover's point p is the opponent's ((p + 11) mod 24) + 1;
* a checker may land on an empty point or one of its own, never on one the opponent holds
  (one checker holds a point; no hitting);
* bearing off only with all remaining checkers on points 1-6; a die equal to the point bears
  that checker off, a larger die only from the highest occupied point;
* a throw of two different dice plays both if it can, else one, the larger if either alone can
  be played; a double's throw plays four times, as many as it can;
* the cascade: from the fourth throw of the game on, a double played in full is followed in the
  same turn by the next double, up to 6-6; one not played in full ends the turn.
"""

from __future__ import annotations

Side = tuple[int, ...]  # 25 counts: index 0 off, 1..24 the side's points


def their_point(p: int) -> int:
    return (p + 11) % 24 + 1


def step(mine: Side, theirs: Side, p: int, die: int) -> Side | None:
    """The mover's counts after moving one checker from ``p`` by ``die``, or None if illegal."""
    if mine[p] == 0:
        return None
    t = p - die
    if t >= 1:
        if theirs[their_point(t)]:
            return None
    else:
        if any(mine[q] for q in range(7, 25)):
            return None
        if t < 0 and any(mine[q] for q in range(p + 1, 7)):
            return None
        t = 0
    out = list(mine)
    out[p] -= 1
    out[t] += 1
    return tuple(out)


def _sequences(mine: Side, theirs: Side, dice: tuple[int, ...], done: int, found: dict[Side, int]) -> None:
    """Every end position of playing ``dice`` in the given order, with how many were played."""
    progressed = False
    if dice:
        for p in range(1, 25):
            after = step(mine, theirs, p, dice[0])
            if after is not None:
                progressed = True
                _sequences(after, theirs, dice[1:], done + 1, found)
    if not progressed:
        found[mine] = max(found.get(mine, 0), done)


def throw_plays(mine: Side, theirs: Side, d1: int, d2: int) -> tuple[set[Side], int]:
    """The mover's legal end positions for one throw ``d1``-``d2``, and how many dice they use."""
    if d1 == d2:
        ends: dict[Side, int] = {}
        _sequences(mine, theirs, (d1,) * 4, 0, ends)
        best = max(ends.values())
        return {e for e, n in ends.items() if n == best}, best
    orders = []
    for order in ((d1, d2), (d2, d1)):
        found: dict[Side, int] = {}
        _sequences(mine, theirs, order, 0, found)
        orders.append(found)
    best = max(n for o in orders for n in o.values())
    if best != 1:
        return {e for o in orders for e, n in o.items() if n == best}, best
    # one die only: the larger if it can be played alone
    for die in (max(d1, d2), min(d1, d2)):
        alone = {a for a in (step(mine, theirs, p, die) for p in range(1, 25)) if a is not None}
        if alone:
            return alone, 1
    raise AssertionError("a die was played")


def cascade(d: int, turn: int) -> tuple[tuple[int, int], ...]:
    """The throws a double ``d-d`` can give in the game's throw ``turn`` (1-based), each played
    only if the one before was played in full."""
    if turn <= 3:
        return ((d, d),)
    return tuple((e, e) for e in range(d, 7))
