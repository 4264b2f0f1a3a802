"""A referee match's record (the ``ActionRecord`` messages of Act's ``events.records``) to the
match-file model of :mod:`tavla.formats.matreader`, which :func:`tavla.formats.matwriter.write_match`
and :func:`tavla.formats.sgfwriter.write_sgf` write (ExportMatch, docs/match-files.md).

Entry by entry: START_GAME opens a game at the score so far (its dice are the starter's first
roll); ROLL gives the dice of the next play; CONFIRM_MOVE is a roll line with the play in the
mover's numbering (empty: no legal move, R7); DOUBLE, TAKE and DROP are themselves; BEAVER and
RACCOON, which the ``.mat`` format has no word for, are written as a take and a redouble by the
same side; an entry with an ``outcome`` ends the game with ``Wins N points`` (N its points, and
``and the match`` once the winner's score reaches the length, R18), except a draw (plakoto's two
pinned mothers), which the format has no word for: that game ends on its last play, without a
result line, and the next one starts at the same score. Resignations and time claims
show only through their outcome; a roll not yet played is left out. Player 1 is white (R1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from tavla.core import InvalidInputError
from tavla.core.game import GameState
from tavla.core.rules.variant import Variant
from tavla.formats import variation
from tavla.formats.matreader import MOVE_TOKEN, Action, Double, Drop, Game, Match, Roll, Take, Win
from tavla.server.convert import contract
from tavla.v1 import game_pb2, match_pb2, records_service_pb2
from tavla.v1 import types_pb2 as pb

__all__ = ["MAX_HEADERS", "SERVER_HEADERS", "file_name", "match_from_records"]

G = game_pb2
#: Headers ExportMatch writes itself, from the state: a request may not set them.
SERVER_HEADERS = ("Player 1", "Player 2", "Variation", "Ruleset", "Crawford", "CubeLimit", "Jacoby")
MAX_HEADERS = contract.declared(records_service_pb2.ExportMatchRequest, "headers").max_items
_PLAYERS: dict[int, int] = {pb.SIDE_WHITE: 1, pb.SIDE_BLACK: 2}
_NAME = re.compile(r"[^\x00-\x1f\x7f:\"\[\]]{1,40}")
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ]{0,31}")
_VALUE = re.compile(r"[^\x00-\x1f\x7f\"]{0,200}")


def player_name(name: str, default: str, field: str) -> str:
    """``name`` checked for a ``.mat`` score line (``default`` when empty).

    :raises InvalidInputError: on ``field``: over 40 characters, a ':', '"', '[', ']' or a
        control character, or a space at either end.
    """
    if not name:
        return default
    if not _NAME.fullmatch(name) or name != name.strip():
        raise InvalidInputError(field, "must be at most 40 characters, without ':', '\"', '[', ']' or control "
                                       "characters, and no space at either end")
    return name


def extra_headers(headers: Mapping[str, str], field: str = "headers") -> dict[str, str]:
    """The request's own headers, checked (sorted by key, so a map's order never shows).

    :raises InvalidInputError: more than :data:`MAX_HEADERS`, a bad key or value, or a key the
        server writes itself (:data:`SERVER_HEADERS`).
    """
    if len(headers) > MAX_HEADERS:
        raise InvalidInputError(field, f"at most {MAX_HEADERS} headers, not {len(headers)}")
    for key, value in headers.items():
        if not _KEY.fullmatch(key):
            raise InvalidInputError(f"{field}[{key[:40]!r}]", "a key is 1-32 letters, digits and spaces")
        if key in SERVER_HEADERS:
            raise InvalidInputError(f"{field}[{key!r}]", "is written by the server from the state: "
                                                         f"{', '.join(SERVER_HEADERS)} cannot be given")
        if not _VALUE.fullmatch(value):
            raise InvalidInputError(f"{field}[{key!r}]", "a value is at most 200 characters, without '\"' "
                                                         "or control characters")
    return {key: headers[key] for key in sorted(headers)}


def _rule_headers(state: GameState, preset: str, players: tuple[str, str]) -> dict[str, str]:
    rules, length = state.ruleset, state.match.length
    headers = {"Player 1": players[0], "Player 2": players[1],
               "Variation": variation.header_written(rules.variant), "Ruleset": preset}
    if length:
        headers["Crawford"] = "On" if rules.crawford else "Off"
    if rules.cube:
        headers["CubeLimit"] = str(rules.cube_limit)
        if not length:
            headers["Jacoby"] = "On" if rules.jacoby else "Off"
    return headers


def _player(side: int, field: str) -> int:
    if side not in _PLAYERS:
        raise InvalidInputError(field, "must be SIDE_WHITE or SIDE_BLACK for this kind of entry")
    return _PLAYERS[side]


def match_from_records(records: Sequence[game_pb2.ActionRecord], state: GameState, preset: str,
                       players: tuple[str, str], headers: Mapping[str, str] | None = None,
                       field: str = "records") -> Match:
    """The match ``records`` played, as a :class:`~tavla.formats.matreader.Match` (every game,
    the one in play included), headed by the state's rules (``Player 1``, ``Player 2``,
    ``Variation``, ``Ruleset``, ``Crawford`` for a match, ``CubeLimit`` and, in money play,
    ``Jacoby``) then ``headers``.

    ``records`` should already be checked against ``state``'s record digest; this checks only
    what the file needs, so an unsigned record made up by hand cannot break its layout.

    :raises InvalidInputError: on ``records[i]``: an entry before the first START_GAME, a side
        that is not white or black, dice that are not two of 1-6, a move without a roll, a play
        the ``.mat`` format cannot hold, or an outcome paying no points.
    """
    length = state.match.length
    variant = state.ruleset.variant_class
    games: list[Game] = []
    score = [0, 0]
    start = (0, 0)  # the score before the game in play
    actions: list[Action] | None = None
    dice: tuple[int, int] | None = None
    for i, entry in enumerate(records):
        where = f"{field}[{i}]"
        kind = entry.kind
        if kind == G.ACTION_KIND_START_GAME:
            if actions is not None:
                games.append(Game(len(games) + 1, 0, start, tuple(actions)))
            start, actions, dice = (score[0], score[1]), [], _dice(entry, where)
        elif actions is None:
            raise InvalidInputError(where, "an entry before the first START_GAME: give the match's whole record")
        elif kind == G.ACTION_KIND_ROLL:
            dice = _dice(entry, where)
        elif kind == G.ACTION_KIND_CONFIRM_MOVE:
            player = _player(entry.side, f"{where}.side")
            if dice is None:  # the same turn's next throw (gul bara's cascade) has no ROLL entry
                dice = _next_throw(actions, player, variant)
            if dice is None:
                raise InvalidInputError(where, "a move without a roll before it")
            play = " ".join(entry.notation.split())
            if len(play) > 120 or not all(MOVE_TOKEN.fullmatch(t) for t in play.split()):  # as the reader reads it
                raise InvalidInputError(f"{where}.notation", f"{entry.notation[:40]!r} is not a play in standard "
                                                             "notation")
            actions.append(Roll(player, 0, dice, play))
            dice = None
        elif kind == G.ACTION_KIND_DOUBLE:
            actions.append(Double(_player(entry.side, f"{where}.side"), 0, entry.cube_value))
        elif kind == G.ACTION_KIND_TAKE:
            actions.append(Take(_player(entry.side, f"{where}.side"), 0))
        elif kind == G.ACTION_KIND_DROP:
            actions.append(Drop(_player(entry.side, f"{where}.side"), 0))
        elif kind in (G.ACTION_KIND_BEAVER, G.ACTION_KIND_RACCOON):
            player = _player(entry.side, f"{where}.side")
            actions += [Take(player, 0), Double(player, 0, entry.cube_value)]
        if entry.HasField("outcome"):
            outcome = entry.outcome
            if outcome.ending == match_pb2.GAME_ENDING_DRAW and outcome.winner == pb.SIDE_UNSPECIFIED:
                dice = None  # plakoto's two pinned mothers: no result line, the next game replays it
                continue
            winner = _player(outcome.winner, f"{where}.outcome.winner")
            if outcome.points < 1:
                raise InvalidInputError(f"{where}.outcome.points", "a finished game pays at least 1 point")
            before = score[winner - 1]
            score[winner - 1] = min(length, before + outcome.points) if length else before + outcome.points
            actions.append(Win(winner, 0, outcome.points, bool(length) and score[winner - 1] >= length))
            dice = None
    if actions is not None:
        games.append(Game(len(games) + 1, 0, start, tuple(actions)))
    header_map = _rule_headers(state, preset, players) | dict(headers or {})
    return Match("<export>", length, MappingProxyType(header_map), players, tuple(games))


def _next_throw(actions: Sequence[Action], player: int, variant: type[Variant]) -> tuple[int, int] | None:
    """The dice of a throw that goes on the same turn (gul bara's cascade of doubles): the
    variant's next throw after ``player``'s last play, when that play is the game's last action,
    counting the game's turns as the game machine does (a throw that goes on is the same turn)."""
    last = actions[-1] if actions else None
    if not isinstance(last, Roll) or last.player != player:
        return None
    rolls = [a for a in actions if isinstance(a, Roll)]
    turns = sum(1 for i, r in enumerate(rolls) if i == 0 or r.player != rolls[i - 1].player)
    return variant.next_throw(last.dice, turns)


def _dice(entry: game_pb2.ActionRecord, field: str) -> tuple[int, int]:
    if len(entry.dice) != 2 or not all(1 <= d <= 6 for d in entry.dice):
        raise InvalidInputError(f"{field}.dice", f"must be two dice 1-6, not {list(entry.dice)[:4]}")
    return entry.dice[0], entry.dice[1]


def file_name(match_id: str, extension: str) -> str:
    """``tavla-<match id>.<extension>``, the id's characters other than letters, digits, '.',
    '_' and '-' replaced by '-' (a referee id may hold ':' and '~')."""
    return f"tavla-{re.sub(r'[^A-Za-z0-9._-]', '-', match_id) or 'match'}.{extension}"
