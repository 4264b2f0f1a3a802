"""What players meet on the board, each checked in headless Chromium against a live server
(run by ``make test-web``; the fixtures and helpers are the board test's):

* a finger's tap whose click the browser sends late (after any 0 ms timer) still selects the
  checker, and the next tap on a target is still a step;
* "match resumed" after a reload stays up while the page's own clock runs (Playwright's fake
  clock), then goes;
* the count of sliding checkers (``data-sliding``, the board's ``sliding``) is never negative and
  back at exactly 0 after slides that finished and slides cut short by the next move;
* words: an error re-said in the new language after a switch (the referee's reason asked again,
  the page's own for a lost connection, never the browser's "Failed to fetch"), no English in the
  Turkish page and no Turkish in the English one; mars and katmerli mars in Turkish whatever the
  variant; a mars worth more than the match needed says so; English plurals;
* the defaults: the intermediate computer, no clock, lengths 1-11 in Turkish tavla (R18) and up
  to 25 elsewhere; resigning a gammon (mars); the cube showing a double offered; every roll and
  the computer's plays announced in an aria-live region (the roll's Turkish name in Turkish).

Screenshots (desktop 1366x768 and phone 390x844, Turkish and English) go to
``$WEB_ARTIFACTS/players``.
"""

from __future__ import annotations

import json
import re

import pytest

from served import ROOT  # noqa: F401  (the board test's fixtures below need the same imports)
from test_board_browser import (  # noqa: F401  (fixtures: server, base_url, browser)
    ARTIFACTS,
    Pointer,
    base_url,
    browser,
    centre,
    idle,
    open_page,
    server,
)

playwright = pytest.importorskip("playwright.sync_api")

SHOTS = ARTIFACTS / "players"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
QUICK = "delay=0&pause=30&slide=0&debug=1"

# words of the English catalogue, the browser and the service that must not show in the Turkish page
ENGLISH = [r"\bFailed\b", r"\bfetch\b", r"point\(s\)", r"\bpoints?\b", r"\bcheckers?\b", r"\bwins\b", r"\bgammon\b",
           r"\bThe\b", r"\bengine\b", r"\bdid not\b", r"\bMatch\b", r"\bmove\b", r"\bRoll\b", r"\bResign\b",
           r"\bcannot\b", r"\bconnection\b", r"\bto roll\b", r"\bWhite\b", r"\bBlack\b"]
# and Turkish words that must not show in the English page (the rolls' names, R26, are names)
TURKISH = [r"\bMotor\b", r"\byanıt\b", r"\bsayı\b", r"\bkazandı\b", r"\bSıra\b", r"\bpulu?\b", r"\bhane",
           r"\bZar at\b", r"\bReddet\b", r"\boyna", r"\bbağlan", r"\bBeyaz\b", r"\bSiyah\b", r"\bgidemez\b", r"\bkapı"]
PANELS = "() => [...document.querySelectorAll('aside .panel')].filter((p) => !p.hidden).map((p) => p.innerText).join('\\n')"


def leaks(text: str, words: list[str]) -> list[str]:
    return [w for w in words if re.search(w, text)]


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def start(page, preset: str = "turkish", length: int = 3, opponent: str = "human", clock: str = "none") -> dict:
    if page.get_attribute("#setup-box", "open") is None:
        page.click("#setup-box summary")
    page.select_option("#preset", preset)
    page.select_option("#length", str(length))
    page.select_option("#opponent", opponent)
    page.select_option("#clock", clock)
    page.click("#new-match")
    if page.is_visible("#discard-yes"):  # a match in progress is discarded only when asked
        page.click("#discard-yes")
    return idle(page)


def someone_moving(page) -> dict:
    """Two players on one page: roll (or confirm) until the side on roll has a checker to move."""
    for _ in range(20):
        state = idle(page)
        if state["phase"] == "moving" and state["movable"]:
            return state
        if state["phase"] == "to-roll":
            page.click("#roll")
        elif page.is_visible("#confirm") and page.is_enabled("#confirm"):
            page.click("#confirm")
        else:
            raise AssertionError(state)
    raise AssertionError("no one had a move")


def to_roll(page) -> dict:
    """Two players on one page: play (first listed steps) until a side is to roll."""
    for _ in range(40):
        state = idle(page)
        if state["phase"] == "to-roll":
            return state
        if page.is_visible("#confirm") and page.is_enabled("#confirm"):
            page.click("#confirm")
            continue
        page.click(f"[data-spot='{state['movable'][0]}']")
        page.click(f"[data-spot='{idle(page)['targets'][0]}']")
    raise AssertionError("no side came to roll")


# The browser's click after a finger's tap, held back and sent again 60 ms later: later than any
# 0 ms timer (players' phones sent it up to ~300 ms late).
LATE_CLICKS = """
window.__lateClicks = 0;
document.addEventListener('click', (ev) => {
  if (!ev.isTrusted) return;
  ev.stopImmediatePropagation();
  ev.preventDefault();
  const target = ev.target;
  const init = {bubbles: true, cancelable: true, composed: true, clientX: ev.clientX, clientY: ev.clientY,
                pointerType: ev.pointerType || 'touch', view: window};
  setTimeout(() => { target.dispatchEvent(new PointerEvent('click', init)); window.__lateClicks++; }, 60);
}, true);
"""


def test_phone_tap_with_a_late_click(browser, base_url):
    context, page, errors = open_page(browser, base_url, viewport=PHONE, phone=True, query=QUICK)
    try:
        start(page)
        state = someone_moving(page)
        page.evaluate(LATE_CLICKS)
        finger = Pointer(page, touch=True)
        src = state["movable"][0]
        x, y = centre(page, src)
        finger.down(x, y)
        finger.up(x, y)
        page.wait_for_function("window.__lateClicks === 1")
        state = idle(page)
        assert page.get_attribute(f"[data-spot='{src}']", "class").split().count("selected") == 1, "the tap selected the checker"
        assert state["targets"], state
        shot(page, "phone-tr-tap-selected")
        # the target is no drag source: its tap is the click, which must not be swallowed
        x, y = centre(page, state["targets"][0])
        finger.down(x, y)
        finger.up(x, y)
        page.wait_for_function("window.__lateClicks === 2")
        state = idle(page)
        assert len(json.loads(state["steps"])) == 1, state["steps"]
    finally:
        context.close()
    assert not errors, errors


def pause(page) -> int:
    """Stop the page's clock a little ahead of its now (pause_at cannot go back, and the page's
    time runs on while the call travels); the page's time it stopped at (ms)."""
    for margin in (50, 500, 5000):
        try:
            page.clock.pause_at((page.evaluate("Date.now()") + margin) / 1000)  # seconds
            return int(page.evaluate("Date.now()"))
        except playwright.Error as exc:
            if "to the past" not in str(exc):
                raise
    raise AssertionError("the page's clock ran past every margin")


def test_resumed_notice_stays(browser, base_url):
    context, page, errors = open_page(browser, base_url, viewport=DESKTOP, query=QUICK)
    try:
        page.clock.install()
        start(page)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        idle(page)
        shown = int(page.get_attribute("body", "data-notice-shown"))
        until = int(page.get_attribute("body", "data-notice-until"))
        assert until - shown >= 2000, until - shown  # the page's promise: read for 2 s at least
        paused = pause(page)  # the page's time stands from here until the test moves it
        if paused < until - 1:  # else the page's time ran past the notice before it could stop
            assert page.is_visible("#notice")
            assert page.inner_text("#notice") == "Maç kaldığın yerden sürüyor."
            shot(page, "desktop-tr-resumed")
            page.clock.run_for(until - 1 - paused)
            assert page.is_visible("#notice"), "still there until its time"
        page.clock.run_for(500)  # the timer set just after `shown` has run
        assert page.is_hidden("#notice"), "gone after its time"
    finally:
        context.close()
    assert not errors, errors


# every value data-sliding takes, and the board's own count, watched from the page's start
SLIDING = """
window.__sliding = [];
new MutationObserver(() => window.__sliding.push(document.body.dataset.sliding ?? "0"))
  .observe(document.body, {attributes: true, attributeFilter: ['data-sliding']});
"""


def test_sliding_count_never_negative(browser, base_url):
    context, page, errors = open_page(browser, base_url, viewport=DESKTOP, query="delay=0&pause=30&slide=1200&debug=1")
    try:
        page.evaluate(SLIDING)
        start(page)
        state = someone_moving(page)
        # a step, and a second while the first checker still slides (its slide is cut short)
        page.click(f"[data-spot='{state['movable'][0]}']")
        page.click(f"[data-spot='{idle(page)['targets'][0]}']")
        page.wait_for_selector("body[data-sliding]")
        state = idle(page)
        if state["movable"]:
            page.click(f"[data-spot='{state['movable'][0]}']")
            page.click(f"[data-spot='{idle(page)['targets'][0]}']")
        page.wait_for_function("!document.body.dataset.sliding", timeout=10_000)
        # redraws after the slides finished (a finished animation cancelled again must not count)
        state = idle(page)
        for _ in range(3):
            if state["movable"]:
                page.click(f"[data-spot='{state['movable'][0]}']")
                page.click(f"[data-spot='{state['movable'][0]}']")
        page.keyboard.press("Escape")
        if page.is_visible("#undo") and page.is_enabled("#undo"):
            page.click("#undo")  # a redraw of another position
            idle(page)
        page.wait_for_function("!document.body.dataset.sliding", timeout=10_000)
        seen = page.evaluate("window.__sliding")
        assert seen and all(int(v) >= 0 for v in seen), seen
        assert page.evaluate("tavlaDebug.board.sliding") == 0
        assert page.get_attribute("body", "data-sliding") is None
    finally:
        context.close()
    assert not errors, errors


def refused_drop(page) -> str:
    """Drag a movable checker onto a point it may not go to; the referee's reason is shown."""
    state = someone_moving(page)
    for src in state["movable"]:
        page.click(f"[data-spot='{src}']")
        targets = idle(page)["targets"]
        page.keyboard.press("Escape")
        for q in range(1, 25):
            dst = str(q)
            if dst == src or dst in targets:
                continue
            (x0, y0), (x1, y1) = centre(page, src), centre(page, dst)
            page.mouse.move(x0, y0)
            page.mouse.down()
            page.mouse.move(x1, y1, steps=4)
            page.mouse.up()
            state = idle(page, error_ok=True)
            if state["error"]:
                return state["error"]
    raise AssertionError("no refused drop found")


def test_error_follows_the_language(browser, base_url):
    context, page, errors = open_page(browser, base_url, viewport=DESKTOP, query=QUICK)
    try:
        start(page, preset="international")
        tr_reason = refused_drop(page)
        assert not leaks(tr_reason, ENGLISH), tr_reason
        assert not leaks(page.evaluate(PANELS), ENGLISH), page.evaluate(PANELS)
        page.select_option("#lang", "en")
        page.wait_for_function("(old) => document.getElementById('error').textContent !== old", arg=tr_reason)
        en_reason = page.inner_text("#error")
        assert not leaks(en_reason, TURKISH), en_reason
        assert not leaks(page.evaluate(PANELS), TURKISH), page.evaluate(PANELS)
        page.select_option("#lang", "tr")
        # the page's own word shows until the reason asked again in Turkish comes back
        page.wait_for_function("(want) => document.getElementById('error').textContent === want", arg=tr_reason)

        # no answer at all: the page's words, never the browser's
        page.route("**/tavla.v1.RefereeService/Act", lambda route: route.abort())
        state = idle(page, error_ok=True)
        page.click(f"[data-spot='{state['movable'][0]}']")
        page.click(f"[data-spot='{idle(page, error_ok=True)['targets'][0]}']")
        state = idle(page, error_ok=True)
        assert state["error"].startswith("Motor yanıt vermedi: sunucuya bağlanılamadı"), state["error"]
        text = page.evaluate(PANELS)
        assert not leaks(text, ENGLISH), text
        shot(page, "desktop-tr-no-connection")
        page.select_option("#lang", "en")
        assert page.inner_text("#error").startswith("The engine did not answer: no connection")
        text = page.evaluate(PANELS)
        assert not leaks(text, TURKISH), text
        shot(page, "desktop-en-no-connection")
        page.unroute("**/tavla.v1.RefereeService/Act")
    finally:
        context.close()
    assert not errors, errors


def resign_and_accept(page, kind: str) -> None:
    to_roll(page)
    assert page.is_visible("#resign-kind")
    options = page.eval_on_selector_all("#resign-kind option", "(os) => os.map((o) => o.value)")
    assert {"1", "2", "3"} <= set(options), options  # single, gammon (mars), backgammon (katmerli mars)
    page.select_option("#resign-kind", kind)
    page.click("#resign")
    assert idle(page)["phase"] == "resign-offered"
    page.click("#accept-resign")
    idle(page)


def test_words_mars_and_plurals(browser, base_url):
    # Turkish, a backgammon board: a resigned gammon is a mars, worth 2 of a 3-point match
    context, page, errors = open_page(browser, base_url, viewport=DESKTOP, query=QUICK)
    try:
        start(page, preset="international", length=3)
        resign_and_accept(page, "2")
        state = idle(page)
        assert state["phase"] == "game-over"
        status = page.inner_text("#status")
        assert re.search(r"2 sayı kazandı \(mars\)", status) and "gammon" not in status, status
        assert not leaks(page.evaluate(PANELS), ENGLISH), page.evaluate(PANELS)
        shot(page, "desktop-tr-mars-resigned")
        # a mars in a 1-point match: one point was all it needed
        start(page, preset="turkish", length=1)
        resign_and_accept(page, "2")
        assert idle(page)["phase"] == "match-over"
        status = page.inner_text("#status")
        assert "mars yaptı" in status and "maçı kazanmak için 1 sayı yetti" in status, status
        assert "1 sayı kazandı (mars)" not in status
        shot(page, "desktop-tr-mars-capped")
        page.select_option("#lang", "en")
        status = page.inner_text("#status")
        assert "wins with a gammon (mars)" in status and "1 point was enough to win the match" in status, status
        assert not leaks(page.evaluate(PANELS), TURKISH), page.evaluate(PANELS)
        shot(page, "desktop-en-mars-capped")
    finally:
        context.close()
    assert not errors, errors
    # English plurals: "1 point", "2 white checkers"
    context, page, errors = open_page(browser, base_url, viewport=DESKTOP, locale="en-US", query=QUICK)
    try:
        start(page, preset="international", length=3)
        assert "2 white checkers" in page.get_attribute("[data-spot='24']", "aria-label")
        assert "(s)" not in page.get_attribute("[data-spot='24']", "aria-label")
        resign_and_accept(page, "1")
        status = page.inner_text("#status")
        assert re.search(r"wins 1 point \(", status) and "(s)" not in status, status
        assert "(s)" not in page.inner_text("#log")
    finally:
        context.close()
    assert not errors, errors


ANNOUNCED = """
window.__announced = [];
new MutationObserver(() => window.__announced.push(document.getElementById('announce').textContent))
  .observe(document.getElementById('announce'), {childList: true, characterData: true, subtree: true});
"""


def test_defaults_cube_and_announcements(browser, base_url):
    context, page, errors = open_page(browser, base_url, viewport=DESKTOP, query="delay=0&pause=30&slide=0&debug=1")
    suggested: list[str] = []
    page.on("request", lambda r: suggested.append(r.post_data or "") if r.url.endswith("/SuggestAction") else None)
    try:
        assert page.input_value("#level") == "intermediate"
        assert page.input_value("#clock") == "none"
        assert page.input_value("#preset") == "turkish"
        lengths = lambda: page.eval_on_selector_all("#length option", "(os) => os.map((o) => Number(o.value))")  # noqa: E731
        assert lengths() == [1, 3, 5, 7, 9, 11]
        page.select_option("#preset", "international")
        assert lengths() == [1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25]
        page.select_option("#preset", "turkish")
        shot(page, "desktop-tr-setup")
        page.evaluate(ANNOUNCED)
        page.click("#new-match")  # everything as it comes: the computer, no clock
        state = idle(page)
        assert page.is_hidden("#clock-line")
        for _ in range(40):  # white plays its first listed steps until the computer has moved
            if any("oynadı" in a or "oynayamadı" in a for a in page.evaluate("window.__announced")) and suggested:
                break
            if state["phase"] == "to-roll":
                page.click("#roll")
            elif page.is_visible("#confirm") and page.is_enabled("#confirm"):
                page.click("#confirm")
            elif state["movable"]:
                page.click(f"[data-spot='{state['movable'][0]}']")
                page.click(f"[data-spot='{idle(page)['targets'][0]}']")
            state = idle(page)
        announced = page.evaluate("window.__announced")
        assert suggested and all("ANALYSIS_LEVEL_INTERMEDIATE" in s for s in suggested), suggested[:3]
        assert any(re.search(r"Siyah (oynadı|oynayamadı)", a) for a in announced), announced
        rolls = [a for a in announced if "zar attı" in a]
        assert rolls and all(re.search(r"zar attı: \d-\d \(\w", a) for a in rolls), rolls  # with the roll's name
        assert page.get_attribute("#announce", "aria-live") == "polite"
        shot(page, "desktop-tr-computer")
    finally:
        context.close()
    assert not errors, errors

    # the cube while a double waits for its answer: turned to 2, in the middle, ringed
    for lang, viewport, phone in (("en-US", DESKTOP, False), ("tr-TR", PHONE, True), ("en-US", PHONE, True)):
        context, page, errors = open_page(browser, base_url, viewport=viewport, locale=lang, phone=phone, query=QUICK)
        try:
            start(page, preset="international", length=5)
            to_roll(page)
            assert page.get_attribute(".cube", "data-value") == "64"
            page.click("#double")
            assert idle(page)["phase"] == "double-offered"
            assert page.get_attribute(".cube", "class") == "cube offered"
            assert page.get_attribute(".cube", "data-value") == "2"
            shot(page, f"{'phone' if phone else 'desktop'}-{lang[:2]}-double-offered")
            page.click("#take")
            assert idle(page)["phase"] == "to-roll"
            assert page.get_attribute(".cube", "class") == "cube"
            assert page.get_attribute(".cube", "data-value") == "2"
            text = page.evaluate(PANELS)
            assert not leaks(text, ENGLISH if lang == "tr-TR" else TURKISH), text
        finally:
            context.close()
        assert not errors, errors


def test_an_engine_that_does_not_answer_is_said_at_load(browser, base_url):
    # nothing listens on this port: the page says so at once, in the page's language
    from served import free_port

    for locale, words in (("tr-TR", "Motor yanıt vermedi: sunucuya bağlanılamadı"),
                          ("en-US", "The engine did not answer: no connection")):
        context, page, errors = open_page(browser, base_url, locale=locale,
                                          query=f"{QUICK}&engine=http://127.0.0.1:{free_port()}")
        try:
            assert page.is_visible("#error")
            assert page.inner_text("#error").startswith(words), page.inner_text("#error")
            assert page.eval_on_selector_all("#preset option", "(os) => os.length") >= 2  # the static list stays
        finally:
            context.close()
        assert not errors, errors
