"""The web board's computer at each level: headless Chromium plays a whole Turkish
3-point match through the page for each of the four analysis levels, in tr-TR.

Both sides are the page's computer (``?bots=2``), each action chosen by
``tavla.v1.AnalysisService/SuggestAction`` at the level picked in the setup. The four matches
run at once in four pages of one browser (the test polls them in turn), so the file takes about
as long as its slowest level. For each level the test asserts that

* every computer action was SuggestAction's answer: the page's fetch of SuggestAction is
  watched (an init script) and every call must have been answered 200 with an ``action`` at the
  page's level, Playwright saw the same number of 200 responses and none other, and the bot
  never learnt that the engine lacks the analysis (so it never fell back to random play);
* the match ends: one side has at least 3 points, the page says "Maç bitti" and "maçı ... kazandı".

Screenshots (``$WEB_ARTIFACTS/levels``): each level after its first game with the setup unfolded
(the level shown), and at the end of the match. The wall time of each level's match is printed.

Run by ``make test-web`` (mk/web.mk builds the page first); ``WEB_STATE_MODE=require`` runs it
on signed states (fresh keys).
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
from pathlib import Path

import pytest

from served import CHROMIUM_ARGS, DIST, ROOT, WATCH_SUGGEST, new_context, serve

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(os.environ.get("WEB_ARTIFACTS", ROOT / ".ci" / "artifacts" / "web")) / "levels"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
STATE_MODE = os.environ.get("WEB_STATE_MODE", "off")
LEVELS = ["beginner", "intermediate", "advanced", "expert"]
# whole matches, short enough for make test-web (test_matches_browser.py plays 5 and 7 points)
LENGTH = 3
LEVEL_NAMES = {"beginner": "Acemi", "intermediate": "Orta", "advanced": "İleri", "expert": "Usta"}
STALL_POLLS = 3000  # polls (0.2 s apart) with no SuggestAction answered on any page: a hung page
QUERY = "delay=0&pause=0&slide=0&debug=1&bots=2"


class LevelMatch:
    """One page playing a whole match with the computer at ``level`` on both sides."""

    def __init__(self, browser, base_url: str, level: str) -> None:
        self.level = level
        self.context = new_context(browser, viewport={"width": 1280, "height": 800}, locale="tr-TR",
                                           reduced_motion="reduce")
        self.context.add_init_script(WATCH_SUGGEST)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.responses: dict[int, int] = {}
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", self._response)
        self.page.goto(f"{base_url}/?{QUERY}")
        self.page.wait_for_selector("body[data-ready='1']")
        self.games = 0
        self.mid_shot = False
        self.seconds = 0.0
        self.done = False

    def _response(self, response) -> None:
        if response.url.endswith("/tavla.v1.AnalysisService/SuggestAction"):
            self.responses[response.status] = self.responses.get(response.status, 0) + 1

    def start(self) -> None:
        page = self.page
        assert page.evaluate("document.documentElement.lang") == "tr"
        page.select_option("#preset", "turkish")
        page.select_option("#length", str(LENGTH))
        page.select_option("#opponent", "bot")
        page.select_option("#level", self.level)
        page.select_option("#clock", "none")
        assert page.is_checked("#forced"), "forced play is on by default"
        assert page.inner_text("#level option:checked") == LEVEL_NAMES[self.level]
        self.started = time.monotonic()
        page.click("#new-match")

    def poll(self) -> None:
        """One look at the page: start the next game when one is over, finish at the match's end."""
        page = self.page
        if page.evaluate("document.body.dataset.busy") != "0":
            return
        error = page.evaluate("document.getElementById('error').hidden ? '' : document.getElementById('error').textContent")
        assert not error, (self.level, error)
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "match-over":
            self.seconds = time.monotonic() - self.started
            self.done = True
            return
        assert page.is_visible("#next-game"), (self.level, phase, page.inner_text("#status"))
        if phase == "game-over":
            self.games += 1
            if not self.mid_shot:  # the setup unfolded: the level it plays at, the score so far
                page.click("#setup-box summary")
                self.shot("mid")
                page.click("#setup-box summary")
                self.mid_shot = True
        page.click("#next-game")

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{self.level}-{name}.png"), full_page=True)

    def check_end(self) -> dict:
        page = self.page
        page.wait_for_timeout(300)  # the last fetch's body is read after the fetch resolves
        self.shot("end")
        score = page.inner_text("#score")
        points = [int(n) for n in re.findall(r"(\d+)", score.split("\n")[0])]
        assert len(points) == 2 and max(points) >= LENGTH and min(points) < max(points), score
        assert page.inner_text("#turn") == "Maç bitti"
        status = page.inner_text("#status")
        assert re.search(r"maçı (Beyaz|Siyah) \d+-\d+ kazandı", status), status
        assert page.is_visible("#download")
        calls = page.evaluate("window.__suggest")
        assert len(calls) > 50, f"{self.level}: only {len(calls)} SuggestAction calls in a whole match"
        wanted = f"ANALYSIS_LEVEL_{self.level.upper()}"
        assert {c["level"] for c in calls} == {wanted}
        assert [c for c in calls if c["status"] != 200 or not c["action"]] == []
        assert self.responses == {200: len(calls)}, self.responses
        assert page.evaluate("window.tavlaDebug.bot.analysis") is True  # never fell back to random play
        kinds: dict[str, int] = {}
        for c in calls:
            kinds[c["action"]] = kinds.get(c["action"], 0) + 1
        return {"level": self.level, "seconds": round(self.seconds, 1), "games": self.games + 1,
                "score": points, "suggest_calls": len(calls), "kinds": kinds}


def test_each_level_plays_a_whole_turkish_match():
    """Four pages, one level each, all four 3-point matches at once; each must end in a win."""
    env = {"TAVLA_STATE_MODE": STATE_MODE}
    if STATE_MODE != "off":  # signed states, as test_board_browser.py runs them: fresh keys
        env["TAVLA_STATE_KEYS"] = "k1:" + base64.b64encode(os.urandom(32)).decode()
        env["TAVLA_DICE_KEY"] = os.urandom(32).hex()
    with serve(env) as url, \
            playwright.sync_playwright() as pw:
        assert (DIST / "index.html").is_file(), "build the page first: make web"
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            matches = [LevelMatch(browser, url, level) for level in LEVELS]
            for m in matches:
                m.start()
            # a hang detector, not a speed bound: give up only when no page gets any answer
            answered, still = -1, 0
            while not all(m.done for m in matches):
                now_answered = sum(sum(m.responses.values()) for m in matches)
                still = still + 1 if now_answered == answered else 0
                answered = now_answered
                assert still < STALL_POLLS, ("no page progressed", [(m.level, m.games) for m in matches])
                for m in matches:
                    if not m.done:
                        m.poll()
                time.sleep(0.2)
            results = [m.check_end() for m in matches]
            for r in results:
                print("level", json.dumps(r))
            for m in matches:
                assert not m.errors, (m.level, m.errors)
                assert m.mid_shot or m.games == 0
        finally:
            browser.close()
