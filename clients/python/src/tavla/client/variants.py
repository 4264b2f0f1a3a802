"""Each variant's facts as the server publishes them (ListRulesets, ``RulesetPreset.variant``),
looked up by any name the server accepts, so a client reads a variant's direction, contact,
bar, checkers and home instead of keeping a table of names of its own."""

from __future__ import annotations

from collections.abc import Iterable

from tavla.v1 import match_pb2

__all__ = ["VariantTable", "variant_key"]


def variant_key(name: str) -> str:
    """``name`` as the server compares variant and preset names: case, spaces and hyphens
    ignored (``"Long-Nardy"`` and ``"long nardy"`` are ``"long_nardy"``)."""
    return "_".join(name.strip().casefold().replace("-", " ").split())


class VariantTable:
    """The ``VariantFacts`` of every variant one ListRulesets answer lists, by the variant's
    name and aliases and by its presets' names and aliases."""

    def __init__(self, presets: Iterable[match_pb2.RulesetPreset]) -> None:
        presets = list(presets)
        self._facts: dict[str, match_pb2.VariantFacts] = {}
        for p in presets:
            for name in (p.variant.name, *p.variant.aliases):
                self._facts.setdefault(variant_key(name), p.variant)
        for p in presets:  # a preset's names after every variant's: a variant's name wins
            for name in (p.name, *p.aliases):
                self._facts.setdefault(variant_key(name), p.variant)

    def facts(self, name: str) -> match_pb2.VariantFacts:
        """The facts of the variant called ``name`` (a ``Ruleset.variant`` or ``Ruleset.preset``
        value, or an alias of either).

        :raises KeyError: the server lists no variant or preset of that name.
        """
        found = self._facts.get(variant_key(name))
        if found is None:
            raise KeyError(f"unknown variant {name!r}: ListRulesets lists {', '.join(self.names())}")
        return found

    def names(self) -> list[str]:
        """The canonical names of the variants listed, in the server's order."""
        return list(dict.fromkeys(f.name for f in self._facts.values()))

    def same_direction(self, name: str) -> bool:
        """Whether both sides of the variant move the same way round the board (its
        ``direction`` is ``"same"``: white's point p is black's ((p + 11) mod 24) + 1)."""
        return self.facts(name).direction == "same"
