"""Turkish names, in one alias table (R26; STYLE: "Turkish names live in one alias table").

A roll is named in Persian numerals, the larger die first: yek 1, dü 2, se 3, cihar 4, penç 5,
şeş 6 (seed 000). :data:`ROLL_NAMES` maps each of the 21 rolls to the name the engine returns
(seed 000's spelling, as RULES.md R26 writes it) and the other spellings the seeds use. Seed 004
writes five names as two words: "hep yek" (1-1), "dü se" (3-3), "dü beş" (5-5), "dü şeş"
(6-6) and "şeş beş" (6-5); we return 000's one-word forms "hepyek", "düse", "dübeş", "düşeş",
"şeşbeş" and accept both. Note that 5-5 is "dübeş" with the Turkish "beş", not "penç".

Other terms: gammon is *mars*, backgammon *katmerli mars*, a roll that fails to enter from the
bar is *gele* (seed 001: "gele atma").
"""

from __future__ import annotations

from tavla.core.errors import InvalidInputError

NUMERALS = {1: "yek", 2: "dü", 3: "se", 4: "cihar", 5: "penç", 6: "şeş"}
GELE = "gele"
RESULT_NAMES = {"gammon": "mars", "backgammon": "katmerli mars"}  # by ResultKind value

# (larger die, smaller die) -> (name returned, other spellings accepted)
ROLL_NAMES: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {
    (6, 6): ("düşeş", ("dü şeş",)),
    (6, 5): ("şeşbeş", ("şeş beş",)),
    (6, 4): ("şeş cihar", ()),
    (6, 3): ("şeş se", ()),
    (6, 2): ("şeş dü", ()),
    (6, 1): ("şeş yek", ()),
    (5, 5): ("dübeş", ("dü beş",)),
    (5, 4): ("penç cihar", ()),
    (5, 3): ("penç se", ()),
    (5, 2): ("penç dü", ()),
    (5, 1): ("penç yek", ()),
    (4, 4): ("dört cihar", ()),
    (4, 3): ("cihar se", ()),
    (4, 2): ("cihar dü", ()),
    (4, 1): ("cihar yek", ()),
    (3, 3): ("düse", ("dü se",)),
    (3, 2): ("se dü", ()),
    (3, 1): ("se yek", ()),
    (2, 2): ("dubara", ()),
    (2, 1): ("dü yek", ()),
    (1, 1): ("hepyek", ("hep yek",)),
}

_BY_NAME: dict[str, tuple[int, int]] = {
    spelling: roll for roll, (name, others) in ROLL_NAMES.items() for spelling in (name, *others)
}


def _key(d1: int, d2: int) -> tuple[int, int]:
    for d in (d1, d2):
        if not 1 <= d <= 6:
            raise InvalidInputError("dice", f"die {d} is not 1-6 in {[d1, d2]}")
    return (max(d1, d2), min(d1, d2))


def roll_name(d1: int, d2: int) -> str:
    """The Turkish name of the roll ``d1``-``d2`` in either order, e.g. ``şeşbeş`` for 6-5.

    :raises InvalidInputError: a die is not 1-6 (field ``dice``).
    """
    return ROLL_NAMES[_key(d1, d2)][0]


def roll_aliases(d1: int, d2: int) -> tuple[str, ...]:
    """Other spellings of the roll's name found in the seeds (empty for most rolls)."""
    return ROLL_NAMES[_key(d1, d2)][1]


def roll_numbers(d1: int, d2: int) -> str:
    """The roll as numbers, larger die first: ``"6-5"``."""
    hi, lo = _key(d1, d2)
    return f"{hi}-{lo}"


def roll_from_name(text: str) -> tuple[int, int]:
    """The roll (larger die first) a Turkish name stands for, in any spelling of the seeds.

    Case and spacing are ignored except between words: ``"Şeş Beş"`` and ``"şeşbeş"`` are 6-5.

    :raises InvalidInputError: not a roll name (field ``name``).
    """
    key = " ".join(text.replace("I", "ı").replace("İ", "i").lower().split())
    try:
        return _BY_NAME[key]
    except KeyError:
        raise InvalidInputError("name", f"{text!r} is not the Turkish name of a roll") from None
