"""The referee's hand-written wire bytes are the protobuf library's: the signed
``GameState``, the ``GameView`` and an action's ``GameEvents``
(:mod:`tavla.server.convert.game_wire`) against the message builders of
:mod:`proto_oracles` serialized by protobuf, on every answer of whole random
matches: Turkish and international, money play with beavers and raccoons, doubles, drops,
resignations offered, accepted and rejected, and timed matches (both clock presets) whose clocks
run out.
"""

from __future__ import annotations

import itertools
import random
import types
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tavla.core import preset
from tavla.core.game import Phase
from tavla.core.match import clock
from tavla.core.match.dice_commit import DiceKey
from tavla.referee import Referee
from tavla.referee import referee as referee_module
from game_driver import SIGNER
from tavla.server.convert import game as cg
from tavla.v1 import game_pb2 as G
import proto_oracles as oracles



class _Clock:
    """The referee's time: each action takes a random 0-3 s, now and then 10 minutes, so a timed
    side sometimes runs out."""

    def __init__(self, rng: random.Random) -> None:
        self.now, self.rng = 1_800_000_000_000, rng

    def __call__(self) -> int:
        self.now += 600_000 if self.rng.random() < 0.002 else self.rng.randrange(0, 3_000)
        return self.now


def _choose(actions: list[G.GameAction], rng: random.Random) -> G.GameAction:
    """A random legal action with every kind a frontend sends, biased so games end."""
    kinds = {a.kind: a for a in actions}
    if G.ACTION_KIND_CLAIM_TIMEOUT in kinds:
        return kinds[G.ACTION_KIND_CLAIM_TIMEOUT]
    if G.ACTION_KIND_START_GAME in kinds:
        return kinds[G.ACTION_KIND_START_GAME]
    for kind in (G.ACTION_KIND_ACCEPT_RESIGNATION, G.ACTION_KIND_BEAVER, G.ACTION_KIND_RACCOON):
        if kind in kinds and rng.random() < 0.5:
            return kinds[kind]
    if G.ACTION_KIND_TAKE in kinds:
        return kinds[G.ACTION_KIND_DROP if rng.random() < 0.3 else G.ACTION_KIND_TAKE]
    if G.ACTION_KIND_REJECT_RESIGNATION in kinds:
        return kinds[G.ACTION_KIND_REJECT_RESIGNATION]
    if G.ACTION_KIND_DOUBLE in kinds and rng.random() < 0.1:
        return kinds[G.ACTION_KIND_DOUBLE]
    resigns = [a for a in actions if a.kind == G.ACTION_KIND_RESIGN]
    if resigns and rng.random() < 0.01:
        return rng.choice(resigns)
    if G.ACTION_KIND_ROLL in kinds:
        return kinds[G.ACTION_KIND_ROLL]
    if G.ACTION_KIND_CONFIRM_MOVE in kinds and rng.random() < 0.9:
        return kinds[G.ACTION_KIND_CONFIRM_MOVE]
    if G.ACTION_KIND_UNDO in kinds and rng.random() < 0.1:
        return kinds[G.ACTION_KIND_UNDO]
    moves = [a for a in actions if a.kind in (G.ACTION_KIND_STEP, G.ACTION_KIND_CONFIRM_MOVE)]
    return rng.choice(moves or actions)


def _checked(monkeypatch: pytest.MonkeyPatch, seen: dict[str, int], preset_name: str) -> None:
    """Each hand-written encoder, replaced by one that also builds the message and compares
    (a step's state and view, written from its turn's parts, against the whole messages of
    ``preset_name``'s states)."""

    def check(name: str, fast: Callable[..., bytes], reference: Callable[..., bytes]) -> None:
        def both(*args: Any) -> bytes:
            out = fast(*args)
            assert out == reference(*args), (name, args)
            seen[name] = seen.get(name, 0) + 1
            return out

        monkeypatch.setattr(cg, name, both)

    check("state_to_bytes", cg.state_to_bytes,
          lambda state, preset_name: oracles.state_to_proto(state, preset_name).SerializeToString(deterministic=True))
    check("view_bytes", cg.view_bytes, lambda *args: oracles.view_to_proto(*args).SerializeToString())
    check("events_bytes", cg.events_bytes, lambda t, records=(): oracles.events_to_proto(
        t, [G.ActionRecord.FromString(r) for r in records]).SerializeToString())
    check("step_state_bytes", cg.step_state_bytes,
          lambda parts, state: oracles.state_to_proto(state, preset_name).SerializeToString(deterministic=True))
    check("step_view_bytes", cg.step_view_bytes,
          lambda parts, state, analysis: oracles.view_to_proto(state, preset_name, analysis).SerializeToString())


MATCHES = (("turkish", 5, None), ("international", 7, None), ("money-beavers", 0, None),
           ("international", 3, clock.ClockPreset.RESERVE), ("international", 3, clock.ClockPreset.EXTENSIONS),
           # the variants: pinned checkers and Family IDs, 3 checkers, no backgammon kind
           ("plakoto", 3, None), ("long_nardy", 3, None), ("fevga", 3, None), ("hypergammon", 3, None),
           ("portes", 3, None))


@pytest.mark.parametrize("name,length,timed", MATCHES)
def test_the_written_bytes_are_the_librarys(monkeypatch: pytest.MonkeyPatch, name: str, length: int,
                                            timed: clock.ClockPreset | None) -> None:
    seen: dict[str, int] = {}
    _checked(monkeypatch, seen, "international" if length == 0 else name)
    rng = random.Random(f"{name}{length}{timed}")
    # the match ids' random suffix (a signing mode adds one) made up: the same dice every run
    counter = itertools.count()
    made_up = types.SimpleNamespace(token_hex=lambda n: f"{next(counter):0{2 * n}x}")
    monkeypatch.setattr(referee_module, "secrets", made_up)
    referee = Referee(SIGNER, DiceKey(b"d" * 32, shared=True),
                      clock=_Clock(rng))
    phases = set()
    for n in range(4):
        rules = replace(preset("international"), beavers=True) if name == "money-beavers" else preset(name)
        answer = referee.new_match(rules, "international" if length == 0 else name, length,
                                   None if timed is None else clock.PRESETS[timed], f"m{n}")
        for _ in range(1500):
            if not answer.actions:
                break
            assert answer.signed is not None
            phases.add(answer.state.phase)
            answer = referee.act(referee.open(answer.signed), cg.action_from_proto(_choose(answer.actions, rng)))
            assert answer.signed is not None
            referee.list_actions(referee.open(answer.signed))
        phases.add(answer.state.phase)  # the last one: MATCH_OVER when the match ended
    assert seen["state_to_bytes"] > 150 and seen["view_bytes"] > 150 and seen["events_bytes"] > 150, seen
    assert seen["step_state_bytes"] > 50 and seen["step_view_bytes"] > 50, seen  # every game has steps
    assert {Phase.MOVING, Phase.ROLL_OR_DOUBLE} <= phases
    # a game ends; under the reserve clock a timeout can end the match first (the dice differ per run)
    assert phases & {Phase.GAME_OVER, Phase.MATCH_OVER}, phases
