"""Where the referee's rolls come from, and checking a finished game's dice after the fact
(docs/security.md), without the server's key.

Before a game the referee publishes ``dice_commitment`` = SHA-256 of the game's secret; when the
game ends it reveals the secret (``revealed_seed``). Every roll of the game's record was the
first dice of :func:`tavla.core.match.dice.seeded_dice` (secret, the roll's ``roll_tag``): the
roll-off throws (white's die, then black's) and, under the Turkish start rule, the starter's
two dice; a ROLL's two dice. The tag is :func:`roll_label`: the game, the turn number, the
position and the cube, nothing else, so the steps made and taken back before a roll, or a
resignation offered and rejected, cannot change it.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from tavla.core.match.dice import seeded_dice
from tavla.core.match.dice_commit import commitment_of
from tavla.core.ids import family_id, position_id
from tavla.core.rules.variant import POSITION_ID
from tavla.core.game.state import ActionKind, GameState, Record
from tavla.core.match.ruleset import StartRule

ROLL_SCHEME = "tavla-roll-v2"


def roll_label(state: GameState, kind: ActionKind) -> str:
    """The label (client seed of :func:`~tavla.core.match.dice.seeded_dice`) of the roll ``kind``
    makes in ``state``: ``tavla-roll-v2/g<game>/start`` for START_GAME (R3), and for a ROLL
    ``tavla-roll-v2/g<game>/t<turn>/<Position ID>/<w|b on roll>/c<cube value><owner w|b|->``,
    with turn the number of the roll in its game (START_GAME's dice are 1) and, for the
    variants without a Position ID (plakoto, fevga, long nardy), the Family ID. ``game`` counts
    from 0; the game's secret already binds the match and the game, the label names them again
    so a record reads on its own.
    """
    game = state.match.games_played
    if kind is ActionKind.START_GAME:
        return f"{ROLL_SCHEME}/g{game}/start"
    cube = state.match.cube
    owner = "-" if cube.owner is None else cube.owner.name[0].lower()
    side = state.position.on_roll.name[0].lower()
    position = state.position
    named = position_id.encode(position) if POSITION_ID in position.variant.codecs else family_id.encode(position)
    return (f"{ROLL_SCHEME}/g{game}/t{state.turn + 1}/{named}/{side}"
            f"/c{cube.value}{owner}")


def verify_game_dice(record: Sequence[Record], revealed_seed: str, commitment: str,
                     start: StartRule) -> list[str]:
    """The problems found with a game's rolls; empty when every roll checks out.

    :param record: the game's record (the state at its end).
    :param revealed_seed: the hex secret revealed at its end.
    :param commitment: the commitment published before its first roll.
    :param start: the ruleset's start rule (R3), which says how a start draws its dice.
    """
    try:
        secret = bytes.fromhex(revealed_seed)
    except ValueError:
        return ["the revealed seed is not hex"]
    problems = []
    if not hmac.compare_digest(commitment_of(secret), commitment.lower()):
        problems.append("the revealed seed does not match the commitment")
    for entry in record:
        if entry.kind not in (ActionKind.START_GAME, ActionKind.ROLL):
            continue
        stream = seeded_dice(secret, entry.roll_tag)
        expected: list[int] = []
        for _ in entry.roll_off:
            expected += [next(stream), next(stream)]
        drawn = [d for pair in entry.roll_off for d in pair]
        if entry.kind is ActionKind.ROLL or not entry.roll_off or start is StartRule.TURKISH:
            # a roll is recorded larger die first: its two dice are compared as a pair
            expected += sorted([next(stream), next(stream)], reverse=True)
            drawn += list(entry.dice)
        if expected != drawn:
            problems.append(f"action {entry.sequence}: dice {drawn} are not the seed's {expected}")
    return problems
