"""Recording a match as it is played (through the RPCs or the core) into the model of
:mod:`tavla.formats.matreader`, to export it with :func:`tavla.formats.matwriter.write_match` or
:func:`tavla.formats.sgfwriter.write_sgf`. Player 1 is white, player 2 black (R1)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tavla.formats.matreader import Action, Double, Drop, Game, Loss, Match, Roll, Take, Win

__all__ = ["MatchRecorder"]


class MatchRecorder:
    """Collects games and their actions; :meth:`match` is the record so far.

    :param length: points to win; 0 for a money session.
    :param players: (player 1, player 2) names.
    :param headers: ``.mat`` headers, e.g. ``{"Crawford": "On", "CubeLimit": "64"}``.
    """

    def __init__(self, length: int, players: tuple[str, str] = ("White", "Black"),
                 headers: Mapping[str, str] | None = None, source: str = "<played>") -> None:
        self.length, self.players, self.source = length, players, source
        self.headers = dict(headers or {})
        self.games: list[Game] = []
        self.score: tuple[int, int] | None = None
        self.actions: list[Action] = []

    def start_game(self, score: tuple[int, int]) -> None:
        """A new game at ``score`` (player 1, player 2) before it."""
        self._close()
        self.score = score

    def roll(self, player: int, dice: tuple[int, int], play: str) -> None:
        """A roll and its play in standard notation (``""`` when no move is possible)."""
        self._add(Roll(player, 0, dice, play))

    def double(self, player: int, value: int) -> None:
        self._add(Double(player, 0, value))

    def take(self, player: int) -> None:
        self._add(Take(player, 0))

    def drop(self, player: int) -> None:
        self._add(Drop(player, 0))

    def loss(self, player: int, points: int) -> None:
        """A ``Losses`` line: ``player`` gives up ``points`` (a forfeit)."""
        self._add(Loss(player, 0, points))

    def win(self, player: int, points: int, match_won: bool = False) -> None:
        """The game's result: ``player`` wins ``points`` (and the match)."""
        self._add(Win(player, 0, points, match_won))

    def match(self) -> Match:
        """The record with every game so far (the one in play included)."""
        games = self.games + self._open_game()
        return Match(self.source, self.length, MappingProxyType(dict(self.headers)), self.players, tuple(games))

    def _add(self, action: Action) -> None:
        if self.score is None:
            raise ValueError("an action before the first game starts")
        self.actions.append(action)

    def _open_game(self) -> list[Game]:
        """The game in play, if any, as a record's game."""
        if self.score is None:
            return []
        return [Game(len(self.games) + 1, 0, self.score, tuple(self.actions))]

    def _close(self) -> None:
        self.games += self._open_game()
        self.score, self.actions = None, []
