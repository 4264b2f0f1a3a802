"""The analysis for players, and two players on one device, in headless Chromium against a live
server (run by ``make test-web``; the fixtures and helpers are the board test's):

* the hint ("İpucu" / "Hint") on the player's turn: the top three moves of SuggestMove for the
  turn's position, dice, match and ruleset, each with its equity and chances, the best drawn as
  arrows (one per checker move) and gone with the next action; in plakoto (no net) the page
  says the figures are the search player's estimates;
* the review ("İnceleme" / "Review") after a match: a progress line while StreamAnalyzeMatch runs
  giving the server's count of decisions judged (in order, up to the total),
  each side's error rate and PR, its worst moves (at most 5), and a worst move clicked shows its
  position read-only with the played and the better move as arrows; a deadline and a busy server
  (answers replaced in the browser) give their own messages;
* two players on one device: a whole 1-point match played by hand on both sides with the
  server's dice, the board turned to black while black is on roll (black's home at the bottom
  right, its labels 1-6 there), not turned with the option off, and never a computer move.

Screenshots (desktop 1366x768 and phone 390x844, Turkish and English) go to
``$WEB_ARTIFACTS/analysis``.
"""

from __future__ import annotations

import json
import re

import pytest

from served import ROOT  # noqa: F401  (the board test's fixtures below need the same imports)
from test_board_browser import (  # noqa: F401  (fixtures: server, base_url, browser)
    ARTIFACTS,
    base_url,
    browser,
    idle,
    open_page,
    rpc,
    server,
)

pytest.importorskip("playwright.sync_api")

SHOTS = ARTIFACTS / "analysis"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
QUICK = "delay=0&pause=30&slide=0&debug=1"
NUMBER = re.compile(r"[+−]?\d+[.,]\d{3}")  # an equity as the page writes it
PROGRESS_TR = re.compile(r"(\d+) karardan (\d+) \(oyun (\d+)/(\d+)\)")  # the review's count, in Turkish
PERCENT = re.compile(r"%\s?\d|\d\s?%")  # a chance, "%52" in Turkish, "52%" in English

# every call the page makes to the analysis, kept for the test to read
WATCH = """
window.__analysis = [];
window.__sawProgress = false;
window.__progress = [];  // each text of the progress line, in order
const realFetch = window.fetch;
window.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input.url;
  const r = await realFetch(input, init);
  if (url.includes('/tavla.v1.AnalysisService/') && !url.endsWith('/SuggestAction')) {
    window.__analysis.push({method: url.split('/').pop(), status: r.status, body: !init || !init.body ? null : typeof init.body === 'string' ? init.body : new TextDecoder().decode(init.body)});
  }
  return r;
};
new MutationObserver(() => {
  const line = document.getElementById('review-progress');
  if (!line) return;
  window.__sawProgress = true;
  if (window.__progress.at(-1) !== line.textContent) window.__progress.push(line.textContent);
}).observe(document, {subtree: true, childList: true});
"""


def shot(page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def opened(browser, base_url, *, viewport=DESKTOP, locale="tr-TR", phone=False, query=QUICK):
    context, page, errors = open_page(browser, base_url, viewport=viewport, locale=locale, phone=phone, query=query)
    context.add_init_script(WATCH)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    return context, page, errors


def start(page, preset: str = "turkish", length: int = 1, opponent: str = "bot", level: str = "random", flip: bool = True) -> dict:
    if page.get_attribute("#setup-box", "open") is None:
        page.click("#setup-box summary")
    page.select_option("#preset", preset)
    page.select_option("#length", str(length))
    page.select_option("#opponent", opponent)
    if opponent == "bot":
        page.select_option("#level", level)
    else:
        page.set_checked("#flip", flip)
    page.select_option("#clock", "none")
    page.click("#new-match")
    if page.is_visible("#discard-yes"):
        page.click("#discard-yes")
    return idle(page)


def take_a_turn_step(page, state: dict) -> bool:
    """Roll, confirm, or make one step, whichever the page offers; whether it did any."""
    if page.is_visible("#roll"):
        page.click("#roll")
    elif page.is_visible("#confirm") and page.is_enabled("#confirm"):
        page.click("#confirm")
    elif state["phase"] == "moving" and state["movable"]:
        play_one_step(page, state)
    else:
        return False
    return True


def play_one_step(page, state: dict) -> None:
    """A step by tapping: the first movable checker, then its first target."""
    page.click(f"[data-spot='{state['movable'][0]}']")
    page.click(f"[data-spot='{idle(page)['targets'][0]}']")


def human_turn_with_choices(page, base_url: str, min_moves: int = 3) -> dict:
    """Against the computer: play on until white (the player) has rolled a roll with at least
    `min_moves` legal moves and has made no step yet."""
    for _ in range(200):
        state = idle(page)
        if state["phase"] == "moving" and state["side"] == "white" and state["movable"] and not json.loads(state["steps"]):
            board = json.loads(page.evaluate("tavlaDebug.driver.viewJson()"))
            moves = rpc(base_url, "ListLegalMoves", {
                "ruleset": board["ruleset"], "position": {k: board["position"][k] for k in ("onRoll", "board")},
                "dice": board["dice"], "view": "MOVE_VIEW_BASIC"}, service="RulesService")["moves"]
            if len(moves) >= min_moves:
                return state
        if state["phase"] in ("game-over", "match-over"):
            raise AssertionError("the game ended before a hint could be asked")
        if not take_a_turn_step(page, state):
            page.wait_for_timeout(50)
    raise AssertionError("no turn with a choice")


def check_hint(page, base_url: str, lang: str) -> None:
    state = idle(page)
    assert page.is_visible("#hint")
    page.click("#hint")
    page.wait_for_selector("#hint-box[data-moves]")
    items = page.locator("#hint-box li").all_inner_texts()
    assert len(items) == 3, items
    for text in items:
        assert NUMBER.search(text) and len(PERCENT.findall(text)) == 2, text  # equity, wins, gammons
    # the same three moves SuggestMove gives for the turn (the board labels are white's numbering)
    view = json.loads(page.evaluate("tavlaDebug.driver.viewJson()"))
    asked = rpc(base_url, "SuggestMove", {"ruleset": view["ruleset"], "position": {k: view["position"][k] for k in ("onRoll", "board")},
                                          "dice": view["dice"], "match": {k: v for k, v in view["match"].items() if k != "matchId"},
                                          "level": "ANALYSIS_LEVEL_EXPERT", "maxMoves": 3}, service="AnalysisService")
    assert [i.split("\n")[0].strip() for i in items] == [m["move"]["notation"] for m in asked["moves"]]
    calls = page.evaluate("window.__analysis")
    assert [c["method"] for c in calls][-1] == "SuggestMove" and calls[-1]["status"] == 200
    sent = json.loads(calls[-1]["body"])
    assert sent["dice"] == view["dice"] and sent["ruleset"] == view["ruleset"] and "match" in sent
    # the best move as arrows: one per checker move, from its point to where it lands (white's numbering)
    best = asked["moves"][0]["move"]["checkerMoves"]
    arrows = page.evaluate("[...document.querySelectorAll('svg.board .arrows line')].map((l) => [l.dataset.from, l.dataset.to, l.getAttribute('class')])")
    spot = lambda p: "off-white" if p == 0 else "bar-white" if p == 25 else str(p)  # noqa: E731
    assert sorted(a[:2] for a in arrows) == sorted([spot(m.get("fromPoint", 0)), spot(m.get("toPoint", 0))] for m in best)
    assert all(a[2] == "arrow best" for a in arrows)
    assert state["side"] == "white"


def test_hint_desktop_turkish_and_phone_english(browser, base_url):
    """Three moves with numbers and the best as arrows, in Turkish on a desktop and in English on a
    phone; the hint goes with the next action."""
    for viewport, locale, phone, name in ((DESKTOP, "tr-TR", False, "hint-desktop-tr"), (PHONE, "en-US", True, "hint-phone-en")):
        context, page, errors = opened(browser, base_url, viewport=viewport, locale=locale, phone=phone)
        try:
            start(page, "turkish" if locale == "tr-TR" else "international", length=3)
            state = human_turn_with_choices(page, base_url)
            check_hint(page, base_url, locale[:2])
            assert page.inner_text("#hint").strip() == ("İpucu" if locale == "tr-TR" else "Hint") or not page.is_visible("#hint")
            title = page.inner_text("#hint-box h2")
            assert ("en iyi hamleler" in title) if locale == "tr-TR" else ("Best moves" in title), title
            page.locator("#hint-box").scroll_into_view_if_needed()
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, name)
            play_one_step(page, state)  # the next action: the hint and its arrows are gone
            idle(page)
            assert page.is_hidden("#hint-box")
            assert page.locator("svg.board .arrows").count() == 0
        finally:
            context.close()
        assert not errors, errors


def test_hint_in_plakoto_says_what_evaluated_it(browser, base_url):
    """Plakoto has no net: the hint still lists the search player's moves and says so."""
    context, page, errors = opened(browser, base_url, locale="en-US")
    try:
        start(page, "plakoto", length=1)
        human_turn_with_choices(page, base_url, min_moves=2)
        page.click("#hint")
        page.wait_for_selector("#hint-box[data-moves]")
        assert "search player" in page.inner_text("#hint-box .note")
        assert "gammons" not in page.inner_text("#hint-box ol")
        assert page.locator("svg.board .arrows line").count() >= 1
    finally:
        context.close()
    assert not errors, errors


def finish_by_hand(page, *, flip: bool, checks: dict) -> dict:
    """Two players on one device: both sides roll, tap their steps and confirm until the match
    ends. Every turn is checked for the board's side (turned to black when `flip`)."""
    for _ in range(3000):
        state = idle(page)
        if state["phase"] == "match-over":
            return state
        if state["phase"] in ("moving", "to-roll"):
            flipped = page.get_attribute("svg.board", "data-flipped") == "1"
            assert flipped == (flip and state["side"] == "black"), (state["side"], flipped)
            checks[state["side"]] = checks.get(state["side"], 0) + 1
            if flipped and "shot" not in checks:
                # black's home (white's 19-24) at the bottom right, its labels 1..6 there
                home = page.locator("[data-spot='24'] .hit").bounding_box()
                far = page.locator("[data-spot='1'] .hit").bounding_box()
                assert home["y"] > far["y"] and home["x"] > page.locator("[data-spot='19'] .hit").bounding_box()["x"]
                if state["phase"] == "moving" and state["movable"]:
                    shot(page, "pass-and-play-black-turned")
                    checks["shot"] = 1
        assert page.evaluate("document.body.dataset.autoPlayed || '0'") is not None
        if page.is_visible("#roll"):
            page.click("#roll")
        elif page.is_visible("#next-game"):
            page.click("#next-game")
        elif page.is_visible("#confirm") and page.is_enabled("#confirm"):
            page.click("#confirm")
        elif state["phase"] == "moving" and state["movable"]:
            # the step that goes furthest: a shorter game
            page.click(f"[data-spot='{state['movable'][0]}']")
            targets = idle(page)["targets"]
            off = [t for t in targets if t.startswith("off-")]
            page.click(f"[data-spot='{(off or targets)[0]}']")
        else:
            page.wait_for_timeout(30)
    raise AssertionError("the match did not end")


def test_pass_and_play_a_whole_match_then_review(browser, base_url):
    """Turkish, desktop: a 1-point match played by hand on both sides (server dice), the board
    turned to black on black's turns; then the review: progress, both sides' figures and worst
    moves, one opened read-only with its two moves drawn, and back to the game."""
    context, page, errors = opened(browser, base_url)
    try:
        assert page.locator("#opponent option[value='human']").inner_text() == "İki oyuncu (aynı cihaz)"
        start(page, "turkish", length=1, opponent="human", flip=True)
        checks: dict = {}
        state = finish_by_hand(page, flip=True, checks=checks)
        assert checks.get("white") and checks.get("black") and checks.get("shot"), checks
        assert page.evaluate("tavlaDebug.bot.counts") == {"suggested": 0, "failed": 0}  # no computer move
        assert page.evaluate("window.__analysis") == []  # and no analysis asked
        assert "maçı" in page.inner_text("#status")
        shot(page, "pass-and-play-over")
        # the review
        assert page.inner_text("#review") == "İnceleme"
        page.click("#review")
        page.wait_for_selector("body[data-review='done']")
        assert page.evaluate("window.__sawProgress")
        calls = page.evaluate("window.__analysis")
        assert [c["method"] for c in calls] == ["StreamAnalyzeMatch"] and calls[0]["status"] == 200
        # the server's count: no number before its first message, then n of N, counting up to N
        texts = page.evaluate("window.__progress")
        counts = [tuple(map(int, m.groups())) for m in map(PROGRESS_TR.search, texts) if m]
        assert counts, texts
        totals = {total for total, _, _, _ in counts}
        done = [n for _, n, _, _ in counts]
        assert len(totals) == 1 and done == sorted(set(done)) and done[-1] == totals.pop(), counts
        assert all(1 <= game <= games for _, _, game, games in counts)
        assert all(re.search(r"\d", t) is None for t in texts if not PROGRESS_TR.search(t)), texts  # nothing made up
        sides = page.locator("#review-box h3").all_inner_texts()
        assert len(sides) == 2 and all("hata oranı" in s and "PR" in s for s in sides), sides
        worst = page.locator("#review-box ol.worst button")
        assert 1 <= worst.count() <= 10
        for ol in page.locator("#review-box ol.worst").all():
            assert ol.locator("button").count() <= 5
        first = worst.first
        text = first.inner_text()
        assert "oynanan" in text and "daha iyisi" in text, text
        first.click()
        page.wait_for_selector("body[data-review-shown]:not([data-review-shown=''])")
        idle(page)
        tones = page.evaluate("[...document.querySelectorAll('svg.board .arrows line')].map((l) => l.getAttribute('class'))")
        assert "arrow played" in tones and "arrow best" in tones, tones
        assert page.locator("[data-spot].movable").count() == 0  # read-only
        assert "Kırmızı" in page.inner_text("#review-showing")
        shot(page, "review-desktop-tr", full=True)
        page.click("#review-back")
        assert page.get_attribute("body", "data-review-shown") == ""
        assert page.locator("svg.board .arrows").count() == 0
        page.click("#review-close")
        assert page.is_hidden("#review-box")
    finally:
        context.close()
    assert not errors, errors


def connect_stream_error(code: str):
    """A route handler ending a Connect server stream with an error, as the server does past a deadline or over
    its analysis slots: HTTP 200 and the end-of-stream envelope (flags 2) holding the error."""
    def handle(route) -> None:
        end = json.dumps({"error": {"code": code, "message": "test"}}).encode()
        route.fulfill(status=200, content_type="application/connect+json",
                      body=bytes([2]) + len(end).to_bytes(4, "big") + end)
    return handle


def test_review_on_an_english_phone_and_its_errors(browser, base_url):
    """A 1-point match the computer plays on both sides (random, quick), reviewed on a phone in
    English; then StreamAnalyzeMatch ended with a deadline and with RESOURCE_EXHAUSTED (in the
    browser) gives each its message."""
    context, page, errors = opened(browser, base_url, viewport=PHONE, locale="en-US", phone=True, query=QUICK + "&bots=2")
    try:
        start(page, "international", length=1, level="random")
        page.wait_for_selector("body[data-phase='match-over'][data-busy='0']")
        page.click("#review")
        page.wait_for_selector("body[data-review='done']")
        sides = page.locator("#review-box h3").all_inner_texts()
        assert len(sides) == 2 and all("error rate" in s and "PR" in s for s in sides), sides
        page.locator("#review-box ol.worst button").first.click()
        page.wait_for_selector("body[data-review-shown]:not([data-review-shown=''])")
        assert page.locator("svg.board .arrows line").count() >= 2
        assert "Red: played" in page.inner_text("#review-showing")
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "review-phone-en")
        page.locator("#review-box").scroll_into_view_if_needed()
        shot(page, "review-phone-en-list")
        for code, words in (("deadline_exceeded", "took longer"), ("resource_exhausted", "busy")):
            page.click("#review-close")
            page.route("**/tavla.v1.AnalysisService/StreamAnalyzeMatch", connect_stream_error(code))
            page.click("#review")
            page.wait_for_selector("body[data-review='failed']")
            assert words in page.inner_text("#review-box .review-error")
            page.unroute("**/tavla.v1.AnalysisService/StreamAnalyzeMatch")
        shot(page, "review-phone-en-busy")
    finally:
        context.close()
    assert not errors, errors


def test_pass_and_play_without_turning_the_board(browser, base_url):
    """The option off: black's turns are drawn from white's side; English words for the option."""
    context, page, errors = opened(browser, base_url, locale="en-US", viewport=PHONE, phone=True)
    try:
        page.select_option("#opponent", "human")
        assert page.is_visible("#flip")
        assert page.locator("#flip-box").inner_text().strip() == "Turn the board to the player on roll"
        assert page.locator("#opponent option[value='human']").inner_text() == "Two players (this device)"
        start(page, "international", length=1, opponent="human", flip=False)
        seen = set()
        for _ in range(60):
            state = idle(page)
            if state["phase"] in ("moving", "to-roll"):
                seen.add(state["side"])
                assert page.get_attribute("svg.board", "data-flipped") == "0"
            if {"white", "black"} <= seen:
                break
            take_a_turn_step(page, state)
        assert seen == {"white", "black"}
        # turned on again from the setup: black's turn is drawn from black's side at once
        page.click("#setup-box summary")
        page.set_checked("#flip", True)
        state = idle(page)
        assert page.get_attribute("svg.board", "data-flipped") == ("1" if state["side"] == "black" else "0")
    finally:
        context.close()
    assert not errors, errors
