"""Bear-off figures for a frontend (R11-R17 of RULES.md), from the one-sided database.

* :func:`can_bear_off`: may a side bear off now (R11, R14)?
* :func:`bear_off_info`: checkers off, pip count and, once every checker of the side is home,
  expected rolls, EPC, wastage and the distribution of the rolls still needed.
* :func:`race_odds`: with both sides bearing off (every checker home, so no contact), each side's
  chance to finish first, gammon (mars) chances and the expected points under a ruleset.
* :func:`best_bear_off_move` / :func:`rank_bear_off_moves`: the legal moves of a side that has
  every checker home, by the expected rolls they leave.

All figures are one-sided (see :mod:`tavla.core.rules.bearoff_db`): each side plays to bear off in as
few rolls as possible on average and no checker can be hit. That is exact for the expected rolls
and the distribution. For the race it is the standard approximation (GNU Backgammon evaluates
such positions the same way): finishing first can occasionally call for another move than
finishing fast on average. The database is built (or read from its disk cache) on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from tavla.core.rules.bearoff_db import get_database, position_index
from tavla.core.errors import InvalidInputError
from tavla.core.rules.moves import Move, legal_moves
from tavla.core.rules.position import Position, Side, SideView
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.scoring import ResultKind, points_for


class BearOffUnavailableError(InvalidInputError):
    """A bear-off figure was asked for a side that still has checkers outside its home board or
    on the bar (R11), so the database does not apply. Field ``position``; an
    :class:`InvalidInputError`, so the server answers ``INVALID_ARGUMENT``."""

    def __init__(self, reason: str) -> None:
        super().__init__("position", reason)


def _all_home(view: SideView) -> bool:
    """R11: every checker not yet borne off stands on points 1-6 (none on the bar or outside)."""
    return view.bar == 0 and not any(view.points[6:])


def can_bear_off(position: Position, side: Side) -> bool:
    """Whether ``side`` may bear off checkers: all its checkers (15; the variant's count) are
    home or already off, none on the bar (R11; R14: a checker hit during the bear-off stops it
    until it is home again), and at least one is left to bear off. Independent of whose turn it
    is and of the dice."""
    view = position.side(side)
    return _all_home(view) and view.off < position.variant.checkers


def in_contact(position: Position) -> bool:
    """Whether the sides' checkers can still meet (a hit or a block is possible).

    A side moves from its point 24 to 1 and the other side the opposite way, so contact lasts
    while some checker of the side on roll (the bar counting as its point 25) stands higher, in
    its numbering, than some checker of the other side (the other side's bar counting as 0).
    """
    b = position.board
    mine = [p for p in range(1, 26) if b[p] > 0]
    theirs = [p for p in range(0, 25) if b[p] < 0]
    return bool(mine and theirs) and max(mine) > min(theirs)


@dataclass(frozen=True, slots=True)
class BearOffInfo:
    """Bear-off figures of one side.

    :ivar side: the side described.
    :ivar checkers_off: checkers it has borne off.
    :ivar pip_count: its pip count (a bar checker counts 25).
    :ivar all_home: every checker not yet off is on points 1-6 and none is on the bar (R11).
    :ivar can_bear_off: ``all_home`` and at least one checker left (see :func:`can_bear_off`).
    :ivar contact: the other side can still hit or block (:func:`in_contact`); the figures below
        then assume it will not.
    :ivar expected_rolls: mean number of rolls to bear off the rest, playing to minimise it;
        ``None`` unless ``all_home``.
    :ivar epc: effective pip count, ``expected_rolls`` x 49/6; ``None`` unless ``all_home``.
    :ivar wastage: ``epc - pip_count``, the pips the bear-off is expected to waste.
    :ivar distribution: ``distribution[n]`` = P(exactly ``n`` rolls still needed), n = 0, 1, ...;
        ``None`` unless ``all_home``.
    """

    side: Side
    checkers_off: int
    pip_count: int
    all_home: bool
    can_bear_off: bool
    contact: bool
    expected_rolls: float | None
    epc: float | None
    wastage: float | None
    distribution: tuple[float, ...] | None


def bear_off_info(position: Position, side: Side) -> BearOffInfo:
    """Bear-off figures of ``side`` in ``position`` (R11-R14). Any position is accepted; the
    database figures are filled in only when every checker of ``side`` is home."""
    view = position.side(side)
    home = _all_home(view)
    expected = epc = wastage = dist = None
    checkers = position.variant.checkers
    if home:
        db = get_database(checkers=checkers)
        idx = position_index(view.points[:6], checkers)
        expected = db.mean_rolls(idx)
        epc = db.epc(idx)
        wastage = epc - view.pip_count
        dist = db.distribution(idx)
    return BearOffInfo(
        side=side,
        checkers_off=view.off,
        pip_count=view.pip_count,
        all_home=home,
        can_bear_off=home and view.off < checkers,
        contact=in_contact(position),
        expected_rolls=expected,
        epc=epc,
        wastage=wastage,
        distribution=dist,
    )


@dataclass(frozen=True, slots=True)
class RaceOdds:
    """Chances of a no-contact bear-off race, for the side on roll (cube at 1, no doubling).

    :ivar on_roll: the side on roll, who rolls first.
    :ivar win: P(the side on roll bears off all 15 first).
    :ivar win_gammon: P(it wins and the other side has borne off none: mars, R15); part of ``win``.
    :ivar lose_gammon: P(the other side wins a gammon); part of ``1 - win``.
    :ivar win_backgammon, lose_backgammon: always 0.0: with every checker of both sides in its own
        home board the loser can have none on the bar or in the winner's home board (R16), so
        katmerli mars is impossible, whatever the ruleset's ``katmerli_mars`` option (R17).
    :ivar expected_points: points the side on roll wins on average, losses counted negative:
        ``(win - win_gammon) * 1 + win_gammon * 2 - (lose - lose_gammon) * 1 - lose_gammon * 2``
        with the points of :func:`tavla.core.rules.scoring.points_for` for ``ruleset``. With no
        backgammon possible it is the same under COUNTED and AS_MARS. Multiply by the cube (R20).
    :ivar ruleset: the ruleset the points were counted by.
    """

    on_roll: Side
    win: float
    win_gammon: float
    lose_gammon: float
    expected_points: float
    ruleset: Ruleset
    win_backgammon: float = 0.0
    lose_backgammon: float = 0.0

    @property
    def lose(self) -> float:
        """P(the other side bears off all 15 first)."""
        return 1.0 - self.win

    def win_probability(self, side: Side) -> float:
        """P(``side`` bears off all 15 first)."""
        return self.win if side is self.on_roll else self.lose

    def gammon_probability(self, side: Side) -> float:
        """P(``side`` wins a gammon)."""
        return self.win_gammon if side is self.on_roll else self.lose_gammon


def _at_least(k0: int, tail: list[float], k: int) -> float:
    """P(T >= k) from ``(k0, tail)`` of :meth:`BearoffDatabase.survival`."""
    if k <= k0:
        return 1.0
    j = k - k0
    return tail[j] if j < len(tail) else 0.0


def race_odds(position: Position, ruleset: Ruleset | None = None) -> RaceOdds:
    """Odds of the race when both sides have every checker home (so no contact), side on roll
    first. ``ruleset`` defaults to the international rules.

    With ``T`` a side's rolls to bear off everything and ``G`` its rolls to bear off its first
    checker (both from the database, independent between the sides), ``A`` on roll, ``B`` not:

    * ``P(A wins) = sum_k P(T_A = k) P(T_B >= k)``: ``A``'s k-th roll comes before ``B``'s.
    * ``P(A wins a gammon) = sum_k P(T_A = k) P(G_B >= k)``: ``B`` has borne off nothing in its
      ``k - 1`` rolls; ``P(B wins a gammon) = sum_k P(T_B = k) P(G_A >= k + 1)``.

    Each side's ``T`` is taken under the play that minimises its expected rolls and its ``G``
    under the play that minimises the rolls to its first checker off, each exact. A real loser
    plays one way; the gammon figures are therefore the usual one-sided approximation (what GNU
    Backgammon's bear-off evaluation does too). ``G`` is 0 for a side with a checker off, so it
    cannot lose a gammon. A finished position (one side with all 15 off) gives its certain result.

    :raises BearOffUnavailableError: a side has a checker on the bar or outside its home board.
    """
    ruleset = ruleset or Ruleset()
    a, b = position.on_roll, position.on_roll.other
    checkers = position.variant.checkers
    idx = {}
    for side in (a, b):
        view = position.side(side)
        if not _all_home(view):
            raise BearOffUnavailableError(
                f"race odds need every checker of both sides home; {side.name.lower()} still has "
                f"{view.bar + sum(view.points[6:])} on the bar or outside its home board (R11)"
            )
        idx[side] = position_index(view.points[:6], checkers)
    db = get_database(checkers=checkers)
    dist_a, dist_b = db.distribution(idx[a]), db.distribution(idx[b])
    surv_b, first_b = db.survival(idx[b]), db.first_off_survival(idx[b])
    first_a = db.first_off_survival(idx[a])
    win = win_gammon = lose_gammon = 0.0
    for k, p in enumerate(dist_a):
        if p:
            win += p * _at_least(*surv_b, k)
            win_gammon += p * _at_least(*first_b, k)
    for k, p in enumerate(dist_b):
        if p:
            lose_gammon += p * _at_least(*first_a, k + 1)
    win = min(win, 1.0)
    lose = 1.0 - win
    win_gammon = min(win_gammon, win)
    lose_gammon = min(lose_gammon, lose)
    single = points_for(ResultKind.SINGLE, ruleset)
    gammon = points_for(ResultKind.GAMMON, ruleset)
    expected = ((win - win_gammon) * single + win_gammon * gammon
                - (lose - lose_gammon) * single - lose_gammon * gammon)
    return RaceOdds(a, win, win_gammon, lose_gammon, expected, ruleset)


def rank_bear_off_moves(position: Position, dice: Sequence[int]) -> list[tuple[Move, float]]:
    """Every legal move (:func:`tavla.core.rules.moves.legal_moves`) with the expected rolls the side on
    roll still needs after it, best first. Equal expectations keep the order of ``legal_moves``
    after the lower database index (the tie rule of the database itself).

    With contact (an opposing checker on the bar or in the home board) hitting risk is ignored.

    :raises BearOffUnavailableError: the side on roll has a checker on the bar or outside home.
    :raises InvalidInputError: bad dice.
    """
    view = position.side(position.on_roll)
    if not _all_home(view):
        raise BearOffUnavailableError(
            f"{position.on_roll.name.lower()} is not bearing off: "
            f"{view.bar + sum(view.points[6:])} checker(s) on the bar or outside home (R11)"
        )
    checkers = position.variant.checkers
    db = get_database(checkers=checkers)
    scored = []
    for order, move in enumerate(legal_moves(position, dice)):
        after = move.board_after
        i = position_index([after[p] if after[p] > 0 else 0 for p in range(1, 7)], checkers)
        scored.append((db.mean_rolls(i), i, order, move))
    scored.sort(key=lambda t: t[:3])
    return [(move, mean) for mean, _, _, move in scored]


def best_bear_off_move(position: Position, dice: Sequence[int]) -> Move:
    """The legal move that leaves the fewest expected rolls (see :func:`rank_bear_off_moves`).

    Defined when the side on roll has every checker home (R11); when no die can be played it is
    the empty move. Use :func:`can_bear_off` first to avoid the exception.

    :raises BearOffUnavailableError: the side on roll has a checker on the bar or outside home.
    :raises InvalidInputError: bad dice.
    """
    return rank_bear_off_moves(position, dice)[0][0]


__all__ = [
    "BearOffInfo", "BearOffUnavailableError", "RaceOdds", "bear_off_info",
    "best_bear_off_move", "can_bear_off", "in_contact", "race_odds", "rank_bear_off_moves",
]
