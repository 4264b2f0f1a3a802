"""Every variant in the web board (issue 20): headless Chromium picks each preset that
``ListRulesets`` lists in the setup's picker, starts a 1-point match with the computer on both
sides (``?bots=2``; SuggestAction at a level, which the analysis service answers for every
variant, its search player where there is no net, for its first dozen actions, then the random
fallback), screenshots the start and plays the whole match through the referee. Plakoto (mahbusa) is played until a checker is pinned, which is
screenshotted with its ring and checked in its ARIA label.

Checked per variant: the checkers on the board are the variant's (15 a side, 3 in
hypergammon), no cube is drawn where the ruleset has none, the point labels and black's
checkers follow the variant's direction (fevga, long nardy: black's point p is white's
((p + 11) mod 24) + 1), and the match ends with a winner (or, in plakoto, possibly a draw) and
the score the referee's view gives. Screenshots go to ``$WEB_ARTIFACTS/variants``.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from served import CHROMIUM_ARGS, DIST, ROOT, serve

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(os.environ.get("WEB_ARTIFACTS", ROOT / ".ci" / "artifacts" / "web")) / "variants"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
DESKTOP = {"width": 1280, "height": 800}
CHECKERS = {"hypergammon": 3}  # every other variant: 15 a side
SAME_DIRECTION = {"fevga", "long_nardy"}
CUBELESS = {"turkish", "portes", "plakoto", "fevga", "long_nardy"}
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


# The variants of issue 20; international and turkish whole matches are test_board_browser.py's
# and test_bot_levels_browser.py's (CI time).
PRESETS = ["portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy"]


def open_page(browser, base_url: str, query: str, locale: str = "en-GB"):
    context = browser.new_context(viewport=DESKTOP, locale=locale, reduced_motion="reduce")
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
                page.wait_for_function("() => document.body.dataset.busy === '0' || document.body.dataset.phase === 'match-over'"
                                       " || !!document.querySelector('[data-pinned]')")
                if page.locator("[data-pinned]").count() and not page.locator("body[data-sliding]").count():
                    break
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
            page.wait_for_selector("body[data-phase='match-over'], body[data-phase='game-over']", timeout=MATCH_SECONDS * 1000)
            g = view(page)
            outcome, match = g["outcome"], g["match"]
            status = page.inner_text("#status")
            if "winner" not in outcome:
                # a plakoto draw (both mothers pinned): nothing scored, the next game is started by hand
                assert variant == "plakoto" and outcome["ending"] == "GAME_ENDING_DRAW", outcome
                assert "Draw" in status, status
                page.screenshot(path=str(ARTIFACTS / "plakoto-draw.png"))
                page.click("#next-game")
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
