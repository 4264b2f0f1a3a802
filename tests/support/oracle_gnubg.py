"""GNU Backgammon (PyPI ``gnubg``) as an independent move generator for differential tests.

``gnubg.find_best_moves(board, cubeinfo, evalcontext, dice)`` lists one tuple per distinct legal
move, steps as 1-based (from, to) pairs with 25 the bar and 0 off.
The binding cuts a tuple short at its first bear-off: ``3/off 1/off`` comes back as ``(3,)``.
Such a cut move stands for every completion of it, so the comparison is a perfect matching:
each gnubg move to a distinct engine result, uncut ones exactly, cut ones to a completion.
"""

from __future__ import annotations

import gnubg

_CUBE = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, 0)  # money play, centred: not the match gnubg holds
_EVAL = gnubg.eval_context(0, 0)  # cubeless 0-ply: ordering only, the move list is complete


def to_gnubg(board):
    """Our 26-int board (mover's view) as gnubg's (player not on roll, player on roll)."""
    mover = [max(x, 0) for x in board[1:25]] + [board[25]]
    other = [max(-board[25 - p], 0) for p in range(1, 25)] + [-board[0]]
    return other, mover


def gnubg_moves(board, dice):
    return [m["move"] for m in gnubg.find_best_moves(to_gnubg(board), _CUBE, _EVAL, tuple(dice))]


def _step(b, f, t):
    b[f] -= 1
    if t > 0:
        if b[t] == -1:
            b[t] = 1
            b[0] -= 1
        else:
            b[t] += 1


def _tails(b, dice, found):
    """Every board reachable by playing all of ``dice`` in any order (naive rules)."""
    if not dice:
        found.add(tuple(b))
        return
    home = all(b[p] <= 0 for p in range(7, 26))
    for d in set(dice):
        rest = list(dice)
        rest.remove(d)
        for f in range(25, 0, -1):
            if b[f] <= 0:
                continue
            t = f - d
            if t > 0 and b[t] < -1:
                continue
            if t <= 0 and (not home or t < 0 and any(b[h] > 0 for h in range(f + 1, 7))):
                continue
            saved = list(b)
            _step(b, f, max(t, 0))
            _tails(b, rest, found)
            b[:] = saved


def candidates(board, dice, move, used):
    """Boards (mover's view) that gnubg's ``move`` tuple can stand for, given ``used`` dice."""
    d1, d2 = dice
    pool = [d1] * 4 if d1 == d2 else [d1, d2]
    b = list(board)
    pairs = len(move) // 2
    for i in range(pairs):
        f, t = move[2 * i], move[2 * i + 1]
        pool.remove(f - t)
        _step(b, f, t)
    if len(move) % 2 == 0:
        return {tuple(b)}
    c = move[-1]
    left = used - pairs - 1
    found: set = set()
    for d in set(x for x in pool if x >= c):
        rest = list(pool)
        rest.remove(d)
        tail = list(b)
        _step(tail, c, 0)
        for combo in _subsets(rest, left):
            _tails(list(tail), combo, found)
    return found


def _subsets(pool, k):
    from itertools import combinations

    return {tuple(sorted(c)) for c in combinations(pool, k)}


def perfect_match(ours: set, theirs: list[set]) -> bool:
    """Whether each of ``theirs`` (candidate sets) takes a distinct element of ``ours``, all used."""
    if len(ours) != len(theirs):
        return False
    owner: dict = {}

    def augment(i, seen):
        for r in theirs[i]:
            if r in ours and r not in seen:
                seen.add(r)
                if r not in owner or augment(owner[r], seen):
                    owner[r] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(theirs)))


def agrees(board, dice, used, ours: set) -> tuple[bool, str]:
    """Compare our result set with gnubg's move list for one position and roll."""
    moves = gnubg_moves(board, dice)
    if not moves:  # gnubg lists nothing when no die can be played; we list the empty move
        ok = used == 0 and ours == {tuple(board)}
        return ok, "gnubg: no move"
    if any(len(m) % 2 == 0 for m in moves):
        used = max(len(m) // 2 for m in moves if len(m) % 2 == 0)
    sets = [candidates(board, dice, m, used) for m in moves]
    ok = perfect_match(ours, sets)
    return ok, f"gnubg {len(moves)} moves {moves[:6]}; ours {len(ours)}"
