"""One picture per rule of plakoto, fevga and long nardy:
the board drawn in the comment, the exact set of legal moves (or the end) asserted.

Boards are drawn in white's numbering, white on roll: the top row is white's 24..13, the
bottom row 12..1; ``W3`` three white checkers, ``B14`` fourteen black, ``Bw`` a white checker
pinned under one black (``Wb``: black pinned under white), ``.`` empty. Checkers not drawn are
borne off. Plakoto: black moves the opposite way (black's q is white's 25 - q, its mother on
white's 1); fevga and long nardy: the same way (black's 24, its start, is white's 12).
Rules: docs/variants-rules.md (the **Ours** readings), docs/variants.md.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tavla.core import GameOverError, IllegalMoveError, IllegalReason, Ruleset, Side, notation, resolve
from tavla.core.rules.moves import legal_moves
from tavla.core.rules.scoring import ResultKind, score_game
from tavla.core.rules.steps import legal_steps
from variant_neutral import to_core


def pos(variant: str, points: dict[int, str], on_roll: str = "W", **options: bool):
    """A position from white-numbered stacks (bottom first), the rest borne off."""
    w = sum(s.count("W") for s in points.values())
    b = sum(s.count("B") for s in points.values())
    p = to_core({"variant": variant, "on_roll": on_roll, "points": points, "bar": {"W": 0, "B": 0},
                 "off": {"W": 15 - w, "B": 15 - b}})
    if options:
        p = replace(p, variant=Ruleset(variant=variant, cube=False, **options).variant_class)
    return p


def moves(p, dice) -> set[str]:
    return {m.notation for m in legal_moves(p, dice)}


# ---------------------------------------------------------------------------------------------
# Plakoto


def test_plakoto_pin_lands_on_a_blot_and_the_pinned_checker_stays_under():
    # 24 23 22 21 20 19 18 17 16 15 14 13
    # W13  .  .  .  .  .  .  .  .  .  . W2
    # 12 11 10  9  8  7  6  5  4  3  2  1
    #  .  .  .  .  . B1  .  .  .  .  . B14
    p = pos("plakoto", {24: "W" * 13, 13: "WW", 7: "B", 1: "B" * 14})
    assert moves(p, (6, 2)) == {"13/7* 13/11", "13/7*/5", "24/16", "24/18 13/11", "24/18 24/22",
                                "24/22 13/7*"}
    pinned = next(m for m in legal_moves(p, (6, 2)) if m.notation == "13/7* 13/11").result
    assert pinned.side(Side.BLACK).pinned == (18,)  # white's 7 is black's 18
    assert pinned.side(Side.BLACK).points[17] == 1 and pinned.side(Side.WHITE).points[6] == 1
    # the pinned black checker cannot move: black on roll, its 18 is not a source
    assert not any(s.from_point == 18 for m in legal_moves(pinned, (6, 5)) for s in m.steps)


def test_plakoto_point_closed_by_a_pinner_of_your_checker():
    # 24 23 22 21 20 19 18 17 16 15 14 13
    # W12  .  .  .  .  .  .  .  .  .  . W2
    # 12 11 10  9  8  7  6  5  4  3  2  1
    #  .  .  .  .  . Bw  .  .  .  .  . B13      (white's checker on 7 pinned under one black)
    p = pos("plakoto", {24: "W" * 12, 13: "WW", 7: "WB", 1: "B" * 13})
    assert moves(p, (6, 5)) == {"13/2", "24/13", "24/18 13/8", "24/18 24/19"}  # never 13/7
    with pytest.raises(IllegalMoveError) as err:
        resolve(p, (6, 5), notation.parse("13/7 13/8"))
    assert err.value.reason is IllegalReason.POINT_BLOCKED


def test_plakoto_pinned_checker_stops_the_bear_off():
    #  6  5  4  3  2  1                          (all white home, one pinned on 3)
    #  . W2  . Bw W1 B14
    p = pos("plakoto", {5: "WW", 3: "WB", 2: "W", 1: "B" * 14})
    assert moves(p, (4, 1)) == {"5/4"}
    with pytest.raises(IllegalMoveError) as err:
        resolve(p, (4, 1), notation.parse("5/off 5/4"))
    assert err.value.reason is IllegalReason.BEAR_OFF_NOT_ALLOWED
    free = pos("plakoto", {5: "WW", 2: "W", 1: "B" * 15})  # the same without the pin
    assert moves(free, (4, 1)) == {"5/off"}


def test_plakoto_mother_pinned_loses_two_points():
    #  6  5  4  3  2  1        white's mother has left its 24; black's mother (white's 1) alone
    #  .  . W13 W2 B14 B1
    p = pos("plakoto", {4: "W" * 13, 3: "WW", 2: "B" * 14, 1: "B"})
    found = {m.notation: m.result for m in legal_moves(p, (2, 1))}
    assert set(found) == {"4/1*", "3/1*/off"}
    won = found["4/1*"]
    assert won.winner is Side.WHITE and not won.drawn
    result = score_game(won, Ruleset(variant="plakoto", cube=False))
    assert (result.kind, result.points) == (ResultKind.GAMMON, 2)
    assert won.variant.ending(won, Side.WHITE) == "mother_pinned"
    with pytest.raises(GameOverError):
        legal_moves(won, (3, 1))
    # judged on the position after the whole move: a pin released again leaves no loss
    assert found["3/1*/off"].winner is None


def test_plakoto_mother_pinned_while_the_pinners_mother_is_home_plays_on():
    # 24 .. 23                       white's mother (24) still home: pinning black's goes on
    # W2    B1
    #  3  2  1
    # W2 B12 B1
    p = pos("plakoto", {24: "WW", 23: "B", 3: "WW", 2: "B" * 12, 1: "B"})
    after = {m.notation: m.result for m in legal_moves(p, (2, 1))}
    assert set(after) == {"24/21", "24/22 24/23*", "24/23* 3/1*"}
    on = after["24/23* 3/1*"]
    assert on.side(Side.BLACK).pinned == (2, 24)  # white's 23 and 1
    assert on.winner is None and not on.drawn


def test_plakoto_both_mothers_pinned_is_a_draw():
    # 24                                       white's mother pinned under black (Bw)
    # Bw
    #  5  4  3  2  1
    # W12 .  W2 B12 B1                          black's mother alone on white's 1
    p = pos("plakoto", {24: "WB", 5: "W" * 12, 3: "WW", 2: "B" * 12, 1: "B"})
    found = {m.notation: m.result for m in legal_moves(p, (2, 1))}
    assert set(found) == {"5/3 5/4", "5/4 3/1*"}
    draw = found["5/4 3/1*"]
    assert draw.drawn and draw.winner is None
    with pytest.raises(GameOverError) as err:
        legal_moves(draw, (1, 2))
    assert "draw" in str(err.value)


# ---------------------------------------------------------------------------------------------
# Fevga


def test_fevga_start_rule_first_checker_passes_the_opponents_start_first():
    # 24 23 22 21 20 19 18 17 16 15 14 13
    # W14  .  .  . W1  .  .  .  .  .  .  .
    # 12 11 10  9  8  7  6  5  4  3  2  1
    # B15  .  .  .  .  .  .  .  .  .  .  .
    p = pos("fevga", {24: "W" * 14, 20: "W", 12: "B" * 15})
    assert moves(p, (3, 2)) == {"20/15"}  # the runner alone, until it is past white's 12
    with pytest.raises(IllegalMoveError) as err:
        resolve(p, (3, 2), notation.parse("24/21 20/18"))
    assert err.value.reason is IllegalReason.NO_CHECKER_THERE
    # once past (on 11) any checker moves
    past = pos("fevga", {24: "W" * 14, 11: "W", 12: "B" * 14, 5: "B"})
    assert moves(past, (3, 2)) == {"11/6", "24/19", "24/21 11/9", "24/21 24/22", "24/22 11/8"}
    # a double: the runner passes first (13/10), then the head may move: every order is tried
    runner = pos("fevga", {24: "W" * 14, 13: "W", 12: "B" * 15})
    assert moves(runner, (3, 3)) == {"13/1", "24/15 13/10", "24/18 13/7", "24/18 24/21 13/10", "24/21 13/4",
                                     "24/21(2) 13/7", "24/21(3) 13/10"}
    # the very first move: 6-6 plays one checker to 18 (12 is black's start): the rest is lost
    start = pos("fevga", {24: "W" * 15, 12: "B" * 15})
    assert moves(start, (6, 6)) == {"24/18"} and moves(start, (6, 5)) == {"24/13"}


def test_fevga_own_starting_quarter_never_all_held():
    # 24 23 22 21 20 19 18 ... 13
    # W10 W1 W1 W1 W1  .  .       (19 is the last open point of white's 19-24)
    # 12 11 10 ...  5
    # B14  . W1      B1
    p = pos("fevga", {24: "W" * 10, 23: "W", 22: "W", 21: "W", 20: "W", 10: "W", 12: "B" * 14, 5: "B"})
    found = moves(p, (5, 1))
    assert "24/19 10/9" not in found and "24/19 20/19" in found
    assert not any(m.startswith("24/19") and m not in {"24/19 20/19", "24/19 21/20", "24/19 22/21",
                                                          "24/19 23/22"} for m in found)
    assert found == {
        "10/4", "20/14", "20/15 10/9", "21/15", "21/16 10/9", "21/16 20/19", "22/16", "22/17 10/9",
        "22/17 20/19", "22/17 21/20", "22/21 20/15", "23/17", "23/18 10/9", "23/18 20/19", "23/18 21/20",
        "23/18 22/21", "23/22 20/15", "23/22 21/16", "24/18", "24/19 20/19", "24/19 21/20", "24/19 22/21",
        "24/19 23/22", "24/23 20/15", "24/23 21/16", "24/23 22/17"}


PRIME = {24: "W" * 9, 11: "W", 10: "W", 9: "W", 8: "W", 7: "WW", 12: "B" * 15}
# 24 23 ... 13
# W9
# 12 11 10  9  8  7  6          7/6 would hold white's 11-6 = black's 23-18 with all 15 black
# B15 W1 W1 W1 W1 W2  .         checkers behind (on black's 24, white's 12)
PRIME_MOVES = {"10/7", "10/8 7/6", "10/8 9/8", "10/9 7/5", "10/9 8/6", "11/10 7/5", "11/10 8/6", "11/10 9/7",
               "11/8", "11/9 10/9", "11/9 7/6", "11/9 8/7", "24/21", "24/22 10/9", "24/22 11/10", "24/22 8/7",
               "24/22 9/8", "24/23 10/8", "24/23 11/9", "24/23 7/5", "24/23 8/6", "24/23 9/7", "7/4",
               "7/5 7/6", "8/5", "8/6 7/6", "9/6", "9/7 8/7", "9/8 7/5"}


def test_fevga_prime_rule_option():
    on = pos("fevga", PRIME)
    assert moves(on, (2, 1)) == PRIME_MOVES | {"24/22 24/23"}
    off = pos("fevga", PRIME, prime_rule=False)
    assert moves(off, (2, 1)) == PRIME_MOVES | {"24/22 24/23", "24/22 7/6"}


# ---------------------------------------------------------------------------------------------
# Long nardy


def test_nardy_head_rule_one_checker_off_the_head():
    # 24 23 22 21 20 ... 13
    # W14  .  .  . W1
    # 12 ...  5
    # B14     B1
    p = pos("long_nardy", {24: "W" * 14, 20: "W", 12: "B" * 14, 5: "B"})
    assert moves(p, (5, 3)) == {"24/16", "24/19 20/17", "24/21 20/15"}  # never 24/19 24/21
    with pytest.raises(IllegalMoveError):
        resolve(p, (5, 3), notation.parse("24/19 24/21"))
    state = legal_steps(p, (5, 3))
    after = legal_steps(p, (5, 3), [s for s in state.next_steps if s.from_point == 24][:1])
    assert all(s.from_point != 24 for s in after.next_steps)


@pytest.mark.parametrize(("dice", "expected"), [
    ((6, 6), {"24/18(2)"}), ((4, 4), {"24/16(2)"}), ((3, 3), {"24/18(2)", "24/15 24/21"}),
    ((6, 3), {"24/15"}), ((5, 2), {"24/17"}), ((1, 1), {"24/20"}),
])
def test_nardy_first_throw_doubles_take_two_off_the_head(dice, expected):
    # 24 ... 13 / 12 ... 5            white's first throw (all 15 on its head)
    # W15       / B14    B1
    p = pos("long_nardy", {24: "W" * 15, 12: "B" * 14, 5: "B"})
    assert moves(p, dice) == expected


def test_nardy_three_three_option_off():
    p = pos("long_nardy", {24: "W" * 15, 12: "B" * 14, 5: "B"}, head_three_three=False)
    assert moves(p, (3, 3)) == {"24/15"} and moves(p, (6, 6)) == {"24/18(2)"}


def test_nardy_six_block_needs_an_opposing_checker_past_it():
    p = pos("long_nardy", PRIME)  # the prime picture above; one checker off the head per turn
    assert moves(p, (2, 1)) == PRIME_MOVES
    # with a black checker past the six (black's 17 = white's 5) the block is allowed
    past = pos("long_nardy", {**PRIME, 12: "B" * 14, 5: "B"})
    found = moves(past, (2, 1))
    assert "24/22 7/6" in found and "7/5 7/6" not in found  # 5 is black's


def test_nardy_scoring_oin_mars_koks():
    # white has borne off all; black has borne off nothing, one checker on white's 20 (black's 8)
    over = pos("long_nardy", {20: "B" * 15}, on_roll="B")
    assert over.winner is Side.WHITE
    plain = score_game(over, Ruleset(variant="long_nardy", cube=False))
    assert (plain.kind, plain.points) == (ResultKind.GAMMON, 2)  # mars
    koks_rules = Ruleset(variant="long_nardy", cube=False, koks=True)
    koks = score_game(replace(over, variant=koks_rules.variant_class), koks_rules)
    assert (koks.kind, koks.points) == (ResultKind.BACKGAMMON, 3)
    assert koks_rules.variant_class.kind_names[ResultKind.BACKGAMMON] == "koks"
    # black's checkers past the winner's starting quarter: mars even with koks on
    home = pos("long_nardy", {13: "B" * 15}, on_roll="B")
    assert score_game(replace(home, variant=koks_rules.variant_class), koks_rules).points == 2
    oin = pos("long_nardy", {13: "B" * 14}, on_roll="B")
    assert score_game(oin, Ruleset(variant="long_nardy", cube=False)).points == 1


def test_no_cube_in_these_variants():
    for name in ("plakoto", "mahbusa", "fevga", "moultezim", "long_nardy", "uzun_nard", "narde"):
        with pytest.raises(Exception, match="no doubling cube"):
            Ruleset(variant=name)


def test_nardy_two_off_the_head_with_a_plain_first_throw_names_the_head_rule():
    # 24 ... 13 / 12 ... 5            white's first throw, 6-3: one checker off the head
    # W15       / B14    B1
    p = pos("long_nardy", {24: "W" * 15, 12: "B" * 14, 5: "B"})
    with pytest.raises(IllegalMoveError) as err:
        resolve(p, (6, 3), notation.parse("24/18 24/21"))
    assert err.value.reason is IllegalReason.NO_CHECKER_THERE and "head" in str(err.value)
    first = next(s for s in legal_steps(p, (6, 3)).next_steps if s.die == 6)
    with pytest.raises(IllegalMoveError) as err:
        legal_steps(p, (6, 3), [first, type(first)(24, 21, 3)])
    assert "head" in str(err.value)


@pytest.mark.parametrize(("dice", "expected"), [((6, 2), "24/18"), ((2, 6), "24/18"), ((5, 3), "24/19")])
def test_nardy_first_plain_throw_one_checker_cannot_play_both_dice(dice, expected):
    # 24 ... 17 16 ... 13 / 12 ... 1     white's first throw after black's 5-5 (24/4: white's 16)
    # W15        B1       / B14
    # One checker off the head with a plain roll (the head rule; the first-throw exception is
    # for 6-6, 4-4, 3-3 only), and 24/18/16, 24/22/16 (24/19/16, 24/21/16) land on black's
    # runner: only one die can be played, so the larger (R7; variants-rules.md, long nardy).
    p = pos("long_nardy", {24: "W" * 15, 16: "B", 12: "B" * 14})
    assert [(m.notation, m.steps) for m in legal_moves(p, dice)] == [
        (expected, ((24, int(expected[3:]), max(dice), False),))]
    state = legal_steps(p, dice)
    assert state.next_steps == ((24, int(expected[3:]), max(dice), False),) and state.forced
    assert legal_steps(p, dice, state.next_steps).complete
    with pytest.raises(IllegalMoveError) as err:
        resolve(p, dice, notation.parse(f"24/{24 - min(dice)}"))
    assert err.value.reason is IllegalReason.MUST_USE_LARGER_DIE
    with pytest.raises(IllegalMoveError) as err:
        resolve(p, dice, notation.parse(f"{expected} 24/{24 - min(dice)}"))
    assert err.value.reason is IllegalReason.NO_CHECKER_THERE and "head" in str(err.value)
    smaller = type(state.next_steps[0])(24, 24 - min(dice), min(dice))
    with pytest.raises(IllegalMoveError) as err:
        legal_steps(p, dice, [smaller])
    assert err.value.reason is IllegalReason.MUST_USE_LARGER_DIE
