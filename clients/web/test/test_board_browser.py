"""The web board in a real browser: headless Chromium (the system's, driven by Playwright) plays
whole games through the page against ``tavla-engine serve --http-port --web-dir``.

Run by ``make test-web`` (mk/web.mk), which builds the page and installs Chromium first. Three
games: a 1-point Turkish game and a doubled international game against the bot, and two players
on one page until a resignation. At every step the test checks what the page shows against the
engine itself: the checkers the page lets you pick and the destinations it highlights must be
exactly the STEP actions ``ListActions`` lists for the signed state the page holds (asked over
Connect JSON by the test, R4-R14; the page itself reads them from each Act's answer), the score
after the game must be what the status line says was won, and the game must end with the page
saying so. ``WEB_STATE_MODE=require`` (or ``sign``) runs the server with signed states, fresh
keys and a dice key (docs/security.md); the default is the server's default, ``off``. Screenshots go to
``$WEB_ARTIFACTS`` (default ``.ci/artifacts/web``): start, mid-move with targets, a checker on
the bar after a hit, game over.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from served import CHROMIUM_ARGS, DIST, ROOT, serve

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(os.environ.get("WEB_ARTIFACTS", ROOT / ".ci" / "artifacts" / "web"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
STATE_MODE = os.environ.get("WEB_STATE_MODE", "off")
MAX_ACTIONS = 3000  # clicks in one game before the test gives up (a game is ~300)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    assert (DIST / "index.html").is_file(), "build the page first: make web"
    env = {"TAVLA_STATE_MODE": STATE_MODE}
    if STATE_MODE != "off":
        env["TAVLA_STATE_KEYS"] = "k1:" + base64.b64encode(os.urandom(32)).decode()
        env["TAVLA_DICE_KEY"] = os.urandom(32).hex()
    with serve(env) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1280, "height": 760})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(f"{base_url}/?delay=0")
    yield p
    context.close()
    assert not errors, errors


def rpc(base_url: str, method: str, request: dict) -> dict:
    req = urllib.request.Request(f"{base_url}/tavla.v1.RefereeService/{method}", data=json.dumps(request).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


# One round trip for what the test reads after every action: the body's data-* (phase, side,
# position, dice, steps), the error line, the highlighted spots and the checkers on the bars.
_READ = """() => ({...document.body.dataset,
  error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
  movable: [...document.querySelectorAll("[data-spot].movable")].map((e) => e.dataset.spot),
  targets: [...document.querySelectorAll("[data-spot].target")].map((e) => e.dataset.spot),
  onBar: [...document.querySelectorAll("[data-spot^='bar-']")].reduce((n, e) => n + Number(e.dataset.count), 0)})"""


def idle(page) -> dict:
    page.wait_for_selector("body[data-busy='0']")
    state = page.evaluate(_READ)
    assert not state["error"], state["error"]
    return state


def spot(on_roll: str, point: int) -> str:
    """The page's data-spot of a point in the mover's numbering (25 = bar, 0 = off)."""
    if point == 25:
        return f"bar-{on_roll}"
    if point == 0:
        return f"off-{on_roll}"
    return str(point if on_roll == "white" else 25 - point)


def mover_point(on_roll: str, spot_name: str) -> int:
    if spot_name.startswith("bar-"):
        return 25
    if spot_name.startswith("off-"):
        return 0
    return int(spot_name) if on_roll == "white" else 25 - int(spot_name)


class Game:
    """Plays white's side through the page and records what it saw; black is the page's bot.
    White moves its rearmost movable checker as far as it may (a quick race, so games are short)."""

    def __init__(self, page, base_url: str, preset: str, shots: str) -> None:
        self.page, self.base_url, self.preset, self.shots = page, base_url, preset, shots
        self.taken: set[str] = set()
        self.steps_checked = 0
        self.undone = False

    def shot(self, name: str) -> None:
        if name not in self.taken:
            self.taken.add(name)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(ARTIFACTS / f"{self.shots}-{name}.png"))

    def start(self, length: int) -> None:
        self.page.select_option("#preset", self.preset)
        self.page.select_option("#length", str(length))
        self.page.select_option("#opponent", "bot")
        self.page.click("#new-match")
        state = idle(self.page)
        assert state["phase"] in ("to-roll", "moving")
        assert re.fullmatch(r"White 0 – Black 0.*", self.page.inner_text("#score").splitlines()[0])
        assert "167" in self.page.inner_text("#pips")  # R2: 167 pips a side at the start
        self.shot("start")

    def play_until_over(self, *, double: bool = False) -> dict[str, str]:
        for _ in range(MAX_ACTIONS):
            state = idle(self.page)
            if state["onBar"]:
                self.shot("bar-after-hit")
            phase = state["phase"]
            if phase in ("game-over", "match-over"):
                return state
            assert state["side"] == "white", state  # the bot has played its turn
            if phase == "to-roll":
                if double and self.page.is_enabled("#double"):
                    self.double()
                    double = False
                    continue
                self.page.click("#roll")
            elif phase == "moving":
                self.move_step(state)
            else:
                raise AssertionError(f"unexpected phase {phase}")
        raise AssertionError("the game did not end")

    def double(self) -> None:
        """R19: white doubles before rolling; the bot takes, so the cube is 2 and black's."""
        self.page.click("#double")
        state = idle(self.page)
        assert state["phase"] == "to-roll" and state["side"] == "white"
        assert self.page.inner_text("#cube-line") == "Cube 2, Black's"
        assert self.page.is_disabled("#double")  # the cube is black's now
        self.shot("doubled")

    def move_step(self, state: dict) -> None:
        page = self.page
        if page.is_enabled("#confirm"):
            if state["steps"] == "[]":
                assert page.inner_text("#confirm") == "Pass (no move)"
                assert not state["movable"]
            page.click("#confirm")
            return
        dice = [int(d) for d in state["dice"].split(",")]
        assert page.inner_text("#dice") == f"Dice {dice[0]}-{dice[1]}"
        assert page.inner_text("#dice-name").strip("“”"), "every roll has its Turkish name (R26)"
        steps = json.loads(state["steps"])
        signed = json.loads(state["state"])
        if STATE_MODE == "require":
            assert signed.get("signature") and signed.get("keyId"), "the page holds the signed state"
        listed = rpc(self.base_url, "ListActions", {"state": signed})
        assert listed["view"]["phase"] == "GAME_PHASE_MOVING" and listed["view"].get("dice") == dice
        legal = {"nextSteps": [a["step"] for a in listed["actions"] if a["kind"] == "ACTION_KIND_STEP"]}
        on_roll = state["onRoll"]
        expected_movable = {spot(on_roll, s.get("fromPoint", 0)) for s in legal["nextSteps"]}
        assert set(state["movable"]) == expected_movable
        first = max(state["movable"], key=lambda name: mover_point(on_roll, name))
        page.click(f"[data-spot='{first}']")
        targets = set(idle(page)["targets"])
        expected = {spot(on_roll, s.get("toPoint", 0)) for s in legal["nextSteps"] if spot(on_roll, s.get("fromPoint", 0)) == first}
        assert targets == expected and targets, (first, targets, expected)
        self.steps_checked += 1
        if len(targets) >= 2 or self.steps_checked > 6:
            self.shot("targets")
        target = min(targets, key=lambda name: mover_point(on_roll, name))
        page.click(f"[data-spot='{target}']")
        after = idle(page)
        assert len(json.loads(after["steps"])) == len(steps) + 1
        if not self.undone:  # once per game: take the step back, the position returns, then redo it
            page.click("#undo")
            assert json.loads(idle(page)["steps"]) == steps
            self.undone = True


def record_digest(record: list[dict]) -> bytes:
    """The running digest of a record kept from Act's events.records (docs/game-state.md):
    SHA-256("tavla-record-v1" || previous || the entry's deterministic bytes) from 32 zero bytes."""
    from google.protobuf import json_format

    from tavla.v1 import game_pb2

    digest = bytes(32)
    for entry in record:
        data = json_format.ParseDict(entry, game_pb2.ActionRecord()).SerializeToString(deterministic=True)
        digest = hashlib.sha256(b"tavla-record-v1" + digest + data).digest()
    return digest


def state_record_digest(state: dict) -> bytes:
    """The record_digest inside the signed state the page holds."""
    from tavla.v1 import game_pb2

    signed = json.loads(state["state"])
    return game_pb2.GameState.FromString(base64.b64decode(signed["state"])).record_digest


def scores(page) -> tuple[int, int]:
    m = re.match(r"White (\d+) – Black (\d+)", page.inner_text("#score"))
    assert m, page.inner_text("#score")
    return int(m.group(1)), int(m.group(2))


def test_one_point_turkish_game(page, base_url):
    game = Game(page, base_url, "turkish", "turkish")
    game.start(1)
    assert page.inner_text("#cube-line") == "No cube (Turkish rules)"
    state = game.play_until_over()
    game.shot("game-over")
    assert state["phase"] == "match-over"
    status = page.inner_text("#status")
    m = re.fullmatch(r"(White|Black) wins (\d) points?.*— (White|Black) wins the match (\d)-(\d)", status)
    assert m and m.group(1) == m.group(3), status
    assert sorted(scores(page)) == [0, 1]  # R18: a 1-point match ends 1-0 even after a mars
    # The record the page kept from each Act's events.records is the whole match: it leads to the
    # signed state's record digest, and its last entry ends the match.
    record = json.loads(state["record"])
    assert len(record) > 10 and record[-1].get("outcome"), record[-3:]
    assert record_digest(record) == state_record_digest(state)
    assert scores(page)[0 if m.group(1) == "White" else 1] == 1
    assert game.steps_checked > 10 and game.undone


def test_doubled_international_game(page, base_url):
    game = Game(page, base_url, "international", "international")
    game.start(3)
    assert page.inner_text("#cube-line") == "Cube 1, centred"
    state = game.play_until_over(double=True)
    game.shot("game-over")
    assert state["phase"] in ("game-over", "match-over")
    status = page.inner_text("#status")
    m = re.match(r"(White|Black) wins (\d) points?", status)
    assert m, status
    points = int(m.group(2))
    assert points in (2, 3)  # the cube at 2 (R19): 2 a single game, 4 or 6 capped at the length 3 (R18)
    white, black = scores(page)
    assert (white, black) == ((points, 0) if m.group(1) == "White" else (0, points))
    assert game.taken >= {"doubled", "targets", "game-over"}


def test_two_players_on_one_page_and_a_resignation(page, base_url):
    """Hot seat: both sides click; black's targets are checked in black's numbering, then black
    resigns a single game and white accepts (1 point, R18)."""
    page.select_option("#preset", "international")
    page.select_option("#length", "3")
    page.select_option("#opponent", "human")
    page.click("#new-match")
    game = Game(page, base_url, "international", "hotseat")
    for _ in range(40):  # until the first player's move is confirmed and the other is to roll
        state = idle(page)
        if state["phase"] == "to-roll":
            break
        game.move_step(state)
    mover = state["onRoll"]
    assert page.is_visible("#roll") and page.is_visible("#double") and page.is_enabled("#double")
    page.click("#roll")
    state = idle(page)
    assert state["phase"] == "moving" and state["onRoll"] == mover
    game.move_step(state)  # checks the movable checkers and targets against ListActions
    page.click("#resign")
    state = idle(page)
    assert state["phase"] == "resign-offered"
    assert page.is_visible("#accept-resign") and page.is_visible("#reject-resign")
    page.click("#accept-resign")
    state = idle(page)
    assert state["phase"] == "game-over"
    winner = "White" if mover == "black" else "Black"
    assert page.inner_text("#status").startswith(f"{winner} wins 1 point")
    assert scores(page) == ((1, 0) if winner == "White" else (0, 1))
    assert page.is_visible("#next-game")
