"""Whole matches against the page's computer at each level, a person's side played through the
page's own input, in headless Chromium against a live server (run by ``make test-web``).

White is the person: on a 390x844 phone by touch taps (touch events through the DevTools
protocol: a tap on a movable checker, then a tap on one of the targets the page lights), on a
1366x768 desktop by mouse drags (the targets read while the checker is held). White moves its
rearmost movable checker to the furthest target lit, bearing off when it may; it rolls, confirms,
takes every double the computer offers (so the cube is played through the page too) and never
doubles. Black is the page's computer at the level chosen in the setup: every black action is
SuggestAction's answer at that level (the page's fetches are watched). Each match:

* is a whole match, Turkish tavla in tr-TR or international backgammon in en-US; it must end
  with a side at the length or more and the page saying so;
* asks for the hint once, on white's first turn with a choice: at most three moves, each with
  its figures, the best drawn as arrows from points where white has checkers;
* at the end opens the review: both sides' figures, white's errors listed (its quick, careless
  play has some), the worst one opened on the board with the played and the better move drawn.

The matches run at once in pages of one browser (the test polls them in turn). The default run
plays four 1-point matches, one per level, covering both rulesets and both devices (``DEFAULT``);
``WEB_FULL_MATCHES=1`` (``make test-web-matches``) plays all sixteen: each level, Turkish to 5 and
international to 7, on the phone and the desktop, four pages at a time.
Screenshots in ``$WEB_ARTIFACTS/matches``; each match's figures (seconds, games, actions) are
printed.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass

import pytest

from served import CHROMIUM_ARGS, DIST, WATCH_SUGGEST, new_context, serve
from test_board_browser import _READ, ARTIFACTS, CHROMIUM, Pointer, centre, mover_point

playwright = pytest.importorskip("playwright.sync_api")

SHOTS = ARTIFACTS / "matches"
QUERY = "delay=0&pause=0&slide=0&debug=1"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
LENGTH = {"turkish": 5, "international": 7}
LOCALE = {"turkish": "tr-TR", "international": "en-US"}
LEVELS = ["beginner", "intermediate", "advanced", "expert"]
FULL = os.environ.get("WEB_FULL_MATCHES") == "1"
AT_ONCE = 4  # pages playing at the same time
STALL_POLLS = 3000  # polls (0.1 s apart) in which no page did or saw anything: a hung page


@dataclass(frozen=True)
class Plan:
    level: str
    preset: str
    device: str  # "phone" or "desktop"
    length: int

    @property
    def name(self) -> str:
        return f"{self.level}-{self.preset}{self.length}-{self.device}"


# The default run: each level once, each ruleset and each device twice (the pairs turned round
# level by level), 1-point matches (whole matches, hint and review included; a 5- or 7-point
# match took 7-11 minutes on the shared 2-core machine).
DEFAULT = [Plan("beginner", "turkish", "phone", 1), Plan("intermediate", "international", "desktop", 1),
           Plan("advanced", "international", "phone", 1), Plan("expert", "turkish", "desktop", 1)]
ALL = [Plan(level, preset, device, LENGTH[preset]) for level in LEVELS for preset in LENGTH for device in ("phone", "desktop")]


# What the player sees, in one round trip: the board's state (_READ) and the buttons shown.
SEEN = """() => ({...(%s)(),
  shown: [...document.querySelectorAll('#actions button')].filter((b) => !b.hidden && !b.disabled).map((b) => b.id),
  hinted: !!document.querySelector('#hint-box .close'),
  canHover: matchMedia('(hover: hover)').matches,
  hovered: [...document.querySelectorAll('#actions button:hover')].filter((b) => !b.hidden)
    .map((b) => b.id + ' ' + getComputedStyle(b).backgroundColor)})""" % _READ

# Arrows of each tone (a move) whose first start from a point is not that point's top checker; a
# point an earlier arrow of the tone ended on is skipped (its next arrow starts from the arrival).
ARROWS_OFF_TOP = """() => {
  const seen = new Set(), bad = [];
  for (const l of document.querySelectorAll('svg.board .arrows line')) {
    const tone = l.getAttribute('class'), key = tone + ' ' + l.dataset.from;
    if (!seen.has(key)) {
      const cs = [...document.querySelectorAll(`[data-spot='${l.dataset.from}'] circle.checker:not(.pinned)`)];
      const top = cs[cs.length - 1];
      if (top && (Math.abs(top.getAttribute('cx') - l.getAttribute('x1')) > 0.5 || Math.abs(top.getAttribute('cy') - l.getAttribute('y1')) > 0.5))
        bad.push(key);
    }
    seen.add(key);
    seen.add(tone + ' ' + l.dataset.to);
  }
  return bad;
}"""

# the side headings and worst moves of the review, white's first
REVIEW = """() => [...document.querySelectorAll('#review-box h3')].map((h) => {
  const list = h.nextElementSibling && h.nextElementSibling.matches('ol.worst') ? h.nextElementSibling : null;
  return {heading: h.innerText, worst: list ? [...list.querySelectorAll('button')].map((b) => b.innerText) : []};
})"""


class PersonMatch:
    """One page: white played through the page's input, black by the page's computer."""

    def __init__(self, browser, base_url: str, plan: Plan) -> None:
        self.plan = plan
        phone = plan.device == "phone"
        self.context = new_context(browser, viewport=PHONE if phone else DESKTOP, locale=LOCALE[plan.preset],
                                           is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1,
                                           reduced_motion="reduce")
        self.context.add_init_script(WATCH_SUGGEST)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(f"{base_url}/?{QUERY}")
        self.page.wait_for_selector("body[data-ready='1']")
        self.pointer = Pointer(self.page, touch=phone)
        self.games = 1
        self.actions = 0  # white's clicks, taps and drags
        self.doubles_taken = 0
        self.hint = ""  # "", "asked", "checked"
        self.review = ""  # "", "asked", "checked"
        self.shots: set[str] = set()
        self.sticky: set[str] = set()  # phone: buttons drawn hovered after a tap elsewhere
        self.hover_checks = 0
        self.done = False
        self.started = self.seconds = self.review_seconds = 0.0

    def shot(self, name: str, full: bool = False) -> None:
        if name in self.shots:
            return
        self.shots.add(name)
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{self.plan.name}-{name}.png"), full_page=full)

    def start(self) -> None:
        page = self.page
        if page.get_attribute("#setup-box", "open") is None:
            page.click("#setup-box summary")
        page.select_option("#preset", self.plan.preset)
        page.select_option("#length", str(self.plan.length))
        page.select_option("#opponent", "bot")
        page.select_option("#level", self.plan.level)
        page.select_option("#clock", "none")
        self.started = time.monotonic()
        page.click("#new-match")

    def poll(self) -> bool:
        """At most one action of white's, or one look at the hint or the review; whether anything happened."""
        page = self.page
        state = page.evaluate(SEEN)
        if state["busy"] != "0":
            return False
        assert not state["error"], (self.plan.name, state["error"])
        # a finger leaves no hover: the button under it must look like the others (judged while
        # the browser reports the page as a device without hover, as a phone is)
        if self.plan.device == "phone" and not state["canHover"]:
            self.hover_checks += 1
            self.sticky.update(h for h in state["hovered"] if not h.endswith("rgb(255, 255, 255)"))
        phase = state["phase"]
        if self.hint == "asked":
            return state["hinted"] and self.check_hint()
        if phase == "match-over":
            return self.finish()
        if phase == "game-over":
            self.shot(f"game{self.games}-over")
            page.click("#next-game")
            self.games += 1
            return True
        if state["side"] != "white":
            return False  # the computer's turn
        self.actions += 1
        if phase == "to-roll":
            page.click("#roll")
        elif phase == "double-offered":
            self.shot("double-offered")
            page.click("#take")
            self.doubles_taken += 1
        elif phase == "resign-offered":
            page.click("#accept-resign")
        elif phase == "moving":
            if "confirm" in state["shown"]:
                page.click("#confirm")
            elif not self.hint and "hint" in state["shown"]:
                page.click("#hint")
                self.hint = "asked"
            else:
                assert state["movable"], (self.plan.name, state)
                self.step(state)
        else:
            raise AssertionError((self.plan.name, phase))
        return True

    def step(self, state: dict) -> None:
        """Move the rearmost movable checker to the furthest target the page lights for it."""
        page, on_roll = self.page, state["onRoll"]
        src = max(state["movable"], key=lambda s: mover_point(on_roll, s))
        x0, y0 = centre(page, src)
        if self.plan.device == "phone":  # a tap on the checker, then a tap on a target
            self.pointer.down(x0, y0)
            self.pointer.up(x0, y0)
            page.wait_for_selector(f"[data-spot='{src}'].selected")
            targets = page.evaluate(_READ)["targets"]
        else:  # a drag: the targets are lit while the checker is held
            self.pointer.down(x0, y0)
            self.pointer.move(x0 + 4, y0 - 12)
            self.pointer.move(x0 + 10, y0 - 30)
            page.wait_for_selector("body[data-dragging]")
            targets = page.evaluate(_READ)["targets"]
        assert targets, (self.plan.name, src, state)
        dst = min(targets, key=lambda s: mover_point(on_roll, s))
        x1, y1 = centre(page, dst)
        if self.plan.device == "phone":
            self.pointer.down(x1, y1)
            self.pointer.up(x1, y1)
        else:
            self.pointer.move(x1, y1)
            if len(targets) >= 2:  # held over its target, the other targets still lit
                self.shot("drag-targets")
            self.pointer.up(x1, y1)

    def check_hint(self) -> bool:
        page = self.page
        items = page.locator("#hint-box li").all_inner_texts()
        assert 1 <= len(items) <= 3, (self.plan.name, items, page.inner_text("#hint-box"))
        for text in items:  # the move, its equity and its chances
            assert re.search(r"[+−]?\d+[.,]\d{3}", text) and re.search(r"%\s?\d|\d\s?%", text), (self.plan.name, text)
        arrows = page.evaluate("""[...document.querySelectorAll('svg.board .arrows line')].map((l) => ({
            from: l.dataset.from, to: l.dataset.to, cls: l.getAttribute('class'),
            white: l.dataset.from === 'bar-white' ? Number(document.querySelector("[data-spot='bar-white']").dataset.count)
                 : document.querySelectorAll(`[data-spot='${l.dataset.from}'] .checker.white`).length}))""")
        assert arrows and all(a["cls"] == "arrow best" for a in arrows), (self.plan.name, arrows)
        ends: list[str] = []  # a checker moved twice: its second arrow starts where its first ended
        for a in arrows:
            assert a["white"] > 0 or a["from"] in ends, (self.plan.name, "an arrow from no white checker", arrows)
            ends.append(a["to"])
        assert page.evaluate(ARROWS_OFF_TOP) == [], (self.plan.name, "a hint arrow not from the top checker")
        self.shot("hint")
        self.hint = "checked"
        return True

    def finish(self) -> bool:
        page = self.page
        if not self.review:
            self.seconds = time.monotonic() - self.started
            self.check_score()
            page.evaluate("window.scrollTo(0, 0)")
            self.shot("end", full=True)
            page.click("#review")
            self.review, self.review_started = "asked", time.monotonic()
            return True
        if self.review == "asked":
            if page.get_attribute("body", "data-review") not in ("done", "failed"):
                return False
            self.review_seconds = time.monotonic() - self.review_started
            assert page.get_attribute("body", "data-review") == "done", (self.plan.name, page.inner_text("#review-box"))
            sides = page.evaluate(REVIEW)
            assert len(sides) == 2, (self.plan.name, sides)
            rate = r"hata oranı [\d,]+, PR [\d,]+" if self.plan.preset == "turkish" else r"error rate [\d.]+, PR [\d.]+"
            assert all(re.search(rate, s["heading"]) for s in sides), sides
            white = [s for s in sides if re.match(r"(Beyaz|White)\b", s["heading"])]
            assert len(white) == 1 and 1 <= len(white[0]["worst"]) <= 5, (self.plan.name, sides)  # white's errors listed
            # each of white's worst moves opened on the board: the played move red, the better green,
            # each drawn from the position (not the better from where the played move left it)
            assert sides[0] is white[0], sides  # white's list comes first
            for i, item in enumerate(white[0]["worst"]):
                if not re.search(r"\d-\d:", item):
                    continue  # a take that should have been a drop: no checker moves to draw
                page.locator("#review-box ol.worst").first.locator("button").nth(i).click()
                page.wait_for_selector("body[data-review-shown]:not([data-review-shown=''])")
                page.wait_for_selector("body[data-busy='0']")
                tones = page.evaluate("[...document.querySelectorAll('svg.board .arrows line')].map((l) => l.getAttribute('class'))")
                assert "arrow played" in tones and "arrow best" in tones, (self.plan.name, i, tones)
                assert page.evaluate(ARROWS_OFF_TOP) == [], (self.plan.name, i, "an arrow not from its point's top checker")
                self.shot("review", full=True)  # the first opened
            self.review = "checked"
            self.done = True
            return True
        return False

    def check_score(self) -> None:
        page, length = self.page, self.plan.length
        points = [int(n) for n in re.findall(r"(\d+)", page.inner_text("#score").split("\n")[0])]
        assert len(points) == 2 and max(points) >= length and min(points) < length, (self.plan.name, points)
        said = re.search(r"maçı (?:Beyaz|Siyah) (\d+)-(\d+) kazandı|(?:White|Black) wins the match (\d+)-(\d+)",
                         page.inner_text("#status"))
        assert said, (self.plan.name, page.inner_text("#status"))
        # the winner's score first, as players say it
        assert [int(n) for n in said.groups() if n] == sorted(points, reverse=True), (self.plan.name, said[0])
        self.score = points

    def result(self) -> dict:
        calls = self.page.evaluate("window.__suggest")
        wanted = f"ANALYSIS_LEVEL_{self.plan.level.upper()}"
        assert calls and {c["level"] for c in calls} == {wanted}, (self.plan.name, calls[:3])
        assert all(c["status"] == 200 for c in calls), (self.plan.name, [c for c in calls if c["status"] != 200])
        assert self.page.evaluate("window.tavlaDebug.bot.analysis") is True  # never fell back to random play
        assert self.hint == "checked" and self.review == "checked", (self.plan.name, self.hint, self.review)
        assert not self.errors, (self.plan.name, self.errors)
        assert not self.sticky, (self.plan.name, "hover drawn on a phone", self.sticky)
        assert self.plan.device != "phone" or self.hover_checks > 10, (self.plan.name, self.hover_checks)
        return {"match": self.plan.name, "seconds": round(self.seconds, 1), "review_seconds": round(self.review_seconds, 1),
                "games": self.games, "score": self.score, "white_actions": self.actions,
                "computer_calls": len(calls), "doubles_taken": self.doubles_taken}


def test_whole_matches_against_each_level():
    plans = ALL if FULL else DEFAULT
    with serve() as url, playwright.sync_playwright() as pw:
        assert (DIST / "index.html").is_file(), "build the page first: make web"
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            waiting, playing, results = list(plans), [], []
            still, seen = 0, -1
            while waiting or playing:
                while waiting and len(playing) < AT_ONCE:
                    m = PersonMatch(browser, url, waiting.pop(0))
                    m.start()
                    playing.append(m)
                moved = False
                for m in playing:
                    moved |= m.poll()
                # a hang detector, not a speed bound: the computer's answers count as progress too
                now_seen = sum(len(m.page.evaluate("window.__suggest")) for m in playing)
                still = 0 if moved or now_seen != seen else still + 1
                seen = now_seen
                assert still < STALL_POLLS, ("no page progressed", [(m.plan.name, m.games) for m in playing])
                for m in [m for m in playing if m.done]:
                    results.append(m.result())
                    print("match", json.dumps(results[-1]))
                    m.context.close()
                    playing.remove(m)
                if not moved:
                    time.sleep(0.1)
            assert sorted(r["match"] for r in results) == sorted(p.name for p in plans)
        finally:
            browser.close()
