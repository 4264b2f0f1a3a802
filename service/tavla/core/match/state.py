"""The state of a match between games and during one: score, Crawford flags, cube (R18-R21).

Immutable values that every match-play request carries whole; :func:`check_match` says whether
one is consistent with a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tavla.core.errors import InvalidInputError, RuleError
from tavla.core.rules.position import Side
from tavla.core.match.ruleset import Ruleset
from tavla.core.match.violations import ActionReason, IllegalActionError


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube (R19).

    :ivar value: 1, 2, 4, ... up to the ruleset's ``cube_limit``.
    :ivar owner: the side that may redouble; ``None`` while the cube is centred (value 1, or
        higher after automatic doubles in money play).
    :ivar offered_by: the side whose double (or beaver, or raccoon) awaits an answer; ``None``
        when none does. The value is still the value before that double.
    :ivar redoubles: what awaits the answer: 0 a double, 1 a beaver (the doubled side took and
        redoubled at once, keeping the cube), 2 a raccoon (the doubler redoubled the beaver; the
        beaver still owns the cube, as GNU Backgammon plays ``set beavers``). Money play only.
    """

    value: int = 1
    owner: Side | None = None
    offered_by: Side | None = None
    redoubles: int = 0

    @property
    def decider(self) -> Side | None:
        """The side that answers the pending double, beaver or raccoon; ``None`` when none is."""
        return None if self.offered_by is None else self.offered_by.other

    @property
    def roller(self) -> Side | None:
        """The side whose turn it is while a double is pending: the first doubler."""
        if self.offered_by is None:
            return None
        return self.offered_by if self.redoubles % 2 == 0 else self.offered_by.other


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match: length, score and Crawford flags, the cube of the game in play, who won last.

    :ivar length: points to win (R18); 0 for money play (no end, no Crawford).
    :ivar scores: (white, black) points so far.
    :ivar crawford: the game in play is the Crawford game: no cube (R21).
    :ivar post_crawford: the Crawford game has been played; the cube is back (R21).
    :ivar cube: the cube of the game in play.
    :ivar previous_winner: the winner of the last game, ``None`` before the first (R3-turkish).
    :ivar games_played: games finished so far.
    :ivar winner: the winner of the match once it is over.
    """

    length: int = 0
    scores: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    cube: Cube = field(default_factory=Cube)
    previous_winner: Side | None = None
    games_played: int = 0
    winner: Side | None = None

    def score(self, side: Side) -> int:
        """Points ``side`` has."""
        return self.scores[0 if side is Side.WHITE else 1]

    def away(self, side: Side) -> int:
        """Points ``side`` still needs in match play (R18)."""
        return self.length - self.score(side)

    @property
    def money(self) -> bool:
        """Whether this is unlimited (money) play."""
        return self.length == 0

    @property
    def over(self) -> bool:
        return self.winner is not None


def _name(side: Side) -> str:
    return side.name.lower()


_UINT32 = 2**32 - 1


def check_match(state: MatchState, rules: Ruleset, field: str = "match") -> MatchState:
    """``state`` if it is consistent with ``rules``.

    :raises InvalidInputError: a length the ruleset does not allow, a score at or past the length
        of a match that has no winner, Crawford flags that do not fit the score, or a cube that is
        not a power of two up to the limit, owned while at 1, centred while doubled, or turned
        when the ruleset or the Crawford game has no cube (R18-R21).
    """
    rules.check_length(state.length, f"{field}.length")
    # a game pays at most a backgammon at the cube limit: the new score must fit a uint32
    most = _UINT32 - 3 * rules.cube_limit
    for side in Side:
        if not 0 <= state.score(side) <= most:
            raise InvalidInputError(f"{field}.{_name(side)}_score",
                                    f"{state.score(side)} is not 0-{most}: another game would overflow it")
    if not 0 <= state.games_played < _UINT32:
        raise InvalidInputError(f"{field}.games_played", f"{state.games_played} is not 0-{_UINT32 - 1}")
    if state.winner is None and state.length:
        for side in Side:
            if state.score(side) >= state.length:
                raise InvalidInputError(
                    f"{field}.{_name(side)}_score",
                    f"{state.score(side)} reaches the match length {state.length} but the match has "
                    "no winner (R18)",
                )
    _check_crawford(state, rules, field)
    _check_cube(state, rules, f"{field}.cube")
    return state


def _check_crawford(state: MatchState, rules: Ruleset, field: str) -> None:
    # Crawford needs a side at length - 1 reached by winning: never in a 1-point match (R21).
    if state.winner is not None:
        return  # a finished match plays no more games
    leaders = [s for s in Side if state.length > 1 and state.score(s) == state.length - 1]
    score = f"{state.scores[0]}-{state.scores[1]} in a {state.length}-point match"
    if not (state.crawford or state.post_crawford):
        if rules.crawford_in_play and leaders:
            raise InvalidInputError(f"{field}.crawford",
                                    f"at {score} the game is the Crawford game or post-Crawford (R21)")
        return
    if state.crawford and state.post_crawford:
        raise InvalidInputError(f"{field}.crawford", "crawford and post_crawford cannot both be set")
    flag = f"{field}.crawford" if state.crawford else f"{field}.post_crawford"
    if not rules.crawford_in_play:
        raise InvalidInputError(flag, "the ruleset has no Crawford rule (it needs the cube and crawford on)")
    if state.crawford and len(leaders) != 1:
        raise InvalidInputError(flag, f"the Crawford game follows the game in which one side first "
                                      f"reaches match length minus one; the score is {score} (R21)")
    if state.post_crawford and not leaders:
        raise InvalidInputError(flag, f"post-Crawford needs a side at match length minus one; "
                                      f"the score is {score} (R21)")


def _check_cube(state: MatchState, rules: Ruleset, field: str) -> None:
    cube = state.cube
    value = cube.value
    if value < 1 or value & (value - 1) or value > rules.cube_limit:
        raise InvalidInputError(f"{field}.value",
                                f"{value} is not a power of two up to the cube limit {rules.cube_limit} (R19)")
    if value == 1 and cube.owner is not None:
        raise InvalidInputError(f"{field}.owner", "the cube is owned by a side at 1; a turned cube is 2 or more (R19)")
    if value > 1 and cube.owner is None and not state.money:
        # money play's automatic doubles (a tie in the roll-off) leave a centred cube above 1
        raise InvalidInputError(f"{field}.owner", f"the cube at {value} has no owner; in match play "
                                                  "it is centred exactly at 1 (R19)")
    turned = value > 1 or cube.offered_by is not None
    if turned and not rules.cube:
        raise InvalidInputError(field, "the ruleset has no doubling cube (R19)")
    if turned and state.crawford:
        raise InvalidInputError(field, "the Crawford game is played without the cube (R21)")
    if not 0 <= cube.redoubles <= 2:
        raise InvalidInputError(f"{field}.redoubles", f"{cube.redoubles} is not 0 (double), 1 (beaver) or 2 (raccoon)")
    if cube.redoubles and (cube.offered_by is None or not state.money or not rules.beavers):
        raise InvalidInputError(f"{field}.redoubles", "a beaver or raccoon needs a pending double, money "
                                                      "play and beavers on")
    if cube.redoubles:
        beaver = cube.offered_by if cube.redoubles == 1 else cube.decider
        if cube.owner is not beaver or value < 2 ** cube.redoubles:
            raise InvalidInputError(f"{field}.owner", "after a beaver the beaver owns the cube at twice the "
                                                      "value doubled or more")
        if 2 * value > rules.cube_limit:
            raise InvalidInputError(f"{field}.redoubles", f"a redouble from {value} passes the cube limit "
                                                          f"{rules.cube_limit} (R19)")
    elif cube.offered_by is not None:
        if cube.owner is not None and cube.owner is not cube.offered_by:
            raise InvalidInputError(f"{field}.offered_by",
                                    f"{_name(cube.offered_by)} doubles a cube {_name(cube.owner)} owns (R19)")
        if 2 * value > rules.cube_limit:
            raise InvalidInputError(f"{field}.offered_by",
                                    f"a double from {value} passes the cube limit {rules.cube_limit} (R19)")


def require_not_over(state: MatchState,
                     error: Callable[[ActionReason, str], RuleError] = IllegalActionError) -> None:
    """:raises IllegalActionError: ``MATCH_OVER`` when the match has a winner (or ``error``, as
        :func:`tavla.core.match.cube.apply_cube_action` raises :class:`CubeError`)."""
    if state.winner is not None:
        raise error(ActionReason.MATCH_OVER, f"the match is over: {_name(state.winner)} has won it (R18)")
