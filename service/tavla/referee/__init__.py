"""The referee layer: a match played over one compact signed state, with no gRPC
(:mod:`tavla.referee.referee`; docs/game-state.md)."""

from tavla.referee.referee import Answer, Opened, Referee, now_ms

__all__ = ["Answer", "Opened", "Referee", "now_ms"]
