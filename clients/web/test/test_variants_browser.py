"""Every variant in the web board: headless Chromium picks each preset that
``ListRulesets`` lists in the setup's picker, starts a 1-point match with the computer on both
sides (``?bots=2``; SuggestAction at a level, which the analysis service answers for every
variant, its search player where there is no net, for its first dozen actions, then the random
fallback), screenshots the start and plays the whole match through the referee. Plakoto (mahbusa) is played until a checker is pinned, which is
screenshotted with its ring and checked in its ARIA label.

Checked per variant: the checkers on the board are the variant's (15 a side, 3 in
hypergammon), no cube is drawn where the ruleset has none, the point labels and black's
checkers follow the variant's direction (fevga, long nardy: black's point p is white's
((p + 11) mod 24) + 1), and the match ends with a winner (or, in plakoto, possibly a draw) and
the score the referee's view gives. Also: each side's borne-off tray beside its home (black's
left of the board in fevga and long nardy), and a plakoto draw played on one page from a state
kept one move before it, with the slide of a checker off a pinned one. Screenshots go to
``$WEB_ARTIFACTS/variants``.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from served import CHROMIUM_ARGS, DIST, ROOT, new_context, serve

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(os.environ.get("WEB_ARTIFACTS", ROOT / ".ci" / "artifacts" / "web")) / "variants"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CHECKERS = {"hypergammon": 3}  # every other variant: 15 a side
SAME_DIRECTION = {"fevga", "long_nardy", "gul_bara"}
CUBELESS = {"turkish", "portes", "plakoto", "fevga", "long_nardy", "gul_bara"}
MATCH_SECONDS = 240  # a readiness wait per match, not a speed assertion


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    assert (DIST / "index.html").is_file(), "build the page first: make web"
    with serve({"TAVLA_STATE_MODE": "off"}) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# The variants; international and turkish whole matches are test_board_browser.py's
# and test_bot_levels_browser.py's (CI time).
PRESETS = ["portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy", "gul_bara"]


def open_page(browser, base_url: str, query: str, locale: str = "en-GB"):
    context = new_context(browser, viewport=DESKTOP, locale=locale, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base_url}/?{query}")
    page.wait_for_selector("body[data-ready='1']")
    return context, page, errors


def start(page, preset: str, level: str = "beginner") -> None:
    page.select_option("#preset", preset)
    page.select_option("#length", "1")
    page.select_option("#opponent", "bot")
    page.select_option("#level", level)
    page.select_option("#clock", "none")
    page.click("#new-match")


def drawn_checkers(page) -> dict[str, int]:
    """The checkers drawn on the points (a stack over 5 counts as its number), by colour."""
    return page.evaluate("""() => {
      const n = {white: 0, black: 0};
      for (const g of document.querySelectorAll('[data-spot]')) {
        const spot = g.dataset.spot;
        if (spot.startsWith('off-') || spot.startsWith('bar-')) {
          const c = Number(g.dataset.count || 0);
          n[spot.endsWith('white') ? 'white' : 'black'] += c;
          continue;
        }
        for (const side of ['white', 'black']) {
          const shown = g.querySelectorAll('.checker.' + side).length;
          const label = g.querySelector('.count.' + side);
          const pinned = g.querySelectorAll('.checker.pinned.' + side).length;
          n[side] += label ? Number(label.textContent) + pinned : shown;
        }
      }
      return n;
    }""")


def view(page) -> dict:
    """The GameView the page holds, as Connect JSON (enums by name, fields at default left out)."""
    return json.loads(page.evaluate("() => window.tavlaDebug.driver.viewJson()"))


def _view_catches_up(page, side: str | None) -> bool:
    """Whether the view the page holds shows a checker of ``side`` pinned within a few seconds,
    the computer held (the board drawn may be a step ahead of it)."""
    if side is None:
        return False
    try:
        page.wait_for_function(
            "(side) => { const g = JSON.parse(window.tavlaDebug.driver.viewJson());"
            " const b = (g.current || g.position).board; return !!(b[side] && (b[side].pinned || []).length); }",
            arg=side, timeout=5000)
    except playwright.TimeoutError:
        return False
    return True


@pytest.mark.parametrize("preset", PRESETS)
def test_variant_plays_a_whole_match(browser, base_url, preset):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context, page, errors = open_page(browser, base_url, "bots=2&delay=0&pause=0&slide=0&debug=1")
    try:
        names = page.eval_on_selector_all("#preset option", "os => os.map(o => o.value)")
        assert preset in names, names  # the picker lists what ListRulesets returns
        page.evaluate("() => { window.tavlaDebug.hold.on = true; }")  # stop at the start
        start(page, preset)
        page.wait_for_selector("body[data-phase='moving'], body[data-phase='to-roll']")
        game = view(page)["ruleset"]
        variant = game["variant"]
        checkers = CHECKERS.get(variant, 15)
        counts = drawn_checkers(page)
        assert counts == {"white": checkers, "black": checkers}, counts
        # no cube where the ruleset has none
        has_cube = page.locator(".cube").count() > 0
        assert has_cube == (preset not in CUBELESS), (preset, has_cube)
        assert bool(game.get("cube")) == (preset not in CUBELESS)
        # the labels and black's checkers: white's point q is black's 25 - q or ((q + 11) mod 24) + 1
        position = view(page)["position"]["board"]
        same = variant in SAME_DIRECTION
        for q in range(1, 25):
            bq = ((q + 11) % 24) + 1 if same else 25 - q
            black = position["black"]["points"][bq - 1] if "points" in position["black"] else 0
            shown = page.locator(f"[data-spot='{q}'] .checker.black").count()
            assert shown == min(black, 5), (variant, q, black, shown)
        arrows = page.get_attribute(".directions", "aria-label")
        assert ("same way" in arrows) == same, arrows
        page.screenshot(path=str(ARTIFACTS / f"{preset}-start.png"))
        page.evaluate("() => { window.tavlaDebug.hold.on = false; }")
        # the computer's first actions are SuggestAction's (the analysis serves every variant,
        # its search player where it has no net); then the random fallback plays on (quicker)
        if importlib.util.find_spec("bgsage") is not None:
            page.wait_for_function("() => window.tavlaDebug.bot.counts.suggested >= 12 || document.body.dataset.phase === 'match-over'",
                                   timeout=MATCH_SECONDS * 1000)
            counts = page.evaluate("() => window.tavlaDebug.bot.counts")
            assert page.evaluate("() => window.tavlaDebug.bot.analysis") is True
            assert counts["suggested"] >= 1 and counts["failed"] == 0, counts
        page.evaluate("() => { window.tavlaDebug.bot.analysis = false; }")

        if variant == "plakoto":
            # play until a checker is pinned, hold the computer there and look at it
            for _ in range(200):
                page.wait_for_selector("[data-pinned], body[data-phase='match-over']", timeout=MATCH_SECONDS * 1000)
                page.evaluate("() => { window.tavlaDebug.hold.on = true; }")
                # the computer held, or the page idle: a pin seen a moment ago may be gone by now
                page.wait_for_function("() => document.body.dataset.busy === '0' || document.body.dataset.phase === 'match-over'"
                                       " || !!document.querySelector('[data-pinned]') || window.tavlaDebug.hold.waiting")
                # read in one go: a redraw between a count and a read can take the pin away, and a
                # locator's read would then wait for a pin the held computer never makes
                pinned_side = page.evaluate("() => document.querySelector('[data-pinned]')?.dataset.pinned ?? null")
                if pinned_side is not None and not page.locator("body[data-sliding]").count() \
                        and _view_catches_up(page, pinned_side):
                    break  # the drawn board and the view it was drawn from agree on the pin
                page.evaluate("() => { window.tavlaDebug.hold.on = false; }")
            spot = page.locator("[data-pinned]").first
            assert spot.count(), "no checker was pinned in a whole plakoto match"
            pinned = spot.get_attribute("data-pinned")
            assert "pinned under" in spot.get_attribute("aria-label")
            assert spot.locator(f".checker.pinned.{pinned}").count() == 1
            assert spot.locator(".pin-ring").count() == 1
            board = view(page)
            board = (board.get("current") or board["position"])["board"]
            assert board[pinned].get("pinned"), board
            page.screenshot(path=str(ARTIFACTS / "plakoto-pinned.png"))
            page.evaluate("() => { window.tavlaDebug.hold.on = false; }")

        for _ in range(20):
            page.wait_for_selector("body[data-busy='0']:is([data-phase='match-over'], [data-phase='game-over'])",
                                   timeout=MATCH_SECONDS * 1000)
            g = view(page)
            outcome, match = g["outcome"], g["match"]
            status = page.inner_text("#status")
            if "winner" not in outcome:
                # a plakoto draw (both mothers pinned): nothing scored, the next game is started by hand
                assert variant == "plakoto" and outcome["ending"] == "GAME_ENDING_DRAW", outcome
                assert "Draw" in status, status
                page.screenshot(path=str(ARTIFACTS / "plakoto-draw.png"))
                page.click("#next-game")
                # the next game's first answer, not the draw's phase still drawn
                page.wait_for_function("() => document.body.dataset.phase !== 'game-over'", timeout=MATCH_SECONDS * 1000)
                continue
            assert page.get_attribute("body", "data-phase") == "match-over"
            assert "wins" in status, status
            winner = "whiteScore" if outcome["winner"] == "SIDE_WHITE" else "blackScore"
            assert match.get(winner, 0) >= 1 and match.get("winner") == outcome["winner"], match
            break
        assert page.evaluate("() => window.tavlaDebug.bot.counts.failed") == 0
        page.screenshot(path=str(ARTIFACTS / f"{preset}-over.png"))
        assert "wins" in page.inner_text("#log") or "draw" in page.inner_text("#log")
    finally:
        context.close()
    assert not errors, errors


def test_variant_picker_and_labels_in_turkish(browser, base_url):
    """The picker names each variant as ListRulesets does in Turkish (Mahbusa, Uzun nard,
    Moultezim, Portes), and a same-direction game says so in Turkish."""
    context, page, errors = open_page(browser, base_url, "bots=2&delay=0&pause=0&slide=0&debug=1", locale="tr-TR")
    try:
        labels = dict(zip(page.eval_on_selector_all("#preset option", "os => os.map(o => o.value)"),
                          page.eval_on_selector_all("#preset option", "os => os.map(o => o.textContent)")))
        assert labels["plakoto"] == "Mahbusa (Plakoto)", labels
        assert labels["long_nardy"] == "Uzun nard (Long nardy)", labels
        assert labels["fevga"] == "Moultezim (Fevga)", labels
        assert labels["portes"].startswith("Portes"), labels
        page.evaluate("() => { window.tavlaDebug.hold.on = true; }")
        start(page, "long_nardy")
        page.wait_for_selector("body[data-phase='moving'], body[data-phase='to-roll']")
        assert page.get_attribute(".directions", "aria-label") == "İki taraf da aynı yönde gider: üstte sola, altta sağa"
        assert page.inner_text("#cube-line") == "Uzun nard (Long nardy) küpsüz oynanır"
        page.screenshot(path=str(ARTIFACTS / "long_nardy-start-tr.png"))
    finally:
        context.close()
    assert not errors, errors


def test_the_level_picker_says_the_search_player_plays_a_variant_without_a_net(browser, base_url):
    """Beside the level picker: for plakoto (no net) the search player, its depth at the level and
    its measured strength, in English and in Turkish; nothing for backgammon and Turkish tavla."""
    context, page, errors = open_page(browser, base_url, "delay=0&pause=0&slide=0")
    try:
        page.select_option("#opponent", "bot")
        page.select_option("#preset", "plakoto")
        page.select_option("#level", "advanced")
        assert page.inner_text("#level-note") == (
            "Plakoto has no neural net: the computer is our search player. At this level it looks one move "
            "ahead, with the level's random errors. Measured in plakoto, it beats random play in 79% of games.")
        page.select_option("#level", "expert")
        assert "looks two moves ahead" in page.inner_text("#level-note")
        assert "85%" in page.inner_text("#level-note")
        page.select_option("#lang", "tr")
        assert page.inner_text("#level-note").startswith("Mahbusa (Plakoto) için sinir ağı yok: bilgisayar bizim "
                                                        "arama oyuncumuz. Usta seviyesinde iki hamle ileriyi görür")
        for preset in ("turkish", "international"):
            page.select_option("#preset", preset)
            assert page.is_hidden("#level-note"), preset
        page.select_option("#preset", "long_nardy")
        assert page.is_visible("#level-note")
        page.select_option("#opponent", "human")
        assert page.is_hidden("#level-note")
    finally:
        context.close()
    assert not errors, errors


LEVELS = ["random", "beginner", "intermediate", "advanced", "expert"]


def test_the_level_picker_follows_the_servers_analysis_fact(browser, base_url):
    """The page reads which variants the search player plays from ListRulesets
    (``VariantFacts.analysis``), not from a list of its own: as served, international (the net)
    offers the levels without a note and plakoto (the search player) with one; with the answer's
    two facts swapped on the way to the page, the note follows the facts."""
    def swapped(route) -> None:  # the page's Connect calls are JSON
        answer = route.fetch()
        presets = answer.json()
        for p in presets["presets"]:
            p["variant"]["analysis"] = {"neural_net": "search", "search": "neural_net"}[p["variant"]["analysis"]]
        route.fulfill(response=answer, json=presets)

    def offered(page, preset: str) -> tuple[list[str], bool]:
        page.select_option("#preset", preset)
        page.select_option("#level", "advanced")
        return page.eval_on_selector_all("#level option", "os => os.map(o => o.value)"), page.is_visible("#level-note")

    for swap in (False, True):
        context = new_context(browser, viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        if swap:
            page.route("**/tavla.v1.MatchService/ListRulesets", swapped)
        try:
            page.goto(f"{base_url}/?delay=0&pause=0&slide=0")
            page.wait_for_selector("body[data-ready='1']")
            page.select_option("#opponent", "bot")
            assert offered(page, "international") == (LEVELS, swap)
            assert offered(page, "plakoto") == (LEVELS, not swap)
            if swap:
                assert page.inner_text("#level-note") == ""
                page.select_option("#preset", "international")
                note = page.inner_text("#level-note")
                assert note.startswith("International backgammon has no neural net: the computer is our search player."), note
        finally:
            context.close()
        assert not errors, errors


def test_fevga_by_clicking_for_both_players(browser, base_url):
    """Two players on one page play fevga by tapping: every step sent is the tapped spots read
    in the mover's numbering (black's point p is white's ((p + 11) mod 24) + 1), and the labels
    are the mover's."""
    context, page, errors = open_page(browser, base_url, "delay=0&pause=0&slide=0&debug=1")
    try:
        page.select_option("#preset", "fevga")
        page.select_option("#length", "1")
        page.select_option("#opponent", "human")
        page.select_option("#clock", "none")
        page.uncheck("#forced")
        page.click("#new-match")
        seen = set()
        for _ in range(6):
            page.wait_for_selector("body[data-busy='0'][data-phase='moving'], body[data-busy='0'][data-phase='to-roll']")
            if page.get_attribute("body", "data-phase") == "to-roll":
                page.click("#roll")
                page.wait_for_selector("body[data-busy='0'][data-phase='moving']")
            side = page.get_attribute("body", "data-side")
            seen.add(side)
            for _ in range(4):
                movable = page.eval_on_selector_all("g.movable", "gs => gs.map(g => g.dataset.spot)")
                if not movable:
                    break
                page.click(f"[data-spot='{movable[0]}']")
                target = page.eval_on_selector_all("g.target", "gs => gs.map(g => g.dataset.spot)")[0]
                done = len(json.loads(page.get_attribute("body", "data-steps")))
                page.click(f"[data-spot='{target}']")
                page.wait_for_function(f"() => document.body.dataset.busy === '0' && JSON.parse(document.body.dataset.steps).length === {done + 1}")
                step = json.loads(page.get_attribute("body", "data-steps"))[-1]
                mine = (lambda q: ((q + 11) % 24) + 1) if side == "black" else (lambda q: q)
                assert step["from_point"] == mine(int(movable[0])), (side, movable[0], step)
                to = 0 if target.startswith("off-") else mine(int(target))
                assert step["to_point"] == to, (side, target, step)
                label = page.get_attribute(f"[data-spot='{target}']", "aria-label")
                assert label.startswith(f"point {to}:") or to == 0, label  # the mover's numbering
            page.click("#confirm")
            page.wait_for_function("() => document.body.dataset.busy === '0'")
        assert seen == {"white", "black"}
    finally:
        context.close()
    assert not errors, errors


def render(page, variant: str, white: dict, black: dict) -> None:
    """Draw a position of ``variant`` with the page's board (tavlaDebug.renderPosition); each side
    given in its own numbering as ``{"points": {point: n}, "off": n}``."""
    def side(s: dict) -> dict:
        points = [0] * 24
        for p, n in s.get("points", {}).items():
            points[p - 1] = n
        return {"points": points, "bar": 0, "borneOff": s.get("off", 0)}
    position = {"onRoll": "SIDE_WHITE", "board": {"white": side(white), "black": side(black)}}
    page.evaluate("([p, v]) => window.tavlaDebug.renderPosition(p, undefined, v)", [position, variant])


def test_an_unknown_variant_is_an_error_not_a_default(browser, base_url):
    """The board reads a variant's direction from ListRulesets: a name it did not list is an
    error naming it, and a listed one by any of its names (gul bara moves the same way)."""
    context, page, errors = open_page(browser, base_url, "debug=1")
    try:
        position = {"onRoll": "SIDE_WHITE", "board": {"white": {"points": [0] * 23 + [15]},
                                                      "black": {"points": [0] * 23 + [15]}}}
        message = page.evaluate("""(p) => { try { window.tavlaDebug.renderPosition(p, undefined, 'chess'); return ''; }
                                            catch (e) { return String(e); } }""", position)
        assert 'unknown variant "chess"' in message and "gul_bara" in message, message
        render(page, "gul-bara", {"points": {24: 15}}, {"points": {24: 15}})
        # black's 24 point is white's 12 when both move the same way
        assert page.locator("[data-spot='12'] .checker.black").count() == 5
        assert page.locator("[data-spot='1'] .checker.black").count() == 0
    finally:
        context.close()
    assert not errors, errors


def box(page, selector: str) -> dict:
    b = page.locator(selector).bounding_box()
    assert b, selector
    return b


#: How far (CSS pixels) a tray's count may sit from the checkers it counts.
LABEL_GAP = 4


@pytest.mark.parametrize("variant", ["backgammon", "fevga"])
def test_each_borne_off_count_sits_by_its_trays_checkers(browser, base_url, variant):
    """Each tray's count is drawn just past the stack it counts (it used to sit mid-board, far
    from a short stack), inside its tray, on a phone and on a desktop, for a short stack and a
    full one. Screenshots: ``tray-counts-<variant>-<size>.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in [("phone", PHONE), ("desktop", DESKTOP)]:
        context, page, errors = open_page(browser, base_url, "debug=1")
        try:
            page.set_viewport_size(viewport)
            for white_off, black_off in [(5, 7), (15, 1)]:
                render(page, variant, {"points": {1: 15 - white_off} if white_off < 15 else {}, "off": white_off},
                       {"points": {1: 15 - black_off}, "off": black_off})
                for spot, n in (("off-white", white_off), ("off-black", black_off)):
                    g = f"[data-spot='{spot}']"
                    label, slot = box(page, f"{g} .count-label"), box(page, f"{g} .tray-slot")
                    assert page.text_content(f"{g} .count-label") == str(n)
                    slabs = [page.locator(f"{g} .slab").nth(i).bounding_box() for i in range(n)]
                    top = min(b["y"] for b in slabs)
                    bottom = max(b["y"] + b["height"] for b in slabs)
                    gap = max(top - (label["y"] + label["height"]), label["y"] - bottom, 0.0)
                    assert gap <= LABEL_GAP, (size, spot, n, label, top, bottom)
                    centre = label["x"] + label["width"] / 2
                    assert slabs[0]["x"] <= centre <= slabs[0]["x"] + slabs[0]["width"], (size, spot, label, slabs[0])
                    assert slot["y"] <= label["y"] and label["y"] + label["height"] <= slot["y"] + slot["height"], \
                        (size, spot, n, label, slot)
                if (white_off, black_off) == (5, 7):
                    page.locator("svg.board").screenshot(path=str(ARTIFACTS / f"tray-counts-{variant}-{size}.png"))
        finally:
            context.close()
        assert not errors, errors


@pytest.mark.parametrize("variant", ["fevga", "long_nardy", "plakoto"])
def test_borne_off_checkers_lie_beside_their_home(browser, base_url, variant):
    """Each side's borne-off tray is beside its home board: white's (1-6) at the bottom right;
    black's at the top right in plakoto (its home is white's 19-24) and at the top left in fevga
    and long nardy (black's 1-6 are white's 13-18 there: it used to be drawn top right). The
    arrow keys reach it at that end of the top row. Desktop and phone (Turkish) screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    same = variant in SAME_DIRECTION
    for size, viewport, locale in [("desktop", DESKTOP, "en-GB"), ("phone", PHONE, "tr-TR")]:
        context, page, errors = open_page(browser, base_url, "debug=1", locale=locale)
        try:
            page.set_viewport_size(viewport)
            # black home: its 1-6 (white's 13-18 or 19-24), 7 borne off; white 10 home, 5 off
            render(page, variant, {"points": {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1}, "off": 5},
                   {"points": {1: 1, 2: 2, 3: 1, 4: 2, 5: 1, 6: 1}, "off": 7})
            assert page.get_attribute("[data-spot='off-black']", "data-count") == "7"
            assert page.locator("[data-spot='off-black'] .slab.black").count() == 7
            white_off, black_off = box(page, "[data-spot='off-white']"), box(page, "[data-spot='off-black']")
            white_home = [box(page, f"[data-spot='{q}'] polygon") for q in range(1, 7)]
            black_home = [box(page, f"[data-spot='{q}'] polygon") for q in ((13, 14, 15, 16, 17, 18) if same else range(19, 25))]
            mid = box(page, "svg.board")
            mid = mid["y"] + mid["height"] / 2
            # white's: right of its home, in the bottom half
            assert white_off["x"] >= max(b["x"] + b["width"] for b in white_home) and white_off["y"] >= mid - 1, white_off
            # black's: in the top half, on its home's outer side (left of 13 or right of 24)
            assert black_off["y"] + black_off["height"] <= mid + 1, black_off
            if same:
                assert black_off["x"] + black_off["width"] <= min(b["x"] for b in black_home), (black_off, black_home)
            else:
                assert black_off["x"] >= max(b["x"] + b["width"] for b in black_home), (black_off, black_home)
            # every slab in its tray, inside the board's frame
            frame = box(page, "svg.board .frame")
            for b in (white_off, black_off):
                assert frame["x"] <= b["x"] and b["x"] + b["width"] <= frame["x"] + frame["width"], (frame, b)
            # the keyboard: black's tray at the outer end of the top row
            page.focus("[data-spot='13']" if same else "[data-spot='24']")
            page.keyboard.press("ArrowLeft" if same else "ArrowRight")
            assert page.evaluate("document.activeElement.dataset.spot") == "off-black"
            page.keyboard.press("ArrowDown")  # nothing under it in fevga: the focus stays
            assert page.evaluate("document.activeElement.dataset.spot") == ("off-black" if same else "off-white")
            page.screenshot(path=str(ARTIFACTS / f"{variant}-borne-off-{size}.png"), full_page=True)
        finally:
            context.close()
        assert not errors, errors


def connect(base_url: str, method: str, body: dict) -> dict:
    """A Connect JSON call to the page's engine."""
    request = urllib.request.Request(f"{base_url}/{method}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def plakoto_before_a_draw(base_url: str) -> dict:
    """The state (Connect JSON; state mode off keeps it unsigned) of a 3-point plakoto match at
    0-0, black to play 2-1, one step from a draw (docs/variants.md): white has pinned black's
    mother (black's 24, white's 1) with its own mother still at home, alone on white's 24; two
    black checkers on black's 3 pin a white one (white's 22), and 3/1 pins white's mother.

    White (its numbering): 24 (the mother), 22 (pinned), 12 on 5, 1 (on black's mother).
    Black: 24 (the mother, pinned), 12 on 23, 2 on 3 (over white's 22)."""
    from tavla.core.game import Phase
    from tavla.core.rules.position import Position, Side, SideView
    from tavla.server.convert import game as cg

    def side(points: dict[int, int], pinned: tuple[int, ...]) -> SideView:
        return SideView(tuple(points.get(p, 0) for p in range(1, 25)), 0, 0, pinned)

    started = connect(base_url, "tavla.v1.RefereeService/NewMatch", {"ruleset": {"preset": "plakoto"}, "length": 3})
    state, preset = cg.state_from_bytes(base64.b64decode(started["state"]["state"]))
    position = Position.from_sides(Side.BLACK, side({24: 1, 22: 1, 5: 12, 1: 1}, (22,)),
                                   side({24: 1, 23: 12, 3: 2}, (24,)), state.position.variant)
    state = replace(state, phase=Phase.MOVING, position=position, dice=(2, 1), turn=40, sequence=80)
    return {"state": base64.b64encode(cg.state_to_bytes(state, preset)).decode()}


def test_plakoto_draw_and_a_slide_off_a_pinned_checker(browser, base_url):
    """A plakoto game ending in a draw, as two players on one page play it (the match resumed
    from a kept state one move before, see plakoto_before_a_draw): black's checker leaving a
    point where a white checker is pinned slides from the top of the stack as drawn (the slot
    above the pinned checker: it used to start one slot lower), 3/1 pins white's mother, and
    once the move is confirmed the page says it is a draw (Turkish, then English), the score
    stays 0-0, the log says so, and the next game is the replay (game 2 from the start)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    saved = {"match": {"signed": plakoto_before_a_draw(base_url), "record": [], "log": [], "preset": "plakoto",
                       "clockPreset": 0, "pointsScored": 0},
             "botPlays": False, "level": "random", "forced": False, "savedAt": int(time.time() * 1000)}
    context = new_context(browser, viewport=DESKTOP, locale="tr-TR")  # motion on: the slide is looked at
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{base_url}/?delay=0&pause=0&slide=4000&debug=1")
        page.wait_for_selector("body[data-ready='1']")  # booted: it has read localStorage already
        page.evaluate("(s) => localStorage.setItem('tavla-web/match/v1', JSON.stringify(s))", saved)
        page.reload()
        page.wait_for_selector("body[data-ready='1'][data-busy='0'][data-phase='moving']")
        assert page.get_attribute("body", "data-side") == "black"
        assert page.get_attribute("[data-spot='22']", "data-pinned") == "white"
        assert page.get_attribute("[data-spot='1']", "data-pinned") == "black"
        # black's top checker over the pinned white one on white's 22: the third slot
        top = page.evaluate("""() => { const c = [...document.querySelectorAll("[data-spot='22'] .checker.black")];
          return [Number(c[c.length - 1].getAttribute('cx')), Number(c[c.length - 1].getAttribute('cy'))]; }""")
        assert page.locator("[data-spot='22'] .checker.black").count() == 2
        page.click("[data-spot='22']")
        page.click("[data-spot='24']")  # black's 3/1: onto white's mother
        page.wait_for_selector("body[data-sliding]", timeout=5000)
        start = page.evaluate(r"""() => {
          const a = document.getAnimations().find((x) => x.playState === 'running');
          const node = a.effect.target;
          const m = /translate\(([-\d.e]+)px, ([-\d.e]+)px\)/.exec(a.effect.getKeyframes()[0].transform);
          return [Number(node.getAttribute('cx')) + Number(m[1]), Number(node.getAttribute('cy')) + Number(m[2]),
                  node.closest('[data-spot]').dataset.spot];
        }""")
        assert start[2] == "24", start
        assert abs(start[0] - top[0]) < 0.5 and abs(start[1] - top[1]) < 0.5, (start, top)
        page.screenshot(path=str(ARTIFACTS / "plakoto-slide-off-a-pin.png"))
        page.wait_for_function("() => !document.body.dataset.sliding && document.body.dataset.busy === '0'", timeout=10000)
        assert page.get_attribute("[data-spot='24']", "data-pinned") == "white"  # white's mother pinned
        page.click("[data-spot='2']")  # black's 23/22 with the 1
        page.click("[data-spot='3']")
        page.wait_for_selector("body[data-busy='0'] #confirm:not([disabled])")
        page.click("#confirm")
        page.wait_for_selector("body[data-busy='0'][data-phase='game-over']")
        outcome = view(page)["outcome"]
        assert outcome.get("ending") == "GAME_ENDING_DRAW" and "winner" not in outcome and not outcome.get("points"), outcome
        status = page.inner_text("#status")
        assert status == "Berabere: iki ana pul da mahbus, kimse sayı almaz", status
        assert re.search(r"Beyaz 0\D+Siyah 0", page.inner_text("#score")), page.inner_text("#score")
        assert "Oyun berabere bitti (iki ana pul da mahbus)" in page.inner_text("#log")
        assert "kazandı" not in page.inner_text("#log")
        assert page.is_visible("#next-game")
        page.screenshot(path=str(ARTIFACTS / "plakoto-draw-tr.png"), full_page=True)
        page.set_viewport_size(PHONE)
        assert page.is_visible("#status") and page.is_visible("#next-game")
        page.screenshot(path=str(ARTIFACTS / "plakoto-draw-tr-phone.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        page.select_option("#lang", "en")
        assert page.inner_text("#status") == "Draw: both mothers are pinned, no points are scored"
        assert "The game is a draw (both mothers pinned)" in page.inner_text("#log")
        page.screenshot(path=str(ARTIFACTS / "plakoto-draw-en.png"), full_page=True)
        # the replay: game 2 of the match, from plakoto's start, the score still 0-0
        page.click("#next-game")
        page.wait_for_selector("body[data-busy='0'][data-phase='moving'], body[data-busy='0'][data-phase='to-roll']")
        g = view(page)
        assert g["match"].get("gamesPlayed") == 1 and not g["match"].get("whiteScore") and not g["match"].get("blackScore"), g["match"]
        assert drawn_checkers(page) == {"white": 15, "black": 15}
        assert page.locator("[data-spot='24'] .checker.white").count() == 5  # all 15 on white's 24 (5 drawn)
        assert re.search(r"White 0\D+Black 0", page.inner_text("#score")), page.inner_text("#score")
        assert "Game 2" in page.inner_text("#log"), page.inner_text("#log")
    finally:
        context.close()
    assert not errors, errors
