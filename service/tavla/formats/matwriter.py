"""Writing a match as Jellyfish ``.mat`` text, the layout :mod:`tavla.formats.matreader` reads
(and GNU Backgammon's ``import mat``): headers, the length line, and per game a score line and
numbered move lines with player 1 on the left and player 2 from column :data:`RIGHT`.

``dialect`` rewrites plays: ``jellyfish`` writes ``bar/22``, ``6/off`` and ``24/18(2)``;
``galaxy`` (BackgammonGalaxy) writes ``25/22``, ``6/0`` and repeats moves out; ``None`` keeps
each play as recorded. Source: the Jellyfish match format as exported by Jellyfish, gnubg
(``export match mat``) and BackgammonGalaxy (tests/data/matches).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tavla.formats.matreader import Action, Double, Drop, Game, Loss, Match, Roll, Take, Win

__all__ = ["DIALECTS", "RIGHT", "convert_play", "write_game", "write_match"]

RIGHT = 34  # column where player 2's actions (and name) start
DIALECTS = ("jellyfish", "galaxy")
_REPEAT = re.compile(r"(\S+?)\((\d)\)")


def convert_play(play: str, dialect: str | None) -> str:
    """``play`` in ``dialect`` (see the module doc); ``""`` and ``????`` stay as they are."""
    if dialect is None or play in ("", "????"):
        return play
    if dialect not in DIALECTS:
        raise ValueError(f"dialect must be one of {DIALECTS} or None, not {dialect!r}")
    words = []
    for word in play.split():
        if dialect == "galaxy":
            word = re.sub(r"^bar/", "25/", word)
            word = re.sub(r"/off(?=\(|$)", "/0", word)
            if m := _REPEAT.fullmatch(word):
                words += [m.group(1)] * int(m.group(2))
                continue
        else:
            word = re.sub(r"^25/", "bar/", word)
            word = re.sub(r"/0(?=\(|$)", "/off", word)
        words.append(word)
    return " ".join(words)


def _text(action: Action, dialect: str | None) -> str:
    if isinstance(action, Roll):
        play = convert_play(action.play, dialect)
        return f"{action.dice[0]}{action.dice[1]}: {play}".rstrip()
    if isinstance(action, Double):
        return f"Doubles => {action.value}"
    if isinstance(action, Take):
        return "Takes"
    if isinstance(action, Drop):
        return "Drops"
    if isinstance(action, Loss):
        return f"Losses {action.points} point{'s' if action.points != 1 else ''}"
    assert isinstance(action, Win)
    return (f"Wins {action.points} point{'s' if action.points != 1 else ''}"
            + (" and the match" if action.match_won else ""))


def _columns(left: str, right: str, prefix: str) -> str:
    line = prefix + left
    if right:
        line = line.ljust(RIGHT - 2) + "  "  # two spaces at least: the columns never touch
        line = line.ljust(RIGHT) + right
    return line.rstrip()


def write_game(game: Game, players: tuple[str, str], dialect: str | None = None) -> Iterator[str]:
    """The lines of one game (no line endings)."""
    yield f" Game {game.number}"
    yield _columns(f"{players[0]} : {game.score[0]}".lstrip(),
                   f"{players[1]} : {game.score[1]}".lstrip(), " ")
    slots: list[str] = ["", ""]
    number = 0

    def flush() -> Iterator[str]:
        nonlocal number
        if slots[0] or slots[1]:
            number += 1
            yield _columns(slots[0], slots[1], f"{number:3d}) ")
            slots[:] = ["", ""]

    for action in game.actions:
        side = action.player - 1
        # a result shares the line of a drop, as the sites write it: gnubg reads a result on a
        # line of its own after a drop as a resignation
        if slots[1] or (side == 0 and slots[0]):
            yield from flush()
        # an empty play keeps its colon, so the slot is never blank
        slots[side] = _text(action, dialect)
    yield from flush()


def write_match(match: Match, dialect: str | None = None) -> str:
    """``match`` as ``.mat`` text (``\\n`` line endings); money play (length 0) is written as
    ``0 point match``, as gnubg does."""
    lines = [f'; [{key} "{value}"]' for key, value in match.headers.items()]
    if lines:
        lines.append("")
    lines += [f" {match.length} point match", ""]
    for game in match.games:
        lines += list(write_game(game, match.players, dialect))
        lines.append("")
    return "\n".join(lines) + "\n"
