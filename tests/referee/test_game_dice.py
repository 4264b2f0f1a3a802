"""The referee's dice depend only on the game (R22; docs/security.md): the same match,
game, turn number, position and cube give the same roll, whatever steps were made and undone,
or offers made and rejected, on the way. And every roll checks out against the game's revealed
secret."""

from __future__ import annotations

import random

from tavla.core import preset
from tavla.core.match.dice_commit import DiceKey
from tavla.core.game import Action, ActionKind, verify_game_dice
from tavla.core.game.verify import roll_label
from tavla.core.rules.scoring import ResultKind
from tavla.referee import Answer, Referee
from tavla.server.convert import game as cg
from tavla.v1 import game_pb2 as G
from game_driver import SIGNER
from proto_oracles import record_from_proto

K = ActionKind
REFEREE = Referee(SIGNER, DiceKey(b"dice key of the grinding test, 32+ chars", shared=True))
INTL = preset("international")


def step(answer: Answer, action: Action) -> Answer:
    assert answer.signed is not None
    return REFEREE.act(REFEREE.open(answer.signed), action)


def listed(answer: Answer, kind: int) -> list[Action]:
    return [cg.action_from_proto(a) for a in answer.actions if a.kind == kind]


def started(match_id: str = "grind") -> Answer:
    first = REFEREE.new_match(INTL, "international", 7, match_id=match_id)
    return step(first, Action(K.START_GAME))


def variant(begun: Answer, move: list[Action], rng: random.Random, detours: int) -> Answer:
    """``move``'s steps, with ``detours`` random steps made and taken back on the way (each
    before a random one of its steps), confirmed."""
    answer = begun
    where = [rng.randrange(len(move)) for _ in range(detours)]
    for n, planned in enumerate(move):
        for _ in range(where.count(n)):
            tried = rng.choice(listed(answer, G.ACTION_KIND_STEP))
            answer = step(step(answer, tried), Action(K.UNDO))
        answer = step(answer, planned)
    return step(answer, Action(K.CONFIRM_MOVE))


def test_forty_step_and_undo_variants_of_one_move_give_the_opponent_one_roll():
    """40 STEP+UNDO variants of one move gave 20 of the 21 rolls when the dice came
    from the state's bytes. Now the roll is the game's: one roll for all 40 (R22)."""
    begun = started()
    # the move: the first listed step each time, found once
    move, probe = [], begun
    while not listed(probe, G.ACTION_KIND_CONFIRM_MOVE):
        chosen = listed(probe, G.ACTION_KIND_STEP)[0]
        move.append(chosen)
        probe = step(probe, chosen)
    rng = random.Random(19)
    rolls, results, sequences = set(), set(), set()
    for detours in range(40):
        confirmed = variant(begun, move, rng, detours)
        assert confirmed.view.phase == G.GAME_PHASE_ROLL_OR_DOUBLE
        results.add(confirmed.view.position.position_id)
        sequences.add(confirmed.view.sequence)
        if detours % 4 == 3:  # the opponent also offers a resignation the mover rejects first
            offered = step(confirmed, Action(K.RESIGN, resign_kind=ResultKind.SINGLE))
            confirmed = step(offered, Action(K.REJECT_RESIGNATION))
        rolled = step(confirmed, Action(K.ROLL))
        rolls.add(tuple(rolled.events.rolled))
    assert len(results) == 1 and len(sequences) == 40  # one move, reached in 40 ways
    assert len(rolls) == 1, rolls


def test_the_roll_follows_the_game_not_the_state():
    """The label names the game, the turn, the position and the cube: another match (another
    secret) rolls otherwise, the same state replayed rolls the same (R22)."""
    starts = {tuple(started(f"m{i}").events.rolled) for i in range(12)}
    assert len(starts) > 1  # each match its own secret
    first = REFEREE.new_match(INTL, "international", 7, match_id="same")
    again = {tuple(step(first, Action(K.START_GAME)).events.rolled) for _ in range(3)}
    assert len(again) == 1  # the same state replayed: the same roll
    reused = {tuple(started("same").events.rolled) for _ in range(8)}
    assert len(reused) > 1  # mode require adds a random suffix to a given id: no replayed dice
    begun = started("same")
    assert begun.view.match_id.startswith("same~")
    state = REFEREE.open(begun.signed).state
    label = roll_label(state, K.ROLL)
    assert label.startswith("tavla-roll-v2/g0/t2/") and label.endswith("/c1-")
    assert roll_label(state, K.START_GAME) == "tavla-roll-v2/g0/start"


def test_every_roll_of_a_game_checks_out_against_its_revealed_secret():
    """A game played to its end: the record kept from the events, the secret revealed in the
    view at game over, the commitment of NewMatch: every roll recomputes (docs/security.md)."""
    answer = REFEREE.new_match(INTL, "international", 1)
    commitment = answer.view.dice_commitment
    record = []
    rng = random.Random(5)
    while answer.view.phase not in (G.GAME_PHASE_GAME_OVER, G.GAME_PHASE_MATCH_OVER):
        actions = answer.actions
        kinds = {a.kind for a in actions}
        if G.ACTION_KIND_CONFIRM_MOVE in kinds:
            chosen = next(a for a in actions if a.kind == G.ACTION_KIND_CONFIRM_MOVE)
        else:
            chosen = rng.choice([a for a in actions if a.kind not in (G.ACTION_KIND_RESIGN, G.ACTION_KIND_DOUBLE)])
        answer = step(answer, cg.action_from_proto(chosen))
        record += list(answer.events.records)
    assert answer.view.revealed_seed and answer.view.dice_commitment == ""  # a 1-point match is over
    rolls = [record_from_proto(r) for r in record]
    assert sum(r.kind in (K.ROLL, K.START_GAME) for r in rolls) > 10
    assert verify_game_dice(rolls, answer.view.revealed_seed, commitment, INTL.start) == []
    tampered = [r if r.kind is not K.ROLL else type(r)(**{**{f: getattr(r, f) for f in r.__slots__},
                                                           "dice": (r.dice[1], r.dice[0]) if r.dice[0] != r.dice[1]
                                                           else (7 - r.dice[0],) * 2})
                for r in rolls]
    assert verify_game_dice(tampered, answer.view.revealed_seed, commitment, INTL.start)


def test_a_kept_record_checks_against_the_state_and_a_changed_one_does_not():
    """The state keeps a digest of the record, not the record: the entries the Act
    answers returned check against it; one changed, dropped or swapped is INVALID_ARGUMENT on
    `record`, saying why."""
    import pytest

    from tavla.core import InvalidInputError

    answer = started("record")
    record = list(answer.events.records)
    rng = random.Random(2)
    while len(record) < 12:
        kinds = {a.kind for a in answer.actions}
        kind = G.ACTION_KIND_CONFIRM_MOVE if G.ACTION_KIND_CONFIRM_MOVE in kinds else None
        chosen = next((a for a in answer.actions if a.kind == kind), None) or rng.choice(
            [a for a in answer.actions if a.kind in (G.ACTION_KIND_STEP, G.ACTION_KIND_ROLL, G.ACTION_KIND_UNDO)])
        answer = step(answer, cg.action_from_proto(chosen))
        record += list(answer.events.records)
    assert REFEREE.check_record(answer.signed, record).sequence == answer.view.sequence
    changed = [type(e)() for e in record]
    for copy, entry in zip(changed, record):
        copy.CopyFrom(entry)
    changed[3].notation += "*"
    for bad in (record[:-1], record[1:], [record[1], record[0], *record[2:]], changed, record + record[-1:]):
        with pytest.raises(InvalidInputError) as err:
            REFEREE.check_record(answer.signed, bad)
        assert err.value.field == "record" and "do not match the state's record digest" in err.value.reason
