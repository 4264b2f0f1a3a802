"""Conversions of the match-play messages (match.proto, dice.proto, clock.proto) to and from
:mod:`tavla.core` values, and nothing else; the board and move conversions are in
:mod:`tavla.server.convert.common`.

Input conversions raise :class:`~tavla.core.InvalidInputError` naming the request field (an
unknown enum number, a required side missing); consistency with the ruleset is the core's
(:func:`tavla.core.check_match`). Output conversions always succeed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from tavla.core import (
    ActionReason,
    Cube,
    CubeAction,
    GameEnding,
    GameOutcome,
    GameResult,
    InvalidInputError,
    MatchState,
    PresetInfo,
    ResignationOffer,
    ResultKind,
    Ruleset,
    check_match,
    points_paid,
)
from tavla.core.match import clock
from tavla.core.i18n import names
from tavla.core.match.dice_commit import DiceProof
from tavla.core.rules.movegen import CheckerMove
from tavla.core.match.start import Start
from tavla.core.rules.steps import CombinedStep
from tavla.core.rules.variant import Variant, find_variant
from tavla.server.convert import common as convert
from tavla.server.convert import ids as convert_ids
from tavla.server.convert.enums import CLOCK_EVENTS as _CLOCK_EVENTS
from tavla.server.convert.enums import CLOCK_PRESETS as _CLOCK_PRESETS
from tavla.server.convert.enums import CUBE_ACTIONS as _CUBE_ACTIONS
from tavla.server.convert.enums import DENIALS as _DENIALS
from tavla.server.convert.enums import ENDINGS as _ENDINGS
from tavla.server.convert.enums import FORFEITS as _FORFEITS
from tavla.server.convert.enums import KATMERLI, STARTS
from tavla.server.convert.enums import KINDS as _KINDS
from google.protobuf import duration_pb2, timestamp_pb2

from tavla.v1 import clock_pb2, dice_pb2, match_pb2
from tavla.v1 import match_service_pb2 as api
from tavla.v1 import types_pb2 as pb

MAX_ROLL_OFF = 64  # tied throws before a roll-off is decided: (1/6)**63 never happens
#: The longest duration a clock field takes, in milliseconds: 2**32 - 1, as the 0.x uint32 fields.
MAX_MS = 2**32 - 1
MAX_TIMESTAMP_SECONDS = 253_402_300_799  # 9999-12-31T23:59:59Z, google.protobuf.Timestamp's last second
# ClockSettings' Duration fields -> the core's millisecond fields
_CLOCK_DURATIONS = {"move_time": "move_ms", "extension_time": "extension_ms", "reserve": "reserve_ms",
                    "move_cap": "move_cap_ms", "reconnect_window": "reconnect_ms", "break_time": "break_ms"}
# the core's field names in errors -> the API's (SideClock.reserve and AdvanceClock's elapsed too)
_CLOCK_FIELDS_OUT = {core: name for name, core in _CLOCK_DURATIONS.items()} | {"elapsed_ms": "elapsed"}



_optional_side = convert.optional_side_from_proto
_side_out = convert.optional_side_to_proto


# ---------------------------------------------------------------------------------------------
# Requests -> core


def match_from_proto(msg: match_pb2.MatchState, field: str = "match", *, rules: Ruleset | None) -> MatchState:
    """A core :class:`MatchState` (not yet checked against a ruleset); cube value 0 reads as 1.

    ``match_id``, ``gnubg_id`` and ``xgid`` set the fields they carry
    (:func:`tavla.server.convert.ids.match_from_ids`; ``rules`` says whether a side at length - 1
    is post-Crawford).

    :raises InvalidInputError: an unknown side number (``match.cube.owner``, ...), a bad ID or
        one that disagrees with another field (``match.match_id``, ...).
    """
    cube = Cube(
        msg.cube.value or 1,
        _optional_side(msg.cube.owner, f"{field}.cube.owner"),
        _optional_side(msg.cube.offered_by, f"{field}.cube.offered_by"),
        msg.cube.redoubles,
    )
    state = MatchState(
        length=msg.length, scores=(msg.white_score, msg.black_score), crawford=msg.crawford,
        post_crawford=msg.post_crawford, cube=cube,
        previous_winner=_optional_side(msg.previous_winner, f"{field}.previous_winner"),
        games_played=msg.games_played, winner=_optional_side(msg.winner, f"{field}.winner"),
    )
    if msg.match_id or msg.gnubg_id or msg.xgid:
        return convert_ids.match_from_ids(msg, field, state, rules)
    return state


def checked_match_from_proto(msg: match_pb2.MatchState, rules: Ruleset) -> MatchState:
    """:func:`match_from_proto` of the request field ``match``, checked against ``rules``
    (:func:`tavla.core.check_match`).

    :raises InvalidInputError: as :func:`match_from_proto`, or a match that does not fit the
        ruleset.
    """
    return check_match(match_from_proto(msg, rules=rules), rules)


def kind_from_proto(value: int, field: str) -> ResultKind:
    """A :class:`ResultKind`; UNSPECIFIED is single."""
    return _KINDS.from_proto(value, field)


def outcome_from_proto(msg: match_pb2.GameOutcome, field: str = "outcome") -> GameOutcome:
    """A core :class:`GameOutcome`; ``points`` is output only and ignored.

    :raises InvalidInputError: no winner or ending, or an unknown enum number.
    """
    if msg.ending == match_pb2.GAME_ENDING_DRAW:  # plakoto's two mothers: no winner
        if msg.winner != pb.SIDE_UNSPECIFIED:
            raise InvalidInputError(f"{field}.winner", "a draw has no winner")
        return GameOutcome(None, GameEnding.DRAW, kind_from_proto(msg.kind, f"{field}.kind"))
    winner = convert.side_from_proto(msg.winner, f"{field}.winner")
    ending = _ENDINGS.from_proto(msg.ending, f"{field}.ending")
    return GameOutcome(winner, ending, kind_from_proto(msg.kind, f"{field}.kind"))


def cube_action_from_proto(value: int, field: str = "action") -> CubeAction:
    """A :class:`CubeAction`.

    :raises InvalidInputError: unset or unknown.
    """
    return _CUBE_ACTIONS.from_proto(value, field)


def offer_from_proto(msg: match_pb2.ResignationOffer, field: str = "offer") -> ResignationOffer:
    """A :class:`ResignationOffer`; the kind is required.

    :raises InvalidInputError: no side or kind, or an unknown enum number.
    """
    side = convert.side_from_proto(msg.side, f"{field}.side")
    if msg.kind == pb.RESULT_KIND_UNSPECIFIED:
        raise InvalidInputError(f"{field}.kind", "is required: single, gammon or backgammon")
    return ResignationOffer(side, kind_from_proto(msg.kind, f"{field}.kind"))


def steps_from_proto(moves: Sequence[pb.CheckerMove], field: str = "steps") -> tuple[CheckerMove, ...]:
    """The steps made so far; ``hit`` is ignored, ``die`` picks the die of a bear-off only (0: either).

    :raises InvalidInputError: more than four steps (a turn has at most four, R6).
    """
    if len(moves) > 4:
        raise InvalidInputError(field, f"has {len(moves)} steps; a turn has at most 4 (R6)")
    return tuple(CheckerMove(m.from_point, m.to_point, m.die) for m in moves)


def roll_off_from_proto(throws: Sequence[dice_pb2.RollOffThrow]) -> list[tuple[int, int]]:
    """The roll-off throws as (white, black) pairs; values are checked by the core.

    :raises InvalidInputError: more than :data:`MAX_ROLL_OFF` throws (ties that long do not happen).
    """
    if len(throws) > MAX_ROLL_OFF:
        raise InvalidInputError("roll_off", f"has {len(throws)} throws; at most {MAX_ROLL_OFF}")
    return [(t.white_die, t.black_die) for t in throws]


def clock_settings_from_proto(msg: clock_pb2.ClockSettings, field: str = "settings") -> clock.ClockSettings:
    """The preset's settings with every set field overridden, checked
    (:func:`tavla.core.match.clock.check_settings`: bounds, extensions with a length).

    :raises InvalidInputError: an unknown preset number, a bad Duration, or settings the core
        refuses (named by the API's field, e.g. ``settings.move_time``).
    """
    preset = _CLOCK_PRESETS.from_proto(msg.preset, f"{field}.preset")
    settings = clock.PRESETS[preset]
    overrides: dict[str, int] = {}
    for name, core_name in _CLOCK_DURATIONS.items():
        if msg.HasField(name):
            overrides[core_name] = duration_to_ms(getattr(msg, name), f"{field}.{name}")
    for name in ("extensions", "breaks"):
        if msg.HasField(name):
            overrides[name] = getattr(msg, name)
    with api_clock_fields():
        return clock.check_settings(replace(settings, **overrides), field)  # type: ignore[arg-type]


@contextmanager
def api_clock_fields() -> Iterator[None]:
    """Re-raise an :class:`InvalidInputError` of the clock core with the API's field names: the
    core names its millisecond attributes (``settings.move_ms``), the API its Duration fields
    (``settings.move_time``)."""
    try:
        yield
    except InvalidInputError as exc:
        renamed = ".".join(_CLOCK_FIELDS_OUT.get(part, part) for part in exc.field.split("."))
        if renamed == exc.field:
            raise
        raise InvalidInputError(renamed, exc.reason) from None


def duration_to_ms(msg: duration_pb2.Duration, field: str) -> int:
    """A ``google.protobuf.Duration`` as whole milliseconds, 0 to :data:`MAX_MS` (the clock's
    unit and range, R23-R25).

    :raises InvalidInputError: negative, not whole milliseconds, not a valid Duration (nanos out
        of range), or longer than :data:`MAX_MS`.
    """
    if msg.seconds < 0 or msg.nanos < 0:
        raise InvalidInputError(field, "is negative; a duration here is at least 0")
    if msg.nanos >= 1_000_000_000:
        raise InvalidInputError(field, f"nanos is {msg.nanos}; a Duration's nanos are below 1,000,000,000")
    if msg.nanos % 1_000_000:
        raise InvalidInputError(field, "is not a whole number of milliseconds")
    ms = msg.seconds * 1000 + msg.nanos // 1_000_000
    if ms > MAX_MS:
        raise InvalidInputError(field, f"is {ms} ms; at most {MAX_MS} ms (about 49.7 days)")
    return int(ms)


def ms_to_duration(ms: int) -> duration_pb2.Duration:
    """A ``google.protobuf.Duration`` of ``ms`` milliseconds (``ms`` >= 0)."""
    return duration_pb2.Duration(seconds=ms // 1000, nanos=(ms % 1000) * 1_000_000)


def timestamp_to_ms(msg: timestamp_pb2.Timestamp, field: str) -> int:
    """A ``google.protobuf.Timestamp`` as whole milliseconds since the Unix epoch (the clock's
    unit), from the epoch to the end of year 9999 (Timestamp's range).

    :raises InvalidInputError: before the epoch, after year 9999, not whole milliseconds, or not
        a valid Timestamp (nanos out of range).
    """
    if msg.seconds < 0 or msg.nanos < 0:
        raise InvalidInputError(field, "is before 1970-01-01T00:00:00Z")
    if msg.seconds > MAX_TIMESTAMP_SECONDS:
        raise InvalidInputError(field, f"seconds is {msg.seconds}; a Timestamp ends with year 9999")
    if msg.nanos >= 1_000_000_000:
        raise InvalidInputError(field, f"nanos is {msg.nanos}; a Timestamp's nanos are below 1,000,000,000")
    if msg.nanos % 1_000_000:
        raise InvalidInputError(field, "is not a whole number of milliseconds")
    return int(msg.seconds * 1000 + msg.nanos // 1_000_000)


def ms_to_timestamp(ms: int) -> timestamp_pb2.Timestamp:
    """A ``google.protobuf.Timestamp`` ``ms`` milliseconds after the Unix epoch (``ms`` >= 0)."""
    return timestamp_pb2.Timestamp(seconds=ms // 1000, nanos=(ms % 1000) * 1_000_000)


def clock_state_from_proto(msg: clock_pb2.ClockState, field: str = "state") -> clock.ClockState:
    """A core :class:`~tavla.core.match.clock.ClockState` (checked against the settings by the core).

    :raises InvalidInputError: a reserve that is not a duration of whole milliseconds.
    """
    def side(c: clock_pb2.SideClock, name: str) -> clock.SideClock:
        return clock.SideClock(c.extensions_left, duration_to_ms(c.reserve, f"{field}.{name}.reserve"),
                               c.breaks_left)
    return clock.ClockState(side(msg.white, "white"), side(msg.black, "black"))


def clock_event_from_proto(value: int, field: str = "event") -> clock.ClockEvent:
    """A :class:`~tavla.core.match.clock.ClockEvent`; UNSPECIFIED is a move."""
    return _CLOCK_EVENTS.from_proto(value, field)


# ---------------------------------------------------------------------------------------------
# Core -> responses


def match_to_proto(state: MatchState) -> match_pb2.MatchState:
    """A ``MatchState`` message, with its Match ID when the format can hold it."""
    msg = match_pb2.MatchState(
        length=state.length, white_score=state.scores[0], black_score=state.scores[1],
        crawford=state.crawford, post_crawford=state.post_crawford,
        cube=match_pb2.CubeState(value=state.cube.value, owner=_side_out(state.cube.owner),
                                 offered_by=_side_out(state.cube.offered_by), redoubles=state.cube.redoubles),
        previous_winner=_side_out(state.previous_winner), games_played=state.games_played,
        winner=_side_out(state.winner),
    )
    match_id = convert_ids.match_id_of(state)
    if match_id:  # unset when the format cannot hold the match
        msg.match_id = match_id
    return msg


def outcome_to_proto(outcome: GameOutcome, points: int) -> match_pb2.GameOutcome:
    """A ``GameOutcome`` message with the points it pays."""
    return match_pb2.GameOutcome(
        winner=convert.optional_side_to_proto(outcome.winner), ending=_ENDINGS.to_proto(outcome.ending),
        kind=_KINDS.to_proto(outcome.kind), points=points,
    )


def borne_off_outcome(result: GameResult, request: object, rules: Ruleset,
                      ending: GameEnding = GameEnding.BORNE_OFF) -> match_pb2.GameOutcome:
    """The ``GameOutcome`` of a game won by bearing off, paid with the cube of the request's
    optional ``match`` field (unchecked default: money play, cube 1).

    :raises InvalidInputError: the request's match does not fit the ruleset (field ``match``).
    """
    state = MatchState()
    if request.HasField("match"):  # type: ignore[attr-defined]
        state = checked_match_from_proto(request.match, rules)  # type: ignore[attr-defined]
    outcome = GameOutcome(result.winner, ending, result.kind)
    return outcome_to_proto(outcome, points_paid(outcome, state, rules))


def cube_action_to_proto(action: CubeAction) -> match_pb2.CubeAction:
    """The ``CubeAction`` number."""
    number: match_pb2.CubeAction = _CUBE_ACTIONS.to_proto(action)
    return number


def denial_to_proto(reason: ActionReason | None) -> match_pb2.CubeDenial:
    """The ``CubeDenial`` number of why a side may not double; UNSPECIFIED for ``None``."""
    return match_pb2.CUBE_DENIAL_UNSPECIFIED if reason is None else _DENIALS.to_proto(reason)


def step_to_proto(step: CheckerMove) -> pb.CheckerMove:
    """A ``CheckerMove`` message of one single-die step."""
    return pb.CheckerMove(from_point=step[0], to_point=step[1], die=step[2], hit=step[3])


def combined_step_to_proto(combined: CombinedStep) -> api.CombinedStep:
    """A ``CombinedStep`` message: one checker moving on with several dice."""
    return api.CombinedStep(from_point=combined.from_point, to_point=combined.to_point,
                            via=combined.via, steps=[step_to_proto(s) for s in combined.steps])


def roll_name_to_proto(d1: int, d2: int) -> dice_pb2.RollName:
    """The ``RollName`` of a roll (R26)."""
    return dice_pb2.RollName(turkish=names.roll_name(d1, d2), aliases=names.roll_aliases(d1, d2),
                             numbers=names.roll_numbers(d1, d2))


def start_to_proto(start: Start) -> api.StartGameResponse:
    """A ``StartGameResponse`` with the starter, first dice, names and roll-off (no position)."""
    return api.StartGameResponse(
        starter=convert.side_to_proto(start.starter), dice=sorted(start.dice, reverse=True),
        dice_name=roll_name_to_proto(*start.dice),
        roll_off=[dice_pb2.RollOffThrow(white_die=w, black_die=b, name=roll_name_to_proto(w, b))
                  for w, b in start.roll_off],
    )


def proof_to_proto(proof: DiceProof) -> dice_pb2.DiceProof:
    """A ``DiceProof`` message."""
    return dice_pb2.DiceProof(scheme=proof.scheme, commitment=proof.commitment,
                              server_seed=proof.server_seed, client_seed=proof.client_seed)


def clock_settings_to_proto(settings: clock.ClockSettings) -> clock_pb2.ClockSettings:
    """A ``ClockSettings`` message with every field set (the preset is the one whose scope the
    settings have: EXTENSIONS loses the game, RESERVE the match)."""
    preset = (clock_pb2.CLOCK_PRESET_EXTENSIONS if settings.scope is clock.ForfeitScope.GAME
              else clock_pb2.CLOCK_PRESET_RESERVE)
    return clock_pb2.ClockSettings(
        preset=preset, extensions=settings.extensions, breaks=settings.breaks,
        **{name: ms_to_duration(getattr(settings, core_name)) for name, core_name in _CLOCK_DURATIONS.items()},
    )


def offer_to_proto(offer: ResignationOffer) -> match_pb2.ResignationOffer:
    """A ``ResignationOffer`` message."""
    return match_pb2.ResignationOffer(side=convert.side_to_proto(offer.side), kind=_KINDS.to_proto(offer.kind))


def kind_to_proto(kind: ResultKind) -> pb.ResultKind:
    """The ``ResultKind`` number."""
    number: pb.ResultKind = _KINDS.to_proto(kind)
    return number


def clock_state_to_proto(state: clock.ClockState) -> clock_pb2.ClockState:
    """A ``ClockState`` message."""
    def side(c: clock.SideClock) -> clock_pb2.SideClock:
        return clock_pb2.SideClock(extensions_left=c.extensions_left, reserve=ms_to_duration(c.reserve_ms),
                                   breaks_left=c.breaks_left)
    return clock_pb2.ClockState(white=side(state.white), black=side(state.black))


def forfeit_to_proto(forfeit: clock.Forfeit) -> clock_pb2.ClockForfeit:
    """A ``ClockForfeit`` with the outcome to pass to UpdateMatch (the other side wins)."""
    ending = (match_pb2.GAME_ENDING_FORFEIT_GAME if forfeit.scope is clock.ForfeitScope.GAME
              else match_pb2.GAME_ENDING_FORFEIT_MATCH)
    return clock_pb2.ClockForfeit(
        side=convert.side_to_proto(forfeit.side), reason=_FORFEITS.to_proto(forfeit.reason),
        outcome=match_pb2.GameOutcome(winner=convert.side_to_proto(forfeit.side.other), ending=ending,
                                      kind=pb.RESULT_KIND_SINGLE),
    )


def ruleset_to_proto(rules: Ruleset, preset: str) -> pb.Ruleset:
    """A ``Ruleset`` message with ``preset`` and every option set."""
    # the variant's own options (Variant.options), written only for the variant that has them
    options = {name: getattr(rules, name) for name in find_variant(rules.variant).options}
    return pb.Ruleset(
        **options,
        preset=preset, start=STARTS.to_proto(rules.start),
        katmerli_mars=KATMERLI.to_proto(rules.katmerli_mars),
        cube=rules.cube, crawford=rules.crawford_in_play, jacoby=rules.jacoby, beavers=rules.beavers,
        cube_limit=rules.cube_limit,
        match_lengths=pb.MatchLengths(lengths=rules.match_lengths, money_play=rules.money_play),
        variant=rules.variant,
    )


def preset_to_proto(info: PresetInfo, analysis: str) -> match_pb2.RulesetPreset:
    """A ``RulesetPreset`` message, with its variant's facts (its class data; ``analysis`` as
    :func:`variant_facts_to_proto` takes it)."""
    variant = info.ruleset.variant_class
    return match_pb2.RulesetPreset(name=info.name, aliases=info.aliases, description=info.description,
                                   ruleset=ruleset_to_proto(info.ruleset, info.name), title=variant.title,
                                   title_tr=variant.title_tr, variant=variant_facts_to_proto(variant, analysis))


def variant_facts_to_proto(variant: type[Variant], analysis: str) -> match_pb2.VariantFacts:
    """A ``VariantFacts`` message: what ``variant`` is, from its class data.

    :param analysis: what AnalysisService evaluates it with, ``"neural_net"`` or ``"search"``
        (the analysis layer's ``Evaluator`` value, which the caller above the codec reads).
    """
    return match_pb2.VariantFacts(
        name=variant.name, aliases=variant.aliases, direction=variant.direction.value,
        contact=variant.contact.value, bar=variant.bar, checkers=variant.checkers, home=variant.home,
        cube=variant.cube,
        options=[match_pb2.VariantOption(name=k, default_value=v) for k, v in variant.options.items()],
        doubles_cascade=any(variant.next_throw((d, d), 99) is not None for d in range(1, 7)),
        analysis=analysis,
    )
