"""Writing a match as a GNU Backgammon ``.sgf`` collection (SGF FF[4], ``GM[6]``), the dialect
:mod:`tavla.formats.sgfreader` reads and gnubg loads (``load match``).

Each play is resolved by the rules core (:func:`tavla.core.resolve`) into its single-die steps,
written as letter pairs in the mover's numbering; so only legal plays can be written. All the
record's headers go, in order, into the game comment ``GC`` as ``[Key "Value"]`` lines (where
gnubg keeps the ``.mat`` headers it has no property for), and the ones gnubg knows also into
``PC``, ``EV``, ``RO``, ``AN`` and ``DT``. A ``Losses`` line has no SGF form: a game without a
bear-off or a drop ends with ``RE[..R]`` (resigned). Source: gnubg's ``sgf.c`` (read, not
copied) and the SGF FF[4] specification.
"""

from __future__ import annotations

from collections.abc import Iterator

from tavla.core import Position, Side, find_variant, resolve
from tavla.core.rules import notation
from tavla.core.errors import TavlaError
from tavla.formats import variation
from tavla.formats.sgfreader import PROPERTY_HEADERS
from tavla.formats.match_rules import MatchRules
from tavla.formats.turns import Turns
from tavla.formats.matreader import Double, Drop, Game, Loss, Match, Roll, Take, Win

__all__ = ["SgfWriteError", "game_steps", "write_sgf"]

_KNOWN = {key: prop for prop, key in PROPERTY_HEADERS.items()}  # header -> property


class SgfWriteError(ValueError):
    """A play the rules core does not accept cannot be written as steps."""


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _letter(point: int, player: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 1 else chr(ord("x") - point + 1)


def game_steps(game: Game, source: str = "",
               variant: str = "backgammon") -> Iterator[tuple[Roll, tuple[tuple[int, int], ...], bool]]:
    """Each roll of ``game`` with its steps ((from, to), mover's numbering, 25 bar, 0 off) and
    whether it ends the game by a bear-off; ``????`` rolls have no steps. ``variant``: the
    record's (:func:`tavla.formats.variation.variant_of_headers`), from its own start. A turn
    that goes on (:meth:`~tavla.core.rules.variant.Variant.next_throw`) is the same player's
    next roll with the dice the variant gives.

    :raises SgfWriteError: a play the core does not accept (its line).
    """
    first = next((a for a in game.actions if isinstance(a, (Roll, Double))), None)
    rules = find_variant(variant)
    position = Position.initial(Side.BLACK if first is not None and first.player == 2 else Side.WHITE, rules)
    turns = Turns(rules)
    for action in game.actions:
        if not isinstance(action, Roll):
            continue
        if turns.roll(action.player, action.dice):
            position = position.swap_turn()  # the mover moves again
        if action.play == "????":
            yield action, (), False
            continue
        try:
            move = resolve(position, action.dice, notation.parse(action.play))
        except TavlaError as exc:
            raise SgfWriteError(f"{source}:{action.line}: {action.play or 'Cannot Move'}: {exc}") from None
        position = move.result
        turns.played(action.player, action.dice, move.dice_used, position.winner is not None)
        yield action, tuple((s[0], s[1]) for s in move.steps), position.winner is not None


def _root(match: Match, game: Game, index: int, rules: str, result: str) -> str:
    parts = [f"(;FF[4]GM[6]CA[UTF-8]AP[tavla-engine]MI[length:{match.length}][game:{index}]"
             f"[ws:{game.score[0]}][bs:{game.score[1]}]",
             f"PW[{_escape(match.players[0])}]PB[{_escape(match.players[1])}]"]
    if index == 0:
        for key, prop in _KNOWN.items():
            if key in match.headers:
                parts.append(f"{prop}[{_escape(match.headers[key])}]")
        date = match.headers.get("EventDate", "")
        if len(date) == 10 and date[4] == date[7] == ".":
            parts.append(f"DT[{date.replace('.', '-')}]")
    if match.headers:
        lines = "\n".join(f'[{key} "{value}"]' for key, value in match.headers.items())
        parts.append(f"GC[{_escape(lines)}]")
    if rules:
        parts.append(f"RU[{rules}]")
    parts.append(result)
    return "".join(parts)


def write_sgf(match: Match) -> str:
    """``match`` as an SGF collection, one game tree per game.

    :raises SgfWriteError: a play the rules core does not accept.
    """
    crawford = MatchRules.of(match).crawford and match.length > 0
    jacoby = match.headers.get("Jacoby", "").strip().lower() == "on" and match.length == 0
    variant = MatchRules.of(match).variant
    token = variation.rule_for(variant)  # gnubg's RU[...:Nackgammon]
    rules = ":".join([r for r, on in (("Crawford", crawford), ("Jacoby", jacoby)) if on] + ([token] if token else []))
    trees = []
    for index, game in enumerate(match.games):
        nodes: list[str] = []
        borne_off = dropped = False
        steps = game_steps(game, match.source, variant)
        win: Win | None = None
        for action in game.actions:
            side = "W" if action.player == 1 else "B"
            if isinstance(action, Roll):
                _, moved, over = next(steps)
                borne_off = borne_off or over
                dice = f"{action.dice[0]}{action.dice[1]}"
                if action.play == "????":
                    nodes.append(f";PL[{side}]DI[{dice}]")
                else:
                    nodes.append(f";{side}[{dice}" + "".join(_letter(f, action.player) + _letter(t, action.player)
                                                        for f, t in moved) + "]")
            elif isinstance(action, Double):
                nodes.append(f";{side}[double]")
            elif isinstance(action, Take):
                nodes.append(f";{side}[take]")
            elif isinstance(action, Drop):
                dropped = True
                nodes.append(f";{side}[drop]")
            elif isinstance(action, Win):
                win = action
            else:
                assert isinstance(action, Loss)  # implied by RE[..R]
        result = ""
        if win is not None:
            resigned = "" if borne_off or dropped else "R"
            result = f"RE[{'W' if win.player == 1 else 'B'}+{win.points}{resigned}]"
        trees.append(_root(match, game, index, rules, result) + "\n" + "\n".join(nodes) + ")\n")
    return "".join(trees)
