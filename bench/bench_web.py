"""The web board's weight and start on a phone: the gzipped sizes of the page's JavaScript and
CSS (clients/web/dist, as ``make web`` builds it), and its time to first interaction on a phone
profile (390x844, touch, 4x CPU slowdown, a "fast 3G" network: 150 ms latency, 1.6 Mbit/s down,
750 kbit/s up) in headless Chromium: from the start of navigation until the page is ready for a
tap (``body[data-ready]``: the module loaded, ListRulesets answered, the board drawn; the page
records ``performance.now()`` then). Prints figures; asserts nothing (``make bench-web``;
docs/web.md has the last figures)."""

from __future__ import annotations

import gzip
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "web" / "test"))

from served import CHROMIUM_ARGS, DIST, serve  # noqa: E402

RUNS = int(os.environ.get("BENCH_WEB_RUNS", "5"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
FAST_3G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def main() -> None:
    from playwright.sync_api import sync_playwright

    files = {"JavaScript (app.js)": DIST / "app.js", "CSS (style.css)": DIST / "style.css", "HTML (index.html)": DIST / "index.html"}
    for name, path in files.items():
        print(f"{name}: {path.stat().st_size / 1024:.1f} KiB, gzipped {gz(path) / 1024:.1f} KiB")
    with serve() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        times = []
        for _ in range(RUNS):
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3, locale="tr-TR")
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", FAST_3G)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            page.goto(url + "/")
            page.wait_for_selector("body[data-ready='1']", timeout=60_000)
            times.append(float(page.get_attribute("body", "data-ready-ms")))
            context.close()
        browser.close()
    print(f"time to first interaction, phone profile (4x CPU, fast 3G), {RUNS} cold loads: "
          f"median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f})")


if __name__ == "__main__":
    main()
