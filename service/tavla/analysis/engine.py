"""The adapter to Open Sage (``bgsage``, MPL-2.0; docs/analysis.md#the-engine): our board to its
input, its answers back to our values.

**The board.** Ours (:mod:`tavla.core.rules.position`) and bgsage's are both 26 ints from the side
on roll's view, its checkers positive on points 1-24 in its own numbering (it bears off past 1),
the opponent's negative, the side on roll's bar at index 25. They differ at index 0, the
opponent's bar: ours holds minus the count, bgsage's the count. :func:`to_engine` and
:func:`from_engine` swap that sign; nothing else changes. Backgammon and Turkish tavla share the
board, the start and the moves (R1-R14), so one net serves both (:data:`ENGINE_VARIANTS`); their
scoring differences are applied to the net's probabilities (:mod:`tavla.analysis.equity`).

**Equity.** With the cube in play and a backgammon paying 3 the engine's cubeful equity is used
(Janowski's formula, money with or without Jacoby and beavers; match play with its match equity
table, Crawford, the cube's owner and value): at 1 ply as the engine gives it, at 2 ply its
conversion of the 2-ply chances. Otherwise (Turkish tavla: no cube, katmerli mars paid 2) the
moves are ranked by our own equity of the net's cubeless probabilities
(:func:`tavla.analysis.equity.cubeless_equity`). Either way match play is ranked by match
equity at the score, never by money points.

**Cost.** The engine loads once per process on first use (:func:`shared`; about 0.2 s and 40 MB
per ply depth, docs/analysis.md); each call runs on the calling thread (``parallel_threads=1``:
the server's analysis pool bounds how many run at once). bgsage's analyzer is documented
thread-safe and releases the GIL in its C++ evaluation.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tavla.analysis.equity import Probabilities, Stakes, cubeless_equity
from tavla.core.rules.position import Position
from tavla.core.rules.variant import Board, load_variants

#: The variants bgsage's nets evaluate (``Variant.engine_net``: backgammon and Turkish tavla, one
#: board, start and moves).
ENGINE_VARIANTS = frozenset(v.name for v in load_variants() if v.engine_net)
#: The deepest ply the server asks the engine for (3-ply costs about 20 times 2-ply).
MAX_PLY = 2


class EngineUnavailable(RuntimeError):
    """bgsage cannot be imported or loaded here (no wheel for this Python or machine)."""


@functools.cache
def available() -> bool:
    """Whether bgsage is installed here (it has no wheel for Linux aarch64, docs/analysis.md):
    without it every variant gets the search player (:mod:`tavla.analysis.search`)."""
    return importlib.util.find_spec("bgsage") is not None and importlib.util.find_spec("bgbot_cpp") is not None


def to_engine(board: Board) -> list[int]:
    """Our board (side on roll's view) as bgsage's 26-int input: index 0 is the opponent's bar
    count, positive."""
    b = list(board)
    b[0] = -b[0]
    return b


def from_engine(board: Sequence[int]) -> Board:
    """bgsage's board back as ours (index 0: minus the opponent's bar count)."""
    b = list(board)
    b[0] = -b[0]
    return tuple(b)


def _probs(p: Any) -> Probabilities:
    return Probabilities(float(p.win), float(p.gammon_win), float(p.backgammon_win), float(p.gammon_loss),
                         float(p.backgammon_loss))


def borne_off(board: Sequence[int]) -> tuple[int, int]:
    """Checkers borne off by the side on roll and by its opponent, on bgsage's board (15 less
    those on the points and the bar)."""
    mine = sum(n for n in board[1:25] if n > 0) + board[25]
    theirs = -sum(n for n in board[1:25] if n < 0) + board[0]
    return 15 - mine, 15 - theirs


def clamp(probs: Probabilities, board: Sequence[int]) -> Probabilities:
    """``probs`` of the side whose view ``board`` is (bgsage's) with the gammons the rules rule
    out set to 0 (R16): a side that has borne off a checker cannot lose a gammon. The nets leave
    a residue there (about 0.17 win-gammon in a race where the loser has 5 off:
    docs/analysis.md#what-we-found)."""
    mine, theirs = borne_off(board)
    wg, wb, lg, lb = probs.win_gammon, probs.win_backgammon, probs.lose_gammon, probs.lose_backgammon
    if theirs > 0:
        wg = wb = 0.0
    if mine > 0:
        lg = lb = 0.0
    if (wg, wb, lg, lb) == (probs.win_gammon, probs.win_backgammon, probs.lose_gammon, probs.lose_backgammon):
        return probs
    return Probabilities(probs.win, wg, wb, lg, lb)


_OWNERS = {"centered": "CENTERED", "player": "PLAYER", "opponent": "OPPONENT"}


def _janowski(probs: Probabilities, board: Sequence[int], owner: str, stakes: Stakes | None = None) -> float:
    """Cubeful equity (normalized) of cubeless ``probs`` by Janowski's formula, bgsage's own (its
    1-ply conversion), with ``owner`` from the view of the side ``probs`` belong to: money play,
    or match play at ``stakes``' score and cube (bgsage's match equity table)."""
    import bgbot_cpp

    plist = [probs.win, probs.win_gammon, probs.win_backgammon, probs.lose_gammon, probs.lose_backgammon]
    pp, op = bgbot_cpp.pip_counts(list(board))
    x = bgbot_cpp.cube_efficiency(plist, bgbot_cpp.is_race(list(board)), pp, op)
    cube_owner = getattr(bgbot_cpp.CubeOwner, _OWNERS[owner])
    if stakes is not None and not stakes.money:
        return float(bgbot_cpp.cl2cf(plist, stakes.cube_value, cube_owner, x, stakes.away, stakes.opponent_away,
                                     stakes.crawford, jacoby=False))
    return float(bgbot_cpp.cl2cf_money(plist, cube_owner, x))


def native(stakes: Stakes) -> bool:
    """Whether the engine's own cubeful equity applies: the cube in play, a backgammon paying 3."""
    return stakes.cube and stakes.backgammon_points == 3


@dataclass(frozen=True, slots=True)
class MoveEval:
    """One candidate move as the engine saw it.

    :ivar board_after: the board after the move, the mover's view (our internal key,
        :attr:`tavla.core.rules.moves.Move.board_after`).
    :ivar equity: what it is worth to the mover under our rules (normalized: per unit of cube;
        match play: the engine's match equity, or ``2 * MWC - 1`` without a cube).
    :ivar cubeless_equity: points per game without the cube (international scoring, bgsage's).
    :ivar probs: the mover's chances after the move, before the opponent's roll.
    :ivar ply: the depth this move was evaluated at.
    """

    board_after: Board
    equity: float
    cubeless_equity: float
    probs: Probabilities
    ply: int


@dataclass(frozen=True, slots=True)
class CubeEval:
    """A cube decision of the side on roll before its roll (R19).

    :ivar probs: its cubeless chances before rolling.
    :ivar cubeless_equity: their worth under our rules without the cube's value.
    :ivar no_double: equity if it rolls without doubling.
    :ivar double_take: equity if it doubles and is taken (beavered when ``beaver``).
    :ivar double_pass: equity if it doubles and is dropped (+1 money; match: the match equity of
        winning the cube's value).
    :ivar should_double: doubling is right (the better of take and pass beats no double).
    :ivar should_take: the opponent should take a double.
    :ivar beaver: the opponent should beaver (money play with beavers).
    """

    probs: Probabilities
    cubeless_equity: float
    no_double: float
    double_take: float
    double_pass: float
    should_double: bool
    should_take: bool
    beaver: bool
    ply: int


class NetEngine:
    """bgsage's analyzers, one per ply depth, made on first use (thread-safe)."""

    def __init__(self) -> None:
        try:
            import bgsage
        except ImportError as exc:  # no wheel for this interpreter or machine
            raise EngineUnavailable(f"bgsage cannot be imported: {exc}") from exc
        self._bgsage = bgsage
        self._analyzers: dict[int, Any] = {}
        self._lock = threading.Lock()

    def analyzer(self, ply: int) -> Any:
        """The analyzer of ``ply`` (1 or 2), loaded once. At 1 ply it is bgsage's cubeful one
        (each move's cubeful equity); at 2 ply its cubeless one, whose checker play keeps the
        candidates its 1-ply filter finds within 0.08 of the best (at most 5, and the top two)
        for the deeper search, where the cubeful one re-searches every candidate cube-aware at
        15 times the cost (docs/analysis.md#levels); its pre-roll answers are the cubeful
        one's."""
        ply = max(1, min(MAX_PLY, ply))
        found = self._analyzers.get(ply)
        if found is None:
            with self._lock:
                found = self._analyzers.get(ply)
                if found is None:
                    found = self._bgsage.BgBotAnalyzer(eval_level=f"{ply}ply", cubeful=ply == 1, parallel_threads=1)
                    self._analyzers[ply] = found
        return found

    @staticmethod
    def _cube_args(stakes: Stakes) -> dict[str, Any]:
        return {"cube_value": stakes.cube_value, "cube_owner": stakes.cube_owner, "away1": stakes.away,
                "away2": stakes.opponent_away, "is_crawford": stakes.crawford, "jacoby": stakes.jacoby,
                "beaver": stakes.beavers}

    def moves(self, position: Position, dice: tuple[int, int], stakes: Stakes, ply: int) -> list[MoveEval]:
        """The candidate moves of ``position`` with ``dice``, best first by our equity.

        At 1 ply every legal move is the net's. At 2 ply the cubeless :meth:`analyzer` averages
        the opponent's best reply over its 21 rolls for the candidates its filter keeps (and the
        top two always); a move it left at 1 ply is marked ``ply=1``. A roll with no legal move
        gives an empty list.

        Each move's equity is ours at the match's score (:func:`native`): without the engine's
        cube model, :func:`~tavla.analysis.equity.cubeless_equity` (money points or no-cube match
        equity); with it, the engine's cubeful equity at 1 ply and, at 2 ply or when the rules
        rule out a gammon the net still gives (:func:`clamp`), bgsage's Janowski conversion of
        the chances (money or match), so that all of them compare alike.
        """
        deep = ply >= 2
        result = self.analyzer(ply).checker_play(to_engine(position.board), dice[0], dice[1], **self._cube_args(stakes))
        use_engine = native(stakes)
        chances = [(m, _probs(m.probs)) for m in result.moves]
        clamped = [clamp(raw, m.board) for m, raw in chances]
        rescore = deep or any(c is not raw for c, (_, raw) in zip(clamped, chances))
        out = []
        for (m, raw), probs in zip(chances, clamped):
            if not use_engine:
                equity = cubeless_equity(probs, stakes)
            elif rescore:  # post-move: the opponent rolls next, the cube as it stands
                equity = _janowski(probs, m.board, stakes.cube_owner, stakes)
            else:
                equity = float(m.equity)
            depth = 1 if str(m.eval_level).startswith("1") else ply
            out.append(MoveEval(from_engine(m.board), equity, float(m.cubeless_equity), probs, depth))
        out.sort(key=lambda e: (-e.ply, -e.equity))
        return out

    def pre_roll(self, position: Position, stakes: Stakes, ply: int) -> tuple[Probabilities, float, float]:
        """The side on roll's chances before its roll, their cubeless worth and its equity
        (cubeful when :func:`native`): the engine's evaluation of the position as the opponent
        just left it."""
        flipped = self._bgsage.flip_board(to_engine(position.board))
        theirs = stakes.flipped()
        args = self._cube_args(theirs)
        args.pop("beaver")
        r = self.analyzer(ply).post_move_analytics(flipped, **args)
        raw = _probs(r.probs).inverted()
        board = to_engine(position.board)
        probs = clamp(raw, board)
        mine = cubeless_equity(probs, stakes)
        if not native(stakes):
            equity = mine
        elif probs is not raw and stakes.money:
            equity = _janowski(probs, board, stakes.cube_owner)
        else:
            equity = -float(r.cubeful_equity)
        return probs, mine, equity

    def cube(self, position: Position, stakes: Stakes, ply: int) -> CubeEval:
        """The cube decision of the side on roll (it may double: the caller checks R19-R21).

        The net's pre-roll chances at ``ply`` (:meth:`pre_roll`: gammons the rules rule out
        removed; at 2 ply the cubeless analyzer's average over the 21 rolls) through bgsage's
        Janowski conversion with its match equity table (``cube_decision_1ply``). bgsage's own
        ``cube_action`` reloads the weight files on every call, at 1 and at 2 ply (90 ms median,
        700 ms p99 at 2 ply against 3 ms and 270 ms this way; the same decision in 300 real
        positions, docs/analysis.md#what-we-found).
        """
        import bgbot_cpp

        board = to_engine(position.board)
        probs, cubeless, _ = self.pre_roll(position, stakes, ply)
        plist = [probs.win, probs.win_gammon, probs.win_backgammon, probs.lose_gammon, probs.lose_backgammon]
        pp, op = bgbot_cpp.pip_counts(board)
        x = bgbot_cpp.cube_efficiency(plist, bgbot_cpp.is_race(board), pp, op)
        owner = getattr(bgbot_cpp.CubeOwner, _OWNERS[stakes.cube_owner])
        r = bgbot_cpp.cube_decision_1ply(plist, stakes.cube_value, owner, x, stakes.away, stakes.opponent_away,
                                         stakes.crawford, stakes.jacoby)
        nd, dt, dp = float(r.equity_nd), float(r.equity_dt), float(r.equity_dp)
        beaver = stakes.beavers and stakes.money and dt < 0  # the taker is ahead after taking: it redoubles
        return CubeEval(probs, cubeless, nd, dt, dp, bool(r.should_double), bool(r.should_take), beaver,
                        max(1, min(MAX_PLY, ply)))


_shared: NetEngine | None = None
_shared_lock = threading.Lock()


def shared() -> NetEngine:
    """This process's engine, made on first use.

    :raises EngineUnavailable: bgsage cannot be imported.
    """
    global _shared
    if _shared is None:
        with _shared_lock:
            if _shared is None:
                _shared = NetEngine()
    return _shared
