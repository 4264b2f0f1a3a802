"""What a game's chances are worth under our rules (docs/analysis.md#equity).

An evaluation gives five probabilities for one side (:class:`Probabilities`, each "or better", as
GNU Backgammon and bgsage give them). What they are worth depends on the rules and the match:

* **money play**: points per game, a single 1, a gammon (mars) 2, a backgammon (katmerli mars)
  3, or 2 under ``KATMERLI_MARS_RULE_AS_MARS`` (R16, R17); under the Jacoby rule with a centred
  cube gammons and backgammons pay 1;
* **match play without a cube** (Turkish tavla: no cube, katmerli mars 2): the match winning
  chance after the game's possible outcomes, from a no-cube match equity table
  (:func:`no_cube_met`), reported as ``2 * MWC - 1`` so that it is on the money scale of a game
  (+1 a sure match, -1 a lost one).

With a cube in play and the international scoring, the engine's own cubeful equity (Janowski,
match equity tables, Crawford) is used instead (:mod:`tavla.analysis.engine`): that is what
bgsage is built for.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from tavla.core.errors import InvalidInputError
from tavla.core.match.ruleset import MAX_MATCH_LENGTH, KatmerliMarsRule, Ruleset
from tavla.core.match.state import MatchState
from tavla.core.rules.position import Side


@dataclass(frozen=True, slots=True)
class Probabilities:
    """One side's chances; each "or better" (a backgammon is also a gammon and a win).

    :ivar win: any win.
    :ivar win_gammon: a gammon (mars) or backgammon win.
    :ivar win_backgammon: a backgammon (katmerli mars) win.
    :ivar lose_gammon: a gammon or backgammon loss.
    :ivar lose_backgammon: a backgammon loss.
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def inverted(self) -> Probabilities:
        """The other side's chances."""
        return Probabilities(1.0 - self.win, self.lose_gammon, self.lose_backgammon, self.win_gammon,
                             self.win_backgammon)


@dataclass(frozen=True, slots=True)
class Stakes:
    """The match context of one side's decision, from that side's view.

    :ivar away: points the side still needs (0 in money play).
    :ivar opponent_away: points the opponent still needs (0 in money play).
    :ivar cube_value: the cube's value (1 when there is no cube).
    :ivar cube_owner: ``"centered"``, ``"player"`` (this side) or ``"opponent"``, bgsage's names.
    :ivar crawford: this is the Crawford game (R21).
    :ivar cube: the cube is in play in this game (ruleset and not the Crawford game).
    :ivar jacoby: money play under the Jacoby rule.
    :ivar beavers: money play with beavers.
    :ivar backgammon_points: what a backgammon pays before the cube: 3, or 2 as mars (R17).
    :ivar cube_limit: the highest cube value (R19).
    """

    away: int = 0
    opponent_away: int = 0
    cube_value: int = 1
    cube_owner: str = "centered"
    crawford: bool = False
    cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    backgammon_points: int = 3
    cube_limit: int = 64

    @property
    def money(self) -> bool:
        return self.away == 0 and self.opponent_away == 0

    @classmethod
    def of(cls, rules: Ruleset, match: MatchState, side: Side) -> Stakes:
        """The stakes of ``side`` in ``match`` under ``rules`` (R16-R21).

        :raises InvalidInputError: a match longer than :data:`MAX_MATCH_LENGTH` (``match.length``).
        """
        check_length(match.length)
        cube = match.cube
        owner = "centered" if cube.owner is None else ("player" if cube.owner is side else "opponent")
        money = match.length == 0
        return cls(
            away=0 if money else match.away(side),
            opponent_away=0 if money else match.away(side.other),
            cube_value=max(1, cube.value),
            cube_owner=owner,
            crawford=match.crawford,
            cube=rules.cube and not match.crawford,
            jacoby=money and rules.jacoby,
            beavers=money and rules.beavers,
            backgammon_points=2 if rules.katmerli_mars is KatmerliMarsRule.AS_MARS else 3,
            cube_limit=rules.cube_limit,
        )

    def flipped(self) -> Stakes:
        """The same stakes from the opponent's view."""
        owner = {"centered": "centered", "player": "opponent", "opponent": "player"}[self.cube_owner]
        return Stakes(self.opponent_away, self.away, self.cube_value, owner, self.crawford, self.cube,
                      self.jacoby, self.beavers, self.backgammon_points, self.cube_limit)


def points_per_game(p: Probabilities, stakes: Stakes) -> float:
    """Money equity of ``p`` in points per game per unit of the cube (normalized, as gnubg and
    bgsage report it; cubeless): single 1, gammon
    2, backgammon ``stakes.backgammon_points``; gammons pay 1 under the Jacoby rule with a centred
    cube."""
    gammon = 0.0 if stakes.jacoby and stakes.cube and stakes.cube_owner == "centered" else 1.0
    bg = (stakes.backgammon_points - 2) * gammon
    won = p.win + gammon * p.win_gammon + bg * p.win_backgammon
    lost = (1.0 - p.win) + gammon * p.lose_gammon + bg * p.lose_backgammon
    return won - lost


#: A neutral game's outcomes for the no-cube table: the share of singles, gammons and
#: backgammons among one side's wins (tavla and backgammon without a cube end about a quarter
#: of their games with a mars; measured by bench/bench_analysis.py's self-play at 1-ply).
GAMMON_SHARE = 0.26
BACKGAMMON_SHARE = 0.015


# The longest match the analysis takes is the rules' (MAX_MATCH_LENGTH, 64): bgsage's native
# match equity code never returns for a side more than 2^30 away, and our own table grows with
# the square of the length, so a longer match is refused before either is asked.


def check_length(length: int, field: str = "match.length") -> None:
    """:raises InvalidInputError: ``length`` is beyond :data:`MAX_MATCH_LENGTH` (field ``field``)."""
    if length > MAX_MATCH_LENGTH:
        raise InvalidInputError(field, f"is {length}; the analysis takes matches of at most "
                                f"{MAX_MATCH_LENGTH} points")


def _met_table(size: int, backgammon_points: int) -> list[list[float]]:
    """``table[a][b]``: :func:`no_cube_met` for every ``a, b <= size``, filled bottom-up (a loop,
    not a recursion: any length fits the stack)."""
    single = 1.0 - GAMMON_SHARE - BACKGAMMON_SHARE
    outcomes = ((single, 1), (GAMMON_SHARE, 2), (BACKGAMMON_SHARE, backgammon_points))
    table = [[1.0] * (size + 1)] + [[0.0] * (size + 1) for _ in range(size)]
    for a in range(1, size + 1):
        row = table[a]
        for b in range(1, size + 1):
            total = 0.0
            for share, points in outcomes:
                total += 0.5 * share * (table[max(0, a - points)][b] + row[max(0, b - points)])
            row[b] = total
    return table


@functools.lru_cache(maxsize=4)
def _bounded_table(backgammon_points: int) -> list[list[float]]:
    return _met_table(MAX_MATCH_LENGTH, backgammon_points)


def _check_away(away: int, opponent_away: int) -> None:
    if away < 0 or opponent_away < 0:
        raise ValueError("points away cannot be negative")


def no_cube_met(away: int, opponent_away: int, backgammon_points: int = 3) -> float:
    """The chance of winning a match without a cube needing ``away`` points against
    ``opponent_away``, both sides equal (each game a coin flip whose wins are singles, gammons and
    backgammons in the :data:`GAMMON_SHARE` proportions).

    :raises ValueError: a negative length.
    :raises InvalidInputError: a side more than :data:`MAX_MATCH_LENGTH` away (``match.length``).
    """
    _check_away(away, opponent_away)
    check_length(max(away, opponent_away))
    return _bounded_table(backgammon_points)[away][opponent_away]


def no_cube_met_unbounded(away: int, opponent_away: int, backgammon_points: int = 3) -> float:
    """:func:`no_cube_met` past :data:`MAX_MATCH_LENGTH` (time and memory grow with the square of
    the larger; not cached): for studies, never for a request."""
    _check_away(away, opponent_away)
    return _met_table(max(away, opponent_away), backgammon_points)[away][opponent_away]


def match_equity(p: Probabilities, stakes: Stakes) -> float:
    """Cubeless match equity of ``p``: ``2 * MWC - 1`` after the game's outcomes at the current
    cube, from :func:`no_cube_met` (match play only)."""
    a, b, c, bgp = stakes.away, stakes.opponent_away, stakes.cube_value, stakes.backgammon_points

    def met(x: int, y: int) -> float:
        return no_cube_met(max(0, x), max(0, y), bgp)

    single_win = p.win - p.win_gammon
    gammon_win = p.win_gammon - p.win_backgammon
    single_loss = (1.0 - p.win) - p.lose_gammon
    gammon_loss = p.lose_gammon - p.lose_backgammon
    mwc = (single_win * met(a - c, b) + gammon_win * met(a - 2 * c, b) + p.win_backgammon * met(a - bgp * c, b)
           + single_loss * met(a, b - c) + gammon_loss * met(a, b - 2 * c) + p.lose_backgammon * met(a, b - bgp * c))
    return 2.0 * mwc - 1.0


def cubeless_equity(p: Probabilities, stakes: Stakes) -> float:
    """What ``p`` is worth without the cube's value of owning it: :func:`points_per_game` in money
    play, :func:`match_equity` in match play."""
    return points_per_game(p, stakes) if stakes.money else match_equity(p, stakes)
