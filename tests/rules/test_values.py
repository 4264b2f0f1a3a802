"""tavla.core.values: the makers the turn analysis builds its values with give the values the
dataclass constructors give, and the makers and the copier refuse the classes they would build
wrong (the copier's values: tests/referee/test_referee_cache.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import pytest

from tavla.core.rules.position import Position, Side
from tavla.core.rules.steps import StepState, legal_steps
from tavla.core.rules.variant import load_variants
from tavla.core.values import evolve, maker


def test_a_made_step_state_is_the_constructors():
    position = Position.initial(Side.BLACK)
    analysis = legal_steps(position, (6, 6))  # the compiled path builds it with the makers
    args = {f.name: getattr(analysis, f.name) for f in fields(StepState) if f.name != "memo"}
    assert analysis == StepState(**args)
    assert analysis.position == position and len(analysis.dice_left) == 4 and analysis.next_steps
    made = maker(StepState, tuple(args))
    first, second = made(*args.values()), made(*args.values())
    assert first == analysis and first.turn_key == analysis.turn_key
    assert first.memo == {} and first.memo is not second.memo  # a default_factory runs per value


def test_defaults_and_order():
    @dataclass(frozen=True, slots=True)
    class Value:
        a: int
        b: str = "b"
        c: tuple[int, ...] = ()
        d: list[int] = field(default_factory=list)

    made = maker(Value, ("c", "a"))
    assert made((1, 2), 7) == Value(7, "b", (1, 2), [])
    assert maker(Value, ("a", "b", "c", "d"))(1, "x", (2,), [3]) == Value(1, "x", (2,), [3])
    with pytest.raises(TypeError, match="Value.a has no default"):
        maker(Value, ("b",))
    with pytest.raises(TypeError, match="no field 'e'"):
        maker(Value, ("a", "e"))


def test_classes_a_maker_would_build_wrong_are_refused():
    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            assert self.a >= 0

    @dataclass(frozen=True)
    class Unslotted:
        a: int

    @dataclass(frozen=True, slots=True)
    class Derived:
        a: int
        b: int = field(init=False, default=0)

    for cls in (Checked, Unslotted, Derived):
        with pytest.raises(TypeError, match="slotted dataclass made by its fields"):
            maker(cls, ("a",))
        with pytest.raises(TypeError, match="slotted dataclass made by its fields"):  # nor copied
            evolve(cls(1), a=-1)


def test_every_variant_analysis_through_the_makers():
    variants = load_variants()
    assert len(variants) >= 8
    for variant in variants:
        position = Position.initial(Side.WHITE, variant)
        analysis = legal_steps(position, (5, 2))
        assert analysis.position.variant is variant and analysis.position == position
