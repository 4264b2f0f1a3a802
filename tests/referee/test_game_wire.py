"""The referee's hand-written wire bytes are the protobuf library's: the signed
``GameState``, the ``GameView``, an answer's ``GameAction`` entries, an action's ``GameEvents``
and the ``ActResponse`` around them
(:mod:`tavla.server.convert.game_wire`, and the compiled writers of service/accel/src/game.rs) against the message builders of
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
from tavla.core.game import Action
from tavla.server.convert import answers
from tavla.server.convert import game as cg
from tavla.server.convert import game_wire as gw
from tavla.server.convert import wire
from tavla.v1 import game_pb2 as G
from tavla.v1 import referee_service_pb2 as api
import proto_oracles as oracles

try:
    import tavla_accel
except ImportError:  # pragma: no cover - without the extension the compiled half skips
    tavla_accel = None



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


def _checked(monkeypatch: pytest.MonkeyPatch, seen: dict[str, int]) -> None:
    """Each writer, replaced by one that also builds the message and compares."""

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
    def record(r: Any, points: int = 0) -> bytes:
        for part in ("roll_off", "steps", "elapsed_ms", "resign_kind", "outcome"):  # which optional parts ran
            if getattr(r, part):
                seen[f"record {part}"] = seen.get(f"record {part}", 0) + 1
        return bytes(oracles.record_to_proto(r, points).SerializeToString(deterministic=True))

    check("record_bytes", cg.record_bytes, record)
    check("actions_fields", cg.actions_fields, lambda key, legal: b"".join(
        gw.field(key, cg.action_to_proto(a).SerializeToString()) for a in legal))

    def act_response(state: bytes, key_id: str, signature: bytes, view: bytes, events: bytes,
                     legal: tuple[Action, ...]) -> bytes:
        return bytes(api.ActResponse(
            state=G.SignedGameState(state=state, key_id=key_id, signature=signature),
            view=G.GameView.FromString(view), events=G.GameEvents.FromString(events),
            actions=[cg.action_to_proto(a) for a in legal]).SerializeToString())

    written = answers.act_response

    def act_both(*args: Any) -> bytes:
        out = written(*args)
        assert out == act_response(*args), args
        seen["act_response"] = seen.get("act_response", 0) + 1
        return out

    monkeypatch.setattr(answers, "act_response", act_both)


def _refused(name: str, writer: Callable[..., bytes]) -> Callable[..., bytes]:
    """``writer``, failing the test where it refuses its arguments (and the Python writer would
    answer in its place unseen)."""

    def strict(*args: Any) -> bytes:
        try:
            return writer(*args)
        except (ValueError, TypeError, OverflowError) as exc:  # pragma: no cover - a failure
            pytest.fail(f"the compiled {name} writer refused {args!r}: {exc}")

    return strict


@pytest.fixture(params=["python", "compiled"])
def writers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The Python writers (``TAVLA_ACCEL=0``), or the compiled ones, which must not refuse any
    state, view or answer of a match (the Python writers would hide it)."""
    if request.param == "python":
        monkeypatch.setattr(gw, "compiled", None)
    else:
        if tavla_accel is None:  # pragma: no cover - the accelerator's tests fail loudly without it
            pytest.skip("tavla_accel is not built")
        monkeypatch.setattr(wire, "_compiled_position", None)  # the oracle's positions: the Python writer's
        monkeypatch.setattr(gw, "compiled", gw.Compiled(
            _refused("state", tavla_accel.game_state_bytes), _refused("view", tavla_accel.game_view_bytes),
            _refused("actions", tavla_accel.game_actions_bytes), _refused("act", tavla_accel.act_response_bytes)))
    return str(request.param)


MATCHES = (("turkish", 5, None), ("international", 7, None), ("money-beavers", 0, None),
           ("international", 3, clock.ClockPreset.RESERVE), ("international", 3, clock.ClockPreset.EXTENSIONS),
           # the variants: pinned checkers and Family IDs, 3 checkers, no backgammon kind
           ("plakoto", 3, None), ("long_nardy", 3, None), ("fevga", 3, None), ("hypergammon", 3, None),
           ("portes", 3, None))


@pytest.mark.parametrize("name,length,timed", MATCHES)
def test_the_written_bytes_are_the_librarys(monkeypatch: pytest.MonkeyPatch, writers: str, name: str, length: int,
                                            timed: clock.ClockPreset | None) -> None:
    seen: dict[str, int] = {}
    _checked(monkeypatch, seen)
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
            answers.act_response(answer.signed.state, answer.signed.key_id, answer.signed.signature,
                                 answer.view_bytes, answer.events_bytes or b"", answer.legal)
            listed = referee.list_actions(referee.open(answer.signed))
            cg.actions_fields(b"\x22", listed.legal)  # ActResponse.actions' tag
        phases.add(answer.state.phase)  # the last one: MATCH_OVER when the match ended
    assert seen["state_to_bytes"] > 150 and seen["view_bytes"] > 150 and seen["events_bytes"] > 150, seen
    assert seen["actions_fields"] > 150 and seen["act_response"] > 150 and seen["record_bytes"] > 150, seen
    assert {Phase.MOVING, Phase.ROLL_OR_DOUBLE} <= phases
    assert seen["record roll_off"] and seen["record steps"] > 50 and seen["record resign_kind"], seen
    assert bool(seen.get("record elapsed_ms")) == (timed is not None) and seen["record outcome"], seen
    # a game ends; under the reserve clock a timeout can end the match first (the dice differ per run)
    assert phases & {Phase.GAME_OVER, Phase.MATCH_OVER}, phases
