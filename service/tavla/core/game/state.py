"""The values of the game state machine: phases, actions, the record, the state itself."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavla.core.match.clock import ClockSettings, ClockState, Forfeit
from tavla.core.match.score import MatchUpdate
from tavla.core.match.state import MatchState
from tavla.core.rules.movegen import CheckerMove
from tavla.core.rules.outcome import GameOutcome
from tavla.core.rules.position import Position, Side
from tavla.core.match.resign import ResignationOffer
from tavla.core.match.ruleset import Ruleset
from tavla.core.rules.scoring import ResultKind
from tavla.core.rules.steps import StepState

#: The record digest of a new match: no entry yet (docs/game-state.md).
EMPTY_DIGEST = bytes(32)


class Phase(enum.Enum):
    """Where a match stands, which fixes who acts and which actions exist."""

    __hash__ = object.__hash__  # members are singletons: the C hash, not Enum's hash of the name

    START = "start"  # a new match: START_GAME rolls off the first game
    ROLL_OR_DOUBLE = "roll_or_double"  # the side on roll rolls, or doubles first (R19)
    CUBE_DECISION = "cube_decision"  # the doubled side (or the doubler after a beaver) answers
    MOVING = "moving"  # the side on roll plays its dice step by step, then confirms
    RESIGNATION_DECISION = "resignation_decision"  # the other side accepts or rejects an offer
    GAME_OVER = "game_over"  # a game ended, the score is updated: START_GAME begins the next
    MATCH_OVER = "match_over"  # a side has won the match: nothing more


class ActionKind(enum.Enum):
    """What an action does."""

    __hash__ = object.__hash__  # members are singletons: the C hash, not Enum's hash of the name

    START_GAME = "start_game"  # roll off and start the next game (R3)
    ROLL = "roll"  # roll the dice (R22)
    DOUBLE = "double"  # offer to double before rolling (R19)
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"  # money play with beavers: take and redouble at once
    RACCOON = "raccoon"  # the doubler redoubles a beaver at once
    STEP = "step"  # move one checker by one die (R4-R14)
    UNDO = "undo"  # take the last step back (seed 001: until the dice are lifted)
    CONFIRM_MOVE = "confirm_move"  # the steps make a whole legal move: lift the dice
    RESIGN = "resign"  # offer to lose a single game, a gammon or a backgammon
    ACCEPT_RESIGNATION = "accept_resignation"
    REJECT_RESIGNATION = "reject_resignation"
    CLAIM_TIMEOUT = "claim_timeout"  # the side to act has run out of time (R23, R24)


@dataclass(frozen=True, slots=True)
class Action:
    """One action.

    :ivar kind: what it does.
    :ivar side: who takes it; ``None`` for START_GAME (either side) and, on input, "the side to
        act".
    :ivar step: STEP only: ``(from, to, die, hit)`` in the mover's numbering (25 bar, 0 off).
    :ivar resign_kind: RESIGN only: what the side offers to lose.
    """

    kind: ActionKind
    side: Side | None = None
    step: CheckerMove | None = None
    resign_kind: ResultKind | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """One entry of a game's record of actions (the tentative steps are not recorded).

    :ivar sequence: the state's sequence number after the action.
    :ivar side: who acted (``None`` for the start of a game).
    :ivar kind: what it did.
    :ivar dice: the dice rolled (START_GAME: the first turn's; ROLL).
    :ivar roll_off: START_GAME: the roll-off throws, each (white, black).
    :ivar steps: CONFIRM_MOVE: the move played, single-die steps in order.
    :ivar notation: CONFIRM_MOVE: the move in standard notation (``""``: no legal move).
    :ivar cube_value: cube actions: the cube value after the action.
    :ivar resign_kind: RESIGN: the kind offered.
    :ivar elapsed_ms: time the acting side spent on its turn, when the match is timed.
    :ivar roll_tag: START_GAME and ROLL: the caller's label of where the dice came from (the
        referee records the label it derived the roll from, docs/security.md).
    :ivar outcome: the game's outcome when this action ended it.
    """

    sequence: int
    side: Side | None
    kind: ActionKind
    dice: tuple[int, ...] = ()
    roll_off: tuple[tuple[int, int], ...] = ()
    steps: tuple[CheckerMove, ...] = ()
    notation: str = ""
    cube_value: int = 0
    resign_kind: ResultKind | None = None
    elapsed_ms: int = 0
    roll_tag: str = ""
    outcome: GameOutcome | None = None


@dataclass(frozen=True, slots=True)
class Timing:
    """A timed match's clock: the settings, both sides' clocks, and when the side to act began.

    :ivar turn_started_ms: the time (milliseconds since the Unix epoch, as the server measured
        it) at which the side to act got the turn; the elapsed time of its turn is measured from
        there.
    """

    settings: ClockSettings
    state: ClockState
    turn_started_ms: int = 0


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything a match needs, between any two actions.

    :ivar ruleset: the rules (R3, R16-R21).
    :ivar match: length, score, Crawford flags, the cube (with a pending double, beaver or
        raccoon) and the match's winner.
    :ivar phase: where the match stands (:class:`Phase`).
    :ivar position: the position at the start of the turn; ``on_roll`` is the side whose turn
        it is.
    :ivar dice: the dice of this turn (MOVING), else ``()``.
    :ivar steps: the single-die steps played so far this turn (MOVING).
    :ivar resignation: the offer awaiting an answer (RESIGNATION_DECISION).
    :ivar resume: the phase play returns to when the offer is rejected.
    :ivar clock: the clock of a timed match, else ``None``.
    :ivar outcome: the outcome of the last finished game and what it paid.
    :ivar outcome_points: points the last game paid (kind x cube, capped as R18 says not).
    :ivar sequence: how many actions led here from :func:`new_match` (0).
    :ivar match_id: an identifier of the match, fixed at :func:`new_match`.
    :ivar turn: the rolls made so far in the game in play (START_GAME's first dice count 1);
        tentative steps and undos leave it as it is.
    :ivar dice_commitment: SHA-256 of the dice secret of the next or current game (32 bytes,
        referee-filled; opaque to the rules).
    :ivar record_digest: the running digest of the match's record (32 bytes, referee-filled;
        opaque to the rules). The record itself is not kept: each :class:`Transition` carries
        the entries its action added.
    """

    ruleset: Ruleset
    match: MatchState
    phase: Phase
    position: Position
    dice: tuple[int, ...] = ()
    steps: tuple[CheckerMove, ...] = ()
    resignation: ResignationOffer | None = None
    resume: Phase | None = None
    clock: Timing | None = None
    outcome: GameOutcome | None = None
    outcome_points: int = 0
    sequence: int = 0
    match_id: str = ""
    turn: int = 0
    dice_commitment: bytes = b""
    record_digest: bytes = EMPTY_DIGEST


@dataclass(frozen=True, slots=True)
class Transition:
    """What :func:`~tavla.core.game.act` returns: the next state and what happened.

    :ivar state: the next state.
    :ivar rolled: the dice rolled by this action (START_GAME, ROLL).
    :ivar roll_off: START_GAME: the roll-off throws.
    :ivar hit: the action hit a blot (a STEP, or a CONFIRM_MOVE whose move hits).
    :ivar game_over: the outcome when the action ended the game (whether it ended the match
        too is the next state's ``match.over``).
    :ivar points: what the game paid (kind x cube).
    :ivar forfeit: the side to act ran out of time before (or by) this action.
    :ivar no_legal_move: the roll left the side on roll no legal step (it confirms the empty move).
    :ivar ended_in: when the action ended the game, the match it ended in, before it was scored
        (after a drop: the cube back to its value before the offer was answered).
    :ivar scored: when the action ended the game, the match update (points scored, next starter).
    :ivar records: the record entries the action added (none for STEP and UNDO).
    :ivar analysis: when the next state is MOVING, its turn's analysis (:func:`legal_steps`),
        made once by the action, for the next actions and the view.
    """

    state: GameState
    rolled: tuple[int, ...] = ()
    roll_off: tuple[tuple[int, int], ...] = ()
    hit: bool = False
    game_over: GameOutcome | None = None
    points: int = 0
    forfeit: Forfeit | None = None
    no_legal_move: bool = False
    ended_in: MatchState | None = None
    scored: MatchUpdate | None = None
    records: tuple[Record, ...] = ()
    analysis: StepState | None = None


def side_to_act(state: GameState) -> Side | None:
    """The side whose decision it is; ``None`` at the start of a game (either side starts it)
    and once the match is over."""
    if state.phase in (Phase.ROLL_OR_DOUBLE, Phase.MOVING):
        return state.position.on_roll
    if state.phase is Phase.CUBE_DECISION:
        return state.match.cube.decider
    if state.phase is Phase.RESIGNATION_DECISION and state.resignation is not None:
        return state.resignation.side.other
    return None
