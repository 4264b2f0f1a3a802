"""Checks one fixture case (tests/variants/fixtures/*.json) against the reference; shared by the tests.

A case: ``position`` (neutral), optional ``dice`` and ``options``, and ``expect`` (what the source
suite asserts, re-stated) or, where that contradicts variants-rules.md "Ours", ``expected_by_us`` (which
then wins) with a ``conflict`` note. Expectation kinds:

- ``results``: the exact set of final positions of the roll (``legal_results``)
- ``moves``: checker moves the legal plays contain (``chain_moves``, own numbering, 25 bar, 0 off):
  a list = the exact set, or a dict with ``exactly`` / ``contains`` / ``excludes`` / ``count``
- ``steps``: ``{"die": d, "exactly"|"legal"|"illegal"|"count": ...}`` single steps with one die
- ``step_result``: ``{"die", "step", "position"}`` the position after one step
- ``plays``: over every legal play: ``first_from`` / ``first_two_from`` (the first steps' origin),
  ``dice_used`` (how many), ``used`` (the dice in order, one of a list), ``first_not_to`` (the first
  step's target is not this), ``count`` (distinct step sequences); ``some_step`` / ``no_step``:
  [die, from, to] steps that some / no legal play makes; ``head_leavers_min``: some play has at
  least this many steps from the 24-point
- ``not_pass``: the roll has a legal play
- ``outcome``: ``null`` or ``[winner, points]``
- ``play_legal`` / ``play_illegal``: a list of steps that is / is not a legal play of the roll
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


def load_cases() -> list[dict[str, Any]]:
    """Every case of every fixture file, each with its file name under ``file``."""
    out = []
    for path in sorted(FIXTURES.glob("*.json")):
        for case in json.loads(path.read_text())["cases"]:
            out.append(dict(case, file=path.name))
    return out


def _pairs(xs: list[list[int]]) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for a, b in xs}


def check(ref: Any, case: dict[str, Any]) -> None:
    """Assert that the reference ``ref`` (the module) meets the case; raises AssertionError naming the case."""
    pos = case["position"]
    opts = case.get("options", {})
    want = case.get("expected_by_us", case["expect"])
    dice = case.get("dice")
    cid = case["id"]
    for kind, exp in want.items():
        if kind == "results":
            got = ref.legal_results(pos, *dice, **opts)
            assert got == {ref.freeze(p) for p in exp}, f"{cid}: results {sorted(got)}"
        elif kind == "moves":
            got = ref.chain_moves(pos, *dice, **opts)
            spec = {"exactly": exp} if isinstance(exp, list) else exp
            if "exactly" in spec:
                assert got == _pairs(spec["exactly"]), f"{cid}: moves {sorted(got)}"
            assert _pairs(spec.get("contains", [])) <= got, f"{cid}: moves {sorted(got)}"
            assert not (_pairs(spec.get("excludes", [])) & got), f"{cid}: moves {sorted(got)}"
            if "count" in spec:
                assert len(got) == spec["count"], f"{cid}: moves {sorted(got)}"
        elif kind == "steps":
            got = ref.legal_steps(pos, exp["die"], **opts)
            if "exactly" in exp:
                assert got == _pairs(exp["exactly"]), f"{cid}: steps {sorted(got)}"
            assert _pairs(exp.get("legal", [])) <= got, f"{cid}: steps {sorted(got)}"
            assert not (_pairs(exp.get("illegal", [])) & got), f"{cid}: steps {sorted(got)}"
            if "count" in exp:
                assert len(got) == exp["count"], f"{cid}: steps {sorted(got)}"
        elif kind == "step_result":
            got = ref.apply_step(pos, exp["die"], tuple(exp["step"]), **opts)
            assert got is not None, f"{cid}: step {exp['step']} illegal"
            assert ref.freeze(got) == ref.freeze(exp["position"]), f"{cid}: after the step {got}"
        elif kind == "plays":
            plays = ref.legal_plays(pos, *dice, **opts)
            assert plays and plays[0][0], f"{cid}: no legal play"
            if "count" in exp:
                assert len(plays) == exp["count"], f"{cid}: {len(plays)} distinct plays"
            for steps, used, _final in plays:
                if "first_from" in exp:
                    assert steps[0][0] == exp["first_from"], f"{cid}: play {steps}"
                if "first_two_from" in exp:
                    assert steps[0][0] == steps[1][0] == exp["first_two_from"], f"{cid}: play {steps}"
                if "dice_used" in exp:
                    assert len(used) == exp["dice_used"], f"{cid}: play {steps}"
                if "used" in exp:
                    assert list(used) in exp["used"], f"{cid}: play {steps} uses {used}"
                if "first_not_to" in exp:
                    assert steps[0][1] != exp["first_not_to"], f"{cid}: play {steps}"
            if "head_leavers_min" in exp:
                most = max(sum(1 for f, _t in steps if f == 24) for steps, _u, _f in plays)
                assert most >= exp["head_leavers_min"], f"{cid}: at most {most} steps leave the 24-point"
            made = {(d, f, t) for steps, used, _final in plays for d, (f, t) in zip(used, steps)}
            for d, f, t in exp.get("some_step", []):
                assert (d, f, t) in made, f"{cid}: no legal play has {f}/{t} with the {d}: {sorted(made)}"
            for d, f, t in exp.get("no_step", []):
                assert (d, f, t) not in made, f"{cid}: a legal play has {f}/{t} with the {d}"
        elif kind == "not_pass":
            got = ref.legal_results(pos, *dice, **opts)
            assert got != {ref.freeze(pos)}, f"{cid}: no legal play"
        elif kind == "outcome":
            got = ref.outcome(pos, **opts)
            assert got == (tuple(exp) if exp is not None else None), f"{cid}: outcome {got}"
        elif kind in ("play_legal", "play_illegal"):
            got = ref.apply_play(pos, [tuple(s) for s in exp], *dice, **opts)
            assert (got is not None) == (kind == "play_legal"), f"{cid}: play {exp} gives {got}"
        else:
            raise AssertionError(f"{cid}: unknown expectation {kind!r}")
