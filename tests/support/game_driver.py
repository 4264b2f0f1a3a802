"""Drives whole matches through NewMatch / ListActions / Act only, checking every state on the way
(shared by the referee tests). Not a test module."""

from __future__ import annotations

import random

from tavla.core import preset
from tavla.core.game import record as chain
from tavla.core.game import verify_game_dice
from tavla.core.game.state import ActionKind, Record
from tavla.referee.keys import Signed, StateMode, StateSigner
import rpc_api as api
from proto_oracles import record_from_proto
from tavla.v1 import game_pb2
from tavla.v1 import types_pb2 as pb

G = game_pb2
KEYS = (("k2", b"\x02" * 32), ("k1", b"\x01" * 32))  # k2 signs, both verify
DICE_SECRET = b"test dice key: the same on every replica" 
SIGNER = StateSigner(StateMode.REQUIRE, KEYS, shared=True)  # what a production referee signs with


def records(entries: list[game_pb2.ActionRecord]) -> list[Record]:
    return [record_from_proto(e) for e in entries]


class Checker:
    """Checks each state a server returns: its signature, its sequence, its size, the record
    kept from the events against the state's digest, and at every game's end its dice against
    the revealed seed and the commitment published before the game."""

    def __init__(self, signer: StateSigner | None) -> None:
        self.signer = signer
        self.sequence = -1
        self.commitment = ""
        self.games = 0
        self.states = 0
        self.record: list[game_pb2.ActionRecord] = []  # the whole match's, from the events
        self.game_start = 0  # where the game in play begins in it
        self.largest = 0  # signed bytes
        self.signed: game_pb2.SignedGameState | None = None  # the last state checked

    def check(self, signed: game_pb2.SignedGameState, view: game_pb2.GameView,
              events: game_pb2.GameEvents | None = None) -> game_pb2.GameView:
        if self.signer is not None:
            raw = self.signer.open(Signed(signed.state, signed.key_id, signed.signature))
            assert signed.key_id == "k2" and len(signed.signature) == 32
        else:
            raw = signed.state
        self.largest = max(self.largest, len(signed.state))
        self.signed = signed
        game = game_pb2.GameState.FromString(raw)
        assert (game.sequence, game.phase, game.match_id) == (view.sequence, view.phase, view.match_id)
        assert game.sequence == self.sequence + 1
        self.sequence = game.sequence
        self.states += 1
        if events is not None:
            for entry in events.records:
                if entry.kind == G.ACTION_KIND_START_GAME:
                    self.game_start = len(self.record)
                self.record.append(entry)
        chain.check_record([e.SerializeToString(deterministic=True) for e in self.record], game.record_digest)
        assert view.record_digest == game.record_digest.hex()
        if game.phase in (G.GAME_PHASE_GAME_OVER, G.GAME_PHASE_MATCH_OVER) and view.revealed_seed:
            rules = preset(view.ruleset.preset)
            problems = verify_game_dice(records(self.record[self.game_start:]), view.revealed_seed,
                                        self.commitment, rules.start)
            assert problems == []
            self.games += 1
        if game.phase != G.GAME_PHASE_MATCH_OVER:
            self.commitment = view.dice_commitment
            assert view.dice_commitment == game.dice_commitment.hex()
        return view


def choose(actions: list[game_pb2.GameAction], rng: random.Random, *, double: float = 0.0,
           resign: float = 0.0, drop: float = 0.3, beaver: float = 0.3) -> game_pb2.GameAction:
    """A random legal action, weighted so games end: confirm whole moves, double and resign
    sometimes."""
    by_kind: dict[int, list[game_pb2.GameAction]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    k = G
    for kind in (k.ACTION_KIND_START_GAME, k.ACTION_KIND_CONFIRM_MOVE, k.ACTION_KIND_CLAIM_TIMEOUT):
        if kind in by_kind:
            return by_kind[kind][0]
    if k.ACTION_KIND_TAKE in by_kind:
        for kind, p in ((k.ACTION_KIND_BEAVER, beaver), (k.ACTION_KIND_RACCOON, beaver), (k.ACTION_KIND_DROP, drop)):
            if kind in by_kind and rng.random() < p:
                return by_kind[kind][0]
        return by_kind[k.ACTION_KIND_TAKE][0]
    if k.ACTION_KIND_ACCEPT_RESIGNATION in by_kind:
        return rng.choice(actions)
    if k.ACTION_KIND_RESIGN in by_kind and rng.random() < resign:
        return rng.choice(by_kind[k.ACTION_KIND_RESIGN])
    if k.ACTION_KIND_DOUBLE in by_kind and rng.random() < double:
        return by_kind[k.ACTION_KIND_DOUBLE][0]
    if k.ACTION_KIND_ROLL in by_kind:
        return by_kind[k.ACTION_KIND_ROLL][0]
    steps = by_kind.get(k.ACTION_KIND_STEP, [])
    if steps:
        return rng.choice(steps)
    return actions[0]


def play_match(engine, checker: Checker, request: api.NewMatchRequest, seed: int, max_actions: int = 20000,
               list_every: int = 1, **weights: float) -> tuple[game_pb2.GameView, list[int]]:
    """Play a match from NewMatch to MATCH_OVER (money play: ``max_actions``) on the actions
    each answer carries, checking that ListActions agrees (every ``list_every`` states); returns
    the last view and the kinds of every action taken."""
    rng = random.Random(seed)
    response = engine.NewMatch(request)
    signed, game = response.state, checker.check(response.state, response.view)
    actions = list(response.actions)
    kinds = []
    for n in range(max_actions):
        if n % list_every == 0:
            listed = engine.ListActions(api.ListActionsRequest(state=signed))
            expected = game
            if checker.signer is None and not listed.view.revealed_seed:
                # an unsigned state is not one ListActions can trust: it reveals no finished
                # game's seed (referee._revealed), which Act's view of the state it made has
                expected = game_pb2.GameView()
                expected.CopyFrom(game)
                expected.ClearField("revealed_seed")
            assert listed.view == expected, [(f.name, v, getattr(expected, f.name)) for f, v in listed.view.ListFields()
                                             if getattr(expected, f.name) != v]
            assert list(listed.actions) == actions, (n, listed.actions, actions)
        if not actions:
            assert game.phase == G.GAME_PHASE_MATCH_OVER
            break
        action = choose(actions, rng, **weights)
        kinds.append(action.kind)
        answer = engine.Act(api.ActRequest(state=signed, action=action))
        signed, game = answer.state, checker.check(answer.state, answer.view, answer.events)
        actions = list(answer.actions)
        if game.phase == G.GAME_PHASE_MATCH_OVER:
            assert answer.events.HasField("outcome")  # the match ends with a game
            assert game.match.winner == answer.events.outcome.winner != pb.SIDE_UNSPECIFIED
    return game, kinds


__all__ = ["ActionKind", "Checker", "DICE_SECRET", "KEYS", "choose", "play_match", "records"]
