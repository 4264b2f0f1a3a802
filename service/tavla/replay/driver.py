"""Replaying a parsed match record against an engine and checking it.

Every recorded play must be one of the engine's legal moves for that position and roll, and
every game's recorded points must equal the engine's score times the cube, with drops as
recorded. A game that ends without a finished bear-off and without a drop is a resignation or a
forfeit: its points are taken as recorded and counted apart (a resignation must still be 1, 2
or 3 times the cube). Player 1 of the record is white, player 2 black.

The engine is anything with the methods of :class:`Engine`; :mod:`tavla.replay.engines` has an
in-process one and a gRPC one, so the same checks run on the core and on a live service.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from tavla.replay.matfile import Double, Drop, Loss, Match, Roll, Take, Win

FORFEIT_PLAY = "????"


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


class Engine(Protocol):
    """The calls the replay needs. Sides are 1 (white) and 2 (black); keys are comparable."""

    def initial(self, on_roll: int) -> Any: ...

    def on_roll(self, position: Any) -> int: ...

    def legal_keys(self, position: Any, dice: tuple[int, int]) -> set[str]: ...

    def apply(self, position: Any, dice: tuple[int, int], notation: str) -> Applied: ...


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
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        kind = f"{self.length}-point match" if self.length else "money session"
        verdict = "OK" if self.ok else f"{len(self.problems)} DISAGREEMENT(S)"
        return (
            f"{self.source}: {kind}, {self.games} games, {self.plays} plays checked, "
            f"{self.finished} scored ({self.capped} capped at the length), {self.drops} drops, "
            f"{self.resigned} resigned, "
            f"{self.forfeits} forfeits (points as recorded): {verdict}"
        )


OnRoll = Callable[[Any, tuple[int, int]], None]


def replay(match: Match, engine: Engine, on_roll: OnRoll | None = None) -> Report:
    """Replay ``match`` through ``engine``; ``on_roll(position, dice)`` sees every roll played."""
    report = Report(match.source, match.length)
    totals = [0, 0]
    for game in match.games:
        report.games += 1
        if tuple(totals) != game.score:
            report.problems.append(
                f"{match.source}:{game.line}: game {game.number} starts at {game.score[0]}-"
                f"{game.score[1]}, the recorded wins add up to {totals[0]}-{totals[1]}"
            )
            totals = list(game.score)
        won = _replay_game(match, game.actions, engine, report, on_roll)
        if won:
            totals[won[0] - 1] += won[1]
    return report


def _replay_game(match: Match, actions, engine: Engine, report: Report, on_roll: OnRoll | None):
    """Check one game's actions; returns (winner, points) as recorded."""
    source = match.source
    first = next((a for a in actions if isinstance(a, (Roll, Double))), None)
    position = engine.initial(first.player if first else 1)
    cube, offered = 1, 0
    over: Applied | None = None
    dropped_by = forfeited_by = 0

    def problem(line: int, text: str) -> None:
        report.problems.append(f"{source}:{line}: {text}")

    for action in actions:
        if isinstance(action, Roll):
            if action.play == FORFEIT_PLAY:
                forfeited_by = action.player
                continue
            if over or forfeited_by:
                problem(action.line, "a roll after the game ended")
                return None
            if engine.on_roll(position) != action.player:
                problem(action.line, f"player {action.player} rolls, but player "
                                     f"{engine.on_roll(position)} is on roll")
                return None
            if on_roll:
                on_roll(position, action.dice)
            try:
                legal = engine.legal_keys(position, action.dice)
                applied = engine.apply(position, action.dice, action.play)
            except EngineError as exc:
                problem(action.line, f"{action.dice[0]}{action.dice[1]}: {action.play or 'Cannot Move'}"
                                     f" rejected: {exc}")
                return None
            if applied.position_key not in legal:
                problem(action.line, f"{action.play!r} gives a position not among the legal moves")
                return None
            report.plays += 1
            position = applied.position
            if applied.game_over:
                over = applied
        elif isinstance(action, Double):
            if action.value != 2 * cube:
                problem(action.line, f"cube offered at {action.value}, it stands at {cube}")
            offered = action.value
        elif isinstance(action, Take):
            cube, offered = offered or 2 * cube, 0
        elif isinstance(action, Drop):
            dropped_by = action.player
        elif isinstance(action, Loss):
            forfeited_by = action.player
        elif isinstance(action, Win):
            return _check_win(action, over, cube, dropped_by, forfeited_by, match.length, report,
                              problem)
    problem(actions[-1].line if actions else 0, "the game has no recorded result")
    return None


def _check_win(win: Win, over, cube, dropped_by, forfeited_by, length, report: Report, problem):
    recorded = (win.player, win.points)
    if over is not None:
        report.finished += 1
        expected = over.points * cube
        capped = length and expected > length == win.points
        report.capped += bool(capped)
        if over.winner != win.player or (expected != win.points and not capped):
            problem(win.line, f"player {win.player} wins {win.points}, the engine scores player "
                              f"{over.winner} {over.points} x cube {cube} = {expected}")
    elif dropped_by:
        report.drops += 1
        if dropped_by == win.player or win.points != cube:
            problem(win.line, f"after a drop by player {dropped_by} the doubler wins the cube "
                              f"value {cube}, recorded: player {win.player} wins {win.points}")
    elif forfeited_by:
        report.forfeits += 1
    else:
        report.resigned += 1
        if win.points not in (cube, 2 * cube, 3 * cube):
            problem(win.line, f"a resignation pays 1, 2 or 3 x cube {cube}, recorded {win.points}")
    return recorded
