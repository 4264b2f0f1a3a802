"""A whole match reviewed (docs/analysis.md#match-review): each checker play's and cube
decision's error against the best, and each side's error rate and performance rating.

The record is walked game by game with the rules core (player 1 of a ``.mat`` is white), the
match state kept alongside (score from each game's header line, Crawford from the length, the
cube from the doubles and takes). At each roll the roller's cube decision is judged first (it
rolled: a no-double), then its play; each ``Doubles`` and its answer are judged as they come.

**Errors** are in equity per unit of the cube, the engine's (:mod:`tavla.analysis.engine`):
a play's error is the best move's equity minus the played one's; a double's, the better of
doubling (the opponent's best answer) and not doubling minus what was done; a take's or a drop's,
the same from the taker's side.

**Figures** per side, as the programs that players compare report them:

* *error rate*: GNU Backgammon's "error rate (mEMG)", thousandths of equity given up per
  decision (:data:`per decision` below);
* *performance rating*: eXtreme Gammon's PR, 500 x the equity given up per decision.

A decision counts when it was a choice: a play with more than one legal move; every double
and every answer; a no-double when doubling was right or within :data:`CLOSE_CUBE` of it (a
no-double far from doubling is not a decision, as XG counts them).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tavla.analysis import player
from tavla.analysis.engine import CubeEval
from tavla.analysis.levels import Level
from tavla.core.errors import InvalidInputError, TavlaError
from tavla.core.ids import position_id
from tavla.core.match.cube import CubeAction, cube_options
from tavla.core.match.ruleset import Ruleset, preset
from tavla.core.match.state import Cube, MatchState
from tavla.core.rules import notation
from tavla.core.rules.legality import resolve
from tavla.core.rules.position import Position, Side
from tavla.formats.matreader import Double, Drop, Match, MatParseError, Roll, Take, parse_match
from tavla.formats.sgfreader import parse_sgf
from tavla.formats.match_rules import FORFEIT_PLAY, MatchRules

#: A no-double within this much equity of the right double counts as a cube decision.
CLOSE_CUBE = 0.10
_SIDES = {1: Side.WHITE, 2: Side.BLACK}


class DecisionKind(enum.Enum):
    """What a reviewed decision was (``tavla.v1.DecisionKind``)."""

    MOVE = "move"
    DOUBLE = "double"
    TAKE = "take"


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision: where, who, what was played and what was best, and the error."""

    game: int
    move_number: int
    side: Side
    kind: DecisionKind
    position_id: str
    dice: tuple[int, ...]
    played: str
    best: str
    error: float


@dataclass(slots=True)
class PlayerSummary:
    """One side's figures (module docstring)."""

    side: Side
    name: str
    moves: int = 0
    cube_decisions: int = 0
    move_error: float = 0.0
    cube_error: float = 0.0

    @property
    def total_error(self) -> float:
        return self.move_error + self.cube_error

    @property
    def error_rate(self) -> float:
        """Thousandths of equity given up per decision (gnubg's mEMG per decision)."""
        n = self.moves + self.cube_decisions
        return 1000.0 * self.total_error / n if n else 0.0

    @property
    def performance_rating(self) -> float:
        """XG's PR: 500 x equity given up per decision."""
        return self.error_rate / 2.0

    @property
    def move_error_rate(self) -> float:
        return 1000.0 * self.move_error / self.moves if self.moves else 0.0

    @property
    def cube_error_rate(self) -> float:
        return 1000.0 * self.cube_error / self.cube_decisions if self.cube_decisions else 0.0


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a review has come (``tavla.v1.AnalyzeMatchProgress``): the record's decisions
    judged so far (each play with its cube decision, double, take and drop, forced or clear
    ones included) of all it judges, and the game of the last one (from 1) of all games."""

    decisions_done: int
    decisions_total: int
    game: int
    games: int


@dataclass(slots=True)
class Review:
    """A reviewed match."""

    players: tuple[PlayerSummary, PlayerSummary]
    decisions: list[Decision] = field(default_factory=list)
    games: int = 0
    evaluator: player.Evaluator = player.Evaluator.NEURAL_NET
    ply: int = 1


def default_rules(match: Match) -> Ruleset:
    """The international rules with the record's ``Crawford`` and ``CubeLimit`` headers."""
    r = MatchRules.of(match)
    return replace(preset("international"), cube_limit=r.cube_limit, crawford=r.crawford)


def analyze_mat(text: str, level: Level = Level.ADVANCED, *, rules: Ruleset | None = None,
                check: Callable[[], None] | None = None, time_left: Callable[[], float] | None = None,
                progress: Callable[[Progress], None] | None = None, source: str = "mat") -> Review:
    """:func:`analyze_match` of the text of a ``.mat`` record.

    :raises InvalidInputError: the text is not a ``.mat`` record (field ``mat``: the line and why).
    """
    try:
        match = parse_match(text, source)
    except MatParseError as exc:
        raise InvalidInputError("mat", f"line {exc.line}: {exc.reason}") from None
    return analyze_match(match, level, rules=rules, check=check, time_left=time_left, progress=progress)


def analyze_sgf(data: bytes | str, level: Level = Level.ADVANCED, *, rules: Ruleset | None = None,
                check: Callable[[], None] | None = None, time_left: Callable[[], float] | None = None,
                progress: Callable[[Progress], None] | None = None, source: str = "sgf") -> Review:
    """:func:`analyze_match` of a GNU Backgammon ``.sgf`` record (one match).

    :raises InvalidInputError: not an ``.sgf`` match record (field ``sgf``: the game and why).
    """
    try:
        match = parse_sgf(data, source)
    except MatParseError as exc:
        raise InvalidInputError("sgf", exc.reason) from None
    return analyze_match(match, level, rules=rules, check=check, time_left=time_left, progress=progress,
                         field_name="sgf")


def _reviewed(match: Match) -> list[int]:
    """The decisions judged in each game the review walks (the games before the match's end)."""
    counts = []
    for game in match.games:
        if match.length and max(int(game.score[0]), int(game.score[1])) >= match.length:
            break
        counts.append(sum(1 for a in game.actions if isinstance(a, Roll | Double | Take | Drop)))
    return counts


def _cube_ok(match: MatchState, rules: Ruleset, side: Side) -> bool:
    return CubeAction.DOUBLE in cube_options(match, rules, side).actions


def analyze_match(match: Match, level: Level = Level.ADVANCED, *, rules: Ruleset | None = None,
                  check: Callable[[], None] | None = None, time_left: Callable[[], float] | None = None,
                  progress: Callable[[Progress], None] | None = None, field_name: str = "mat") -> Review:
    """Review every game of ``match`` at ``level`` (module docstring).

    :param check: called between decisions (a deadline check that raises to stop).
    :param time_left: seconds the caller has left (the level's deeper search is skipped when short).
    :param progress: called with a :class:`Progress` after each decision judged, in order; the
        last says every decision is done (a game the record ends early jumps to its end).
    :param field_name: the request field named by errors (``mat`` or ``sgf``).
    :raises InvalidInputError: a play the rules refuse (field ``field_name``: the game, the line, why).
    """
    rules = rules or default_rules(match)
    names = match.players
    review = Review((PlayerSummary(Side.WHITE, names[0]), PlayerSummary(Side.BLACK, names[1])))
    by_side = {Side.WHITE: review.players[0], Side.BLACK: review.players[1]}
    left = time_left or (lambda: math.inf)
    length = match.length
    crawford_done = False
    per_game = _reviewed(match)
    total, done, told = sum(per_game), 0, 0

    def tell(upto: int, game_number: int) -> None:
        nonlocal told
        if progress is not None and upto > told:
            told = upto
            progress(Progress(upto, total, game_number, len(per_game)))

    for gi, game in enumerate(match.games):
        scores = (int(game.score[0]), int(game.score[1]))
        crawford = False
        if length and rules.crawford and not crawford_done and max(scores) == length - 1:
            crawford, crawford_done = True, True
        state = MatchState(length=length, scores=scores, crawford=crawford,
                           post_crawford=crawford_done and not crawford and bool(length))
        if length and max(scores) >= length:
            break
        position: Position | None = None
        pending: CubeEval | None = None  # the doubler's cube evaluation of a recorded double
        lines: dict[int, int] = {}
        first_roll = True
        for judged, action in enumerate(game.actions):
            if check is not None:
                check()
            tell(done + judged, gi + 1)  # the actions before this one (no Win or Loss among them)
            number = lines.setdefault(action.line, len(lines) + 1)
            side = _SIDES[action.player]
            if position is None:
                position = Position.initial(side, rules.variant_class)
            elif position.on_roll is not side and not isinstance(action, Take | Drop):
                position = position.swap_turn()
            if isinstance(action, Roll):
                if not first_roll and _cube_ok(state, rules, side):
                    c = player.suggest_cube(position, rules, state, level, left()).cube
                    double = min(c.double_take, c.double_pass)
                    error = max(0.0, double - c.no_double)
                    if error > 0 or c.no_double - double < CLOSE_CUBE:
                        best = "double" if double > c.no_double else "no double"
                        review.decisions.append(Decision(gi + 1, number, side, DecisionKind.DOUBLE,
                                                         position_id.encode(position), (), "no double", best, error))
                        by_side[side].cube_decisions += 1
                        by_side[side].cube_error += error
                first_roll = False
                if action.play.strip() == FORFEIT_PLAY:
                    break
                try:
                    move = resolve(position, action.dice, notation.parse(action.play, field_name))
                except TavlaError as exc:
                    raise InvalidInputError(field_name, f"game {gi + 1}, line {action.line}: "
                                                   f"{action.play!r} with {action.dice}: {exc}") from None
                ranked, kind = player.evaluate_moves(position, action.dice, rules, state,
                                                     player.effective_ply(level, player.evaluator_for(position.variant),
                                                                          left()))
                review.evaluator, review.ply = kind, max(r.ply for r in ranked)
                if len(ranked) > 1:
                    mine = next(r for r in ranked if r.move.board_after == move.board_after)
                    review.decisions.append(Decision(gi + 1, number, side, DecisionKind.MOVE,
                                                     position_id.encode(position), tuple(action.dice),
                                                     move.notation, ranked[0].move.notation, mine.equity_loss))
                    by_side[side].moves += 1
                    by_side[side].move_error += mine.equity_loss
                position = move.result
                if position.winner is not None:
                    break
            elif isinstance(action, Double):
                first_roll = False
                pending = player.suggest_cube(position, rules, state, level, left()).cube
                double = min(pending.double_take, pending.double_pass)
                error = max(0.0, pending.no_double - double)
                review.decisions.append(Decision(gi + 1, number, side, DecisionKind.DOUBLE, position_id.encode(position),
                                                 (), "double", "double" if double >= pending.no_double else "no double",
                                                 error))
                by_side[side].cube_decisions += 1
                by_side[side].cube_error += error
            elif isinstance(action, Take | Drop):
                if pending is None:
                    continue  # an answer without a recorded double: nothing to judge
                took = isinstance(action, Take)
                # the doubler's equities: the taker wants the smaller
                error = max(0.0, (pending.double_take if took else pending.double_pass)
                            - min(pending.double_take, pending.double_pass))
                best = "take" if pending.double_take <= pending.double_pass else "drop"
                review.decisions.append(Decision(gi + 1, number, side, DecisionKind.TAKE,
                                                 position_id.encode(position.swap_turn()), (),
                                                 "take" if took else "drop", best, error))
                by_side[side].cube_decisions += 1
                by_side[side].cube_error += error
                pending = None
                if not took:
                    break
                state = replace(state, cube=Cube(min(state.cube.value * 2, rules.cube_limit), side))
            else:  # Win, Loss: the game is over
                break
        review.games += 1
        done += per_game[gi]
        tell(done, gi + 1)
    return review
