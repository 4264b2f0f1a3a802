"""The variant core (core/rules/variant.py, core/rules/backgammon.py; docs/variants.md): a variant is a class
and a registry entry; one single-step rule per variant drives the generator, the diagnosis and
the steps; the compiled generator and the ID codecs are attributes of a variant.

The toy variants are defined here only: the core is not touched but through the registry, and
the referee (``tavla.core.game``) plays them because ``state.ruleset`` names them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tavla import core
from tavla.core import IllegalMoveError, IllegalReason, InvalidInputError, Position, Ruleset, Side
from tavla.core import game
from tavla.core.rules import notation
from tavla.core.ids import position_id
from tavla.core.ids import xgid
from tavla.core.rules.backgammon import Backgammon, TurkishTavla
from tavla.core.game import Action, ActionKind, Phase
from tavla.core.rules.movegen import CheckerMove, generate_python
from tavla.core.rules.outcome import GameEnding
from tavla.core.match.ruleset import preset
from tavla.core.rules.variant import (
    CodecError,
    Contact,
    Direction,
    ResultKind,
    Variant,
    find_variant,
    register,
    unregister,
    variants,
)

K = ActionKind


class Sprint(Backgammon):
    """A toy: 4 checkers a side, 2 on 20 and 2 on 10; hits as in backgammon; no backgammons (a
    checker left behind is only a gammon); and no larger-die rule: when only one die of two
    can be played, either may be (a turn filter of its own)."""

    name = "sprint"
    aliases = ("toy", "koşu")
    title = "Sprint"
    checkers = 4
    start = ((20, 2), (10, 2))
    kinds = (ResultKind.SINGLE, ResultKind.GAMMON)

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        return ResultKind.SINGLE if position.side(winner.other).off else ResultKind.GAMMON

    @staticmethod
    def turn_filter(best, results, d1, d2):
        return results  # R7's larger-die clause left out on purpose


class NoHit(Backgammon):
    """A toy whose single-step rule differs: a single opposing checker holds its point."""

    name = "no_hit"
    contact = Contact.NONE

    @staticmethod
    def sources(b, die, outside, top=25, bottom=1):
        return [f for f in Backgammon.sources(b, die, outside, top, bottom) if f - die <= 0 or b[f - die] >= 0]

    @classmethod
    def refusal(cls, b, f, die):
        if not (b[25] and f != 25) and b[f] > 0 and f - die > 0 and b[f - die] == -1:
            return IllegalReason.POINT_BLOCKED, f"point {f - die} is held by a single opposing checker"
        return Backgammon.refusal(b, f, die)


class NoIds(Backgammon):
    """A toy without ID formats."""

    name = "no_ids"
    codecs = {}


@pytest.fixture(autouse=True, scope="module")
def toys() -> Iterator[None]:
    for toy in (Sprint, NoHit, NoIds):
        register(toy)
    yield
    for toy in (Sprint, NoHit, NoIds):
        unregister(toy)


# ---------------------------------------------------------------------------------------------
# A class and a registry entry


def test_a_variant_is_a_class_not_an_instance():
    for v in (Backgammon, TurkishTavla, Sprint):
        assert isinstance(v, type) and issubclass(v, Variant)
    with pytest.raises(TypeError):
        Backgammon()


def test_the_first_two_variants_class_data():
    assert [v.name for v in variants()][:2] == ["backgammon", "tavla"]
    for v in (Backgammon, TurkishTavla):
        assert v.checkers == 15 and v.start == ((24, 2), (13, 5), (8, 3), (6, 5))  # R2
        assert v.direction is Direction.OPPOSITE and v.contact is Contact.HIT and v.bar and v.cube
        assert v.kinds == (ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON)
    assert TurkishTavla.kind_names[ResultKind.GAMMON] == "mars"
    assert TurkishTavla.kind_names[ResultKind.BACKGAMMON] == "katmerli mars"
    assert Backgammon.kind_names[ResultKind.BACKGAMMON] == "backgammon"
    # the same board: a position of either is the same position (R1, R2)
    assert Position.initial(variant=TurkishTavla) == Position.initial()
    assert Position.initial(variant=TurkishTavla).variant is TurkishTavla


@pytest.mark.parametrize("name, expected", [
    ("backgammon", Backgammon), ("Backgammon", Backgammon), ("INTERNATIONAL", Backgammon),
    ("tavla", TurkishTavla), ("Tavla", TurkishTavla), ("turkish", TurkishTavla),
    ("turkish-tavla", TurkishTavla), (" Turkish Tavla ", TurkishTavla), ("sprint", Sprint),
    ("koşu", Sprint), ("TOY", Sprint),
])
def test_the_registry_resolves_names_and_aliases(name, expected):
    assert find_variant(name) is expected


def test_an_unknown_variant_is_refused_naming_the_field():
    with pytest.raises(InvalidInputError) as err:
        find_variant("plakotoo")
    assert err.value.field == "ruleset.variant"
    assert "unknown variant 'plakotoo'" in err.value.reason and "tavla" in err.value.reason
    with pytest.raises(InvalidInputError) as err:
        Ruleset(variant="chess")
    assert err.value.field == "ruleset.variant"


def test_a_name_cannot_name_two_variants():
    class Clash(Backgammon):
        name = "clash"
        aliases = ("turkish",)

    with pytest.raises(ValueError, match="'turkish' already names variant 'tavla'"):
        register(Clash)
    assert find_variant("turkish") is TurkishTavla
    with pytest.raises(InvalidInputError):
        find_variant("clash")  # nothing of it was registered


def test_a_ruleset_names_its_variant():
    # today's presets answer as before: international plays backgammon, turkish plays tavla
    assert Ruleset().variant == "backgammon" and Ruleset().variant_class is Backgammon
    assert preset("international").variant == "backgammon"
    assert preset("turkish").variant == "tavla" and preset("tavla").variant_class is TurkishTavla
    assert Ruleset(variant="Turkish").variant == "tavla"  # stored canonical
    assert Ruleset(variant="toy") == Ruleset(variant="sprint")


def test_a_variant_without_a_cube_refuses_one():
    class NoCube(Backgammon):
        name = "no_cube"
        cube = False

    register(NoCube)
    try:
        assert Ruleset(variant="no_cube", cube=False).variant_class is NoCube
        with pytest.raises(InvalidInputError) as err:
            Ruleset(variant="no_cube")
        assert err.value.field == "ruleset.cube" and "no doubling cube" in err.value.reason
    finally:
        unregister(NoCube)


# ---------------------------------------------------------------------------------------------
# One single-step rule


def test_step_problem_is_the_generators_rule_on_random_boards():
    # the diagnosis asks the rule the generator uses: a step has no problem exactly when
    # sources lists it (R4-R14), for every point and die
    rng = random.Random(5)
    for _ in range(300):
        b = [0] * 26
        for _ in range(15):
            b[rng.choice(range(1, 26)) if rng.random() < 0.6 else rng.choice(range(1, 7))] += 1
        for _ in range(15):
            p = rng.randrange(0, 25)
            if b[p] <= 0:
                b[p] -= 1
        out = Backgammon.outside_count(b)
        for die in range(1, 7):
            allowed = set(Backgammon.sources(b, die, out))
            for f in range(0, 26):
                problem = Backgammon.step_problem(b, f, die)
                assert (problem is None) == (f in allowed), (b, f, die, problem)


def test_another_single_step_rule_drives_generator_diagnosis_and_steps():
    # NoHit's blot holds its point. Board (white on roll, white's numbering):
    #   white: 2 on 13, 13 off     black: a blot on white's 8, 14 on white's 24 (its 1)
    board = [0] * 26
    board[13], board[8], board[24] = 2, -1, -14
    for variant, hits in ((Backgammon, True), (NoHit, False)):
        position = Position(tuple(board), Side.WHITE, variant)
        moves = core.legal_moves(position, (5, 2))
        assert any(m.hits for m in moves) is hits
        expected = {"13/6", "13/8* 13/11", "13/8*/6"} if hits else {"13/6"}  # 13/11/6 only
        assert {m.notation for m in moves} == expected
    position = Position(tuple(board), Side.WHITE, NoHit)
    # the diagnosis (ApplyMove with notation)
    with pytest.raises(IllegalMoveError) as err:
        core.resolve(position, (5, 2), notation.parse("13/8 13/11"))
    assert err.value.reason is IllegalReason.POINT_BLOCKED
    assert "point 8 is held by a single opposing checker" in str(err.value)
    # the steps (ListLegalSteps, the referee's STEP)
    state = core.legal_steps(position, (5, 2))
    assert CheckerMove(13, 8, 5, False) not in state.next_steps
    assert {(s.from_point, s.to_point) for s in state.next_steps} == {(13, 11)}
    with pytest.raises(IllegalMoveError) as err:
        core.legal_steps(position, (5, 2), [CheckerMove(13, 8)])
    assert err.value.reason is IllegalReason.POINT_BLOCKED


def test_a_variant_turn_filter_replaces_r7():
    # White: 1 checker on 13, 3 off. Black: 2 on white's 2, 2 on white's 24. 6-5: 13/7 or 13/8
    # alone, never both (8/2 and 7/2 are blocked). R7 keeps the 6 (backgammon); Sprint's filter
    # keeps both.
    board = [0] * 26
    board[13], board[2], board[24] = 1, -2, -2
    bg = Position(tuple(board), Side.WHITE, Backgammon)
    toy = Position(tuple(board), Side.WHITE, Sprint)
    assert [m.notation for m in core.legal_moves(bg, (6, 5))] == ["13/7"]
    assert sorted(m.notation for m in core.legal_moves(toy, (6, 5))) == ["13/7", "13/8"]
    assert toy.side(Side.WHITE).off == 3 and toy.side(Side.BLACK).off == 0  # 4 checkers a side
    # the compiled generator is backgammon's: a variant with its own filter does not inherit it
    assert Sprint.compiled_generate is None and NoHit.compiled_generate is None
    assert generate_python(toy.board, 6, 5, Sprint)[1] != generate_python(bg.board, 6, 5)[1]


# ---------------------------------------------------------------------------------------------
# The toy plays whole games through the referee, named by state.ruleset


def _dice(seed: int) -> Iterator[int]:
    rng = random.Random(seed)
    while True:
        yield rng.randint(1, 6)


def _play_match(ruleset: Ruleset, seed: int) -> tuple[game.GameState, list[game.Transition]]:
    rng = random.Random(seed)
    dice = _dice(seed)
    state = game.new_match(ruleset, 1)
    done: list[game.Transition] = []
    for _ in range(5000):
        if state.phase is Phase.MATCH_OVER:
            return state, done
        actions = [a for a in game.list_actions(state)
                   if a.kind not in (K.DOUBLE, K.RESIGN, K.UNDO, K.CLAIM_TIMEOUT)]
        confirm = [a for a in actions if a.kind is K.CONFIRM_MOVE]
        action = confirm[0] if confirm else rng.choice(actions)
        result = game.act(state, action, dice=dice)
        done.append(result)
        state = result.state
        assert state.position.variant is ruleset.variant_class
        for side in Side:  # checkers conserved: the variant's 4 (R1)
            view = state.position.side(side)
            assert sum(view.points) + view.bar + view.off == ruleset.variant_class.checkers
    raise AssertionError("the match did not end")


def test_a_toy_variant_plays_whole_matches_through_the_referee():
    rules = Ruleset(variant="sprint", cube=False)
    kinds, hits = set(), 0
    for seed in range(12):
        state = game.new_match(rules, 1)
        assert state.position == Position(Sprint.initial_board(), Side.WHITE)
        final, transitions = _play_match(rules, seed)
        started = [t for t in transitions if t.roll_off]
        assert len(started) == 1
        first = started[0].state.position
        assert first.variant is Sprint and first.board in (Sprint.initial_board(),)
        # white 2 on 20 and 2 on 10; black likewise in its numbering (white's 5 and 15)
        assert first.side(Side.WHITE).points[19] == 2 and first.side(Side.WHITE).points[9] == 2
        assert first.side(Side.WHITE).off == 0 and first.pip_count(Side.BLACK) == 60
        outcome = final.outcome
        assert outcome is not None and outcome.ending is GameEnding.BORNE_OFF
        winner_view = final.position.side(outcome.winner)
        assert winner_view.off == 4 and not any(winner_view.points)
        assert outcome.kind is Sprint.classify(final.position, outcome.winner)
        assert outcome.kind in Sprint.kinds  # never a backgammon
        assert final.outcome_points == (2 if outcome.kind is ResultKind.GAMMON else 1)
        assert final.match.score(outcome.winner) == 1 and final.match.winner is outcome.winner
        kinds.add(outcome.kind)
        hits += sum(t.hit for t in transitions)
    assert hits > 0  # the toy hits as backgammon does (R5)
    assert ResultKind.SINGLE in kinds


def test_a_checked_state_is_played_by_its_rulesets_variant():
    # a state rebuilt from outside (a plain Position) is bound to the ruleset's variant
    rules = Ruleset(variant="sprint", cube=False)
    state = game.new_match(rules, 1)
    state = game.act(state, Action(K.START_GAME), dice=_dice(3)).state
    plain = Position(state.position.board, state.position.on_roll)
    assert plain.variant is Backgammon
    from dataclasses import replace

    checked = game.check_state(replace(state, position=plain))
    assert checked.position.variant is Sprint


# ---------------------------------------------------------------------------------------------
# Codecs are attributes of a variant


def test_codecs_of_the_backgammon_geometry():
    for v in (Backgammon, TurkishTavla):
        assert v.codec("position_id") is position_id and v.codec("xgid") is xgid
        assert v.codec("gnubg_id").__name__ == "tavla.core.ids.match_id"
    tavla = position_id.decode("4HPwATDgc/ABMA", Side.WHITE, TurkishTavla)
    assert tavla.variant is TurkishTavla and tavla == Position.initial()
    assert position_id.encode(tavla) == "4HPwATDgc/ABMA"
    assert xgid.decode(xgid.encode_position(tavla), variant=TurkishTavla).position == tavla
    # Sprint's 4 checkers a side in a Position ID
    toy = Position.initial(variant=Sprint)
    back = position_id.decode(position_id.encode(toy), Side.WHITE, Sprint)
    assert back == toy and back.side(Side.BLACK).off == 0


def test_a_variant_without_codecs_says_so():
    position = Position.initial(variant=NoIds)
    with pytest.raises(CodecError) as err:
        NoIds.codec("position_id")
    assert isinstance(err.value, InvalidInputError) and err.value.field == "ruleset.variant"
    assert err.value.reason == "variant 'no_ids' has no position_id (its ID formats: none); give the board"
    with pytest.raises(CodecError, match="no position_id"):
        position_id.encode(position)
    with pytest.raises(CodecError, match="no xgid"):
        xgid.encode_position(position)
    with pytest.raises(CodecError) as err:
        position_id.decode("4HPwATDgc/ABMA", Side.WHITE, NoIds)
    assert err.value.field == "position.position_id"
    with pytest.raises(CodecError) as err:
        xgid.decode(xgid.encode_position(Position.initial()), variant=NoIds)
    assert err.value.field == "position.xgid"
