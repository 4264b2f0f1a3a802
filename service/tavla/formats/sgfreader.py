"""Reading GNU Backgammon ``.sgf`` match files (SGF FF[4], ``GM[6]`` backgammon) into the model
of :mod:`tavla.formats.matreader`.

One game tree ``(;root;node...)`` per game. The root holds ``MI[length:N][game:K][ws:A][bs:B]``,
``PW``/``PB`` (player 1 is white, player 2 black, as gnubg imports a ``.mat``), ``RE[W+2]``
(``R`` appended: resigned), ``RU[Crawford:Jacoby...]`` and match information (``DT``, ``EV``,
``RO``, ``PC``, ``AN``, ``GC``); a variation token of ``RU`` (``Nackgammon``, ``Hypergammon3``)
becomes the ``Variation`` header gnubg writes in a ``.mat`` (:mod:`tavla.formats.variation`).
Each later node is ``W[...]`` or ``B[...]``: ``double``,
``take``, ``drop``, or the dice then (from, to) letter pairs in the mover's numbering (``a`` =
point 1 for white, ``x`` = point 1 for black, ``y`` the bar, ``z`` off); ``PL[W]DI[63]`` is a
roll left unplayed (read as ``????``). Source: gnubg's ``sgf.c`` (read, not copied) and the
SGF FF[4] specification. Analysis properties are skipped. Plays come out step by step in the
``25/22 6/0`` dialect; the result is the game's last action, ``and the match`` when it reaches
the length.

:class:`SgfSplitter` cuts a byte stream into game trees so a reader holds one game at a time.
"""

from __future__ import annotations

import os

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import MappingProxyType

from tavla.formats import variation
from tavla.formats.matreader import (MAX_GAME_NUMBER, MAX_LENGTH, Action, Double, Drop, Game, Match, MatParseError,
                                     Roll, Take, Win, bounded)

__all__ = ["SgfGame", "SgfSplitter", "parse_sgf", "parse_tree", "read_sgf", "games_to_matches"]

_PROPERTY = re.compile(rb"\s*([A-Z]+)\s*")
_HEADER_LINE = re.compile(r'\[(.+?)\s+"(.*)"\]')
_DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
# SGF properties that stand for .mat headers (the writer maps them back)
PROPERTY_HEADERS = {"EV": "Event", "RO": "Round", "PC": "Site", "AN": "Transcriber"}


@dataclass
class SgfGame:
    """One game tree: the match facts of its root and the game itself."""

    length: int
    index: int  # MI game: 0-based
    players: tuple[str, str]
    headers: dict[str, str]
    game: Game
    rules: tuple[str, ...] = ()  # RU values: Crawford, CrawfordGame, Jacoby, ...
    resigned: bool = False
    notes: list[str] = field(default_factory=list)


class _Bad(Exception):
    pass


def _values(data: bytes, pos: int) -> tuple[list[str], int]:
    """The ``[...]`` values from ``pos``; returns them and the position after them."""
    values: list[str] = []
    while True:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if pos >= len(data) or data[pos:pos + 1] != b"[":
            return values, pos
        pos += 1
        out = bytearray()
        while True:
            if pos >= len(data):
                raise _Bad("a property value without its ']'")
            c = data[pos]
            if c == 0x5C:  # backslash: the next byte as is; a soft line break vanishes
                nxt = data[pos + 1:pos + 2]
                if nxt not in (b"\n", b"\r"):
                    out += nxt
                pos += 2
                continue
            if c == 0x5D:  # ]
                pos += 1
                break
            out.append(c)
            pos += 1
        try:
            values.append(out.decode("utf-8"))
        except UnicodeDecodeError:
            values.append(out.decode("latin-1"))


def _nodes(tree: bytes) -> list[list[tuple[str, list[str]]]]:
    """The nodes of one game tree (its main line; variations are not read)."""
    data = tree.strip()
    if not (data.startswith(b"(") and data.endswith(b")")):
        raise _Bad("a game tree is not in parentheses")
    pos, end = 1, len(data) - 1
    nodes: list[list[tuple[str, list[str]]]] = []
    while pos < end:
        c = data[pos:pos + 1]
        if c.isspace():
            pos += 1
        elif c == b";":
            nodes.append([])
            pos += 1
        elif c == b"(":
            raise _Bad("variations are not supported")
        elif m := _PROPERTY.match(data, pos):
            if not nodes:
                raise _Bad("a property before the first node")
            values, pos = _values(data, m.end())
            if not values:
                raise _Bad(f"property {m.group(1).decode()} without a value")
            nodes[-1].append((m.group(1).decode(), values))
        else:
            raise _Bad(f"unexpected {data[pos:pos + 10]!r}")
    if not nodes:
        raise _Bad("an empty game tree")
    return nodes


def _point(letter: str, player: int) -> int:
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    if not "a" <= letter <= "x":
        raise _Bad(f"bad point letter {letter!r}")
    return ord(letter) - ord("a") + 1 if player == 1 else ord("x") - ord(letter) + 1


def _move(value: str, player: int, line: int) -> Action:
    if not re.fullmatch(r"[1-6][1-6](?:[a-z][a-z]){0,4}", value):
        raise _Bad(f"bad move {value!r}")
    steps = [f"{_point(value[i], player)}/{_point(value[i + 1], player)}" for i in range(2, len(value), 2)]
    return Roll(player, line, (int(value[0]), int(value[1])), " ".join(steps))


def parse_tree(tree: bytes, number: int = 0, source: str = "<sgf>") -> SgfGame:
    """One game tree (bytes of ``(;...)``) of the record ``source``; ``number`` is the tree's
    index, used as the line of its actions when none is better. Raises :class:`MatParseError`
    (its line is the node)."""
    try:
        return _parse_tree(tree)
    except _Bad as err:
        raise MatParseError(source, number + 1, str(err), tree[:80].decode("latin-1")) from None


def _parse_tree(tree: bytes) -> SgfGame:
    nodes = _nodes(tree)
    root = dict(nodes[0])
    if root.get("GM", ["6"])[0] != "6":
        raise _Bad(f"not a backgammon record (GM[{root['GM'][0]}])")
    info = {k: v for k, v in (x.split(":", 1) for x in root.get("MI", []) if ":" in x)}
    try:  # gnubg writes MI[game:K] from 0
        length = bounded(info.get("length", "0") or "0", "MI length", 0, MAX_LENGTH)
        index = bounded(info.get("game", "0") or "0", "MI game", 0, MAX_GAME_NUMBER - 1)
    except ValueError as exc:
        raise _Bad(str(exc)) from None
    score = (int(info.get("ws", "0") or 0), int(info.get("bs", "0") or 0))
    players = (root.get("PW", [""])[0], root.get("PB", [""])[0])
    headers: dict[str, str] = {}
    comment: list[str] = []
    for text in root.get("GC", [""])[0].splitlines():
        if m := _HEADER_LINE.fullmatch(text.strip()):
            headers[m.group(1)] = m.group(2)
        elif text.strip():
            comment.append(text)
    for prop, key in PROPERTY_HEADERS.items():
        if prop in root and key not in headers:
            headers[key] = root[prop][0]
    if "DT" in root and "EventDate" not in headers and (m := _DATE.fullmatch(root["DT"][0])):
        headers["EventDate"] = ".".join(m.groups())
    if comment and "Comment" not in headers:
        headers["Comment"] = " ".join(comment)
    rules = tuple(root.get("RU", [""])[0].split(":")) if "RU" in root else ()
    for token in rules:  # gnubg's variation (RU[Crawford:Nackgammon]) as the .mat header it writes
        if (value := variation.header_of_rule(token)) is not None:
            headers.setdefault(variation.HEADER, value)
    actions: list[Action] = []
    for line, node in enumerate(nodes[1:], 2):
        props = dict(node)
        if "W" in props or "B" in props:
            player = 1 if "W" in props else 2
            value = props["W" if player == 1 else "B"][0]
            if value == "double":
                cube = 2 ** (1 + sum(isinstance(a, Double) for a in actions))
                actions.append(Double(player, line, cube))
            elif value == "take":
                actions.append(Take(player, line))
            elif value == "drop":
                actions.append(Drop(player, line))
            else:
                actions.append(_move(value, player, line))
        elif "DI" in props:  # dice set but not played: the game ended before the move
            player = 1 if props.get("PL", ["W"])[0] == "W" else 2
            dice = props["DI"][0]
            if not re.fullmatch(r"[1-6][1-6]", dice):
                raise _Bad(f"bad dice {dice!r}")
            actions.append(Roll(player, line, (int(dice[0]), int(dice[1])), "????"))
        elif {"AE", "AW", "AB"} & props.keys():
            raise _Bad("a set-up position is not supported")
    resigned = False
    if "RE" in root and (m := re.fullmatch(r"([WB])\+(\d+)(R?)", root["RE"][0])):
        winner, points, resigned = (1 if m.group(1) == "W" else 2), int(m.group(2)), bool(m.group(3))
        won = bool(length) and score[winner - 1] + points >= length
        actions.append(Win(winner, len(nodes) + 1, points, won))
    game = Game(index + 1, 1, score, tuple(actions))
    return SgfGame(length, index, players, headers, game, rules, resigned)


_BLANK = frozenset(b" \t\r\n\f\v")


class SgfSplitter:
    """Cuts a byte stream into game trees ``(;...)`` as their closing ``)`` arrives, holding at
    most ``max_tree`` bytes (a larger tree raises :class:`ValueError`)."""

    def __init__(self, max_tree: int = 8 << 20) -> None:
        self.max_tree = max_tree
        self.buffer = bytearray()
        self.depth = 0
        self.in_value = False
        self.escaped = False
        self.scanned = 0

    def feed(self, data: bytes) -> Iterator[bytes]:
        self.buffer += data
        start, i = 0, self.scanned
        while i < len(self.buffer):
            c = self.buffer[i]
            if self.in_value:
                if self.escaped:
                    self.escaped = False
                elif c == 0x5C:
                    self.escaped = True
                elif c == 0x5D:
                    self.in_value = False
            elif c == 0x5B:
                self.in_value = True
            elif c == 0x28:
                self.depth += 1
            elif c == 0x29:
                self.depth -= 1
                if self.depth == 0:
                    tree = bytes(self.buffer[start:i + 1])
                    start = i + 1
                    yield tree
            elif self.depth == 0 and i == start and c in _BLANK:  # between trees: not kept
                start = i + 1
            i += 1
        del self.buffer[:start]  # once per feed: each byte is moved at most once more
        self.scanned = i - start
        if len(self.buffer) > self.max_tree:
            raise ValueError(f"a game tree longer than {self.max_tree} bytes")

    def close(self) -> None:
        if self.buffer.strip():
            raise ValueError("the record ends inside a game tree")


def games_to_matches(games: list[SgfGame], source: str) -> list[Match]:
    """Group game trees into matches: a tree with ``game:0`` starts a new one."""
    matches: list[list[SgfGame]] = []
    for g in games:
        if g.index == 0 or not matches:
            matches.append([])
        matches[-1].append(g)
    return [Match(source, gs[0].length, MappingProxyType(dict(gs[0].headers)), gs[0].players,
                  tuple(g.game for g in gs)) for gs in matches]


def parse_sgf(data: bytes | str, source: str = "<sgf>") -> Match:
    """Parse an ``.sgf`` collection holding one match; raise :class:`MatParseError`."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    splitter = SgfSplitter()
    try:
        trees = list(splitter.feed(data))
        splitter.close()
    except ValueError as err:
        raise MatParseError(source, 1, str(err), "") from None
    if not trees:
        raise MatParseError(source, 1, "no game in match record", "")
    games = [parse_tree(tree, number, source) for number, tree in enumerate(trees)]
    matches = games_to_matches(games, source)
    if len(matches) != 1:
        raise MatParseError(source, 1, f"{len(matches)} matches in one record", "")
    return matches[0]


def read_sgf(path: str | os.PathLike[str]) -> Match:
    """Read and parse an ``.sgf`` file holding one match."""
    with open(path, "rb") as f:
        return parse_sgf(f.read(), str(path))
