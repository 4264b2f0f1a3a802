"""Parser for Jellyfish ``.mat`` match records (plain text).

The format is the one written by Jellyfish and by the sites that copy it
(Backgammon Studio, BackgammonGalaxy); it has no formal specification, so this
parser follows the exports in ``tests/data/matches``::

    ; [Player 1 "PlayerA"]                      header comments
    7 point match                               match length (missing/0: money)
     Game 1
     PlayerA : 0                  PlayerB : 0   score at the start of the game
      1) 51: 24/23 13/8           42: 8/4 6/4   player 1 left, player 2 right
      9) 41: 9/5 7/6               Doubles => 2
     10)  Takes                   64: 10/6 10/4
     24)  Wins 4 point
          Wins 1 point and the match            unnumbered result line

Each side of a move line holds a roll (``DD: play``), ``Doubles => V``,
``Takes``, ``Drops``, ``Wins N point(s) [and the match]`` or ``Losses N
point(s)``.  The side is decided by column, per game, relative to where the
second name starts on the score line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from types import MappingProxyType

from tavla.core.match.ruleset import MAX_MATCH_LENGTH

__all__ = [
    "Action", "Double", "Drop", "Game", "Loss", "Match", "MatParseError", "MatReader", "starts_record",
    "Roll", "Take", "Win", "parse_match", "read_match",
]


class MatParseError(ValueError):
    """A line of a ``.mat`` record that is not understood.

    ``source`` names the record, ``line`` is 1-based, ``text`` is the offending
    line without its line ending; ``str()`` reads
    ``"<source>:<line>: <reason>: <text>"``.
    """

    def __init__(self, source: str, line: int, reason: str, text: str) -> None:
        super().__init__(f"{source}:{line}: {reason}: {text}")
        self.source = source
        self.line = line
        self.reason = reason
        self.text = text

    def __reduce__(self) -> tuple[type[MatParseError], tuple[str, int, str, str]]:
        # keep the exception picklable despite the 4-argument __init__
        return (type(self), (self.source, self.line, self.reason, self.text))


@dataclass(frozen=True, slots=True)
class Roll:
    """``DD: play``: ``dice`` as written (e.g. ``(5, 2)``).

    ``play`` is the move text, whitespace-normalised and otherwise as written
    (``bar/22``, ``25/22``, ``6/off``, ``2/0``, ``13/9*``, ``8/5(2)``); it is
    ``""`` for an empty play or ``Cannot Move``, and ``"????"`` where the site
    wrote that (a roll left unplayed when the game ended on resignation/time).
    """

    player: int
    line: int
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True, slots=True)
class Double:
    """``Doubles => V``: ``value`` is the cube value offered (2, 4, ...)."""

    player: int
    line: int
    value: int


@dataclass(frozen=True, slots=True)
class Take:
    """``Takes``."""

    player: int
    line: int


@dataclass(frozen=True, slots=True)
class Drop:
    """``Drops``."""

    player: int
    line: int


@dataclass(frozen=True, slots=True)
class Win:
    """``Wins N point(s)``; ``match_won`` if followed by ``and the match``."""

    player: int
    line: int
    points: int
    match_won: bool


@dataclass(frozen=True, slots=True)
class Loss:
    """``Losses N point(s)``: ``player`` gave up ``points`` (resignation/forfeit)."""

    player: int
    line: int
    points: int


# One recorded action; ``player`` is 1 (left column) or 2, ``line`` is 1-based.
Action = Roll | Double | Take | Drop | Win | Loss


@dataclass(frozen=True, slots=True)
class Game:
    """One game: ``score`` is (player 1, player 2) at its start, as recorded;
    ``actions`` are in play order (left side before right side on a line)."""

    number: int
    line: int
    score: tuple[int, int]
    actions: tuple[Action, ...]
    # quirks of the export read in this game (e.g. a line run into another): notes, not content
    notes: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Match:
    """A parsed record: ``length`` 0 means money play; ``headers`` maps the
    ``; [Key "Value"]`` comments (read-only); ``players`` is (player 1, player 2)."""

    source: str
    length: int
    headers: Mapping[str, str] = field(hash=False)  # a MappingProxyType
    players: tuple[str, str]
    games: tuple[Game, ...]
    # quirks of the record as a whole (e.g. an empty player name): notes, not content
    notes: tuple[str, ...] = field(default=(), compare=False)


_HEADER = re.compile(r';\s*\[(.+?)\s+"(.*)"\]\s*')
_LENGTH = re.compile(r"\s*(\d+)\s+point\s+match\s*", re.IGNORECASE)
_GAME = re.compile(r"\s*Game\s+(\d+)\s*")
# names may be empty (`[Player 2 ""]` exports ` PlayerA : 0          : 0`)
_SCORE = re.compile(r"\s*(\S.*?\s+|):\s+(\d+)\s+(\S.*?\s+|):\s+(\d+)\s*")
_NUMBERED = re.compile(r"\s*(\d+)\)")
# An action starts with a word ending in ':' (the dice) or with a keyword.
# Keywords in any case, singular or plural, as gnubg's importer reads them (import.c).
_ITEM = re.compile(r"(?<!\S)(?:\S*:|Doubles?|Takes?|Drops?|Wins?|Losses|Loses?)(?!\S)", re.IGNORECASE)
_ROLL = re.compile(r"(\S*):(?: (.*))?")
#: One token of a play in standard notation: bar/22 13/7*/6 8/5(2) 6/off (13/7*/6 too).
MOVE_TOKEN = re.compile(r"(?:bar|\d{1,2})(?:/(?:off|\d{1,2})\*?)+(?:\(\d\))?")
_DOUBLE = re.compile(r"Doubles? => (\d+)", re.IGNORECASE)
_WIN = re.compile(r"Wins? (\d+) points?( and the match)?", re.IGNORECASE)
_LOSS = re.compile(r"(?:Losses|Loses?) (\d+) points?", re.IGNORECASE)
_TAKE = re.compile(r"Takes?", re.IGNORECASE)
_DROP = re.compile(r"Drops?", re.IGNORECASE)
_COMMENT = re.compile(r"\s*[;#].*")


class _Bad(Exception):
    """Internal: why the current line is not understood."""


#: The longest match the readers accept: the rules' (gnubg's own limit too); 0 is a money session.
MAX_LENGTH = MAX_MATCH_LENGTH
#: The highest game number the readers accept (a record's verdict carries it as a uint32).
MAX_GAME_NUMBER = 99_999


def bounded(digits: str, what: str, lowest: int, highest: int) -> int:
    """``digits`` as an int in ``lowest..highest``.

    :raises ValueError: outside it, naming ``what`` (never converts thousands of digits).
    """
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{what} {digits[:20]!r} is not a number")
    value = int(digits) if len(digits) <= len(str(highest)) else highest + 1
    if not lowest <= value <= highest:
        span = f"1..{highest} (0: a money session)" if lowest == 0 and what.endswith("length") else f"{lowest}..{highest}"
        raise ValueError(f"{what} {digits[:20]} is outside {span}")
    return value


def _bounded(digits: str, what: str, lowest: int, highest: int) -> int:
    try:
        return bounded(digits, what, lowest, highest)
    except ValueError as exc:
        raise _Bad(str(exc)) from None


def _action(chunk: str, player: int, line: int) -> Action:
    """Parse one side's text (whitespace-normalised)."""
    if m := _ROLL.fullmatch(chunk):
        dice, play = m.group(1), m.group(2) or ""
        if not re.fullmatch(r"[1-6][1-6]", dice):
            raise _Bad(f"bad dice {dice!r}")
        if play.lower() == "cannot move":
            play = ""
        elif play in ("???", "????"):  # gnubg reads three or four
            play = "????"
        elif play != "????" and not all(MOVE_TOKEN.fullmatch(t) for t in play.split()):
            raise _Bad(f"bad play {play!r}")
        return Roll(player, line, (int(dice[0]), int(dice[1])), play)
    if m := _DOUBLE.fullmatch(chunk):
        return Double(player, line, int(m.group(1)))
    if _TAKE.fullmatch(chunk):
        return Take(player, line)
    if _DROP.fullmatch(chunk):
        return Drop(player, line)
    if m := _WIN.fullmatch(chunk):
        return Win(player, line, int(m.group(1)), bool(m.group(2)))
    if m := _LOSS.fullmatch(chunk):
        return Loss(player, line, int(m.group(1)))
    raise _Bad(f"unknown action {chunk!r}")


def _actions(body: str, anchor: int, split: int, line: int) -> list[Action]:
    """Cut ``body`` (a line, blanked up to ``anchor``) into actions by column.

    The score line's second-name column is only roughly where the right column
    starts: rewritten (anonymised) names shift it by up to 8 columns, and some
    results sit far right.  So a token belongs to the column it is nearer to:
    ``anchor`` (just after the move number) or ``split``.
    """
    starts = [m.start() for m in _ITEM.finditer(body)]
    if body[:starts[0] if starts else None].strip():
        raise _Bad("unexpected text")
    actions: list[Action] = []
    for start, end in zip(starts, starts[1:] + [len(body)]):
        player = 1 if start - anchor < split - start else 2
        if actions and player <= actions[-1].player:
            raise _Bad("two actions in one column")
        actions.append(_action(" ".join(body[start:end].split()), player, line))
    return actions


@dataclass(slots=True)
class _OpenGame:
    """The game being read; ``score`` is None until its score line is seen."""

    number: int
    line: int
    score: tuple[int, int] | None = None
    names: tuple[str, str] = ("", "")
    split: int = 0
    actions: list[Action] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def done(self) -> Game:
        assert self.score is not None
        return Game(self.number, self.line, self.score, tuple(self.actions), tuple(self.notes))


# a move number written again further on: a second line run into the first (BackgammonGalaxy)
_REPEATED = r"(?<=\s){number}\)(?!\S)"


class MatReader:
    """Reads one ``.mat`` record a line at a time, handing over each game once the next one
    starts (or at :meth:`close`), so a reader holds one game, never the whole record.

    Feed lines in order with :meth:`line`; raise :class:`MatParseError` on a line not
    understood. ``length``, ``headers`` and ``players`` are known once the first game starts.
    """

    MAX_ACTIONS = 20_000  # per game: a real one has a few hundred
    MAX_HEADERS = 1_000

    def __init__(self, source: str = "<string>") -> None:
        self.source = source
        self.headers: dict[str, str] = {}
        self.length: int | None = None
        self.game: _OpenGame | None = None
        self.games = 0
        self.lineno = 0
        self.last_text = ""
        self.first_names: tuple[str, str] | None = None
        self.comments = 0

    @property
    def players(self) -> tuple[str, str]:
        names = self.first_names or ("", "")
        return (self.headers.get("Player 1") or names[0], self.headers.get("Player 2") or names[1])

    def notes(self) -> tuple[str, ...]:
        """Quirks of the record as a whole (known once the first game's score line is read)."""
        notes = [f"player {i} has no name" for i, name in enumerate(self.players, 1) if not name]
        if self.comments:
            notes.append(f"{self.comments} comment line(s) before the first game not kept")
        return tuple(notes)

    def line(self, raw: str) -> Game | None:
        """Read the next line; returns the game it completes (a ``Game`` line ends the last)."""
        self.lineno += 1
        raw = raw.removeprefix("\ufeff")  # a byte order mark (XG's exports)
        self.last_text = raw
        try:
            return self._line(raw)
        except _Bad as err:
            raise MatParseError(self.source, self.lineno, str(err), raw) from None

    def close(self) -> Game:
        """The end of the record: returns its last game."""
        if self.game is None:
            raise MatParseError(self.source, max(self.lineno, 1), "no game in match record", self.last_text)
        if self.game.score is None:
            raise MatParseError(self.source, self.game.line, "game without a score line", "")
        game, self.game = self.game.done(), None
        return game

    def _line(self, raw: str) -> Game | None:
        game = self.game
        if not raw.strip():
            return None
        if m := _GAME.fullmatch(raw):
            if game is not None and game.score is None:
                raise _Bad("new game before the score line")
            self.game = _OpenGame(_bounded(m.group(1), "game number", 1, MAX_GAME_NUMBER), self.lineno)
            self.games += 1
            return game.done() if game is not None else None
        if game is None:  # preamble: headers and the match length
            if m := _HEADER.fullmatch(raw):
                if len(self.headers) >= self.MAX_HEADERS:
                    raise _Bad(f"more than {self.MAX_HEADERS} headers")
                self.headers[m.group(1)] = m.group(2)
            elif (m := _LENGTH.fullmatch(raw)) and self.length is None:
                self.length = _bounded(m.group(1), "match length", 0, MAX_LENGTH)
            elif _COMMENT.fullmatch(raw):  # a free comment (gnubg keeps it as the match comment)
                self.comments += 1
            else:
                raise _Bad("unexpected line before the first game")
        elif game.score is None:  # the line after "Game K"
            if not (m := _SCORE.fullmatch(raw)):
                raise _Bad("expected the score line")
            game.score = (int(m.group(2)), int(m.group(4)))
            game.names = (m.group(1).strip(), m.group(3).strip())
            game.split = m.start(3)
            if self.first_names is None:
                self.first_names = game.names
        elif len(game.actions) >= self.MAX_ACTIONS:
            raise _Bad(f"a game longer than {self.MAX_ACTIONS} actions")
        elif m := _NUMBERED.match(raw):
            anchor = m.end()
            again = re.search(_REPEATED.format(number=m.group(1)), raw[anchor:])
            if again is None:
                game.actions += _actions(" " * anchor + raw[anchor:], anchor, game.split, self.lineno)
            else:
                # " 24) 43: 21/18 18/14      24)  Losses 2 point ...": two lines; the second is
                # read as if its number stood where the first one's does
                cut = anchor + again.start()
                game.actions += _actions(" " * anchor + raw[anchor:cut], anchor, game.split, self.lineno)
                second = " " * m.start(1) + raw[cut:]
                anchor2 = m.start(1) + len(m.group(1)) + 1
                game.actions += _actions(" " * anchor2 + second[anchor2:], anchor2, game.split,
                                         self.lineno)
                game.notes.append(f"line {self.lineno}: two lines run together (move number "
                                  f"{m.group(1)} repeated); read as two")
        else:  # an unnumbered line may only hold a result
            found = _actions(raw, 0, game.split, self.lineno)
            if not all(isinstance(a, (Win, Loss)) for a in found):
                raise _Bad("unnumbered line that is not a result")
            game.actions += found
        return None


def starts_record(line: str) -> bool:
    """Whether ``line`` can only open a record (a ``; [Key "Value"]`` header or the length
    line): after a game, such a line starts the next record of an archive."""
    return bool(_HEADER.fullmatch(line) or _LENGTH.fullmatch(line))


def parse_match(text: str, source: str = "<string>") -> Match:
    """Parse the text of a ``.mat`` record; raise MatParseError on any line
    that is not understood (or if the text is empty or holds no game)."""
    lines = text.splitlines()
    if not text.strip():
        raise MatParseError(source, 1, "empty match record", lines[0] if lines else "")
    reader = MatReader(source)
    games = [g for raw in lines if (g := reader.line(raw)) is not None]
    games.append(reader.close())
    return Match(source, reader.length or 0, MappingProxyType(dict(reader.headers)), reader.players,
                 tuple(games), reader.notes())


def read_match(path: str | PathLike[str]) -> Match:
    """Read and parse a ``.mat`` file (UTF-8, falling back to latin-1);
    the match ``source`` is ``path`` as given."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_match(text, str(path))
