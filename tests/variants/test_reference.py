"""The independent variant reference (tests/variants/reference) against the public suites' facts and pictures.

Three parts:

1. every fixture of tests/variants/fixtures/*.json (gammonx-server and the long-narde port,
   re-stated; where a suite contradicts variants-rules.md "Ours" the case carries ``expected_by_us``)
   holds for the reference, and every recorded conflict is real (the suite's own claim fails);
2. one picture test per rule of variants-rules.md: the board drawn in the test, the exact legal set;
3. Hypothesis self-play of every variant: checkers conserved, stacks well formed, the two
   enumerations of the reference agree, and every game ends.

Pictures: white's numbering, 13-24 on the top row, 12-1 on the bottom row; a cell lists the
checkers bottom-up as colour+count groups ("W2" two white, "B1W1" a black checker pinned under a
white one). Plays are written in the MOVER's own numbering ("24/18 13/off"), as players write them.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from variants import reference as ref
from variants.fixture_check import check, load_cases
from variants.reference.core import CHECKERS, SAME, WITH_BAR

CASES = load_cases()


# --- helpers: a picture parser and a mechanical mover (no legality: that is the reference's job) ---

def board(variant: str, on_roll: str, picture: str, bar: tuple[int, int] = (0, 0), off: tuple[int, int] = (0, 0)) -> dict:
    """The neutral position drawn in ``picture`` (two header rows of point numbers, each followed by its cells)."""
    rows = [ln.replace("|", " ").split() for ln in picture.strip("\n").splitlines() if ln.strip()]
    assert len(rows) == 4, picture
    points: dict[int, str] = {}
    for header, cells in ((rows[0], rows[1]), (rows[2], rows[3])):
        assert len(header) == len(cells) == 12, (header, cells)
        for p, cell in zip(header, cells):
            if cell != ".":
                points[int(p)] = "".join(c * int(n) for c, n in re.findall(r"([WB])(\d+)", cell))
    return {"variant": variant, "on_roll": on_roll, "points": points, "bar": {"W": bar[0], "B": bar[1]}, "off": {"W": off[0], "B": off[1]}}


def play(pos: dict, text: str) -> tuple:
    """``freeze`` of ``pos`` after the moves in ``text`` ("24/20 bar/22 6/off"), in the mover's own numbering."""
    variant, s = pos["variant"], pos["on_roll"]
    o = "B" if s == "W" else "W"
    pts = {int(p): v for p, v in pos["points"].items()}
    bar, off = dict(pos["bar"]), dict(pos["off"])
    for mv in text.split():
        a, b = mv.split("/")
        if a == "bar":
            bar[s] -= 1
        else:
            p = ref.own_to_white(variant, s, int(a))
            assert pts.get(p, "").endswith(s), (mv, pts.get(p))
            pts[p] = pts[p][:-1]
        if b == "off":
            off[s] += 1
        else:
            q = ref.own_to_white(variant, s, int(b))
            stack = pts.get(q, "")
            if variant in WITH_BAR and stack == o:
                bar[o] += 1
                stack = ""
            pts[q] = stack + s
    return ref.freeze({"variant": variant, "on_roll": s, "points": pts, "bar": bar, "off": off})


def results(pos: dict, *plays: str) -> set:
    return {play(pos, t) for t in plays}


# --- 1. the fixtures ---------------------------------------------------------------------------------

def test_fixture_counts():
    """The suites re-stated: at least the counts docs and the README name (a fixture file dropped would fail)."""
    by_file: dict[str, int] = {}
    for c in CASES:
        by_file[c["file"]] = by_file.get(c["file"], 0) + 1
    assert by_file["gammonx.json"] >= 240
    assert by_file["open_spiel_long_narde.json"] >= 50
    assert all(set(c["source"]) >= {"repository", "file", "test", "commit"} for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_fixture(case):
    """The reference meets each re-stated case (its expected_by_us where the suite contradicts Ours)."""
    check(ref, case)


@pytest.mark.parametrize("case", [c for c in CASES if "conflict" in c], ids=[c["id"] for c in CASES if "conflict" in c])
def test_conflict_is_real(case):
    """Where a case records a conflict, the suite's own expectation really fails under Ours."""
    assert case["conflict"]
    claim = {k: v for k, v in case.items() if k != "expected_by_us"}
    with pytest.raises(AssertionError):
        check(ref, claim)


# --- the neutral format -------------------------------------------------------------------------------

def test_geometry_matches_variants_md():
    """variants-rules.md: opposite directions, black's p = white's 25 - p; same direction, black's 24 = white's 12."""
    assert [ref.own_to_white("portes", "B", q) for q in (1, 6, 24)] == [24, 19, 1]
    assert [ref.own_to_white("fevga", "B", q) for q in (1, 6, 12, 13, 24)] == [13, 18, 24, 1, 12]
    assert all(ref.own_to_white(v, "W", q) == q for v in ref.VARIANTS for q in range(1, 25))
    assert ref.start_position("long_nardy")["points"] == {24: "W" * 15, 12: "B" * 15}
    assert ref.start_position("plakoto")["points"] == {24: "W" * 15, 1: "B" * 15}


def test_freeze_is_canonical():
    """JSON's string keys and empty points do not change the frozen form (neutral.md)."""
    a = {"variant": "fevga", "on_roll": "W", "points": {"24": "W" * 15, "12": "B" * 15, "3": ""}, "bar": {"W": 0, "B": 0}, "off": {"W": 0, "B": 0}}
    assert ref.freeze(a) == ref.freeze(ref.start_position("fevga")) == ("fevga", "W", ((12, "B" * 15), (24, "W" * 15)), 0, 0, 0, 0)
    assert ref.thaw(ref.freeze(a))["points"] == {12: "B" * 15, 24: "W" * 15}


@pytest.mark.parametrize("bad, error", [
    ({"variant": "chess"}, "variant"),
    ({"on_roll": "X"}, "on_roll"),
    ({"points": {24: "W" * 14, 12: "B" * 15}}, "side W: 14 checkers"),
    ({"points": {25: "W" * 15, 12: "B" * 15}}, "outside 1..24"),
    ({"points": {24: "W" * 14, 12: "B" * 15, 5: "BW"}}, "mixes colours"),
    ({"bar": {"W": 1, "B": 0}, "points": {24: "W" * 14, 12: "B" * 15}}, "has no bar"),
])
def test_bad_positions_are_refused(bad, error):
    pos = dict(ref.start_position("fevga"), **bad)
    with pytest.raises(ValueError, match=error):
        ref.legal_results(pos, 3, 1)


def test_plakoto_stacks_are_checked():
    """Plakoto allows one pinned checker under the other side's, nothing else mixed."""
    pos = dict(ref.start_position("plakoto"), points={24: "W" * 12, 1: "B" * 12, 5: "BWW", 20: "WB", 7: "B"})
    assert ref.legal_results(pos, 1, 2)
    for bad in ("WBW", "BBW"):
        with pytest.raises(ValueError, match="mixes colours"):
            ref.legal_results(dict(pos, points={24: "W" * 13, 1: "B" * 12, 5: bad, 20: "W"}), 1, 2)


def test_bad_dice_and_options_are_refused():
    with pytest.raises(ValueError, match="dice"):
        ref.legal_results(ref.start_position("portes"), 0, 3)
    with pytest.raises(TypeError, match="unknown option"):
        ref.legal_results(ref.start_position("portes"), 1, 3, cube=True)


def test_no_play_gives_the_position_itself():
    """neutral.md: the empty play gives {freeze(pos)}; on_roll stays the mover."""
    pos = board("portes", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . | B2 B2 B2 B2 B2 B2
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  .  .  .  .
    """, bar=(1, 0), off=(14, 3))
    assert ref.legal_results(pos, 6, 6) == {ref.freeze(pos)}
    assert ref.legal_plays(pos, 6, 6) == [((), (), ref.freeze(pos))]


# --- 2. one picture per rule ----------------------------------------------------------------------------

def test_backgammon_r7_larger_die_and_hit():
    """R5/R8/R7: a blot is hit; when either die but not both can be played, the larger (3) is."""
    pos = board("portes", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
        W1  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  . B1 B2  .  . |  .  .  .  .  .  .
    """, off=(14, 12))
    # 13/10* then 10/9 (two black) is blocked; 13/12 then 12/9 likewise: one die only, the 3
    assert ref.legal_results(pos, 3, 1) == results(pos, "13/10")
    assert ref.apply_play(pos, [(13, 12)], 3, 1) is None


def test_portes_enter_from_the_bar():
    """R8/R9: with a checker on the bar nothing else moves; a 6 enters on black's 19 (white's 6)."""
    pos = board("portes", "B", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
        W1  .  .  .  .  . |  . W2 W2 W2 W2 W2
    """, bar=(0, 1), off=(4, 14))
    assert ref.legal_results(pos, 6, 1) == results(pos, "bar/19 19/18")
    assert ref.legal_results(pos, 1, 2) == {ref.freeze(pos)}  # both entry points closed: the turn passes


def test_portes_and_backgammon_scoring():
    """Portes: a gammon is 2, never 3; backgammon (R16) counts 3 with a loser's checker in the winner's home."""
    pic = """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . | B5  .  .  .  . B10
    """
    assert ref.outcome(board("portes", "B", pic, off=(15, 0))) == ("W", 2)
    assert ref.outcome(board("backgammon", "B", pic, off=(15, 0))) == ("W", 3)
    one_off = board("portes", "B", pic.replace("B10", "B9"), off=(15, 1))
    assert ref.outcome(one_off) == ("W", 1)
    assert ref.outcome(ref.start_position("portes")) is None


def test_plakoto_pin_and_free():
    """Plakoto: landing on a lone black checker pins it; the pinner moving on frees it (no hitting, no bar)."""
    pos = board("plakoto", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  . B1  .  .  . W2
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  .  .  .  .
    """, off=(13, 14))
    pinned_and_23 = board("plakoto", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  . B1W1 .  . W1  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  .  .  .  .
    """, off=(13, 14))
    assert ref.legal_results(pos, 4, 1) == {ref.freeze(pinned_and_23), play(pos, "24/20 20/19")}
    assert play(pos, "24/23 24/20") == ref.freeze(pinned_and_23)


def test_plakoto_pinned_checker_and_closed_point():
    """Plakoto: the pinned checker cannot move and its point is closed to its side; 18/14 fails, 18/17/13 is the play."""
    pos = board("plakoto", "B", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         . B1W1 .  .  . B1 |  .  .  .  .  .  .
    """, off=(14, 13))
    assert ref.legal_results(pos, 4, 1) == results(pos, "18/17 17/13")


def test_plakoto_no_bear_off_while_pinned():
    """Plakoto: all home but one checker pinned: no bear-off; 6-5 has no play at all."""
    pos = board("plakoto", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  . W1B1 . W14
    """, off=(0, 14))
    assert ref.legal_results(pos, 6, 5) == {ref.freeze(pos)}
    freed = board("plakoto", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  . B1  .  .  . |  .  .  . W1  . W14
    """, off=(0, 14))
    assert ref.legal_results(freed, 6, 5) == results(freed, "3/off 1/off")


def test_plakoto_mother():
    """Plakoto, Ours: a mother pinned on its start loses 2 unless the pinner's mother is still home; both pinned = draw 0."""
    pinned_w_mother = """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  . W1B1
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  .  .  . {b1}
    """
    assert ref.outcome(board("plakoto", "W", pinned_w_mother.format(b1="."), off=(14, 14))) == ("B", 2)
    assert ref.outcome(board("plakoto", "W", pinned_w_mother.format(b1="B1"), off=(14, 13))) is None
    assert ref.outcome(board("plakoto", "W", pinned_w_mother.format(b1="B1W1"), off=(13, 13))) == ("draw", 0)
    done = board("plakoto", "B", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  .  .  . B15
    """, off=(15, 0))
    assert ref.outcome(done) == ("W", 2)


def test_fevga_single_checker_holds():
    """Fevga: no hitting; one black checker holds white's 7, so 3-1 is 10/9/6 only."""
    pos = board("fevga", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  .  .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  . W1  .  . B1 |  .  .  .  .  .  .
    """, off=(14, 14))
    assert ref.legal_results(pos, 3, 1) == results(pos, "10/9 9/6")


def test_fevga_start_rule():
    """Fevga (brainking): the first checker runs past the opponent's start before a second one leaves."""
    pos = ref.start_position("fevga")
    assert ref.legal_results(pos, 6, 5) == results(pos, "24/18 18/13")
    assert ref.legal_results(pos, 6, 6) == results(pos, "24/18")  # 18/12 is black's start
    assert ref.legal_results(pos, 5, 5) == results(pos, "24/19 19/14 14/9 9/4", "24/19 19/14 14/9 24/19")


def test_fevga_own_starting_quarter():
    """Fevga, Ours: a side may not hold all six points of its own 19-24; 24/19 (a 5) is the one step refused."""
    pos = board("fevga", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . |  . W1 W1 W1 W1 W10
        12 11 10  9  8  7 |  6  5  4  3  2  1
        B15 .  .  .  .  . |  . W1  .  .  .  .
    """)
    assert ref.legal_steps(pos, 5) == {(23, 18), (22, 17), (21, 16), (20, 15)}
    assert ref.legal_steps(pos, 5, fevga_prime_rule=False) == {(23, 18), (22, 17), (21, 16), (20, 15)}


def test_fevga_prime_rule_option():
    """Fevga, Ours: a six-point block with every opposing checker behind it is refused (option on); off, 19/13 is allowed."""
    pos = board("fevga", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         . W1 W1 W1 W1 W1 | W10 .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
        B15 .  .  .  .  . |  .  .  .  .  .  .
    """)
    assert ref.legal_steps(pos, 6) == {(17, 11), (16, 10), (15, 9), (14, 8)}
    assert ref.legal_steps(pos, 6, fevga_prime_rule=False) == {(19, 13), (17, 11), (16, 10), (15, 9), (14, 8)}


def test_nardy_head_rule():
    """Long nardy: one checker leaves the head per turn (not the first throw): 6-5 gives exactly two positions."""
    pos = board("long_nardy", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  . W1 |  .  .  .  .  . W14
        12 11 10  9  8  7 |  6  5  4  3  2  1
        B15 .  .  .  .  . |  .  .  .  .  .  .
    """)
    assert ref.legal_results(pos, 6, 5) == results(pos, "24/18 18/13", "18/13 13/7")


@pytest.mark.parametrize("dice, plays, options", [
    ((6, 6), ["24/18 24/18"], {}),                              # 18/12 is the opponent's head
    ((4, 4), ["24/20 20/16 24/20 20/16"], {}),
    ((3, 3), ["24/21 21/18 24/21 21/18", "24/21 21/18 18/15 24/21"], {}),
    ((3, 3), ["24/21 21/18 18/15"], {"nardy_three_three": False}),  # one off the head; 15/12 blocked
    ((2, 2), ["24/22 22/20 20/18 18/16"], {}),                  # not an exception: one checker
])
def test_nardy_first_throw(dice, plays, options):
    """Long nardy: on the first throw 6-6, 4-4 (and 3-3, Ours, an option) take two off the head."""
    pos = ref.start_position("long_nardy")
    assert ref.legal_results(pos, *dice, **options) == results(pos, *plays)


def test_nardy_six_block():
    """Long nardy: six in a row only with an opposing checker past them; 24/23 would close 19-24 with black all behind."""
    pic = """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  . {b} W1  . | W1 W1 W1 W1  . W10
        12 11 10  9  8  7 |  6  5  4  3  2  1
        {h} .  .  .  .  . |  .  .  .  .  .  .
    """
    behind = board("long_nardy", "W", pic.format(b=".", h="B15"))
    assert ref.legal_steps(behind, 1) == {(22, 21), (21, 20), (20, 19), (19, 18), (17, 16)}
    past = board("long_nardy", "W", pic.format(b="B1", h="B14"))  # black's 4 (white's 16) is past the block
    assert ref.legal_steps(past, 1) == {(24, 23), (22, 21), (21, 20), (20, 19), (19, 18)}


def test_nardy_scoring_and_koks():
    """Long nardy: oin 1, mars 2; koks 3 only with the option (a loser's checker in the winner's starting quarter)."""
    pic = """
        13 14 15 16 17 18 | 19 20 21 22 23 24
        B{n}  .  .  .  .  . |  . B1  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  .  .  .  .  .
    """
    mars = board("long_nardy", "B", pic.format(n=14), off=(15, 0))
    assert ref.outcome(mars) == ("W", 2)
    assert ref.outcome(mars, koks=True) == ("W", 3)
    assert ref.outcome(board("long_nardy", "B", pic.format(n=13), off=(15, 1)), koks=True) == ("W", 1)


def test_r12_bear_off_with_a_larger_die():
    """R12: a die larger than the highest occupied point bears off from it; 6-5 takes both checkers off."""
    pos = board("backgammon", "W", """
        13 14 15 16 17 18 | 19 20 21 22 23 24
         .  .  .  .  .  . | B15 .  .  .  .  .
        12 11 10  9  8  7 |  6  5  4  3  2  1
         .  .  .  .  .  . |  .  . W1  . W1  .
    """, off=(13, 0))
    assert ref.legal_results(pos, 6, 5) == results(pos, "4/off 2/off")
    assert ref.legal_results(pos, 6, 1) == results(pos, "4/off 2/1", "4/3 3/off")


def _gnubg_sides(pos: dict) -> tuple[list[int], list[int]]:
    """gnubg's board: (side not on roll, side on roll), each its own points 1..24 then its bar."""
    v, s = pos["variant"], pos["on_roll"]
    o = "B" if s == "W" else "W"
    pts = {int(p): x for p, x in pos["points"].items()}

    def side(c: str) -> list[int]:
        return [pts.get(ref.own_to_white(v, c, q), "").count(c) for q in range(1, 25)] + [pos["bar"][c]]
    return side(o), side(s)


def test_backgammon_base_agrees_with_gnubg():
    """The sanity base: on self-play backgammon positions the reference's result sets equal GNU Backgammon's.

    gnubg (a test oracle only) cuts a move short at its first bear-off, so rolls where a bear-off is
    possible are left out; about 90% of the plies are compared.
    """
    gnubg = pytest.importorskip("gnubg")
    # a centred cube in money play, given whole: cube_info() with no arguments reads the match an
    # earlier test left in gnubg, and fails on some ("Error in SetCubeInfo")
    cube, ctx = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, 0), gnubg.eval_context(0, 0)
    compared = 0
    for seed in range(8):
        rng = random.Random(seed)
        pos = ref.start_position("backgammon", "W")
        while ref.outcome(pos) is None:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            mine = ref.legal_results(pos, d1, d2)
            moves = [m["move"] for m in gnubg.find_best_moves(_gnubg_sides(pos), cube, ctx, (d1, d2))]
            bears = any(len(m) % 2 or 0 in m for m in moves) or any(f[5:] != (pos["off"]["W"], pos["off"]["B"]) for f in mine)
            if not bears:
                texts = [" ".join(f"{'bar' if a == 25 else a}/{b}" for a, b in zip(m[::2], m[1::2])) for m in moves]
                assert (results(pos, *texts) if moves else {ref.freeze(pos)}) == mine, (pos, d1, d2)
                compared += 1
            nxt = ref.thaw(rng.choice(sorted(mine)))
            nxt["on_roll"] = "B" if pos["on_roll"] == "W" else "W"
            pos = nxt
    assert compared > 500, compared


# --- 3. self-play properties -------------------------------------------------------------------------

STACK = re.compile(r"^(W+|B+|WB+|BW+)$")


def _check_position(pos: dict) -> None:
    variant = pos["variant"]
    for s in "WB":
        n = sum(v.count(s) for v in pos["points"].values()) + pos["bar"][s] + pos["off"][s]
        assert n == CHECKERS[variant], (s, pos)
    for p, v in pos["points"].items():
        assert STACK.match(v), (p, v)
        if variant != "plakoto":
            assert len(set(v)) == 1, (p, v)  # only plakoto stacks two colours
        if variant not in WITH_BAR:
            assert pos["bar"] == {"W": 0, "B": 0}


@settings(max_examples=30)
@given(variant=st.sampled_from(["backgammon", "portes", "plakoto", "fevga", "long_nardy"]), seed=st.integers(0, 2**32 - 1))
def test_self_play(variant, seed):
    """Random whole games: checkers conserved, stacks well formed, legal_plays and legal_results agree, the game ends."""
    rng = random.Random(seed)
    pos = ref.start_position(variant, rng.choice("WB"))
    for ply in range(2000):
        if ref.outcome(pos) is not None:
            break
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        finals = ref.legal_results(pos, d1, d2)
        if ply % 7 == 0:  # the step-by-step enumeration, slower, on a sample of plies
            assert {f for *_x, f in ref.legal_plays(pos, d1, d2)} == finals
        nxt = ref.thaw(rng.choice(sorted(finals)))
        assert nxt["on_roll"] == pos["on_roll"]
        nxt["on_roll"] = "B" if pos["on_roll"] == "W" else "W"
        _check_position(nxt)
        pos = nxt
    else:
        pytest.fail(f"{variant} game of seed {seed} did not end in 2000 plies")
    winner, points = ref.outcome(pos)
    assert (winner, points) == ("draw", 0) or points in (1, 2, 3)
    if variant in SAME or variant == "portes":
        assert points in (1, 2)


@pytest.mark.parametrize("variant", ["portes", "plakoto", "fevga", "long_nardy"])
def test_self_play_helper_is_reproducible(variant):
    """``self_play`` (positions for the differential test): the same seed gives the same game, and it ends."""
    first = [(ref.freeze(p), d1, d2) for p, d1, d2 in ref.self_play(variant, 7)]
    again = [(ref.freeze(p), d1, d2) for p, d1, d2 in ref.self_play(variant, 7)]
    assert first == again
    assert 20 < len(first) < 2000
    for p, _d1, _d2 in ref.self_play(variant, 7):
        _check_position(p)
