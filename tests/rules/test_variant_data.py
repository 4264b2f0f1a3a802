"""A variant is its class (docs/variants.md): the presets, the API's ruleset options, the
ListRulesets facts, the match files' variation marks and the analysis engine's variants are
read from the classes' data; the dice a throw plays come from one hook (``dice_to_play``)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from tavla.analysis.engine import ENGINE_VARIANTS
from tavla.core import Position, Side, find_variant, legal_moves, legal_steps, resolve, variants
from tavla.core.match.ruleset import PRESET_INFO, PRESETS, Ruleset, preset
from tavla.core.rules import notation
from tavla.core.rules.backgammon import Backgammon
from tavla.core.rules.variant import register, unregister
from tavla.formats import variation
from tavla.server.convert.common import VARIANT_OPTIONS
from tavla.server.convert.match import preset_to_proto


def test_one_preset_per_variant_from_its_class():
    assert [info.ruleset.variant for info in PRESET_INFO] == [v.name for v in variants()]
    assert set(PRESETS) == {v.preset_name() for v in variants()}
    assert preset("backgammon") is PRESETS["international"] and preset("tavla") is PRESETS["turkish"]
    assert preset("uzun nard").variant == "long_nardy" and preset("gioul").variant == "gul_bara"
    for v in variants():
        rules = PRESETS[v.preset_name()]
        assert {k: getattr(rules, k) for k in v.options} == dict(v.options)
        assert rules.cube == (v.cube and bool(v.preset_options.get("cube", True)))


def test_ruleset_option_defaults_are_the_variants():
    defaults = {f.name: f.default for f in dataclasses.fields(Ruleset)}
    for v in variants():
        for name, value in v.options.items():
            assert defaults[name] == value, (v.name, name)
    assert VARIANT_OPTIONS == ("prime_rule", "head_three_three", "koks")


def test_list_rulesets_publishes_each_variants_facts():
    facts = {info.ruleset.variant: preset_to_proto(info, "search").variant for info in PRESET_INFO}
    assert (facts["gul_bara"].direction, facts["gul_bara"].contact, facts["gul_bara"].bar) == ("same", "none", False)
    assert facts["gul_bara"].doubles_cascade and not facts["fevga"].doubles_cascade
    assert (facts["backgammon"].contact, facts["backgammon"].bar, facts["backgammon"].cube) == ("hit", True, True)
    assert facts["hypergammon"].checkers == 3 and facts["plakoto"].contact == "pin"
    assert [(o.name, o.default_value) for o in facts["long_nardy"].options] == [("head_three_three", True),
                                                                              ("koks", False)]
    assert facts["plakoto"].analysis == "search"  # as the caller above the codec says


def test_record_marks_and_engine_variants_from_class_data():
    assert variation.header_for("nackgammon") == "NackGammon" and variation.rule_for("hypergammon") == "Hypergammon3"
    assert variation.header_for("backgammon") is None and variation.header_written("gul_bara") == "Gul bara"
    assert variation.variant_of_headers({"Variation": "Gul bara"}) == "gul_bara"
    assert variation.variant_of_headers({"Variation": "Standard"}) == "backgammon"
    assert ENGINE_VARIANTS == {"backgammon", "tavla"}


class _TwiceDoubles(Backgammon):
    """A test variant whose double plays twice, not four times."""

    name = "test_twice_doubles"
    aliases: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def dice_to_play(d1: int, d2: int) -> tuple[int, ...]:
        return (d1, d2) if d1 >= d2 else (d2, d1)


@pytest.fixture
def twice():
    register(_TwiceDoubles)
    yield _TwiceDoubles
    unregister(_TwiceDoubles)


def test_the_turn_hook_decides_how_many_times_a_double_plays(twice):
    """The generator, the steps and the diagnosis read ``dice_to_play``; the compiled generator
    (backgammon's doubles rule) is dropped for a variant that redefines it."""
    assert twice.compiled_generate is None and not twice.moves_as(Backgammon)
    start = Position.initial(Side.WHITE, twice)
    moves = legal_moves(start, (6, 6))
    assert {m.dice_used for m in moves} == {2} and "24/18(2)" in {m.notation for m in moves}
    assert legal_steps(start, (6, 6)).dice_left == (6, 6)
    assert resolve(start, (6, 6), notation.parse("24/18(2)")).dice_used == 2
    assert legal_moves(Position.initial(Side.WHITE, find_variant("backgammon")), (6, 6))[0].dice_used == 4
