"""Validating match records as a stream: bytes of ``.mat`` or ``.sgf`` (cut anywhere) or
recorded events go in; a :class:`GameVerdict` comes out as each game completes and a
:class:`RecordVerdict` as each record ends. Memory is one game plus one unfinished line (at
most ``max_line`` bytes) or one SGF game tree (at most ``max_tree`` bytes), whatever the size of
the archive: several ``.mat`` records may follow each other (a header or length line after a
game starts the next), and an SGF tree with ``MI[game:0]`` starts a new match.

A line not understood makes its record unreadable (a verdict with the error); the validator
then skips to the next record. This module is what the ValidateMatch RPC and
``tavla-engine replay`` run (no gRPC here).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tavla.formats.sgfreader import SgfSplitter, parse_tree
from tavla.replay.driver import MODES, Engine, GameResult, Replayer, Report
from tavla.formats.matreader import Action, Game, MatParseError, MatReader, starts_record

__all__ = ["FORMATS", "GameVerdict", "RecordVerdict", "StreamValidator", "validate_bytes"]

FORMATS = ("auto", "mat", "sgf")
MAX_LINE = 64 << 10
MAX_TREE = 8 << 20


@dataclass
class GameVerdict:
    """The verdict on one game of record ``record`` (0-based in the stream)."""

    record: int
    source: str
    result: GameResult


@dataclass
class RecordVerdict:
    """The verdict on a record: its report, or ``error`` when a line was not understood."""

    record: int
    source: str
    report: Report | None
    error: str = ""

    @property
    def readable(self) -> bool:
        return not self.error


Verdict = GameVerdict | RecordVerdict


@dataclass
class _Record:
    """The record being read from events."""

    length: int
    players: tuple[str, str]
    headers: dict[str, str]
    game: tuple[int, tuple[int, int], int] | None = None  # number, score, line
    actions: list[Action] = field(default_factory=list)


class StreamValidator:
    """Feed bytes with :meth:`feed` (or events with :meth:`event`), then :meth:`close`; each
    returns the verdicts that became known.

    :param fmt: ``auto`` (sniffed: ``(`` starts SGF), ``mat`` or ``sgf``.
    :param mode: the rules, one of :data:`tavla.replay.driver.MODES`.
    :raises ValueError: an unknown ``fmt`` or ``mode``.
    """

    def __init__(self, engine: Engine, source: str = "<stream>", fmt: str = "auto", mode: str = "auto",
                 max_line: int = MAX_LINE, max_tree: int = MAX_TREE) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {FORMATS}, not {fmt!r}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.engine, self.source, self.fmt, self.mode = engine, source, fmt, mode
        self.max_line, self.max_tree = max_line, max_tree
        self.record = 0
        self.pending = bytearray()
        self.blank_over = False  # auto: the blank line so far was longer than max_line
        self.copied = 0  # bytes copied into or within the buffers: linear in the bytes fed
        self.lineno = 0
        self.reader: MatReader | None = None
        self.replayer: Replayer | None = None
        self.skipping = False
        self.seen = False  # any record started
        self.splitter: SgfSplitter | None = None
        self.trees = 0
        self.events: _Record | None = None
        self.event_count = 0

    # --- bytes ---------------------------------------------------------------------------

    def buffered(self) -> int:
        """Bytes held for a line or a game tree not complete yet."""
        return len(self.pending) + (len(self.splitter.buffer) if self.splitter is not None else 0)

    def feed(self, data: bytes) -> list[Verdict]:
        out: list[Verdict] = []
        if self.fmt == "auto":
            if not data.strip():  # blank so far: keep the line count, and the last line's blanks
                self._blank(data)  # up to a line's length: never all of them, never a copy of all
                return out
            self.fmt = "sgf" if data.lstrip().startswith(b"(") else "mat"
            if self.fmt == "mat" and self.blank_over:
                self._too_long(out)
            elif self.pending:
                self.copied += len(self.pending)
                data = bytes(self.pending) + data
            self.pending = bytearray()
        if self.fmt == "sgf":
            self._sgf(data, out)
            return out
        scan = len(self.pending)  # the bytes before have no newline: never scanned twice
        self.pending += data
        self.copied += len(data)
        start = 0
        while (end := self.pending.find(b"\n", scan)) >= 0:
            self._mat_line(bytes(self.pending[start:end]), out)
            start = scan = end + 1
        if start:
            self.copied += len(self.pending) - start
            del self.pending[:start]
        if len(self.pending) > self.max_line:
            self._too_long(out)
        return out

    def _blank(self, data: bytes) -> None:
        self.lineno += data.count(b"\n")
        cut = data.rfind(b"\n")
        if cut >= 0:
            self.pending.clear()
            self.blank_over = False
            data = data[cut + 1:]
        room = self.max_line + 1 - len(self.pending)
        if len(data) > room:
            self.blank_over = True
            data = data[:max(room, 0)]
        self.pending += data
        self.copied += len(data)

    def _too_long(self, out: list[Verdict]) -> None:
        self.pending.clear()
        self.blank_over = False
        self.lineno += 1
        self._unreadable(MatParseError(self.source, self.lineno, f"a line longer than {self.max_line} bytes", ""), out)

    def close(self) -> list[Verdict]:
        out: list[Verdict] = []
        if self.events is not None:  # events, whatever the format said
            self._end_events(out)
        elif self.fmt == "sgf":
            if self.splitter is not None:
                try:
                    self.splitter.close()
                except ValueError as exc:
                    self._unreadable(MatParseError(self.source, self.trees + 1, str(exc), ""), out)
            self._end_record(out)
        else:
            if self.pending:
                self._mat_line(bytes(self.pending), out)
                self.pending.clear()
            if not self.skipping:
                self._end_record(out)
        if not self.seen and not out:
            out.append(RecordVerdict(self.record, self.source, None,
                                     f"{self.source}:1: empty match record: "))
        return out

    def _mat_line(self, data: bytes, out: list[Verdict]) -> None:
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            raw = data.decode("latin-1")
        raw = raw.rstrip("\r").lstrip("\ufeff")
        self.lineno += 1
        boundary = starts_record(raw)
        if self.skipping:
            if not boundary:
                return
            self.skipping = False
        if boundary and self.reader is not None and self.reader.games:
            self._end_record(out)
        if self.reader is None:
            if not raw.strip():
                return
            self.reader = MatReader(self.source)
            self.reader.lineno = self.lineno - 1
            self.seen = True
        try:
            game = self.reader.line(raw)
        except MatParseError as err:
            self._unreadable(err, out)
            return
        if game is not None:
            self._game(game, out)

    def _game(self, game: Game, out: list[Verdict]) -> None:
        if self.replayer is None:
            reader = self.reader
            assert reader is not None
            self.replayer = Replayer(self.source, reader.length or 0, reader.headers, self.engine,
                                     self.mode, notes=reader.notes())
        out.append(GameVerdict(self.record, self.source, self.replayer.game(game)))

    def _end_record(self, out: list[Verdict]) -> None:
        if self.fmt == "sgf":
            if self.replayer is not None:
                self._verdict(out, self.replayer.finish())
            self.replayer = None
            return
        if self.reader is None:
            return
        try:
            last = self.reader.close()
        except MatParseError as err:
            self._unreadable(err, out)
            return
        self._game(last, out)
        assert self.replayer is not None
        self._verdict(out, self.replayer.finish())
        self.reader, self.replayer = None, None

    def _verdict(self, out: list[Verdict], report: Report | None, error: str = "") -> None:
        """The verdict on the current record; the next one starts."""
        out.append(RecordVerdict(self.record, self.source, report, error))
        self.record += 1

    def _unreadable(self, err: MatParseError, out: list[Verdict]) -> None:
        self._verdict(out, None, str(err))
        self.reader, self.replayer = None, None
        self.skipping = self.fmt == "mat"
        self.seen = True

    def _sgf(self, data: bytes, out: list[Verdict]) -> None:
        if self.splitter is None:
            self.splitter = SgfSplitter(self.max_tree)
        try:
            for tree in self.splitter.feed(data):
                self.trees += 1
                self.seen = True
                try:
                    sgf = parse_tree(tree, self.trees - 1, self.source)
                except MatParseError as err:
                    self._unreadable(err, out)
                    continue
                if sgf.index == 0 or self.replayer is None:
                    self._end_record(out)
                    self.replayer = Replayer(self.source, sgf.length, sgf.headers, self.engine, self.mode)
                out.append(GameVerdict(self.record, self.source, self.replayer.game(sgf.game)))
        except ValueError as exc:
            self.splitter = SgfSplitter(self.max_tree)
            self._unreadable(MatParseError(self.source, self.trees + 1, str(exc), ""), out)

    # --- events --------------------------------------------------------------------------

    def start_record(self, length: int, players: tuple[str, str], headers: dict[str, str]) -> list[Verdict]:
        """A new record sent as events (ends the one before)."""
        out: list[Verdict] = []
        self._end_events(out)
        self.events = _Record(length, players, dict(headers))
        self.seen = True
        return out

    def start_game(self, number: int, score: tuple[int, int]) -> list[Verdict]:
        out: list[Verdict] = []
        record = self._need_record()
        self._end_game(out)
        self.event_count += 1
        record.game = (number, score, self.event_count)
        return out

    def action(self, make: Any) -> list[Verdict]:
        """``make(line)`` builds the action with its line (the event's number in the stream)."""
        record = self._need_record()
        if record.game is None:
            raise ValueError("a play before the first game")
        if len(record.actions) >= MatReader.MAX_ACTIONS:
            raise ValueError(f"a game longer than {MatReader.MAX_ACTIONS} actions")
        self.event_count += 1
        record.actions.append(make(self.event_count))
        return []

    def _need_record(self) -> _Record:
        if self.events is None:
            raise ValueError("an event before the record starts")
        return self.events

    def _end_game(self, out: list[Verdict]) -> None:
        record = self.events
        if record is None or record.game is None:
            return
        number, score, line = record.game
        if self.replayer is None:
            self.replayer = Replayer(self.source, record.length, record.headers, self.engine, self.mode)
        game = Game(number, line, score, tuple(record.actions))
        out.append(GameVerdict(self.record, self.source, self.replayer.game(game)))
        record.game, record.actions = None, []

    def _end_events(self, out: list[Verdict]) -> None:
        if self.events is None:
            return
        self._end_game(out)
        if self.replayer is not None:
            self._verdict(out, self.replayer.finish())
        else:
            self._verdict(out, None, f"{self.source}:{self.event_count}: no game in match record: ")
        self.events, self.replayer = None, None


def validate_bytes(chunks: Iterable[bytes], engine: Engine, source: str = "<stream>", fmt: str = "auto",
                   mode: str = "auto") -> Iterator[Verdict]:
    """Every verdict of the records in ``chunks``, as they become known."""
    validator = StreamValidator(engine, source, fmt, mode)
    for chunk in chunks:
        yield from validator.feed(chunk)
    yield from validator.close()
