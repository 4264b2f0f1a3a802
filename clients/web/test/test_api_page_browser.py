"""The API page (``/api/``: Swagger UI over ``GET /openapi.json``) in a real browser: headless
Chromium (the system's, driven by Playwright) against ``tavla-engine serve --http-port --web-dir``.

Run by ``make test-web`` with the board's test (mk/web.mk builds the page, with Swagger UI's files
from npm, into clients/web/dist/api). The page must list every operation the document has, load
nothing from any other host, prefill the examples, and send a call the server answers: the answer
it shows must be the engine's own answer to the same request, and a refused move must show the
Connect error. Screenshots go to ``$WEB_ARTIFACTS`` (default ``.ci/artifacts/web``).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from served import CHROMIUM_ARGS, DIST, ROOT, serve

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(os.environ.get("WEB_ARTIFACTS", ROOT / ".ci" / "artifacts" / "web"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    assert (DIST / "api" / "index.html").is_file(), "build the page first: make web"
    with serve() as url:
        yield url


def engine(base_url: str, path: str, body: dict) -> tuple[int, dict]:
    """The engine's own answer to a Connect JSON call (status, JSON body)."""
    request = urllib.request.Request(f"{base_url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.fixture()
def api_page(base_url):
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        hosts: set[str] = set()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: hosts.add(r.url.split("/")[2]) if "://" in r.url else None)
        page.goto(f"{base_url}/api/")
        page.wait_for_selector(".opblock-summary", timeout=30_000)
        yield page
        browser.close()
        assert not errors, errors
        assert hosts == {base_url.split("/")[2]}, f"the page loaded from other hosts: {hosts}"


def execute(page, operation_id: str, tag: str, body: str | None = None) -> tuple[str, str, object]:
    """Open an operation, optionally replace its request body, Execute; the prefilled body (as
    JSON), the status and the answer body the page shows (as JSON)."""
    block = page.locator(f"#operations-{tag}-{operation_id}")
    block.locator(".opblock-summary").first.click()
    text = block.locator("textarea.body-param__text")
    text.wait_for()
    prefilled = json.loads(text.input_value())
    if body is not None:
        text.fill(body)
    block.locator("button.execute").click()
    status = block.locator(".live-responses-table tbody .response-col_status")
    status.wait_for(timeout=30_000)
    shown = block.locator(".live-responses-table tbody .response-col_description pre").first.inner_text()
    return prefilled, status.inner_text().strip(), json.loads(shown)


def test_the_page_lists_every_operation_of_the_document(api_page, base_url):
    with urllib.request.urlopen(f"{base_url}/openapi.json", timeout=10) as r:
        document = json.loads(r.read())
    expected = {f"{op['post']['tags'][0]}-{op['post']['operationId']}" for op in document["paths"].values()}
    shown = {i.removeprefix("operations-") for i in api_page.eval_on_selector_all(
        ".opblock", "els => els.map(e => e.id)")}
    assert shown == expected
    assert len(shown) == 29  # every RPC but ValidateMatch: 7 + 12 + 3 + ExportMatch + 6 AnalysisService (its stream too)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    api_page.screenshot(path=str(ARTIFACTS / "api-page.png"))


def test_an_example_call_from_the_page_is_answered_by_the_server(api_page, base_url):
    prefilled, status, shown = execute(api_page, "RulesService_NameRoll", "RulesService")
    assert prefilled == {"dice": [6, 5]}  # the document's example
    assert status == "200"
    assert shown == engine(base_url, "/tavla.v1.RulesService/NameRoll", prefilled)[1]
    assert shown["name"]["turkish"] == "şeşbeş"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    api_page.screenshot(path=str(ARTIFACTS / "api-name-roll.png"), full_page=True)

    prefilled, status, shown = execute(api_page, "RulesService_ApplyMove", "RulesService")
    assert status == "200" and shown["move"]["notation"] == "24/23 13/8"
    assert shown == engine(base_url, "/tavla.v1.RulesService/ApplyMove", prefilled)[1]


def test_a_refused_move_shows_the_connect_error(api_page, base_url):
    illegal = {"position": {"positionId": "4HPwATDgc/ABMA"}, "dice": [5, 1], "move": {"notation": "24/23"}}
    _, status, shown = execute(api_page, "RulesService_ApplyMove", "RulesService", json.dumps(illegal))
    assert status == "400"
    assert shown["code"] == "invalid_argument"
    info = next(d for d in shown["details"] if d["type"] == "google.rpc.ErrorInfo")
    assert info["debug"]["reason"] == "MUST_USE_BOTH_DICE"
    assert engine(base_url, "/tavla.v1.RulesService/ApplyMove", illegal) == (400, shown)
