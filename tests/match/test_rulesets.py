"""Rulesets (RULES.md R3, R16-R21): the named presets, each option overridable, and the
ResolveRuleset / ListRulesets RPCs that let frontends show them."""

from __future__ import annotations

from dataclasses import replace

import grpc
import pytest

from tavla.core import InvalidInputError, KatmerliMarsRule, Ruleset, StartRule, preset
from tavla.core.match.ruleset import PRESET_INFO, check_cube_limit
import rpc_api as api
from tavla.v1 import types_pb2 as pb

TIMEOUT = 30


def test_international_preset():
    rules = preset("international")
    assert rules == preset("backgammon") == Ruleset()
    assert (rules.start, rules.katmerli_mars, rules.cube, rules.crawford) == (
        StartRule.INTERNATIONAL, KatmerliMarsRule.COUNTED, True, True)
    assert (rules.jacoby, rules.beavers, rules.cube_limit) == (False, False, 64)
    assert rules.match_lengths == () and rules.money_play


def test_turkish_preset():
    rules = preset("Tavla ")
    assert rules == preset("turkish")
    assert (rules.start, rules.katmerli_mars, rules.cube) == (StartRule.TURKISH, KatmerliMarsRule.AS_MARS, False)
    assert rules.match_lengths == (1, 3, 5, 7, 9, 11) and not rules.money_play
    assert not rules.crawford_in_play  # Crawford needs the cube


def test_every_option_overrides():
    rules = replace(preset("turkish"), cube=True, jacoby=True, beavers=True, cube_limit=1024,
                    match_lengths=(), money_play=True)
    assert rules.crawford_in_play and rules.allows_length(0) and rules.allows_length(13)


@pytest.mark.parametrize("limit", [0, 1, 3, 96, 2**31])
def test_cube_limit_is_a_power_of_two(limit):
    with pytest.raises(InvalidInputError):
        check_cube_limit(limit)


def test_preset_info_lists_both():
    listed = [(p.name, p.aliases) for p in PRESET_INFO]
    assert listed[:2] == [("international", ("backgammon",)), ("turkish", ("tavla",))]
    # the variants' presets (tests/variants/), each with its Turkish and other names
    for entry in [("portes", ("greek_backgammon",)), ("nackgammon", ("nack",)), ("hypergammon", ("hyper",)),
                  ("plakoto", ("mahbusa", "tapa")), ("fevga", ("moultezim",)), ("long_nardy", ("uzun_nard", "narde"))]:
        assert entry in listed


def test_list_rulesets_rpc(engine):
    presets = engine.ListRulesets(api.ListRulesetsRequest(), timeout=TIMEOUT).presets
    assert [p.name for p in presets][:2] == ["international", "turkish"]
    assert {"portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy"} <= {p.name for p in presets}
    turkish = presets[1].ruleset
    assert (turkish.start, turkish.katmerli_mars, turkish.cube) == (
        pb.START_RULE_TURKISH, pb.KATMERLI_MARS_RULE_AS_MARS, False)
    assert list(turkish.match_lengths.lengths) == [1, 3, 5, 7, 9, 11]
    assert presets[0].ruleset.cube_limit == 64 and presets[0].description
    # each preset names its variant (docs/variants.md)
    assert [p.ruleset.variant for p in presets][:2] == ["backgammon", "tavla"]
    assert {"portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy"} <= {p.ruleset.variant for p in presets}


def test_get_ruleset_rpc_resolves_overrides(engine):
    request = api.ResolveRulesetRequest(ruleset=pb.Ruleset(
        preset="backgammon", cube_limit=1024, jacoby=True,
        match_lengths=pb.MatchLengths(lengths=[13, 7], money_play=False)))
    rules = engine.ResolveRuleset(request, timeout=TIMEOUT).ruleset
    assert rules.preset == "international" and rules.cube_limit == 1024 and rules.jacoby
    assert list(rules.match_lengths.lengths) == [7, 13] and not rules.match_lengths.money_play
    assert rules.HasField("crawford") and rules.crawford
    default = engine.ResolveRuleset(api.ResolveRulesetRequest(), timeout=TIMEOUT).ruleset
    assert default.preset == "international" and default.cube and default.variant == "backgammon"


@pytest.mark.parametrize("preset_name, variant, expected", [
    ("", "", "backgammon"), ("turkish", "", "tavla"), ("", "Turkish", "tavla"),
    ("turkish", "international", "backgammon"), ("international", "TAVLA", "tavla"),
])
def test_resolve_ruleset_rpc_names_the_variant(engine, preset_name, variant, expected):
    # the variant by name or alias, case-insensitive, answered canonical; empty keeps the preset's
    request = api.ResolveRulesetRequest(ruleset=pb.Ruleset(preset=preset_name, variant=variant))
    rules = engine.ResolveRuleset(request, timeout=TIMEOUT).ruleset
    assert rules.variant == expected
    assert rules.preset == (preset_name or "international")  # the options stay the preset's


@pytest.mark.parametrize("ruleset, field", [
    (pb.Ruleset(cube_limit=100), "ruleset.cube_limit"),
    (pb.Ruleset(match_lengths=pb.MatchLengths(lengths=[0])), "ruleset.match_lengths.lengths"),
    (pb.Ruleset(preset="chess"), "ruleset.preset"),
    (pb.Ruleset(variant="chess"), "ruleset.variant"),
])
def test_get_ruleset_rpc_bad_options(engine, ruleset, field):
    with pytest.raises(grpc.RpcError) as info:
        engine.ResolveRuleset(api.ResolveRulesetRequest(ruleset=ruleset), timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in info.value.details()
