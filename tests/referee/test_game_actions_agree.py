"""Act and ListActions agree (docs/game-state.md): in every state of random
matches, every action kind from every side (and a sample of steps, two-dice routes among them)
is accepted by Act exactly when the listed actions hold it. Each kind is accepted only as
itself: START_GAME is never a timeout claim, a STEP never moves by two dice."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tavla.core import InvalidInputError, RuleError, preset
from tavla.core.match.clock import PRESETS, ClockPreset
from tavla.core.match.dice_commit import DiceKey
from tavla.core.game import Action, ActionKind, Phase, side_to_act
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.position import Side
from tavla.core.rules.scoring import ResultKind
from tavla.referee import Answer, Opened, Referee
from tavla.server.convert import game as cg
from tavla.referee.keys import StateMode, StateSigner
from tavla.v1 import game_pb2 as G

K = ActionKind
REFEREE = Referee(StateSigner(StateMode.OFF, (("k", b"\x01" * 32),), shared=True),
                  DiceKey(b"dice key of the agreement test, 32+", shared=True), test_inputs=True)


def candidates(rng: random.Random, listed: list[Action]) -> list[Action]:
    """Every kind from every side (and none), each resignation kind, the listed steps with the
    die given and not, and 25 random steps: one checker, any distance, two-dice routes too."""
    out = []
    for kind in K:
        if kind is K.STEP:
            continue
        for side in (None, Side.WHITE, Side.BLACK):
            if kind is K.RESIGN:
                out += [Action(kind, side, resign_kind=r) for r in ResultKind]
            else:
                out.append(Action(kind, side))
    steps = [a.step for a in listed if a.kind is K.STEP]
    pairs = {(s[0], s[1]) for s in steps}
    pairs |= {(f, t) for f in range(1, 26) for t in range(0, f) if rng.random() < 0.08}
    for f, t in sorted(pairs):
        for side in (None, Side.WHITE, Side.BLACK):
            out.append(Action(K.STEP, side, step=CheckerMove(f, t, 0, False)))
    out += [Action(K.STEP, a.side, step=a.step) for a in listed if a.kind is K.STEP]
    return out


def is_listed(action: Action, listed: list[Action], actor: Side | None) -> bool:
    for a in listed:
        if a.kind is not action.kind:
            continue
        if action.kind is not K.START_GAME and action.side not in (None, a.side):
            continue
        if action.kind is K.CLAIM_TIMEOUT and action.side is None and a.side is not (actor.other if actor else None):
            continue
        if action.kind is K.STEP and (action.step[0], action.step[1]) != (a.step[0], a.step[1]):
            continue
        if action.kind is K.STEP and action.step[2] not in (0, a.step[2]):
            continue
        if action.kind is K.RESIGN and action.resign_kind is not a.resign_kind:
            continue
        return True
    return False


def accepted(opened: Opened, action: Action, now: int) -> bool:
    try:
        REFEREE.act(opened, action, now_ms=now)
    except (RuleError, InvalidInputError):
        return False
    return True


def play(seed: int, rules, length: int, clock, checks: int) -> set[tuple[Phase, ActionKind]]:
    """A random match; every state's candidates checked; returns the (phase, kind) accepted."""
    rng = random.Random(seed)
    t = 1_600_000_000_000
    answer: Answer = REFEREE.new_match(rules, "international" if rules.money_play else "turkish", length, clock)
    seen: set[tuple[Phase, ActionKind]] = set()
    for _ in range(checks):
        assert answer.signed is not None
        opened = REFEREE.open(answer.signed)
        state = opened.state
        if state.clock is not None and rng.random() < 0.15:
            now = state.clock.turn_started_ms + 10 * 60_000  # long past any cap: time has run out
        else:
            now = (state.clock.turn_started_ms if state.clock else t) + 500
        listing = REFEREE.list_actions(opened, now_ms=now)
        listed = [cg.action_from_proto(a) for a in listing.actions]
        actor = side_to_act(state)
        for action in candidates(rng, listed):
            want = is_listed(action, listed, actor)
            got = accepted(opened, action, now)
            assert got == want, (state.phase, state.steps, action, [a.kind.value for a in listed])
            if got:
                seen.add((state.phase, action.kind))
        if not listed:
            break
        weights = [0.05 if a.kind in (K.RESIGN, K.DOUBLE) else 1.0 for a in listed]
        if any(a.kind is K.CONFIRM_MOVE for a in listed) and rng.random() < 0.8:
            chosen = next(a for a in listed if a.kind is K.CONFIRM_MOVE)
        else:
            chosen = rng.choices(listed, weights)[0]
        answer = REFEREE.act(opened, chosen, now_ms=now)
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_act_accepts_exactly_what_list_actions_lists(seed):
    seen = set()
    intl = replace(preset("international"), beavers=True)
    seen |= play(seed, intl, 0, None, 140)  # money play, cube, beavers
    seen |= play(seed + 10, preset("turkish"), 3, PRESETS[ClockPreset.RESERVE], 140)  # timed, no cube
    phases = {p for p, _ in seen}
    assert {Phase.START, Phase.MOVING, Phase.ROLL_OR_DOUBLE} <= phases
    assert (Phase.MOVING, K.STEP) in seen and (Phase.MOVING, K.UNDO) in seen


def test_a_two_dice_step_is_refused_as_list_actions_never_lists_it():
    """13/8 with 3-2: two STEPs, 13/10 then 10/8, never one."""
    first = REFEREE.new_match(preset("international"), "international", 7)
    begun = REFEREE.act(REFEREE.open(first.signed), Action(K.START_GAME), dice=[3, 2], now_ms=0)
    assert list(begun.view.dice) == [3, 2] and begun.view.side_to_act == 1
    steps = {(a.step.from_point, a.step.to_point) for a in begun.actions if a.kind == G.ACTION_KIND_STEP}
    assert (13, 8) not in steps and {(13, 10), (13, 11)} <= steps
    with pytest.raises(RuleError) as err:
        REFEREE.act(REFEREE.open(begun.signed), Action(K.STEP, step=CheckerMove(13, 8, 0, False)), now_ms=0)
    assert err.value.reason == "WRONG_DICE" and "13/10 then 10/8" in str(err.value)


def test_start_game_is_never_a_timeout_claim():
    """A timed match, the mover's time run out: START_GAME is WRONG_PHASE from either
    side, and only CLAIM_TIMEOUT from the other side forfeits (R24)."""
    first = REFEREE.new_match(preset("international"), "international", 3, PRESETS[ClockPreset.RESERVE])
    begun = REFEREE.act(REFEREE.open(first.signed), Action(K.START_GAME), dice=[6, 1], now_ms=1000)
    opened = REFEREE.open(begun.signed)
    late = 1000 + 10 * 60_000
    for side in (None, Side.WHITE, Side.BLACK):
        with pytest.raises(RuleError) as err:
            REFEREE.act(opened, Action(K.START_GAME, side), now_ms=late)
        assert err.value.reason == "WRONG_PHASE"
    claimed = REFEREE.act(opened, Action(K.CLAIM_TIMEOUT, Side.BLACK), now_ms=late)
    assert claimed.events.forfeit.reason and claimed.events.records[-1].kind == G.ACTION_KIND_CLAIM_TIMEOUT
