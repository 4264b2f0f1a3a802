"""Replaying a parsed match record against an engine and checking it.

Every recorded play must be one of the engine's legal moves for that position and roll, and
every game's recorded points must equal the engine's score times the cube, with drops as
recorded. A game that ends without a finished bear-off and without a drop is a resignation or a
forfeit: its points are taken as recorded and counted apart (a resignation must still be 1, 2
or 3 times the cube). Player 1 of the record is white, player 2 black.

The match itself is played through the engine's match-play calls (R3, R18-R21), under the
international rules with the record's ``CubeLimit`` and ``Crawford`` headers:

* each game's first roll must be what the start rule allows (the roll-off dice, never a double),
  and the start call with that roll-off must name the recorded starter;
* every ``Doubles``, ``Takes`` and ``Drops`` must be a legal cube action for the engine, which
  refuses any in the Crawford game, and the doubler must be on roll;
* after each game the engine's match update, fed the game's end (a bear-off with its kind, a
  drop, a resignation, or a ``????`` forfeit: of a game when the recorded points are 1-3 x cube,
  else of the match), must pay the recorded points (or the points the winner needed), give the
  next game's recorded score, and end the match exactly after the last game, with its winner.

Rules (``mode``): ``match`` plays the record as the match its length line names; ``money`` and
``money-jacoby`` as an unlimited (money) session, Jacoby off or on; ``auto`` (the default) starts
as a match and turns to a money session on the one piece of evidence only money play explains:
a gammon paid 1 with the cube never turned (the Jacoby rule), unless 1 is what the winner needed
(a match game is capped at that: the length line decides). A cube action match play forbids
(the Crawford game, a dead cube) stays a disagreement: a real match breaks those rules too. A record that ends before its match does is *unfinished*: a note, not a
disagreement (players abandon matches; one site exports money sessions as 8- and 16-point
matches). Each report says which rules it assumed.

The engine is anything with the methods of :class:`Engine`; :mod:`tavla.replay.engines` has an
in-process one and a gRPC one, so the same checks run on the core and on a live service.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tavla.core import find_variant
from tavla.formats.match_rules import FORFEIT_PLAY, MatchRules
from tavla.formats.matreader import Double, Drop, Game, Loss, Match, Roll, Take, Win
from tavla.formats.turns import Turns

MAX_KEPT = 1000  # disagreements and notes a record's report keeps (the rest are counted)


class EngineError(Exception):
    """The engine rejected a request; ``str()`` says why (status and reason)."""


@dataclass(frozen=True, slots=True)
class Applied:
    """What applying a move returned. ``position`` is the engine's own value, passed back as is."""

    notation: str
    position: Any
    position_key: str
    game_over: bool
    winner: int  # 1 or 2 when game_over, else 0
    points: int  # points with the cube at 1 when game_over, else 0
    kind: int = 0  # 1 single, 2 gammon, 3 backgammon when game_over, else 0
    drawn: bool = False  # the game is drawn (plakoto's two pinned mothers): no winner, replayed
    dice_used: int = 0  # dice the play moved (a turn goes on only after a throw played in full)


MODES = ("auto", "match", "money", "money-jacoby")


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended, as the match update takes it.

    :ivar ending: ``borne_off``, ``drop``, ``resignation``, ``forfeit_game`` or ``forfeit_match``.
    :ivar kind: 1 single, 2 gammon, 3 backgammon.
    """

    winner: int
    ending: str
    kind: int = 1


@dataclass(frozen=True, slots=True)
class Updated:
    """What a match update returned: the new state (the engine's own value) and its figures."""

    match: Any
    scores: tuple[int, int]
    paid: int
    scored: int
    over: bool
    winner: int  # 1 or 2 when over, else 0
    crawford: bool  # the next game is the Crawford game


class Engine(Protocol):
    """The calls the replay needs. Sides are 1 (white) and 2 (black); keys are comparable."""

    def initial(self, on_roll: int, variant: str = "backgammon", preset: str = "international") -> Any: ...

    def on_roll(self, position: Any) -> int: ...

    def legal_keys(self, position: Any, dice: tuple[int, int]) -> set[str]: ...

    def apply(self, position: Any, dice: tuple[int, int], notation: str) -> Applied: ...

    def new_match(self, rules: MatchRules, length: int) -> Any: ...

    def start(self, rules: MatchRules, match: Any, roll_off: tuple[int, int] | None,
              dice: tuple[int, int] | None = None) -> tuple[int, tuple[int, int]]: ...

    def cube_actions(self, rules: MatchRules, match: Any, side: int) -> tuple[set[str], str]: ...

    def apply_cube(self, rules: MatchRules, match: Any, side: int, action: str) -> tuple[Any, Ending | None]: ...

    def update_match(self, rules: MatchRules, match: Any, ending: Ending) -> Updated: ...

    def as_money(self, match: Any) -> Any: ...

    def position_id(self, position: Any) -> str: ...

    def same_turn(self, position: Any) -> Any:
        """``position`` with the side that just moved on roll again: its turn goes on with
        another throw (gul bara's cascade of doubles)."""
        ...

    # An engine whose ``apply`` can only return one of its legal moves may set
    # ``apply_is_legal = True``: the replay then skips listing the legal moves (one move
    # generation per play instead of two). A remote engine leaves it unset, so ApplyMove's answer
    # is checked against ListLegalMoves'.


@dataclass
class Report:
    """The outcome of one record: counts and disagreements (``file:line: message``)."""

    source: str
    length: int = 0
    games: int = 0
    plays: int = 0
    finished: int = 0
    drops: int = 0
    capped: int = 0
    resigned: int = 0
    forfeits: int = 0
    cube_actions: int = 0
    crawford_games: int = 0
    match_updates: int = 0
    final_score: tuple[int, int] = (0, 0)
    match_winner: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # unfinished, rules assumed, quirks read
    rules: str = ""  # the rules the record was checked under, in words
    unfinished: bool = False
    money: bool = False  # checked as a money session
    dropped: int = 0  # problems and notes not kept (over MAX_KEPT each), still counted

    def keep(self, into: list[str], text: str) -> None:
        """Append ``text`` unless ``into`` holds :data:`MAX_KEPT` already (memory stays bounded
        on a record of any length; each game's verdict still has all of its own)."""
        if len(into) < MAX_KEPT:
            into.append(text)
        else:
            self.dropped += 1

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        kind = f"{self.length}-point match" if self.length else "money session"
        verdict = "OK" if self.ok else f"{len(self.problems)} DISAGREEMENT(S)"
        winner = f", won by player {self.match_winner}" if self.match_winner else ""
        return (
            f"{self.source}: {kind}, {self.games} games, {self.plays} plays checked, "
            f"{self.finished} scored ({self.capped} capped at the length), {self.drops} drops, "
            f"{self.resigned} resigned, "
            f"{self.forfeits} forfeits (points as recorded), {self.cube_actions} cube actions, "
            f"{self.crawford_games} Crawford game(s), {self.match_updates} match updates, final "
            f"{self.final_score[0]}-{self.final_score[1]}{winner}: {verdict}"
        )


OnRoll = Callable[[Any, tuple[int, int]], None]

_COUNTS = ("plays", "finished", "capped", "drops", "resigned", "forfeits", "cube_actions",
           "crawford_games", "match_updates")


@dataclass(frozen=True, slots=True)
class Illegal:
    """The first play of a game the engine refused: its line, text, reason and the position ID
    it was played from."""

    line: int
    play: str
    reason: str
    position_id: str


@dataclass
class GameResult:
    """The verdict on one game: the counts it added to the report, its disagreements
    (``file:line: message``), notes, the first illegal play, and whether its points and the
    match score agree with the engine."""

    number: int
    line: int
    counts: dict[str, int]
    problems: list[str]
    notes: list[str]
    illegal: Illegal | None = None
    points_agree: bool = True
    score_agree: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems


class _Match:
    """The match as the engine keeps it, while its answers agree with the record."""

    def __init__(self, engine: Engine, headers: Mapping[str, str], length: int, mode: str, report: Report) -> None:
        self.engine = engine
        self.mode = mode
        self.rules = MatchRules.from_headers(headers, mode)
        if not length:  # "0 point match" or no length line: a money session by its own account
            self.rules = replace(self.rules, money=True, crawford=False)
        self.length = 0 if self.rules.money else length
        self.jacoby_known = mode != "auto"
        self.state: Any = engine.new_match(self.rules, self.length)
        self.scores = (0, 0)
        self.crawford = False
        self.over = False
        self.live = True  # False once the engine's match disagrees: later games are not compared
        self.report = report
        self.kinds: set[str] = set()  # kinds of the current game's disagreements
        self.illegal: Illegal | None = None
        self.game_notes: list[str] = []
        self.game_problems: list[str] = []
        if self.rules.unknown_ruleset:
            report.notes.append(self.rules.unknown_ruleset)
        if self.rules.unknown_variation:  # gnubg's 1- or 2-checker hypergammon: nothing to compare
            report.keep(report.problems, f"{report.source}: {self.rules.unknown_variation}")
            self.live = False

    def problem(self, line: int, text: str, kind: str = "play") -> None:
        message = f"{self.report.source}:{line}: {text}"
        self.game_problems.append(message)
        self.report.keep(self.report.problems, message)
        self.kinds.add(kind)

    def lost(self, line: int, text: str, kind: str = "match") -> None:
        """A disagreement about the match: report it and stop comparing the match."""
        self.problem(line, text, kind)
        self.live = False

    def to_money(self, jacoby: bool, why: str) -> None:
        """Auto mode: from here on the record is a money session (the match state carries over)."""
        if not self.rules.money:
            self.state = self.engine.as_money(self.state)
            self.length = 0
            self.crawford = False
        self.rules = replace(self.rules, money=True, crawford=False, jacoby=jacoby)
        self.jacoby_known = self.jacoby_known or jacoby
        self.report.money = True
        self.report.rules = self.rules.describe(0)
        self.game_notes.append(f"{why}: read as a money session, Jacoby {'on' if jacoby else 'off'}")


class Replayer:
    """Replays a record game by game (:meth:`game`), then :meth:`finish`; memory is one game.

    ``length`` and ``headers`` are the record's; ``mode`` one of :data:`MODES`.
    """

    def __init__(self, source: str, length: int, headers: Mapping[str, str], engine: Engine, mode: str = "auto",
                 on_roll: OnRoll | None = None, notes: tuple[str, ...] = ()) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.report = Report(source, length)
        self.engine = engine
        self.on_roll = on_roll
        self.totals = [0, 0]
        self.last: Game | None = None
        self.state = _Match(engine, headers, length, mode, self.report)
        self.report.rules = self.state.rules.describe(length)
        self.report.money = self.state.rules.money
        self.report.notes.extend(notes)

    def game(self, game: Game) -> GameResult:
        """Check one game (in record order) and return its verdict."""
        report, state = self.report, self.state
        before = {key: getattr(report, key) for key in _COUNTS}
        state.kinds, state.illegal, state.game_notes, state.game_problems = set(), None, list(game.notes), []
        report.games += 1
        if tuple(self.totals) != game.score:
            state.problem(game.line, f"game {game.number} starts at {game.score[0]}-"
                                     f"{game.score[1]}, the recorded wins add up to "
                                     f"{self.totals[0]}-{self.totals[1]}", "score")
            self.totals = list(game.score)
        if state.live and state.scores != game.score:
            state.lost(game.line, f"game {game.number} starts at {game.score[0]}-{game.score[1]}, "
                                  f"UpdateMatch gives {state.scores[0]}-{state.scores[1]}", "score")
        if state.live and state.over:
            state.lost(game.line, f"game {game.number} is played, but UpdateMatch ended the match")
        report.crawford_games += state.live and state.crawford
        won = _replay_game(game, self.engine, report, self.on_roll, state)
        if won:
            self.totals[won[0] - 1] += won[1]
        if state.live and won:
            _check_match_end(state, game)
        report.final_score = state.scores
        self.last = game
        counts = {key: getattr(report, key) - before[key] for key in _COUNTS}
        for note in state.game_notes:
            report.keep(report.notes, f"game {game.number}: {note}")
        return GameResult(game.number, game.line, counts, state.game_problems,
                          list(state.game_notes), state.illegal,
                          points_agree="points" not in state.kinds and state.illegal is None,
                          score_agree="score" not in state.kinds and "match" not in state.kinds)

    def finish(self) -> Report:
        """The end of the record: notes an unfinished match; returns the report."""
        state, report = self.state, self.report
        if state.live and not state.over and state.length and self.last is not None:
            report.unfinished = True
            report.notes.append(
                f"unfinished: the record ends after game {self.last.number} at "
                f"{state.scores[0]}-{state.scores[1]}; the match is to {state.length} points")
        if state.rules.money and not state.jacoby_known:
            report.rules += " (no game showed whether the Jacoby rule was on)"
        report.notes.insert(0, f"rules assumed: {report.rules}")
        return report


def replay(match: Match, engine: Engine, on_roll: OnRoll | None = None, mode: str = "auto") -> Report:
    """Replay ``match`` through ``engine``; ``on_roll(position, dice)`` sees every roll played."""
    replayer = Replayer(match.source, match.length, match.headers, engine, mode, on_roll, match.notes)
    for game in match.games:
        replayer.game(game)
    return replayer.finish()


def _check_match_end(state: _Match, game: Game) -> None:
    win = game.actions[-1]
    assert isinstance(win, Win)
    if state.over and state.report.match_winner != win.player:
        state.lost(win.line, f"player {win.player} wins the last game, UpdateMatch gives the match "
                             f"to player {state.report.match_winner}")
    elif win.match_won and not state.over:
        state.lost(win.line, "the record says the match is won, UpdateMatch says it goes on")


def _check_start(state: _Match, game: Game, first: Roll) -> None:
    """The first roll of a game against the start rule: the roll-off's dice, never a double
    (R3-international); or, R3-turkish, the starter's own roll (a double allowed), the starter
    being the previous game's winner after the first game (the roll-off itself is not recorded:
    one the recorded starter wins is assumed)."""
    if state.rules.turkish_start:
        _check_turkish_start(state, game, first)
        return
    d1, d2 = first.dice
    if d1 == d2:
        state.lost(first.line, f"game {game.number} opens with the double {d1}{d2}; the roll-off "
                               "dice are the first move and never a double (R3)")
        return
    high, low = max(d1, d2), min(d1, d2)
    throw = (high, low) if first.player == 1 else (low, high)
    try:
        starter, dice = state.engine.start(state.rules, state.state, throw)
    except EngineError as exc:
        state.lost(first.line, f"StartGame with the roll-off {throw[0]}-{throw[1]} rejected: {exc}")
        return
    if starter != first.player or dice != (high, low):
        state.lost(first.line, f"StartGame with the roll-off {throw[0]}-{throw[1]} gives player "
                               f"{starter} {dice[0]}{dice[1]}, the record player {first.player} {d1}{d2}")


def _check_turkish_start(state: _Match, game: Game, first: Roll) -> None:
    # a roll-off only before the first game (needs_roll_off): any throw the recorded starter wins
    throw = None if state.report.match_updates else ((2, 1) if first.player == 1 else (1, 2))
    try:
        starter, dice = state.engine.start(state.rules, state.state, throw, first.dice)
    except EngineError as exc:
        state.lost(first.line, f"StartGame with the first roll {first.dice[0]}{first.dice[1]} rejected: {exc}")
        return
    if starter != first.player or dice != first.dice:
        state.lost(first.line, f"StartGame gives player {starter} the first roll {dice[0]}{dice[1]} (R3, "
                               f"Turkish: the last game's winner starts), the record player {first.player} "
                               f"{first.dice[0]}{first.dice[1]}")


def _cube(state: _Match, line: int, player: int, action: str) -> Ending | None:
    """Check and apply a recorded cube action through the engine's cube calls (R19-R21)."""
    if not state.live:
        return None
    state.report.cube_actions += 1
    try:
        legal, denial = state.engine.cube_actions(state.rules, state.state, player)
        if action not in legal:
            where = " in the Crawford game (R21)" if state.crawford else ""
            state.lost(line, f"player {player} {action}s{where}, but the engine allows "
                             f"{sorted(legal) or 'no cube action'}" + (f" ({denial})" if denial else ""),
                       "cube")
            return None
        state.state, ended = state.engine.apply_cube(state.rules, state.state, player, action)
    except EngineError as exc:
        state.lost(line, f"cube action {action} by player {player} rejected: {exc}", "cube")
        return None
    return ended


def _replay_game(game: Game, engine: Engine, report: Report, on_roll: OnRoll | None,
                 state: _Match) -> tuple[int, int] | None:
    """Check one game's actions; returns (winner, points) as recorded."""
    actions = game.actions
    first = next((a for a in actions if isinstance(a, (Roll, Double))), None)
    position = engine.initial(first.player if first else 1, state.rules.variant, state.rules.preset)
    if state.live and isinstance(first, Roll):
        _check_start(state, game, first)
    cube, offered = 1, 0
    over: Applied | None = None
    dropped_by = forfeited_by = 0
    forfeit_roll = False
    drawn: Roll | None = None  # the play that drew the game

    problem = state.problem
    trusted = getattr(engine, "apply_is_legal", False)

    def illegal(roll: Roll, reason: str) -> None:
        state.illegal = Illegal(roll.line, f"{roll.dice[0]}{roll.dice[1]}: {roll.play or 'Cannot Move'}",
                                reason, engine.position_id(position))

    turns = Turns(find_variant(state.rules.variant))

    for action in actions:
        if isinstance(action, Roll):
            if action.play == FORFEIT_PLAY:
                forfeited_by = action.player
                forfeit_roll = True
                continue
            if over or forfeited_by or drawn:
                problem(action.line, "a roll after the game ended")
                return None
            follow = turns.follow
            if follow is not None and (action.player, action.dice) != follow:
                problem(action.line, f"player {follow[0]}'s turn goes on with {follow[1][0]}{follow[1][1]} "
                                     f"({turns.variant.name}: a later double played in full is followed by the next)")
                return None
            if turns.roll(action.player, action.dice):
                position = engine.same_turn(position)
            elif engine.on_roll(position) != action.player:
                problem(action.line, f"player {action.player} rolls, but player "
                                     f"{engine.on_roll(position)} is on roll")
                return None
            if on_roll:
                on_roll(position, action.dice)
            try:
                if trusted:  # the engine's apply picks among its own legal moves
                    applied = engine.apply(position, action.dice, action.play)
                    legal = {applied.position_key}
                else:
                    legal = engine.legal_keys(position, action.dice)
                    applied = engine.apply(position, action.dice, action.play)
            except EngineError as exc:
                problem(action.line, f"{action.dice[0]}{action.dice[1]}: {action.play or 'Cannot Move'}"
                                     f" rejected: {exc}")
                illegal(action, str(exc))
                return None
            if applied.position_key not in legal:
                problem(action.line, f"{action.play!r} gives a position not among the legal moves")
                illegal(action, "not among the legal moves")
                return None
            report.plays += 1
            position = applied.position
            turns.played(action.player, action.dice, applied.dice_used, applied.game_over or applied.drawn)
            if applied.game_over:
                over = applied
            elif applied.drawn:
                drawn = action
        elif isinstance(action, Double):
            if action.value != 2 * cube:
                problem(action.line, f"cube offered at {action.value}, it stands at {cube}", "cube")
            if state.live and engine.on_roll(position) != action.player:
                state.lost(action.line, f"player {action.player} doubles, but player "
                                        f"{engine.on_roll(position)} is on roll (R19: before rolling)")
            _cube(state, action.line, action.player, "double")
            offered = action.value
        elif isinstance(action, Take):
            _cube(state, action.line, action.player, "take")
            cube, offered = offered or 2 * cube, 0
        elif isinstance(action, Drop):
            dropped_by = action.player
            _cube(state, action.line, action.player, "drop")
        elif isinstance(action, Loss):
            forfeited_by = action.player
        elif isinstance(action, Win):
            recorded = _check_win(action, over, cube, dropped_by, forfeited_by, forfeit_roll, state)
            if state.live:
                ending = _ending(action, over, cube, dropped_by, forfeited_by, forfeit_roll)
                _update(state, action, ending)
            return recorded
    if drawn is not None:  # the format has no result for a draw: the next game replays it
        state.game_notes.append("drawn (both mothers pinned): nothing scored, the game is replayed")
        if state.live:
            _update_draw(state, drawn)
        return None
    problem(actions[-1].line if actions else 0, "the game has no recorded result")
    return None


def _update_draw(state: _Match, play: Roll) -> None:
    """Feed a drawn game to the engine's match update: it must score nothing."""
    try:
        updated = state.engine.update_match(state.rules, state.state, Ending(0, "draw"))
    except EngineError as exc:
        state.lost(play.line, f"UpdateMatch with a draw rejected: {exc}")
        return
    state.report.match_updates += 1
    if updated.scores != state.scores or updated.over:
        state.lost(play.line, f"UpdateMatch scores a draw: {updated.scores[0]}-{updated.scores[1]}", "points")
        return
    state.state = updated.match


def _ending(win: Win, over: Applied | None, cube: int, dropped_by: int, forfeited_by: int,
            forfeit_roll: bool) -> Ending:
    """The game's end as the match update takes it."""
    if over is not None:
        return Ending(over.winner, "borne_off", over.kind or over.points)
    if dropped_by:
        return Ending(win.player, "drop")
    kind, rest = divmod(win.points, cube)
    if not rest and 1 <= kind <= 3:
        return Ending(win.player, "forfeit_game" if forfeit_roll else "resignation", kind)
    return Ending(win.player, "forfeit_match")  # e.g. "Wins 4016 point": the match is lost


def _update(state: _Match, win: Win, ending: Ending) -> None:
    """Feed the game's end to the engine's match update and compare it with the record."""
    try:
        updated = state.engine.update_match(state.rules, state.state, ending)
    except EngineError as exc:
        state.lost(win.line, f"UpdateMatch with {ending.ending} for player {ending.winner} rejected: {exc}")
        return
    state.report.match_updates += 1
    # the record writes what the game paid, what the winner needed, or (match0068) the paid
    # points capped at the match length
    length = state.length
    accepted = {updated.paid, updated.scored, min(updated.paid, length) if length else updated.paid}
    if ending.ending != "forfeit_match" and win.points not in accepted:
        state.lost(win.line, f"player {win.player} wins {win.points}, UpdateMatch pays {updated.paid} "
                             f"and scores {updated.scored}", "points")
        return
    state.state, state.scores, state.crawford = updated.match, updated.scores, updated.crawford
    state.over = updated.over
    state.report.match_winner = updated.winner


def _check_win(win: Win, over: Applied | None, cube: int, dropped_by: int, forfeited_by: int,
               forfeit_roll: bool, state: _Match) -> tuple[int, int]:
    report, problem = state.report, state.problem
    recorded = (win.player, win.points)
    if over is not None:
        report.finished += 1
        expected = over.points * cube
        # in a match a game pays at most what the winner needs (its length minus the winner's
        # score): a gammon written "Wins 1 point and the match" is that cap, not the Jacoby rule
        needed = state.length - state.scores[win.player - 1] if state.length else 0
        capped = bool(state.length) and expected > needed == win.points
        jacoby_gammon = (cube == 1 and over.points > 1 and win.points == 1 and over.winner == win.player
                         and not capped)
        if jacoby_gammon and state.mode == "auto" and not state.jacoby_known:
            state.to_money(True, "a gammon paid 1 with the cube never turned")
        elif state.rules.money and cube == 1 and over.points > 1 and win.points == over.points:
            state.jacoby_known = True  # a gammon paid in full before the cube turned: Jacoby off
        if state.rules.money and state.rules.jacoby and cube == 1:
            expected = 1  # Jacoby: gammons and backgammons pay single until the cube is turned
        # (match0068) some writers cap at the match length instead of the points needed
        capped = bool(state.length) and (capped or expected > state.length == win.points)
        report.capped += bool(capped)
        if over.winner != win.player or (expected != win.points and not capped):
            problem(win.line, f"player {win.player} wins {win.points}, the engine scores player "
                              f"{over.winner} {over.points} x cube {cube} = {expected}", "points")
    elif dropped_by:
        report.drops += 1
        if dropped_by == win.player or win.points != cube:
            problem(win.line, f"after a drop by player {dropped_by} the doubler wins the cube "
                              f"value {cube}, recorded: player {win.player} wins {win.points}", "points")
    elif forfeited_by:
        report.forfeits += 1
        how = "a roll left unplayed (????): lost on time or by resignation" if forfeit_roll else "a resignation"
        state.game_notes.append(f"ends on {how}; player {win.player} wins {win.points} as recorded")
    else:
        report.resigned += 1
        state.game_notes.append(f"ends on a resignation; player {win.player} wins {win.points}")
        if win.points not in (cube, 2 * cube, 3 * cube):
            problem(win.line, f"a resignation pays 1, 2 or 3 x cube {cube}, recorded {win.points}",
                    "points")
    return recorded
