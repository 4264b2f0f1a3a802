"""The exact one-sided bear-off database (R11-R13 of RULES.md).

A *home position* is one side's checkers on its six home points, no more than 15 of them, the rest
borne off, with nobody to hit them (no contact). There are C(21, 6) = 54,264 of them, the empty
one included. For each the database holds:

* the **distribution of the number of rolls** needed to bear off every checker when each roll is
  played to minimise the expected number of rolls, ``P(exactly n rolls)`` for n = 0, 1, ...;
  its **mean** (expected rolls) and the **EPC**;
* the **first-off distribution**: the rolls needed to bear off the *first* checker when each roll is
  played to minimise that number instead. It is what a gammon (mars, R15) turns on: a side that
  has borne off nothing loses a gammon if the other side finishes first. For a position with
  fewer than 15 checkers (one is already off) it is 0 rolls with certainty.

**Exact.** The tables are solved by backward induction in exact integer arithmetic: a probability
after n rolls is an integer over 36**n and an expected value an integer over 36**40 (no position
needs more than 30 rolls), so the choice of the best move is exact, including exact ties, which
go to the resulting position with the lowest index. Only the stored numbers are rounded, once,
to the nearest double. Trailing distribution entries whose total is below 2**-53 (the resolution
of a double next to 1) are dropped; the mean is stored separately, from the untruncated value.

**Rules.** A roll's legal plays are the core's (R4-R13): :func:`single_die_successors` states the
home-board rules for one die (R12: die n bears off from point n; from a lower point only when no
checker stands higher; otherwise it moves a checker inside home), and a roll is those steps played
in either order, four times for a double (R6). Inside home with nobody to block, every die is
playable while a checker is left, so R7 only ever stops a roll when the last checker is off.
``tests/rules/test_bearoff_db.py`` checks :func:`home_successors` against
:func:`tavla.core.rules.movegen.generate` and the whole table against GNU Backgammon's.

**EPC** (effective pip count, Walter Trice): expected rolls x 49/6. 49/6 = 8.1667 (usually quoted as
8.167) is the average number of pips in a roll, doubles counted four times: 294 pips over the 36
rolls. See Douglas Zare, "Effective pipcount and wastage", GammOnLine 2003
(https://www.bkgm.com/rgb/rgb.cgi?view+1076).

**Indexing** is the combinatorial number system: with ``S_m`` the checkers on the top ``m`` points
(points 7-m..6), ``index = sum(C(S_m + m - 1, m) for m in 1..6)``. The empty position is 0, one
checker on point 1 is 1, and every move lowers the index, so the table is solved in index order.
The order is the same as GNU Backgammon's ``PositionBearoff`` (a test checks all 54,264).

**Storage.** Per table: ``array('d')`` of probabilities with leading zeros and the negligible tail
cut, ``array('I')`` offsets, ``array('B')`` first roll count, ``array('d')`` means: 5.8 MB for the
main table (640,220 probabilities, at most 25 a position), 1.2 MB for the first-off one. Building
takes about 4 s in CPython (about 70 MB at the peak, released after), so :func:`get_database`
builds lazily on first use (thread-safe) and caches the result on disk (loading it takes about
10 ms), in ``$TAVLA_CACHE_DIR`` or else
``$XDG_CACHE_HOME/tavla-engine`` or ``~/.cache/tavla-engine``, in a file named after
:data:`FORMAT_VERSION`; a cache that is missing, unreadable or fails its SHA-256 check is rebuilt.
Standard library only.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import tempfile
import threading
import time
from array import array
from math import comb
from pathlib import Path
from typing import Any, NamedTuple, Sequence

from tavla.core.errors import InvalidInputError

log = logging.getLogger(__name__)

POINTS = 6
MAX_CHECKERS = 15
#: Home positions, the empty one included: C(21, 6).
N_POSITIONS = comb(POINTS + MAX_CHECKERS, POINTS)
#: Average pips in a roll, doubles counted four times (294 / 36): EPC = expected rolls x this.
PIPS_PER_ROLL = 49 / 6
#: Bumped whenever the tables or the file layout change; names the cache file.
FORMAT_VERSION = 1

_SCALE_ROLLS = 40  # expected values are kept as integers over 36**40 while solving
_ONE = 36**_SCALE_ROLLS
_TAIL = 2.0**-53  # a cut tail has less total probability than this
#: The 21 distinct rolls as (higher die, lower die, how many of the 36 throws show it).
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1))
_BIN = [[comb(n, k) for k in range(POINTS + 1)] for n in range(POINTS + MAX_CHECKERS + 1)]
_U32 = "I" if array("I").itemsize == 4 else "L"


# --- indexing -------------------------------------------------------------------------------------


def position_index(counts: Sequence[int], checkers: int = MAX_CHECKERS) -> int:
    """The database index of a home position.

    The positions of at most ``n`` checkers are the first C(6 + n, 6) indices, so one index
    serves every checker count (hypergammon's 3 take indices 0..83).

    :param counts: six checker counts, ``counts[0]`` on point 1 ... ``counts[5]`` on point 6.
    :param checkers: the variant's checkers a side (``Variant.checkers``; 15, hypergammon 3).
    :raises InvalidInputError: not six counts, a negative count, or more than ``checkers``.
    """
    if len(counts) != POINTS:
        raise InvalidInputError(
            "bearoff.counts", f"needs 6 counts (points 1-6), got {list(counts)}"
        )
    if min(counts) < 0 or sum(counts) > checkers:
        raise InvalidInputError(
            "bearoff.counts", f"{list(counts)}: counts must be >= 0 and add up to at most {checkers}"
        )
    return _rank(counts)


def _rank(counts: Sequence[int]) -> int:
    r = s = 0
    for m in range(1, POINTS + 1):
        s += counts[POINTS - m]
        r += _BIN[s + m - 1][m]
    return r


def position_counts(index: int) -> tuple[int, ...]:
    """The home position (six counts, point 1 first) with database index ``index``.

    :raises InvalidInputError: index outside 0..54263.
    """
    if not 0 <= index < N_POSITIONS:
        raise InvalidInputError("bearoff.index", f"{index} is outside 0..{N_POSITIONS - 1}")
    # greedy inverse of the colex rank: recover S_6, S_5, ..., S_1
    sums = [0] * (POINTS + 1)
    r = index
    for m in range(POINTS, 0, -1):
        s = 0
        while _BIN[s + m][m] <= r:  # largest s with C(s + m - 1, m) <= r
            s += 1
        sums[m] = s
        r -= _BIN[s + m - 1][m]
    return tuple(sums[POINTS - i] - sums[POINTS - i - 1] for i in range(POINTS))


def _all_positions(checkers: int = MAX_CHECKERS) -> list[tuple[int, ...]]:
    """Every home position of at most ``checkers`` checkers, at its index."""
    out: list[tuple[int, ...]] = [()] * comb(POINTS + checkers, POINTS)

    def rec(prefix: list[int], left: int) -> None:
        if len(prefix) == POINTS:
            c = tuple(prefix)
            out[_rank(c)] = c
            return
        for k in range(left + 1):
            prefix.append(k)
            rec(prefix, left - k)
            prefix.pop()

    rec([], checkers)
    return out


# --- moves inside home ----------------------------------------------------------------------------


def _successors(c: Sequence[int], p: int) -> list[list[int]]:
    """For dice 1..6, the indices reachable from position ``c`` (index ``p``) with one die.

    Moving a checker from point i to j (0 = off) lowers S_m by one for m in 7-i..6-j, so by
    Pascal's rule the index drops by the sum of C(S_m + m - 2, m - 1) over that range.
    """
    pref = [0] * (POINTS + 1)
    s = acc = 0
    for m in range(1, POINTS + 1):
        s += c[POINTS - m]
        if s:
            acc += _BIN[s + m - 2][m - 1]
        pref[m] = acc
    hi = 0
    for i in range(POINTS, 0, -1):
        if c[i - 1]:
            hi = i
            break
    out = []
    for d in range(1, 7):
        lst = []
        for i in range(hi, 0, -1):
            if c[i - 1]:
                if i > d:  # R12: move inside home
                    lst.append(p - pref[6 - i + d] + pref[6 - i])
                elif i == d or i == hi:  # R12: exact die, or a larger die from the highest point
                    lst.append(p - pref[6] + pref[6 - i])
        out.append(lst)
    return out


def single_die_successors(index: int, die: int) -> list[int]:
    """Positions (indices) one ``die`` can reach from position ``index`` (R12), highest source
    first.

    Empty for the empty position. With no contact no point is ever blocked.
    """
    if not 1 <= die <= 6:
        raise InvalidInputError("dice", f"die {die} is not 1-6")
    return _successors(position_counts(index), index)[die - 1]


def home_successors(index: int, d1: int, d2: int) -> frozenset[int]:
    """Every position (index) a legal play of ``d1``-``d2`` can leave from position ``index``.

    The dice in either order, a double four times (R4, R6); a roll stops early only when the
    last checker is off. The empty position maps to itself.
    """
    if index == 0:
        return frozenset((0,))
    steps = [d1] * 4 if d1 == d2 else None
    orders = [steps] if steps else [[d1, d2], [d2, d1]]
    found: set[int] = set()
    for order in orders:
        layer = {index}
        for d in order:
            layer = {q for p in layer for q in (single_die_successors(p, d) if p else (0,))}
        found |= layer
    return frozenset(found)


# --- the database ---------------------------------------------------------------------------------


class _Table:
    """Distributions of one kind for every position, compactly."""

    __slots__ = ("start", "offset", "values", "means")

    def __init__(self, start: array[int], offset: array[int], values: array[float],
                 means: array[float]) -> None:
        self.start = start  # array('B'): the first n with P(n) stored
        self.offset = offset  # array('I'), N + 1 entries: values[offset[i]:offset[i + 1]]
        self.values = values  # array('d')
        self.means = means  # array('d')

    def arrays(self) -> tuple[array[int], array[int], array[float], array[float]]:
        return self.start, self.offset, self.values, self.means

    @property
    def nbytes(self) -> int:
        return sum(a.itemsize * len(a) for a in self.arrays())

    def dist(self, i: int) -> tuple[float, ...]:
        return (0.0,) * self.start[i] + tuple(self.values[self.offset[i]:self.offset[i + 1]])

    def tail(self, i: int) -> tuple[int, list[float]]:
        """(first n, [P(T >= first n), P(T >= first n + 1), ...]) up to the last stored n."""
        vals = self.values[self.offset[i]:self.offset[i + 1]]
        out = []
        acc = 0.0
        for v in reversed(vals):
            acc += v
            out.append(acc)
        out.reverse()
        return self.start[i], out


class BearoffDatabase:
    """The two one-sided tables. Get the shared instance with :func:`get_database`.

    Indices are those of :func:`position_index`; look-ups do not validate them beyond what
    indexing an array does.
    """

    __slots__ = ("_win", "_first")

    def __init__(self, win: _Table, first: _Table) -> None:
        self._win = win
        self._first = first

    def distribution(self, index: int) -> tuple[float, ...]:
        """``P(exactly n rolls)`` to bear off everything, n = 0, 1, ..., playing to minimise the
        expected rolls; ends at the last non-negligible n. ``(1.0,)`` for the empty position."""
        return self._win.dist(index)

    def mean_rolls(self, index: int) -> float:
        """Expected rolls to bear off everything."""
        return self._win.means[index]

    def epc(self, index: int) -> float:
        """Effective pip count: :meth:`mean_rolls` x :data:`PIPS_PER_ROLL` (49/6)."""
        return self._win.means[index] * PIPS_PER_ROLL

    def first_off_distribution(self, index: int) -> tuple[float, ...]:
        """``P(exactly n rolls)`` to bear off the first checker, playing to minimise its mean;
        ``(1.0,)`` when the position has fewer than 15 checkers (one is off already)."""
        return self._first.dist(index)

    def first_off_mean(self, index: int) -> float:
        """Expected rolls to bear off the first checker (0 with fewer than 15 checkers)."""
        return self._first.means[index]

    def survival(self, index: int) -> tuple[int, list[float]]:
        """``(k, s)`` with ``s[j] = P(rolls to bear off everything >= k + j)``; 1 below ``k``,
        0 past the end."""
        return self._win.tail(index)

    def first_off_survival(self, index: int) -> tuple[int, list[float]]:
        """As :meth:`survival`, for the first-off distribution."""
        return self._first.tail(index)

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return self._win.nbytes + self._first.nbytes


def _solve(positions: list[tuple[int, ...]], order: Sequence[int], terminal: list[bool],
           record: list[tuple[int, ...] | None] | None = None) -> _Table:
    """Backward induction over ``order`` (increasing indices); ``terminal`` positions need 0 rolls.

    ``t[k][d][q]`` is ``(value, final)``: the best expected number of rolls still needed (an
    integer over 36**40) that playing ``k`` more dice of value ``d`` from ``q`` can leave, and the
    position it leaves; ``t[0][q] = (expected rolls of q, q)``. So a double is four steps over at
    most six candidates and a non-double two sets of one. Comparing the tuples breaks exact ties
    towards the lowest final index. ``record``, if given, gets for each solved position the
    tuple of the 21 positions the rolls of :data:`ROLLS` are played to.
    """
    n = len(positions)
    t0: list[tuple[int, int]] = [(0, q) for q in range(n)]
    t1, t2, t3 = ([list(t0) for _ in range(6)] for _ in range(3))
    counts: list[list[int] | None] = [None] * n  # exact integer numerators, P(n rolls) = counts[n] / 36**n
    first = [0] * n
    for q in range(n):
        if terminal[q]:
            counts[q] = [1]
    get0 = t0.__getitem__
    for p in order:
        succ = _successors(positions[p], p)
        for d in range(6):
            s = succ[d]
            t1[d][p] = min(map(get0, s))
            t2[d][p] = min(map(t1[d].__getitem__, s))
            t3[d][p] = min(map(t2[d].__getitem__, s))
        chosen: dict[int, int] = {}
        picks = []
        total = 0
        for a, b, weight in ROLLS:
            if a == b:
                v, q = min(map(t3[a - 1].__getitem__, succ[a - 1]))
            else:
                v, q = min(min(map(t1[b - 1].__getitem__, succ[a - 1])),
                           min(map(t1[a - 1].__getitem__, succ[b - 1])))
            chosen[q] = chosen.get(q, 0) + weight
            picks.append(q)
            total += weight * v
        if record is not None:
            record[p] = tuple(picks)
        if total % 36:
            raise AssertionError("bear-off expectations need a larger scale")  # pragma: no cover
        t0[p] = (_ONE + total // 36, p)
        lo: int | None = None
        hi: int | None = None
        for q in chosen:
            counts_q = counts[q]
            assert counts_q is not None  # q is terminal or solved before p (its index is lower)
            a = first[q] + 1
            b = a + len(counts_q)
            if lo is None or a < lo:
                lo = a
            if hi is None or b > hi:
                hi = b
        assert lo is not None and hi is not None  # chosen holds the plays of 21 rolls
        acc = [0] * (hi - lo)
        for q, weight in chosen.items():
            o = first[q] + 1 - lo
            counts_q = counts[q]
            assert counts_q is not None
            for i, v in enumerate(counts_q, o):
                acc[i] += weight * v
        counts[p] = acc
        first[p] = lo
    return _pack(counts, first, [v for v, _ in t0])


def _pack(counts: list[list[int] | None], first: list[int], expect: list[int]) -> _Table:
    start, offset, values, means = array("B"), array(_U32, [0]), array("d"), array("d")
    powers = [36**k for k in range(_SCALE_ROLLS + 1)]
    for p in range(len(counts)):
        lo = first[p]
        counts_p = counts[p]
        assert counts_p is not None  # every position is terminal or solved
        probs = [c / powers[k] for k, c in enumerate(counts_p, lo)]
        cut = len(probs)
        tail = 0.0
        while cut > 1 and tail + probs[cut - 1] < _TAIL:
            tail += probs[cut - 1]
            cut -= 1
        start.append(lo)
        values.extend(probs[:cut])
        offset.append(len(values))
        means.append(expect[p] / _ONE)
    return _Table(start, offset, values, means)


def build() -> BearoffDatabase:
    """Solve both tables from scratch (about 4 s in CPython). Prefer :func:`get_database`."""
    return build_with_choices().database


class BuildResult(NamedTuple):
    """:func:`build_with_choices`: the database and the move it chose for every roll.

    ``choices[p][r]`` is the position that roll ``ROLLS[r]`` is played to from position ``p``
    (``None`` for the empty position); ``first_off_choices`` likewise for the first-off table
    (``None`` for positions with fewer than 15 checkers).
    """

    database: BearoffDatabase
    choices: list[tuple[int, ...] | None]
    first_off_choices: list[tuple[int, ...] | None]


def build_with_choices() -> BuildResult:
    """As :func:`build`, keeping each roll's chosen play (for tests and analysis)."""
    t0 = time.perf_counter()
    positions = _all_positions()
    choices: list[tuple[int, ...] | None] = [None] * N_POSITIONS
    win = _solve(positions, range(1, N_POSITIONS), [p == 0 for p in range(N_POSITIONS)], choices)
    full = [sum(c) == MAX_CHECKERS for c in positions]
    first_choices: list[tuple[int, ...] | None] = [None] * N_POSITIONS
    first = _solve(positions, [p for p in range(N_POSITIONS) if full[p]], [not x for x in full],
                   first_choices)
    log.info("bear-off database built in %.2f s", time.perf_counter() - t0)
    return BuildResult(BearoffDatabase(win, first), choices, first_choices)


# --- disk cache -----------------------------------------------------------------------------------

_HEADER = (
    f"tavla-engine bearoff-os format={FORMAT_VERSION} points={POINTS} checkers={MAX_CHECKERS} "
    f"positions={N_POSITIONS}\n"
).encode()
_TYPECODES = ("B", _U32, "d", "d") * 2


def cache_dir() -> Path:
    """``$TAVLA_CACHE_DIR``, else ``$XDG_CACHE_HOME/tavla-engine``, else
    ``~/.cache/tavla-engine``."""
    env = os.environ.get("TAVLA_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tavla-engine"


def cache_path() -> Path:
    """The cache file of this :data:`FORMAT_VERSION`."""
    return cache_dir() / f"bearoff-os-{POINTS}x{MAX_CHECKERS}-v{FORMAT_VERSION}.bin"


def _to_le(a: array[Any]) -> bytes:
    if sys.byteorder == "big" and a.itemsize > 1:  # pragma: no cover
        a = array(a.typecode, a)
        a.byteswap()
    return a.tobytes()


def dumps(db: BearoffDatabase) -> bytes:
    """The database as bytes: header line, eight (count, little-endian array) sections, SHA-256."""
    parts = [_HEADER]
    for a in (*db._win.arrays(), *db._first.arrays()):
        parts.append(len(a).to_bytes(8, "little"))
        parts.append(_to_le(a))
    body = b"".join(parts)
    return body + hashlib.sha256(body).digest()


def loads(data: bytes) -> BearoffDatabase:
    """Inverse of :func:`dumps`.

    :raises ValueError: wrong header or version, bad checksum, or inconsistent arrays.
    """
    body, digest = data[:-32], data[-32:]
    if not body.startswith(_HEADER):
        raise ValueError("not a bear-off database of this format version")
    if hashlib.sha256(body).digest() != digest:
        raise ValueError("bear-off database checksum mismatch")
    pos = len(_HEADER)
    arrays: list[array[Any]] = []  # the typecodes say which hold ints, which floats
    for code in _TYPECODES:
        n = int.from_bytes(body[pos:pos + 8], "little")
        pos += 8
        a = array(code)
        a.frombytes(body[pos:pos + n * a.itemsize])
        pos += n * a.itemsize
        if sys.byteorder == "big" and a.itemsize > 1:  # pragma: no cover
            a.byteswap()
        arrays.append(a)
    if pos != len(body):
        raise ValueError("bear-off database has trailing bytes")
    tables = [_Table(*arrays[:4]), _Table(*arrays[4:])]
    for t in tables:
        if (len(t.start) != N_POSITIONS or len(t.means) != N_POSITIONS
                or len(t.offset) != N_POSITIONS + 1 or t.offset[-1] != len(t.values)):
            raise ValueError("bear-off database arrays have the wrong sizes")
    return BearoffDatabase(*tables)


def save(db: BearoffDatabase, path: Path) -> None:
    """Write atomically (temporary file in the same directory, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(dumps(db))
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache holds nothing secret
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path: Path) -> BearoffDatabase:
    """Read a database written by :func:`save`.

    :raises OSError: unreadable file. :raises ValueError: see :func:`loads`.
    """
    return loads(path.read_bytes())


_lock = threading.Lock()
_db: BearoffDatabase | None = None


def get_database(*, use_cache: bool = True, checkers: int = MAX_CHECKERS) -> BearoffDatabase:
    """The shared database: loaded from the disk cache, or built (and cached) on first use.

    Thread-safe: concurrent first calls build once. Cache problems (read-only directory, a
    corrupt or old file) are logged and fall back to building in memory.

    :param use_cache: ``False`` neither reads nor writes the disk cache.
    :param checkers: the variant's checkers a side (``Variant.checkers``). The bear-off table
        holds every count; the first-off table (gammons) depends on it: a position of fewer
        than ``checkers`` has one off already. For a count below 15 it is solved on first use
        over the C(6 + n, 6) positions of at most ``n`` checkers (84 for hypergammon's 3, under
        a millisecond) and kept in memory.
    :raises InvalidInputError: ``checkers`` is not 1-15 (field ``ruleset.variant``).
    """
    global _db
    if checkers != MAX_CHECKERS:
        return _for_checkers(checkers, use_cache)
    db = _db
    if db is not None:
        return db
    with _lock:
        if _db is None:
            _db = _load_or_build(use_cache)
        return _db


_by_checkers: dict[int, BearoffDatabase] = {}


def _for_checkers(checkers: int, use_cache: bool) -> BearoffDatabase:
    if not 1 <= checkers < MAX_CHECKERS:
        raise InvalidInputError("ruleset.variant", f"a bear-off database needs 1-15 checkers, not {checkers}")
    db = _by_checkers.get(checkers)
    if db is None:
        main = get_database(use_cache=use_cache)
        positions = _all_positions(checkers)
        full = [sum(c) == checkers for c in positions]
        first = _solve(positions, [p for p in range(len(positions)) if full[p]], [not x for x in full])
        db = _by_checkers.setdefault(checkers, BearoffDatabase(main._win, first))
    return db


def _load_or_build(use_cache: bool) -> BearoffDatabase:
    path = cache_path() if use_cache else None
    if path is not None and path.exists():
        try:
            return load(path)
        except (OSError, ValueError) as exc:
            log.warning("ignoring bear-off cache %s: %s", path, exc)
    db = build()
    if path is not None:
        try:
            save(db, path)
        except OSError as exc:
            log.warning("cannot write bear-off cache %s: %s", path, exc)
    return db
