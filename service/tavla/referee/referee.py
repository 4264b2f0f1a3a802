"""The referee without gRPC: :meth:`Referee.open` a signed state, :meth:`Referee.act` on it (or
:meth:`Referee.list_actions`), and get back the next state sealed, its view, its legal actions
and what happened (docs/game-state.md). The RPCs NewMatch, ListActions and Act are thin wrappers
of this module (:mod:`tavla.server.api.referee`).

Keys are objects handed in (a :class:`~tavla.referee.keys.StateSigner`, a
:class:`~tavla.core.match.dice_commit.DiceKey`), never read from the environment here. Each call
analyses the turn once: the action's own analysis (:attr:`Transition.analysis`) gives the next
legal actions and the view, and the game's secret is derived only for an action that rolls or
ends a game.

The dice of a roll depend only on the game (docs/security.md): the game's secret (the dice key,
the match id, the game number) and :func:`~tavla.core.game.verify.roll_label` (the turn number,
the position, the cube), never the state's bytes or its sequence number.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tavla.core import InvalidInputError
from tavla.core.match.clock import ClockSettings
from tavla.core.match.dice import given_dice, seeded_dice
from tavla.core.match.dice_commit import DiceKey
from tavla.core.game import Action, ActionKind, GameState, Phase, act, evolve, list_actions, new_match
from tavla.core.game import record as chain
from tavla.core.game.machine import checked, moving_actions, turn
from tavla.core.game.verify import roll_label
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.steps import StepState
from tavla.server.convert import game as cg
from tavla.referee.keys import Signed, StateError, StateMode, StateReason, StateSigner
from tavla.referee.kept import Kept, KeptStates
from tavla.v1 import game_pb2

GIVEN = "given"  # the roll tag of dice a test gave
_MATCH_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
_ROLLS = (ActionKind.START_GAME, ActionKind.ROLL)


def now_ms() -> int:
    """The server's clock: milliseconds since the Unix epoch (wall time, so every replica
    measures a turn the same way; keep replicas' clocks in sync with NTP)."""
    return time.time_ns() // 1_000_000


class Opened(NamedTuple):
    """A state opened by :meth:`Referee.open`: checked, with its preset's name (a named tuple,
    made once per call: a third of a frozen dataclass's cost)."""

    state: GameState
    preset: str
    analysis: StepState | None = None  # the MOVING turn's analysis when opening made one
    verified: bool = False  # its signature checked out (this service made it)
    kept: Kept | None = None  # what this referee kept of it, when it wrote it (and it is signed)


@dataclass(eq=False)
class Answer:
    """What a referee call returns (not frozen: one is made per call, and a frozen dataclass
    costs twice as much to make; treat it as read-only).

    :ivar state: the core state the answer is about (the next one after an action).
    :ivar signed: that state sealed (``None`` for :meth:`Referee.list_actions`).
    :ivar view_bytes: what it shows: a serialized ``GameView``, never signed (:attr:`view` as
        a message).
    :ivar legal: its legal actions (core :class:`~tavla.core.game.Action` values);
        :attr:`actions` as messages, :attr:`action_bytes` serialized.
    :ivar events_bytes: what the action did, with its record entries: a serialized
        ``GameEvents`` (:attr:`events` as a message); ``None`` but after an action.
    """

    state: GameState
    signed: Signed | None
    view_bytes: bytes
    legal: tuple[Action, ...]
    events_bytes: bytes | None = None

    @functools.cached_property
    def view(self) -> game_pb2.GameView:
        """The view as a ``GameView`` message (parsed on first use)."""
        view: game_pb2.GameView = game_pb2.GameView.FromString(self.view_bytes)
        return view

    @functools.cached_property
    def events(self) -> game_pb2.GameEvents | None:
        """The events as a ``GameEvents`` message (parsed on first use); ``None`` but after an
        action."""
        if self.events_bytes is None:
            return None
        events: game_pb2.GameEvents = game_pb2.GameEvents.FromString(self.events_bytes)
        return events

    @functools.cached_property
    def actions(self) -> list[game_pb2.GameAction]:
        """The legal actions as ``GameAction`` messages (made on first use)."""
        return [cg.action_to_proto(a) for a in self.legal]

    @property
    def action_bytes(self) -> list[bytes]:
        """Each legal action's serialized ``GameAction`` (kept per action: no message made)."""
        return [cg.action_bytes(a) for a in self.legal]


def _given(values: Sequence[int]) -> Iterator[int]:
    yield from given_dice(values, "x-tavla-test-dice")
    raise InvalidInputError("x-tavla-test-dice", f"{len(values)} dice are not enough for this action")


class Referee:
    """NewMatch, ListActions and Act over one signed compact state.

    :param signer: signs and checks states (its mode: off, sign, require).
    :param dice_key: fixes every game's secret, hence every roll.
    :param test_inputs: honour dice and times given by the caller (tests, replays); only in
        state mode off, refused otherwise.
    :param clock: the time in milliseconds since the Unix epoch.
    """

    def __init__(self, signer: StateSigner, dice_key: DiceKey, *, test_inputs: bool = False,
                 clock: Callable[[], int] = now_ms) -> None:
        self.signer = signer
        self.dice_key = dice_key
        self.test_inputs = test_inputs and signer.mode is StateMode.OFF
        self.clock = clock
        self.kept = KeptStates()  # the states this referee wrote lately (tavla.referee.kept)

    # -- states in and out -------------------------------------------------------------------

    def open(self, signed: Signed) -> Opened:
        """The state inside ``signed`` once its signature checks out as the mode asks; an
        unsigned state (mode off or sign) is checked for consistency as well.

        :raises StateError: the signature does not check out as the mode asks.
        :raises InvalidInputError: bytes that are not a version-2 GameState, or an inconsistent
            state (field ``state.<part>``).
        """
        kept = self.kept.get(signed.state)
        if (kept is not None and kept.signature and kept.key_id == signed.key_id
                and hmac.compare_digest(kept.signature, signed.signature)):
            return Opened(kept.state, kept.preset, kept.analysis, verified=True, kept=kept)  # signed
        raw = self.signer.open(signed)
        if not raw:
            raise InvalidInputError("state.state", "is required: the state NewMatch or Act returned")
        state, preset = cg.state_from_bytes(raw) if kept is None else (kept.state, kept.preset)
        if self.signer.mode is StateMode.OFF or not signed.signature:
            state, analysis = checked(state)
            return Opened(state, preset, analysis)
        return Opened(state, preset, None if kept is None else kept.analysis, verified=True, kept=kept)

    def seal(self, state: GameState, preset: str) -> Signed:
        """``state`` as signed bytes (unsigned in mode off)."""
        return self.signer.seal(cg.state_to_bytes(state, preset))

    def _secret(self, state: GameState, game: int) -> bytes:
        return self.dice_key.game_secret(state.match_id, game)

    def _commitment(self, state: GameState, game: int) -> bytes:
        return hashlib.sha256(self._secret(state, game)).digest()

    def _revealed(self, state: GameState, trusted: bool) -> bytes:
        """At a game's end, the secret of the game just finished: of a state this service made
        (``trusted``: signed, or just produced by an action), never of one a caller made up,
        which could name another match's game in play."""
        if not trusted or state.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return b""
        return self._secret(state, state.match.games_played - 1)

    def _answer(self, state: GameState, preset: str, analysis: StepState | None, now: int,
                signed: Signed | None, events: bytes | None = None, *, trusted: bool = True) -> Answer:
        kept = None if analysis is None else moving_actions(state, analysis)  # a turn's clicks: one tuple
        actions = kept if kept is not None else tuple(list_actions(state, now, analysis))
        view = cg.view_bytes(state, preset, analysis, self._revealed(state, trusted))
        return Answer(state, signed, view, actions, events)

    def _sealed(self, state: GameState, preset: str, analysis: StepState | None, now: int,
                events: bytes | None = None) -> Answer:
        """The answer of a call that made ``state``: sealed, and kept with its view and actions
        for the call that sends it back (:mod:`tavla.referee.kept`)."""
        signed = self.seal(state, preset)
        answer = self._answer(state, preset, analysis, now, signed, events)
        self._keep(signed.state, answer, preset, analysis)
        return answer

    def _keep(self, raw: bytes, answer: Answer, preset: str, analysis: StepState | None) -> None:
        state, signed = answer.state, answer.signed
        actions = answer.legal if state.clock is None else None  # a timeout claim depends on the time
        key_id, signature = (signed.key_id, signed.signature) if signed is not None else ("", b"")
        self.kept.keep(raw, Kept(state, preset, answer.view_bytes, actions, key_id, signature, analysis))

    # -- the calls ---------------------------------------------------------------------------

    def new_match(self, rules: Ruleset, preset: str, length: int, clock: ClockSettings | None = None,
                  match_id: str = "") -> Answer:
        """The first state of a match: phase START, score 0-0 (R3, R18).

        :param match_id: the caller's id (1-64 of ``[A-Za-z0-9._:-]``) or empty for a random one;
            outside mode off a random suffix is added, so a reused id never replays another
            match's dice.
        :raises InvalidInputError: bad length, clock settings or match id.
        """
        if match_id and not _MATCH_ID.match(match_id):
            raise InvalidInputError("match_id", "is not 1-64 of letters, digits, '.', '_', ':' or '-'")
        if not match_id:
            match_id = secrets.token_hex(16)
        elif self.signer.mode is not StateMode.OFF:
            match_id = f"{match_id}~{secrets.token_hex(8)}"
        now = self.clock()
        rules = cg.stated_ruleset(rules, preset)  # as every later state, parsed, holds it
        state = new_match(rules, length, clock, match_id=match_id, now_ms=now)
        state = evolve(state, dice_commitment=self._commitment(state, 0))
        return self._sealed(state, preset, None, now)

    def list_actions(self, opened: Opened, *, now_ms: int | None = None) -> Answer:
        """The legal actions of the side to act (and a timeout claim once its time has run
        out) and the view: the same as the Act that returned the state answered.

        :raises StateError: a time given without test inputs.
        """
        now = self._now(now_ms)
        state = opened.state
        kept = opened.kept  # a state this referee wrote, signed: the answer the Act gave with it
        if kept is not None and kept.actions is not None:
            return Answer(state, None, kept.view, kept.actions)
        analysis = (opened.analysis or turn(state)) if state.phase is Phase.MOVING else None
        return self._answer(state, opened.preset, analysis, now, None, trusted=opened.verified)

    def act(self, opened: Opened, action: Action, *, dice: Sequence[int] | None = None,
            now_ms: int | None = None) -> Answer:
        """The next state after ``action``, sealed, with its view, its legal actions and what
        happened (the record entries added, which extend the state's record digest).

        :param dice: test inputs only: dice rolled elsewhere for START_GAME (the roll-off throws
            then, under the Turkish rule, the winner's two dice) or ROLL.
        :param now_ms: test inputs only: the time of the action.
        :raises StateError: dice or a time given without test inputs (``CLIENT_DICE_REFUSED``,
            ``CLIENT_TIME_REFUSED``).
        :raises RuleError: the action is not legal now (:func:`tavla.core.game.act`).
        """
        state = opened.state
        if dice is not None and not self.test_inputs:
            raise StateError(StateReason.CLIENT_DICE_REFUSED, "dice come from the server; only a test server "
                                                              "(--test-inputs, state mode off) takes them")
        now = self._now(now_ms)
        source, tag = None, ""
        if action.kind in _ROLLS:
            if dice is not None:
                source, tag = _given(tuple(dice)), GIVEN
            else:
                tag = roll_label(state, action.kind)
                source = seeded_dice(self._secret(state, state.match.games_played), tag)
        result = act(state, action, dice=source, now_ms=now, roll_tag=tag, analysis=opened.analysis)
        after = result.state
        records = [cg.record_bytes(r, after.outcome_points if r.outcome is not None else 0) for r in result.records]
        digest = chain.digest_of(records, after.record_digest) if records else after.record_digest
        commitment = after.dice_commitment
        if result.game_over is not None:
            commitment = b"" if after.match.over else self._commitment(after, after.match.games_played)
        if digest != after.record_digest or commitment != after.dice_commitment:  # not for a STEP or an UNDO
            after = evolve(after, record_digest=digest, dice_commitment=commitment)
        analysis = None
        if after.phase is Phase.MOVING:  # a rejected resignation resumes a turn no handler analysed
            analysis = result.analysis or turn(after)
        return self._sealed(after, opened.preset, analysis, now, cg.events_bytes(result, records))

    def check_record(self, signed: Signed, entries: Sequence[game_pb2.ActionRecord], field: str = "record") -> GameState:
        """The state inside ``signed``, once ``entries`` (every record entry of the match, in
        order, as the Act answers gave them) check against its record digest: what an RPC that
        takes a record (an export, a dice check) does first.

        :raises StateError: the signature does not check out as the mode asks.
        :raises InvalidInputError: on ``field``: the entries do not lead to the state's digest.
        """
        return self.open_record(signed, entries, field).state

    def open_record(self, signed: Signed, entries: Sequence[game_pb2.ActionRecord],
                    field: str = "record") -> Opened:
        """:meth:`check_record`, returning the opened state with its preset's name.

        :raises StateError: the signature does not check out as the mode asks.
        :raises InvalidInputError: on ``field``: the entries do not lead to the state's digest.
        """
        opened = self.open(signed)
        chain.check_record((e.SerializeToString(deterministic=True) for e in entries), opened.state.record_digest,
                           field)
        return opened

    def _now(self, given: int | None) -> int:
        if given is None:
            return self.clock()
        if not self.test_inputs:
            raise StateError(StateReason.CLIENT_TIME_REFUSED, "the server measures time; only a test server "
                                                              "(--test-inputs, state mode off) takes one")
        return given
