"""The doubling cube (R19-R21): which actions are legal, and what each does.

Before rolling, the side on roll may double when the cube is centred or its own (R19), the cube
is below its limit (64 unless the ruleset says otherwise), the game is not the Crawford game
(R21), and in match play the cube is not dead: a side that already wins the match by winning
this game at the current value gains nothing by doubling. The doubled side takes (the cube
doubles and is its own), drops (the doubler wins the current value at once), or, with beavers in
money play, beavers (takes and redoubles at once, keeping the cube); the doubler then takes,
drops (paying twice the stake) or raccoons (redoubles again; the beaver keeps the cube), as
GNU Backgammon plays ``set beavers``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from tavla.core.match.state import Cube, MatchState, require_not_over
from tavla.core.rules.outcome import GameEnding, GameOutcome
from tavla.core.rules.position import Side
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.scoring import ResultKind
from tavla.core.match.violations import ActionReason, CubeError

R = ActionReason


class CubeAction(enum.Enum):
    """A cube action."""

    __hash__ = object.__hash__  # members are singletons: the C hash, not Enum's hash of the name

    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"


@dataclass(frozen=True, slots=True)
class CubeOptions:
    """The cube actions open to a side, and why it may not double when it may not.

    :ivar actions: the legal actions, in :class:`CubeAction` order.
    :ivar denial: why DOUBLE is not among them; ``None`` when it is.
    """

    actions: tuple[CubeAction, ...]
    denial: ActionReason | None


@dataclass(frozen=True, slots=True)
class CubeResult:
    """The match after a cube action; ``outcome`` is set when a drop ended the game."""

    state: MatchState
    outcome: GameOutcome | None = None


def _name(side: Side) -> str:
    return side.name.lower()


def double_denial(state: MatchState, rules: Ruleset, side: Side) -> tuple[ActionReason, str] | None:
    """Why ``side``, on roll before rolling, may not double now; ``None`` if it may."""
    cube = state.cube
    if state.over:
        return R.MATCH_OVER, "the match is over (R18)"
    if not rules.cube:
        variant = rules.variant_class
        if not variant.cube:
            return R.CUBE_DISABLED, f"{variant.title} ({variant.name}) is played without a doubling cube"
        return R.CUBE_DISABLED, "the ruleset has no doubling cube (R19)"
    if cube.offered_by is not None:
        return R.DOUBLE_PENDING, f"{_name(cube.offered_by)}'s double to {2 * cube.value} awaits an answer"
    if state.crawford:
        return R.CRAWFORD_GAME, "the Crawford game is played without the cube (R21)"
    if cube.owner is not None and cube.owner is not side:
        return R.CUBE_OWNED_BY_OPPONENT, f"{_name(cube.owner)} owns the cube at {cube.value} (R19)"
    if 2 * cube.value > rules.cube_limit:
        return R.CUBE_AT_LIMIT, f"the cube is at {cube.value}, its limit is {rules.cube_limit} (R19)"
    if not state.money and cube.value >= state.away(side):
        why = (f"{_name(side)} needs {state.away(side)} and a single win at {cube.value} already "
               "wins the match: the cube is dead")
        return R.DEAD_CUBE, why
    return None


def beaver_allowed(state: MatchState, rules: Ruleset) -> bool:
    """Whether a pending double may be beavered: beavers on, money play, within the limit."""
    return (rules.beavers and state.money and state.cube.redoubles == 0
            and 4 * state.cube.value <= rules.cube_limit)


def raccoon_allowed(state: MatchState, rules: Ruleset) -> bool:
    """Whether a pending beaver may be raccooned: the doubler redoubles it at once (money play,
    beavers on, within the limit)."""
    return (rules.beavers and state.money and state.cube.redoubles == 1
            and 4 * state.cube.value <= rules.cube_limit)


def cube_options(state: MatchState, rules: Ruleset, side: Side) -> CubeOptions:
    """The cube actions ``side`` may take now.

    With no double pending, ``side`` is the side on roll before it rolls and may only double.
    With one pending, the side that answers (:attr:`Cube.decider`) may take, drop, and with
    beavers in money play beaver a double or raccoon a beaver; the other side waits.
    """
    denial = double_denial(state, rules, side)
    reason = denial[0] if denial else None
    decider = state.cube.decider
    if state.over or decider is None or decider is not side:
        return CubeOptions((CubeAction.DOUBLE,) if denial is None else (), reason)
    answers = [CubeAction.TAKE, CubeAction.DROP]
    if beaver_allowed(state, rules):
        answers.append(CubeAction.BEAVER)
    if raccoon_allowed(state, rules):
        answers.append(CubeAction.RACCOON)
    return CubeOptions(tuple(answers), reason)


def apply_cube_action(state: MatchState, rules: Ruleset, side: Side, action: CubeAction) -> CubeResult:
    """The match after ``side`` takes ``action``.

    DOUBLE leaves the double pending (``cube.offered_by``). TAKE doubles the value; the cube
    goes to the side not on roll (the taker of a double, the beaver after a beaver or raccoon).
    DROP ends the game, the side that offered winning the value before its offer (a dropped
    beaver pays twice the original stake). BEAVER (money play with beavers): the doubled side
    takes and redoubles at once, owning the cube at twice the value; the doubler answers.
    RACCOON: the doubler redoubles the beaver at once; the beaver still owns the cube and
    answers (GNU Backgammon's ``set beavers``).

    :raises CubeError: the action is not legal now (reason per :class:`ActionReason`).
    """
    require_not_over(state, CubeError)
    cube = state.cube
    if action is CubeAction.DOUBLE:
        denial = double_denial(state, rules, side)
        if denial is not None:
            raise CubeError(denial[0], f"{_name(side)} may not double: {denial[1]}")
        return CubeResult(replace(state, cube=replace(cube, offered_by=side, redoubles=0)))
    offerer, roller = cube.offered_by, cube.roller
    if offerer is None or roller is None:
        raise CubeError(R.NO_DOUBLE_PENDING, f"{_name(side)} cannot {action.value}: no double is pending")
    if offerer is side:
        raise CubeError(R.NOT_YOUR_DECISION,
                        f"{_name(side)} offered; {_name(side.other)} answers (R19)")
    if action is CubeAction.TAKE:
        return CubeResult(replace(state, cube=Cube(2 * cube.value, roller.other)))
    if action is CubeAction.DROP:
        dropped = replace(state, cube=replace(cube, offered_by=None, redoubles=0))
        return CubeResult(dropped, GameOutcome(offerer, GameEnding.DROP, ResultKind.SINGLE))
    if action is CubeAction.BEAVER:
        if not beaver_allowed(state, rules):
            why = ("beavers are off" if not rules.beavers else "beavers are for money play only"
                   if not state.money else "only a double can be beavered" if cube.redoubles
                   else f"a beaver to {4 * cube.value} passes the limit {rules.cube_limit}")
            raise CubeError(R.BEAVER_NOT_ALLOWED, f"{_name(side)} may not beaver: {why}")
        return CubeResult(replace(state, cube=Cube(2 * cube.value, side, side, 1)))
    if not raccoon_allowed(state, rules):
        why = ("there is no beaver to raccoon" if cube.redoubles != 1 or not rules.beavers or not state.money
               else f"a raccoon to {4 * cube.value} passes the limit {rules.cube_limit}")
        raise CubeError(R.RACCOON_NOT_ALLOWED, f"{_name(side)} may not raccoon: {why}")
    return CubeResult(replace(state, cube=Cube(2 * cube.value, roller.other, side, 2)))
