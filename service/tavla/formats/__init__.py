"""Match files: Jellyfish ``.mat`` (read by :mod:`tavla.formats.matreader`, written by
:mod:`tavla.formats.matwriter`) and GNU Backgammon ``.sgf`` (:mod:`tavla.formats.sgfreader`,
:mod:`tavla.formats.sgfwriter`), all on the one model of :mod:`tavla.formats.matreader`.
:func:`content` is a match without where it was read from, to compare round trips."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from tavla.formats.matreader import Match

__all__ = ["content"]


def content(match: Match) -> tuple[Any, ...]:
    """``match`` as plain values without its source, line numbers and notes: two readings of
    the same match (from different files or layouts) have equal contents."""

    def action(a: Any) -> tuple[Any, ...]:
        return (type(a).__name__,) + tuple(getattr(a, f.name) for f in fields(a) if f.name != "line")

    return (match.length, tuple(match.headers.items()), match.players,
            tuple((g.number, g.score, tuple(action(a) for a in g.actions)) for g in match.games))
