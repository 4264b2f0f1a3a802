"""Shared set-up for the browser tests: the order pytest-xdist hands them out in."""

from __future__ import annotations

# Whole matches first: the workers take tests in this order, and a minute-long match started
# last would be the part's tail while the other workers sit idle.
FIRST = ("test_bot_levels_browser.py", "test_analysis_browser.py", "test_board_browser.py",
         "test_matches_browser.py", "test_variants_browser.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: FIRST.index(item.path.name) if item.path.name in FIRST else len(FIRST))
