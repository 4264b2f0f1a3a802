"""ListRulesets says what AnalysisService evaluates each variant with (``VariantFacts.analysis``),
read from the variant's class (``Variant.engine_net``) and whether the engine is installed: the
fact the web board's level picker reads."""

from __future__ import annotations

import pytest

import rpc_api as api
from tavla.analysis import engine as net
from tavla.core import find_variant, variants
from tavla.server.api.match import MatchService

pytest.importorskip("bgsage")


def test_each_variant_names_its_net_or_the_search_player(engine):
    presets = engine.ListRulesets(api.ListRulesetsRequest()).presets
    facts = {p.variant.name: p.variant.analysis for p in presets}
    assert set(facts) == {v.name for v in variants()}
    for name, analysis in facts.items():
        assert analysis == ("neural_net" if find_variant(name).engine_net else "search"), name
    assert facts["backgammon"] == facts["tavla"] == "neural_net"
    assert facts["plakoto"] == facts["hypergammon"] == "search"


def test_without_the_engine_every_variant_is_the_search_players(monkeypatch):
    monkeypatch.setattr(net, "available", lambda: False)
    presets = MatchService().ListRulesets(api.ListRulesetsRequest(), None).presets
    assert {p.variant.analysis for p in presets} == {"search"}
    assert len(presets) == len(variants())
