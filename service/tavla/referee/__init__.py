"""The referee layer: a match played over one compact signed state, with no gRPC: open, act,
seal (:mod:`tavla.referee.referee`), and the signing of states (:mod:`tavla.referee.keys`);
docs/game-state.md, docs/security.md."""

from tavla.referee.referee import Answer, Opened, Referee, now_ms

__all__ = ["Answer", "Opened", "Referee", "now_ms"]
