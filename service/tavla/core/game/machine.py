"""The game state machine's functions: :func:`new_match`, :func:`check_state`,
:func:`list_actions` and :func:`act`, which dispatches to one function per action.

Every rule comes from the rest of the core: the start (R3) from :mod:`tavla.core.match.start`, steps
and moves (R4-R14) from :mod:`tavla.core.rules.steps`, the cube (R19-R21) from :mod:`tavla.core.match.cube`,
resignations from :mod:`tavla.core.match.resign`, the score (R15-R21) from :mod:`tavla.core.match.score`
and :mod:`tavla.core.rules.scoring`, clocks (R23, R24) from :mod:`tavla.core.match.clock`. So the state
machine and the older single-purpose RPCs, which call the same functions, cannot disagree.

Time: in a timed match the side to act's turn runs from ``clock.turn_started_ms``; every action
passes ``now_ms``. When the turn passes to the other side, the elapsed time is charged to the
side that had it (:func:`tavla.core.match.clock.advance`, event MOVE); if that side has run out, a
legal action of its own is replaced by its forfeit, and the other side may claim it
(CLAIM_TIMEOUT). Each action kind is taken only as itself, in the phases it belongs to.

The record: the state keeps none; each :class:`Transition` carries the entries its action added
(``records``), and the caller keeps them or folds them into a digest
(:mod:`tavla.core.game.record`). Each action's turn analysis, when the next state is MOVING,
comes back as ``Transition.analysis`` so the caller lists the next actions without a second one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from tavla.core.match import clock as clk
from tavla.core.match.cube import CubeAction, CubeOptions, apply_cube_action, cube_options
from tavla.core.match.dice import roll as roll_dice
from tavla.core.errors import GameOverError, IllegalMoveError, IllegalReason, InvalidInputError
from tavla.core.match.score import update_match
from tavla.core.match.state import MatchState, check_match
from tavla.core.rules.moves import check_dice, check_not_over
from tavla.core.rules.outcome import GameEnding, GameOutcome
from tavla.core.rules.position import Position, Side
from tavla.core.match.resign import ResignationOffer, answer, check_resignable
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.scoring import ResultKind, score_game
from tavla.core.match.start import start_game as roll_off
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.steps import StepState, forget_turn, legal_steps
from tavla.core.game.state import (
    Action,
    ActionKind,
    GameState,
    Phase,
    Record,
    Timing,
    Transition,
    side_to_act,
)
from tavla.core.values import evolve, evolver
from tavla.core.match.violations import ActionReason, IllegalActionError

K = ActionKind
R = ActionReason
_CUBE = {K.DOUBLE: CubeAction.DOUBLE, K.TAKE: CubeAction.TAKE, K.DROP: CubeAction.DROP,
         K.BEAVER: CubeAction.BEAVER, K.RACCOON: CubeAction.RACCOON}
_CUBE_KIND = {cube: kind for kind, cube in _CUBE.items()}
_PLAYING = (Phase.ROLL_OR_DOUBLE, Phase.MOVING)


def _name(side: Side | None) -> str:
    return "nobody" if side is None else side.name.lower()


def new_match(ruleset: Ruleset, length: int, clock: clk.ClockSettings | None = None, *,
              match_id: str = "", now_ms: int = 0) -> GameState:
    """The state before the first game: phase START, score 0-0 (R18).

    :param length: points to win; 0 for money play.
    :param clock: the clock settings of a timed match, ``None`` for an untimed one.
    :param now_ms: the time, when timed (milliseconds since the Unix epoch).
    :raises InvalidInputError: a length the ruleset does not allow (``length``), or bad clock
        settings (``clock``), one no move can be played under among them.
    """
    ruleset.check_length(length, "length")
    ruleset = ruleset.for_length(length)  # no Jacoby or beavers in match play: the state says so
    match = check_match(MatchState(length=length), ruleset, "match")
    timing = None
    if clock is not None:
        clk.check_settings(clock, "clock")
        timing = Timing(clock, clk.initial_state(clock), now_ms)
    return GameState(ruleset=ruleset, match=match, phase=Phase.START,
                     position=Position.initial(variant=ruleset.variant_class), clock=timing, match_id=match_id)


# ---------------------------------------------------------------------------------------------
# Consistency of a state given by a caller


def _bad(field: str, reason: str) -> InvalidInputError:
    return InvalidInputError(f"state.{field}", reason)


def check_state(state: GameState) -> GameState:
    """``state`` if its parts fit together: the match with the ruleset, the phase with the cube,
    the offer, the dice and the steps (which must be legal), the clock with its settings.

    :raises InvalidInputError: the first part that does not fit (field ``state.<part>``).
    """
    return checked(state)[0]


def checked(state: GameState) -> tuple[GameState, StepState | None]:
    """:func:`check_state`, and the turn analysis it made on the way when the state is MOVING
    (``None`` otherwise), so that a caller does not make it again.

    :raises InvalidInputError: as :func:`check_state`.
    """
    analysis = None
    rules, match, phase = state.ruleset, state.match, state.phase
    variant = rules.variant_class
    if state.position.variant is not variant:  # the ruleset's variant plays the position
        state = evolve(state, position=evolve(state.position, variant=variant))
    check_match(match, rules, "state.match")
    if (phase is Phase.MATCH_OVER) != match.over:
        raise _bad("phase", f"phase {phase.value} does not fit a match "
                            f"{'won' if match.over else 'in play'}")
    pending = match.cube.offered_by is not None
    if pending != (phase is Phase.CUBE_DECISION):
        raise _bad("match.cube.offered_by", f"a pending double needs phase cube_decision, not {phase.value}")
    if pending and match.cube.roller is not state.position.on_roll:
        raise _bad("match.cube.offered_by", "the double was not offered by the side on roll")
    if (state.resignation is not None) != (phase is Phase.RESIGNATION_DECISION):
        raise _bad("resignation", f"an offer needs phase resignation_decision, not {phase.value}")
    if state.resignation is not None:
        if state.resume not in _PLAYING:
            raise _bad("resume_phase", "an offer is made while rolling or moving; play resumes there")
        if state.resignation.side is not state.position.on_roll:
            raise _bad("resignation.side", "the side on roll offers to resign")
    elif state.resume is not None:
        raise _bad("resume_phase", "is only set while an offer awaits its answer")
    moving = phase is Phase.MOVING or (phase is Phase.RESIGNATION_DECISION and state.resume is Phase.MOVING)
    if moving:
        check_dice(state.dice, "state.dice")
    elif state.dice or state.steps:
        raise _bad("dice", f"dice and steps belong to phase moving, not {phase.value}")
    if phase not in (Phase.GAME_OVER, Phase.MATCH_OVER, Phase.START):
        try:
            check_not_over(state.position)
        except GameOverError:
            raise _bad("position", "a side has won (R15: borne off all its checkers): the game is over") from None
    if moving:
        now = turn(state)
        state = evolve(state, steps=now.steps)  # every step legal; die and hit as the rules say
        if phase is Phase.MOVING:
            analysis = now
    if state.clock is not None:
        clk.check_settings(state.clock.settings, "state.clock.settings")
        clk.check_state(state.clock.state, state.clock.settings, "state.clock.state")
        if state.clock.turn_started_ms < 0:
            raise _bad("clock.turn_started_ms", "is negative")
    if state.sequence < 0:
        raise _bad("sequence", "is negative")
    return state, analysis


def turn(state: GameState, extra: CheckerMove | None = None) -> StepState:
    """Where the turn of a MOVING state stands: its steps (and ``extra``) checked one by one,
    the legal next steps, whether the move is complete (:func:`legal_steps`, R4-R14).

    :raises IllegalMoveError: a step no legal move starts with.
    :raises InvalidInputError: bad dice.
    """
    done = [CheckerMove(*s) for s in state.steps]  # a caller may give plain (from, to, die[, hit]) tuples
    if extra is not None:
        done.append(CheckerMove(*extra))
    return legal_steps(state.position, state.dice, done)


# ---------------------------------------------------------------------------------------------
# What the side to act may do


def cube_choices(state: GameState, side: Side) -> CubeOptions:
    """The cube actions ``side`` may take in ``state`` and why it may not double
    (:func:`cube_options`, R19-R21): DOUBLE for the side on roll before it rolls; TAKE, DROP,
    BEAVER, RACCOON for the side that answers a pending double."""
    return cube_options(state.match, state.ruleset, side)


@functools.cache
def _resignations(side: Side, kinds: tuple[ResultKind, ...] = tuple(ResultKind)) -> tuple[Action, ...]:
    """The RESIGN actions of ``side``: one per result kind the variant has (no backgammon in
    plakoto or fevga). Made once: values, shared by every answer."""
    return tuple(Action(K.RESIGN, side, resign_kind=kind) for kind in kinds)


@functools.lru_cache(maxsize=4096)
def _step(side: Side, step: CheckerMove) -> Action:
    """The STEP action of ``step``, made once while kept: a game's steps recur turn after turn."""
    return Action(K.STEP, side, step=step)


@functools.cache
def _plain(kind: ActionKind, side: Side | None = None) -> Action:
    """The action ``kind`` of ``side`` with no step or resignation kind, made once."""
    return Action(kind, side)


@functools.lru_cache(maxsize=1024)
def _moving(actor: Side, complete: bool, next_steps: tuple[CheckerMove, ...], stepped: bool,
            kinds: tuple[ResultKind, ...]) -> tuple[Action, ...]:
    """A MOVING turn's actions: CONFIRM_MOVE once ``complete``, each legal next STEP, UNDO once
    ``stepped``, the resignations of the variant's result ``kinds``. Kept: every click of a turn
    asks again (the values are immutable)."""
    actions = [_plain(K.CONFIRM_MOVE, actor)] if complete else []
    actions += [_step(actor, s) for s in next_steps]
    if stepped:
        actions.append(_plain(K.UNDO, actor))
    return (*actions, *_resignations(actor, kinds))


def moving_actions(state: GameState, analysis: StepState) -> tuple[Action, ...] | None:
    """:func:`list_actions` of an untimed MOVING state whose side to act is known, as one kept
    tuple (the same object for the same turn, steps and answer), or ``None`` for any other
    state (then call :func:`list_actions`).

    :param analysis: the state's :func:`turn`.
    """
    if state.phase is not Phase.MOVING or state.clock is not None:
        return None
    kept = analysis.memo.get(_ACTIONS)  # an analysis is kept per turn and steps: its actions with it
    if kept is not None and kept[0] is state.ruleset:
        return kept[1]  # type: ignore[no-any-return]
    actions = _moving(state.position.on_roll, analysis.complete, analysis.next_steps, bool(state.steps),
                      state.ruleset.variant_class.kinds)
    analysis.memo[_ACTIONS] = (state.ruleset, actions)
    return actions


_ACTIONS = "actions"  # moving_actions' key in StepState.memo: (the ruleset, the actions)


def _timed_out(state: GameState, now_ms: int | None) -> clk.ClockResult | None:
    """The clock's verdict on the side to act's turn so far; ``None`` when untimed or nobody acts."""
    if state.clock is None or now_ms is None:  # untimed: the side to act is not looked up
        return None
    actor = side_to_act(state)
    if actor is None:
        return None
    elapsed = max(0, now_ms - state.clock.turn_started_ms)
    return clk.advance(state.clock.settings, state.clock.state, actor, clk.ClockEvent.MOVE,
                       min(elapsed, clk.MAX_MS))


def list_actions(state: GameState, now_ms: int | None = None, analysis: StepState | None = None) -> list[Action]:
    """The legal actions now: the side to act's, and CLAIM_TIMEOUT for the other side once the
    side to act has run out of time at ``now_ms``.

    STEP actions are each legal next single-die step (R4-R14, via :func:`legal_steps`): a
    frontend marks where each checker may go. A checker's way over two dice is two STEPs (and
    :func:`act` refuses it as one). When the roll has no legal step, the only move action is
    CONFIRM_MOVE (the empty move, R7).

    :param analysis: the MOVING state's :func:`turn`, when the caller has it (an action's
        :attr:`Transition.analysis`); else it is made here.
    """
    actor = side_to_act(state)
    phase = state.phase
    actions: list[Action] = []
    if phase in (Phase.START, Phase.GAME_OVER):
        actions.append(_plain(K.START_GAME))
    elif phase is Phase.ROLL_OR_DOUBLE and actor is not None:
        actions.append(_plain(K.ROLL, actor))
        actions += [_plain(_CUBE_KIND[a], actor) for a in cube_choices(state, actor).actions]
        actions += _resignations(actor, state.ruleset.variant_class.kinds)
    elif phase is Phase.CUBE_DECISION and actor is not None:
        actions += [_plain(_CUBE_KIND[a], actor) for a in cube_choices(state, actor).actions]
    elif phase is Phase.MOVING and actor is not None:
        now = analysis or turn(state)
        actions += _moving(actor, now.complete, now.next_steps, bool(state.steps), state.ruleset.variant_class.kinds)
    elif phase is Phase.RESIGNATION_DECISION and actor is not None:
        actions += [_plain(K.ACCEPT_RESIGNATION, actor), _plain(K.REJECT_RESIGNATION, actor)]
    verdict = _timed_out(state, now_ms)
    if verdict is not None and verdict.forfeit is not None and actor is not None:
        actions.append(_plain(K.CLAIM_TIMEOUT, actor.other))
    return actions


# ---------------------------------------------------------------------------------------------
# Acting


def act(state: GameState, action: Action, *, dice: Iterator[int] | None = None, now_ms: int | None = None,
        roll_tag: str = "", analysis: StepState | None = None) -> Transition:
    """The state after ``action``, and what happened (with the record entries it added and, when
    the next state is MOVING, its turn analysis).

    :param dice: where START_GAME and ROLL draw their dice (:mod:`tavla.core.match.dice`).
    :param now_ms: the time of the action (milliseconds since the Unix epoch) in a timed match.
    :param roll_tag: recorded with a roll: where its dice came from.
    :param analysis: a MOVING state's :func:`turn`, when the caller has it (the answer that
        returned the state made it): a step then finds the next one kept on it.
    :raises IllegalActionError: ``WRONG_PHASE``, ``NOT_YOUR_TURN``, ``MOVE_INCOMPLETE``,
        ``NOTHING_TO_UNDO``, ``NOT_TIMED_OUT``, ``NO_CLOCK``, ``DOUBLE_PENDING``, ``MATCH_OVER``.
    :raises CubeError: a cube action not legal now (R19-R21).
    :raises IllegalMoveError: a step no legal move starts with (R4-R14), or one over two dice or
        more (``WRONG_DICE``: that is several steps).
    :raises InvalidInputError: a STEP without its step, a RESIGN without its kind, a roll with
        no dice source.
    """
    actor = side_to_act(state)
    kind = action.kind
    if kind is K.CLAIM_TIMEOUT:
        side = action.side or (actor.other if actor else None)
    elif kind is K.START_GAME:
        side = None
    else:
        side = action.side or actor
        if actor is None:
            raise IllegalActionError(R.MATCH_OVER if state.phase is Phase.MATCH_OVER else R.WRONG_PHASE,
                                     f"no side acts in phase {state.phase.value}: {kind.value} is not possible")
        if side is not actor:
            raise IllegalActionError(R.NOT_YOUR_TURN, f"{_name(side)} cannot {kind.value}: it is "
                                                      f"{_name(actor)}'s decision ({state.phase.value})")
    handler = _HANDLERS.get(kind)
    if handler is None or state.phase not in _PHASES[kind]:  # each kind only as itself
        raise IllegalActionError(R.MATCH_OVER if state.phase is Phase.MATCH_OVER else R.WRONG_PHASE,
                                 f"{kind.value} is not an action of phase {state.phase.value}")
    verdict = _timed_out(state, now_ms)
    if kind is K.CLAIM_TIMEOUT:
        if actor is None:
            raise IllegalActionError(R.WRONG_PHASE, f"no side's time runs in phase {state.phase.value}")
        if side is actor:
            raise IllegalActionError(R.NOT_YOUR_TURN, f"{_name(side)} cannot claim its own timeout")
        if verdict is None:
            raise IllegalActionError(R.NO_CLOCK, "the match is not timed")
        if verdict.forfeit is None:
            raise IllegalActionError(R.NOT_TIMED_OUT, f"{_name(actor)} has {verdict.time_left_ms} ms left "
                                                      "of its turn's time at most; not timed out (R23, R24)")
    if verdict is not None and verdict.forfeit is not None and actor is not None:
        if kind is not K.CLAIM_TIMEOUT:
            handler(state, action, dice, roll_tag, analysis)  # a late action must still be legal...
        return _forfeit(state, actor, verdict.forfeit, now_ms)  # ...and becomes the late side's forfeit
    result = handler(state, action, dice, roll_tag, analysis)
    return _finish(state, result, actor, verdict, now_ms)


def _finish(before: GameState, result: Transition, actor: Side | None, verdict: clk.ClockResult | None,
            now_ms: int | None) -> Transition:
    """Number the new state (unless its handler did: a step's) and, when the turn passed,
    charge the time it took to ``actor``."""
    after = result.state
    if after.sequence != before.sequence + 1:
        after = evolve(after, sequence=before.sequence + 1)
    timing = after.clock
    if timing is not None and now_ms is not None:
        if after.phase is Phase.START or (before.phase in (Phase.START, Phase.GAME_OVER)):
            timing = evolve(timing, turn_started_ms=now_ms)
        elif side_to_act(after) is not actor:
            charged = verdict.state if verdict is not None else timing.state
            timing = evolve(timing, state=charged, turn_started_ms=now_ms)
            elapsed = max(0, now_ms - before.clock.turn_started_ms) if before.clock else 0
            if result.records:
                result = evolve(result, records=result.records[:-1] + (
                    evolve(result.records[-1], elapsed_ms=elapsed),))
        after = evolve(after, clock=timing)
    return result if after is result.state else evolve(result, state=after)


# a turn's hottest action, a step, makes its state and its Transition with these
_with_steps: Callable[[GameState, tuple[CheckerMove, ...], int], GameState] = evolver(
    GameState, ("steps", "sequence"))
_stepped: Callable[[Transition, GameState, bool, StepState], Transition] = evolver(
    Transition, ("state", "hit", "analysis"))
_STEPPED = Transition(None)  # type: ignore[arg-type]  # what a step's Transition is made from: the defaults


def _entry(state: GameState, side: Side | None, kind: ActionKind, **fields: Any) -> tuple[Record, ...]:
    """The record entry of an action taken in ``state``, as the 1-tuple a Transition carries."""
    return (Record(state.sequence + 1, side, kind, **fields),)


def end_game(state: GameState, outcome: GameOutcome, side: Side | None = None, kind: ActionKind | None = None,
             position: Position | None = None, match: MatchState | None = None, **fields: Any) -> Transition:
    """The game is over: score it (R18, R20, R21), record it (when ``kind`` is given: the action
    that ended it), and wait for the next game. Every end of a game comes here: a move bearing
    off the last checker, a drop, an accepted resignation, a forfeit, and UpdateMatch.

    :param match: the match the game ended in, when the ending action changed it (a drop).
    :raises InvalidInputError: an outcome the match refuses (:func:`update_match`).
    :raises IllegalActionError: ``MATCH_OVER``.
    """
    ended_in = match or state.match
    update = update_match(ended_in, state.ruleset, outcome)
    over = update.state.over
    after = evolve(
        state, match=update.state, phase=Phase.MATCH_OVER if over else Phase.GAME_OVER,
        position=position or state.position, dice=(), steps=(), resignation=None, resume=None,
        outcome=outcome, outcome_points=update.points_paid,
    )
    records = () if kind is None else _entry(state, side, kind, outcome=outcome, **fields)
    return Transition(after, game_over=outcome, points=update.points_paid, ended_in=ended_in,
                      scored=update, records=records)


def _forfeit(state: GameState, loser: Side, forfeit: clk.Forfeit, now_ms: int | None) -> Transition:
    """The side to act ran out of time (R23, R24): it loses the game or the match."""
    ending = GameEnding.FORFEIT_GAME if forfeit.scope is clk.ForfeitScope.GAME else GameEnding.FORFEIT_MATCH
    result = end_game(state, GameOutcome(loser.other, ending), loser, K.CLAIM_TIMEOUT)
    after = evolve(result.state, sequence=state.sequence + 1)
    if after.clock is not None and now_ms is not None:
        after = evolve(after, clock=evolve(after.clock, turn_started_ms=now_ms))
    return evolve(result, state=after, forfeit=forfeit)


def _need_dice(dice: Iterator[int] | None) -> Iterator[int]:
    if dice is None:
        raise InvalidInputError("dice", "a roll needs a dice source")
    return dice


def start_game(state: GameState, action: Action, dice: Iterator[int] | None = None,
               tag: str = "", analysis: StepState | None = None) -> Transition:
    """Roll off and start the next game (R3): the starter plays the first dice."""
    start = roll_off(state.ruleset, state.match, _need_dice(dice))
    timing = state.clock
    if timing is not None:
        fresh = clk.advance(timing.settings, timing.state, Side.WHITE, clk.ClockEvent.NEW_GAME, 0)
        timing = evolve(timing, state=fresh.state)
    first = _larger_first(start.dice)
    entry = Record(state.sequence + 1, None, K.START_GAME, dice=first, roll_off=start.roll_off,
                   roll_tag=tag)
    after = evolve(state, phase=Phase.MOVING, position=Position.initial(start.starter, state.ruleset.variant_class),
                   dice=first,
                   steps=(), resignation=None, resume=None, clock=timing, outcome=None, outcome_points=0,
                   turn=1)
    analysis = turn(after)
    return Transition(after, rolled=first, roll_off=start.roll_off, no_legal_move=not analysis.next_steps,
                      records=(entry,), analysis=analysis)


def _larger_first(dice: tuple[int, ...]) -> tuple[int, ...]:
    """A roll as every answer gives it: larger die first (as rolls are named, R26)."""
    return tuple(sorted(dice, reverse=True))


def roll(state: GameState, action: Action, dice: Iterator[int] | None = None,
         tag: str = "", analysis: StepState | None = None) -> Transition:
    """Roll the dice (R22): the side on roll moves."""
    rolled = _larger_first(roll_dice(_need_dice(dice)))
    check_dice(rolled)
    side = state.position.on_roll
    # numbered here, so that _finish need not copy the state again
    after = evolve(state, phase=Phase.MOVING, dice=rolled, steps=(), turn=state.turn + 1, sequence=state.sequence + 1)
    analysis = turn(after)
    return Transition(after, rolled=rolled, no_legal_move=not analysis.next_steps,
                      records=_entry(state, side, K.ROLL, dice=rolled, roll_tag=tag), analysis=analysis)


def cube(state: GameState, action: Action, dice: Iterator[int] | None = None,
         tag: str = "", analysis: StepState | None = None) -> Transition:
    """DOUBLE, TAKE, DROP, BEAVER, RACCOON (R19-R21), by :func:`apply_cube_action`."""
    side = action.side or side_to_act(state)
    assert side is not None
    result = apply_cube_action(state.match, state.ruleset, side, _CUBE[action.kind])
    if result.outcome is not None:  # a drop
        return end_game(state, result.outcome, side, action.kind, match=result.state,
                        cube_value=state.match.cube.value)
    after_cube = result.state.cube
    pending = after_cube.offered_by is not None
    phase = Phase.CUBE_DECISION if pending else Phase.ROLL_OR_DOUBLE
    value = 2 * after_cube.value if pending else after_cube.value
    after = evolve(state, match=result.state, phase=phase)
    return Transition(after, records=_entry(state, side, action.kind, cube_value=value))


def step(state: GameState, action: Action, dice: Iterator[int] | None = None,
         tag: str = "", analysis: StepState | None = None) -> Transition:
    """One checker by one die (R4-R14): must start some legal move (:func:`legal_steps`). A way
    over two dice or more (13/8 with 3-2) is refused, as :func:`list_actions` never lists it:
    such a move is that many STEPs."""
    if action.step is None:
        raise InvalidInputError("action.step", "a step needs from_point and to_point")
    after = turn(state, action.step) if analysis is None else _after_step(state, action.step, analysis)
    played = after.steps[len(state.steps):]
    if len(played) > 1:
        legs = " then ".join(f"{_where(s[0])}/{_where(s[1])}" for s in played)
        raise IllegalMoveError(IllegalReason.WRONG_DICE, f"{_where(played[0][0])}/{_where(played[-1][1])} "
                                                         f"moves by {len(played)} dice; a step moves by one: "
                                                         f"{legs}")
    # numbered here, so that _finish need not copy the state again (a turn's hottest action)
    return _stepped(_STEPPED, _with_steps(state, after.steps, state.sequence + 1), after.steps[-1].hit, after)


def _after_step(state: GameState, step: CheckerMove, analysis: StepState) -> StepState:
    """``turn(state, step)``, kept on ``analysis`` (``turn(state)``): every click of a turn
    that makes this step finds it there. A step no legal move starts with raises each time."""
    key = (step[0], step[1], step[2])  # the die picks one of two bear-offs (legal_steps)
    found: StepState | None = analysis.memo.get(key)
    if found is None:
        found = analysis.memo[key] = turn(state, step)
    return found


def _where(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def undo(state: GameState, action: Action, dice: Iterator[int] | None = None,
         tag: str = "", analysis: StepState | None = None) -> Transition:
    """Take the last step back (seed 001: steps may be taken back until the dice are lifted)."""
    if not state.steps:
        raise IllegalActionError(R.NOTHING_TO_UNDO, "no step has been made this turn")
    after = evolve(state, steps=state.steps[:-1])
    return Transition(after, analysis=turn(after))


def confirm_move(state: GameState, action: Action, dice: Iterator[int] | None = None,
                 tag: str = "", analysis: StepState | None = None) -> Transition:
    """Lift the dice: the steps are a whole legal move (R7). A game ends when the last checker
    is borne off (R15-R17)."""
    now = analysis or turn(state)
    if not now.complete or now.move is None:
        raise IllegalActionError(R.MOVE_INCOMPLETE, f"the steps play {len(now.steps)} of the dice; a legal "
                                                    "move plays more (R7)")
    move = now.move
    forget_turn(state.position, state.dice)  # the turn is over: its kept tree of steps is not needed
    side = state.position.on_roll
    after_pos = move.result
    fields: dict[str, Any] = {"steps": move.steps, "notation": move.notation}
    hit = bool(move.hits)
    if after_pos.drawn:  # plakoto's two pinned mothers: nothing scored, the game is replayed
        result = end_game(state, GameOutcome(None, GameEnding.DRAW), side, K.CONFIRM_MOVE,
                          position=after_pos, **fields)
        return evolve(result, hit=hit)
    winner = after_pos.winner
    if winner is not None:
        kind = score_game(after_pos, state.ruleset).kind
        ending = GameEnding(after_pos.variant.ending(after_pos, winner))
        result = end_game(state, GameOutcome(winner, ending, kind), side,
                          K.CONFIRM_MOVE, position=after_pos, **fields)
        return evolve(result, hit=hit)
    variant = state.position.variant
    follow = (variant.next_throw(state.dice, state.turn)
              if move.dice_used == len(variant.dice_to_play(*state.dice)) else None)
    records = _entry(state, side, K.CONFIRM_MOVE, **fields)
    if follow is not None:  # the same turn goes on with the next throw (gul bara's doubles)
        on = evolve(state, phase=Phase.MOVING, position=Position(move.board_after, side, variant),
                    dice=follow, steps=())
        analysis = turn(on)
        return Transition(on, hit=hit, no_legal_move=not analysis.next_steps, records=records, analysis=analysis)
    after = evolve(state, phase=Phase.ROLL_OR_DOUBLE, position=after_pos, dice=(), steps=(),
                   sequence=state.sequence + 1)  # numbered here, as a roll is
    return Transition(after, hit=hit, records=records)


def resign(state: GameState, action: Action, dice: Iterator[int] | None = None,
           tag: str = "", analysis: StepState | None = None) -> Transition:
    """Offer to lose a game of a kind; the other side decides."""
    if action.resign_kind is None:
        raise InvalidInputError("action.resign_kind", "is required: single, gammon or backgammon")
    kinds = state.ruleset.variant_class.kinds
    if action.resign_kind not in kinds:
        raise InvalidInputError("action.resign_kind", f"{state.ruleset.variant} has no {action.resign_kind.value} "
                                                      f"(its kinds: {', '.join(k.value for k in kinds)})")
    check_resignable(state.match)
    side = state.position.on_roll
    after = evolve(state, phase=Phase.RESIGNATION_DECISION, resume=state.phase,
                   resignation=ResignationOffer(side, action.resign_kind))
    return Transition(after, records=_entry(state, side, K.RESIGN, resign_kind=action.resign_kind))


def answer_resignation(state: GameState, action: Action, dice: Iterator[int] | None = None,
                       tag: str = "", analysis: StepState | None = None) -> Transition:
    """Accept (the game ends with the offer's kind) or reject (play resumes where it was)."""
    offer = state.resignation
    assert offer is not None and state.resume is not None
    accept = action.kind is K.ACCEPT_RESIGNATION
    outcome = answer(state.match, state.ruleset, offer, accept)
    if outcome is not None:
        return end_game(state, outcome, offer.side.other, action.kind, resign_kind=offer.kind)
    after = evolve(state, phase=state.resume, resume=None, resignation=None)
    return Transition(after, records=_entry(state, offer.side.other, action.kind, resign_kind=offer.kind))


def _claim(state: GameState, action: Action, dice: Iterator[int] | None = None,
           tag: str = "", analysis: StepState | None = None) -> Transition:
    raise AssertionError("a valid claim is a forfeit, handled before dispatch")  # pragma: no cover


# (state, action, dice, roll tag, the state's turn analysis when the caller has it)
_Handler = Callable[[GameState, Action, "Iterator[int] | None", str, "StepState | None"], Transition]
_HANDLERS: dict[ActionKind, _Handler] = {
    K.START_GAME: start_game, K.ROLL: roll, K.DOUBLE: cube, K.TAKE: cube, K.DROP: cube,
    K.BEAVER: cube, K.RACCOON: cube, K.STEP: step, K.UNDO: undo, K.CONFIRM_MOVE: confirm_move,
    K.RESIGN: resign, K.ACCEPT_RESIGNATION: answer_resignation, K.REJECT_RESIGNATION: answer_resignation,
    K.CLAIM_TIMEOUT: _claim,
}
_PHASES: dict[ActionKind, tuple[Phase, ...]] = {
    K.START_GAME: (Phase.START, Phase.GAME_OVER), K.ROLL: (Phase.ROLL_OR_DOUBLE,),
    K.DOUBLE: (Phase.ROLL_OR_DOUBLE,), K.TAKE: (Phase.CUBE_DECISION,), K.DROP: (Phase.CUBE_DECISION,),
    K.BEAVER: (Phase.CUBE_DECISION,), K.RACCOON: (Phase.CUBE_DECISION,), K.STEP: (Phase.MOVING,),
    K.UNDO: (Phase.MOVING,), K.CONFIRM_MOVE: (Phase.MOVING,), K.RESIGN: _PLAYING,
    K.ACCEPT_RESIGNATION: (Phase.RESIGNATION_DECISION,), K.REJECT_RESIGNATION: (Phase.RESIGNATION_DECISION,),
    K.CLAIM_TIMEOUT: tuple(Phase),
}
