"""The brute-force reference: geometry, single steps, whole plays (R7), outcomes. See the package docstring.

Every rule below names where it comes from: RULES.md (R4..R16) or the variant's section of
variants-rules.md ("Ours" where the sources disagree). Points are numbered as in the neutral format:
1..24 in WHITE's numbering for the position; inside a step, in the MOVER's own numbering
(1 = its deepest home point, 24 = its farthest back), with 25 for the bar and 0 for off.
"""

from __future__ import annotations

from typing import Any

# --- geometry (variants-rules.md, the two directions) -------------------------------------------

OPPOSITE = frozenset({"backgammon", "tavla", "portes", "plakoto", "nackgammon", "hypergammon"})
SAME = frozenset({"fevga", "long_nardy"})
VARIANTS = OPPOSITE | SAME
WITH_BAR = frozenset({"backgammon", "tavla", "portes", "nackgammon", "hypergammon"})  # hitting (R5, R8)
CHECKERS = {v: 15 for v in VARIANTS} | {"hypergammon": 3}

BAR = 25  # a step's "from" when entering (R9)
OFF = 0  # a step's "to" when bearing off (R12)

Frozen = tuple[Any, ...]
Step = tuple[int, int]


def other(side: str) -> str:
    """The opponent of side "W" or "B"."""
    return "B" if side == "W" else "W"


def own_to_white(variant: str, side: str, q: int) -> int:
    """Side's own point q (1..24) as a point in white's numbering (variants-rules.md, directions).

    Opposite directions: black's q is white's 25 - q. Same direction (fevga, long nardy): black's q
    is white's ((q + 11) mod 24) + 1, so black's 24 is white's 12. Both maps are their own inverse.
    """
    if side == "W":
        return q
    if variant in SAME:
        return ((q + 11) % 24) + 1
    return 25 - q


white_to_own = own_to_white  # each map is an involution


# --- the internal state: (points tuple[str] of 25 (index 0 unused, white numbering), bar, off) ---
# bar and off are (W, B) pairs. A point's string lists its checkers bottom-up, as the neutral format.

State = tuple[tuple[str, ...], tuple[int, int], tuple[int, int]]
_IDX = {"W": 0, "B": 1}


def _from_pos(pos: dict[str, Any]) -> tuple[str, str, State]:
    variant = pos["variant"]
    if variant not in VARIANTS:
        raise ValueError(f"variant: unknown {variant!r}")
    side = pos["on_roll"]
    if side not in ("W", "B"):
        raise ValueError(f"on_roll: must be 'W' or 'B', got {side!r}")
    pts = [""] * 25
    for p, stack in pos.get("points", {}).items():
        p = int(p)
        if not 1 <= p <= 24:
            raise ValueError(f"points: point {p} outside 1..24")
        if any(c not in "WB" for c in stack):
            raise ValueError(f"points[{p}]: checkers must be 'W' or 'B', got {stack!r}")
        mixed = len(set(stack)) > 1
        if mixed and (variant != "plakoto" or stack[0] in stack[1:] or len(set(stack[1:])) > 1):
            raise ValueError(f"points[{p}]: {stack!r} mixes colours (only plakoto: one pinned checker under the other side's)")
        pts[p] = stack
    bar = pos.get("bar", {})
    off = pos.get("off", {})
    state: State = (tuple(pts), (bar.get("W", 0), bar.get("B", 0)), (off.get("W", 0), off.get("B", 0)))
    if variant not in WITH_BAR and any(state[1]):
        raise ValueError(f"bar: {variant} has no bar, got {bar}")
    n = CHECKERS[variant]
    for s in "WB":
        total = sum(st.count(s) for st in pts) + state[1][_IDX[s]] + state[2][_IDX[s]]
        if total != n:
            raise ValueError(f"side {s}: {total} checkers, the variant has {n}")
    return variant, side, state


def _to_frozen(variant: str, side: str, state: State) -> Frozen:
    pts, bar, off = state
    points = tuple((p, pts[p]) for p in range(1, 25) if pts[p])
    return (variant, side, points, bar[0], bar[1], off[0], off[1])


def freeze(pos: dict[str, Any]) -> Frozen:
    """The canonical hashable form of a neutral position (neutral.md).

    ``(variant, on_roll, tuple(sorted(points.items())), bar W, bar B, off W, off B)`` with int point
    keys (JSON's string keys are converted) and empty points dropped.
    """
    points = tuple(sorted((int(p), s) for p, s in pos.get("points", {}).items() if s))
    bar = pos.get("bar", {})
    off = pos.get("off", {})
    return (pos["variant"], pos["on_roll"], points, bar.get("W", 0), bar.get("B", 0), off.get("W", 0), off.get("B", 0))


def thaw(frozen: Frozen) -> dict[str, Any]:
    """The neutral position (a dict) of a frozen one."""
    variant, side, points, bw, bb, ow, ob = frozen
    return {"variant": variant, "on_roll": side, "points": dict(points), "bar": {"W": bw, "B": bb}, "off": {"W": ow, "B": ob}}


def start_position(variant: str, on_roll: str = "W") -> dict[str, Any]:
    """The start of a variant as a neutral position (R2; variants-rules.md, each variant's "Start")."""
    if variant in ("backgammon", "tavla", "portes"):
        own = {24: 2, 13: 5, 8: 3, 6: 5}
    elif variant == "nackgammon":
        own = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    elif variant == "hypergammon":
        own = {24: 1, 23: 1, 22: 1}
    elif variant in ("plakoto", "fevga", "long_nardy"):
        own = {24: 15}
    else:
        raise ValueError(f"variant: unknown {variant!r}")
    points: dict[int, str] = {}
    for s in "WB":
        for q, n in own.items():
            points[own_to_white(variant, s, q)] = s * n
    return {"variant": variant, "on_roll": on_roll, "points": points, "bar": {"W": 0, "B": 0}, "off": {"W": 0, "B": 0}}


# --- facts about a position ------------------------------------------------------------------

def _count_on(variant: str, s: str, pts: tuple[str, ...], q: int) -> int:
    return pts[own_to_white(variant, s, q)].count(s)


def _is_pinned_at(stack: str, s: str) -> bool:
    """Plakoto: s has a checker under an opposing one on this point (variants-rules.md, Plakoto)."""
    return len(stack) >= 2 and stack[0] == s and stack[-1] != s


def _can_bear_off(variant: str, s: str, state: State) -> bool:
    """R11 (and Plakoto: all home and none pinned): every checker of s is on its 1..6 or off."""
    pts, bar, off = state
    if bar[_IDX[s]]:
        return False
    home = 0
    for q in range(1, 25):
        stack = pts[own_to_white(variant, s, q)]
        n = stack.count(s)
        if not n:
            continue
        if q > 6 or _is_pinned_at(stack, s):
            return False
        home += n
    return home + off[_IDX[s]] == CHECKERS[variant]


def _highest(variant: str, s: str, pts: tuple[str, ...]) -> int:
    return max((q for q in range(1, 25) if _count_on(variant, s, pts, q)), default=0)


def _can_land(variant: str, s: str, stack: str) -> bool:
    """May a checker of s land on a point holding ``stack``?

    R5 (backgammon family): not on 2+ opposing checkers. Plakoto: a point is closed to s when the
    opponent has 2+ checkers there or pins one of s's there. Fevga, long nardy: a single opposing
    checker holds a point.
    """
    if not stack or stack[-1] == s:
        return True
    if variant in SAME:
        return False
    if variant == "plakoto":
        return len(stack) == 1  # a lone opposing checker, pinned on landing
    return len(stack) == 1  # a blot, hit (R5)


def _six_block_unpassed(variant: str, s: str, state: State) -> bool:
    """Does s hold six consecutive points with no opposing checker past them? (long nardy; fevga's prime)

    "Consecutive" along the opponent's path (its own numbering 24 -> 1, the way the block stops it);
    "past" = on a lower point of the opponent's own numbering than the block, or borne off.
    """
    pts, _bar, off = state
    o = other(s)
    held = [False] * 25  # by the opponent's own numbering
    opp_on = [0] * 25
    for r in range(1, 25):
        stack = pts[own_to_white(variant, o, r)]
        held[r] = bool(stack) and stack[-1] == s
        opp_on[r] = stack.count(o)
    for r in range(1, 20):
        if all(held[r : r + 6]):
            past = off[_IDX[o]] + sum(opp_on[1:r])
            if past == 0:
                return True
    return False


def _own_quarter_full(variant: str, s: str, pts: tuple[str, ...]) -> bool:
    """Fevga: s occupies all six points of its own starting quarter (its 19..24)."""
    return all(_count_on(variant, s, pts, q) for q in range(19, 25))


def _fevga_first_passed(variant: str, s: str, state: State) -> bool:
    """Fevga start rule: has a checker of s passed the opponent's start point (own 12), i.e. reached own 1..11 or off?"""
    pts, _bar, off = state
    return off[_IDX[s]] > 0 or any(_count_on(variant, s, pts, q) for q in range(1, 12))


def _off_start(variant: str, s: str, pts: tuple[str, ...]) -> int:
    """Checkers of s on the board outside its own 24-point."""
    return sum(_count_on(variant, s, pts, q) for q in range(1, 24))


# --- single steps ----------------------------------------------------------------------------

def _move(state: State, s: str, src: int | None, dst: int | None, variant: str) -> State:
    """Move one checker of s from white point src (None = bar) to dst (None = off); hit if R5 says so."""
    pts_l = list(state[0])
    bar = list(state[1])
    off = list(state[2])
    if src is None:
        bar[_IDX[s]] -= 1
    else:
        assert pts_l[src][-1] == s
        pts_l[src] = pts_l[src][:-1]
    if dst is None:
        off[_IDX[s]] += 1
    else:
        stack = pts_l[dst]
        if variant in WITH_BAR and stack and stack[-1] != s:  # a blot is hit (R5, R8)
            bar[_IDX[other(s)]] += 1
            stack = ""
        pts_l[dst] = stack + s  # plakoto: on top of a lone opposing checker = pinned under it
    return (tuple(pts_l), (bar[0], bar[1]), (off[0], off[1]))


def _steps(variant: str, s: str, state: State, d: int, head_left: int, head_limit: int, opts: dict[str, bool]):
    """Every legal single step of s with die d: a list of (step in own numbering, new state, head_left)."""
    pts, bar, _off = state
    out = []
    if variant in WITH_BAR and bar[_IDX[s]]:
        # R8: nothing else moves while s has a checker on the bar; R9: die n enters on own 25 - n.
        q_to = 25 - d
        if _can_land(variant, s, pts[own_to_white(variant, s, q_to)]):
            out.append(((BAR, q_to), _move(state, s, None, own_to_white(variant, s, q_to), variant), head_left))
        return out
    bear = _can_bear_off(variant, s, state)
    top = _highest(variant, s, pts) if bear else 0
    for q in range(24, 0, -1):
        src = own_to_white(variant, s, q)
        stack = pts[src]
        if not stack or stack[-1] != s:  # none of s, or s's checker is pinned (plakoto)
            continue
        t = q - d
        if t >= 1:
            dst = own_to_white(variant, s, t)
            if not _can_land(variant, s, pts[dst]):
                continue
            new = _move(state, s, src, dst, variant)
            step = (q, t)
        else:
            # R11 all home; R12 exact die, or a larger die from the highest occupied point
            if not bear or (t < 0 and q != top):
                continue
            new = _move(state, s, src, None, variant)
            step = (q, OFF)
        hl = head_left
        if variant == "long_nardy" and q == 24:
            # head rule: one checker off the head per turn (two on the first-throw doubles)
            if head_left >= head_limit:
                continue
            hl = head_left + 1
        if variant == "fevga":
            # start rule (brainking): no second checker leaves the start before the first has passed own 12
            if q == 24 and _off_start(variant, s, pts) and not _fevga_first_passed(variant, s, state):
                continue
            if _own_quarter_full(variant, s, new[0]):
                continue
            if opts["fevga_prime_rule"] and _six_block_unpassed(variant, s, new):
                continue
        if variant == "long_nardy" and _six_block_unpassed(variant, s, new):
            continue  # Ours: the six-block checked on the position after each step
        out.append((step, new, hl))
    return out


def _head_limit(variant: str, s: str, state: State, d1: int, d2: int, opts: dict[str, bool]) -> int:
    """Long nardy: checkers that may leave the head this turn (variants-rules.md, head rule)."""
    if variant != "long_nardy":
        return 99
    first_throw = _count_on(variant, s, state[0], 24) == CHECKERS[variant]
    specials = {6, 4} | ({3} if opts["nardy_three_three"] else set())
    return 2 if first_throw and d1 == d2 and d1 in specials else 1


def _options(kw: dict[str, Any]) -> dict[str, bool]:
    opts = {"fevga_prime_rule": True, "nardy_three_three": True, "koks": False}
    for k, v in kw.items():
        if k not in opts:
            raise TypeError(f"unknown option {k!r}")
        opts[k] = bool(v)
    return opts


def _orders(d1: int, d2: int) -> list[list[int]]:
    for d in (d1, d2):
        if not (isinstance(d, int) and 1 <= d <= 6):
            raise ValueError(f"dice: {d!r} is not 1..6")
    return [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]


# --- whole plays (R7) --------------------------------------------------------------------------

def legal_plays(pos: dict[str, Any], d1: int, d2: int, **options: Any) -> list[tuple[tuple[Step, ...], tuple[int, ...], Frozen]]:
    """Every legal play of the roll, step by step: (steps, dice used in order, final frozen position).

    Depth-first over every order of the dice and every checker per die; then R7: keep the plays
    that use the most dice, and when only one of two different dice can be used, the larger if it
    can. Steps are (from, to) in the mover's own numbering, 25 = bar, 0 = off. No legal play: one
    empty play ending on the position itself. Raises ValueError on a malformed position or dice.
    """
    opts = _options(options)
    variant, s, state0 = _from_pos(pos)
    limit = _head_limit(variant, s, state0, d1, d2, opts)
    plays: list[tuple[tuple[Step, ...], tuple[int, ...], State]] = []

    def dfs(state: State, dice: list[int], steps: tuple[Step, ...], used: tuple[int, ...], head_left: int) -> None:
        nxt = _steps(variant, s, state, dice[0], head_left, limit, opts) if dice else []
        if not nxt:
            plays.append((steps, used, state))
            return
        for step, new, hl in nxt:
            dfs(new, dice[1:], steps + (step,), used + (dice[0],), hl)

    for order in _orders(d1, d2):
        dfs(state0, order, (), (), 0)
    most = max(len(u) for _, u, _ in plays)
    kept = [p for p in plays if len(p[1]) == most]
    if most == 1 and d1 != d2 and any(u == (max(d1, d2),) for _, u, _ in kept):
        kept = [p for p in kept if p[1] == (max(d1, d2),)]
    seen = set()
    out = []
    for steps, used, st in kept:
        if steps in seen:
            continue
        seen.add(steps)
        out.append((steps, used, _to_frozen(variant, s, st)))
    return out


def legal_results(pos: dict[str, Any], d1: int, d2: int, **options: Any) -> set[Frozen]:
    """Every distinct position the side on roll can reach by a legal play of the roll (neutral.md).

    Same rules as ``legal_plays`` but level by level over sets of positions (faster, and an
    independent path that the tests compare with ``legal_plays``). ``on_roll`` stays the mover.
    The empty play gives ``{freeze(pos)}``. Raises ValueError on a malformed position or dice.
    """
    opts = _options(options)
    variant, s, state0 = _from_pos(pos)
    limit = _head_limit(variant, s, state0, d1, d2, opts)
    best_depth = 0
    best: dict[int, set[State]] = {}  # first die of the order -> positions at the deepest level reached
    for order in _orders(d1, d2):
        frontier = {(state0, 0)}
        depth = 0
        for d in order:
            nxt = {(new, hl) for st, h in frontier for _step, new, hl in _steps(variant, s, st, d, h, limit, opts)}
            if not nxt:
                break
            frontier = nxt
            depth += 1
        if depth > best_depth:
            best_depth, best = depth, {}
        if depth == best_depth:
            best.setdefault(order[0], set()).update(st for st, _h in frontier)
    if best_depth == 1 and d1 != d2 and max(d1, d2) in best:
        finals = best[max(d1, d2)]  # R7: the larger die when only one can be played
    else:
        finals = set().union(*best.values())
    return {_to_frozen(variant, s, st) for st in finals}


def legal_first_steps(pos: dict[str, Any], d1: int, d2: int, **options: Any) -> set[tuple[int, Step]]:
    """The (die, step) pairs that begin some legal play of the roll (what an engine lists as "legal moves" now)."""
    return {(used[0], steps[0]) for steps, used, _f in legal_plays(pos, d1, d2, **options) if steps}


def legal_steps(pos: dict[str, Any], d: int, **options: Any) -> set[Step]:
    """The single steps (own numbering, 25 bar, 0 off) legal with die d on its own, before any other step.

    A step-level question ("may this checker move d now?"), without R7 over a whole roll; the
    turn-scoped rules count from the start of the turn (long nardy: the first checker off the head).
    """
    opts = _options(options)
    variant, s, state0 = _from_pos(pos)
    _orders(d, d)
    return {step for step, _new, _hl in _steps(variant, s, state0, d, 0, 1, opts)}


def apply_step(pos: dict[str, Any], d: int, step: Step, **options: Any) -> dict[str, Any] | None:
    """The neutral position after one single step with die d (as ``legal_steps`` allows it), else None."""
    opts = _options(options)
    variant, s, state0 = _from_pos(pos)
    _orders(d, d)
    for got, new, _hl in _steps(variant, s, state0, d, 0, 1, opts):
        if got == tuple(step):
            return thaw(_to_frozen(variant, s, new))
    return None


def chain_moves(pos: dict[str, Any], d1: int, d2: int, **options: Any) -> set[Step]:
    """The (from, to) moves of single checkers that some legal play contains, with the dice combined.

    For every legal play and every step whose origin held a checker of the mover at the start (or
    the bar), follow that checker through the later steps that continue from where it landed:
    each point it reaches gives a pair (origin, point). This is the "flattened list of legal moves"
    that move-list UIs (and gammonx's tests) show: 24/23, 24/21 for a 1-2, not 23/21.
    """
    variant, s, state0 = _from_pos(pos)
    pts0 = state0[0]
    occupied = {q for q in range(1, 25) if _count_on(variant, s, pts0, q)} | {BAR}
    out: set[Step] = set()
    for steps, _used, _f in legal_plays(pos, d1, d2, **options):
        for i, (a, b) in enumerate(steps):
            if a not in occupied:
                continue
            out.add((a, b))
            cur = b
            for a2, b2 in steps[i + 1 :]:
                if cur != OFF and a2 == cur:
                    out.add((a, b2))
                    cur = b2
    return out


def apply_play(pos: dict[str, Any], steps: list[Step] | tuple[Step, ...], d1: int, d2: int, **options: Any) -> Frozen | None:
    """The final position of ``steps`` (own numbering, 25 bar, 0 off) if it is a legal play of the roll, else None.

    A play is legal when it is one of ``legal_plays``; a play that reaches a legal final position by
    another route of the same steps is the same play. Order of steps matters only through legality.
    """
    want = tuple(tuple(st) for st in steps)
    for got, _used, final in legal_plays(pos, d1, d2, **options):
        if got == want:
            return final
    return None


# --- end of game (variants-rules.md scoring, "Ours") -------------------------------------------------

def outcome(pos: dict[str, Any], **options: Any) -> tuple[str, int] | None:
    """None while the game goes on; else (winner "W"/"B" or "draw", points) per variants-rules.md "Ours".

    Backgammon/tavla: R15-R16 (1, 2 mars, 3 katmerli mars: bar or winner's home), no cube factor.
    Portes: 1, 2 if the loser bore off nothing, never 3. Plakoto: 1 or 2 likewise; a mother (a
    side's last checker on its start point) pinned there loses 2, unless the pinner's own mother is
    still on its start point; both mothers pinned = ("draw", 0). Fevga: 1 or 2. Long nardy: oin 1,
    mars 2, koks 3 with ``koks=True`` (a mars where the loser still has a checker in the winner's
    starting quarter, the winner's 19..24).
    """
    opts = _options(options)
    variant, _side, state = _from_pos(pos)
    pts, bar, off = state
    n = CHECKERS[variant]
    for w in "WB":
        if off[_IDX[w]] != n:
            continue
        lo = other(w)
        if off[_IDX[lo]]:
            return (w, 1)
        if variant in ("backgammon", "tavla", "nackgammon", "hypergammon"):
            in_home = bar[_IDX[lo]] or any(_count_on(variant, lo, pts, q) for q in range(19, 25))
            return (w, 3 if in_home else 2)
        if variant == "long_nardy" and opts["koks"]:
            quarter = any(pts[own_to_white(variant, w, q)].count(lo) for q in range(19, 25))
            return (w, 3 if quarter else 2)
        return (w, 2)
    if variant == "plakoto":
        mother_pinned = {s: _is_pinned_at(pts[own_to_white(variant, s, 24)], s) for s in "WB"}
        on_start = {s: _count_on(variant, s, pts, 24) > 0 for s in "WB"}
        if mother_pinned["W"] and mother_pinned["B"]:
            return ("draw", 0)
        for lo in "WB":
            if mother_pinned[lo] and not on_start[other(lo)]:
                return (other(lo), 2)
    return None
