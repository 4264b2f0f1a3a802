"""Ranked moves, position evaluations, cube advice and the referee's computer side
(docs/analysis.md), for any variant: bgsage's net where it has one (:mod:`tavla.analysis.engine`),
the search player elsewhere (:mod:`tavla.analysis.search`).

Every function takes the core's values (a :class:`Position`, a :class:`Ruleset`, a
:class:`MatchState`) and a :class:`~tavla.analysis.levels.Level`; ``time_left`` (seconds) is the
call's remaining deadline, from which :func:`effective_ply` picks the deepest ply that fits.
"""

from __future__ import annotations

import enum
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace as _replace

from tavla.analysis import engine as net
from tavla.analysis import search
from tavla.analysis.equity import Probabilities, Stakes, cubeless_equity
from tavla.analysis.levels import LEVELS, Level, noise_for
from tavla.core.game.state import Action, ActionKind, GameState, Phase, side_to_act
from tavla.core.match.cube import CubeAction, cube_options
from tavla.core.match.ruleset import Ruleset
from tavla.core.match.state import MatchState
from tavla.core.match.violations import ActionReason, IllegalActionError
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.moves import Move, check_not_over, legal_moves
from tavla.core.rules.position import Position, Side
from tavla.core.rules.steps import legal_steps
from tavla.core.rules.variant import Board, ResultKind, Variant


class Evaluator(enum.Enum):
    """What evaluated an answer (``tavla.v1.Evaluator``)."""

    NEURAL_NET = "neural_net"  # bgsage
    SEARCH = "search"  # tavla.analysis.search, for variants without a net


def evaluator_for(variant: type[Variant]) -> Evaluator:
    """bgsage for the variants it has a net for (:data:`~tavla.analysis.engine.ENGINE_VARIANTS`)
    when it is installed, the search player for every other (and for all where it is not)."""
    return Evaluator.NEURAL_NET if variant.name in net.ENGINE_VARIANTS and net.available() else Evaluator.SEARCH


# -- time budget -------------------------------------------------------------------------------

class Decision(enum.Enum):
    """What a timed decision evaluates: a move (every candidate) or a position before its roll
    (a cube decision, an evaluation); each has its own measured cost."""

    MOVE = "move"
    PRE_ROLL = "pre_roll"


_cost: dict[tuple[Evaluator, int, Decision], float] = {}  # measured seconds per decision, a running mean
_cost_lock = threading.Lock()
_COST_SMOOTHING = 0.2


def _measured(kind: Evaluator, ply: int, seconds: float, decision: Decision = Decision.MOVE) -> None:
    key = (kind, ply, decision)
    with _cost_lock:
        old = _cost.get(key)
        _cost[key] = seconds if old is None else old + _COST_SMOOTHING * (seconds - old)


def effective_ply(level: Level, kind: Evaluator, time_left: float = math.inf,
                  decision: Decision = Decision.MOVE) -> int:
    """The level's ply, or one less while the call has less time left than three times what a
    ``decision`` at that ply has taken here (a running mean) or than the level's budget allows:
    a 2-ply answer that would miss the deadline becomes a 1-ply one in time."""
    ply = LEVELS[level].ply
    while ply > 1:
        key = (kind, ply, decision)
        cost = _cost.get(key, 0.0)
        if cost <= LEVELS[level].budget_seconds and 3.0 * cost <= time_left:
            break
        if cost > LEVELS[level].budget_seconds:  # forget a slow spell little by little: try again later
            with _cost_lock:
                _cost[key] = cost * (1.0 - _COST_SMOOTHING)
        ply -= 1
    return ply


# -- moves -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RankedMove:
    """One legal move with its evaluation.

    :ivar move: the legal move (:func:`tavla.core.legal_moves`).
    :ivar equity: its worth to the mover (:class:`tavla.analysis.engine.MoveEval`; the search
        player's score for variants without a net).
    :ivar probs: the mover's chances after it.
    :ivar equity_loss: the best move's equity minus this one's (>= 0).
    :ivar ply: the depth it was evaluated at.
    """

    move: Move
    equity: float
    probs: Probabilities
    equity_loss: float
    ply: int


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The moves in the order the level prefers them (the first is what it plays); without
    noise that is best equity first."""

    moves: tuple[RankedMove, ...]
    evaluator: Evaluator
    ply: int


def _noise_key(position: Position, dice: Sequence[int], salt: int = 0) -> tuple[int, ...]:
    return (*position.board, int(position.on_roll), *sorted(dice), salt)


def evaluate_moves(position: Position, dice: Sequence[int], rules: Ruleset, match: MatchState,
                   ply: int) -> tuple[list[RankedMove], Evaluator]:
    """Every legal move of ``position`` with ``dice`` and its evaluation at ``ply``, best
    equity first (no noise).

    :raises InvalidInputError: bad dice.
    :raises GameOverError: the game is over (R15).
    """
    dice2 = (int(dice[0]), int(dice[1])) if len(dice) == 2 else (0, 0)
    moves = legal_moves(position, dice)  # checks the dice and the position first
    kind = evaluator_for(position.variant)
    stakes = Stakes.of(rules, match, position.on_roll)
    ranked: list[tuple[Move, float, Probabilities, int]] = []
    if kind is Evaluator.NEURAL_NET:
        by_board = {m.board_after: m for m in moves}
        evals = net.shared().moves(position, dice2, stakes, ply) if moves[0].steps else []
        for e in evals:
            found = by_board.pop(e.board_after, None)
            if found is not None:
                ranked.append((found, e.equity, e.probs, e.ply))
        for left in by_board.values():  # the empty move (bgsage lists none), or a move it missed
            probs, _, eq = net.shared().pre_roll(left.result, stakes.flipped(), 1)
            ranked.append((left, -eq, probs.inverted(), 1))
    else:
        for s in search.rank(position, dice, ply):
            ranked.append((s.move, s.score, search.win_estimate(s.score), s.ply))
    # deeper evaluations first (a move the deeper search filtered out keeps its shallower
    # equity, which does not compare with the deeper ones), then best equity first
    ranked.sort(key=lambda r: (-r[3], -r[1]))
    best = ranked[0][1]
    return [RankedMove(m, eq, p, max(0.0, best - eq), d) for m, eq, p, d in ranked], kind


def suggest_move(position: Position, dice: Sequence[int], rules: Ruleset, match: MatchState, level: Level,
                 time_left: float = math.inf) -> Suggestion:
    """The legal moves in ``level``'s order of preference: evaluated at its ply (or less, to
    meet ``time_left``), each equity shifted by the level's deterministic noise for the choice
    (the equities reported are without noise).

    :raises InvalidInputError: bad dice.
    :raises GameOverError: the game is over (R15).
    """
    kind = evaluator_for(position.variant)
    ply = effective_ply(level, kind, time_left)
    start = time.perf_counter()
    moves, _ = evaluate_moves(position, dice, rules, match, ply)
    _measured(kind, ply, time.perf_counter() - start)
    noise = noise_for(level, _noise_key(position, dice), len(moves))
    order = sorted(range(len(moves)), key=lambda i: (-moves[i].ply, -(moves[i].equity + noise[i])))
    return Suggestion(tuple(moves[i] for i in order), kind, ply)


# -- positions and the cube ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PositionEval:
    """The side on roll's prospects before its roll.

    :ivar probs: its chances.
    :ivar cubeless_equity: their worth without the cube (:func:`~tavla.analysis.equity.cubeless_equity`).
    :ivar equity: its equity with the cube as it stands (cubeful where the engine's cube model
        applies; else the cubeless one).
    """

    probs: Probabilities
    cubeless_equity: float
    equity: float
    evaluator: Evaluator
    ply: int


def evaluate_position(position: Position, rules: Ruleset, match: MatchState, level: Level,
                      time_left: float = math.inf) -> PositionEval:
    """:class:`PositionEval` of ``position`` for its side on roll, before it rolls.

    :raises GameOverError: the game is over (R15).
    """
    check_not_over(position)
    kind = evaluator_for(position.variant)
    ply = effective_ply(level, kind, time_left, Decision.PRE_ROLL)
    stakes = Stakes.of(rules, match, position.on_roll)
    if kind is Evaluator.NEURAL_NET:
        start = time.perf_counter()
        probs, cubeless, eq = net.shared().pre_roll(position, stakes, ply)
        _measured(kind, ply, time.perf_counter() - start, Decision.PRE_ROLL)
        return PositionEval(probs, cubeless, eq, kind, ply)
    score = search.pre_roll(position)
    return PositionEval(search.win_estimate(score), score, score, kind, 1)


class CubeAdvice(enum.Enum):
    """What the side on roll should do with the cube (``tavla.v1.CubeAdvice``)."""

    NO_DOUBLE = "no_double"
    TOO_GOOD = "too_good"  # no double: playing on for a gammon is worth more than a drop
    DOUBLE_TAKE = "double_take"
    DOUBLE_PASS = "double_pass"
    DOUBLE_BEAVER = "double_beaver"


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """Cube advice for the side on roll before its roll (R19-R21).

    :ivar cube: the evaluation (:class:`tavla.analysis.engine.CubeEval`: probabilities, the
        no-double, double-take and double-pass equities, beaver, ply) with ``should_double`` and
        ``should_take`` as this level judges them (its noise; never a double when it may not, nor
        by the search player); ``should_take``: the opponent should take (beaver when ``beaver``).
    :ivar available: it may double now (cube in play, not Crawford, not owned by the opponent,
        below the limit, not dead).
    :ivar denial: why it may not (an :class:`ActionReason`), else ``None``.
    :ivar advice: the right action if it may double; ``NO_DOUBLE`` when it may not.
    :ivar evaluator: which engine judged it (the net or the search player).
    """

    cube: net.CubeEval
    available: bool
    denial: ActionReason | None
    advice: CubeAdvice
    evaluator: Evaluator


#: The search player takes a double while its estimated win chance is at least this (a money
#: take point without gammons or recube vig).
SEARCH_TAKE_POINT = 0.25


def suggest_cube(position: Position, rules: Ruleset, match: MatchState, level: Level,
                 time_left: float = math.inf) -> CubeDecision:
    """Cube advice for ``position``'s side on roll in ``match`` (a double pending in ``match``
    is ignored: the advice is for the doubler, ``should_take`` for its opponent). Lower levels
    judge with their noise.

    :raises GameOverError: the game is over (R15).
    """
    check_not_over(position)
    side = position.on_roll
    clean = _replace(match, cube=_replace(match.cube, offered_by=None, redoubles=0))
    options = cube_options(clean, rules, side)
    available = CubeAction.DOUBLE in options.actions
    kind = evaluator_for(position.variant)
    ply = effective_ply(level, kind, time_left, Decision.PRE_ROLL)
    stakes = Stakes.of(rules, clean, side)
    if kind is Evaluator.NEURAL_NET:
        start = time.perf_counter()
        c = net.shared().cube(position, stakes, ply)
        _measured(kind, ply, time.perf_counter() - start, Decision.PRE_ROLL)
    else:
        score = search.pre_roll(position)
        probs = search.win_estimate(score)
        dt = 2 * score
        if probs.win > 1.0 - SEARCH_TAKE_POINT:
            dt = 1.0 + (probs.win - (1.0 - SEARCH_TAKE_POINT))  # past the take point: a drop
        ply = 1  # search.pre_roll: each roll's best one-ply move, at every level
        c = net.CubeEval(probs, score, score, dt, 1.0, False, False, False, ply)
    nd, dt, dp, beaver = c.no_double, c.double_take, c.double_pass, c.beaver
    noise = noise_for(level, _noise_key(position, (), 1), 3)
    nnd, ndt, ndp = nd + noise[0], dt + noise[1], dp + noise[2]
    take = ndt <= ndp
    double_value = ndt if take else ndp
    should_double = double_value > nnd
    if not should_double:
        advice = CubeAdvice.TOO_GOOD if (not take and nnd > ndp) else CubeAdvice.NO_DOUBLE
    elif take:
        advice = CubeAdvice.DOUBLE_BEAVER if beaver and stakes.beavers else CubeAdvice.DOUBLE_TAKE
    else:
        advice = CubeAdvice.DOUBLE_PASS
    if not available or kind is Evaluator.SEARCH:  # the search player never doubles
        should_double = False
        advice = CubeAdvice.NO_DOUBLE
    cube = _replace(c, should_double=should_double, should_take=take, ply=ply)
    return CubeDecision(cube, available, options.denial, advice, kind)


# -- the referee's computer side -------------------------------------------------------------------

def _resign_points(kind: ResultKind, stakes: Stakes) -> int:
    return {ResultKind.SINGLE: 1, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: stakes.backgammon_points}[kind]


def _next_step(state: GameState, target: Move) -> CheckerMove | None:
    """The next step toward ``target`` after the state's steps, if the steps so far lead there."""
    done = [tuple(s[:2]) for s in state.steps]
    path = [tuple(s[:2]) for s in target.steps]
    if path[:len(done)] == done and len(path) > len(done):
        return target.steps[len(done)]
    return None


def _reachable(position: Position, dice: Sequence[int], steps: Sequence[CheckerMove], depth: int = 0) -> set[Board]:
    """The final boards the legal steps from ``steps`` on can reach (a small tree: at most four
    steps)."""
    st = legal_steps(position, dice, steps)
    if st.complete and st.move is not None:
        return {st.move.board_after}
    out: set[Board] = set()
    for nxt in st.next_steps:
        out |= _reachable(position, dice, [*steps, nxt], depth + 1)
    return out


#: The move the computer chose for a turn, kept for its next steps (each step is one
#: SuggestAction call; the choice is deterministic, so keeping it changes no answer).
_TURNS_KEPT = 256
_turns: OrderedDict[tuple[object, ...], Suggestion] = OrderedDict()
_turns_lock = threading.Lock()


def _turn_suggestion(state: GameState, level: Level, time_left: float) -> Suggestion:
    key = (state.position.board, state.position.on_roll, state.position.variant, tuple(state.dice), level,
           state.ruleset, state.match)
    with _turns_lock:
        found = _turns.get(key)
        if found is not None:
            _turns.move_to_end(key)
            return found
    found = suggest_move(state.position, state.dice, state.ruleset, state.match, level, time_left)
    with _turns_lock:
        _turns[key] = found
        while len(_turns) > _TURNS_KEPT:
            _turns.popitem(last=False)
    return found


def _moving_action(state: GameState, side: Side, legal: Sequence[Action], level: Level,
                   time_left: float) -> tuple[Action, int]:
    """The next step of the move the level plays and the ply it was chosen at (0 for
    CONFIRM_MOVE: nothing is evaluated)."""
    if any(a.kind is ActionKind.CONFIRM_MOVE for a in legal):
        return Action(ActionKind.CONFIRM_MOVE, side), 0
    steps = [a for a in legal if a.kind is ActionKind.STEP and a.step is not None]
    if not steps:
        raise IllegalActionError(ActionReason.WRONG_PHASE, "the turn has no step and cannot be confirmed")
    suggestion = _turn_suggestion(state, level, time_left)
    return _next_of(state, side, steps, suggestion), suggestion.ply


def _next_of(state: GameState, side: Side, steps: Sequence[Action], suggestion: Suggestion) -> Action:
    """The step of ``steps`` toward the first of ``suggestion``'s moves the turn can still reach."""
    done = [CheckerMove(*s) for s in state.steps]
    reachable: set[Board] | None = None
    for ranked in suggestion.moves:
        nxt = _next_step(state, ranked.move)
        if nxt is None:  # the steps so far went elsewhere: follow whichever step still reaches it
            if reachable is None:
                reachable = _reachable(state.position, state.dice, done)
            if ranked.move.board_after not in reachable:
                continue
            for a in steps:
                assert a.step is not None
                if ranked.move.board_after in _reachable(state.position, state.dice, [*done, a.step]):
                    return a
            continue
        for a in steps:
            assert a.step is not None
            if (a.step[0], a.step[1]) == (nxt[0], nxt[1]):
                return Action(ActionKind.STEP, side, CheckerMove(nxt[0], nxt[1], nxt[2], False))
    return steps[0]


@dataclass(frozen=True, slots=True)
class ActionChoice:
    """The computer's action and how it was decided (``tavla.v1.SuggestActionResponse``).

    :ivar action: one of the referee's legal actions.
    :ivar evaluator: which engine plays the variant (the net or the search player).
    :ivar ply: the depth of the evaluation that decided the action: the cube decision's for
        DOUBLE, a ROLL that declined to double, TAKE / DROP / BEAVER; the move's for a STEP; the
        position's for ACCEPT / REJECT a resignation. 0 where nothing was evaluated: START_GAME,
        a ROLL with no double to weigh, CONFIRM_MOVE, the answer to a beaver or raccoon.
    """

    action: Action
    evaluator: Evaluator
    ply: int


def suggest_action(state: GameState, legal: Sequence[Action], level: Level,
                   time_left: float = math.inf) -> ActionChoice:
    """The action the computer takes for the side to act in ``state``, one of ``legal`` (the
    referee's legal actions of that state): START_GAME, ROLL or DOUBLE (by the cube advice),
    TAKE / DROP / BEAVER for a double, each STEP of the move the level plays then
    CONFIRM_MOVE, ACCEPT / REJECT a resignation (accepted when the offer pays no more than
    playing on is worth). The computer never resigns and never claims a timeout.

    :raises IllegalActionError: ``WRONG_PHASE``: nothing is left to do (the match is over).
    """
    own = [a for a in legal if a.kind is not ActionKind.CLAIM_TIMEOUT]
    if not own:
        raise IllegalActionError(ActionReason.WRONG_PHASE, "no action is left for the side to act in this state "
                                 "(the match is over)")
    kinds = {a.kind for a in own}
    side = side_to_act(state)
    phase = state.phase
    evaluator = evaluator_for(state.position.variant)

    def chosen(action: Action, ply: int = 0) -> ActionChoice:
        return ActionChoice(action, evaluator, ply)

    if ActionKind.START_GAME in kinds:
        return chosen(Action(ActionKind.START_GAME))
    assert side is not None
    if phase is Phase.ROLL_OR_DOUBLE:
        if ActionKind.DOUBLE in kinds:
            advice = suggest_cube(state.position, state.ruleset, state.match, level, time_left)
            kind = ActionKind.DOUBLE if advice.cube.should_double else ActionKind.ROLL
            return chosen(Action(kind, side), advice.cube.ply)
        return chosen(Action(ActionKind.ROLL, side))
    if phase is Phase.CUBE_DECISION:
        doubler = side.other
        pending = state.match.cube.redoubles
        if pending == 0:  # a double: the doubler was on roll
            pos = state.position if state.position.on_roll is doubler else state.position.swap_turn()
            advice = suggest_cube(pos, state.ruleset, state.match, level, time_left)
            if advice.cube.should_take:
                if advice.cube.beaver and ActionKind.BEAVER in kinds:
                    return chosen(Action(ActionKind.BEAVER, side), advice.cube.ply)
                return chosen(Action(ActionKind.TAKE, side), advice.cube.ply)
            return chosen(Action(ActionKind.DROP, side), advice.cube.ply)
        return chosen(Action(ActionKind.TAKE, side) if ActionKind.TAKE in kinds else own[0])
    if phase is Phase.MOVING:
        return chosen(*_moving_action(state, side, own, level, time_left))
    if phase is Phase.RESIGNATION_DECISION and state.resignation is not None:
        offer = state.resignation
        pos = state.position if state.position.on_roll is side else state.position.swap_turn()
        prospects = evaluate_position(pos, state.ruleset, state.match, level, time_left)
        stakes = Stakes.of(state.ruleset, state.match, side)
        worth = cubeless_equity(prospects.probs, stakes) if stakes.money else prospects.cubeless_equity
        accept = _resign_points(offer.kind, stakes) >= worth - 1e-9
        kind = ActionKind.ACCEPT_RESIGNATION if accept else ActionKind.REJECT_RESIGNATION
        if kind in kinds:
            return chosen(Action(kind, side), prospects.ply)
    return chosen(own[0])


__all__ = ["ActionChoice", "CubeAdvice", "CubeDecision", "Decision", "Evaluator", "PositionEval", "RankedMove",
           "Suggestion", "effective_ply", "evaluate_moves", "evaluate_position", "evaluator_for", "suggest_action",
           "suggest_cube", "suggest_move"]
