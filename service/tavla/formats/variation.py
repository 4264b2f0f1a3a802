"""Which variant a match record is of: GNU Backgammon's marks for its variations.

gnubg (``export match mat``, ``save match``; checked on the records it wrote in
tests/data/variants) marks a variation other than standard backgammon

* in a Jellyfish ``.mat`` with the header ``; [Variation "NackGammon"]`` or
  ``; [Variation "HyperGammon (3)"]`` (no header for standard backgammon);
* in ``.sgf`` with a token of the root's ``RU`` property beside ``Crawford``, ``CrawfordGame``
  and ``Jacoby``: ``RU[Crawford:Nackgammon]``, ``RU[Crawford:Hypergammon3]``.

Each variant's marks are its class data (``gnubg_header``, ``gnubg_rule``, ``record_names``).
ExportMatch writes gnubg's marks for those two and, for the variants gnubg has no mark for, the
variant's title (``; [Variation "Tavla"]``, ``"Portes"``, ``"Plakoto"``): both are read here.

The readers keep the ``.mat`` header as it is and put the ``RU`` token into the same header
(:func:`header_of_rule`), so one function (:func:`variant_of_headers`) reads both. gnubg's 1- and
2-checker hypergammon have no variant here: such a record is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping

import tavla.core  # noqa: F401  (registers every variant)
from tavla.core.rules.variant import find_variant, variants

HEADER = "Variation"

# gnubg's RU token -> its .mat header value; gnubg's 1- and 2-checker hypergammon are not
# variants here but their tokens are read, so that such a record is refused by name
RULE_HEADERS = {"Hypergammon1": "HyperGammon (1)", "Hypergammon2": "HyperGammon (2)",
                **{v.gnubg_rule: v.gnubg_header for v in variants() if v.gnubg_rule}}


def _by_header() -> dict[str, str]:
    """gnubg's marks and the other names a record gives a variant (lowercased) -> its name."""
    return {" ".join(mark.lower().split()): v.name for v in variants()
            for mark in (v.gnubg_header, *v.record_names) if mark}


class UnknownVariationError(ValueError):
    """A record of a gnubg variation that no variant here plays (1- or 2-checker hypergammon)."""


def header_of_rule(token: str) -> str | None:
    """The ``.mat`` ``Variation`` header value of an SGF ``RU`` token, or ``None`` when the token
    is not a variation (``Crawford``, ``Jacoby``, ...)."""
    return RULE_HEADERS.get(token)


def variant_of_headers(headers: Mapping[str, str]) -> str:
    """The variant name (``backgammon``, ``nackgammon``, ``hypergammon``) of a record's headers.

    :raises UnknownVariationError: a ``Variation`` header this engine has no variant for.
    """
    value = headers.get(HEADER)
    if value is None:
        return "backgammon"
    key = " ".join(value.lower().split())
    titles = _our_titles()
    found = _by_header().get(key) or titles.get(key)
    if found is None:
        raise UnknownVariationError(f"variation {value[:40]!r} is not one this engine plays "
                                    f"(it plays {', '.join(sorted(set(titles.values())))}; gnubg's "
                                    "NackGammon and HyperGammon (3))")
    return found


def _our_titles() -> dict[str, str]:
    """Lowercased title and name of every registered variant -> its name (what ExportMatch
    writes for a variant gnubg has no mark for)."""
    return {key: v.name for v in variants() for key in (" ".join(v.title.lower().split()), v.name)}


def header_for(variant: str) -> str | None:
    """The ``Variation`` header gnubg writes for ``variant``; ``None`` for backgammon."""
    found = find_variant(variant)
    return found.gnubg_header or None


def header_written(variant: str) -> str:
    """The ``Variation`` header ExportMatch writes for ``variant`` (a name or alias): gnubg's
    mark where gnubg has one (``NackGammon``, ``HyperGammon (3)``), else the variant's title
    (``Backgammon``, ``Tavla``, ``Plakoto``); :func:`variant_of_headers` reads each back.

    :raises InvalidInputError: an unknown variant (from :func:`~tavla.core.rules.variant.find_variant`).
    """
    found = find_variant(variant)
    return found.gnubg_header or found.title


def rule_for(variant: str) -> str | None:
    """The ``RU`` token gnubg writes for ``variant``; ``None`` for backgammon."""
    return find_variant(variant).gnubg_rule or None
